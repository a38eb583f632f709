//! uiautomator2's on-device server as the simulated phone runs it: what a host's socket
//! to `tcp:9008` gets, byte for byte as the real one (`com.wetest.uia2.Main` of the PyPI
//! `uiautomator2` 3.x's `u2.jar`: NanoHTTPD, jsonrpc4j, and the
//! openatx/android-uiautomator-server stubs), so that the real client drives the sim.
//!
//! - `GET /ping` answers `pong`; `POST /jsonrpc/0` a JSON-RPC call ([`rpc`]) to a method
//!   ([`methods`]); any other path `404 Not Found!!!`, as the server does.
//! - `dumpWindowHierarchy` writes the screen at that moment ([`tree`], [`xml`]): the
//!   server sets `waitForIdleTimeout` to 0, so a dump mid-animation shows the frame.
//! - Selectors ([`selector`]) match as `BySelector` or `UiSelector`, regexes in a subset
//!   of Java's ([`pattern`]).
//! - Each request pays the request's cost under the phone's profile, a dump its
//!   serialization too (`costs.rs`); gestures take the time they take on a phone.

mod http;
mod info;
mod methods;
mod pattern;
mod rpc;
mod selector;
mod tree;
mod xml;

#[cfg(test)]
mod tests;

use crate::stability::Clock;

use super::phone::SimPhone;
use http::{Read, Reader, Request, Response};

/// One host connection to the server: the requests it sent so far, decoded.
#[derive(Debug)]
pub(crate) struct U2Connection {
    reader: Reader,
    closed: bool,
}

impl U2Connection {
    pub(crate) fn new() -> Self {
        Self {
            reader: Reader::new(),
            closed: false,
        }
    }

    /// Bytes the host sent; whole HTTP/1.1 responses to send back, and whether to close
    /// after them (the request asked to, or was refused). Calls block for as long as the
    /// server would (a gesture, a wait), on the phone's clock.
    pub(crate) fn received<C: Clock + Clone + Send>(
        &mut self,
        phone: &SimPhone<C>,
        bytes: &[u8],
    ) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        if self.closed {
            return (out, true);
        }
        for read in self.reader.push(bytes) {
            match read {
                Read::Request(request) => {
                    let response = serve(phone, &request);
                    out.extend_from_slice(&response.bytes(request.keep_alive));
                    if !request.keep_alive {
                        self.closed = true;
                        break;
                    }
                }
                Read::Refused(response) => {
                    out.extend_from_slice(&response.bytes(false));
                    self.closed = true;
                    break;
                }
            }
        }
        (out, self.closed)
    }
}

impl Default for U2Connection {
    fn default() -> Self {
        Self::new()
    }
}

/// The answer to one request, as `AutomatorHttpServer.serve` routes it.
fn serve<C: Clock + Clone + Send>(phone: &SimPhone<C>, request: &Request) -> Response {
    phone.pay_u2_request();
    match request.path.as_str() {
        "/ping" => Response::ok("text/html", b"pong".to_vec()),
        "/jsonrpc/0" if request.body.is_empty() => {
            Response::text(500, "Internal Server Error", "Invalid http post data!")
        }
        "/jsonrpc/0" => {
            let body = rpc::answer(&request.body, |call| methods::call(phone, call));
            Response::ok("application/json", body.into_bytes())
        }
        _ => Response::text(404, "Not Found", "Not Found!!!"),
    }
}

impl<C: Clock + Clone + Send> SimPhone<C> {
    /// uiautomator2's `dumpWindowHierarchy(false, 50)` as its server answers it: the
    /// request's way there, the screen at that moment (mid-animation frames included),
    /// its serialization and the way back, each at the profile's cost.
    pub fn u2_dump(&self) -> String {
        self.pay_u2_request();
        dump(self, false, 50, false)
    }
}

/// `dumpWindowHierarchy(compressed, max_depth, active_only)`: the screen at this moment
/// and the server's serialization of it (its cost paid). `compressed` drops nothing on
/// the sim: every node it shows is important for accessibility.
pub(super) fn dump<C: Clock + Clone + Send>(
    phone: &SimPhone<C>,
    compressed: bool,
    max_depth: i64,
    active_only: bool,
) -> String {
    let _ = compressed;
    let screen = tree::Screen::of(&phone.sim());
    let (xml, nodes) = xml::hierarchy(&screen, max_depth, active_only);
    phone.pay_u2_serialize(nodes);
    xml
}

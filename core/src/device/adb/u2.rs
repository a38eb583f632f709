//! uiautomator2's server on the phone, asked through the ADB server: the device service
//! `tcp:9008` opened on the phone (no forward), one HTTP/1.1 request on it (`GET /ping`,
//! `POST /jsonrpc/0`), the answer read whole before a deadline. Every way it can fail is
//! a [`HelperFault`].

use std::net::SocketAddrV4;
use std::time::Instant;

use super::socket;
use crate::device::http_stream::{HttpStream, Message};
use crate::device::u2_rpc::dump_in;
use crate::stability::look::HelperFault;

/// The device port uiautomator2's server listens on (`-p 9008`).
pub const PORT: u16 = 9008;
/// The longest answer read: a dump of a very large screen is a few MiB.
const MAX_ANSWER: usize = 64 * 1024 * 1024;
const DUMP_CALL: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"dumpWindowHierarchy","params":[false,50]}"#;

/// Whether uiautomator2's server answers `pong` on `serial`.
pub(super) fn ping(
    address: SocketAddrV4,
    serial: &str,
    deadline: Instant,
) -> Result<(), HelperFault> {
    let request = "GET /ping HTTP/1.1\r\nHost: 127.0.0.1:9008\r\nConnection: close\r\n\r\n";
    let answer = exchange(address, serial, request.as_bytes(), deadline)?;
    if status_of(&answer) == Some(200) && answer.body.trim_ascii() == b"pong" {
        Ok(())
    } else {
        Err(HelperFault::NotTheHelper)
    }
}

/// The screen as uiautomator2's `dumpWindowHierarchy` gives it: uiautomator XML.
pub(super) fn dump(
    address: SocketAddrV4,
    serial: &str,
    deadline: Instant,
) -> Result<String, HelperFault> {
    let request = format!(
        "POST /jsonrpc/0 HTTP/1.1\r\nHost: 127.0.0.1:9008\r\nUser-Agent: tapscope\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n\
         {DUMP_CALL}",
        DUMP_CALL.len()
    );
    let answer = exchange(address, serial, request.as_bytes(), deadline)?;
    if status_of(&answer) != Some(200) {
        return Err(HelperFault::NotTheHelper);
    }
    dump_of_answer(&answer.body)
}

/// The XML of a JSON-RPC answer to `dumpWindowHierarchy`, or what is wrong with it.
pub(super) fn dump_of_answer(body: &[u8]) -> Result<String, HelperFault> {
    let answer: serde_json::Value =
        serde_json::from_slice(body).map_err(|_| HelperFault::NotTheHelper)?;
    if answer.get("error").is_some() {
        return Err(HelperFault::Refused);
    }
    let xml = dump_in(answer).ok_or(HelperFault::Garbage)?;
    if !xml.contains("<node") {
        return Err(HelperFault::Empty);
    }
    Ok(xml)
}

/// `HTTP/1.1 200 OK` → 200.
fn status_of(answer: &Message) -> Option<u16> {
    let mut words = answer.start.split_ascii_whitespace();
    words
        .next()
        .filter(|v| v.starts_with("HTTP/"))
        .and(words.next())
        .and_then(|code| code.parse().ok())
}

/// Sends `request` on a fresh `tcp:9008` stream to `serial` and reads one answer.
fn exchange(
    address: SocketAddrV4,
    serial: &str,
    request: &[u8],
    deadline: Instant,
) -> Result<Message, HelperFault> {
    let stream = socket::open(address, serial, &format!("tcp:{PORT}"), deadline)?;
    let mut answers = HttpStream::new(MAX_ANSWER);
    socket::exchange(stream, request, deadline, |bytes| {
        match answers.push(bytes).into_iter().next() {
            Some(answer) if answer.body_len > answer.body.len() as u64 => Err(HelperFault::Garbage),
            Some(answer) => Ok(Some(answer)),
            None if answers.lost() => Err(HelperFault::NotTheHelper),
            None => Ok(None),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_answer_is_its_xml_and_every_other_answer_a_fault() {
        // As uiautomator2's server answers (openatx/android-uiautomator-server,
        // JsonRpcServer): the XML as a JSON string in `result`.
        let xml = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\"><node index=\"0\" text=\"TapTube\" bounds=\"[0,0][100,100]\" /></hierarchy>"#;
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"result":"{xml}"}}"#);
        let dumped = dump_of_answer(body.as_bytes()).unwrap();
        assert!(dumped.contains(r#"text="TapTube""#), "{dumped}");
        let empty = r#"{"jsonrpc":"2.0","id":1,"result":"<?xml version='1.0' ?><hierarchy rotation=\"0\" />"}"#;
        assert_eq!(dump_of_answer(empty.as_bytes()), Err(HelperFault::Empty));
        let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"java.lang.IllegalStateException: UiAutomation not connected"}}"#;
        assert_eq!(dump_of_answer(error.as_bytes()), Err(HelperFault::Refused));
        assert_eq!(
            dump_of_answer(br#"{"jsonrpc":"2.0","id":1,"result":42}"#),
            Err(HelperFault::Garbage)
        );
        assert_eq!(
            dump_of_answer(b"<html>nginx</html>"),
            Err(HelperFault::NotTheHelper)
        );
    }

    #[test]
    fn the_status_is_read_from_the_start_line() {
        let answer = |start: &str| Message {
            start: start.to_owned(),
            body: Vec::new(),
            body_len: 0,
        };
        assert_eq!(status_of(&answer("HTTP/1.1 200 OK")), Some(200));
        assert_eq!(status_of(&answer("HTTP/1.0 404 Not Found")), Some(404));
        assert_eq!(status_of(&answer("SSH-2.0-OpenSSH")), None);
    }
}

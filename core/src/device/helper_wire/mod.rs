//! What two on-device helpers say on the wire, written and read with no I/O:
//!
//! - **droidrun's Portal** (`com.mobilerun.portal`, before April 2026 `com.droidrun.portal`):
//!   `adb shell content query --uri content://…/state_full`. Android's `content` tool prints
//!   the provider's one row as `Row: 0 result=<value>`; Portal's value is a JSON envelope,
//!   `{"status":"success","result":…}` or `{"status":"error","error":"…"}`. Since Portal
//!   0.4.8 (December 2025) `state_full`'s `result` is the state object itself; before, the
//!   state was a JSON string under `data`.
//! - **mobilecli's dump server** (`localabstract:mobilecli-server`, formerly
//!   `mobilecli-uidump` and devicekit-android's `devicekit`): JSON-RPC 2.0, one request and
//!   one answer per connection, framed as HTTP/1.1 with `Content-Length` and
//!   `Connection: close`. `device.dump.ui` answers `{"hierarchy":[…]}`, one root a window.
//!
//! Each reader gives the screen's JSON for [`crate::parse::parse_str`], or the
//! [`HelperFault`] that says how the helper failed.
//!
//! ```
//! use tapscope_core::device::helper_wire::{PortalQuery, portal_command, portal_reply};
//! assert_eq!(
//!     portal_command(PortalQuery::SCREEN),
//!     "content query --uri 'content://com.mobilerun.portal/state_full?filter=false'"
//! );
//! let printed = r#"Row: 0 result={"status":"success","result":{"a11y_tree":{"className":
//! "android.widget.FrameLayout","boundsInScreen":{"left":0,"top":0,"right":1080,"bottom":2400},
//! "children":[]},"phone_state":{"packageName":"com.app"}}}"#.replace('\n', "");
//! let tree = tapscope_core::parse::parse_str(&portal_reply(&printed).unwrap()).unwrap();
//! assert_eq!((tree.nodes.len(), tree.app.as_str()), (1, "com.app"));
//! ```

use crate::device::http_stream::HttpStream;
use crate::device::look::HelperFault;

/// Portal's package since its rename (April 2026, Portal 0.6.4), and its content
/// provider's authority.
pub const PORTAL_PACKAGE: &str = "com.mobilerun.portal";
/// Portal's package and authority before the rename.
pub const PORTAL_LEGACY_PACKAGE: &str = "com.droidrun.portal";

/// The adb device services mobilecli's dump server has listened on, newest first: its
/// `DeviceServer`, its `UiDumpServer` (mobilecli 1.0.8, #387), and devicekit-android's
/// `DeviceKitServer` (mobilecli #334). Each speaks the same JSON-RPC.
pub const MOBILECLI_SERVICES: [&str; 3] = [
    "localabstract:mobilecli-server",
    "localabstract:mobilecli-uidump",
    "localabstract:devicekit",
];

/// Which Portal app is asked: the current one or the one before its rename.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortalApp {
    Mobilerun,
    Droidrun,
}

impl PortalApp {
    /// Newest first: the order to try them in.
    pub const ALL: [PortalApp; 2] = [PortalApp::Mobilerun, PortalApp::Droidrun];

    /// Its content provider's authority (also its package).
    pub fn authority(self) -> &'static str {
        match self {
            PortalApp::Mobilerun => PORTAL_PACKAGE,
            PortalApp::Droidrun => PORTAL_LEGACY_PACKAGE,
        }
    }
}

/// What Portal is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PortalEndpoint {
    /// The active window's whole tree, unfiltered (Portal otherwise drops nodes under 1 %
    /// on screen), with `phone_state` and `device_context`.
    StateFull,
    /// The active window's whole tree alone, unfiltered.
    A11yTreeFull,
    /// Portal's own pick of visible elements with `phone_state`.
    State,
    /// Portal's own pick of visible elements alone.
    A11yTree,
    /// `pong` when its accessibility service runs.
    Ping,
    /// Portal's version, even when its accessibility service is off.
    Version,
}

impl PortalEndpoint {
    /// The URI's path and query.
    pub fn path(self) -> &'static str {
        match self {
            PortalEndpoint::StateFull => "state_full?filter=false",
            PortalEndpoint::A11yTreeFull => "a11y_tree_full?filter=false",
            PortalEndpoint::State => "state",
            PortalEndpoint::A11yTree => "a11y_tree",
            PortalEndpoint::Ping => "ping",
            PortalEndpoint::Version => "version",
        }
    }
}

/// One query of one Portal app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PortalQuery {
    pub app: PortalApp,
    pub endpoint: PortalEndpoint,
}

impl PortalQuery {
    /// The screen as tapscope reads it: the current Portal's unfiltered `state_full`.
    pub const SCREEN: PortalQuery = PortalQuery {
        app: PortalApp::Mobilerun,
        endpoint: PortalEndpoint::StateFull,
    };
    /// Whether the current Portal answers.
    pub const PING: PortalQuery = PortalQuery {
        app: PortalApp::Mobilerun,
        endpoint: PortalEndpoint::Ping,
    };

    /// `content://AUTHORITY/PATH`.
    pub fn uri(self) -> String {
        format!(
            "content://{}/{}",
            self.app.authority(),
            self.endpoint.path()
        )
    }
}

/// The shell command that asks Portal: `content query --uri '…'` (quoted: the URI's `?`
/// is a glob character to the shell).
///
/// ```
/// use tapscope_core::device::helper_wire::{PortalApp, PortalEndpoint, PortalQuery, portal_command};
/// let ping = PortalQuery { app: PortalApp::Droidrun, endpoint: PortalEndpoint::Ping };
/// assert_eq!(portal_command(ping), "content query --uri 'content://com.droidrun.portal/ping'");
/// ```
pub fn portal_command(query: PortalQuery) -> String {
    format!("content query --uri '{}'", query.uri())
}

/// What Portal answered, out of everything `content query` printed (stdout and stderr
/// together): the screen's JSON for the tree endpoints (`pong` for [`PortalEndpoint::Ping`]).
///
/// [`HelperFault::Absent`] when no provider has the authority (Portal not installed), or no
/// `content` tool; [`HelperFault::Refused`] for Portal's `{"status":"error",…}` (its
/// accessibility service off, no active window) and for a provider that threw;
/// [`HelperFault::NotTheHelper`] when the row or envelope is not Portal's;
/// [`HelperFault::Empty`] for no row, nothing printed, or a tree with no node;
/// [`HelperFault::Garbage`] for a value that is not one JSON object (cut short, say).
/// Only the envelope is checked: the tree itself is for the parser.
///
/// ```
/// use tapscope_core::device::helper_wire::portal_reply;
/// use tapscope_core::device::look::HelperFault;
/// assert_eq!(portal_reply(r#"Row: 0 result={"status":"success","result":"pong"}"#), Ok("pong".into()));
/// let off = r#"Row: 0 result={"status":"error","error":"Accessibility service not available"}"#;
/// assert_eq!(portal_reply(off), Err(HelperFault::Refused));
/// let absent = "Error while accessing provider:com.mobilerun.portal\n\
///               java.lang.IllegalStateException: Could not find provider: com.mobilerun.portal\n";
/// assert_eq!(portal_reply(absent), Err(HelperFault::Absent));
/// ```
pub fn portal_reply(output: &str) -> Result<String, HelperFault> {
    let row = output
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .find_map(|line| line.strip_prefix("Row: 0 "));
    let Some(row) = row else {
        return Err(no_row(output));
    };
    // Portal's cursor has one column, `result`.
    let value = row
        .strip_prefix("result=")
        .ok_or(HelperFault::NotTheHelper)?;
    let envelope = members(value).ok_or(HelperFault::Garbage)?;
    let member = |name: &str| {
        envelope
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, v)| *v)
    };
    let status = member("status").map(|s| json_string(s).unwrap_or_default());
    let payload = match status.as_deref() {
        Some("success") => ["result", "data", "message"]
            .into_iter()
            .find_map(member)
            .ok_or(HelperFault::Garbage)?,
        Some("error") => return Err(HelperFault::Refused),
        Some(_) => return Err(HelperFault::NotTheHelper),
        // A state with no envelope around it.
        None if member("a11y_tree").is_some() => value,
        None => return Err(HelperFault::NotTheHelper),
    };
    // Before Portal 0.4.8 every payload was a JSON string holding the JSON.
    let payload = json_string(payload).unwrap_or_else(|| payload.to_owned());
    if holds_no_tree(&payload) {
        return Err(HelperFault::Empty);
    }
    Ok(payload)
}

/// Why `content query` printed no row.
fn no_row(output: &str) -> HelperFault {
    if output.contains("Could not find provider") || output.contains("content: inaccessible") {
        HelperFault::Absent
    } else if output.contains("Unknown URI") || output.contains("Unknown URL") {
        HelperFault::NotTheHelper
    } else if output.contains("Error while accessing provider:") {
        HelperFault::Refused
    } else if output.trim().is_empty() || output.contains("No result found.") {
        HelperFault::Empty
    } else {
        HelperFault::Garbage
    }
}

/// A list or state with no element: `[]`, `{}`, or an empty `a11y_tree`.
fn holds_no_tree(payload: &str) -> bool {
    let trimmed = payload.trim();
    if trimmed == "[]" || trimmed == "{}" {
        return true;
    }
    members(trimmed).is_some_and(|members| {
        members
            .iter()
            .rev()
            .find(|(key, _)| key == "a11y_tree")
            .is_some_and(|(_, tree)| matches!(tree.trim(), "[]" | "{}" | "null"))
    })
}

/// What mobilecli's dump server is sent: the HTTP/1.1 POST of JSON-RPC `device.dump.ui`
/// with `id`, asking for no idle wait (tapscope settles by comparing snapshots) and every
/// window, the keyboard's too (`full`, which servers before it ignore, sending them all).
///
/// ```
/// let request = tapscope_core::device::helper_wire::mobilecli_request(7);
/// let text = String::from_utf8(request).unwrap();
/// assert!(text.starts_with("POST / HTTP/1.1\r\n"));
/// assert!(text.ends_with(r#"{"jsonrpc":"2.0","id":7,"method":"device.dump.ui","params":{"waitUntilIdle":0,"full":true}}"#));
/// ```
pub fn mobilecli_request(id: u64) -> Vec<u8> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"device.dump.ui","params":{{"waitUntilIdle":0,"full":true}}}}"#
    );
    format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// What has come back from mobilecli's dump server so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MobilecliReply {
    /// Not the whole answer yet: read on, then call again with everything read. At the
    /// end of the stream this is [`HelperFault::Died`].
    Incomplete,
    /// The whole answer.
    Complete {
        /// The JSON-RPC `id` it answers, when it is an integer.
        id: Option<u64>,
        /// The dump's JSON, `{"hierarchy":[…]}`, for [`crate::parse::parse_str`].
        dump: String,
    },
}

/// The longest answer read: the largest dump the parser takes.
const MAX_REPLY: u64 = crate::parse::MAX_INPUT_BYTES;

/// Reads everything mobilecli's dump server has sent so far.
///
/// [`HelperFault::NotTheHelper`] when it is not an HTTP `200` answer;
/// [`HelperFault::Refused`] for a JSON-RPC error; [`HelperFault::Garbage`] for a body
/// that is not a JSON-RPC answer holding `{"hierarchy":[…]}`; [`HelperFault::Empty`] for
/// a hierarchy with no window.
///
/// ```
/// use tapscope_core::device::helper_wire::{MobilecliReply, mobilecli_reply};
/// let body = r#"{"jsonrpc":"2.0","id":7,"result":{"hierarchy":[{"class":"F","rect":{"x":0,"y":0,"width":10,"height":10}}]}}"#;
/// let answer = format!(
///     "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
///     body.len()
/// );
/// assert_eq!(mobilecli_reply(&answer.as_bytes()[..60]), Ok(MobilecliReply::Incomplete));
/// let Ok(MobilecliReply::Complete { id, dump }) = mobilecli_reply(answer.as_bytes()) else { panic!() };
/// assert_eq!(id, Some(7));
/// assert_eq!(tapscope_core::parse::parse_str(&dump).unwrap().nodes.len(), 1);
/// ```
pub fn mobilecli_reply(bytes: &[u8]) -> Result<MobilecliReply, HelperFault> {
    let start = &bytes[..bytes.len().min(5)];
    if !b"HTTP/".starts_with(start) {
        return Err(HelperFault::NotTheHelper);
    }
    let mut stream = HttpStream::new(MAX_REPLY as usize);
    let message = stream.push(bytes).into_iter().next();
    if stream.lost() && message.is_none() {
        return Err(HelperFault::NotTheHelper);
    }
    let Some(message) = message else {
        return Ok(MobilecliReply::Incomplete);
    };
    if message.start.split(' ').nth(1) != Some("200") {
        return Err(HelperFault::NotTheHelper);
    }
    if message.body_len > MAX_REPLY {
        return Err(HelperFault::Garbage);
    }
    let body = std::str::from_utf8(&message.body).map_err(|_| HelperFault::Garbage)?;
    let answer = members(body).ok_or(HelperFault::Garbage)?;
    let member = |name: &str| {
        answer
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, v)| *v)
    };
    if member("error").is_some_and(|e| e.trim() != "null") {
        return Err(HelperFault::Refused);
    }
    let result = member("result").ok_or(HelperFault::Garbage)?;
    let hierarchy = members(result)
        .ok_or(HelperFault::Garbage)?
        .into_iter()
        .rev()
        .find(|(key, _)| key == "hierarchy")
        .map(|(_, v)| v.trim())
        .ok_or(HelperFault::Garbage)?;
    if !hierarchy.starts_with('[') {
        return Err(HelperFault::Garbage);
    }
    if hierarchy == "[]" {
        return Err(HelperFault::Empty);
    }
    Ok(MobilecliReply::Complete {
        id: member("id").and_then(|id| id.trim().parse().ok()),
        dump: result.to_owned(),
    })
}

/// The members of the one JSON object `text` holds, each value as its text; `None` when
/// `text` is not one object. Values are checked as far as their extent needs: strings and
/// scalars whole, containers for balanced brackets (the parser reads them later).
fn members(text: &str) -> Option<Vec<(String, &str)>> {
    let b = text.as_bytes();
    let mut at = skip_space(b, 0);
    if b.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_space(b, at + 1);
    let mut out = Vec::new();
    if b.get(at) == Some(&b'}') {
        return (skip_space(b, at + 1) == b.len()).then_some(out);
    }
    loop {
        let key_end = string_end(b, at)?;
        let key: String = serde_json::from_str(&text[at..key_end]).ok()?;
        at = skip_space(b, key_end);
        if b.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(b, at + 1);
        let end = value_end(text, start)?;
        out.push((key, &text[start..end]));
        at = skip_space(b, end);
        match b.get(at) {
            Some(b',') => at = skip_space(b, at + 1),
            Some(b'}') => return (skip_space(b, at + 1) == b.len()).then_some(out),
            _ => return None,
        }
    }
}

fn skip_space(b: &[u8], mut at: usize) -> usize {
    while b
        .get(at)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
    {
        at += 1;
    }
    at
}

/// Where the string starting at `at` ends (past its closing quote).
fn string_end(b: &[u8], at: usize) -> Option<usize> {
    if b.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match *b.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            c if c < 0x20 => return None,
            _ => i += 1,
        }
    }
}

/// Where the value starting at `at` ends.
fn value_end(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    match *b.get(at)? {
        b'"' => string_end(b, at),
        b'{' | b'[' => {
            let mut closers = Vec::new();
            let mut i = at;
            loop {
                match *b.get(i)? {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' => closers.push(b'}'),
                    b'[' => closers.push(b']'),
                    c @ (b'}' | b']') => {
                        if closers.pop() != Some(c) {
                            return None;
                        }
                        if closers.is_empty() {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let len = b[at..]
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n'))
                .unwrap_or(b.len() - at);
            let scalar = &text[at..at + len];
            serde_json::from_str::<serde_json::Value>(scalar)
                .ok()
                .filter(|v| !v.is_object() && !v.is_array())?;
            Some(at + len)
        }
    }
}

/// The string a JSON string literal holds; `None` when `value` is not one.
fn json_string(value: &str) -> Option<String> {
    serde_json::from_str(value.trim()).ok()
}

#[cfg(test)]
mod tests;

//! HTTP/1.1 as uiautomator2's server speaks it (NanoHTTPD): requests read however their
//! bytes are split, with a `Content-Length` body; each answer with its length, and
//! `Connection: keep-alive` unless the request asked to close (or was HTTP/1.0).
//!
//! Bounded, unlike NanoHTTPD: a head over 8 KiB (NanoHTTPD's own header buffer,
//! `BUFSIZE = 8192`) or a body over 1 MiB is refused with the connection closed, before
//! any of the body is kept.

/// The longest request line and headers read.
pub(super) const MAX_HEAD: usize = 8 * 1024;
/// The longest body read: a JSON-RPC call from uiautomator2 is a few hundred bytes.
pub(super) const MAX_BODY: usize = 1 << 20;

/// One request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Request {
    pub method: String,
    /// The path, without its query.
    pub path: String,
    pub body: Vec<u8>,
    /// Whether the connection stays open after the answer.
    pub keep_alive: bool,
}

/// What the bytes read so far made.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Read {
    Request(Request),
    /// A request that is refused, answered with this and the connection closed.
    Refused(Response),
}

#[derive(Debug)]
enum State {
    /// Gathering a head; `scanned` bytes of the buffer hold no blank line.
    Head {
        scanned: usize,
    },
    Body {
        request: Request,
        remaining: usize,
    },
    /// A request was refused: nothing more is read.
    Done,
}

/// One connection's requests, decoded incrementally.
#[derive(Debug)]
pub(super) struct Reader {
    buffer: Vec<u8>,
    state: State,
}

impl Reader {
    pub(super) fn new() -> Self {
        Self {
            buffer: Vec::new(),
            state: State::Head { scanned: 0 },
        }
    }

    /// Reads `bytes`; the requests they completed, in order.
    pub(super) fn push(&mut self, mut bytes: &[u8]) -> Vec<Read> {
        let mut done = Vec::new();
        while !bytes.is_empty() {
            match &mut self.state {
                State::Done => break,
                State::Head { scanned } => {
                    let before = self.buffer.len();
                    let room = (MAX_HEAD + 4).saturating_sub(before).max(1);
                    let take = bytes.len().min(room);
                    self.buffer.extend_from_slice(&bytes[..take]);
                    let from = scanned.saturating_sub(3);
                    let Some((at, blank)) = head_end(&self.buffer[from..]) else {
                        *scanned = self.buffer.len();
                        bytes = &bytes[take..];
                        if self.buffer.len() > MAX_HEAD {
                            done.push(self.refuse(
                                431,
                                "Request Header Fields Too Large",
                                "the request's head is over 8 KiB",
                            ));
                        }
                        continue;
                    };
                    // The head ends in what was just added: the rest of it is read again.
                    let end = from + at + blank;
                    bytes = &bytes[end.saturating_sub(before)..];
                    let head = String::from_utf8_lossy(&self.buffer[..from + at]).into_owned();
                    self.buffer.clear();
                    self.state = match parse_head(&head) {
                        Err(refusal) => {
                            self.buffer = Vec::new();
                            done.push(Read::Refused(refusal));
                            State::Done
                        }
                        Ok((request, 0)) => {
                            done.push(Read::Request(request));
                            State::Head { scanned: 0 }
                        }
                        Ok((request, length)) => State::Body {
                            request,
                            remaining: length,
                        },
                    };
                }
                State::Body { request, remaining } => {
                    let take = bytes.len().min(*remaining);
                    request.body.extend_from_slice(&bytes[..take]);
                    *remaining -= take;
                    bytes = &bytes[take..];
                    if *remaining == 0
                        && let State::Body { request, .. } =
                            std::mem::replace(&mut self.state, State::Head { scanned: 0 })
                    {
                        done.push(Read::Request(request));
                    }
                }
            }
        }
        done
    }

    /// How many bytes of the request being read are kept.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        let body = match &self.state {
            State::Body { request, .. } => request.body.len(),
            _ => 0,
        };
        self.buffer.len() + body
    }

    fn refuse(&mut self, status: u16, reason: &'static str, why: &str) -> Read {
        self.state = State::Done;
        self.buffer = Vec::new();
        Read::Refused(Response::text(status, reason, why))
    }
}

/// Where the head ends in `bytes` and how long its blank line is (`\r\n\r\n` or `\n\n`).
fn head_end(bytes: &[u8]) -> Option<(usize, usize)> {
    let crlf = memchr::memmem::find(bytes, b"\r\n\r\n").map(|at| (at, 4));
    let lf = memchr::memmem::find(bytes, b"\n\n").map(|at| (at, 2));
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The request a head starts and its body's length, or the answer refusing it.
fn parse_head(head: &str) -> Result<(Request, usize), Response> {
    let mut lines = head.lines();
    let start = lines.next().unwrap_or_default();
    let mut words = start.split_ascii_whitespace();
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return Err(bad_request());
    };
    // NanoHTTPD assumes HTTP/1.1 when the line names no version.
    let version = words.next().unwrap_or("HTTP/1.1");
    if !version.starts_with("HTTP/") || words.next().is_some() {
        return Err(bad_request());
    }
    const METHODS: [&str; 9] = [
        "GET", "PUT", "POST", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PATCH",
    ];
    if !METHODS.contains(&method) {
        return Err(Response::text(
            400,
            "Bad Request",
            &format!(
                "BAD REQUEST: Syntax error. HTTP verb {} unhandled.",
                method.escape_debug()
            ),
        ));
    }
    let mut length = 0usize;
    let mut close = version != "HTTP/1.1";
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse().map_err(|_| bad_request())?;
        } else if name.eq_ignore_ascii_case("connection") {
            close = value.to_ascii_lowercase().contains("close");
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Response::text(
                411,
                "Length Required",
                "send the body with a Content-Length: the server reads no chunked bodies",
            ));
        }
    }
    if length > MAX_BODY {
        return Err(Response::text(
            413,
            "Payload Too Large",
            &format!("a body of {length} bytes is over the 1 MiB the simulated server reads"),
        ));
    }
    let path = target.split('?').next().unwrap_or_default().to_owned();
    Ok((
        Request {
            method: method.to_owned(),
            path,
            body: Vec::with_capacity(length),
            keep_alive: !close,
        },
        length,
    ))
}

/// NanoHTTPD's answer to a request line it cannot read.
fn bad_request() -> Response {
    Response::text(
        400,
        "Bad Request",
        "BAD REQUEST: Syntax error. Usage: GET /example/file.html",
    )
}

/// One answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Response {
    pub status: u16,
    pub reason: &'static str,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    /// `200 OK` with `body`.
    pub(super) fn ok(content_type: &'static str, body: Vec<u8>) -> Self {
        Self {
            status: 200,
            reason: "OK",
            content_type,
            body,
        }
    }

    /// A plain-text answer.
    pub(super) fn text(status: u16, reason: &'static str, body: &str) -> Self {
        Self {
            status,
            reason,
            content_type: "text/plain",
            body: body.as_bytes().to_vec(),
        }
    }

    /// The answer on the wire, as NanoHTTPD writes it (a space after the reason too).
    pub(super) fn bytes(&self, keep_alive: bool) -> Vec<u8> {
        let head = format!(
            "HTTP/1.1 {} {} \r\nContent-Type: {}\r\nConnection: {}\r\nContent-Length: {}\r\n\r\n",
            self.status,
            self.reason,
            self.content_type,
            if keep_alive { "keep-alive" } else { "close" },
            self.body.len()
        );
        let mut out = head.into_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}

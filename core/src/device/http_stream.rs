//! HTTP/1.1 messages read from one direction of a stream as it passes (requests from a
//! client, or responses from a server), however the bytes are split: the start line, the
//! headers, and the body (by `Content-Length` or chunked), kept up to a limit. What
//! uiautomator2's server on a phone speaks over the adb service `tcp:9008`.

/// The longest start line and headers read.
const MAX_HEAD: usize = 64 * 1024;

/// One message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// `POST /jsonrpc/0 HTTP/1.1`, `HTTP/1.1 200 OK`.
    pub start: String,
    /// Its body, up to the stream's limit.
    pub body: Vec<u8>,
    /// The body's whole length.
    pub body_len: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Head,
    /// `remaining` bytes of a `Content-Length` body.
    Body {
        remaining: u64,
    },
    /// The size line of the next chunk.
    ChunkSize,
    /// `remaining` bytes of a chunk, then its CRLF.
    Chunk {
        remaining: u64,
    },
    ChunkEnd,
    /// After the last chunk: trailers until an empty line.
    Trailers,
    /// Not HTTP, or not followed: the rest is not read.
    Lost,
}

/// One direction's messages, decoded incrementally.
#[derive(Debug)]
pub struct HttpStream {
    state: State,
    /// Bytes of the part being read (a head, a size line).
    buffer: Vec<u8>,
    /// The message being read.
    current: Option<Message>,
    /// How much of each body is kept.
    limit: usize,
}

impl HttpStream {
    /// A decoder keeping up to `limit` bytes of each body.
    pub fn new(limit: usize) -> Self {
        Self {
            state: State::Head,
            buffer: Vec::new(),
            current: None,
            limit,
        }
    }

    /// Whether the stream could not be followed.
    pub fn lost(&self) -> bool {
        self.state == State::Lost
    }

    /// Decodes `bytes`; the messages they completed.
    pub fn push(&mut self, mut bytes: &[u8]) -> Vec<Message> {
        let mut done = Vec::new();
        while !bytes.is_empty() && self.state != State::Lost {
            match self.state {
                State::Head | State::ChunkSize | State::ChunkEnd | State::Trailers => {
                    if !self.line(&mut bytes) {
                        break;
                    }
                    self.after_line(&mut done);
                }
                State::Body { remaining } | State::Chunk { remaining } => {
                    let take = remaining.min(bytes.len() as u64) as usize;
                    if let Some(message) = &mut self.current {
                        let room = self.limit.saturating_sub(message.body.len());
                        message.body.extend_from_slice(&bytes[..take.min(room)]);
                        message.body_len += take as u64;
                    }
                    bytes = &bytes[take..];
                    let left = remaining - take as u64;
                    self.state = match (self.state, left) {
                        (State::Body { .. }, 0) => {
                            done.extend(self.current.take());
                            State::Head
                        }
                        (State::Body { .. }, left) => State::Body { remaining: left },
                        (_, 0) => State::ChunkEnd,
                        (_, left) => State::Chunk { remaining: left },
                    };
                }
                State::Lost => {}
            }
        }
        done
    }

    /// Gathers bytes up to the end of a line (the head's end: an empty line); whether it
    /// ended.
    fn line(&mut self, bytes: &mut &[u8]) -> bool {
        let head = self.state == State::Head;
        for (at, &byte) in bytes.iter().enumerate() {
            self.buffer.push(byte);
            let ended = if head {
                self.buffer.ends_with(b"\r\n\r\n")
            } else {
                byte == b'\n'
            };
            if ended {
                *bytes = &bytes[at + 1..];
                return true;
            }
            if self.buffer.len() > MAX_HEAD {
                self.state = State::Lost;
                return false;
            }
        }
        *bytes = &[];
        false
    }

    /// A gathered line (or head) read.
    fn after_line(&mut self, done: &mut Vec<Message>) {
        let gathered = std::mem::take(&mut self.buffer);
        let text = String::from_utf8_lossy(&gathered);
        match self.state {
            State::Head => {
                let mut lines = text.split("\r\n");
                let start = lines.next().unwrap_or_default().to_owned();
                let looks_http = start.starts_with("HTTP/")
                    || start
                        .split(' ')
                        .nth(2)
                        .is_some_and(|v| v.starts_with("HTTP/"));
                if !looks_http {
                    self.state = State::Lost;
                    return;
                }
                let (mut length, mut chunked) = (0u64, false);
                for line in lines {
                    let Some((name, value)) = line.split_once(':') else {
                        continue;
                    };
                    let value = value.trim();
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.parse().unwrap_or(0);
                    } else if name.eq_ignore_ascii_case("transfer-encoding") {
                        chunked = value.to_ascii_lowercase().contains("chunked");
                    }
                }
                let message = Message {
                    start,
                    body: Vec::new(),
                    body_len: 0,
                };
                self.state = if chunked {
                    self.current = Some(message);
                    State::ChunkSize
                } else if length > 0 {
                    self.current = Some(message);
                    State::Body { remaining: length }
                } else {
                    done.push(message);
                    State::Head
                };
            }
            State::ChunkSize => {
                let size = text.trim().split(';').next().unwrap_or_default();
                self.state = match u64::from_str_radix(size, 16) {
                    Ok(0) => State::Trailers,
                    Ok(size) => State::Chunk { remaining: size },
                    Err(_) => State::Lost,
                };
            }
            State::ChunkEnd => self.state = State::ChunkSize,
            State::Trailers => {
                if text.trim().is_empty() {
                    done.extend(self.current.take());
                    self.state = State::Head;
                }
            }
            State::Body { .. } | State::Chunk { .. } | State::Lost => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8], piece: usize) -> Vec<Message> {
        let mut stream = HttpStream::new(1 << 20);
        bytes
            .chunks(piece)
            .flat_map(|chunk| stream.push(chunk))
            .collect()
    }

    /// What uiautomator2's client sends, and its server answers, over `tcp:9008`.
    #[test]
    fn requests_and_responses_are_read_however_they_are_split() {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"click","params":[540,1210]}"#;
        let requests = format!(
            "GET /ping HTTP/1.1\r\nHost: 127.0.0.1:9008\r\n\r\n\
             POST /jsonrpc/0 HTTP/1.1\r\nHost: 127.0.0.1:9008\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        for piece in [1, 3, 17, requests.len()] {
            let messages = decode(requests.as_bytes(), piece);
            assert_eq!(messages.len(), 2, "{piece}");
            assert_eq!(messages[0].start, "GET /ping HTTP/1.1");
            assert_eq!(messages[1].start, "POST /jsonrpc/0 HTTP/1.1");
            assert_eq!(messages[1].body, body.as_bytes());
        }
        let responses = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npong\
             HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"res\r\n9;x=1\r\nult\":true\r\n1\r\n}\r\n0\r\n\r\n";
        for piece in [1, 4, 9, responses.len()] {
            let messages = decode(responses.as_bytes(), piece);
            assert_eq!(messages.len(), 2, "{piece}");
            assert_eq!(messages[0].body, b"pong");
            assert_eq!(messages[1].body, br#"{"result":true}"#);
            assert_eq!(messages[1].body_len, 15);
        }
    }

    #[test]
    fn a_body_is_kept_up_to_the_limit_and_what_is_no_http_is_given_up_on() {
        let mut stream = HttpStream::new(3);
        let messages = stream.push(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789");
        assert_eq!(messages[0].body, b"012");
        assert_eq!(messages[0].body_len, 10);
        let mut binary = HttpStream::new(10);
        assert!(binary.push(b"\x00\x01garbage\r\n\r\n").is_empty());
        assert!(binary.lost());
        let mut endless = HttpStream::new(10);
        endless.push(&vec![b'a'; MAX_HEAD + 10]);
        assert!(endless.lost());
    }
}

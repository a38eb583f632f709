//! What the HTTP tests share: `tapscope serve --http` as a child process on a port the
//! system picks, and raw HTTP/1.1 requests to it, for what rmcp's client never sends.
#![allow(dead_code)] // each test file uses its own part

use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener as StdListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An `initialize` request of protocol revision 2025-11-25.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// The `initialized` notification a client sends after `initialize`.
pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A running `tapscope serve`, killed when dropped, even when a test fails.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `tapscope serve --http 127.0.0.1:0` plus `extra` and waits until it says
    /// where it listens (the port the system gave it: no race for a free one).
    pub fn start(extra: &[&str], env_token: Option<&str>) -> Self {
        let mut command = tapscope();
        command
            .args(["serve", "--http", "127.0.0.1:0", "--seed", "1"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(token) = env_token {
            command.env("TAPSCOPE_TOKEN", token);
        }
        let mut child = command.spawn().expect("tapscope serve starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let addr = listening_at(stderr, Duration::from_secs(30));
        Server { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("child status").is_none()
    }
}

/// The binary, with no token inherited from the environment.
pub fn tapscope() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.env_remove("TAPSCOPE_TOKEN");
    command
}

/// The address in the server's "MCP over streamable HTTP at http://ADDR/mcp" line; what it
/// said instead when it exits or stays silent. Its stderr is drained after that line.
fn listening_at(stderr: impl Read + Send + 'static, timeout: Duration) -> SocketAddr {
    let (lines, said) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let deadline = Instant::now() + timeout;
    let mut before = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = said.recv_timeout(left).unwrap_or_else(|e| {
            panic!("tapscope serve did not say where it listens ({e}); it said: {before:?}")
        });
        if let Some(at) = line.split("at http://").nth(1) {
            let addr = at.split('/').next().unwrap_or_default();
            return addr.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        before.push(line);
    }
}

/// A loopback port nobody listens on right now.
pub fn free_addr() -> SocketAddr {
    let listener = StdListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address")
}

/// An answer read whole: the status, the head in lower case, the body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    /// A header's value, by its lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key == name).then(|| value.trim())
        })
    }

    /// The body as JSON: the body itself, or an event stream's last `data:` line.
    pub fn json(&self) -> serde_json::Value {
        let data = self
            .body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|data| !data.is_empty());
        let text = data.unwrap_or(&self.body);
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {self:?}"))
    }
}

/// Sends one HTTP/1.1 request to `/mcp` and reads the answer until the server closes.
/// `Host` and `Content-Length` are added; for a POST, so are the `Accept` and
/// `Content-Type` every MCP client sends, unless `headers` name their own.
pub async fn raw(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut stream = send(addr, method, headers, body).await;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("a response within 10 s")
        .expect("read");
    let end = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("head and body");
    let head = String::from_utf8_lossy(&response[..end]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let mut body = &response[end + 4..];
    let dechunked;
    if head.contains("transfer-encoding: chunked") {
        dechunked = dechunk(body);
        body = &dechunked;
    }
    Answer {
        status,
        head,
        body: String::from_utf8_lossy(body).into_owned(),
    }
}

/// The headers of a request in session `id`.
pub fn in_session(id: &str) -> [(&str, &str); 2] {
    [
        ("Mcp-Session-Id", id),
        ("MCP-Protocol-Version", "2025-11-25"),
    ]
}

/// Opens a session as a client does (initialize, then initialized) and returns its id.
pub async fn open_session(server: &Server) -> String {
    let init = raw(server.addr, "POST", &[], INITIALIZE).await;
    assert_eq!(init.status, 200, "{init:?}");
    let id = init
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let done = raw(server.addr, "POST", &in_session(&id), INITIALIZED).await;
    assert_eq!(done.status, 202, "{done:?}");
    id
}

/// Sends one request as [`raw`] does and returns the open connection.
async fn send(
    addr: SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> tokio::net::TcpStream {
    let named = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    let mut head = format!("{method} /mcp HTTP/1.1\r\nHost: {addr}\r\n");
    if method == "POST" && !named("content-type") {
        head.push_str("Content-Type: application/json\r\n");
    }
    if method == "POST" && !named("accept") {
        head.push_str("Accept: application/json, text/event-stream\r\n");
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let request = format!(
        "{head}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sent");
    stream
}

/// Sends one request as [`raw`] does and reads only the answer's head, in lower case:
/// the server has taken the request when it starts to answer. The connection is
/// returned open, for the caller to read on or to drop.
pub async fn head_only(
    addr: SocketAddr,
    headers: &[(&str, &str)],
    body: &str,
) -> (String, tokio::net::TcpStream) {
    let mut stream = send(addr, "POST", headers, body).await;
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut byte))
            .await
            .expect("an answer's head within 10 s")
            .expect("read");
        assert_eq!(read, 1, "closed before the head ended: {head:?}");
        head.push(byte[0]);
    }
    (String::from_utf8_lossy(&head).to_ascii_lowercase(), stream)
}

/// A chunked body's content: each chunk's size in hex, a line, the chunk, a line.
fn dechunk(mut chunked: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = chunked.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&chunked[..line_end])
            .ok()
            .and_then(|size| usize::from_str_radix(size.trim(), 16).ok())
            .expect("a chunk size");
        let start = line_end + 2;
        if size == 0 || start + size > chunked.len() {
            break;
        }
        body.extend_from_slice(&chunked[start..start + size]);
        chunked = chunked.get(start + size + 2..).unwrap_or_default();
    }
    body
}

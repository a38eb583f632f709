//! The MCP server over streamable HTTP: rmcp's `StreamableHttpService` at `/mcp` in an
//! axum router, behind the checks tapscope makes in front of it (`Origin`, the bearer
//! token, POST bodies, DELETE), with live sessions capped and the rule that only loopback
//! is served without a token.

mod bearer;
mod front;
mod message;
mod origin;
mod sessions;

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::middleware;
use rmcp::ServerHandler;

use super::RecordRefusal;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use sessions::MAX_SESSIONS;

/// Where `tapscope serve` listens unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8791";

/// The path the MCP endpoint is mounted at.
pub const PATH: &str = "/mcp";

/// Why an address is not served.
#[derive(Debug)]
pub enum BindError {
    /// `--token ""` (or an empty `TAPSCOPE_TOKEN`).
    EmptyToken,
    /// A token with whitespace around it, which HTTP trims from the header that carries
    /// it: no request could match.
    PaddedToken,
    /// A token holding a control character, which no HTTP header may carry.
    ControlInToken,
    /// A non-loopback address without a token: anyone on the network could drive the phone.
    OpenWithoutToken(SocketAddr),
    /// Another process listens there already.
    InUse(SocketAddr),
    /// Any other failure to bind.
    Io(SocketAddr, std::io::Error),
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BindError::EmptyToken => write!(
                f,
                "the token is empty: pass a non-empty --token (or TAPSCOPE_TOKEN)"
            ),
            BindError::PaddedToken => write!(
                f,
                "the token starts or ends with whitespace, which HTTP trims from the \
                 Authorization header, so no request could ever match it: pass the token \
                 without the spaces around it (in --token or TAPSCOPE_TOKEN)"
            ),
            BindError::ControlInToken => write!(
                f,
                "the token holds a control character (a newline, say), which no HTTP header \
                 may carry, so no request could ever send it: pass a token of printable \
                 characters (in --token or TAPSCOPE_TOKEN)"
            ),
            BindError::OpenWithoutToken(addr) => write!(
                f,
                "{addr} is reachable from other machines, and anyone there could drive the \
                 phone: pass --token TOKEN (or set TAPSCOPE_TOKEN), or bind 127.0.0.1"
            ),
            BindError::InUse(addr) => write!(
                f,
                "{addr} is already in use by another process: stop it, or pick a free port \
                 with --http 127.0.0.1:PORT"
            ),
            BindError::Io(addr, e) => write!(f, "cannot listen on {addr}: {e}"),
        }
    }
}

impl std::error::Error for BindError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BindError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Whether `addr` may be served with `token`: a token is one a request can send, and an
/// address other machines can reach needs one. Pure; [`bind`] and [`serve_http`] both
/// apply it.
pub fn check_bind(addr: SocketAddr, token: Option<&str>) -> Result<(), BindError> {
    match token {
        Some("") => Err(BindError::EmptyToken),
        // As the received token is trimmed (`bearer`), so that both compare alike.
        Some(token) if token.trim_ascii() != token => Err(BindError::PaddedToken),
        Some(token) if token.chars().any(|c| c.is_control() && c != '\t') => {
            Err(BindError::ControlInToken)
        }
        None if !addr.ip().is_loopback() => Err(BindError::OpenWithoutToken(addr)),
        _ => Ok(()),
    }
}

/// Checks `addr` with [`check_bind`], then listens on it.
pub async fn bind(addr: SocketAddr, token: Option<&str>) -> Result<TcpListener, BindError> {
    check_bind(addr, token)?;
    TcpListener::bind(addr).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => BindError::InUse(addr),
        _ => BindError::Io(addr, e),
    })
}

/// Serves MCP at [`PATH`] on `listener` until `shutdown` completes, then closes every MCP
/// session and waits for the open connections to finish.
///
/// `make_server` is called once per MCP session (and per request of a stateless client):
/// hand out clones of one server so that every client drives the same device session.
/// With a `token`, every request needs `Authorization: Bearer <token>`. At most
/// [`MAX_SESSIONS`] MCP sessions stay open.
pub async fn serve_http<S, F>(
    listener: TcpListener,
    token: Option<String>,
    make_server: F,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    S: ServerHandler + RecordRefusal + Send + Sync + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let addr = listener.local_addr()?;
    check_bind(addr, token.as_deref())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()))?;
    let sessions = CancellationToken::new();
    let app = router(addr, token, make_server, sessions.clone());
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            // Ends the SSE streams too, which would otherwise keep connections open.
            sessions.cancel();
        })
        .await
}

/// The MCP service at [`PATH`], behind the checks of [`front`].
fn router<S, F>(
    addr: SocketAddr,
    token: Option<String>,
    make_server: F,
    cancel: CancellationToken,
) -> Router
where
    S: ServerHandler + RecordRefusal + Send + Sync + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let mut config = StreamableHttpServerConfig::default().with_cancellation_token(cancel);
    if token.is_some() {
        // rmcp's Host check guards loopback servers against DNS rebinding; a server that
        // needs a token is reached by LAN addresses and names, and a rebinding page cannot
        // know the token.
        config = config.disable_allowed_hosts();
    }
    let sessions = Arc::new(sessions::CappedSessions::new(MAX_SESSIONS));
    let front = front::Front {
        origins: origin::Origins::for_server(addr, token.is_some()),
        bearer: token.map(bearer::Bearer),
        sessions: Arc::clone(&sessions),
        max_body: config.max_request_body_bytes,
        refusals: Arc::new(make_server()),
    };
    let service = StreamableHttpService::new(move || Ok(make_server()), sessions, config);
    Router::new()
        .nest_service(PATH, service)
        .layer(middleware::from_fn_with_state(
            Arc::new(front),
            front::check,
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> SocketAddr {
        s.parse().expect("a socket address")
    }

    #[test]
    fn loopback_needs_no_token() {
        assert!(check_bind(addr("127.0.0.1:8791"), None).is_ok());
        assert!(check_bind(addr("127.0.0.2:0"), None).is_ok());
        assert!(check_bind(addr("[::1]:8791"), None).is_ok());
        assert!(check_bind(addr("127.0.0.1:8791"), Some("s3cret")).is_ok());
    }

    #[test]
    fn other_addresses_need_a_token() {
        for open in ["0.0.0.0:8791", "192.168.1.5:8791", "[::]:8791"] {
            let error = check_bind(addr(open), None).expect_err(open);
            assert!(matches!(error, BindError::OpenWithoutToken(_)));
            let message = error.to_string();
            assert!(
                message.contains("--token") && message.contains("127.0.0.1"),
                "{message}"
            );
            assert!(check_bind(addr(open), Some("s3cret")).is_ok());
        }
    }

    #[test]
    fn an_empty_token_is_refused() {
        for at in ["127.0.0.1:8791", "0.0.0.0:8791"] {
            assert!(matches!(
                check_bind(addr(at), Some("")),
                Err(BindError::EmptyToken)
            ));
        }
    }

    #[test]
    fn a_token_no_request_could_send_is_refused() {
        for padded in [" s3cret", "s3cret ", "s3cret\t", "\ns3cret"] {
            let error = check_bind(addr("127.0.0.1:8791"), Some(padded)).expect_err(padded);
            assert!(matches!(error, BindError::PaddedToken), "{padded:?}");
            assert!(error.to_string().contains("whitespace"), "{error}");
        }
        let error = check_bind(addr("0.0.0.0:8791"), Some("s3c\nret")).expect_err("newline");
        assert!(matches!(error, BindError::ControlInToken));
        assert!(check_bind(addr("0.0.0.0:8791"), Some("s3 c\tret")).is_ok());
    }
}

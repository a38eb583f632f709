//! The MCP server over streamable HTTP: rmcp's `StreamableHttpService` at `/mcp` in an
//! axum router, behind an optional bearer token, with the rule that only loopback is
//! served without one.

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use subtle::ConstantTimeEq;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Where `tapscope serve` listens unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8791";

/// The path the MCP endpoint is mounted at.
pub const PATH: &str = "/mcp";

/// Why an address is not served.
#[derive(Debug)]
pub enum BindError {
    /// `--token ""` (or an empty `TAPSCOPE_TOKEN`).
    EmptyToken,
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

/// Whether `addr` may be served with `token`: a token is never empty, and an address other
/// machines can reach needs one. Pure; [`bind`] and [`serve_http`] both apply it.
pub fn check_bind(addr: SocketAddr, token: Option<&str>) -> Result<(), BindError> {
    match token {
        Some("") => Err(BindError::EmptyToken),
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
/// With a `token`, every request needs `Authorization: Bearer <token>`.
pub async fn serve_http<S, F>(
    listener: TcpListener,
    token: Option<String>,
    make_server: F,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let addr = listener.local_addr()?;
    check_bind(addr, token.as_deref())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()))?;
    let sessions = CancellationToken::new();
    let app = router(token, make_server, sessions.clone());
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            // Ends the SSE streams too, which would otherwise keep connections open.
            sessions.cancel();
        })
        .await
}

/// The MCP service at [`PATH`], behind the bearer check when there is a token.
fn router<S, F>(token: Option<String>, make_server: F, sessions: CancellationToken) -> Router
where
    S: ServerHandler + Send + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let mut config = StreamableHttpServerConfig::default().with_cancellation_token(sessions);
    if token.is_some() {
        // rmcp's Host check guards loopback servers against DNS rebinding; a server that
        // needs a token is reached by LAN addresses and names, and a rebinding page cannot
        // know the token.
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(make_server()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = Router::new().nest_service(PATH, service);
    match token {
        Some(token) => router.layer(middleware::from_fn_with_state(
            Arc::new(Bearer(token)),
            require_bearer,
        )),
        None => router,
    }
}

/// The token every request must carry.
struct Bearer(String);

/// What is wrong with a request's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Denied {
    Missing,
    Wrong,
}

impl Bearer {
    /// Checks an `Authorization` header value in time independent of the token's content.
    fn check(&self, authorization: Option<&HeaderValue>) -> Result<(), Denied> {
        let value = authorization.ok_or(Denied::Missing)?.as_bytes();
        let (scheme, presented) = match value.iter().position(|&b| b == b' ') {
            Some(space) => (&value[..space], value[space + 1..].trim_ascii()),
            None => (value, &b""[..]),
        };
        if !scheme.eq_ignore_ascii_case(b"bearer") {
            return Err(Denied::Missing);
        }
        if bool::from(presented.ct_eq(self.0.as_bytes())) {
            Ok(())
        } else {
            Err(Denied::Wrong)
        }
    }
}

/// The middleware: passes requests with the right bearer token, answers 401 to the rest.
async fn require_bearer(
    State(bearer): State<Arc<Bearer>>,
    request: Request,
    next: Next,
) -> Response {
    match bearer.check(request.headers().get(header::AUTHORIZATION)) {
        Ok(()) => next.run(request).await,
        Err(denied) => unauthorized(denied),
    }
}

fn unauthorized(denied: Denied) -> Response {
    let (challenge, body) = match denied {
        Denied::Missing => (
            "Bearer realm=\"tapscope\"",
            "missing bearer token: send `Authorization: Bearer <token>` with the token \
             `tapscope serve` was given\n",
        ),
        Denied::Wrong => (
            "Bearer realm=\"tapscope\", error=\"invalid_token\"",
            "wrong bearer token: send the token `tapscope serve` was given\n",
        ),
    };
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::WWW_AUTHENTICATE, challenge),
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        ],
        body,
    )
        .into_response()
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
    fn bearer_header_checked() {
        let bearer = Bearer("s3cret".to_owned());
        let check = |v: &'static str| bearer.check(Some(&HeaderValue::from_static(v)));
        assert_eq!(check("Bearer s3cret"), Ok(()));
        assert_eq!(check("bearer s3cret"), Ok(()));
        assert_eq!(check("Bearer  s3cret "), Ok(()));
        assert_eq!(check("Bearer s3cre"), Err(Denied::Wrong));
        assert_eq!(check("Bearer s3cret2"), Err(Denied::Wrong));
        assert_eq!(check("Bearer "), Err(Denied::Wrong));
        assert_eq!(check("Basic czNjcmV0"), Err(Denied::Missing));
        assert_eq!(check("s3cret"), Err(Denied::Missing));
        assert_eq!(bearer.check(None), Err(Denied::Missing));
    }
}

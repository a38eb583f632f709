//! What tapscope checks in front of rmcp, in the order a request meets it: the `Origin`
//! (403), the bearer token (401), then a POST's body (400 unless it is one JSON-RPC
//! message; -32602 for a request whose params do not fit its method) and a DELETE's
//! session (404 unless it is live; 204 once closed). Everything else is rmcp's.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::{ErrorCode, ErrorData, JsonRpcError};
use rmcp::transport::common::http_header::HEADER_SESSION_ID;
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};

use super::super::RecordRefusal;
use super::bearer::{Bearer, unauthorized};
use super::message::{self, Verdict};
use super::origin::Origins;
use super::sessions::CappedSessions;

/// JSON-RPC's first implementation-defined server error: the request was refused.
const REFUSED: ErrorCode = ErrorCode(-32000);

/// Everything the checks need.
pub(super) struct Front {
    pub(super) origins: Origins,
    pub(super) bearer: Option<Bearer>,
    pub(super) sessions: Arc<CappedSessions>,
    /// rmcp's own limit on a POST body.
    pub(super) max_body: usize,
    /// Records a tool call refused here, as the server records the calls it refuses.
    pub(super) refusals: Arc<dyn RecordRefusal + Send + Sync>,
}

impl std::fmt::Debug for Front {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Front")
            .field("origins", &self.origins)
            .field("bearer", &self.bearer)
            .field("max_body", &self.max_body)
            .finish_non_exhaustive()
    }
}

/// The middleware.
pub(super) async fn check(
    State(front): State<Arc<Front>>,
    request: Request,
    next: Next,
) -> Response {
    let origin = request.headers().get(header::ORIGIN);
    if !front.origins.allow(origin) {
        return forbidden(origin);
    }
    if let Some(bearer) = &front.bearer
        && let Err(denied) = bearer.check(request.headers().get(header::AUTHORIZATION))
    {
        return unauthorized(denied);
    }
    match *request.method() {
        Method::POST => front.post(request, next).await,
        Method::DELETE => front.delete(request, next).await,
        _ => next.run(request).await,
    }
}

impl Front {
    async fn post(&self, request: Request, next: Next) -> Response {
        if !is_json(request.headers()) {
            // rmcp answers 415, as it should.
            return next.run(request).await;
        }
        let (parts, body) = request.into_parts();
        let Ok(body) = axum::body::to_bytes(body, self.max_body).await else {
            // Over the limit, or the client is gone and reads no answer.
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "Payload Too Large: the body is over {} bytes\n",
                    self.max_body
                ),
            )
                .into_response();
        };
        match message::judge(&body) {
            Verdict::Pass => {}
            Verdict::Malformed(error) => return json_error(StatusCode::BAD_REQUEST, &error),
            // A well-formed request is answered as rmcp answers requests, in one JSON
            // object, once its session is known to be live; rmcp answers 404 otherwise.
            Verdict::Misfit { error, call } => {
                let live = match session_id(&parts.headers) {
                    Some(id) => self.is_live(&id).await,
                    None => true,
                };
                if live {
                    if let Some(call) = call {
                        let message = error.error.message.to_string();
                        call.record(Arc::clone(&self.refusals), message).await;
                    }
                    return json_error(StatusCode::OK, &error);
                }
            }
        }
        next.run(Request::from_parts(parts, Body::from(body))).await
    }

    async fn delete(&self, request: Request, next: Next) -> Response {
        if let Some(id) = session_id(request.headers())
            && !self.is_live(&id).await
        {
            return (
                StatusCode::NOT_FOUND,
                format!(
                    "Not Found: no session {id}: it ended or was closed; start a new one with \
                     initialize\n"
                ),
            )
                .into_response();
        }
        // rmcp answers 400 without a session id, and 202 once it closed the session;
        // clients expect 200 or 204 to a DELETE that did what it asked.
        let mut response = next.run(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
        }
        response
    }

    async fn is_live(&self, id: &SessionId) -> bool {
        matches!(self.sessions.has_session(id).await, Ok(true))
    }
}

/// 403, with the JSON-RPC error (no id) the specification allows.
fn forbidden(origin: Option<&HeaderValue>) -> Response {
    let origin = origin.map_or_else(String::new, |o| {
        String::from_utf8_lossy(o.as_bytes()).into_owned()
    });
    let message = format!(
        "Forbidden: Origin {origin:?} is not a page of this machine: against DNS rebinding, \
         browsers may call only from http(s)://localhost, 127.0.0.1 or [::1]; to serve other \
         machines, bind their address with --token"
    );
    let error = JsonRpcError::new(None, ErrorData::new(REFUSED, message, None));
    json_error(StatusCode::FORBIDDEN, &error)
}

/// The session a request names, if it names one.
fn session_id(headers: &HeaderMap) -> Option<SessionId> {
    let id = headers.get(HEADER_SESSION_ID)?.to_str().ok()?;
    Some(SessionId::from(id))
}

/// Whether the body is declared JSON, as rmcp reads `Content-Type`.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split_once(';').map_or(value, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

fn json_error(status: StatusCode, error: &JsonRpcError) -> Response {
    // Plain data with string keys: serializing it cannot fail.
    let body = Bytes::from(serde_json::to_vec(error).unwrap_or_default());
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

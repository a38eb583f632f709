//! The bearer token every request must carry when `tapscope serve` was given one: checked
//! in time independent of the token's content, 401 with a challenge otherwise.
//!
//! Written here rather than taken from `tower-http`: its `ValidateRequestHeaderLayer::bearer`
//! compares the whole `Authorization` value with `==` (a byte comparison that stops at the
//! first difference, so its time tells how much of a guess was right), takes the scheme
//! only as `Bearer` spelled so (RFC 9110 makes it case-insensitive) and answers 401 with
//! neither a challenge nor a word on what to send.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;

/// The token every request must carry.
#[derive(Debug)]
pub(super) struct Bearer(pub(super) String);

/// What is wrong with a request's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Denied {
    Missing,
    Wrong,
}

impl Bearer {
    /// Checks an `Authorization` header value. The presented token is trimmed as HTTP
    /// trims header values; [`super::check_bind`] refuses a configured token that trimming
    /// would change, so the two always compare alike.
    pub(super) fn check(&self, authorization: Option<&HeaderValue>) -> Result<(), Denied> {
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

/// 401 with the challenge RFC 6750 gives, and a sentence on what to send.
pub(super) fn unauthorized(denied: Denied) -> Response {
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

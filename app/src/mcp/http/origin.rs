//! The `Origin` check against DNS rebinding. The specification (2025-11-25, Streamable
//! HTTP, "Security Warning") has servers validate the `Origin` of every request and answer
//! an invalid one with 403. A web page that rebinds its own name to 127.0.0.1 still sends
//! its own origin, so only pages of this machine pass: `http` or `https`, `localhost` or a
//! loopback address, any port. Clients that are not browsers send no `Origin` and pass.
//!
//! A server other machines reach has a bearer token, which such a page cannot know: there
//! the token is the guard, and any origin may present it (a browser client on another
//! machine, say).

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderValue, Uri};

/// Which browser origins may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Origins {
    /// Pages of this machine only.
    Loopback,
    /// Any: the bearer token guards a server other machines reach.
    Any,
}

impl Origins {
    /// The rule for a server listening on `addr`, with or without a token.
    pub(super) fn for_server(addr: SocketAddr, has_token: bool) -> Self {
        if has_token && !addr.ip().is_loopback() {
            Origins::Any
        } else {
            Origins::Loopback
        }
    }

    /// Whether a request with this `Origin` header (or none) may be served.
    pub(super) fn allow(self, origin: Option<&HeaderValue>) -> bool {
        match (self, origin) {
            (Origins::Any, _) | (_, None) => true,
            (Origins::Loopback, Some(origin)) => origin.to_str().is_ok_and(is_loopback_origin),
        }
    }
}

/// `http(s)://localhost`, `http(s)://127.0.0.1`, `http(s)://[::1]`, … with any port.
fn is_loopback_origin(origin: &str) -> bool {
    let Ok(uri) = origin.parse::<Uri>() else {
        return false;
    };
    let Some(authority) = uri.authority() else {
        return false;
    };
    if !matches!(uri.scheme_str(), Some("http" | "https")) || authority.as_str().contains('@') {
        return false;
    }
    let host = authority.host();
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(rule: Origins, origin: &'static str) -> bool {
        rule.allow(Some(&HeaderValue::from_static(origin)))
    }

    #[test]
    fn pages_of_this_machine_pass() {
        for origin in [
            "http://localhost",
            "http://localhost:6274",
            "https://LOCALHOST:8443",
            "http://127.0.0.1",
            "http://127.0.0.1:3000",
            "http://[::1]:5173",
            "https://[::1]",
        ] {
            assert!(allowed(Origins::Loopback, origin), "{origin}");
        }
        assert!(
            Origins::Loopback.allow(None),
            "clients that are not browsers"
        );
    }

    #[test]
    fn other_origins_are_refused() {
        for origin in [
            "http://evil.example",
            "https://evil.example:8791",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example",
            "http://192.168.1.5:8791",
            "http://user@localhost",
            "file://localhost",
            "null",
            "localhost",
            "",
        ] {
            assert!(!allowed(Origins::Loopback, origin), "{origin}");
        }
    }

    #[test]
    fn a_token_on_a_reachable_address_takes_any_origin() {
        let lan: SocketAddr = "0.0.0.0:8791".parse().expect("an address");
        let loopback: SocketAddr = "127.0.0.1:8791".parse().expect("an address");
        assert_eq!(Origins::for_server(lan, true), Origins::Any);
        assert_eq!(Origins::for_server(loopback, true), Origins::Loopback);
        assert_eq!(Origins::for_server(loopback, false), Origins::Loopback);
        assert!(allowed(Origins::Any, "http://evil.example"));
    }
}

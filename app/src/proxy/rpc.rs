//! uiautomator2's JSON-RPC over `tcp:9008`, watched as it passes: each request's call
//! (a look, an action, anything else) paired with its answer, in order, so that every
//! exchange is recorded as it completes, however long the connection stays open.

use std::collections::VecDeque;
use std::time::Duration;

use tapscope_core::device::http_stream::HttpStream;
use tapscope_core::device::u2_rpc::{Call, call_of, dump_of};

use super::check::Checked;
use super::watch::KEPT;

/// One call answered.
#[derive(Debug)]
pub struct Answered {
    pub call: Call,
    /// When the request had come whole, and when its answer did.
    pub asked: Duration,
    pub answered: Duration,
    /// The screen's XML, for a look.
    pub dump: Option<String>,
    /// The proxy's look before the call went on.
    pub checked: Option<Checked>,
    /// Bytes of the request's and the answer's bodies.
    pub sent: u64,
    pub received: u64,
}

/// A call asked and not yet answered.
#[derive(Debug)]
struct Asked {
    call: Call,
    at: Duration,
    checked: Option<Checked>,
    sent: u64,
}

/// Both directions of one `tcp:9008` stream.
#[derive(Debug)]
pub struct RpcWatch {
    requests: HttpStream,
    responses: HttpStream,
    asked: VecDeque<Asked>,
}

impl RpcWatch {
    pub fn new() -> Self {
        Self {
            requests: HttpStream::new(KEPT),
            responses: HttpStream::new(KEPT),
            asked: VecDeque::new(),
        }
    }

    /// Requests in `bytes` from the client, at `now`: the calls they completed, in order.
    pub fn requests(&mut self, bytes: &[u8], now: Duration) -> Vec<Call> {
        let mut calls = Vec::new();
        for message in self.requests.push(bytes) {
            // `GET /ping` and the like are calls too: each has its answer to pair.
            let call = call_of(&message.body).unwrap_or_else(|| Call::Other(message.start.clone()));
            calls.push(call.clone());
            self.asked.push_back(Asked {
                call,
                at: now,
                checked: None,
                sent: message.body_len,
            });
        }
        calls
    }

    /// What the proxy saw before the latest call went on.
    pub fn checked(&mut self, checked: Checked) {
        if let Some(last) = self.asked.back_mut() {
            last.checked = Some(checked);
        }
    }

    /// Answers in `bytes` from the server, at `now`: the exchanges they completed.
    pub fn answers(&mut self, bytes: &[u8], now: Duration) -> Vec<Answered> {
        let mut answered = Vec::new();
        for message in self.responses.push(bytes) {
            let Some(asked) = self.asked.pop_front() else {
                continue;
            };
            let dump = match asked.call {
                Call::Dump => dump_of(&message.body),
                _ => None,
            };
            answered.push(Answered {
                call: asked.call,
                asked: asked.at,
                answered: now,
                dump,
                checked: asked.checked,
                sent: asked.sent,
                received: message.body_len,
            });
        }
        answered
    }
}

#[cfg(test)]
mod tests {
    use tapscope_core::device::adb_command::Input;
    use tapscope_core::geometry::Point;

    use super::*;

    fn post(body: &str) -> String {
        format!(
            "POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    }

    fn ok(body: &str) -> String {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    }

    #[test]
    fn each_call_is_paired_with_its_answer_in_order() {
        let mut watch = RpcWatch::new();
        let dump = r#"{"jsonrpc":"2.0","id":1,"method":"dumpWindowHierarchy","params":[false,50]}"#;
        let click = r#"{"jsonrpc":"2.0","id":2,"method":"click","params":[10,20]}"#;
        let at = Duration::from_millis;
        assert_eq!(watch.requests(post(dump).as_bytes(), at(1)), [Call::Dump]);
        let xml = r#"<?xml version='1.0'?><hierarchy rotation=\"0\"></hierarchy>"#;
        let answer = ok(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":"{xml}"}}"#));
        let answered = watch.answers(answer.as_bytes(), at(40));
        assert_eq!(answered.len(), 1);
        assert_eq!((answered[0].asked, answered[0].answered), (at(1), at(40)));
        assert!(
            answered[0]
                .dump
                .as_deref()
                .is_some_and(|x| x.contains("<hierarchy"))
        );
        let tap = Call::Input(Input::Tap(Point::new(10, 20)));
        assert_eq!(
            watch.requests(post(click).as_bytes(), at(50)),
            std::slice::from_ref(&tap)
        );
        watch.checked(Checked::Failed("not looked".into()));
        let answered = watch.answers(ok(r#"{"result":true}"#).as_bytes(), at(60));
        assert_eq!(answered[0].call, tap);
        assert!(matches!(answered[0].checked, Some(Checked::Failed(_))));
        // An answer with nothing asked is dropped.
        assert!(watch.answers(ok("{}").as_bytes(), at(70)).is_empty());
    }
}

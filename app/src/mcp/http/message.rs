//! A POST body judged before rmcp reads it. The specification (2025-11-25, Streamable
//! HTTP, "Sending Messages to the Server") takes one JSON-RPC request, notification or
//! response per POST, and JSON-RPC 2.0 names the errors: -32700 for a body that is not
//! JSON, -32600 for JSON that is not one message (a batch among them), -32602 for params
//! that do not fit their method ([`super::super::misfit`]). rmcp answers the first two with
//! 415, and a request whose params it cannot read with -32601 under the method's name.
//!
//! The body is parsed here once, and every verdict is read from that one parse. rmcp's
//! service then reads the body it is passed itself: it takes an HTTP request, not a
//! parsed message.

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, JsonRpcError, RequestId,
};
use serde::Deserialize;
use serde_json::Value;

use super::super::misfit::{RefusedCall, misfit};

/// What to do with a POST body.
#[derive(Debug)]
pub(super) enum Verdict {
    /// A message rmcp reads as the client meant it.
    Pass,
    /// Not one JSON-RPC message: answered 400 with this error.
    Malformed(JsonRpcError),
    /// A request whose params do not fit its method: answered with this error, in
    /// answer to the request's id; a tool call's refusal is recorded as its step.
    Misfit {
        error: JsonRpcError,
        call: Option<RefusedCall>,
    },
}

/// Judges one POST body, read once: as JSON, then as the message that JSON is.
pub(super) fn judge(body: &[u8]) -> Verdict {
    let value = match serde_json::from_slice::<Value>(body) {
        Ok(value) => value,
        Err(e) => {
            return Verdict::Malformed(error(
                None,
                ErrorCode::PARSE_ERROR,
                format!("Parse error: the body is not JSON ({e}): send one JSON-RPC 2.0 message"),
            ));
        }
    };
    match ClientJsonRpcMessage::deserialize(&value) {
        // rmcp reads a known method whose params it cannot read as a custom request.
        Ok(ClientJsonRpcMessage::Request(request)) => match &request.request {
            ClientRequest::CustomRequest(custom) => match misfit(custom) {
                Some(misfit) => Verdict::Misfit {
                    error: error(Some(request.id), ErrorCode::INVALID_PARAMS, misfit.message),
                    call: misfit.call,
                },
                None => Verdict::Pass,
            },
            _ => Verdict::Pass,
        },
        Ok(_) => Verdict::Pass,
        Err(why) => Verdict::Malformed(malformed(&value, &why)),
    }
}

/// The error for JSON that is not one JSON-RPC message.
fn malformed(value: &Value, why: &serde_json::Error) -> JsonRpcError {
    let (id, message) = match value {
        Value::Array(_) => (
            None,
            "Invalid Request: a JSON array (a JSON-RPC batch) is not accepted: MCP over \
             streamable HTTP takes one JSON-RPC message per POST; send each on its own"
                .to_owned(),
        ),
        Value::Object(object) if object.get("jsonrpc") != Some(&Value::from("2.0")) => (
            read_id(object.get("id")),
            "Invalid Request: \"jsonrpc\": \"2.0\" is missing: every JSON-RPC 2.0 message \
             carries it"
                .to_owned(),
        ),
        Value::Object(object)
            if object
                .get("params")
                .is_some_and(|p| !p.is_object() && !p.is_array()) =>
        {
            (
                read_id(object.get("id")),
                "Invalid Request: \"params\" must be an object (or left out), as JSON-RPC 2.0 \
                 and every MCP method give it"
                    .to_owned(),
            )
        }
        Value::Object(object) => (
            read_id(object.get("id")),
            format!(
                "Invalid Request: not a JSON-RPC request (\"method\" and \"id\"), notification \
                 (\"method\") or response (\"id\" with \"result\" or \"error\"): {why}"
            ),
        ),
        _ => (
            None,
            "Invalid Request: the body is JSON but not an object: send one JSON-RPC 2.0 \
             message object"
                .to_owned(),
        ),
    };
    error(id, ErrorCode::INVALID_REQUEST, message)
}

/// A request's id, when it has one a response could carry.
fn read_id(id: Option<&Value>) -> Option<RequestId> {
    id.and_then(|id| RequestId::deserialize(id).ok())
}

fn error(id: Option<RequestId>, code: ErrorCode, message: String) -> JsonRpcError {
    JsonRpcError::new(id, ErrorData::new(code, message, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(body: &str) -> bool {
        matches!(judge(body.as_bytes()), Verdict::Pass)
    }

    fn misfit_says(body: &str) -> String {
        match judge(body.as_bytes()) {
            Verdict::Misfit { error, .. } => {
                assert_eq!(error.error.code, ErrorCode::INVALID_PARAMS, "{body}");
                error.error.message.into_owned()
            }
            other => panic!("{body}: {other:?}"),
        }
    }

    #[test]
    fn what_clients_send_passes() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"tap","arguments":{"target":"a_1"}}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"load_skill"}}"#,
            r#"{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":8,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"no"}}"#,
        ] {
            assert!(passes(body), "{body}");
        }
    }

    #[test]
    fn params_that_do_not_fit_are_named() {
        let message = misfit_says(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tap","arguments":"{\"target\":\"a_1\"}"}}"#,
        );
        assert!(message.contains("`params.arguments`") && message.contains("not a string"));
        let message = misfit_says(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tap","arguments":[1]}}"#,
        );
        assert!(message.contains("not an array"), "{message}");
        let message = misfit_says(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        assert!(
            message.starts_with("Invalid params for initialize: "),
            "{message}"
        );
    }

    #[test]
    fn bodies_that_are_not_one_message_are_malformed() {
        for (body, code) in [
            ("", ErrorCode::PARSE_ERROR),
            ("{\"jsonrpc\":", ErrorCode::PARSE_ERROR),
            ("[]", ErrorCode::INVALID_REQUEST),
            ("{}", ErrorCode::INVALID_REQUEST),
            ("7", ErrorCode::INVALID_REQUEST),
            (
                r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                ErrorCode::INVALID_REQUEST,
            ),
        ] {
            match judge(body.as_bytes()) {
                Verdict::Malformed(error) => assert_eq!(error.error.code, code, "{body}"),
                other => panic!("{body}: {other:?}"),
            }
        }
    }
}

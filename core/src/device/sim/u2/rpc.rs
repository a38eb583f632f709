//! JSON-RPC 2.0 as uiautomator2's server answers it: jsonrpc4j's `JsonRpcBasicServer`
//! (briandilley/jsonrpc4j) with the server's own error resolver (openatx/
//! android-uiautomator-server, `stub/Stub.java`).
//!
//! - A call's envelope comes back as `{"jsonrpc":"2.0","id":…,"result":…}`, in that order.
//! - An exception a method throws comes back as code `-32001` (the resolver's
//!   `CUSTOM_ERROR_CODE`), the exception's class name as the message and, as data, the
//!   exception's message for `UiObjectNotFoundException`, its stack trace for any other.
//!   So a selector that matches nothing gives `-32001`,
//!   `androidx.test.uiautomator.UiObjectNotFoundException`, `UiSelector[TEXT=…]` — as
//!   openatx/android-uiautomator-server issue #67 shows a phone answering — and the
//!   uiautomator2 client, which looks for `uiautomator.UiObjectNotFoundException` in the
//!   message, raises `UiObjectNotFoundError`. The `-32002` of the service's annotations is
//!   never sent: the custom resolver replaces jsonrpc4j's annotation resolver.
//! - jsonrpc4j's own errors: no such method `-32601` (`method not found`), no overload
//!   taking that many parameters `-32602` (`method parameters invalid`), a body that is
//!   not JSON or a parameter Jackson cannot convert `-32700` (`JSON parse error`, with the
//!   id `"null"`, a string, as jsonrpc4j writes it), an envelope that is no object
//!   `-32600` (`invalid request`). The sim adds what jsonrpc4j leaves out: `data` saying
//!   which method, or what could not be read.

use serde_json::Value;

/// How a call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum RpcError {
    /// No method of that name (or none the simulated server serves).
    MethodNotFound(String),
    /// No overload takes the parameters given.
    ParamsInvalid(String),
    /// A parameter Jackson could not convert: the whole request is a parse error.
    Parse(String),
    /// The method threw `exception`.
    Thrown {
        exception: &'static str,
        data: String,
    },
}

/// The exception a selector that matches nothing throws.
pub(super) const NOT_FOUND: &str = "androidx.test.uiautomator.UiObjectNotFoundException";

/// One JSON-RPC call, read from its envelope.
pub(super) struct Call<'a> {
    pub method: String,
    pub params: Vec<&'a Value>,
    jsonrpc: String,
    id: Value,
}

/// The answer to a request body: one call, or a batch of them.
pub(super) fn answer(
    body: &[u8],
    mut run: impl FnMut(&Call<'_>) -> Result<Value, RpcError>,
) -> String {
    let Ok(request) = serde_json::from_slice::<Value>(body) else {
        return parse_error("the request body is not JSON");
    };
    match &request {
        Value::Array(calls) => {
            let answers: Vec<String> = calls.iter().map(|c| one(c, &mut run)).collect();
            format!("[{}]", answers.join(","))
        }
        call => one(call, &mut run),
    }
}

fn one(request: &Value, run: &mut impl FnMut(&Call<'_>) -> Result<Value, RpcError>) -> String {
    let Value::Object(fields) = request else {
        return error(
            "2.0",
            &Value::String("null".into()),
            -32600,
            "invalid request",
            None,
        );
    };
    let id = fields.get("id").cloned().unwrap_or(Value::Null);
    let jsonrpc = match fields.get("jsonrpc") {
        None | Some(Value::Null) => "2.0".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let method = match fields.get("method") {
        None | Some(Value::Null) => {
            return error(&jsonrpc, &id, -32601, "method not found", None);
        }
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let params = match fields.get("params") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.iter().collect(),
        Some(Value::Object(named)) if named.is_empty() => Vec::new(),
        Some(Value::Object(_)) => {
            let why = format!(
                "{method} takes its parameters by position: uiautomator2's service names none"
            );
            return error(
                &jsonrpc,
                &id,
                -32602,
                "method parameters invalid",
                Some(&why),
            );
        }
        Some(other) => {
            let why = format!("params must be a list, not {other}");
            return error(
                &jsonrpc,
                &id,
                -32602,
                "method parameters invalid",
                Some(&why),
            );
        }
    };
    let call = Call {
        method,
        params,
        jsonrpc,
        id,
    };
    match run(&call) {
        Ok(result) => format!(
            "{{\"jsonrpc\":{},\"id\":{},\"result\":{}}}",
            Value::String(call.jsonrpc.clone()),
            call.id,
            result
        ),
        Err(RpcError::MethodNotFound(why)) => error(
            &call.jsonrpc,
            &call.id,
            -32601,
            "method not found",
            Some(&why),
        ),
        Err(RpcError::ParamsInvalid(why)) => error(
            &call.jsonrpc,
            &call.id,
            -32602,
            "method parameters invalid",
            Some(&why),
        ),
        Err(RpcError::Parse(why)) => parse_error(&why),
        Err(RpcError::Thrown { exception, data }) => {
            error(&call.jsonrpc, &call.id, -32001, exception, Some(&data))
        }
    }
}

/// jsonrpc4j's answer to what it could not read: the id is the string `"null"`.
fn parse_error(why: &str) -> String {
    error(
        "2.0",
        &Value::String("null".into()),
        -32700,
        "JSON parse error",
        Some(why),
    )
}

fn error(jsonrpc: &str, id: &Value, code: i32, message: &str, data: Option<&str>) -> String {
    let data = data.map_or(String::new(), |d| {
        format!(",\"data\":{}", Value::String(d.to_owned()))
    });
    format!(
        "{{\"jsonrpc\":{},\"id\":{id},\"error\":{{\"code\":{code},\"message\":{}{data}}}}}",
        Value::String(jsonrpc.to_owned()),
        Value::String(message.to_owned()),
    )
}

/// A parameter as Jackson reads a Java `int` or `long`: integers, floats truncated,
/// numeric strings, `null` as 0; `None` for what it refuses.
pub(super) fn integer(value: &Value) -> Option<i64> {
    match value {
        Value::Null => Some(0),
        Value::Number(n) => n.as_i64().or_else(|| {
            let f = n.as_f64()?;
            (f.is_finite() && f.abs() < 9.2e18).then(|| f.trunc() as i64)
        }),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

impl Call<'_> {
    /// Parameter `at` as a Java `int`.
    pub(super) fn int(&self, at: usize) -> Result<i32, RpcError> {
        let value = self.params.get(at).copied().unwrap_or(&Value::Null);
        integer(value)
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| self.cannot(at, "an int"))
    }

    /// Parameter `at` as a Java `long`.
    pub(super) fn long(&self, at: usize) -> Result<i64, RpcError> {
        let value = self.params.get(at).copied().unwrap_or(&Value::Null);
        integer(value).ok_or_else(|| self.cannot(at, "a long"))
    }

    /// Parameter `at` as a Java `boolean`.
    pub(super) fn boolean(&self, at: usize) -> Result<bool, RpcError> {
        match self.params.get(at).copied().unwrap_or(&Value::Null) {
            Value::Null => Ok(false),
            Value::Bool(b) => Ok(*b),
            Value::Number(n) if n.is_i64() || n.is_u64() => Ok(n.as_f64() != Some(0.0)),
            Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
            _ => Err(self.cannot(at, "a boolean")),
        }
    }

    /// Parameter `at` as a Java `String` (`None` for `null`).
    pub(super) fn string(&self, at: usize) -> Result<Option<String>, RpcError> {
        match self.params.get(at).copied().unwrap_or(&Value::Null) {
            Value::Null => Ok(None),
            Value::String(s) => Ok(Some(s.clone())),
            Value::Number(n) => Ok(Some(n.to_string())),
            Value::Bool(b) => Ok(Some(b.to_string())),
            _ => Err(self.cannot(at, "a String")),
        }
    }

    /// Parameter `at`, whatever it is.
    pub(super) fn value(&self, at: usize) -> &Value {
        self.params.get(at).copied().unwrap_or(&Value::Null)
    }

    fn cannot(&self, at: usize, what: &str) -> RpcError {
        RpcError::Parse(format!(
            "parameter {} of {} ({}) cannot be read as {what}",
            at + 1,
            self.method,
            self.value(at)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answered(body: &str) -> Value {
        let text = answer(body.as_bytes(), |call| match call.method.as_str() {
            "ping" => Ok(Value::String("pong".into())),
            "add" => Ok(Value::from(call.int(0)? + call.int(1)?)),
            "fail" => Err(RpcError::Thrown {
                exception: NOT_FOUND,
                data: "UiSelector[TEXT=x]".into(),
            }),
            other => Err(RpcError::MethodNotFound(other.into())),
        });
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn envelopes_come_back_as_jsonrpc4j_writes_them() {
        let text = answer(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, |_| {
            Ok(Value::String("pong".into()))
        });
        assert_eq!(text, r#"{"jsonrpc":"2.0","id":7,"result":"pong"}"#);
        assert_eq!(
            answered(r#"{"jsonrpc":"2.0","id":1,"method":"add","params":[2, 3.9]}"#)["result"],
            5
        );
        let parse = answered(r#"{"jsonrpc":"2.0","id":1,"method":"add","params":[true, 1]}"#);
        assert_eq!(parse["error"]["code"], -32700);
        assert_eq!(parse["id"], "null");
        let thrown = answered(r#"{"jsonrpc":"2.0","id":"a","method":"fail","params":[]}"#);
        assert_eq!(thrown["id"], "a");
        assert_eq!(thrown["error"]["code"], -32001);
        assert_eq!(thrown["error"]["message"], NOT_FOUND);
        assert_eq!(thrown["error"]["data"], "UiSelector[TEXT=x]");
        let named = answered(r#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"x":1}}"#);
        assert_eq!(named["error"]["code"], -32602);
        let kwargs = answered(r#"{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}"#);
        assert_eq!(kwargs["result"], "pong");
        let batch = answered(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}, 3]"#);
        assert_eq!(batch[0]["result"], "pong");
        assert_eq!(batch[1]["error"]["code"], -32600);
        assert_eq!(answered("[]"), serde_json::json!([]));
    }
}

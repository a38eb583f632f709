//! A request whose params do not fit its method, which rmcp reads as a custom request
//! under the method's name: why they do not fit, for the methods tapscope answers, and the
//! tool call it was, which is recorded as a refused step. Both transports answer it so:
//! the HTTP front before rmcp reads the body, the server over stdio.

use rmcp::model::{
    CallToolRequest, CallToolRequestMethod, CallToolRequestParams, ConstString, CustomRequest,
    DiscoverRequest, DiscoverRequestMethod, InitializeRequest, InitializeResultMethod,
    ListToolsRequest, ListToolsRequestMethod, PingRequest, PingRequestMethod,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::RecordRefusal;

/// A request refused for its params: what to tell the client, and the tool call to record.
#[derive(Debug)]
pub(super) struct Misfit {
    /// The JSON-RPC error's message (-32602, invalid params).
    pub(super) message: String,
    /// The `tools/call` it was, if it was one.
    pub(super) call: Option<RefusedCall>,
}

/// A tool call refused before any tool ran: the tool it named (or `tools/call` when it
/// named none) and the arguments as sent.
#[derive(Debug)]
pub struct RefusedCall {
    pub tool: String,
    pub arguments: Value,
}

impl RefusedCall {
    /// The call rmcp read whole, whose tool then refused it or does not exist.
    pub(super) fn of_params(params: &CallToolRequestParams) -> Self {
        Self {
            tool: params.name.to_string(),
            arguments: Value::Object(params.arguments.clone().unwrap_or_default()),
        }
    }

    /// The call in a `tools/call` rmcp could not read, if `custom` is one.
    fn of_custom(custom: &CustomRequest) -> Option<Self> {
        if custom.method != <CallToolRequestMethod as ConstString>::VALUE {
            return None;
        }
        let field = |name: &str| custom.params.as_ref().and_then(|p| p.get(name));
        Some(Self {
            tool: field("name")
                .and_then(Value::as_str)
                .unwrap_or(&custom.method)
                .to_owned(),
            arguments: field("arguments").cloned().unwrap_or_default(),
        })
    }

    /// Records the call as refused with `message`, off the async threads: recording
    /// waits for the disk.
    pub(super) async fn record(
        self,
        recorder: impl RecordRefusal + Send + 'static,
        message: String,
    ) {
        let _ = tokio::task::spawn_blocking(move || recorder.record_refusal(self, &message)).await;
    }
}

/// Why `custom`'s params do not fit its method, for the methods tapscope answers; `None`
/// for the other methods, which are answered -32601 (method not found).
pub(super) fn misfit(custom: &CustomRequest) -> Option<Misfit> {
    let method = custom.method.as_str();
    let mut request = serde_json::Map::new();
    request.insert("method".into(), Value::from(method));
    if let Some(params) = &custom.params {
        request.insert("params".into(), params.clone());
    }
    let request = Value::Object(request);
    let unread = match method {
        <InitializeResultMethod as ConstString>::VALUE => unread::<InitializeRequest>(&request),
        <PingRequestMethod as ConstString>::VALUE => unread::<PingRequest>(&request),
        <ListToolsRequestMethod as ConstString>::VALUE => unread::<ListToolsRequest>(&request),
        <DiscoverRequestMethod as ConstString>::VALUE => unread::<DiscoverRequest>(&request),
        <CallToolRequestMethod as ConstString>::VALUE => {
            let arguments = custom.params.as_ref().and_then(|p| p.get("arguments"));
            match arguments.filter(|a| !a.is_object() && !a.is_null()) {
                Some(arguments) => {
                    return Some(Misfit {
                        message: format!(
                            "Invalid params: `params.arguments` of tools/call must be a JSON \
                             object of the tool's arguments, not {}: send `name` the tool's \
                             name and `arguments` a JSON object of its arguments, like \
                             {{\"target\": ...}} itself, not a string holding it",
                            kind(arguments)
                        ),
                        call: RefusedCall::of_custom(custom),
                    });
                }
                None => unread::<CallToolRequest>(&request),
            }
        }
        _ => None,
    }?;
    Some(Misfit {
        message: format!("Invalid params for {method}: {unread}"),
        call: RefusedCall::of_custom(custom),
    })
}

/// Why `request` cannot be read as `T`, if it cannot.
fn unread<T: DeserializeOwned>(request: &Value) -> Option<String> {
    T::deserialize(request).err().map(|e| e.to_string())
}

/// A JSON value's kind with its article, as a sentence names it.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn custom(method: &str, params: Value) -> CustomRequest {
        CustomRequest::new(method, Some(params))
    }

    #[test]
    fn a_call_whose_arguments_are_no_object_is_named_and_kept_as_sent() {
        let sent = custom(
            "tools/call",
            json!({ "name": "tap", "arguments": "{\"target\":\"a_1\"}" }),
        );
        let misfit = misfit(&sent).expect("a misfit");
        assert!(
            misfit.message.contains("`params.arguments`")
                && misfit.message.contains("not a string")
                && misfit.message.contains("`arguments` a JSON object"),
            "{}",
            misfit.message
        );
        let call = misfit.call.expect("the call");
        assert_eq!(call.tool, "tap");
        assert_eq!(call.arguments, json!("{\"target\":\"a_1\"}"));
    }

    #[test]
    fn a_nameless_call_is_recorded_under_tools_call() {
        let misfit = misfit(&custom("tools/call", json!({ "arguments": {} }))).expect("a misfit");
        assert!(
            misfit
                .message
                .starts_with("Invalid params for tools/call: ")
                && misfit.message.contains("name"),
            "{}",
            misfit.message
        );
        let call = misfit.call.expect("the call");
        assert_eq!(
            (call.tool.as_str(), call.arguments),
            ("tools/call", json!({}))
        );
    }

    #[test]
    fn only_the_methods_tapscope_answers_are_misfits() {
        let initialize = misfit(&custom("initialize", json!({}))).expect("a misfit");
        assert!(
            initialize
                .message
                .starts_with("Invalid params for initialize: ")
        );
        assert!(initialize.call.is_none());
        assert!(misfit(&custom("prompts/get", json!({}))).is_none());
    }
}

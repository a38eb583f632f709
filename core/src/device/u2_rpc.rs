//! uiautomator2's JSON-RPC (its server on the phone, `POST /jsonrpc/0` over `tcp:9008`)
//! read as it passes: the calls that look at the screen (`dumpWindowHierarchy`) and those
//! that act on it (`click`, `swipe`, `pressKey`), in the words of [`Input`].
//!
//! ```
//! use tapscope_core::device::adb_command::Input;
//! use tapscope_core::device::u2_rpc::{Call, call_of};
//! use tapscope_core::geometry::Point;
//! let body = br#"{"jsonrpc":"2.0","id":1,"method":"click","params":[540,1210]}"#;
//! assert_eq!(call_of(body), Some(Call::Input(Input::Tap(Point::new(540, 1210)))));
//! ```

use serde_json::Value;

use super::adb_command::Input;
use crate::geometry::Point;

/// One JSON-RPC call, as far as the screen is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// `dumpWindowHierarchy`: the screen's XML comes back as its result.
    Dump,
    Input(Input),
    /// Any other method, by name.
    Other(String),
}

/// The call a request body makes; `None` when it is no JSON-RPC call.
pub fn call_of(body: &[u8]) -> Option<Call> {
    let request: Value = serde_json::from_slice(body).ok()?;
    let method = request.get("method")?.as_str()?;
    let params = request.get("params").and_then(Value::as_array);
    let number = |at: usize| -> Option<i32> {
        let value = params?.get(at)?.as_f64()?;
        (value.is_finite() && value.abs() <= 100_000.0).then(|| value.round() as i32)
    };
    let point = |at: usize| Some(Point::new(number(at)?, number(at + 1)?));
    let input = match method {
        "dumpWindowHierarchy" => return Some(Call::Dump),
        "click" => point(0).map(Input::Tap),
        "swipe" | "drag" => (|| {
            Some(Input::Swipe {
                from: point(0)?,
                to: point(2)?,
                // uiautomator moves 5 ms a step.
                duration_ms: number(4)
                    .and_then(|steps| u64::try_from(steps).ok())
                    .map(|s| s * 5),
                drag: method == "drag",
            })
        })(),
        "pressKey" | "pressKeyCode" => params
            .and_then(|p| p.first())
            .map(|key| match key {
                Value::String(name) => name.clone(),
                other => other.to_string(),
            })
            .map(|key| Input::Keys(vec![key])),
        _ => None,
    };
    Some(input.map_or_else(|| Call::Other(method.to_owned()), Call::Input))
}

/// The XML a `dumpWindowHierarchy` answer holds.
pub fn dump_of(body: &[u8]) -> Option<String> {
    serde_json::from_slice(body).ok().and_then(dump_in)
}

/// The XML in an answer already parsed, taken out of it rather than copied (a dump is
/// megabytes); `None` when its `result` is no uiautomator XML.
pub fn dump_in(answer: Value) -> Option<String> {
    let Value::Object(mut answer) = answer else {
        return None;
    };
    match answer.remove("result")? {
        Value::String(xml) if xml.contains("<hierarchy") => Some(xml),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies as uiautomator2 3.x's client sends them.
    #[test]
    fn calls_read_as_what_they_do() {
        let p = Point::new;
        let cases = [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"dumpWindowHierarchy","params":[false,50]}"#,
                Some(Call::Dump),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"click","params":[540.4,1210]}"#,
                Some(Call::Input(Input::Tap(p(540, 1210)))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"swipe","params":[540,1800,540,600,55]}"#,
                Some(Call::Input(Input::Swipe {
                    from: p(540, 1800),
                    to: p(540, 600),
                    duration_ms: Some(275),
                    drag: false,
                })),
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"pressKey","params":["back"]}"#,
                Some(Call::Input(Input::Keys(vec!["back".into()]))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"pressKeyCode","params":[4]}"#,
                Some(Call::Input(Input::Keys(vec!["4".into()]))),
            ),
            (
                r#"{"jsonrpc":"2.0","id":6,"method":"deviceInfo","params":[]}"#,
                Some(Call::Other("deviceInfo".into())),
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"click","params":["x"]}"#,
                Some(Call::Other("click".into())),
            ),
            ("not json", None),
        ];
        for (body, expected) in cases {
            assert_eq!(call_of(body.as_bytes()), expected, "{body}");
        }
    }

    #[test]
    fn a_dump_answer_gives_its_xml() {
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":"<?xml version='1.0'?><hierarchy rotation=\"0\"/>"}"#;
        assert_eq!(
            dump_of(answer.as_bytes()).as_deref(),
            Some("<?xml version='1.0'?><hierarchy rotation=\"0\"/>")
        );
        assert_eq!(dump_of(br#"{"result":true}"#), None);
        assert_eq!(dump_of(br#"{"error":{"code":-32000}}"#), None);
    }
}

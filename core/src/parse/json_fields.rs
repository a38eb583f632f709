//! Lenient field access for JSON dumps: each tool spells keys, booleans and bounds its own way.

use serde_json::{Map, Value};

use super::xml::parse_bounds;
use crate::model::Rect;

/// One JSON element, read through the aliases each tool uses for a field.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fields<'a>(pub &'a Map<String, Value>);

impl<'a> Fields<'a> {
    fn first(&self, keys: &[&str]) -> Option<&'a Value> {
        keys.iter().find_map(|k| self.0.get(*k)).filter(|v| !v.is_null())
    }

    /// A string field; numbers are printed, `[s, …]` lists give their first string.
    pub(super) fn text(&self, keys: &[&str]) -> String {
        match self.first(keys) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(Value::Array(items)) => items
                .iter()
                .find_map(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            _ => String::new(),
        }
    }

    /// A boolean field: `true`, `"true"` and `1` are true.
    pub(super) fn flag(&self, keys: &[&str]) -> Option<bool> {
        match self.first(keys)? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => Some(s.eq_ignore_ascii_case("true")),
            Value::Number(n) => Some(n.as_i64() != Some(0)),
            _ => None,
        }
    }

    pub(super) fn integer(&self, keys: &[&str]) -> Option<i64> {
        self.first(keys)?.as_i64()
    }

    /// Bounds in any of the forms tools write: `"[l,t][r,b]"`, `"l,t,r,b"`,
    /// `[[l,t],[r,b]]`, `[l,t,r,b]`, or `{left, top, right, bottom}`.
    pub(super) fn rect(&self, keys: &[&str]) -> Option<Rect> {
        match self.first(keys)? {
            Value::String(s) => parse_bounds(s).or_else(|| rect_from(s.split(',').map(|p| p.trim().parse().ok()))),
            Value::Array(items) => match items.as_slice() {
                [Value::Array(a), Value::Array(b)] => rect_from(a.iter().chain(b).map(as_i32)),
                flat => rect_from(flat.iter().map(as_i32)),
            },
            Value::Object(map) => rect_from(["left", "top", "right", "bottom"].iter().map(|k| map.get(*k).and_then(as_i32))),
            _ => None,
        }
    }

    pub(super) fn children(&self, keys: &[&str]) -> &'a [Value] {
        self.first(keys).and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }
}

fn as_i32(value: &Value) -> Option<i32> {
    let n = value.as_f64()?;
    Some(n.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32)
}

fn rect_from(mut parts: impl Iterator<Item = Option<i32>>) -> Option<Rect> {
    let rect = Rect::new(parts.next()??, parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(rect)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rect_of(value: Value) -> Option<Rect> {
        let map = json!({ "bounds": value });
        Fields(map.as_object().unwrap()).rect(&["bounds"])
    }

    #[test]
    fn every_bounds_form_reads_the_same() {
        let want = Some(Rect::new(1, 2, 30, 40));
        assert_eq!(rect_of(json!("[1,2][30,40]")), want);
        assert_eq!(rect_of(json!("1,2,30,40")), want);
        assert_eq!(rect_of(json!([[1, 2], [30, 40]])), want);
        assert_eq!(rect_of(json!([1, 2, 30, 40])), want);
        assert_eq!(rect_of(json!({"left": 1, "top": 2, "right": 30, "bottom": 40})), want);
        assert_eq!(rect_of(json!([1, 2, 30])), None);
        assert_eq!(rect_of(json!("1,2,3,4,5")), None);
    }

    #[test]
    fn booleans_and_strings_come_in_many_spellings() {
        let map = json!({ "a": "true", "b": false, "c": 1, "desc": [null, "Play"], "n": 7 });
        let fields = Fields(map.as_object().unwrap());
        assert_eq!(fields.flag(&["a"]), Some(true));
        assert_eq!(fields.flag(&["missing", "b"]), Some(false));
        assert_eq!(fields.flag(&["c"]), Some(true));
        assert_eq!(fields.text(&["desc"]), "Play");
        assert_eq!(fields.text(&["n"]), "7");
        assert_eq!(fields.text(&["missing"]), "");
    }
}

//! Lenient readers for the values of JSON element fields: text, booleans, integers and bounds.
//!
//! Each tool spells booleans and bounds its own way. Values are deserialized in one pass,
//! borrowing strings from the text, without building a `serde_json::Value` tree first.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::is_editable_class;
use super::xml::{BoundsProblem, parse_bounds, quoted_start, read_bounds};
use crate::model::Rect;

/// Visitor methods for the JSON kinds a field has no use for: the value is consumed
/// (containers are walked, never built) and `$value` is the answer.
macro_rules! answer_others {
    ($de:lifetime, $value:expr => $($kind:ident)*) => { $(answer_others!(@$kind $de, $value);)* };
    (@unit $de:lifetime, $v:expr) => {
        fn visit_unit<E: ::serde::de::Error>(self) -> Result<Self::Value, E> { Ok($v) }
    };
    (@bool $de:lifetime, $v:expr) => {
        fn visit_bool<E: ::serde::de::Error>(self, _: bool) -> Result<Self::Value, E> { Ok($v) }
    };
    (@u64 $de:lifetime, $v:expr) => {
        fn visit_u64<E: ::serde::de::Error>(self, _: u64) -> Result<Self::Value, E> { Ok($v) }
    };
    (@i64 $de:lifetime, $v:expr) => {
        fn visit_i64<E: ::serde::de::Error>(self, _: i64) -> Result<Self::Value, E> { Ok($v) }
    };
    (@f64 $de:lifetime, $v:expr) => {
        fn visit_f64<E: ::serde::de::Error>(self, _: f64) -> Result<Self::Value, E> { Ok($v) }
    };
    (@str $de:lifetime, $v:expr) => {
        fn visit_str<E: ::serde::de::Error>(self, _: &str) -> Result<Self::Value, E> { Ok($v) }
    };
    (@seq $de:lifetime, $v:expr) => {
        fn visit_seq<A: ::serde::de::SeqAccess<$de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            ::serde::de::Visitor::visit_seq($crate::parse::json_values::SkipVisitor, seq).map(|_| $v)
        }
    };
    (@map $de:lifetime, $v:expr) => {
        fn visit_map<A: ::serde::de::MapAccess<$de>>(self, map: A) -> Result<Self::Value, A::Error> {
            ::serde::de::Visitor::visit_map($crate::parse::json_values::SkipVisitor, map).map(|_| $v)
        }
    };
}
pub(super) use answer_others;

/// Consumes any value without keeping it. Unlike serde's `IgnoredAny` (which takes a laxer
/// shortcut past strings, numbers and nesting), this goes through the full parser, so malformed
/// or too deeply nested JSON is reported exactly as when the whole document was read as a `Value`.
#[derive(Debug)]
pub(super) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

#[derive(Debug)]
pub(super) struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }

    answer_others!('de, Skip => unit bool u64 i64 f64 str);
}

/// A lenient string: numbers are printed, `[s, …]` lists give their first string
/// (Rico writes `[null]` or `["x"]`), anything else is empty.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Text<'de>(pub(super) Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("text")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text<'de>, E> {
                // Printed as serde_json prints numbers, so `1.0` stays `1.0`.
                let printed = serde_json::Number::from_f64(v).map(|n| n.to_string());
                Ok(Text(Cow::Owned(printed.unwrap_or_default())))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text<'de>, A::Error> {
                while let Some(MaybeStr(item)) = seq.next_element()? {
                    if let Some(text) = item {
                        SkipVisitor.visit_seq(seq)?;
                        return Ok(Text(text));
                    }
                }
                Ok(Text::default())
            }
            answer_others!('de, Text::default() => unit bool map);
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// A string, or `None` for any other value.
struct MaybeStr<'de>(Option<Cow<'de, str>>);

impl<'de> Deserialize<'de> for MaybeStr<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MaybeStrVisitor;
        impl<'de> Visitor<'de> for MaybeStrVisitor {
            type Value = MaybeStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("anything")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<MaybeStr<'de>, E> {
                Ok(MaybeStr(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<MaybeStr<'de>, E> {
                Ok(MaybeStr(Some(Cow::Owned(v.to_owned()))))
            }
            answer_others!('de, MaybeStr(None) => unit bool u64 i64 f64 seq map);
        }
        deserializer.deserialize_any(MaybeStrVisitor)
    }
}

/// A lenient boolean: `true`, `"true"` (any case) and non-zero integers are true;
/// `None` for null, lists and objects.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Bool(pub(super) Option<bool>);

impl<'de> Deserialize<'de> for Bool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoolVisitor;
        impl<'de> Visitor<'de> for BoolVisitor {
            type Value = Bool;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a boolean")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Bool, E> {
                Ok(Bool(Some(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bool, E> {
                Ok(Bool(Some(v.eq_ignore_ascii_case("true"))))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Bool, E> {
                Ok(Bool(Some(v != 0)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bool, E> {
                Ok(Bool(Some(v != 0)))
            }
            // Only an integer zero is false (as `Value::as_i64` read it), so even 0.0 is true.
            answer_others!('de, Bool(Some(true)) => f64);
            answer_others!('de, Bool(None) => unit seq map);
        }
        deserializer.deserialize_any(BoolVisitor)
    }
}

/// An integer that fits `i64`; `None` for anything else, floats included.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Integer(pub(super) Option<i64>);

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IntegerVisitor;
        impl<'de> Visitor<'de> for IntegerVisitor {
            type Value = Integer;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Integer, E> {
                Ok(Integer(i64::try_from(v).ok()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Integer, E> {
                Ok(Integer(Some(v)))
            }
            answer_others!('de, Integer(None) => unit bool f64 str seq map);
        }
        deserializer.deserialize_any(IntegerVisitor)
    }
}

/// Rico's `ancestors`: whether any class in the list takes text input.
#[derive(Debug, Default, PartialEq)]
pub(super) struct EditAncestor(pub(super) bool);

impl<'de> Deserialize<'de> for EditAncestor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AncestorsVisitor;
        impl<'de> Visitor<'de> for AncestorsVisitor {
            type Value = EditAncestor;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of class names")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<EditAncestor, A::Error> {
                let mut editable = false;
                while let Some(MaybeStr(class)) = seq.next_element()? {
                    editable |= class.is_some_and(|c| is_editable_class(&c));
                }
                Ok(EditAncestor(editable))
            }
            answer_others!('de, EditAncestor(false) => unit bool u64 i64 f64 str map);
        }
        deserializer.deserialize_any(AncestorsVisitor)
    }
}

/// A number as `f64`, or `None` for any other value.
struct Number(Option<f64>);

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }
}

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Number;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        Ok(Number(Some(v as f64)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        Ok(Number(Some(v as f64)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        Ok(Number(Some(v)))
    }
    answer_others!('de, Number(None) => unit bool str seq map);
}

/// Coordinates read from a list: the first four, how many there were, and whether all were numbers.
#[derive(Clone, Copy, Debug)]
struct Coords {
    values: [f64; 4],
    len: usize,
    all_numbers: bool,
}

impl Coords {
    const EMPTY: Coords = Coords {
        values: [0.0; 4],
        len: 0,
        all_numbers: true,
    };

    fn push(&mut self, value: Option<f64>) {
        match value {
            Some(v) if self.len < 4 => self.values[self.len] = v,
            Some(_) => {}
            None => self.all_numbers = false,
        }
        self.len += 1;
    }

    fn rect(&self) -> Option<Rect> {
        let [l, t, r, b] = self.values.map(round);
        (self.len == 4 && self.all_numbers).then_some(Rect::new(l, t, r, b))
    }

    /// `[[l,t],[r,b]]`: the two lists read as one.
    fn joined(&self, second: &Coords) -> Option<Rect> {
        if self.len + second.len != 4 || !(self.all_numbers && second.all_numbers) {
            return None;
        }
        let mut both = Coords::EMPTY;
        self.values[..self.len]
            .iter()
            .chain(&second.values[..second.len])
            .for_each(|&v| both.push(Some(v)));
        both.rect()
    }
}

/// One item of a bounds list: a coordinate, a list of them, or something else.
enum BoundsItem {
    Number(f64),
    List(Coords),
    Other,
}

impl<'de> Deserialize<'de> for BoundsItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoundsItemVisitor;
        impl<'de> Visitor<'de> for BoundsItemVisitor {
            type Value = BoundsItem;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a coordinate or a list of them")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<BoundsItem, E> {
                Ok(BoundsItem::Number(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<BoundsItem, E> {
                Ok(BoundsItem::Number(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<BoundsItem, E> {
                Ok(BoundsItem::Number(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoundsItem, A::Error> {
                let mut coords = Coords::EMPTY;
                while let Some(Number(n)) = seq.next_element()? {
                    coords.push(n);
                }
                Ok(BoundsItem::List(coords))
            }
            answer_others!('de, BoundsItem::Other => unit bool str map);
        }
        deserializer.deserialize_any(BoundsItemVisitor)
    }
}

/// Bounds in any of the forms tools write: `"[l,t][r,b]"`, `"l,t,r,b"`,
/// `[[l,t],[r,b]]`, `[l,t,r,b]`, `{left, top, right, bottom}` or `{x, y, width, height}`;
/// floats are rounded.
/// The second field describes a value that could not be read as bounds (`None` when
/// absent or `null`), for an error that names it.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Bounds(pub(super) Option<Rect>, pub(super) Option<String>);

impl<'de> Deserialize<'de> for Bounds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoundsVisitor;
        impl<'de> Visitor<'de> for BoundsVisitor {
            type Value = Bounds;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bounds")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bounds, E> {
                let comma_separated = || rect_from(v.split(',').map(|p| p.trim().parse().ok()));
                let rect = parse_bounds(v).or_else(comma_separated);
                let shown = || match read_bounds(v) {
                    Err(BoundsProblem::OutOfRange(number)) => {
                        format!("{} ({number} is out of range)", quoted_start(v))
                    }
                    _ => quoted_start(v),
                };
                Ok(Bounds(rect, rect.is_none().then(shown)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bounds, A::Error> {
                let mut flat = Coords::EMPTY;
                let mut lists = [None, None];
                while let Some(item) = seq.next_element()? {
                    match item {
                        BoundsItem::Number(v) => flat.push(Some(v)),
                        BoundsItem::List(coords) => {
                            if let Some(slot) = lists.get_mut(flat.len) {
                                *slot = Some(coords);
                            }
                            flat.push(None);
                        }
                        BoundsItem::Other => flat.push(None),
                    }
                }
                let rect = match lists {
                    [Some(first), Some(second)] if flat.len == 2 => first.joined(&second),
                    _ => flat.rect(),
                };
                Ok(Bounds(
                    rect,
                    rect.is_none().then(|| "in a list of another shape".into()),
                ))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Bounds, A::Error> {
                let mut sides = [None; 8];
                while let Some(side) = map.next_key::<Side>()? {
                    match side.0 {
                        Some(i) => sides[i] = map.next_value::<Number>()?.0,
                        None => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                let rect = match sides {
                    [Some(l), Some(t), Some(r), Some(b), ..] => {
                        Some(Rect::new(round(l), round(t), round(r), round(b)))
                    }
                    // mobilecli's `rect`: a corner and a size.
                    [.., Some(x), Some(y), Some(w), Some(h)] => {
                        Some(Rect::new(round(x), round(y), round(x + w), round(y + h)))
                    }
                    _ => None,
                };
                Ok(Bounds(
                    rect,
                    rect.is_none().then(|| "in an object of other keys".into()),
                ))
            }
            answer_others!('de, Bounds(None, None) => unit);
            answer_others!('de, Bounds(None, Some("given as a single value".into())) => bool u64 i64 f64);
        }
        deserializer.deserialize_any(BoundsVisitor)
    }
}

/// A key of a bounds object: the index of `left`, `top`, `right` or `bottom`, or (from 4)
/// of `x`, `y`, `width` or `height`.
struct Side(Option<usize>);

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SideVisitor;
        impl Visitor<'_> for SideVisitor {
            type Value = Side;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a side")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Side, E> {
                Ok(Side(
                    [
                        "left", "top", "right", "bottom", "x", "y", "width", "height",
                    ]
                    .iter()
                    .position(|s| *s == v),
                ))
            }
        }
        deserializer.deserialize_identifier(SideVisitor)
    }
}

fn round(n: f64) -> i32 {
    n.round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
}

fn rect_from(mut parts: impl Iterator<Item = Option<i32>>) -> Option<Rect> {
    let rect = Rect::new(
        parts.next()??,
        parts.next()??,
        parts.next()??,
        parts.next()??,
    );
    parts.next().is_none().then_some(rect)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(json: &str) -> Option<Rect> {
        serde_json::from_str::<Bounds>(json).unwrap().0
    }

    fn text(json: &str) -> String {
        serde_json::from_str::<Text<'_>>(json)
            .unwrap()
            .0
            .into_owned()
    }

    fn flag(json: &str) -> Option<bool> {
        serde_json::from_str::<Bool>(json).unwrap().0
    }

    #[test]
    fn every_bounds_form_reads_the_same() {
        let want = Some(Rect::new(1, 2, 30, 40));
        assert_eq!(bounds(r#""[1,2][30,40]""#), want);
        assert_eq!(bounds(r#"" [1,2][30,40] ""#), want);
        assert_eq!(bounds(r#""1,2,30,40""#), want);
        assert_eq!(bounds(r#""1, 2 ,30 , 40""#), want);
        assert_eq!(bounds("[[1,2],[30,40]]"), want);
        assert_eq!(bounds("[1,2,30,40]"), want);
        assert_eq!(bounds(r#"{"left":1,"top":2,"right":30,"bottom":40}"#), want);
        assert_eq!(
            bounds(r#"{"bottom":40,"x":[1],"right":30,"top":2,"left":1}"#),
            want
        );
        assert_eq!(bounds(r#"{"x":1,"y":2,"width":29,"height":38}"#), want);
        assert_eq!(
            bounds(r#"{"width":29,"x":1,"height":38,"y":2,"left":[0]}"#),
            want
        );
        assert_eq!(bounds("[[1.4,1.6],[29.5,40.49]]"), want);
        assert_eq!(bounds("[[1,2,30],[40]]"), want);
    }

    #[test]
    fn malformed_bounds_read_as_none() {
        assert_eq!(bounds("[1,2,30]"), None);
        assert_eq!(bounds("[1,2,30,40,50]"), None);
        assert_eq!(bounds(r#"[1,2,30,"40"]"#), None);
        assert_eq!(bounds("[[1,2,30,40]]"), None);
        assert_eq!(bounds("[[1,2],[30,40],[5,6]]"), None);
        assert_eq!(bounds("[[1,2],[30]]"), None);
        assert_eq!(bounds("[[1,2],30,40]"), None);
        assert_eq!(bounds(r#""1,2,3,4,5""#), None);
        assert_eq!(bounds(r#""[1,2][3]""#), None);
        assert_eq!(bounds(r#"{"left":1,"top":2,"right":30}"#), None);
        assert_eq!(bounds(r#"{"x":1,"y":2,"width":29}"#), None);
        assert_eq!(bounds(r#"{"left":1,"top":2,"width":29,"height":38}"#), None);
        assert_eq!(
            bounds(r#"{"left":"1","top":2,"right":30,"bottom":40}"#),
            None
        );
        assert_eq!(bounds("null"), None);
        assert_eq!(bounds("7"), None);
    }

    #[test]
    fn bounds_clamp_huge_numbers() {
        let big = Some(Rect::new(i32::MAX, i32::MIN, 0, 0));
        assert_eq!(bounds("[1e12,-1e12,0,0]"), big);
        assert_eq!(
            bounds("[18446744073709551615,-9223372036854775808,0,0]"),
            big
        );
    }

    #[test]
    fn text_takes_strings_numbers_and_first_strings_of_lists() {
        assert_eq!(text(r#""Play""#), "Play");
        assert_eq!(text(r#""a\"b\u00e9""#), "a\"bé");
        assert_eq!(text("7"), "7");
        assert_eq!(text("-7"), "-7");
        assert_eq!(text("1.0"), "1.0");
        assert_eq!(text("1e5"), "100000.0");
        assert_eq!(text(r#"[null, "Play", "x"]"#), "Play");
        assert_eq!(text(r#"[[1], {"a": "b"}, "Play"]"#), "Play");
        assert_eq!(text("[null]"), "");
        assert_eq!(text("null"), "");
        assert_eq!(text("true"), "");
        assert_eq!(text(r#"{"text": "x"}"#), "");
    }

    #[test]
    fn text_borrows_unescaped_strings() {
        let json = r#""plain""#;
        assert!(matches!(
            serde_json::from_str::<Text<'_>>(json).unwrap().0,
            Cow::Borrowed("plain")
        ));
    }

    #[test]
    fn booleans_come_in_many_spellings() {
        assert_eq!(flag("true"), Some(true));
        assert_eq!(flag("false"), Some(false));
        assert_eq!(flag(r#""TRUE""#), Some(true));
        assert_eq!(flag(r#""false""#), Some(false));
        assert_eq!(flag(r#""yes""#), Some(false));
        assert_eq!(flag("1"), Some(true));
        assert_eq!(flag("0"), Some(false));
        assert_eq!(flag("-1"), Some(true));
        assert_eq!(flag("0.0"), Some(true));
        assert_eq!(flag("null"), None);
        assert_eq!(flag("[true]"), None);
        assert_eq!(flag("{}"), None);
    }

    #[test]
    fn integers_and_ancestors_are_lenient() {
        let integer = |json| serde_json::from_str::<Integer>(json).unwrap().0;
        assert_eq!(integer("-1"), Some(-1));
        assert_eq!(integer("12"), Some(12));
        assert_eq!(integer("1.0"), None);
        assert_eq!(integer(r#""1""#), None);
        assert_eq!(integer("18446744073709551615"), None);
        let editable = |json| serde_json::from_str::<EditAncestor>(json).unwrap().0;
        assert!(editable(
            r#"[1, null, "android.widget.EditText", "java.lang.Object"]"#
        ));
        assert!(!editable(
            r#"["android.view.View", ["android.widget.EditText"]]"#
        ));
        assert!(!editable(r#""android.widget.EditText""#));
    }
}

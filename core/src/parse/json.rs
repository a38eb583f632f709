//! JSON dumps: droidbot states and `.vh` lists, Rico hierarchies, droidrun elements and
//! Portal's states, mobilecli's window hierarchies, flat element lists.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::json_fields::{Child, Element, Item};
use super::json_values::{Integer, Skip, Text, answer_others};
use super::{MAX_DEPTH, TreeBuilder};
use crate::error::{Error, Result, line_column};
use crate::model::{DumpFormat, NodeId, Size, Tree};

/// Parses any JSON form tapscope knows, recognised by its shape.
pub(super) fn parse(text: &str) -> Result<Tree> {
    check_nesting(text)?;
    let top: Top<'_> = read_unbounded(text).map_err(|e| json_error(&e))?;
    match top {
        Top::Object(dump) => {
            if let Some(views) = &dump.views {
                return droidbot(views, Some(dump.foreground_activity.0.into_owned()));
            }
            if let Some(root) = &dump.root {
                let app = dump.activity_name.0.into_owned();
                return nested(root.0.iter(), DumpFormat::Rico, Some(app), true);
            }
            if let Some(roots) = &dump.a11y_tree {
                // Portal's `state_full` (its active window's root) or `state` (elements).
                let app = dump.phone_package.0.into_owned();
                let roots = roots.iter().filter_map(|item| item.0.as_ref());
                let mut tree = nested(roots, DumpFormat::Droidrun, Some(app), false)?;
                if let Some(size) = dump.screen {
                    tree.display = size;
                }
                return Ok(tree);
            }
            if let Some(windows) = &dump.hierarchy {
                // mobilecli's dump server: one root per window.
                let roots = windows.iter().filter_map(|item| item.0.as_ref());
                return nested(roots, DumpFormat::FlatList, None, true);
            }
            if dump.element_like {
                // One element alone: Portal's `a11y_tree_full`, read again as an element.
                let root: Item<'_> = read_unbounded(text).map_err(|e| json_error(&e))?;
                return nested(root.0.iter(), DumpFormat::Droidrun, None, false);
            }
            Err(unknown(text))
        }
        Top::List(items) => {
            let Some(Item(Some(first))) = items.first() else {
                return Err(Error::UnknownFormat {
                    found: "a JSON list that holds no objects".into(),
                });
            };
            let elements = items.iter().filter_map(|item| item.0.as_ref());
            if first.has_parent_key() && first.has_indexed_children() {
                droidbot(&items, None)
            } else if first.has_children_key() || first.has_class_name_key() {
                nested(elements, DumpFormat::Droidrun, None, false)
            } else if first.has_bounds_key() {
                nested(elements, DumpFormat::FlatList, None, false)
            } else {
                Err(unknown(text))
            }
        }
        Top::Other(kind) => Err(Error::UnknownFormat {
            found: format!("a bare JSON {kind}"),
        }),
    }
}

/// Deepest bracket nesting read: about 250 node levels (a node and its children list take
/// two), far past any real screen, and shallow enough for the parser's recursion.
const MAX_JSON_NESTING: usize = 512;

/// Refuses JSON nested deeper than [`MAX_JSON_NESTING`] before the recursive parser sees it.
fn check_nesting(text: &str) -> Result<()> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (offset, &byte) in text.as_bytes().iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_NESTING {
                    let (line, _) = line_column(text, offset);
                    return Err(Error::TooDeep {
                        limit: MAX_JSON_NESTING / 2,
                        at: format!("line {line}"),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Deserializes without serde_json's fixed 128-level limit; [`check_nesting`] bounds it instead.
fn read_unbounded<'de, T: Deserialize<'de>>(text: &'de str) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

fn json_error(e: &serde_json::Error) -> Error {
    Error::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    }
}

/// Names the keys of the object that was not recognised (the top level, or a list's first
/// element). Only this error path builds a `Value`, for its sorted keys.
fn unknown(text: &str) -> Error {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return json_error(&e),
    };
    let map = match &value {
        Value::Array(items) => items.first().and_then(Value::as_object),
        other => other.as_object(),
    };
    let keys: Vec<&str> = map
        .into_iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .take(8)
        .collect();
    Error::UnknownFormat {
        found: format!("a JSON object with keys {keys:?}"),
    }
}

/// droidbot: a flat `views[]` where each view names its parent and children by index.
fn droidbot(views: &[Item<'_>], app: Option<String>) -> Result<Tree> {
    let shape = |message: String| Error::JsonShape {
        format: "droidbot",
        message,
    };
    let elements: Vec<&Element<'_>> = views
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.0.as_ref()
                .ok_or_else(|| shape(format!("views[{i}] is not an object")))
        })
        .collect::<Result<_>>()?;
    let parent_of = |e: &Element<'_>| e.parent().filter(|&p| p >= 0 && (p as usize) < views.len());
    let mut builder = TreeBuilder::default();
    let mut visited = vec![false; views.len()];
    let mut stack: Vec<(usize, Option<NodeId>, usize)> = (0..views.len())
        .rev()
        .filter(|&i| parent_of(elements[i]).is_none())
        .map(|i| (i, None, 0))
        .collect();
    while let Some((index, parent, depth)) = stack.pop() {
        if std::mem::replace(&mut visited[index], true) {
            continue; // a view listed twice, or a cycle: keep its first place
        }
        if depth >= MAX_DEPTH {
            return Err(Error::TooDeep {
                limit: MAX_DEPTH,
                at: format!("views[{index}]"),
            });
        }
        let node = elements[index]
            .to_node(DumpFormat::Droidbot)
            .map_err(|m| shape(format!("views[{index}]: {m}")))?;
        let id = builder.add(parent, node);
        for child in elements[index].children().iter().rev() {
            let child = match child {
                Child::Number(Some(c)) => usize::try_from(*c).ok().filter(|&c| c < views.len()),
                _ => None,
            };
            let child = child.ok_or_else(|| {
                shape(format!("views[{index}] names a child that does not exist"))
            })?;
            stack.push((child, Some(id), depth + 1));
        }
    }
    builder.finish(DumpFormat::Droidbot, 0, app, true)
}

/// Rico, droidrun, mobilecli and flat lists: elements that hold their children (if any)
/// inline; with `roots_are_windows`, each root is a window of its own. Entries that are not
/// objects (Rico writes `null` for views it could not capture) are skipped.
fn nested<'a, 'de: 'a>(
    roots: impl DoubleEndedIterator<Item = &'a Element<'de>>,
    format: DumpFormat,
    app: Option<String>,
    roots_are_windows: bool,
) -> Result<Tree> {
    let mut builder = TreeBuilder::default();
    let mut stack: Vec<(&Element<'de>, Option<NodeId>, usize)> =
        roots.rev().map(|r| (r, None, 0)).collect();
    while let Some((element, parent, depth)) = stack.pop() {
        if depth >= MAX_DEPTH {
            return Err(Error::TooDeep {
                limit: MAX_DEPTH,
                at: format!("element {}", builder.len() + 1),
            });
        }
        let node = element
            .to_node(format)
            .map_err(|message| Error::JsonShape {
                format: format.name(),
                message: format!("element {}: {message}", builder.len() + 1),
            })?;
        let id = builder.add(parent, node);
        for child in element.children().iter().rev() {
            if let Child::Element(child) = child {
                stack.push((child, Some(id), depth + 1));
            }
        }
    }
    builder.finish(format, 0, app, roots_are_windows)
}

/// The top level of a JSON dump, read in one pass.
enum Top<'de> {
    Object(Dump<'de>),
    List(Vec<Item<'de>>),
    /// Not a container: what it is instead, for the error.
    Other(&'static str),
}

/// The keys of a top-level object that name a format: droidbot's `views`, Rico's
/// `activity.root`, Portal's `a11y_tree`, mobilecli's `hierarchy`.
#[derive(Default)]
struct Dump<'de> {
    views: Option<Vec<Item<'de>>>,
    foreground_activity: Text<'de>,
    activity_name: Text<'de>,
    /// `activity.root`, when `activity` is an object holding `root` (boxed: an element is large).
    root: Option<Box<Item<'de>>>,
    a11y_tree: Option<Vec<Item<'de>>>,
    /// `phone_state.packageName`: the app in front.
    phone_package: Text<'de>,
    /// `device_context.screen_bounds`: the display as the phone gives it.
    screen: Option<Size>,
    hierarchy: Option<Vec<Item<'de>>>,
    /// A key only an element has (`className`, `boundsInScreen`): the object is one element.
    element_like: bool,
}

impl<'de> Deserialize<'de> for Top<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TopVisitor;
        impl<'de> Visitor<'de> for TopVisitor {
            type Value = Top<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON dump")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
                // A repeated key keeps its last value, as a JSON map would.
                let mut dump = Dump::default();
                while let Some(Name(name)) = map.next_key()? {
                    match &*name {
                        "views" => dump.views = map.next_value::<Views<'de>>()?.0,
                        "foreground_activity" => dump.foreground_activity = map.next_value()?,
                        "activity_name" => dump.activity_name = map.next_value()?,
                        "activity" => dump.root = map.next_value::<Activity<'de>>()?.0,
                        "a11y_tree" => dump.a11y_tree = map.next_value::<A11yTree<'de>>()?.0,
                        "phone_state" => {
                            dump.phone_package = map.next_value::<PhoneState<'de>>()?.0;
                        }
                        "device_context" => dump.screen = map.next_value::<DeviceContext>()?.0,
                        "hierarchy" => dump.hierarchy = map.next_value::<Views<'de>>()?.0,
                        other => {
                            dump.element_like |= matches!(other, "className" | "boundsInScreen");
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                Ok(Top::Object(dump))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Top<'de>, A::Error> {
                Views::visit(seq).map(Top::List)
            }
            answer_others!('de, Top::Other("null") => unit);
            answer_others!('de, Top::Other("boolean") => bool);
            answer_others!('de, Top::Other("number") => u64 i64 f64);
            answer_others!('de, Top::Other("string") => str);
        }
        deserializer.deserialize_any(TopVisitor)
    }
}

/// droidbot's `views`: `None` when it is not a list.
struct Views<'de>(Option<Vec<Item<'de>>>);

impl<'de> Views<'de> {
    fn visit<A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<Item<'de>>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(items)
    }
}

impl<'de> Deserialize<'de> for Views<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ViewsVisitor;
        impl<'de> Visitor<'de> for ViewsVisitor {
            type Value = Views<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of views")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Views<'de>, A::Error> {
                Views::visit(seq).map(|items| Views(Some(items)))
            }
            answer_others!('de, Views(None) => unit bool u64 i64 f64 str map);
        }
        deserializer.deserialize_any(ViewsVisitor)
    }
}

/// Rico's `activity`: its `root`, if it is an object that has one.
struct Activity<'de>(Option<Box<Item<'de>>>);

impl<'de> Deserialize<'de> for Activity<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ActivityVisitor;
        impl<'de> Visitor<'de> for ActivityVisitor {
            type Value = Activity<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an activity")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Activity<'de>, A::Error> {
                Ok(Activity(pick::<_, Item<'de>>(map, "root")?.map(Box::new)))
            }
            answer_others!('de, Activity(None) => unit bool u64 i64 f64 str seq);
        }
        deserializer.deserialize_any(ActivityVisitor)
    }
}

/// The value of `key` in an object (the last, if repeated); every other value is skipped.
fn pick<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    mut map: A,
    key: &str,
) -> Result<Option<T>, A::Error> {
    let mut found = None;
    while let Some(Name(name)) = map.next_key()? {
        if name == key {
            found = Some(map.next_value()?);
        } else {
            map.next_value::<Skip>()?;
        }
    }
    Ok(found)
}

/// Portal's `a11y_tree`: `state_full`'s one root object, or `state`'s list of elements.
struct A11yTree<'de>(Option<Vec<Item<'de>>>);

impl<'de> Deserialize<'de> for A11yTree<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct A11yTreeVisitor;
        impl<'de> Visitor<'de> for A11yTreeVisitor {
            type Value = A11yTree<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an accessibility tree")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<A11yTree<'de>, A::Error> {
                Views::visit(seq).map(|items| A11yTree(Some(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<A11yTree<'de>, A::Error> {
                let root = Item::deserialize(MapAccessDeserializer::new(map))?;
                Ok(A11yTree(Some(vec![root])))
            }
            answer_others!('de, A11yTree(None) => unit bool u64 i64 f64 str);
        }
        deserializer.deserialize_any(A11yTreeVisitor)
    }
}

/// Portal's `phone_state`: its `packageName`, empty when absent.
struct PhoneState<'de>(Text<'de>);

impl<'de> Deserialize<'de> for PhoneState<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PhoneStateVisitor;
        impl<'de> Visitor<'de> for PhoneStateVisitor {
            type Value = PhoneState<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a phone state")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<PhoneState<'de>, A::Error> {
                Ok(PhoneState(pick(map, "packageName")?.unwrap_or_default()))
            }
            answer_others!('de, PhoneState(Text::default()) => unit bool u64 i64 f64 str seq);
        }
        deserializer.deserialize_any(PhoneStateVisitor)
    }
}

/// Portal's `device_context`: the size in its `screen_bounds` (`{width, height}`).
struct DeviceContext(Option<Size>);

impl<'de> Deserialize<'de> for DeviceContext {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ContextVisitor;
        impl<'de> Visitor<'de> for ContextVisitor {
            type Value = DeviceContext;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a device context")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<DeviceContext, A::Error> {
                Ok(DeviceContext(
                    pick::<_, ScreenSize>(map, "screen_bounds")?.and_then(|s| s.0),
                ))
            }
            answer_others!('de, DeviceContext(None) => unit bool u64 i64 f64 str seq);
        }
        deserializer.deserialize_any(ContextVisitor)
    }
}

/// `{width, height}`, both positive integers that fit a coordinate.
struct ScreenSize(Option<Size>);

impl<'de> Deserialize<'de> for ScreenSize {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SizeVisitor;
        impl<'de> Visitor<'de> for SizeVisitor {
            type Value = ScreenSize;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a width and a height")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ScreenSize, A::Error> {
                let (mut width, mut height) = (None, None);
                while let Some(Name(name)) = map.next_key()? {
                    match &*name {
                        "width" => width = map.next_value::<Integer>()?.0,
                        "height" => height = map.next_value::<Integer>()?.0,
                        _ => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                let side =
                    |n: Option<i64>| n.and_then(|n| i32::try_from(n).ok()).filter(|&n| n > 0);
                Ok(ScreenSize(
                    side(width)
                        .zip(side(height))
                        .map(|(width, height)| Size { width, height }),
                ))
            }
            answer_others!('de, ScreenSize(None) => unit bool u64 i64 f64 str seq);
        }
        deserializer.deserialize_any(SizeVisitor)
    }
}

/// A key of a top-level object, borrowed unless it has escapes.
struct Name<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl<'de> Visitor<'de> for NameVisitor {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Name<'de>, E> {
                Ok(Name(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_identifier(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Flags, Rect, WindowKind};

    #[test]
    fn droidbot_views_link_by_index() {
        let json = r#"{"foreground_activity": "com.app/.Main", "views": [
            {"parent": -1, "children": [1], "class": "F", "package": "com.app", "bounds": [[0,0],[100,200]]},
            {"parent": 0, "children": [], "text": "Go", "clickable": true, "bounds": [[0,0],[10,10]]}]}"#;
        let tree = parse(json).unwrap();
        assert_eq!(tree.format, DumpFormat::Droidbot);
        assert_eq!(tree.app, "com.app/.Main");
        assert_eq!(tree.nodes[1].parent, Some(0));
        assert!(tree.nodes[1].has(Flags::CLICKABLE));
        assert_eq!(tree.nodes[0].bounds, Rect::new(0, 0, 100, 200));
    }

    #[test]
    fn every_list_shape_is_recognised() {
        let droidbot =
            r#"[{"parent": null, "children": [1]}, {"parent": 0, "children": [], "text": "a"}]"#;
        assert_eq!(parse(droidbot).unwrap().format, DumpFormat::Droidbot);
        let droidrun =
            r#"[{"className": "X", "bounds": "0,0,10,10", "children": [{"text": "a"}]}]"#;
        let tree = parse(droidrun).unwrap();
        assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::Droidrun, 2));
        let flat = r#"[{"bounds": "[0,0][10,10]", "text": "a"}, null, {"bounds": "[0,0][5,5]"}]"#;
        let tree = parse(flat).unwrap();
        assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::FlatList, 2));
    }

    #[test]
    fn rico_root_skips_nulls() {
        let json = r#"{"activity_name": "a/.B", "activity": {"root":
            {"class": "F", "bounds": [0,0,10,10], "children": [null, {"class": "T"}]}}}"#;
        let tree = parse(json).unwrap();
        assert_eq!(
            (tree.format, tree.nodes.len(), tree.app.as_str()),
            (DumpFormat::Rico, 2, "a/.B")
        );
    }

    #[test]
    fn errors_say_what_was_found() {
        let message = |json: &str| parse(json).unwrap_err().to_string();
        assert!(message(r#"{"b": 1, "a": 2}"#).contains(r#"keys ["a", "b"]"#));
        assert!(message(r#"[{"z": 1}]"#).contains(r#"keys ["z"]"#));
        assert!(message("[1, {}]").contains("holds no objects"));
        assert!(
            message(r#"{"views": [{"parent": -1, "children": [5]}]}"#).contains("names a child")
        );
        assert!(message(r#"{"views": [{}, 3]}"#).contains("views[1] is not an object"));
        assert!(matches!(
            parse(r#"[{"text": "a",]"#),
            Err(Error::Json {
                line: 1,
                column: 15,
                ..
            })
        ));
    }

    #[test]
    fn portal_states_take_the_phone_s_package_and_size() {
        let json = r#"{"a11y_tree": {"className": "F", "packageName": "a.b",
            "boundsInScreen": {"left": 0, "top": 0, "right": 100, "bottom": 150}, "children": [
            {"className": "T", "text": "x"}]}, "phone_state": {"packageName": "a.b"},
            "device_context": {"screen_bounds": {"width": 200, "height": 300}}}"#;
        let tree = parse(json).unwrap();
        assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::Droidrun, 2));
        assert_eq!((tree.app.as_str(), tree.windows.len()), ("a.b", 1));
        assert_eq!((tree.display.width, tree.display.height), (200, 300));
        let list = r#"{"a11y_tree": [{"className": "A", "bounds": "0, 0, 10, 10"},
            {"className": "B", "bounds": "0, 10, 10, 20"}], "phone_state": {"packageName": 7},
            "device_context": {"screen_bounds": {"width": -1, "height": 2}}}"#;
        let tree = parse(list).unwrap();
        assert_eq!((tree.nodes.len(), tree.windows.len()), (2, 1));
        assert_eq!((tree.app.as_str(), tree.display.height), ("7", 20));
        assert!(matches!(
            parse(r#"{"a11y_tree": [], "phone_state": {}}"#),
            Err(Error::NoNodes)
        ));
        let message = parse(r#"{"a11y_tree": "[]", "x": 1}"#)
            .unwrap_err()
            .to_string();
        assert!(message.contains(r#"keys ["a11y_tree", "x"]"#), "{message}");
    }

    #[test]
    fn mobilecli_hierarchies_make_a_window_of_each_root() {
        let json = r#"{"hierarchy": [
            {"class": "F", "package": "a.b", "rect": {"x": 0, "y": 0, "width": 100, "height": 200},
             "children": [{"class": "T", "text": "x"}]},
            {"class": "K", "package": "com.google.android.inputmethod.latin",
             "rect": {"x": 0, "y": 150, "width": 100, "height": 50}}]}"#;
        let tree = parse(json).unwrap();
        assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::FlatList, 3));
        let kinds: Vec<WindowKind> = tree.windows.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [WindowKind::App, WindowKind::Keyboard]);
        assert_eq!(tree.nodes[2].bounds, Rect::new(0, 150, 100, 200));
        assert!(matches!(parse(r#"{"hierarchy": []}"#), Err(Error::NoNodes)));
    }

    #[test]
    fn one_element_alone_is_one_root() {
        let json = r#"{"resourceId": "", "className": "F", "children": [{"className": "T"}]}"#;
        let tree = parse(json).unwrap();
        assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::Droidrun, 2));
        assert!(matches!(
            parse(r#"{"className": "F", "boundsInScreen": 3}"#),
            Err(Error::JsonShape { .. })
        ));
    }

    #[test]
    fn droidbot_cycles_and_repeats_keep_the_first_place() {
        let json = r#"[{"parent": null, "children": [1, 1]}, {"parent": 0, "children": [0]}]"#;
        let tree = parse(json).unwrap();
        assert_eq!(tree.nodes.len(), 2);
    }
}

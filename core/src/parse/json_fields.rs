//! One JSON element read straight from the text: key aliases, and the node it becomes.
//!
//! Each tool spells keys its own way; the values are read by `json_values`. Elements are
//! deserialized in one pass, borrowing strings from the text, without building a
//! `serde_json::Value` tree first.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::is_editable_class;
use super::json_values::{Bool, Bounds, EditAncestor, Integer, Skip, Text, answer_others};
use crate::model::{DumpFormat, Flags, Node};

/// Text fields, by index into [`Element::texts`].
const CLASS: usize = 0;
const TEXT: usize = 1;
const DESC: usize = 2;
const HINT: usize = 3;
const RESOURCE_ID: usize = 4;
const PACKAGE: usize = 5;
const VISIBILITY: usize = 6;
const TYPE: usize = 7;

/// Boolean fields: the first eleven set these flags, the last three are read on their own.
const FLAG_ORDER: [Flags; 11] = [
    Flags::CLICKABLE,
    Flags::LONG_CLICKABLE,
    Flags::CHECKABLE,
    Flags::CHECKED,
    Flags::SCROLLABLE,
    Flags::EDITABLE,
    Flags::FOCUSABLE,
    Flags::FOCUSED,
    Flags::SELECTED,
    Flags::PASSWORD,
    Flags::ENABLED,
];
const SCROLL_H: usize = 11;
const SCROLL_V: usize = 12;
const VISIBLE: usize = 13;

/// Which field a key fills, and its rank among that field's spellings (0 wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Text(usize, u8),
    Bool(usize, u8),
    Bounds(u8),
    Parent,
    Children,
    Ancestors,
    Other,
}

fn key(name: &str) -> Key {
    match name {
        "class" => Key::Text(CLASS, 0),
        "className" => Key::Text(CLASS, 1),
        "text" => Key::Text(TEXT, 0),
        "content-desc" => Key::Text(DESC, 0),
        "content_description" => Key::Text(DESC, 1),
        "contentDesc" => Key::Text(DESC, 2),
        "content_desc" => Key::Text(DESC, 3),
        "contentDescription" => Key::Text(DESC, 4),
        "hint" => Key::Text(HINT, 0),
        "resource-id" => Key::Text(RESOURCE_ID, 0),
        "resource_id" => Key::Text(RESOURCE_ID, 1),
        "resourceId" => Key::Text(RESOURCE_ID, 2),
        "package" => Key::Text(PACKAGE, 0),
        "packageName" => Key::Text(PACKAGE, 1),
        "visibility" => Key::Text(VISIBILITY, 0),
        "type" => Key::Text(TYPE, 0),
        "bounds" => Key::Bounds(0),
        "boundsInScreen" => Key::Bounds(1),
        "rect" => Key::Bounds(2),
        "clickable" => Key::Bool(0, 0),
        "isClickable" => Key::Bool(0, 1),
        "long-clickable" => Key::Bool(1, 0),
        "long_clickable" => Key::Bool(1, 1),
        "longClickable" => Key::Bool(1, 2),
        "isLongClickable" => Key::Bool(1, 3),
        "checkable" => Key::Bool(2, 0),
        "isCheckable" => Key::Bool(2, 1),
        "checked" => Key::Bool(3, 0),
        "isChecked" => Key::Bool(3, 1),
        "scrollable" => Key::Bool(4, 0),
        "isScrollable" => Key::Bool(4, 1),
        "editable" => Key::Bool(5, 0),
        "isEditable" => Key::Bool(5, 1),
        "focusable" => Key::Bool(6, 0),
        "isFocusable" => Key::Bool(6, 1),
        "focused" => Key::Bool(7, 0),
        "isFocused" => Key::Bool(7, 1),
        "selected" => Key::Bool(8, 0),
        "isSelected" => Key::Bool(8, 1),
        "password" => Key::Bool(9, 0),
        "is_password" => Key::Bool(9, 1),
        "isPassword" => Key::Bool(9, 2),
        "enabled" => Key::Bool(10, 0),
        "isEnabled" => Key::Bool(10, 1),
        "scrollable-horizontal" => Key::Bool(SCROLL_H, 0),
        "scrollable-vertical" => Key::Bool(SCROLL_V, 0),
        "visible-to-user" => Key::Bool(VISIBLE, 0),
        "visible" => Key::Bool(VISIBLE, 1),
        "visibleToUser" => Key::Bool(VISIBLE, 2),
        "isVisibleToUser" => Key::Bool(VISIBLE, 3),
        "parent" => Key::Parent,
        "children" => Key::Children,
        "ancestors" => Key::Ancestors,
        _ => Key::Other,
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(key(v))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// One field's value and the rank of the spelling it came from: a better-ranked spelling
/// wins wherever it appears, and a repeated key keeps its last value (as a JSON map would).
#[derive(Debug, Default)]
struct Slot<T> {
    rank: Option<u8>,
    value: T,
}

impl<T> Slot<T> {
    /// Reads the next map value into the slot, or skips it when a better spelling was seen.
    fn fill<'de, A: MapAccess<'de>>(&mut self, map: &mut A, rank: u8) -> Result<(), A::Error>
    where
        T: Deserialize<'de>,
    {
        if self.rank.is_none_or(|seen| rank <= seen) {
            self.value = map.next_value()?;
            self.rank = Some(rank);
        } else {
            map.next_value::<Skip>()?;
        }
        Ok(())
    }
}

/// One element of any JSON dump format; fields it does not know are skipped.
#[derive(Debug, Default)]
pub(super) struct Element<'de> {
    texts: [Slot<Text<'de>>; 8],
    bools: [Slot<Bool>; 14],
    bounds: Slot<Bounds>,
    parent: Slot<Integer>,
    children: Slot<Children<'de>>,
    ancestors: Slot<EditAncestor>,
    /// Keys the format detection looks for, with whatever value.
    class_name_key: bool,
    bounds_key: bool,
}

impl<'de> Element<'de> {
    /// The `parent` index, if it is an integer.
    pub(super) fn parent(&self) -> Option<i64> {
        self.parent.value.0
    }

    pub(super) fn children(&self) -> &[Child<'de>] {
        self.children.value.0.as_deref().unwrap_or_default()
    }

    pub(super) fn has_parent_key(&self) -> bool {
        self.parent.rank.is_some()
    }

    pub(super) fn has_children_key(&self) -> bool {
        self.children.rank.is_some()
    }

    pub(super) fn has_class_name_key(&self) -> bool {
        self.class_name_key
    }

    pub(super) fn has_bounds_key(&self) -> bool {
        self.bounds_key
    }

    /// Whether `children` is a list of numbers (droidbot's indexes), as opposed to elements.
    pub(super) fn has_indexed_children(&self) -> bool {
        let children = self.children.value.0.as_deref();
        children.is_some_and(|c| c.iter().all(|c| matches!(c, Child::Number(_))))
    }

    fn text(&self, field: usize) -> &str {
        &self.texts[field].value.0
    }

    fn flag(&self, field: usize) -> Option<bool> {
        self.bools[field].value.0
    }

    /// The node this element describes, under whichever key spelling its tool used.
    /// Fails only when bounds are given in a form no tool writes.
    pub(super) fn to_node(&self, format: DumpFormat) -> Result<Node, String> {
        if let Some(shown) = &self.bounds.value.1 {
            return Err(format!(
                "bounds {shown} are not of a form tapscope reads: [l,t][r,b], l,t,r,b, \
                 [[l,t],[r,b]], [l,t,r,b], {{left, top, right, bottom}} or {{x, y, width, \
                 height}}"
            ));
        }
        let mut node = Node {
            class: self.text(CLASS).to_owned(),
            text: self.text(TEXT).to_owned(),
            desc: self.text(DESC).to_owned(),
            hint: self.text(HINT).to_owned(),
            resource_id: self.text(RESOURCE_ID).to_owned(),
            package: self.text(PACKAGE).to_owned(),
            bounds: self.bounds.value.0.unwrap_or_default(),
            ..Node::default()
        };
        for (field, flag) in FLAG_ORDER.into_iter().enumerate() {
            node.flags
                .set(flag, self.flag(field).unwrap_or(flag == Flags::ENABLED));
        }
        let scrolls = self.flag(SCROLL_H).unwrap_or(false) || self.flag(SCROLL_V).unwrap_or(false);
        let visibility = self.text(VISIBILITY);
        let hidden = self.flag(VISIBLE) == Some(false)
            || !(visibility.is_empty() || visibility == "visible");
        node.flags
            .set(Flags::SCROLLABLE, node.has(Flags::SCROLLABLE) || scrolls);
        node.flags.set(Flags::HIDDEN, hidden);
        if format == DumpFormat::Droidrun {
            self.droidrun_quirks(&mut node);
        }
        if is_editable_class(&node.class) || self.ancestors.value.0 {
            node.flags |= Flags::EDITABLE;
        }
        Ok(node)
    }

    /// droidrun-portal's early output puts the class name in `text` and the action in `type`.
    fn droidrun_quirks(&self, node: &mut Node) {
        if node.text == node.class || node.text == node.short_class() {
            node.text.clear();
        }
        match self.text(TYPE) {
            "clickable" => node.flags |= Flags::CLICKABLE,
            "scrollable" => node.flags |= Flags::SCROLLABLE,
            "focusable" => node.flags |= Flags::FOCUSABLE,
            "checkable" => node.flags |= Flags::CHECKABLE,
            _ => {}
        }
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Element<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an element object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Element<'de>, A::Error> {
        let mut element = Element::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Text(field, rank) => {
                    element.class_name_key |= field == CLASS && rank == 1;
                    element.texts[field].fill(&mut map, rank)?;
                }
                Key::Bool(field, rank) => element.bools[field].fill(&mut map, rank)?,
                Key::Bounds(rank) => {
                    element.bounds_key |= rank == 0;
                    element.bounds.fill(&mut map, rank)?;
                }
                Key::Parent => element.parent.fill(&mut map, 0)?,
                Key::Children => element.children.fill(&mut map, 0)?,
                Key::Ancestors => element.ancestors.fill(&mut map, 0)?,
                Key::Other => {
                    map.next_value::<Skip>()?;
                }
            }
        }
        Ok(element)
    }
}

impl<'de> Deserialize<'de> for Element<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ElementVisitor)
    }
}

/// A list entry that may be an element; anything else (Rico's `null`s) is skipped.
#[derive(Debug, Default)]
pub(super) struct Item<'de>(pub(super) Option<Element<'de>>);

impl<'de> Deserialize<'de> for Item<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ItemVisitor;
        impl<'de> Visitor<'de> for ItemVisitor {
            type Value = Item<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an element or anything else")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Item<'de>, A::Error> {
                ElementVisitor.visit_map(map).map(|e| Item(Some(e)))
            }
            answer_others!('de, Item(None) => unit bool u64 i64 f64 str seq);
        }
        deserializer.deserialize_any(ItemVisitor)
    }
}

/// One entry of `children`: an index (droidbot), a nested element (Rico, droidrun), or neither.
#[derive(Debug)]
pub(super) enum Child<'de> {
    /// Any number; the index if it is a non-negative integer.
    Number(Option<u64>),
    Element(Box<Element<'de>>),
    Other,
}

impl<'de> Deserialize<'de> for Child<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ChildVisitor;
        impl<'de> Visitor<'de> for ChildVisitor {
            type Value = Child<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a child index or element")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Child<'de>, E> {
                Ok(Child::Number(Some(v)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Child<'de>, E> {
                Ok(Child::Number(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Child<'de>, E> {
                Ok(Child::Number(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Child<'de>, A::Error> {
                ElementVisitor
                    .visit_map(map)
                    .map(|e| Child::Element(Box::new(e)))
            }
            answer_others!('de, Child::Other => unit bool str seq);
        }
        deserializer.deserialize_any(ChildVisitor)
    }
}

/// `children`: a list of [`Child`], or `None` when the value is not a list.
#[derive(Debug, Default)]
struct Children<'de>(Option<Vec<Child<'de>>>);

impl<'de> Deserialize<'de> for Children<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ChildrenVisitor;
        impl<'de> Visitor<'de> for ChildrenVisitor {
            type Value = Children<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of children")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Children<'de>, A::Error> {
                let mut children = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(child) = seq.next_element()? {
                    children.push(child);
                }
                Ok(Children(Some(children)))
            }
            answer_others!('de, Children(None) => unit bool u64 i64 f64 str map);
        }
        deserializer.deserialize_any(ChildrenVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rect;

    fn node(json: &str, format: DumpFormat) -> Node {
        serde_json::from_str::<Element<'_>>(json)
            .unwrap()
            .to_node(format)
            .unwrap()
    }

    #[test]
    fn children_are_indexes_elements_or_skipped() {
        let children =
            serde_json::from_str::<Children<'_>>(r#"[3, -1, 2.5, {"text": "a"}, null, "4"]"#)
                .unwrap();
        let children = children.0.unwrap();
        assert!(matches!(children[0], Child::Number(Some(3))));
        assert!(matches!(children[1], Child::Number(None)));
        assert!(matches!(children[2], Child::Number(None)));
        assert!(matches!(&children[3], Child::Element(e) if e.text(TEXT) == "a"));
        assert!(matches!(children[4], Child::Other));
        assert!(matches!(children[5], Child::Other));
        assert!(
            serde_json::from_str::<Children<'_>>("null")
                .unwrap()
                .0
                .is_none()
        );
        let element =
            serde_json::from_str::<Element<'_>>(r#"{"parent": 0, "children": [1, 2.0]}"#).unwrap();
        assert!(element.has_indexed_children() && element.has_parent_key());
        let element = serde_json::from_str::<Element<'_>>(r#"{"children": [1, {}]}"#).unwrap();
        assert!(!element.has_indexed_children() && element.has_children_key());
    }

    #[test]
    fn best_ranked_spelling_wins_and_repeated_keys_keep_the_last() {
        let node = node(
            r#"{"className": "B", "class": "A", "content_desc": "d3", "contentDesc": "d2",
                "boundsInScreen": "5,6,7,8", "bounds": "1,2,3,4", "text": "x", "text": "y",
                "isClickable": true, "clickable": null, "unknown": {"class": "Z"}}"#,
            DumpFormat::FlatList,
        );
        assert_eq!(
            (node.class.as_str(), node.desc.as_str(), node.text.as_str()),
            ("A", "d2", "y")
        );
        assert_eq!(node.bounds, Rect::new(1, 2, 3, 4));
        assert!(
            !node.has(Flags::CLICKABLE),
            "a null in the preferred spelling hides the others"
        );
    }

    #[test]
    fn flags_visibility_and_editability() {
        let node = node(
            r#"{"scrollable-vertical": "true", "visibility": "gone", "isEnabled": 0,
                "ancestors": ["android.widget.EditText"]}"#,
            DumpFormat::Rico,
        );
        assert!(
            node.has(Flags::SCROLLABLE) && node.has(Flags::HIDDEN) && node.has(Flags::EDITABLE)
        );
        assert!(!node.has(Flags::ENABLED));
        let node = self::node(r#"{"visible-to-user": false}"#, DumpFormat::Droidbot);
        assert!(node.has(Flags::HIDDEN) && node.has(Flags::ENABLED));
    }

    #[test]
    fn portal_and_mobilecli_spellings() {
        let portal = node(
            r#"{"contentDescription": "Back", "isLongClickable": true, "isVisibleToUser": false,
                "boundsInScreen": {"left": 0, "top": 0, "right": 9, "bottom": 9},
                "boundsInParent": {"left": 5, "top": 5, "right": 6, "bottom": 6}}"#,
            DumpFormat::Droidrun,
        );
        assert_eq!(portal.desc, "Back");
        assert_eq!(portal.bounds, Rect::new(0, 0, 9, 9));
        assert!(portal.has(Flags::LONG_CLICKABLE) && portal.has(Flags::HIDDEN));
        let mobilecli = node(
            r#"{"rect": {"x": 10, "y": 20, "width": 30, "height": 40}, "visible": true}"#,
            DumpFormat::FlatList,
        );
        assert_eq!(mobilecli.bounds, Rect::new(10, 20, 40, 60));
        assert!(!mobilecli.has(Flags::HIDDEN));
        let both = node(
            r#"{"rect": {"x": 1, "y": 1, "width": 1, "height": 1}, "bounds": "[0,0][5,5]"}"#,
            DumpFormat::FlatList,
        );
        assert_eq!(
            both.bounds,
            Rect::new(0, 0, 5, 5),
            "`bounds` outranks `rect`"
        );
    }

    #[test]
    fn droidrun_text_naming_the_class_is_cleared() {
        let node = node(
            r#"{"className": "a.b.Button", "text": "Button", "type": "clickable"}"#,
            DumpFormat::Droidrun,
        );
        assert_eq!(node.text, "");
        assert!(node.has(Flags::CLICKABLE));
    }
}

//! JSON dumps: droidbot states and `.vh` lists, Rico hierarchies, droidrun elements, flat element lists.

use serde_json::{Map, Value};

use super::json_fields::Fields;
use super::{MAX_DEPTH, TreeBuilder, is_editable_class};
use crate::error::{Error, Result};
use crate::model::{DumpFormat, Flags, Node, NodeId, Tree};

/// Parses any JSON form tapscope knows, recognised by its shape.
pub(super) fn parse(text: &str) -> Result<Tree> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    match &value {
        Value::Object(map) => {
            if let Some(views) = map.get("views").and_then(Value::as_array) {
                let app = Fields(map).text(&["foreground_activity"]);
                return droidbot(views, Some(app));
            }
            if let Some(root) = map.get("activity").and_then(|a| a.get("root")) {
                let app = Fields(map).text(&["activity_name"]);
                return nested(std::slice::from_ref(root), DumpFormat::Rico, Some(app));
            }
            Err(unknown(map))
        }
        Value::Array(items) => {
            let Some(Value::Object(first)) = items.first() else {
                return Err(Error::UnknownFormat { found: "a JSON list that holds no objects".into() });
            };
            let indexed_children = first
                .get("children")
                .and_then(Value::as_array)
                .is_some_and(|c| c.iter().all(Value::is_number));
            if first.contains_key("parent") && indexed_children {
                droidbot(items, None)
            } else if first.contains_key("children") || first.contains_key("className") {
                nested(items, DumpFormat::Droidrun, None)
            } else if first.contains_key("bounds") {
                nested(items, DumpFormat::FlatList, None)
            } else {
                Err(unknown(first))
            }
        }
        other => Err(Error::UnknownFormat { found: format!("a bare JSON {}", kind_of(other)) }),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn unknown(map: &Map<String, Value>) -> Error {
    let keys: Vec<&str> = map.keys().map(String::as_str).take(8).collect();
    Error::UnknownFormat { found: format!("a JSON object with keys {keys:?}") }
}

/// droidbot: a flat `views[]` where each view names its parent and children by index.
fn droidbot(views: &[Value], app: Option<String>) -> Result<Tree> {
    let shape = |message: String| Error::JsonShape { format: "droidbot", message };
    let fields: Vec<Fields<'_>> = views
        .iter()
        .enumerate()
        .map(|(i, v)| v.as_object().map(Fields).ok_or_else(|| shape(format!("views[{i}] is not an object"))))
        .collect::<Result<_>>()?;
    let parent_of = |f: &Fields<'_>| f.integer(&["parent"]).filter(|&p| p >= 0 && (p as usize) < views.len());
    let mut builder = TreeBuilder::default();
    let mut visited = vec![false; views.len()];
    let mut stack: Vec<(usize, Option<NodeId>, usize)> = (0..views.len())
        .rev()
        .filter(|&i| parent_of(&fields[i]).is_none())
        .map(|i| (i, None, 0))
        .collect();
    while let Some((index, parent, depth)) = stack.pop() {
        if std::mem::replace(&mut visited[index], true) {
            continue; // a view listed twice, or a cycle: keep its first place
        }
        if depth >= MAX_DEPTH {
            return Err(Error::TooDeep { limit: MAX_DEPTH, line: 0 });
        }
        let id = builder.add(parent, read_node(fields[index], DumpFormat::Droidbot));
        for child in fields[index].children(&["children"]).iter().rev() {
            let child = child.as_u64().map(|c| c as usize).filter(|&c| c < views.len());
            let child = child.ok_or_else(|| shape(format!("views[{index}] names a child that does not exist")))?;
            stack.push((child, Some(id), depth + 1));
        }
    }
    builder.finish(DumpFormat::Droidbot, 0, app, true)
}

/// Rico, droidrun and flat lists: elements that hold their children (if any) inline.
fn nested(roots: &[Value], format: DumpFormat, app: Option<String>) -> Result<Tree> {
    let mut builder = TreeBuilder::default();
    let mut stack: Vec<(&Value, Option<NodeId>, usize)> = roots.iter().rev().map(|r| (r, None, 0)).collect();
    while let Some((value, parent, depth)) = stack.pop() {
        let Some(map) = value.as_object() else {
            continue; // Rico writes `null` for views it could not capture
        };
        if depth >= MAX_DEPTH {
            return Err(Error::TooDeep { limit: MAX_DEPTH, line: 0 });
        }
        let fields = Fields(map);
        let id = builder.add(parent, read_node(fields, format));
        for child in fields.children(&["children"]).iter().rev() {
            stack.push((child, Some(id), depth + 1));
        }
    }
    // Rico and droidrun lists are one screen; only droidbot marks windows by root.
    builder.finish(format, 0, app, format == DumpFormat::Rico)
}

/// One element, under whichever key spelling its tool used.
fn read_node(f: Fields<'_>, format: DumpFormat) -> Node {
    let mut node = Node {
        class: f.text(&["class", "className"]),
        text: f.text(&["text"]),
        desc: f.text(&["content-desc", "content_description", "contentDesc", "content_desc"]),
        hint: f.text(&["hint"]),
        resource_id: f.text(&["resource-id", "resource_id", "resourceId"]),
        package: f.text(&["package", "packageName"]),
        bounds: f.rect(&["bounds", "boundsInScreen"]).unwrap_or_default(),
        ..Node::default()
    };
    let flag_keys: [(Flags, &[&str]); 11] = [
        (Flags::CLICKABLE, &["clickable", "isClickable"]),
        (Flags::LONG_CLICKABLE, &["long-clickable", "long_clickable", "longClickable"]),
        (Flags::CHECKABLE, &["checkable", "isCheckable"]),
        (Flags::CHECKED, &["checked", "isChecked"]),
        (Flags::SCROLLABLE, &["scrollable", "isScrollable"]),
        (Flags::EDITABLE, &["editable", "isEditable"]),
        (Flags::FOCUSABLE, &["focusable", "isFocusable"]),
        (Flags::FOCUSED, &["focused", "isFocused"]),
        (Flags::SELECTED, &["selected", "isSelected"]),
        (Flags::PASSWORD, &["password", "is_password", "isPassword"]),
        (Flags::ENABLED, &["enabled", "isEnabled"]),
    ];
    for (flag, keys) in flag_keys {
        node.flags.set(flag, f.flag(keys).unwrap_or(flag == Flags::ENABLED));
    }
    let scrolls = f.flag(&["scrollable-horizontal"]).unwrap_or(false) || f.flag(&["scrollable-vertical"]).unwrap_or(false);
    let visibility = f.text(&["visibility"]);
    let hidden = f.flag(&["visible-to-user", "visible", "visibleToUser"]) == Some(false)
        || !(visibility.is_empty() || visibility == "visible");
    node.flags.set(Flags::SCROLLABLE, node.has(Flags::SCROLLABLE) || scrolls);
    node.flags.set(Flags::HIDDEN, hidden);
    if format == DumpFormat::Droidrun {
        droidrun_quirks(&mut node, f);
    }
    let ancestors = f.children(&["ancestors"]);
    let edit_ancestor = ancestors.iter().filter_map(Value::as_str).any(is_editable_class);
    if is_editable_class(&node.class) || edit_ancestor {
        node.flags |= Flags::EDITABLE;
    }
    node
}

/// droidrun-portal's early output puts the class name in `text` and the action in `type`.
fn droidrun_quirks(node: &mut Node, f: Fields<'_>) {
    if node.text == node.class || node.text == node.short_class() {
        node.text.clear();
    }
    match f.text(&["type"]).as_str() {
        "clickable" => node.flags |= Flags::CLICKABLE,
        "scrollable" => node.flags |= Flags::SCROLLABLE,
        "focusable" => node.flags |= Flags::FOCUSABLE,
        "checkable" => node.flags |= Flags::CHECKABLE,
        _ => {}
    }
}

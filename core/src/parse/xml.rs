//! uiautomator and Appium XML: single-line and pretty-printed dumps, several windows, any attribute layout.

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use super::{MAX_DEPTH, TreeBuilder, is_editable_class};
use crate::error::{Error, Result, line_column};
use crate::model::{DumpFormat, Flags, Node, NodeId, Rect, Tree};

/// Parses uiautomator (`<node>`) or Appium (class-name tags) XML.
pub(super) fn parse(text: &str) -> Result<Tree> {
    let mut reader = Reader::from_str(text);
    let mut builder = TreeBuilder::default();
    // Open elements: `None` for the `<hierarchy>` wrapper, `Some(id)` for nodes.
    let mut open: Vec<(Option<NodeId>, usize)> = Vec::new();
    let mut rotation = 0u8;
    let mut appium = false;
    loop {
        let offset = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| xml_error(text, reader.error_position() as usize, &e))?;
        let (element, closes) = match event {
            Event::Start(element) => (element, false),
            Event::Empty(element) => (element, true),
            Event::End(_) => {
                open.pop();
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        if open.len() >= MAX_DEPTH {
            let (line, _) = line_column(text, offset);
            return Err(Error::TooDeep { limit: MAX_DEPTH, line });
        }
        let name = element.name();
        let tag = name.as_ref();
        let start = offset + leading_whitespace(&text[offset..]);
        let entry = if tag == "hierarchy" && builder.len() == 0 && open.is_empty() {
            rotation = attribute(text, &element, "rotation")?
                .and_then(|r| r.trim().parse::<u8>().ok())
                .unwrap_or(0);
            None
        } else {
            appium |= tag != "node";
            let parent = open.iter().rev().find_map(|&(id, _)| id);
            let node = read_node(text, &element, tag, start)?;
            Some(builder.add(parent, node))
        };
        if !closes {
            open.push((entry, start));
        }
    }
    if let Some(&(_, start)) = open.last() {
        let (line, column) = line_column(text, start);
        return Err(Error::Xml {
            line,
            column,
            message: "the dump ends before this element is closed (truncated file?)".into(),
        });
    }
    let format = if appium { DumpFormat::Appium } else { DumpFormat::Uiautomator };
    builder.finish(format, rotation, None, true)
}

fn leading_whitespace(rest: &str) -> usize {
    rest.len() - rest.trim_start().len()
}

fn read_node(text: &str, element: &BytesStart<'_>, tag: &str, start: usize) -> Result<Node> {
    let mut node = Node {
        source_offset: Some(start),
        flags: Flags::ENABLED,
        ..Node::default()
    };
    for attribute in element.attributes().with_checks(false) {
        let attribute = attribute.map_err(|e| xml_error(text, start, &quick_xml::Error::InvalidAttr(e)))?;
        let value = attribute
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|e| xml_error(text, start, &e))?;
        let key = attribute.key.as_ref();
        let truthy = value.as_ref() == "true";
        let flag = match key {
            "text" => {
                node.text = value.into_owned();
                continue;
            }
            "content-desc" => {
                node.desc = value.into_owned();
                continue;
            }
            "hint" => {
                node.hint = value.into_owned();
                continue;
            }
            "resource-id" => {
                node.resource_id = value.into_owned();
                continue;
            }
            "class" => {
                node.class = value.into_owned();
                continue;
            }
            "package" => {
                node.package = value.into_owned();
                continue;
            }
            "bounds" => {
                node.bounds = parse_bounds(&value).ok_or_else(|| {
                    let (line, column) = line_column(text, start);
                    Error::Xml {
                        line,
                        column,
                        message: format!("bounds {value:?} are not of the form [left,top][right,bottom]"),
                    }
                })?;
                continue;
            }
            "clickable" => Flags::CLICKABLE,
            "long-clickable" => Flags::LONG_CLICKABLE,
            "checkable" => Flags::CHECKABLE,
            "checked" => Flags::CHECKED,
            "scrollable" => Flags::SCROLLABLE,
            "focusable" => Flags::FOCUSABLE,
            "focused" => Flags::FOCUSED,
            "selected" => Flags::SELECTED,
            "password" => Flags::PASSWORD,
            "enabled" => Flags::ENABLED,
            "visible-to-user" | "displayed" => {
                node.flags.set(Flags::HIDDEN, value.as_ref() == "false");
                continue;
            }
            _ => continue,
        };
        node.flags.set(flag, truthy);
    }
    if node.class.is_empty() && tag != "node" {
        node.class = tag.to_owned();
    }
    if is_editable_class(&node.class) {
        node.flags |= Flags::EDITABLE;
    }
    Ok(node)
}

/// Parses uiautomator bounds, `[left,top][right,bottom]`, negative numbers allowed.
pub(crate) fn parse_bounds(value: &str) -> Option<Rect> {
    let inner = value.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (first, second) = inner.split_once("][")?;
    let pair = |s: &str| -> Option<(i32, i32)> {
        let (a, b) = s.split_once(',')?;
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    };
    let (left, top) = pair(first)?;
    let (right, bottom) = pair(second)?;
    Some(Rect { left, top, right, bottom })
}

fn attribute(text: &str, element: &BytesStart<'_>, wanted: &str) -> Result<Option<String>> {
    for attribute in element.attributes().with_checks(false) {
        let attribute = attribute.map_err(|e| xml_error(text, 0, &quick_xml::Error::InvalidAttr(e)))?;
        if attribute.key.as_ref() == wanted {
            return Ok(Some(attribute.value.into_owned()));
        }
    }
    Ok(None)
}

fn xml_error(text: &str, offset: usize, error: &quick_xml::Error) -> Error {
    let (line, column) = line_column(text, offset);
    Error::Xml { line, column, message: error.to_string() }
}

#[cfg(test)]
mod tests {
    use super::parse_bounds;
    use crate::model::Rect;

    #[test]
    fn bounds_accept_negative_and_spaced_numbers() {
        assert_eq!(parse_bounds("[0,0][1080,2400]"), Some(Rect::new(0, 0, 1080, 2400)));
        assert_eq!(parse_bounds(" [-5, 10][ 20,-3] "), Some(Rect::new(-5, 10, 20, -3)));
        assert_eq!(parse_bounds("[0,0][1080]"), None);
        assert_eq!(parse_bounds("0,0,1,1"), None);
        assert_eq!(parse_bounds("[a,0][1,1]"), None);
    }
}

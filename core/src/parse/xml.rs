//! uiautomator and Appium XML: single-line and pretty-printed dumps, several windows, any attribute layout.

use std::borrow::Cow;

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
        let event = reader
            .read_event()
            .map_err(|e| xml_error(text, reader.error_position() as usize, &e))?;
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
            return Err(Error::TooDeep {
                limit: MAX_DEPTH,
                at: format!("line {line}"),
            });
        }
        let name = element.name();
        let tag = name.as_ref();
        let start = offset + leading_whitespace(&text[offset..]);
        let entry = if tag == "hierarchy" && builder.len() == 0 && open.is_empty() {
            rotation = rotation_of(element.attributes_raw());
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
    let format = if appium {
        DumpFormat::Appium
    } else {
        DumpFormat::Uiautomator
    };
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
    let at = |message: String| {
        let (line, column) = line_column(text, start);
        Error::Xml {
            line,
            column,
            message,
        }
    };
    let mut rest = element.attributes_raw();
    while let Some((key, raw, after)) = next_attribute(rest).map_err(at)? {
        rest = after;
        let value = || attribute_value(raw).map_err(|e| at(format!("attribute `{key}`: {e}")));
        let flag = match key {
            "text" => {
                node.text = value()?.into_owned();
                continue;
            }
            "content-desc" => {
                node.desc = value()?.into_owned();
                continue;
            }
            "hint" => {
                node.hint = value()?.into_owned();
                continue;
            }
            "resource-id" => {
                node.resource_id = value()?.into_owned();
                continue;
            }
            "class" => {
                node.class = value()?.into_owned();
                continue;
            }
            "package" => {
                node.package = value()?.into_owned();
                continue;
            }
            "bounds" => {
                let value = value()?;
                node.bounds = parse_bounds(&value).ok_or_else(|| {
                    at(format!(
                        "bounds {value:?} are not of the form [left,top][right,bottom]"
                    ))
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
                node.flags.set(Flags::HIDDEN, raw == "false");
                continue;
            }
            _ => continue,
        };
        node.flags.set(flag, raw == "true");
    }
    if node.class.is_empty() && tag != "node" {
        node.class = tag.to_owned();
    }
    if is_editable_class(&node.class) {
        node.flags |= Flags::EDITABLE;
    }
    Ok(node)
}

/// Splits the next `key="value"` (or single-quoted) pair off a raw attribute string.
///
/// Hand-rolled on bytes because attribute scanning is most of the parse time on real
/// dumps, and uiautomator writes nothing but plain quoted pairs.
fn next_attribute(raw: &str) -> Result<Option<(&str, &str, &str)>, String> {
    let bytes = raw.as_bytes();
    let skip = |from: usize, also_slash: bool| {
        from + bytes[from..]
            .iter()
            .take_while(|&&b| b.is_ascii_whitespace() || (also_slash && b == b'/'))
            .count()
    };
    let start = skip(0, true);
    if start == bytes.len() {
        return Ok(None);
    }
    let key_end = start
        + bytes[start..]
            .iter()
            .position(|&b| b == b'=' || b.is_ascii_whitespace())
            .unwrap_or(bytes.len() - start);
    let key = &raw[start..key_end];
    let eq = skip(key_end, false);
    if bytes.get(eq) != Some(&b'=') {
        return Err(format!("attribute `{key}` has no value"));
    }
    let open = skip(eq + 1, false);
    let quote = match bytes.get(open) {
        Some(&q @ (b'"' | b'\'')) => q,
        _ => return Err(format!("the value of attribute `{key}` is not quoted")),
    };
    let body = open + 1;
    let len = memchr::memchr(quote, &bytes[body..])
        .ok_or_else(|| format!("the value of attribute `{key}` is never closed"))?;
    // All split points are ASCII bytes, so every slice lies on a char boundary.
    Ok(Some((key, &raw[body..body + len], &raw[body + len + 1..])))
}

/// An attribute's value: literal tabs and newlines become spaces (as XML requires),
/// then entities and character references are decoded.
fn attribute_value(raw: &str) -> Result<Cow<'_, str>, String> {
    if !raw
        .bytes()
        .any(|b| matches!(b, b'&' | b'\t' | b'\n' | b'\r'))
    {
        return Ok(Cow::Borrowed(raw));
    }
    let spaced = raw.replace(['\t', '\n', '\r'], " ");
    match quick_xml::escape::unescape(&spaced) {
        Ok(value) => Ok(Cow::Owned(value.into_owned())),
        Err(e) => Err(e.to_string()),
    }
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
    Some(Rect {
        left,
        top,
        right,
        bottom,
    })
}

/// The `rotation` of `<hierarchy>`, 0 when absent or unreadable.
fn rotation_of(mut raw: &str) -> u8 {
    while let Ok(Some((key, value, rest))) = next_attribute(raw) {
        if key == "rotation" {
            return value.trim().parse().unwrap_or(0);
        }
        raw = rest;
    }
    0
}

fn xml_error(text: &str, offset: usize, error: &quick_xml::Error) -> Error {
    let (line, column) = line_column(text, offset);
    Error::Xml {
        line,
        column,
        message: error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rect;

    #[test]
    fn attributes_split_with_either_quote_and_any_spacing() {
        let raw = " text=\"a > b\"\n   class = 'x.Y' bounds=\"[0,0][1,1]\" /";
        let (k1, v1, rest) = next_attribute(raw).unwrap().unwrap();
        assert_eq!((k1, v1), ("text", "a > b"));
        let (k2, v2, rest) = next_attribute(rest).unwrap().unwrap();
        assert_eq!((k2, v2), ("class", "x.Y"));
        let (k3, _, rest) = next_attribute(rest).unwrap().unwrap();
        assert_eq!(k3, "bounds");
        assert_eq!(next_attribute(rest).unwrap(), None);
        assert!(next_attribute(" text").unwrap_err().contains("no value"));
        assert!(
            next_attribute(" text=x")
                .unwrap_err()
                .contains("not quoted")
        );
        assert!(
            next_attribute(" text=\"x")
                .unwrap_err()
                .contains("never closed")
        );
    }

    #[test]
    fn values_decode_entities_and_fold_literal_newlines() {
        assert_eq!(attribute_value("plain"), Ok(Cow::Borrowed("plain")));
        assert_eq!(
            attribute_value("a&amp;b&#10;c&#x1F600;").unwrap(),
            "a&b\nc😀"
        );
        assert_eq!(attribute_value("two\nlines").unwrap(), "two lines");
        assert!(attribute_value("&bogus;").is_err());
    }

    #[test]
    fn bounds_accept_negative_and_spaced_numbers() {
        assert_eq!(
            parse_bounds("[0,0][1080,2400]"),
            Some(Rect::new(0, 0, 1080, 2400))
        );
        assert_eq!(
            parse_bounds(" [-5, 10][ 20,-3] "),
            Some(Rect::new(-5, 10, 20, -3))
        );
        assert_eq!(parse_bounds("[0,0][1080]"), None);
        assert_eq!(parse_bounds("0,0,1,1"), None);
        assert_eq!(parse_bounds("[a,0][1,1]"), None);
    }
}

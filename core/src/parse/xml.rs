//! uiautomator and Appium XML: single-line and pretty-printed dumps, several windows, any attribute layout.

use super::xml_scan::{Scanner, Tag, decode_value};
use super::{MAX_DEPTH, TreeBuilder, is_editable_class};
use crate::error::{Error, Result, line_column};
use crate::model::{DumpFormat, Flags, Node, NodeId, Rect, Tree};

/// Parses uiautomator (`<node>`) or Appium (class-name tags) XML.
pub(super) fn parse(text: &str) -> Result<Tree> {
    let at = |offset: usize, message: String| {
        let (line, column) = line_column(text, offset);
        Error::Xml {
            line,
            column,
            message,
        }
    };
    let mut scanner = Scanner::new(text);
    let mut builder = TreeBuilder::default();
    // Open elements: the node (`None` for the `<hierarchy>` wrapper), tag name and offset.
    let mut open: Vec<(Option<NodeId>, &str, usize)> = Vec::new();
    let mut rotation = 0u8;
    let mut appium = false;
    loop {
        let tag = scanner.next_tag().map_err(|e| at(e.offset, e.message))?;
        let (name, start) = match tag {
            Tag::End => break,
            Tag::Close { name, start } => {
                match open.pop() {
                    Some((_, opened, _)) if opened == name => {}
                    Some((_, opened, _)) => {
                        return Err(at(start, format!("expected </{opened}>, found </{name}>")));
                    }
                    None => return Err(at(start, format!("</{name}> closes no open element"))),
                }
                continue;
            }
            Tag::Open { name, start } => (name, start),
        };
        if open.len() >= MAX_DEPTH {
            let (line, _) = line_column(text, start);
            return Err(Error::TooDeep {
                limit: MAX_DEPTH,
                at: format!("line {line}"),
            });
        }
        let (entry, closed) = if name == "hierarchy" && builder.len() == 0 && open.is_empty() {
            let closed = scanner
                .attributes(|key, value| {
                    if key == "rotation" {
                        rotation = value.trim().parse().unwrap_or(0);
                    }
                    Ok(())
                })
                .map_err(|e| at(e.offset, e.message))?;
            (None, closed)
        } else {
            appium |= name != "node";
            let mut node = Node {
                source_offset: Some(start),
                flags: Flags::ENABLED,
                ..Node::default()
            };
            let closed = scanner
                .attributes(|key, value| apply_attribute(&mut node, key, value))
                .map_err(|e| at(e.offset, e.message))?;
            if node.class.is_empty() && name != "node" {
                node.class = name.to_owned();
            }
            if is_editable_class(&node.class) {
                node.flags |= Flags::EDITABLE;
            }
            let parent = open.iter().rev().find_map(|&(id, _, _)| id);
            (Some(builder.add(parent, node)), closed)
        };
        if !closed {
            open.push((entry, name, start));
        }
    }
    if let Some(&(_, _, start)) = open.last() {
        return Err(at(
            start,
            "the dump ends before this element is closed (truncated file?)".into(),
        ));
    }
    let format = if appium {
        DumpFormat::Appium
    } else {
        DumpFormat::Uiautomator
    };
    builder.finish(format, rotation, None, true)
}

/// Sets the node field or flag an attribute names; unknown attributes are ignored.
fn apply_attribute(node: &mut Node, key: &str, raw: &str) -> Result<(), String> {
    let flag = match key {
        "text" => return decode_into(&mut node.text, key, raw),
        "content-desc" => return decode_into(&mut node.desc, key, raw),
        "hint" => return decode_into(&mut node.hint, key, raw),
        "resource-id" => return decode_into(&mut node.resource_id, key, raw),
        "class" => return decode_into(&mut node.class, key, raw),
        "package" => return decode_into(&mut node.package, key, raw),
        "bounds" => {
            node.bounds = read_bounds(raw).map_err(|problem| problem.describe(raw))?;
            return Ok(());
        }
        "visible-to-user" | "displayed" => {
            node.flags.set(Flags::HIDDEN, raw == "false");
            return Ok(());
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
        _ => return Ok(()),
    };
    node.flags.set(flag, raw == "true");
    Ok(())
}

fn decode_into(field: &mut String, key: &str, raw: &str) -> Result<(), String> {
    *field = decode_value(raw)
        .map_err(|e| format!("attribute `{key}`: {e}"))?
        .into_owned();
    Ok(())
}

/// Parses uiautomator bounds, `[left,top][right,bottom]`, negative numbers allowed.
pub(crate) fn parse_bounds(value: &str) -> Option<Rect> {
    read_bounds(value).ok()
}

/// What is wrong with a bounds value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BoundsProblem {
    /// Not `[left,top][right,bottom]`.
    Shape,
    /// A number, as written, beyond what a 32-bit coordinate holds.
    OutOfRange(String),
}

impl BoundsProblem {
    /// The problem in words, quoting at most the start of a long value.
    pub(crate) fn describe(&self, value: &str) -> String {
        let quoted = quoted_start(value);
        match self {
            BoundsProblem::Shape => {
                format!("bounds {quoted} are not of the form [left,top][right,bottom]")
            }
            BoundsProblem::OutOfRange(number) => format!(
                "bounds {quoted}: {} is out of range (coordinates are from {} to {})",
                quoted_start(number).trim_matches('"'),
                i32::MIN,
                i32::MAX
            ),
        }
    }
}

/// `value` quoted, cut after 60 characters with `…`.
pub(crate) fn quoted_start(value: &str) -> String {
    const MAX_CHARS: usize = 60;
    match value.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}…", &value[..cut]),
        None => format!("{value:?}"),
    }
}

/// [`parse_bounds`], saying what is wrong when it fails.
pub(crate) fn read_bounds(value: &str) -> Result<Rect, BoundsProblem> {
    let mut rest = value.as_bytes();
    let mut numbers = [0i32; 4];
    for (k, number) in numbers.iter_mut().enumerate() {
        let opener = if k % 2 == 0 { b'[' } else { b',' };
        rest = trim_start(rest)
            .strip_prefix(&[opener])
            .ok_or(BoundsProblem::Shape)?;
        (*number, rest) = leading_int(trim_start(rest))?;
        if k % 2 == 1 {
            rest = trim_start(rest)
                .strip_prefix(b"]")
                .ok_or(BoundsProblem::Shape)?;
        }
    }
    let [left, top, right, bottom] = numbers;
    if !trim_start(rest).is_empty() {
        return Err(BoundsProblem::Shape);
    }
    Ok(Rect {
        left,
        top,
        right,
        bottom,
    })
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let spaces = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[spaces..]
}

/// A decimal `i32` at the start of `bytes` (optional `-`), and what follows it.
fn leading_int(bytes: &[u8]) -> Result<(i32, &[u8]), BoundsProblem> {
    let (negative, digits) = match bytes.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let count = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if count == 0 {
        return Err(BoundsProblem::Shape);
    }
    let written = &bytes[..count + usize::from(negative)];
    let out_of_range = || BoundsProblem::OutOfRange(String::from_utf8_lossy(written).into_owned());
    // Leading zeros aside, more than ten digits never fit.
    let significant = digits[..count].iter().skip_while(|&&d| d == b'0').count();
    if significant > 10 {
        return Err(out_of_range());
    }
    let magnitude = digits[..count]
        .iter()
        .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
    let value =
        i32::try_from(if negative { -magnitude } else { magnitude }).map_err(|_| out_of_range())?;
    Ok((value, &digits[count..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rect;

    #[test]
    fn bounds_out_of_range_say_which_number() {
        assert_eq!(
            read_bounds("[0,0][2147483648,1]"),
            Err(BoundsProblem::OutOfRange("2147483648".into()))
        );
        assert_eq!(
            read_bounds("[-2147483649,0][1,1]"),
            Err(BoundsProblem::OutOfRange("-2147483649".into()))
        );
        let shown =
            BoundsProblem::OutOfRange("99999999999".into()).describe("[0,0][99999999999,1]");
        assert_eq!(
            shown,
            "bounds \"[0,0][99999999999,1]\": 99999999999 is out of range (coordinates are \
             from -2147483648 to 2147483647)"
        );
        let long = format!("[{}", "9".repeat(10_000));
        assert!(BoundsProblem::Shape.describe(&long).len() < 150);
        assert!(matches!(
            read_bounds(&long),
            Err(BoundsProblem::OutOfRange(_))
        ));
        assert!(
            BoundsProblem::OutOfRange("9".repeat(10_000))
                .describe(&long)
                .len()
                < 250
        );
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
        assert_eq!(parse_bounds("[0,0][1,1]x"), None);
        assert_eq!(parse_bounds("[-,0][1,1]"), None);
        assert_eq!(parse_bounds("[0,0][1,99999999999]"), None);
        assert_eq!(
            parse_bounds("[0,0][0001,0000000000002]"),
            Some(Rect::new(0, 0, 1, 2))
        );
        assert_eq!(
            parse_bounds("[-2147483648,0][2147483647,1]"),
            Some(Rect::new(i32::MIN, 0, i32::MAX, 1))
        );
    }
}

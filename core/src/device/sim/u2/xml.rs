//! `dumpWindowHierarchy`'s XML as uiautomator2's server writes it: its
//! `AccessibilityNodeInfoDumper` (openatx/android-uiautomator-server, `stub/`) through
//! Android's `KXmlSerializer` with indenting on. So: `\r\n` and two spaces a level, `" />"`
//! closing a leaf, a value holding `"` quoted with `'`, `@` and line breaks as character
//! references, characters XML cannot hold replaced by `.` (each half of a surrogate pair
//! too), and after `bounds` the attributes of Android 7, 8 and 11 (`drawing-order`,
//! `hint`, `display-id`), the sim being Android 14.

use std::fmt::Write as _;

use crate::model::Flags;

use super::tree::{Node, Screen};

const NAF_EXCLUDED: [&str; 4] = [
    "android.widget.GridView",
    "android.widget.GridLayout",
    "android.widget.ListView",
    "android.widget.TableLayout",
];

/// The hierarchy of `screen` down to `max_depth` levels under each window's root (roots
/// alone at 0 or less); only the active window's when `active_only`. Also how many nodes
/// it holds.
pub(super) fn hierarchy(screen: &Screen, max_depth: i64, active_only: bool) -> (String, usize) {
    let mut out = String::with_capacity(screen.nodes.len() * 450 + 128);
    out.push_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n");
    out.push_str("<hierarchy rotation=\"0\"");
    // The open elements: whether each still has its start tag unclosed (no child yet);
    // `hierarchy` is the first.
    let mut open: Vec<bool> = vec![true];
    let mut written = 0usize;
    for (k, node) in screen.nodes.iter().enumerate() {
        let too_deep = i64::try_from(node.depth).unwrap_or(i64::MAX) > max_depth.max(0);
        if too_deep || (active_only && !screen.in_active_window(k)) {
            continue;
        }
        while open.len() > node.depth + 1 {
            end(&mut out, &mut open);
        }
        if let Some(pending) = open.last_mut()
            && std::mem::take(pending)
        {
            out.push('>');
        }
        out.push_str("\r\n");
        out.push_str(&"  ".repeat(open.len()));
        start(&mut out, screen, k, node);
        open.push(true);
        written += 1;
    }
    while open.len() > 1 {
        end(&mut out, &mut open);
    }
    if open[0] {
        out.push_str(" />");
    } else {
        out.push_str("\r\n</hierarchy>");
    }
    (out, written)
}

/// Ends the innermost open node: `" />"` when nothing was written in it.
fn end(out: &mut String, open: &mut Vec<bool>) {
    if open.pop() == Some(true) {
        out.push_str(" />");
    } else {
        out.push_str("\r\n");
        out.push_str(&"  ".repeat(open.len()));
        out.push_str("</node>");
    }
}

fn start(out: &mut String, screen: &Screen, at: usize, node: &Node) {
    out.push_str("<node");
    if !NAF_EXCLUDED.iter().any(|c| node.class.ends_with(c)) && is_naf(screen, at) {
        attribute(out, "NAF", "true");
    }
    attribute(out, "index", &node.index.to_string());
    attribute(out, "text", &node.text);
    attribute(out, "resource-id", &node.resource_id);
    attribute(out, "class", &node.class);
    attribute(out, "package", &node.package);
    attribute(out, "content-desc", &node.desc);
    let flag = |f: Flags| {
        if node.flags.contains(f) {
            "true"
        } else {
            "false"
        }
    };
    for (name, f) in [
        ("checkable", Flags::CHECKABLE),
        ("checked", Flags::CHECKED),
        ("clickable", Flags::CLICKABLE),
        ("enabled", Flags::ENABLED),
        ("focusable", Flags::FOCUSABLE),
        ("focused", Flags::FOCUSED),
        ("scrollable", Flags::SCROLLABLE),
        ("long-clickable", Flags::LONG_CLICKABLE),
        ("password", Flags::PASSWORD),
        ("selected", Flags::SELECTED),
    ] {
        attribute(out, name, flag(f));
    }
    attribute(out, "visible-to-user", "true");
    attribute(out, "bounds", &node.bounds.to_string());
    attribute(out, "drawing-order", &node.drawing_order.to_string());
    attribute(out, "hint", &node.hint);
    attribute(out, "display-id", "0");
}

/// Not Accessibility Friendly: clickable and enabled with neither text nor description,
/// and none below it with either.
fn is_naf(screen: &Screen, at: usize) -> bool {
    let labelled = |n: &Node| !n.text.is_empty() || !n.desc.is_empty();
    let node = &screen.nodes[at];
    node.flags.contains(Flags::CLICKABLE | Flags::ENABLED)
        && !labelled(node)
        && !screen.descendants(at).any(|k| labelled(&screen.nodes[k]))
}

/// ` name="value"`, escaped as `KXmlSerializer.attribute` does.
fn attribute(out: &mut String, name: &str, value: &str) {
    let quote = if value.contains('"') { '\'' } else { '"' };
    let _ = write!(out, " {name}={quote}");
    for unit in value.chars() {
        let c = xml_safe(unit);
        match c {
            '\n' | '\r' | '\t' | '@' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            '&' => out.push_str("&amp;"),
            '>' => out.push_str("&gt;"),
            '<' => out.push_str("&lt;"),
            '"' if quote == '"' => out.push_str("&quot;"),
            '\'' if quote == '\'' => out.push_str("&apos;"),
            _ if c < ' ' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            _ if c.len_utf16() == 2 => out.push_str(".."),
            _ => out.push(c),
        }
    }
    out.push(quote);
}

/// The dumper's `stripInvalidXMLChars`: what XML 1.1 cannot hold becomes `.` (a character
/// beyond the BMP is two UTF-16 surrogates, each replaced: see the caller).
fn xml_safe(c: char) -> char {
    let code = u32::from(c);
    let invalid = matches!(code, 0x0..=0x8 | 0xB..=0xC | 0xE..=0x1F | 0x7F..=0x84 | 0x86..=0x9F)
        || matches!(code, 0xFDD0..=0xFDDF | 0xFFFE..=0xFFFF);
    if invalid { '.' } else { c }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(value: &str) -> String {
        let mut out = String::new();
        attribute(&mut out, "text", value);
        out
    }

    #[test]
    fn values_are_escaped_as_kxml_does() {
        assert_eq!(escaped("a@b.c"), " text=\"a&#64;b.c\"");
        assert_eq!(
            escaped("1 < 2 & 3 > 2"),
            " text=\"1 &lt; 2 &amp; 3 &gt; 2\""
        );
        assert_eq!(escaped("say \"hi\" it's"), " text='say \"hi\" it&apos;s'");
        assert_eq!(escaped("it's"), " text=\"it's\"");
        assert_eq!(escaped("two\nlines\t"), " text=\"two&#10;lines&#9;\"");
        assert_eq!(escaped("bell\u{7}"), " text=\"bell.\"");
        assert_eq!(escaped("caf\u{e9} 😀"), " text=\"caf\u{e9} ..\"");
    }
}

//! Text as XML 1.0 holds it, in an attribute or between tags: the five markup characters
//! as entities, line breaks and tabs as character references (an attribute keeps them
//! that way), and the control characters XML 1.0 cannot hold at all left out.

/// `text` escaped for an XML attribute value or element content.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;

    #[test]
    fn escaped_text_reads_back_as_it_was_and_what_xml_cannot_hold_is_dropped() {
        let text = "a <b> & \"c\" 'd'\nline\ttab\u{1}bell";
        let xml = format!(
            r#"<hierarchy><node text="{}" class="android.widget.TextView" bounds="[0,0][10,10]"/></hierarchy>"#,
            xml_escape(text)
        );
        let tree = parse_str(&xml).unwrap();
        assert_eq!(tree.nodes[0].text, "a <b> & \"c\" 'd'\nline\ttabbell");
    }
}

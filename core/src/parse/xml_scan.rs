//! A single-pass scanner for the XML subset dumps are written in: tags, quoted attributes, entities.
//!
//! Accessibility dumps are large, flat runs of `<node key="value" …/>`. Reading each tag's
//! attributes in the same pass that finds its end, and decoding only values that hold an
//! entity or a tab, does the same work as quick-xml 0.42's reader, attribute iterator and
//! normalised values in 2.6–3.1 times less time (medians, four dumps:
//! `cargo bench -p tapscope-core --features measure --bench xml_scan`), and parse time is
//! most of a prune. Comments, declarations, processing instructions and CDATA are skipped;
//! text content is ignored.

use std::borrow::Cow;

/// A scan failure at a byte offset of the text.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ScanError {
    pub offset: usize,
    pub message: String,
}

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, ScanError> {
    Err(ScanError {
        offset,
        message: message.into(),
    })
}

/// The next tag of the text.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Tag<'a> {
    /// `<name`: its attributes must be read next with [`Scanner::attributes`].
    Open { name: &'a str, start: usize },
    /// `</name>`.
    Close { name: &'a str, start: usize },
    /// No tag is left.
    End,
}

#[derive(Debug)]
pub(super) struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Self { text, pos: 0 }
    }

    /// Skips text, comments, declarations and CDATA, and returns the next tag.
    pub(super) fn next_tag(&mut self) -> Result<Tag<'a>, ScanError> {
        let bytes = self.text.as_bytes();
        loop {
            let Some(found) = memchr::memchr(b'<', &bytes[self.pos..]) else {
                self.pos = bytes.len();
                return Ok(Tag::End);
            };
            let start = self.pos + found;
            let rest = &self.text[start..];
            let skipped = [
                ("<?", "?>", "a processing instruction"),
                ("<!--", "-->", "a comment"),
                ("<![CDATA[", "]]>", "a CDATA section"),
                ("<!", ">", "a declaration"),
            ]
            .into_iter()
            .find(|(opener, _, _)| rest.starts_with(opener));
            if let Some((opener, closer, what)) = skipped {
                let body = start + opener.len();
                let Some(end) = memchr::memmem::find(&bytes[body..], closer.as_bytes()) else {
                    return fail(start, format!("the dump ends inside {what}"));
                };
                self.pos = body + end + closer.len();
                continue;
            }
            if let Some(after) = rest.strip_prefix("</") {
                let Some(end) = memchr::memchr(b'>', after.as_bytes()) else {
                    return fail(
                        start,
                        "the dump ends inside a closing tag (truncated file?)",
                    );
                };
                self.pos = start + 2 + end + 1;
                return Ok(Tag::Close {
                    name: after[..end].trim_end(),
                    start,
                });
            }
            let name_start = start + 1;
            let name_len = bytes[name_start..]
                .iter()
                .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
                .unwrap_or(bytes.len() - name_start);
            if name_len == 0 {
                return fail(start, "a `<` that starts no tag (write &lt; in text)");
            }
            self.pos = name_start + name_len;
            return Ok(Tag::Open {
                name: &self.text[name_start..self.pos],
                start,
            });
        }
    }

    /// Reads the attributes of the tag just opened, handing each `key` and raw (still
    /// escaped) value to `each`; returns whether the tag closed itself (`/>`).
    pub(super) fn attributes(
        &mut self,
        mut each: impl FnMut(&'a str, &'a str) -> Result<(), String>,
    ) -> Result<bool, ScanError> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut i = self.pos;
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            match bytes.get(i) {
                None => return fail(i, "the dump ends inside a tag (truncated file?)"),
                Some(b'>') => {
                    self.pos = i + 1;
                    return Ok(false);
                }
                Some(b'/') if bytes.get(i + 1) == Some(&b'>') => {
                    self.pos = i + 2;
                    return Ok(true);
                }
                Some(_) => {}
            }
            let key_start = i;
            while i < bytes.len()
                && !matches!(bytes[i], b'=' | b'>' | b'/')
                && !bytes[i].is_ascii_whitespace()
            {
                i += 1;
            }
            let key = &text[key_start..i];
            if key.is_empty() {
                return fail(i, "a stray `/` inside a tag");
            }
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if bytes.get(i) != Some(&b'=') {
                return fail(key_start, format!("attribute `{key}` has no value"));
            }
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let quote = match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => q,
                _ => {
                    return fail(
                        key_start,
                        format!("the value of attribute `{key}` is not quoted"),
                    );
                }
            };
            let body = i + 1;
            let Some(len) = memchr::memchr(quote, &bytes[body..]) else {
                return fail(
                    key_start,
                    format!("the value of attribute `{key}` is never closed"),
                );
            };
            // Every split point is an ASCII byte, so the slices lie on char boundaries.
            each(key, &text[body..body + len]).or_else(|message| fail(key_start, message))?;
            i = body + len + 1;
        }
    }
}

/// The byte just past the start tag that begins at `start` (`<node …>` or `<node …/>`).
#[cfg_attr(
    not(feature = "tokens"),
    allow(
        dead_code,
        reason = "only the raw view of `inspect` reads start tags again"
    )
)]
pub(crate) fn start_tag_end(text: &str, start: usize) -> Option<usize> {
    let mut scanner = Scanner { text, pos: start };
    match scanner.next_tag().ok()? {
        Tag::Open { start: found, .. } if found == start => {}
        _ => return None,
    }
    scanner.attributes(|_, _| Ok(())).ok()?;
    Some(scanner.pos)
}

/// An attribute's value: literal tabs and newlines become spaces (as XML requires), and
/// the five named entities and numeric character references are decoded.
pub(super) fn decode_value(raw: &str) -> Result<Cow<'_, str>, String> {
    let special = |b: u8| matches!(b, b'&' | b'\t' | b'\n' | b'\r');
    if !raw.bytes().any(special) {
        return Ok(Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.bytes().position(special) {
        out.push_str(&rest[..at]);
        if rest.as_bytes()[at] != b'&' {
            out.push(' ');
            rest = &rest[at + 1..];
            continue;
        }
        let Some(len) = rest[at..].find(';') else {
            return Err("an `&` that starts no entity (write &amp;)".into());
        };
        let entity = &rest[at + 1..at + len];
        out.push(match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => char_reference(entity).ok_or_else(|| format!("unknown entity `&{entity};`"))?,
        });
        rest = &rest[at + len + 1..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

/// `#10` or `#x1F600` as a char.
fn char_reference(entity: &str) -> Option<char> {
    let number = entity.strip_prefix('#')?;
    let code = match number.strip_prefix(['x', 'X']) {
        Some(hex) if hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u32::from_str_radix(hex, 16).ok()?
        }
        Some(_) => return None,
        None if number.bytes().all(|b| b.is_ascii_digit()) => number.parse().ok()?,
        None => return None,
    };
    char::from_u32(code)
}

/// Every tag's attributes read and decoded, as the tree builder reads them: how many
/// tags, and the decoded values' total length. What `benches/xml_scan.rs` times against a
/// general XML reader (feature `measure`).
#[cfg(feature = "measure")]
pub fn measure_scan(text: &str) -> Result<(usize, usize), String> {
    let mut scanner = Scanner::new(text);
    let (mut tags, mut length) = (0, 0);
    loop {
        match scanner.next_tag().map_err(|e| e.message.clone())? {
            Tag::Open { .. } => {
                tags += 1;
                scanner
                    .attributes(|_, raw| {
                        length += decode_value(raw)?.len();
                        Ok(())
                    })
                    .map_err(|e| e.message)?;
            }
            Tag::Close { .. } => {}
            Tag::End => return Ok((tags, length)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag of `text` with its attributes, as the scanner reports them.
    fn scan(text: &str) -> Result<Vec<String>, ScanError> {
        let mut scanner = Scanner::new(text);
        let mut out = Vec::new();
        loop {
            match scanner.next_tag()? {
                Tag::End => return Ok(out),
                Tag::Close { name, .. } => out.push(format!("/{name}")),
                Tag::Open { name, .. } => {
                    let mut attrs = Vec::new();
                    let closed = scanner.attributes(|k, v| {
                        attrs.push(format!("{k}={v}"));
                        Ok(())
                    })?;
                    out.push(format!(
                        "{name}[{}]{}",
                        attrs.join(" "),
                        if closed { "/" } else { "" }
                    ));
                }
            }
        }
    }

    #[test]
    fn reads_tags_and_attributes_in_any_layout() {
        let text = "<?xml version='1.0'?><!-- c --><!DOCTYPE x><hierarchy rotation=\"1\">\n\
                    <node text=\"a > b\"\n   class = 'x.Y' bounds=\"[0,0][1,1]\"/><![CDATA[<no>]]>\
                    <node\ttext=\"\"></node >text</hierarchy>";
        assert_eq!(
            scan(text).unwrap(),
            [
                "hierarchy[rotation=1]",
                "node[text=a > b class=x.Y bounds=[0,0][1,1]]/",
                "node[text=]",
                "/node",
                "/hierarchy"
            ]
        );
    }

    #[test]
    fn malformed_tags_fail_where_the_problem_is() {
        let err = |text: &str| scan(text).unwrap_err();
        assert_eq!(err("<a b>").message, "attribute `b` has no value");
        assert_eq!(
            err("<a b=c>").message,
            "the value of attribute `b` is not quoted"
        );
        assert_eq!(err("<a  b=\"c>").offset, 4);
        assert!(err("<a b=\"c\"").message.contains("ends inside a tag"));
        assert!(err("<a></a").message.contains("inside a closing tag"));
        assert!(err("<!-- open").message.contains("inside a comment"));
        assert!(err("< a>").message.contains("starts no tag"));
        assert_eq!(err("<a / >").message, "a stray `/` inside a tag");
    }

    #[test]
    fn finds_the_end_of_a_start_tag() {
        let text = "<a><node x=\"1 > 0\"\n y='2'/><b>";
        let start = text.find("<node").unwrap();
        assert_eq!(start_tag_end(text, start), text.find("<b>"));
        assert_eq!(start_tag_end(text, 1), None, "not at a tag");
    }

    #[test]
    fn values_decode_entities_and_fold_literal_newlines() {
        assert_eq!(decode_value("plain"), Ok(Cow::Borrowed("plain")));
        assert_eq!(
            decode_value("a&amp;b&#10;c&#x1F600;&lt;&gt;&quot;&apos;").unwrap(),
            "a&b\nc😀<>\"'"
        );
        assert_eq!(
            decode_value("two\nlines\tand\rtab").unwrap(),
            "two lines and tab"
        );
        assert_eq!(
            decode_value("&bogus;").unwrap_err(),
            "unknown entity `&bogus;`"
        );
        assert!(decode_value("fish & chips").is_err());
        assert!(
            decode_value("&#xD800;").is_err(),
            "a lone surrogate is no char"
        );
        assert!(decode_value("&#+1;").is_err());
    }
}

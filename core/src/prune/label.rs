//! What a pruned line says about a node: its role word, readable and quoted text, id name
//! and 3×3 anchor.

use serde::{Deserialize, Serialize};

use crate::model::{Flags, Node, Rect, Size};

/// The role word printed before a node's text, from its class and flags.
pub fn role(node: &Node) -> Option<&'static str> {
    let class = node.short_class();
    let has = |needle: &str| class.contains(needle);
    Some(if node.is_pixel_text() {
        "ocr"
    } else if node.has(Flags::EDITABLE) {
        "edit"
    } else if has("Switch") || has("ToggleButton") {
        "switch"
    } else if has("CheckBox") || has("CheckedTextView") {
        "checkbox"
    } else if has("RadioButton") {
        "radio"
    } else if has("SeekBar") || has("Slider") || has("RatingBar") {
        "slider"
    } else if has("WebView") {
        "web"
    } else if node.has(Flags::SCROLLABLE) {
        if has("Pager") { "pager" } else { "list" }
    } else if has("Tab") && !has("Table") {
        "tab"
    } else if node.has(Flags::CHECKABLE) {
        "toggle"
    } else if (has("Image") || has("Icon")) && !node.has_label() {
        "image"
    } else {
        return None;
    })
}

/// Collapses runs of whitespace (newlines included) to one space and trims.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Cuts `text` to at most `max` characters, marking the cut with `…`.
pub fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) if max > 0 => format!("{}…", text[..cut].trim_end()),
        Some(_) => "…".to_owned(),
        None => text.to_owned(),
    }
}

/// A double-quoted string with `"` and `\` escaped.
pub fn quote(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

/// `text` with `"` and `\` escaped, as it appears between the quotes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The name part of a resource id, if it reads as a name (not obfuscated or generated).
pub fn id_name(resource_id: &str) -> Option<&str> {
    let name = resource_id
        .rsplit_once(":id/")
        .map_or(resource_id, |(_, n)| n);
    let name = name.rsplit('/').next().unwrap_or(name);
    let letters = name.chars().filter(char::is_ascii_alphabetic).count();
    let generated = name.contains("obfuscated")
        || name.starts_with(|c: char| c.is_ascii_digit())
        || name
            .strip_prefix("view_")
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()));
    (letters >= 2 && !generated && name.len() <= 48).then_some(name)
}

/// A cell of the 3×3 grid over the display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Anchor {
    TopLeft,
    TopCenter,
    TopRight,
    CenterLeft,
    Center,
    CenterRight,
    BottomLeft,
    BottomCenter,
    BottomRight,
}

impl Anchor {
    const ALL: [Anchor; 9] = [
        Anchor::TopLeft,
        Anchor::TopCenter,
        Anchor::TopRight,
        Anchor::CenterLeft,
        Anchor::Center,
        Anchor::CenterRight,
        Anchor::BottomLeft,
        Anchor::BottomCenter,
        Anchor::BottomRight,
    ];

    /// The cell holding the centre of `rect` (clamped into the display first).
    pub fn of(rect: &Rect, display: Size) -> Anchor {
        let area = Rect::new(0, 0, display.width.max(1), display.height.max(1));
        let (x, y) = rect.clamped(&area).center();
        let cell =
            |v: i32, extent: i32| ((i64::from(v) * 3) / i64::from(extent)).clamp(0, 2) as usize;
        Anchor::ALL[cell(y, area.bottom) * 3 + cell(x, area.right)]
    }

    pub fn name(self) -> &'static str {
        match self {
            Anchor::TopLeft => "top-left",
            Anchor::TopCenter => "top-center",
            Anchor::TopRight => "top-right",
            Anchor::CenterLeft => "center-left",
            Anchor::Center => "center",
            Anchor::CenterRight => "center-right",
            Anchor::BottomLeft => "bottom-left",
            Anchor::BottomCenter => "bottom-center",
            Anchor::BottomRight => "bottom-right",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHONE: Size = Size {
        width: 1080,
        height: 2400,
    };

    #[test]
    fn anchors_split_the_display_in_thirds() {
        assert_eq!(Anchor::of(&Rect::new(0, 0, 10, 10), PHONE), Anchor::TopLeft);
        assert_eq!(
            Anchor::of(&Rect::new(500, 1100, 580, 1300), PHONE),
            Anchor::Center
        );
        assert_eq!(
            Anchor::of(&Rect::new(1000, 2300, 1080, 2400), PHONE),
            Anchor::BottomRight
        );
        // 359 is in the first third of 1080, 360 in the second.
        assert_eq!(
            Anchor::of(&Rect::new(359, 0, 360, 1), PHONE),
            Anchor::TopLeft
        );
        assert_eq!(
            Anchor::of(&Rect::new(360, 0, 361, 1), PHONE),
            Anchor::TopCenter
        );
    }

    #[test]
    fn anchors_clamp_bounds_outside_the_display() {
        assert_eq!(
            Anchor::of(&Rect::new(-500, -500, -10, -10), PHONE),
            Anchor::TopLeft
        );
        assert_eq!(
            Anchor::of(&Rect::new(5000, 9000, 6000, 9999), PHONE),
            Anchor::BottomRight
        );
        assert_eq!(
            Anchor::of(&Rect::new(900, 2000, 100, 100), PHONE),
            Anchor::Center
        );
        // An unknown (0x0) display counts as 1x1: everything clamps onto its one pixel,
        // (0,0), which is in the top-left cell (right and bottom are exclusive).
        assert_eq!(
            Anchor::of(&Rect::new(0, 0, 10, 10), Size::default()),
            Anchor::TopLeft
        );
    }

    #[test]
    fn truncation_counts_characters_not_bytes() {
        assert_eq!(truncate("héllo wörld", 5), "héllo…");
        assert_eq!(truncate("short", 5), "short");
        assert_eq!(truncate("日本語のテキスト", 3), "日本語…");
        assert_eq!(truncate("abc", 0), "…");
        assert_eq!(one_line("  two\n lines\t here "), "two lines here");
    }

    #[test]
    fn only_readable_ids_are_names() {
        assert_eq!(id_name("com.app:id/send_button"), Some("send_button"));
        assert_eq!(id_name("android:id/title"), Some("title"));
        assert_eq!(id_name("0_resource_name_obfuscated"), None);
        assert_eq!(id_name("view_202358064"), None);
        assert_eq!(id_name("com.app:id/x1"), None);
        assert_eq!(id_name(""), None);
    }
}

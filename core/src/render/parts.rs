//! The pruned text cut into what each stretch of it says, so that "where do my tokens go"
//! has an answer: the renderer marks the end of every part as it writes it.

use std::fmt;
use std::ops::Range;

use serde::Serialize;

/// What a stretch of the pruned text says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// The lines above the tree: `version:`, `app:`, `display:`, `keyboard: open`, ….
    Header,
    /// Line breaks and indentation.
    Layout,
    /// `[12]`, the handle index of a node an agent can act on.
    Handle,
    /// `edit`, `switch`, `list`, ….
    Role,
    /// The quoted text of a node.
    Label,
    /// `desc: "…"`, a description that adds to the text.
    Desc,
    /// `hint: "…"`, a field's placeholder.
    Hint,
    /// `(FrameLayout)`, an empty shell's class (only with `flatten_shells = false`).
    Shell,
    /// `#feed`, the resource id of a node with nothing else to read.
    Id,
    /// `long`, `scroll`, `checked`, `disabled`, ….
    Flags,
    /// `pos: top-left`, where on the display a node is.
    Anchor,
    /// A `window:` line.
    Window,
    /// A `more:` line's summary of what is scrolled out of view.
    More,
}

impl Part {
    /// Every part, in the order a line prints them.
    pub const ALL: [Part; 13] = [
        Part::Header,
        Part::Layout,
        Part::Handle,
        Part::Role,
        Part::Label,
        Part::Desc,
        Part::Hint,
        Part::Shell,
        Part::Id,
        Part::Flags,
        Part::Anchor,
        Part::Window,
        Part::More,
    ];

    /// The part's name, as `tapscope stats` and the workbench print it.
    pub fn name(self) -> &'static str {
        match self {
            Part::Header => "header",
            Part::Layout => "layout",
            Part::Handle => "handle",
            Part::Role => "role",
            Part::Label => "label",
            Part::Desc => "desc",
            Part::Hint => "hint",
            Part::Shell => "shell",
            Part::Id => "id",
            Part::Flags => "flags",
            Part::Anchor => "anchor",
            Part::Window => "window",
            Part::More => "more",
        }
    }
}

/// What one line of the pruned text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineClass {
    /// A line above the tree.
    Header,
    /// A node with a handle: something to act on.
    Actionable,
    /// A node without a handle: text to read.
    Text,
    /// The start of a window other than the app's.
    Window,
    /// A scrollable's `more:` summary.
    More,
}

impl LineClass {
    pub const ALL: [LineClass; 5] = [
        LineClass::Header,
        LineClass::Actionable,
        LineClass::Text,
        LineClass::Window,
        LineClass::More,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LineClass::Header => "header",
            LineClass::Actionable => "actionable node",
            LineClass::Text => "text node",
            LineClass::Window => "window",
            LineClass::More => "more",
        }
    }
}

/// A rendered snapshot with its parts and lines, each a byte range of `text`, in order and
/// together covering all of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parted {
    pub text: String,
    pub parts: Vec<(Part, Range<usize>)>,
    pub lines: Vec<(LineClass, Range<usize>)>,
}

/// The text being rendered, and, when asked for, where each part and line ends.
pub(super) struct Writer {
    text: String,
    marks: Option<Marks>,
}

#[derive(Default)]
struct Marks {
    parts: Vec<(Part, Range<usize>)>,
    lines: Vec<(LineClass, Range<usize>)>,
    part_start: usize,
    line_start: usize,
}

impl Writer {
    /// A writer of the text alone.
    pub(super) fn plain(capacity: usize) -> Self {
        Self {
            text: String::with_capacity(capacity),
            marks: None,
        }
    }

    /// A writer that keeps the parts too.
    pub(super) fn marking(capacity: usize) -> Self {
        Self {
            text: String::with_capacity(capacity),
            marks: Some(Marks::default()),
        }
    }

    /// What was written since the last part ended is `part`.
    pub(super) fn end(&mut self, part: Part) {
        let end = self.text.len();
        if let Some(marks) = &mut self.marks
            && marks.part_start < end
        {
            marks.parts.push((part, marks.part_start..end));
            marks.part_start = end;
        }
    }

    /// What was written since the last line ended is one line of `class`.
    pub(super) fn end_line(&mut self, class: LineClass) {
        let end = self.text.len();
        if let Some(marks) = &mut self.marks {
            marks.lines.push((class, marks.line_start..end));
            marks.line_start = end;
        }
    }

    pub(super) fn push_str(&mut self, text: &str) {
        self.text.push_str(text);
    }

    pub(super) fn push(&mut self, c: char) {
        self.text.push(c);
    }

    pub(super) fn into_text(self) -> String {
        self.text
    }

    pub(super) fn into_parted(self) -> Parted {
        let marks = self.marks.unwrap_or_default();
        Parted {
            text: self.text,
            parts: marks.parts,
            lines: marks.lines,
        }
    }
}

impl fmt::Write for Writer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.text.push_str(s);
        Ok(())
    }
}

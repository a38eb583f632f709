//! Reading dumps: size limits, text decoding, format detection, and one tree builder for all formats.
//!
//! ```
//! let xml = r#"<hierarchy rotation="0"><node text="Send" class="android.widget.Button"
//!   package="com.chat" clickable="true" bounds="[0,0][200,100]"/></hierarchy>"#;
//! let tree = tapscope_core::parse::parse_str(xml).unwrap();
//! assert_eq!(tree.nodes[0].text, "Send");
//! assert_eq!(tree.format, tapscope_core::DumpFormat::Uiautomator);
//! ```

mod decode;
mod json;
mod json_fields;
mod json_values;
mod xml;
mod xml_scan;

#[cfg(feature = "measure")]
pub(crate) use xml::parse_bounds;
#[cfg(feature = "measure")]
pub use xml_scan::measure_scan;
#[cfg(feature = "tokens")]
pub(crate) use xml_scan::start_tag_end;

use std::io::Read;
use std::path::Path;

pub use decode::decode;

use crate::error::{Error, InputSize, Result};
use crate::model::{DumpFormat, Node, NodeId, Rect, Size, Tree, Window, WindowKind};

/// Inputs larger than this are refused before they are read whole.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Deeper nesting is refused with [`Error::TooDeep`]; real screens stay under 60.
pub const MAX_DEPTH: usize = 1024;

/// Reads a dump file (or a FIFO, such as `<(adb exec-out …)`), refusing folders, and files
/// over [`MAX_INPUT_BYTES`] before reading them.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    let io = |reason| Error::Io {
        path: path.to_path_buf(),
        reason,
    };
    if path.is_dir() {
        return Err(Error::NotAFile {
            path: path.to_path_buf(),
            found: "a folder",
            wanted: "a dump file (.xml or .json); `tapscope stats` and `tapscope open` take folders",
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let too_large = |size| Error::TooLarge {
        input: path.display().to_string(),
        size,
        limit: MAX_INPUT_BYTES,
    };
    if size > MAX_INPUT_BYTES {
        return Err(too_large(InputSize::Exactly(size)));
    }
    read_limited(file).map_err(|e| match e {
        Error::Io { reason, .. } => io(reason),
        Error::TooLarge { size, .. } => too_large(size),
        other => other,
    })
}

/// The dumps of a folder: its `.xml` and `.json` files, sorted by name.
pub fn dumps_in(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|reason| Error::Io {
        path: dir.to_path_buf(),
        reason,
    })?;
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("xml" | "json")))
        .collect();
    files.sort();
    Ok(files)
}

/// Reads at most [`MAX_INPUT_BYTES`] from a stream (standard input), refusing more.
pub fn read_limited(reader: impl Read) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|reason| Error::Io {
            path: "<stdin>".into(),
            reason,
        })?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::TooLarge {
            input: "standard input".into(),
            size: InputSize::MoreThan(MAX_INPUT_BYTES),
            limit: MAX_INPUT_BYTES,
        });
    }
    Ok(bytes)
}

/// Parses a dump from raw bytes in any supported encoding and format.
pub fn parse_bytes(bytes: &[u8]) -> Result<Tree> {
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(Error::TooLarge {
            input: "the input".into(),
            size: InputSize::Exactly(bytes.len() as u64),
            limit: MAX_INPUT_BYTES,
        });
    }
    parse_str(&decode(bytes)?)
}

/// Parses a dump already decoded to text, detecting the format from its content.
pub fn parse_str(text: &str) -> Result<Tree> {
    match text.trim_start().as_bytes().first() {
        None => Err(Error::Empty),
        Some(b'<') => xml::parse(text),
        Some(b'{' | b'[') => json::parse(text),
        Some(_) => {
            let start: String = text.trim_start().chars().take(40).collect();
            Err(Error::UnknownFormat {
                found: format!("text starting with {start:?}"),
            })
        }
    }
}

/// Collects nodes in document order and turns them into a [`Tree`].
#[derive(Debug, Default)]
pub(crate) struct TreeBuilder {
    nodes: Vec<Node>,
    roots: Vec<NodeId>,
}

impl TreeBuilder {
    /// Adds `node` under `parent` (which must already be added) and returns its id.
    pub(crate) fn add(&mut self, parent: Option<NodeId>, mut node: Node) -> NodeId {
        let id = self.nodes.len();
        node.parent = parent;
        node.children.clear();
        match parent {
            Some(p) => {
                node.depth = self.nodes[p].depth + 1;
                self.nodes[p].children.push(id);
            }
            None => {
                node.depth = 0;
                self.roots.push(id);
            }
        }
        self.nodes.push(node);
        id
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Finishes the tree. With `roots_are_windows`, each root is a window of its own
    /// (uiautomator's top-level nodes); otherwise all roots form one window.
    pub(crate) fn finish(
        mut self,
        format: DumpFormat,
        rotation: u8,
        app: Option<String>,
        roots_are_windows: bool,
    ) -> Result<Tree> {
        if self.nodes.is_empty() {
            return Err(Error::NoNodes);
        }
        let groups: Vec<Vec<NodeId>> = if roots_are_windows {
            self.roots.iter().map(|&r| vec![r]).collect()
        } else {
            vec![std::mem::take(&mut self.roots)]
        };
        let display = infer_display(&self.nodes, &groups);
        let mut windows: Vec<Window> = groups
            .into_iter()
            .map(|roots| window_of(&self.nodes, roots, display))
            .collect();
        demote_secondary_apps(&mut windows);
        for (index, window) in windows.iter().enumerate() {
            for &root in &window.roots {
                let mut stack = vec![root];
                while let Some(id) = stack.pop() {
                    self.nodes[id].window = index;
                    stack.extend(&self.nodes[id].children);
                }
            }
        }
        let app = app.filter(|a| !a.is_empty()).unwrap_or_else(|| {
            windows
                .iter()
                .find(|w| w.kind == WindowKind::App)
                .map(|w| w.package.clone())
                .unwrap_or_default()
        });
        Ok(Tree {
            nodes: self.nodes,
            windows,
            display,
            rotation: rotation % 4,
            format,
            app,
        })
    }
}

/// The display is the extent of the top-level nodes, measured from the origin.
fn infer_display(nodes: &[Node], groups: &[Vec<NodeId>]) -> Size {
    let extent = groups
        .iter()
        .flatten()
        .map(|&r| nodes[r].bounds)
        .fold(Rect::default(), |acc, b| acc.union(&b));
    Size {
        width: extent.right.max(1),
        height: extent.bottom.max(1),
    }
}

fn window_of(nodes: &[Node], roots: Vec<NodeId>, display: Size) -> Window {
    let bounds = roots
        .iter()
        .map(|&r| nodes[r].bounds)
        .fold(Rect::default(), |acc, b| acc.union(&b));
    let package = roots
        .iter()
        .map(|&r| nodes[r].package.as_str())
        .find(|p| !p.is_empty())
        .unwrap_or_default()
        .to_owned();
    let display_area = i64::from(display.width) * i64::from(display.height);
    let kind = if is_keyboard_package(&package) {
        WindowKind::Keyboard
    } else if package == "com.android.systemui" && bounds.area().saturating_mul(4) < display_area {
        WindowKind::SystemBar
    } else {
        WindowKind::App
    };
    Window {
        roots,
        package,
        kind,
        bounds,
    }
}

/// Input methods by package: Gboard, AOSP, Samsung, SwiftKey, Baidu, Sogou and others.
fn is_keyboard_package(package: &str) -> bool {
    [
        "inputmethod",
        "keyboard",
        "honeyboard",
        "swiftkey",
        "com.baidu.input",
    ]
    .iter()
    .any(|needle| package.contains(needle))
}

/// The largest app window is the app; other app-like windows are overlays on it.
fn demote_secondary_apps(windows: &mut [Window]) {
    let primary = windows
        .iter()
        .enumerate()
        .filter(|(_, w)| w.kind == WindowKind::App)
        .max_by_key(|(i, w)| (w.bounds.area(), std::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    for (i, window) in windows.iter_mut().enumerate() {
        if window.kind == WindowKind::App && Some(i) != primary {
            window.kind = WindowKind::Overlay;
        }
    }
}

/// Widget classes that take text input.
pub(crate) fn is_editable_class(class: &str) -> bool {
    class.contains("EditText")
        || class.contains("AutoCompleteTextView")
        || class.ends_with("SearchAutoComplete")
}

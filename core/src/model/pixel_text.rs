//! Text read from a screenshot's pixels (a self-drawn screen's words), made nodes of the
//! tree: each line a clickable text node of the app's window, so it is pruned, printed,
//! versioned and given a handle like any node, and a tap by that handle lands on its box.

use serde::{Deserialize, Serialize};

use super::{Flags, Node, Rect, Tree};

/// The class of the nodes made from text read in pixels; prune names them `ocr`.
pub const PIXEL_TEXT_CLASS: &str = "tapscope.PixelText";

/// One line of text read in pixels, placed on the display.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PixelText {
    pub text: String,
    /// The engine's confidence, 0 to 100 (the line's least sure word).
    pub confidence: f32,
    /// Where the line's ink is, in display pixels.
    pub bounds: Rect,
}

impl Node {
    /// Whether the node was read from pixels rather than dumped.
    pub fn is_pixel_text(&self) -> bool {
        self.class == PIXEL_TEXT_CLASS
    }
}

impl Tree {
    /// This tree with each of `lines` added, in order, as a clickable text node under the
    /// first root of the app's window (the first window when none is the app's). A tree
    /// without windows has nowhere to put them and comes back as it is.
    pub fn with_pixel_text(&self, lines: &[PixelText]) -> Tree {
        let mut tree = self.clone();
        let Some((window, root)) = tree
            .windows
            .iter()
            .position(|w| w.package == tree.app)
            .or((!tree.windows.is_empty()).then_some(0))
            .and_then(|w| Some((w, *tree.windows[w].roots.first()?)))
        else {
            return tree;
        };
        let (package, depth) = (tree.nodes[root].package.clone(), tree.nodes[root].depth + 1);
        for line in lines {
            let id = tree.nodes.len();
            tree.nodes.push(Node {
                class: PIXEL_TEXT_CLASS.to_owned(),
                text: line.text.clone(),
                package: package.clone(),
                bounds: line.bounds,
                flags: Flags::CLICKABLE | Flags::ENABLED,
                parent: Some(root),
                depth,
                window,
                ..Node::default()
            });
            tree.nodes[root].children.push(id);
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;

    #[test]
    fn lines_become_clickable_text_nodes_under_the_apps_root() {
        let tree = parse_str(
            r#"<hierarchy rotation="0"><node class="android.view.SurfaceView" package="game" bounds="[0,96][1080,2400]"/></hierarchy>"#,
        )
        .unwrap();
        let play = PixelText {
            text: "Play".into(),
            confidence: 93.0,
            bounds: Rect::new(400, 2040, 680, 2160),
        };
        let read = tree.with_pixel_text(std::slice::from_ref(&play));
        assert_eq!(read.nodes.len(), 2);
        let node = &read.nodes[1];
        assert!(node.is_pixel_text() && node.is_actionable());
        assert_eq!((node.text.as_str(), node.bounds), ("Play", play.bounds));
        assert_eq!(
            (node.parent, node.depth, node.package.as_str()),
            (Some(0), 1, "game")
        );
        assert_eq!(read.nodes[0].children, [1]);
        assert!(!tree.nodes[0].is_pixel_text());
    }

    #[test]
    fn read_lines_print_as_ocr_nodes_with_handles_and_the_screenshot_stays() {
        use crate::prune::{Fate, PruneRules};
        use crate::render::versioned;

        let tree = parse_str(
            r#"<hierarchy rotation="0"><node class="android.view.SurfaceView" package="game" bounds="[0,96][1080,2400]"/></hierarchy>"#,
        )
        .unwrap();
        let line = |text: &str, top| PixelText {
            text: text.into(),
            confidence: 90.0,
            bounds: Rect::new(400, top, 680, top + 100),
        };
        let read = tree.with_pixel_text(&[line("Blocks", 300), line("Play", 2040)]);
        let (pruned, text) = versioned(&read, &PruneRules::default());
        assert!(text.contains("\n[1] ocr \"Blocks\"\n"), "{text}");
        assert!(text.contains("\n[2] ocr \"Play\"\n"), "{text}");
        assert!(
            pruned.fallback,
            "the screen is still self-drawn: the screenshot stays"
        );
        let (_, unread) = versioned(&tree, &PruneRules::default());
        assert_ne!(
            pruned.version,
            versioned(&tree, &PruneRules::default()).0.version
        );
        assert!(!unread.contains("ocr"));

        let off = PruneRules {
            ocr: false,
            ..PruneRules::default()
        };
        let (pruned_off, text_off) = versioned(&read, &off);
        assert!(!text_off.contains("ocr"), "{text_off}");
        assert!(matches!(pruned_off.fates[1], Fate::PixelTextOff));
    }
}

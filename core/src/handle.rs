//! Handles `{version}_{i}`: read from a tool call, checked against the latest snapshot,
//! and turned into the display point where a tap on that node should land.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Point, largest_free_part};
use crate::model::{Flags, NodeId, Rect, Tree};
use crate::prune::{Pruned, PrunedNode, Visibility, truncate};

/// How much of a malformed input an error repeats: enough to recognise it.
const SHOWN_INPUT_CHARS: usize = 40;

/// A node of one snapshot, as a tool call names it: `3f9a0c2b71de_12`.
///
/// [`FromStr`] accepts exactly 12 lowercase hex digits, an underscore and a positive `i`
/// without leading zeros (surrounding whitespace is ignored), so every handle has one
/// spelling and [`Display`](fmt::Display) gives it back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Handle {
    pub version: String,
    pub i: usize,
}

/// Why a handle was refused. Each message tells the model what to do next.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HandleError {
    #[error(
        "{input:?} is not a handle: {problem}; a handle is the snapshot's 12-hex version, \
         an underscore, and a node's i, like 3f9a0c2b71de_12"
    )]
    Malformed {
        /// The input, cut after 40 characters.
        input: String,
        problem: String,
    },
    /// The handle names an older snapshot; the device was not touched.
    #[error(
        "Token version mismatch, viewport updated. Call screen_operation_accessibility to \
         fetch the latest tree."
    )]
    Stale { version: String, latest: String },
    #[error("i {i} is not in this snapshot: its handles run from 1 to {last}")]
    UnknownIndex { i: usize, last: usize },
    #[error("i {i} is not in this snapshot: it has no handles, nothing on screen has an action")]
    NoHandles { i: usize },
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.version, self.i)
    }
}

impl FromStr for Handle {
    type Err = HandleError;

    fn from_str(input: &str) -> Result<Self, HandleError> {
        let malformed = |problem: &str| HandleError::Malformed {
            input: truncate(input, SHOWN_INPUT_CHARS),
            problem: problem.to_owned(),
        };
        let text = input.trim();
        if text.is_empty() {
            return Err(malformed("it is empty"));
        }
        let Some((version, i)) = text.rsplit_once('_') else {
            return Err(malformed(if text.bytes().all(|b| b.is_ascii_digit()) {
                "it is only an i, without the version before it"
            } else {
                "it has no underscore between the version and the i"
            }));
        };
        if let Some(problem) = version_problem(version) {
            return Err(malformed(&problem));
        }
        let i = parse_index(i).map_err(malformed)?;
        Ok(Handle {
            version: version.to_owned(),
            i,
        })
    }
}

fn version_problem(version: &str) -> Option<String> {
    let chars = version.chars().count();
    if chars != 12 {
        Some(format!("its version has {chars} characters, not 12"))
    } else if version.bytes().any(|b| b.is_ascii_uppercase()) {
        Some("its version has uppercase letters; versions are lowercase".into())
    } else if !version
        .bytes()
        .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        Some("its version is not hexadecimal (0-9, a-f)".into())
    } else {
        None
    }
}

fn parse_index(i: &str) -> Result<usize, &'static str> {
    if i.is_empty() {
        Err("it has no i after the underscore")
    } else if i.starts_with('-') {
        Err("its i is negative; i counts from 1")
    } else if !i.bytes().all(|b| b.is_ascii_digit()) {
        Err("its i is not a whole number")
    } else if i.bytes().all(|b| b == b'0') {
        Err("its i is 0; i counts from 1")
    } else if i.starts_with('0') {
        Err("its i has a leading zero")
    } else {
        i.parse().map_err(|_| "its i is far too large")
    }
}

/// The node `handle` names in `pruned`, the latest snapshot.
///
/// A handle from any other snapshot is [`HandleError::Stale`], whatever its `i`: the
/// screen may have changed, so the model must look again before acting.
pub fn resolve<'a>(pruned: &'a Pruned, handle: &Handle) -> Result<&'a PrunedNode, HandleError> {
    if handle.version != pruned.version {
        return Err(HandleError::Stale {
            version: handle.version.clone(),
            latest: pruned.version.clone(),
        });
    }
    pruned.resolve(handle.i).ok_or(match pruned.handles.len() {
        0 => HandleError::NoHandles { i: handle.i },
        last => HandleError::UnknownIndex { i: handle.i, last },
    })
}

/// Where a tap on `target` should land, on the display.
///
/// The centre of the target's visible part, unless something drawn above the target
/// covers that centre and would take the tap: then the centre of the largest part left
/// free (see [`largest_free_part`]), or the centre after all when nothing is left.
/// What is drawn above, and so covers:
/// - a clickable or long-clickable node of the same window that comes later in document
///   order and is not inside the target (Android draws children in order, later on top;
///   elevation is not in dumps), by its visible part;
/// - a window of a higher [`WindowKind::layer`](crate::WindowKind::layer) (keyboard,
///   system bars, overlays), by its bounds, and its clickable nodes.
///
/// `tree` must be the tree `pruned` was made from; if it is not, the plain centre is given.
pub fn tap_point(tree: &Tree, pruned: &Pruned, target: &PrunedNode) -> Point {
    let area = if target.visible.is_empty() {
        target.bounds.clamped(&tree.display_rect())
    } else {
        target.visible
    };
    let center = Point::center_of(&area);
    if pruned.fates.len() != tree.nodes.len() || target.raw >= tree.nodes.len() {
        return center; // another tree: `target.raw` would name some other node
    }
    let covers = covering(tree, target.raw, &area);
    let centre_taken = covers.iter().any(|rect| contains(rect, center));
    match largest_free_part(area, covers) {
        Some(free) if centre_taken => Point::center_of(&free),
        _ => center,
    }
}

/// The rectangles drawn above `target` that overlap `area` (see [`tap_point`]).
fn covering(tree: &Tree, target: NodeId, area: &Rect) -> Vec<Rect> {
    let layer_of = |window: usize| tree.windows.get(window).map_or(0, |w| w.kind.layer());
    let target_window = tree.nodes[target].window;
    let target_layer = layer_of(target_window);
    let overlaps = |rect: &Rect| !rect.intersect(area).is_empty();
    let mut covers: Vec<Rect> = tree
        .windows
        .iter()
        .filter(|w| w.kind.layer() > target_layer && overlaps(&w.bounds))
        .map(|w| w.bounds)
        .collect();
    let visibility = Visibility::of(tree);
    for (id, node) in tree.nodes.iter().enumerate() {
        if id == target || !node.has(Flags::CLICKABLE | Flags::LONG_CLICKABLE) {
            continue;
        }
        let Ok(visible) = visibility.get(id) else {
            continue;
        };
        let above = if node.window == target_window {
            id > target // ancestors come earlier, so only descendants remain to exclude
        } else {
            layer_of(node.window) > target_layer
        };
        if above && overlaps(&visible) && !tree.ancestors(id).any(|a| a == target) {
            covers.push(visible);
        }
    }
    covers
}

fn contains(rect: &Rect, p: Point) -> bool {
    (rect.left..rect.right).contains(&p.x) && (rect.top..rect.bottom).contains(&p.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune_with_version};

    const VERSION: &str = "0123456789ab";

    fn snapshot(xml: &str) -> (Tree, Pruned) {
        let tree = parse_str(xml).unwrap();
        let pruned = prune_with_version(&tree, &PruneRules::default(), VERSION.into());
        (tree, pruned)
    }

    fn handle(i: usize) -> Handle {
        Handle {
            version: VERSION.into(),
            i,
        }
    }

    fn tap(tree: &Tree, pruned: &Pruned, i: usize) -> Point {
        tap_point(tree, pruned, resolve(pruned, &handle(i)).unwrap())
    }

    /// A list item (i 2) with a floating "Compose" button (i 3) drawn over its centre.
    const FAB_OVER_ITEM: &str = r#"<hierarchy rotation="0">
      <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
        <node class="androidx.recyclerview.widget.RecyclerView" package="app" scrollable="true" bounds="[0,0][1080,2400]">
          <node class="android.view.ViewGroup" package="app" clickable="true" bounds="[0,1700][1080,2000]">
            <node class="android.widget.TextView" package="app" text="Groceries" bounds="[40,1700][1040,2000]"/>
          </node>
        </node>
        <node class="android.widget.ImageButton" package="app" content-desc="Compose" clickable="true" bounds="[440,1750][640,1950]"/>
      </node></hierarchy>"#;

    #[test]
    fn handles_round_trip_through_text() {
        let parsed: Handle = "3f9a0c2b71de_12".parse().unwrap();
        assert_eq!(
            parsed,
            Handle {
                version: "3f9a0c2b71de".into(),
                i: 12
            }
        );
        assert_eq!(parsed.to_string(), "3f9a0c2b71de_12");
        assert_eq!(" 3f9a0c2b71de_7\n".parse::<Handle>().unwrap().i, 7);
        let big = format!("{VERSION}_{}", usize::MAX);
        assert_eq!(big.parse::<Handle>().unwrap().to_string(), big);
    }

    #[test]
    fn malformed_handles_say_what_is_wrong_and_the_right_form() {
        let err = "3f9a0c2b71de-12".parse::<Handle>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"3f9a0c2b71de-12\" is not a handle: it has no underscore between the version \
             and the i; a handle is the snapshot's 12-hex version, an underscore, and a \
             node's i, like 3f9a0c2b71de_12"
        );
        let cases = [
            ("", "it is empty"),
            ("   ", "it is empty"),
            ("12", "it is only an i"),
            ("3f9a0c2b71d_12", "has 11 characters, not 12"),
            ("3f9a0c2b71dee_12", "has 13 characters, not 12"),
            ("3F9A0C2B71DE_12", "uppercase"),
            ("3f9a0c2b71dg_12", "not hexadecimal"),
            ("3f9a0c2b71de_", "no i after the underscore"),
            ("3f9a0c2b71de_0", "its i is 0"),
            ("3f9a0c2b71de_-3", "negative"),
            ("3f9a0c2b71de_+3", "not a whole number"),
            ("3f9a0c2b71de_1.5", "not a whole number"),
            ("3f9a0c2b71de_012", "leading zero"),
            ("3f9a0c2b71de_99999999999999999999999", "far too large"),
            ("i: 12", "no underscore"),
        ];
        for (input, problem) in cases {
            let message = input.parse::<Handle>().unwrap_err().to_string();
            assert!(message.contains(problem), "{input:?}: {message}");
            assert!(message.ends_with("like 3f9a0c2b71de_12"), "{message}");
        }
        let long = "x".repeat(500);
        let message = long.parse::<Handle>().unwrap_err().to_string();
        assert!(message.len() < 300, "{message}");
    }

    #[test]
    fn stale_handles_are_refused_with_the_exact_message() {
        let (_, pruned) = snapshot(FAB_OVER_ITEM);
        let old = Handle {
            version: "fedcba987654".into(),
            i: 1,
        };
        let err = resolve(&pruned, &old).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Token version mismatch, viewport updated. Call screen_operation_accessibility to \
             fetch the latest tree."
        );
        assert_eq!(
            err,
            HandleError::Stale {
                version: "fedcba987654".into(),
                latest: VERSION.into()
            }
        );
        // Stale wins over an unknown i: the model has to look again either way.
        let old_unknown = Handle { i: 99, ..old };
        assert!(matches!(
            resolve(&pruned, &old_unknown),
            Err(HandleError::Stale { .. })
        ));
    }

    #[test]
    fn known_i_resolves_and_unknown_i_names_the_range() {
        let (tree, pruned) = snapshot(FAB_OVER_ITEM);
        let node = resolve(&pruned, &handle(3)).unwrap();
        assert_eq!(tree.node(node.raw).desc, "Compose");
        assert_eq!(
            resolve(&pruned, &handle(99)).unwrap_err().to_string(),
            "i 99 is not in this snapshot: its handles run from 1 to 3"
        );
        let (_, empty) = snapshot(
            r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" package="app" text="Loading" bounds="[0,0][1080,200]"/></node></hierarchy>"#,
        );
        assert_eq!(
            resolve(&empty, &handle(1)).unwrap_err().to_string(),
            "i 1 is not in this snapshot: it has no handles, nothing on screen has an action"
        );
    }

    #[test]
    fn tap_moves_off_a_floating_button_over_the_item() {
        let (tree, pruned) = snapshot(FAB_OVER_ITEM);
        let item = Rect::new(0, 1700, 1080, 2000);
        let button = Rect::new(440, 1750, 640, 1950);
        assert!(contains(&button, Point::center_of(&item)));
        // Left and right of the button tie; the left band wins.
        let point = tap(&tree, &pruned, 2);
        assert_eq!(point, Point::new(220, 1850));
        assert!(contains(&item, point) && !contains(&button, point));
        // The button itself is on top: its own centre.
        assert_eq!(tap(&tree, &pruned, 3), Point::new(540, 1850));
        // The list's centre is free; its own item inside it never counts.
        assert_eq!(tap(&tree, &pruned, 1), Point::new(540, 1200));
    }

    #[test]
    fn tap_ignores_clickables_drawn_below_or_inside_and_keeps_a_free_centre() {
        let (tree, pruned) = snapshot(
            r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
              <node class="android.view.View" package="app" content-desc="Backdrop" clickable="true" bounds="[0,0][1080,2400]"/>
              <node class="android.view.ViewGroup" package="app" clickable="true" bounds="[0,400][1080,700]">
                <node class="android.widget.Button" package="app" text="Play" clickable="true" bounds="[340,450][740,650]"/>
              </node>
              <node class="android.widget.ImageButton" package="app" content-desc="Close" clickable="true" bounds="[960,380][1060,480]"/>
            </node></hierarchy>"#,
        );
        // i 2 is the card: the backdrop is below it, Play is inside it, Close misses its centre.
        assert_eq!(tap(&tree, &pruned, 2), Point::new(540, 550));
    }

    #[test]
    fn fully_covered_target_falls_back_to_its_centre() {
        let (tree, pruned) = snapshot(
            r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
              <node class="android.widget.Button" package="app" text="Under" clickable="true" bounds="[100,100][300,300]"/>
              <node class="android.view.View" package="app" content-desc="Scrim" clickable="true" bounds="[50,50][350,350]"/>
            </node></hierarchy>"#,
        );
        assert_eq!(tap(&tree, &pruned, 1), Point::new(200, 200));
    }

    #[test]
    fn tap_stays_out_of_a_keyboard_over_the_field() {
        let (tree, pruned) = snapshot(
            r#"<hierarchy rotation="0">
              <node class="android.widget.FrameLayout" package="com.chat" bounds="[0,0][1080,2400]">
                <node class="android.widget.EditText" package="com.chat" text="Hello" clickable="true" bounds="[40,1300][1040,1700]"/>
              </node>
              <node class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,1450][1080,2400]">
                <node class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" content-desc="q" clickable="true" bounds="[0,1600][108,1750]"/>
              </node></hierarchy>"#,
        );
        assert_eq!(tap(&tree, &pruned, 1), Point::new(540, 1375));
    }

    #[test]
    fn tap_with_another_tree_gives_the_plain_centre() {
        let (_, pruned) = snapshot(FAB_OVER_ITEM);
        let other = parse_str(
            r#"<hierarchy rotation="0"><node class="android.widget.Button" package="app" text="x" clickable="true" bounds="[0,0][10,10]"/></hierarchy>"#,
        )
        .unwrap();
        let item = resolve(&pruned, &handle(2)).unwrap();
        assert_eq!(tap_point(&other, &pruned, item), Point::new(540, 1850));
    }
}

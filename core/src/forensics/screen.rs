//! One recorded screen looked at again: the node a handle named on it, and what lies at a
//! display point.

use super::Target;
use crate::geometry::Point;
use crate::handle::tap_point;
use crate::model::{Flags, Rect, Tree};
use crate::parse::parse_str;
use crate::prune::{
    PruneRules, Pruned, Visibility, id_name, one_line, prune_with_version, role, truncate,
};
use crate::recording::{Recording, RecordingError, ScreenRef};
use crate::render;

/// How many characters of a label a [`Target`] keeps.
pub(super) const LABEL_CHARS: usize = 40;

/// The screen's dump parsed, with the text it read in pixels; `None` when it does not
/// parse.
pub(crate) fn load_tree(
    recording: &Recording,
    screen: &ScreenRef,
) -> Result<Option<Tree>, RecordingError> {
    let Ok(tree) = parse_str(&recording.load_text(&screen.dump)?) else {
        return Ok(None);
    };
    let read = recording.load_pixel_text(screen)?;
    Ok(Some(if read.is_empty() {
        tree
    } else {
        tree.with_pixel_text(&read)
    }))
}

/// The screen as the agent read it: its dump pruned again with the default rules under the
/// screen's version, when that gives back the stored pruned text; `None` when the dump does
/// not parse or prunes to other text (other rules, another tapscope).
pub(crate) fn as_read(
    recording: &Recording,
    screen: &ScreenRef,
) -> Result<Option<(Tree, Pruned)>, RecordingError> {
    let stored = recording.load_text(&screen.pruned)?;
    Ok(load_tree(recording, screen)?.and_then(|tree| {
        let pruned = prune_with_version(&tree, &PruneRules::default(), screen.version.clone());
        (render::yaml(&pruned) == stored).then_some((tree, pruned))
    }))
}

/// The node with handle index `i` on `screen`, and where a tap on it lands.
///
/// From the screen [`as_read`] when it can be; otherwise the label is read off the stored
/// line `i: N`, without bounds or point.
pub(super) fn by_handle(
    recording: &Recording,
    screen: &ScreenRef,
    i: usize,
) -> Result<(Option<Target>, Option<Point>), RecordingError> {
    if let Some((tree, pruned)) = as_read(recording, screen)? {
        return Ok(match pruned.resolve(i) {
            Some(node) => {
                let target = Target {
                    label: node.name().to_string(),
                    bounds: Some(node.bounds),
                };
                (Some(target), Some(tap_point(&tree, &pruned, node)))
            }
            None => (None, None),
        });
    }
    let stored = recording.load_text(&screen.pruned)?;
    let target = stored_line_label(&stored, i).map(|label| Target {
        label,
        bounds: None,
    });
    Ok((target, None))
}

/// The label of the stored pruned line with handle `i`: its quoted text, else the rest of it.
fn stored_line_label(pruned_text: &str, i: usize) -> Option<String> {
    let line = pruned_text
        .lines()
        .find(|line| render::line_handle(line) == Some(i))?
        .trim_start();
    // What follows the handle, `[N]` or `- i: N` in older recordings.
    let rest = match line.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(_, rest)| rest),
        None => line.splitn(4, ' ').nth(3).unwrap_or(""),
    }
    .trim();
    let label = match rest.find('"') {
        Some(open) => {
            let mut text = String::new();
            let mut chars = rest[open + 1..].chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => text.extend(chars.next()),
                    c => text.push(c),
                }
            }
            format!("\"{}\"", truncate(&text, LABEL_CHARS))
        }
        None => truncate(rest, LABEL_CHARS),
    };
    Some(label)
}

/// What a tap at `point` meets on `tree`: the smallest visible node holding the point in
/// its on-screen part that has text, a description or a click action (later nodes, drawn
/// above, win ties). It is named as its pruned line names it, so a text inside a card reads
/// as the card the tap would press.
pub(crate) fn at_point(tree: &Tree, point: Point) -> Option<Target> {
    let visibility = Visibility::of(tree);
    let inside =
        |r: &Rect| (r.left..r.right).contains(&point.x) && (r.top..r.bottom).contains(&point.y);
    let (id, _) = tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, node)| node.has_label() || node.has(Flags::CLICKABLE | Flags::LONG_CLICKABLE))
        .filter_map(|(id, _)| Some((id, visibility.get(id).ok()?)))
        .filter(|(_, visible)| inside(visible))
        .min_by_key(|&(id, visible)| (visible.area(), std::cmp::Reverse(id)))?;
    let pruned = prune_with_version(tree, &PruneRules::default(), String::new());
    if let Some(line) = pruned.printed_as(id) {
        return Some(Target {
            label: line.name().to_string(),
            bounds: Some(line.bounds),
        });
    }
    let node = &tree.nodes[id];
    let text = [one_line(&node.text), one_line(&node.desc)]
        .into_iter()
        .find(|t| !t.is_empty());
    let label = match (text, id_name(&node.resource_id), role(node)) {
        (Some(text), ..) => format!("\"{}\"", truncate(&text, LABEL_CHARS)),
        (None, Some(id), _) => format!("#{id}"),
        (None, None, Some(role)) => role.to_owned(),
        (None, None, None) => node.short_class().to_owned(),
    };
    Some(Target {
        label,
        bounds: Some(node.bounds),
    })
}

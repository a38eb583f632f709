//! How one replayed step compares with its recording: the same, a changed screen (what
//! appeared, disappeared, moved, changed text or state), or diverged (the outcome differs,
//! or the step could not be replayed), with a sentence a person reads.

use serde::{Deserialize, Serialize};

use crate::inspect::tree_diff::{DiffNode, TreeDiff, tree_diff};
use crate::recording::StepOutcome;

use super::{Ignore, Screen, comparable};

/// The verdict on one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum Verdict {
    /// The same outcome, and the screen after it reads the same (volatile text ignored).
    Same,
    /// The same outcome; the screen after it differs.
    Changed(Changes),
    /// The step did not do what it did: the replay ends here.
    Diverged(Divergence),
}

impl Verdict {
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Changed(_) => "changed",
            Verdict::Diverged(_) => "diverged",
        }
    }
}

/// What differs between the recorded screen after a step and today's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    pub appeared: Vec<String>,
    pub disappeared: Vec<String>,
    /// `"Search videos" → "Search"` and the like: text, place or state.
    pub changed: Vec<String>,
    /// The screen's app changed (`com.a` → `com.b`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
}

impl Changes {
    fn of(diff: &TreeDiff) -> Self {
        Self {
            appeared: diff.appeared.iter().map(|n| n.label.clone()).collect(),
            disappeared: diff.disappeared.iter().map(|n| n.label.clone()).collect(),
            changed: diff
                .changed
                .iter()
                .map(|c| {
                    let what = c.what.join(", ");
                    if c.before.label == c.after.label {
                        format!("{} ({what})", c.after.label)
                    } else {
                        format!("{} → {} ({what})", c.before.label, c.after.label)
                    }
                })
                .collect(),
            app: None,
        }
    }

    /// One line: `2 appeared ("Shorts", "Live"); 1 changed ("Search videos" → "Search" (text))`.
    pub fn sentence(&self) -> String {
        let mut parts = Vec::new();
        if let Some(app) = &self.app {
            parts.push(format!("the app changed ({app})"));
        }
        for (what, names) in [
            ("appeared", &self.appeared),
            ("disappeared", &self.disappeared),
            ("changed", &self.changed),
        ] {
            if !names.is_empty() {
                parts.push(format!("{} {what} ({})", names.len(), listed(names)));
            }
        }
        parts.join("; ")
    }
}

/// Up to three names, then how many more.
fn listed(names: &[String]) -> String {
    let mut shown: Vec<&str> = names.iter().take(3).map(String::as_str).collect();
    let more = names.len().saturating_sub(3);
    let tail = format!("{more} more");
    if more > 0 {
        shown.push(&tail);
    }
    shown.join(", ")
}

/// Why a step diverged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "divergence", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Divergence {
    /// The call ended otherwise than it did: ok then and refused now, and so on.
    Outcome {
        then: StepOutcome,
        now: StepOutcome,
        /// What today's call said.
        said: String,
    },
    /// No node on today's screen is the one the recorded handle named.
    TargetGone { meant: String },
    /// Today's counterpart of the node is printed without an `i`: nothing to act on.
    TargetNotActionable { meant: String },
    /// The recorded screen the handle named is not in the recording, or its files are
    /// missing or damaged, so the node cannot be known.
    ScreenUnknown { version: String, why: String },
    /// The device failed or went away.
    Device { error: String },
    /// The recorded call cannot be made again (a person's call no action stands for).
    NotReplayable { why: String },
    /// The log says an app crashed, stopped responding or died of a signal during the
    /// step, where the recording's log of it says nothing of the kind.
    Crashed {
        /// Each crash in one sentence: when, which process, the exception and where.
        crashes: Vec<String>,
    },
}

impl Divergence {
    /// What happened, as a clause after `step N tool "target":`.
    pub fn sentence(&self) -> String {
        match self {
            Divergence::Outcome { then, now, said } => {
                let said = said.lines().next().unwrap_or_default();
                format!(
                    "it was {} when recorded and is {} now: {said}",
                    outcome_name(*then),
                    outcome_name(*now)
                )
            }
            Divergence::TargetGone { meant } => format!(
                "{meant} is not on today's screen: no element there is the one the recorded \
                 handle named (by id, role, text and place)"
            ),
            Divergence::TargetNotActionable { meant } => format!(
                "{meant} is on today's screen but cannot be acted on (it is printed without \
                 an i)"
            ),
            Divergence::ScreenUnknown { version, why } => format!(
                "the recorded screen {version} the handle named cannot be read ({why}), so its \
                 node cannot be found again"
            ),
            Divergence::Device { error } => format!("the device failed: {error}"),
            Divergence::NotReplayable { why } => format!("it cannot be made again: {why}"),
            Divergence::Crashed { crashes } => format!(
                "the step landed, then the log said what it did not when recorded: {}",
                crashes.join("; ")
            ),
        }
    }
}

pub fn outcome_name(outcome: StepOutcome) -> &'static str {
    match outcome {
        StepOutcome::Ok => "ok",
        StepOutcome::Refused => "refused",
        StepOutcome::Error => "an error",
    }
}

/// Whether the screens after a step were one picture, which decides whether the text read
/// in their pixels is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pixels {
    /// Both screenshots are the same picture (the same `screens/<hash>.png`): the text
    /// read in it can differ only by how it was read (another engine, another version of
    /// Tesseract), so `ocr` lines are not compared; every other node is.
    Same,
    /// Other pictures, or a screen without one: `ocr` lines are compared as any node is
    /// (their boxes within [`PIXEL_TEXT_JITTER`]).
    Differ,
}

/// Compares today's step with the recorded one: first the outcome, then the screens after
/// it (each masked by `ignore`, `ocr` lines as `pixels` says); `then`/`now` are `None` when
/// that run read no screen.
pub fn compare(
    outcomes: (StepOutcome, StepOutcome),
    said: &str,
    then: Option<Screen<'_>>,
    now: Option<Screen<'_>>,
    ignore: &Ignore,
    pixels: Pixels,
) -> Verdict {
    let (was, is) = outcomes;
    if was != is {
        return Verdict::Diverged(Divergence::Outcome {
            then: was,
            now: is,
            said: said.to_owned(),
        });
    }
    match (then, now) {
        (Some(then), Some(now)) => match screen_changes(then, now, ignore, pixels) {
            None => Verdict::Same,
            Some(changes) => Verdict::Changed(changes),
        },
        _ => Verdict::Same,
    }
}

/// Text read in pixels that moved by at most this many display pixels on any edge has not
/// moved: the engine's boxes shift by a pixel or two between two reads of one picture.
pub const PIXEL_TEXT_JITTER: i32 = 12;

/// What differs between two screens made [`comparable`]; `None` when nothing does. Of the
/// same picture ([`Pixels::Same`]), what was read in its pixels is left out.
pub fn screen_changes(
    then: Screen<'_>,
    now: Screen<'_>,
    ignore: &Ignore,
    pixels: Pixels,
) -> Option<Changes> {
    let (then, now) = (comparable(then, ignore), comparable(now, ignore));
    let mut diff = tree_diff(&then, &now);
    diff.changed.retain(|c| !is_jitter(c));
    if pixels == Pixels::Same {
        diff.appeared.retain(|n| !is_read_in_pixels(n));
        diff.disappeared.retain(|n| !is_read_in_pixels(n));
        diff.changed
            .retain(|c| !(is_read_in_pixels(&c.before) && is_read_in_pixels(&c.after)));
    }
    let mut changes = Changes::of(&diff);
    if then.app != now.app {
        changes.app = Some(format!("{} → {}", then.app, now.app));
    }
    (!diff.is_empty() || changes.app.is_some()).then_some(changes)
}

/// A node read in pixels whose box only shifted within [`PIXEL_TEXT_JITTER`].
fn is_jitter(changed: &crate::inspect::tree_diff::Changed) -> bool {
    let (a, b) = (changed.before.bounds, changed.after.bounds);
    let within = [
        a.left - b.left,
        a.top - b.top,
        a.right - b.right,
        a.bottom - b.bottom,
    ]
    .iter()
    .all(|d| d.abs() <= PIXEL_TEXT_JITTER);
    changed.what == ["moved"] && is_read_in_pixels(&changed.after) && within
}

/// A node read in pixels: an `ocr` line (`ocr "Play"`).
fn is_read_in_pixels(node: &DiffNode) -> bool {
    node.label.starts_with("ocr ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{PixelText, Rect, Tree};
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, Pruned, prune_with_version};

    fn game(play_left: i32) -> (Tree, Pruned) {
        let tree = parse_str(
            r#"<hierarchy rotation="0"><node class="android.view.SurfaceView" package="game" bounds="[0,96][1080,2400]"/></hierarchy>"#,
        )
        .unwrap()
        .with_pixel_text(&[PixelText {
            text: "Play".into(),
            confidence: 95.0,
            bounds: Rect::new(play_left, 1700, play_left + 180, 1800),
        }]);
        let pruned = prune_with_version(&tree, &PruneRules::default(), "0123456789ab".into());
        (tree, pruned)
    }

    #[test]
    fn text_read_in_pixels_that_shifts_a_few_pixels_has_not_moved() {
        fn screen(s: &(Tree, Pruned)) -> Screen<'_> {
            Screen {
                tree: &s.0,
                pruned: &s.1,
            }
        }
        let (then, jittered, moved) = (game(450), game(455), game(700));
        let ignore = Ignore::default();
        assert_eq!(
            screen_changes(screen(&then), screen(&jittered), &ignore, Pixels::Differ),
            None
        );
        let changes =
            screen_changes(screen(&then), screen(&moved), &ignore, Pixels::Differ).unwrap();
        assert_eq!(changes.changed, ["ocr \"Play\" (moved)"]);
    }

    /// The game's title as one engine read it (`read`), under a dump with `title`.
    fn read_as(title: &str, read: &[(&str, i32)]) -> (Tree, Pruned) {
        let xml = format!(
            r#"<hierarchy rotation="0"><node class="android.view.SurfaceView" package="game" bounds="[0,96][1080,2400]"><node text="{title}" class="android.widget.TextView" package="game" bounds="[0,96][1080,200]"/></node></hierarchy>"#
        );
        let lines: Vec<PixelText> = read
            .iter()
            .map(|&(text, top)| PixelText {
                text: text.into(),
                confidence: 90.0,
                bounds: Rect::new(400, top, 680, top + 100),
            })
            .collect();
        let tree = parse_str(&xml).unwrap().with_pixel_text(&lines);
        let pruned = prune_with_version(&tree, &PruneRules::default(), "0123456789ab".into());
        (tree, pruned)
    }

    #[test]
    fn of_the_same_picture_only_what_was_read_in_its_pixels_is_not_compared() {
        fn screen(s: &(Tree, Pruned)) -> Screen<'_> {
            Screen {
                tree: &s.0,
                pruned: &s.1,
            }
        }
        let then = read_as("Blocks", &[("Play", 1700), ("Settings", 2000)]);
        // Another engine: "Play" misread, "Settings" missed, a word more found.
        let other_engine = read_as("Blocks", &[("Plav", 1700), ("Score", 550)]);
        let ignore = Ignore::default();
        assert_eq!(
            screen_changes(screen(&then), screen(&other_engine), &ignore, Pixels::Same),
            None
        );
        let differ = screen_changes(
            screen(&then),
            screen(&other_engine),
            &ignore,
            Pixels::Differ,
        )
        .expect("compared as any text");
        assert_eq!(differ.appeared, ["ocr \"Score\""]);
        assert_eq!(differ.disappeared, ["ocr \"Settings\""]);
        // The dump's own text is compared whatever the picture.
        let renamed = read_as("Bricks", &[("Play", 1700), ("Settings", 2000)]);
        let changes =
            screen_changes(screen(&then), screen(&renamed), &ignore, Pixels::Same).unwrap();
        assert_eq!(changes.changed.len(), 1, "{changes:?}");
        assert!(changes.changed[0].contains("Bricks"), "{changes:?}");
    }
}

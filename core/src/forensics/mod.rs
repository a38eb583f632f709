//! Stale-action forensics: for one step of a recording, did the agent act on a screen that
//! was no longer there, and what did that do?
//!
//! A step is stale when the version it acted on (`version_used`: its handle's, or that of
//! the screenshot a pixel action measured) is not the latest the runtime held when the call
//! came in (`version_before`). [`review`] finds the old screen in the recording, the
//! element the agent meant on it, and what is at that point on the screen of the moment;
//! the runtime refuses stale handles, but a pixel tap lands wherever the screen now has
//! something. It also says whether the step's screen had not settled.
//!
//! ```
//! use tapscope_core::{forensics, recording};
//!
//! let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../recordings/demo");
//! let recording = recording::read(demo.as_ref())?;
//! // Step 13 tapped with a handle from two screens before (two scrolls moved the list).
//! let stale = forensics::review(&recording, 12)?.stale.unwrap();
//! assert!(stale.refused && stale.screens_ago == 2);
//! assert!(stale.sentence.starts_with(
//!     r#"tap refused: the handle named "45:10 · Every Apollo landing site from o…" from 2 screens ago; that point now shows "9:45"#
//! ));
//! assert_eq!(forensics::review(&recording, 13)?.stale, None);
//! # Ok::<(), tapscope_core::recording::RecordingError>(())
//! ```

pub mod coordinate;
pub(crate) mod screen;

use std::collections::HashSet;

use serde::Serialize;

use crate::geometry::Point;
use crate::handle::Handle;
use crate::model::Rect;
use crate::recording::{Recording, RecordingError, ScreenRef, Step, StepOutcome};

/// What [`review`] found about one step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Review {
    /// The step acted on an old screen; `None` when it acted on the latest or on none.
    pub stale: Option<Stale>,
    /// The step's settle report says the screen had not settled, or the step is an
    /// observation taken after an act that had not settled.
    pub unsettled: bool,
}

/// An action on a screen that was no longer there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stale {
    /// The version the agent acted on.
    pub version_used: String,
    /// The version on screen when the call came in.
    pub version_at_action: String,
    /// How many screen versions came after the one used, up to the one of the moment
    /// (at least 1); 0 when the used version is not in the recording at all.
    pub screens_ago: usize,
    /// The element the agent meant, on the old screen.
    pub meant: Option<Target>,
    /// What is at that point on the screen of the moment; `None` when nothing is, or that
    /// screen is not in the recording.
    pub now_there: Option<Target>,
    /// The display point: the recorded one, else where a tap on `meant` would land.
    pub point: Option<[i32; 2]>,
    /// The runtime refused the call and touched nothing (a stale handle); `false` when the
    /// action happened on the changed screen (a pixel gesture).
    pub refused: bool,
    /// One line for a person, e.g. `tapped where "Send" was 2 screens ago; that point is
    /// now "Delete"`.
    pub sentence: String,
}

/// An element of a screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// As its pruned line names it, cut to 40 characters: `"Send"`, `switch "Wi-Fi"`,
    /// `list #feed`.
    pub label: String,
    /// Its bounds on the display; `None` when it was read off the stored pruned text
    /// because the dump no longer prunes to that text.
    pub bounds: Option<Rect>,
}

/// Reviews step `step_index` (an index into `recording.steps`); an index past the end has
/// nothing to review. A screen file that is missing or damaged is the error; an old screen
/// the recording never stored is a [`Stale`] without `meant`.
pub fn review(recording: &Recording, step_index: usize) -> Result<Review, RecordingError> {
    let Some(step) = recording.steps.get(step_index) else {
        return Ok(Review::default());
    };
    let stale = match (&step.version_used, &step.version_before) {
        _ if step.adb.is_some() => coordinate::review(recording, step_index)?,
        (Some(used), Some(latest)) if used != latest => {
            Some(stale(recording, step_index, used, latest)?)
        }
        _ => None,
    };
    Ok(Review {
        stale,
        unsettled: unsettled(&recording.steps, step_index),
    })
}

fn stale(
    recording: &Recording,
    index: usize,
    used: &str,
    latest: &str,
) -> Result<Stale, RecordingError> {
    let step = &recording.steps[index];
    let earlier = &recording.steps[..index];
    let old = find_screen(earlier, used);
    let current = step
        .before
        .as_ref()
        .filter(|s| s.version == latest)
        .or_else(|| find_screen(earlier, latest));
    let handle: Option<Handle> = step.handle.as_deref().and_then(|h| h.parse().ok());
    let recorded = step.path.first().map(|&[x, y]| Point::new(x, y));

    let (meant, aimed) = match (old, &handle, recorded) {
        (Some(old), Some(handle), _) => screen::by_handle(recording, old, handle.i)?,
        (Some(old), None, Some(point)) => {
            let tree = screen::load_tree(recording, old)?;
            (tree.and_then(|t| screen::at_point(&t, point)), None)
        }
        _ => (None, None),
    };
    let point = recorded.or(aimed);
    let now = match (current, point) {
        (Some(current), Some(point)) => match screen::load_tree(recording, current)? {
            Some(tree) => Now::Known(screen::at_point(&tree, point)),
            None => Now::Unknown,
        },
        (None, Some(_)) => Now::Unknown,
        (_, None) => Now::NoPoint,
    };
    let screens_ago = screens_between(&recording.steps[..=index], used);
    let refused = step.outcome == StepOutcome::Refused;
    let facts = Facts {
        step,
        used,
        old_known: old.is_some(),
        meant: meant.as_ref(),
        now: &now,
        screens_ago,
        refused,
    };
    let sentence = facts.sentence();
    Ok(Stale {
        version_used: used.to_owned(),
        version_at_action: latest.to_owned(),
        screens_ago,
        meant,
        now_there: match now {
            Now::Known(target) => target,
            Now::Unknown | Now::NoPoint => None,
        },
        point: point.map(|p| [p.x, p.y]),
        refused,
        sentence,
    })
}

/// The latest screen of `version` among the steps, after-screens before before-screens.
pub(crate) fn find_screen<'a>(steps: &'a [Step], version: &str) -> Option<&'a ScreenRef> {
    steps.iter().rev().find_map(|step| {
        [&step.after, &step.before]
            .into_iter()
            .flatten()
            .find(|s| s.version == version)
    })
}

/// How many distinct versions the screen went through after the last time it was `used`,
/// up to the last step's `version_before`; 0 when `used` never appears.
pub(crate) fn screens_between(steps: &[Step], used: &str) -> usize {
    let Some((last, earlier)) = steps.split_last() else {
        return 0;
    };
    let mut timeline: Vec<&str> = Vec::new();
    for step in earlier {
        for version in [&step.version_before, &step.version_after]
            .into_iter()
            .flatten()
        {
            if timeline.last() != Some(&version.as_str()) {
                timeline.push(version);
            }
        }
    }
    timeline.extend(last.version_before.as_deref());
    let Some(at) = timeline.iter().rposition(|v| *v == used) else {
        return 0;
    };
    timeline[at + 1..].iter().collect::<HashSet<_>>().len()
}

/// The step's settle report says `"settled": false`, or it is an observation (a screen
/// without a settle report) after an act whose report says so.
fn unsettled(steps: &[Step], index: usize) -> bool {
    let not_settled = |settle: &serde_json::Value| {
        settle.get("settled").and_then(serde_json::Value::as_bool) == Some(false)
    };
    let step = &steps[index];
    match &step.settle {
        Some(settle) => not_settled(settle),
        None if step.after.is_some() => steps[..index]
            .iter()
            .rev()
            .find_map(|s| s.settle.as_ref())
            .is_some_and(not_settled),
        None => false,
    }
}

/// What is at the point on the screen of the moment.
enum Now {
    /// Looked up: the element there, or nothing.
    Known(Option<Target>),
    /// That screen is not in the recording, or its dump does not parse.
    Unknown,
    /// No point: a refused handle whose element could not be placed.
    NoPoint,
}

/// Everything the sentence is made of.
struct Facts<'a> {
    step: &'a Step,
    used: &'a str,
    old_known: bool,
    meant: Option<&'a Target>,
    now: &'a Now,
    screens_ago: usize,
    refused: bool,
}

impl Facts<'_> {
    fn sentence(&self) -> String {
        let ago = match self.screens_ago {
            1 => "1 screen ago".to_owned(),
            n => format!("{n} screens ago"),
        };
        let now = match self.now {
            Now::Known(Some(t)) if self.refused => format!("; that point now shows {}", t.label),
            Now::Known(Some(t)) => format!("; that point is now {}", t.label),
            Now::Known(None) => "; that point is now empty".to_owned(),
            Now::Unknown => "; what that point shows now is not in the recording".to_owned(),
            Now::NoPoint => String::new(),
        };
        let missing = format!("screen {}, which is not in the recording", self.used);
        if self.refused {
            let what = match (self.meant, self.step.handle.as_deref()) {
                (Some(meant), Some(_)) => format!("the handle named {} from {ago}", meant.label),
                (None, Some(handle)) if self.old_known => {
                    format!("the handle {handle} named nothing on the screen from {ago}")
                }
                (None, Some(_)) => format!("the handle names {missing}"),
                (Some(meant), None) => format!("it aimed where {} was {ago}", meant.label),
                (None, None) if self.old_known => format!("it aimed at a screen from {ago}"),
                (None, None) => format!("it aimed at {missing}"),
            };
            let tool = self.step.tool.replace('_', " ");
            format!("{tool} refused: {what}{now}; nothing was touched")
        } else {
            let verb = self.verb();
            let what = match self.meant {
                Some(meant) => format!("{verb} where {meant} was {ago}", meant = meant.label),
                None if self.old_known => format!("{verb} where nothing was {ago}"),
                None => format!("{verb} on {missing}"),
            };
            let failed = if self.step.outcome == StepOutcome::Error {
                "; the call failed"
            } else {
                ""
            };
            format!("{what}{now}{failed}")
        }
    }

    /// What the step did, in the past tense.
    fn verb(&self) -> String {
        let swipe = self.step.path.len() > 1;
        match self.step.tool.as_str() {
            "tap" => "tapped".to_owned(),
            "long_press" => "long-pressed".to_owned(),
            "scroll" => "scrolled".to_owned(),
            "swipe" => "swiped".to_owned(),
            _ if swipe => "swiped".to_owned(),
            _ if !self.step.path.is_empty() => "tapped".to_owned(),
            tool => format!("{} acted", tool.replace('_', " ")),
        }
    }
}

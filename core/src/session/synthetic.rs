//! Long recordings for benchmarks and tests: a seeded random agent drives the simulated
//! phone (on a virtual clock) through its screens, lists and fields, and every call is
//! written through [`RecordingWriter`] as a real session would write it.
//!
//! The calls mix taps, scrolls, swipes across, typing, keys, launches and plain
//! observations; stale and unknown handles are refused by the session as they would be
//! for an agent, and a few dumps that fail are written as errors. Screens are stored
//! through the [`ScreenStore`] a session's journal stores them with: each distinct screen
//! after a call carries a screenshot, downsampled as recordings store them.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use super::{Action, Direction, Observation, Session, SessionConfig};
use crate::device::Key;
use crate::device::sim::Sim;
use crate::handle::Handle;
use crate::model::Flags;
use crate::recording::{
    Durability, Header, RecordingError, RecordingWriter, ScreenRef, ScreenStore, Step, StepOutcome,
};
use crate::stability::{Clock, SettleConfig, VirtualClock};
use crate::tokens::Encoding;

/// When every generated recording started: 2026-12-01T00:00:00Z.
const STARTED_AT_MS: u64 = 1_796_083_200_000;

/// What a generated recording holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    pub steps: u64,
    /// Distinct raw dumps stored.
    pub screens: usize,
    /// The smallest and largest dump, in bytes.
    pub dump_bytes: (usize, usize),
    pub refused: usize,
    pub errors: usize,
}

/// Writes a recording of `steps` calls into `dir` (a new or empty folder). The same seed
/// gives the same calls, screens and versions.
pub fn write(dir: &Path, steps: usize, seed: u64) -> Result<Generated, RecordingError> {
    let clock = VirtualClock::default();
    // Polled half as often as by default: the same screens, half the dumps to generate.
    let settle = SettleConfig {
        poll: Duration::from_millis(100),
        ..SettleConfig::default()
    };
    let config = SessionConfig {
        settle,
        ..SessionConfig::default()
    };
    let session = Session::new(Sim::new(clock.clone(), seed), clock.clone(), config);
    // Generated data: nothing is lost that cannot be generated again.
    let header = Header::new(
        "sim",
        env!("CARGO_PKG_VERSION"),
        Encoding::O200k.name(),
        STARTED_AT_MS,
    )
    .with_durability(Durability::None);
    let writer = RecordingWriter::create(dir, &header)?;
    let mut agent = Agent {
        screens: ScreenStore::counting(writer, Encoding::O200k),
        rng: fastrand::Rng::with_seed(seed),
        dumps: HashMap::new(),
        older: None,
        unchanged: 0,
        summary: Generated::default(),
    };
    let started = clock.now();
    for _ in 0..steps {
        agent.step(&session, started)?;
    }
    let sizes = agent.dumps.values().copied();
    agent.summary.dump_bytes = (sizes.clone().min().unwrap_or(0), sizes.max().unwrap_or(0));
    agent.summary.screens = agent.dumps.len();
    Ok(agent.summary)
}

type Phone = Session<Sim<VirtualClock>, VirtualClock>;

/// One call the agent makes.
enum Call {
    Observe,
    Act(Action, &'static str, serde_json::Value),
    /// A call that reads no screen.
    Answer(&'static str),
    /// A dump that could not be read.
    Fail,
}

struct Agent {
    screens: ScreenStore,
    rng: fastrand::Rng,
    /// The size of each distinct dump stored, by its file.
    dumps: HashMap<String, usize>,
    /// A version before the latest: stale handles are made from it.
    older: Option<String>,
    /// Calls in a row that left the screen as it was: an agent that gets nowhere leaves.
    unchanged: usize,
    summary: Generated,
}

impl Agent {
    fn step(&mut self, session: &Phone, started: Duration) -> Result<(), RecordingError> {
        let latest = session.latest();
        let clock = session.clock();
        let at = clock.now();
        let call = match latest.as_deref() {
            Some(seen) => self.choose(seen),
            None => Call::Observe,
        };
        let mut step = Step {
            at_ms: millis(at.saturating_sub(started)),
            version_before: latest.as_ref().map(|o| o.version.clone()),
            ..Step::default()
        };
        let before = match &latest {
            Some(seen) => Some(self.screen(session, seen, false)?),
            None => None,
        };
        let after = match call {
            Call::Observe => {
                step.tool = "screen_operation_accessibility".into();
                step.arguments = serde_json::json!({});
                let seen = session.observe().ok();
                step.message = "the screen as the agent reads it".into();
                seen
            }
            Call::Answer(tool) => {
                step.tool = tool.into();
                step.arguments = serde_json::json!({});
                step.message = format!("{tool} answered without reading the screen");
                None
            }
            Call::Fail => {
                step.tool = "screen_operation_accessibility".into();
                step.arguments = serde_json::json!({});
                step.outcome = StepOutcome::Error;
                step.message = "the device's dump could not be read: uiautomator dump \
                                returned no hierarchy (ERROR: could not get idle state)"
                    .into();
                None
            }
            Call::Act(action, tool, arguments) => {
                step.tool = tool.into();
                step.arguments = arguments;
                step.handle = handle_of(&action).map(ToString::to_string);
                step.version_used = handle_of(&action).map(|h| h.version.clone());
                match session.act(&action) {
                    Ok(outcome) => {
                        step.acted_on = Some(outcome.acted_on.clone());
                        step.path = outcome.path.iter().map(|p| [p.x, p.y]).collect();
                        step.settle = serde_json::to_value(outcome.settle).ok();
                        step.bottomed_out = outcome.bottomed_out;
                        step.message = format!("acted on: {}", outcome.acted_on);
                        Some(outcome.observation)
                    }
                    Err(error) => {
                        step.outcome = if error.is_refusal() {
                            StepOutcome::Refused
                        } else {
                            StepOutcome::Error
                        };
                        step.message = error.to_string();
                        None
                    }
                }
            }
        };
        match step.outcome {
            StepOutcome::Refused => self.summary.refused += 1,
            StepOutcome::Error => self.summary.errors += 1,
            StepOutcome::Ok => {}
        }
        if let Some(seen) = &after {
            let same = latest.as_ref().is_some_and(|l| l.raw == seen.raw);
            self.unchanged = if same { self.unchanged + 1 } else { 0 };
            step.version_after = Some(seen.version.clone());
            step.after = Some(self.screen(session, seen, true)?);
            self.older = latest.map(|o| o.version.clone());
        }
        step.before = before;
        step.duration_ms = millis(clock.now().saturating_sub(at)) + 40;
        self.summary.steps = self.screens.writer().append(&step)?;
        Ok(())
    }

    /// The next call, weighted like an agent at work: mostly taps, scrolls and typing
    /// where the screen has a list or a field.
    fn choose(&mut self, seen: &Observation) -> Call {
        let actionable = |flags: Flags| -> Vec<usize> {
            let nodes = seen.pruned.nodes.iter();
            nodes
                .filter(|n| n.flags.intersects(flags))
                .filter_map(|n| n.i)
                .collect()
        };
        let handle = |i: usize| Handle {
            version: seen.version.clone(),
            i,
        };
        let tap = |h: Handle| {
            let arguments = serde_json::json!({ "target": h.to_string() });
            Call::Act(Action::Tap(h), "tap", arguments)
        };
        let clickable = actionable(Flags::CLICKABLE | Flags::CHECKABLE);
        let scrollable = actionable(Flags::SCROLLABLE);
        let typing = !actionable(Flags::EDITABLE).is_empty();
        let mut roll = self.rng.u32(..100);
        if self.unchanged >= 2 {
            self.unchanged = 0;
            roll = 70; // back
        }
        let rng = &mut self.rng;
        let mut pick = |list: &[usize]| list.get(rng.usize(..list.len().max(1))).copied();
        let search = seen.handle_where(|n| n.label == "Search videos");
        match (roll, pick(&clickable), pick(&scrollable), search) {
            (0..45, ..) if typing => {
                let word = WORDS[self.rng.usize(..WORDS.len())];
                let arguments = serde_json::json!({ "text": word });
                Call::Act(Action::InputText(word.into()), "input_text", arguments)
            }
            (0..30, _, Some(i), _) => {
                let direction = if self.rng.u8(..3) == 0 {
                    Direction::Up
                } else {
                    Direction::Down
                };
                let arguments = serde_json::json!({
                    "direction": format!("{direction:?}").to_lowercase(),
                    "target": handle(i).to_string(),
                });
                let action = Action::Scroll {
                    target: handle(i),
                    direction,
                };
                Call::Act(action, "scroll", arguments)
            }
            (0..70, Some(i), ..) => tap(handle(i)),
            (70..78, ..) | (0..70, None, ..) => {
                let arguments = serde_json::json!({ "key": "back" });
                Call::Act(Action::Key(Key::Back), "press_key", arguments)
            }
            (78..88, .., Some(search)) => tap(search),
            (78..82, ..) => {
                let package = PACKAGES[self.rng.usize(..PACKAGES.len())];
                let arguments = serde_json::json!({ "package": package });
                Call::Act(Action::Launch(package.into()), "launch_app", arguments)
            }
            (88..93, Some(i), ..) if self.older.is_some() => tap(Handle {
                version: self.older.clone().unwrap_or_default(),
                i,
            }),
            (93..96, ..) => tap(handle(seen.pruned.nodes.len() + 7)),
            (96..98, ..) => Call::Answer(if self.rng.bool() {
                "load_skill"
            } else {
                "list_packages"
            }),
            (98.., ..) => Call::Fail,
            _ => Call::Observe,
        }
    }

    /// Stores `seen` as a session's journal does; one after a call (`with_screenshot`) is
    /// shown too, its screenshot drawn only when it has none yet.
    fn screen(
        &mut self,
        session: &Phone,
        seen: &Observation,
        with_screenshot: bool,
    ) -> Result<ScreenRef, RecordingError> {
        let screen = seen.seen_screen()?;
        let stored = if with_screenshot {
            self.screens.store_shown(&screen, || {
                let shot = seen
                    .fallback
                    .clone()
                    .or_else(|| session.peek_screenshot().ok());
                shot.map(|shot| shot.png)
            })?
        } else {
            self.screens.store(&screen)?
        };
        self.dumps
            .entry(stored.dump.clone())
            .or_insert_with(|| seen.raw.len());
        Ok(stored)
    }
}

fn handle_of(action: &Action) -> Option<&Handle> {
    match action {
        Action::Tap(h) | Action::LongPress(h) => Some(h),
        Action::Scroll { target, .. } | Action::SwipeAcross { target, .. } => Some(target),
        _ => None,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

const WORDS: [&str; 8] = [
    "cello",
    "sourdough",
    "voyager",
    "hand plane",
    "osaka",
    "bridges",
    "cnc",
    "tiny house",
];

const PACKAGES: [&str; 4] = [
    "tv.tapscope.demo",
    "com.android.settings",
    "tv.tapscope.blocks",
    "com.google.android.apps.nexuslauncher",
];

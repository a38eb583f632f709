//! The agent runtime: one device, the pruning rules and the latest snapshot. `observe`
//! reads the screen; `act` checks the handle, acts, waits for the screen to settle and
//! observes again — all under one lock, so two callers never interleave on a device.

pub mod log;
mod observe;
#[cfg(feature = "ocr")]
mod pixels;
#[cfg(any(
    all(test, feature = "sim", feature = "recording", feature = "tokens"),
    feature = "synthetic"
))]
pub mod synthetic;
#[cfg(all(test, feature = "sim"))]
mod tests;
mod unread;

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use serde::Serialize;

pub use observe::{Observation, Screenshot, structure_hash};
pub use unread::Unread;

use observe::Look;

use crate::device::{Capture, DEFAULT_SWIPE, Device, DeviceError, Key};
use crate::geometry::{ImageScale, Point, ScaleError};
use crate::handle::{Handle, HandleError, resolve, tap_point};
use crate::model::{Flags, Rect};
use crate::prune::PruneRules;
use crate::stability::look::{Fallback, LookBackend, LookUsed};
use crate::stability::{Clock, Dumps, SettleConfig, SettleReport, Signals, wait_for_stable};

/// How a session prunes, settles, scrolls and downsamples.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    pub rules: PruneRules,
    pub settle: SettleConfig,
    /// Longest side of the screenshot an observation carries when the tree is empty.
    pub fallback_longest_side: u32,
    /// Where a scroll's swipe starts, as a fraction of the container (away from bottom bars).
    pub scroll_start: f64,
    /// Each action's outcome carries the log written between its call and its settle
    /// (`Outcome::log`): one `logcat -d` more a step, so off unless asked for.
    pub step_logs: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        Self {
            rules: PruneRules::default(),
            settle: SettleConfig::default(),
            fallback_longest_side: 1024,
            scroll_start: 0.7,
            step_logs: false,
        }
    }
}

/// Which way the content should move into view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// What an agent or a person asks the device to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Tap(Handle),
    LongPress(Handle),
    Scroll {
        target: Handle,
        direction: Direction,
    },
    /// A swipe between two display pixels.
    Swipe {
        from: Point,
        to: Point,
        duration: Duration,
    },
    /// A swipe between two pixels of the last screenshot.
    SwipeImage {
        from: Point,
        to: Point,
        duration: Duration,
    },
    /// The finger moves in `direction` across the node (a carousel, a dismissable card).
    SwipeAcross {
        target: Handle,
        direction: Direction,
    },
    InputText(String),
    Key(Key),
    Launch(String),
    /// A tap in the coordinates of the last screenshot.
    TapImage(Point),
}

/// The result of one act-and-observe call.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// What was acted on, in words: the element's label, or the key, text or app.
    pub acted_on: String,
    /// The point tapped, or the path swiped, in display pixels.
    pub path: Vec<Point>,
    pub settle: SettleReport,
    pub observation: Observation,
    /// A scroll that left the screen as the previous scroll did: the list has ended.
    pub bottomed_out: bool,
    /// What the log gained between the call and the settle, every process's, bounded;
    /// with `SessionConfig::step_logs` only.
    #[serde(skip)]
    pub log: Option<Box<crate::logcat::Report>>,
}

/// What a read of the log gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRead {
    pub report: crate::logcat::Report,
    /// The package read, `None` for every process.
    pub package: Option<String>,
}

/// Why a call failed; the session stays usable after every one of them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SessionError {
    #[error(transparent)]
    Handle(#[from] HandleError),
    #[error(transparent)]
    Device(#[from] DeviceError),
    #[error("the device's dump could not be read: {0}")]
    Dump(#[from] crate::Error),
    #[error(transparent)]
    Scale(#[from] ScaleError),
    #[error(
        "there is no current tree (nothing was observed yet, or the last action's screen could \
         not be read): call screen_operation_accessibility first"
    )]
    NotObserved,
    /// The action reached the device, then the screen after it could not be read.
    #[error(
        "{acted_on} was acted on, but the screen after it could not be read: {source}. \
         Handles from before are stale: call screen_operation_accessibility once the screen is \
         still"
    )]
    AfterAction {
        acted_on: String,
        /// What the wait did before it failed.
        settle: Box<SettleReport>,
        source: Box<SessionError>,
    },
    #[error("{0} cannot scroll: scroll a node printed with `scroll`")]
    NotScrollable(String),
    #[error(
        "pixel actions use the coordinates of the last screenshot, and there is none: call \
         screenshot first"
    )]
    NoScreenshot,
    #[error("the screenshot could not be read: {0}")]
    Image(String),
    #[error(
        "the text is {0} characters; one call types at most {MAX_TEXT_CHARS}: split it over \
         several calls"
    )]
    TextTooLong(usize),
}

impl SessionError {
    /// Whether the session refused the call without touching the device (the caller can
    /// correct it), rather than the device or its output failing.
    pub fn is_refusal(&self) -> bool {
        match self {
            SessionError::Handle(_)
            | SessionError::Scale(_)
            | SessionError::NotObserved
            | SessionError::NotScrollable(_)
            | SessionError::NoScreenshot
            | SessionError::TextTooLong(_) => true,
            SessionError::Device(DeviceError::InvalidInput(_)) => true,
            SessionError::Device(_)
            | SessionError::Dump(_)
            | SessionError::Image(_)
            | SessionError::AfterAction { .. } => false,
        }
    }
}

/// The longest text one `InputText` types.
pub const MAX_TEXT_CHARS: usize = 10_000;

/// A device with its runtime state, behind one lock (which a caller that panicked mid-call
/// leaves usable: it leaves nothing half-written worth refusing over).
#[derive(Debug)]
pub struct Session<D, C> {
    state: Mutex<State<D, C>>,
}

#[derive(Debug)]
struct State<D, C> {
    device: D,
    clock: C,
    config: SessionConfig,
    latest: Option<Arc<Observation>>,
    /// How the last screenshot an agent got maps to the display, and the version then.
    screenshot: Option<(ImageScale, Option<String>)>,
    /// The structural hash after the last scroll, to recognise the end of a list.
    last_scroll: Option<u64>,
    /// The agent was told once how to install the engine that reads text in pixels.
    told_no_engine: bool,
    /// The last peeked screenshot and when the observation that was latest then was
    /// dumped: one per observation, not per version (a self-drawn screen keeps its version
    /// while its pixels change).
    peeked: Option<(Duration, Arc<Capture>)>,
    /// What reads a self-drawn screen's text.
    reader: observe::PixelReader,
    /// Where the agent's reads of the log got to.
    agent_log: log::Cursor,
    /// Where the steps' reads of the log got to.
    step_log: log::Cursor,
}

impl<D: Device, C: Clock> Session<D, C> {
    pub fn new(device: D, clock: C, config: SessionConfig) -> Self {
        Self {
            state: Mutex::new(State {
                device,
                clock,
                config,
                latest: None,
                screenshot: None,
                last_scroll: None,
                peeked: None,
                told_no_engine: false,
                reader: observe::PixelReader::default(),
                agent_log: log::Cursor::default(),
                step_log: log::Cursor::default(),
            }),
        }
    }

    /// Reads self-drawn screens' text with `reader` rather than with Tesseract: the sim's
    /// transcript (`Sim::transcript`) for a run that must read the same on every machine,
    /// or a test's stand-in.
    #[cfg(feature = "ocr")]
    pub fn with_text_reader(self, reader: Arc<dyn crate::ocr::TextReader>) -> Self {
        self.state.lock().reader.given = Some(reader);
        self
    }

    /// Runs `f` on the device under the session's lock (no agent call interleaves).
    pub fn with_device<R>(&self, f: impl FnOnce(&mut D) -> R) -> R {
        f(&mut self.state.lock().device)
    }

    /// Reads the screen; its version is what its content gives (the same screen keeps it).
    pub fn observe(&self) -> Result<Observation, SessionError> {
        let mut state = self.state.lock();
        let observation = state.observe()?;
        state.remember(&observation);
        Ok(observation)
    }

    /// What the log holds for `query`: the app in front is the latest observation's (the
    /// whole log's when nothing was observed); each read since the last starts where it
    /// ended.
    pub fn logcat(&self, query: &log::LogQuery) -> Result<LogRead, SessionError> {
        let mut state = self.state.lock();
        let State {
            device,
            latest,
            agent_log,
            ..
        } = &mut *state;
        let front = latest.as_ref().map_or("", |o| o.tree.app.as_str());
        let query = match (&query.scope, front) {
            (log::LogScope::Front, "") => log::LogQuery {
                scope: log::LogScope::All,
                ..query.clone()
            },
            _ => query.clone(),
        };
        let (report, package) = log::read(device, &query, front, agent_log)?;
        Ok(LogRead { report, package })
    }

    /// The session's clock (clones share its time).
    pub fn clock(&self) -> C
    where
        C: Clone,
    {
        self.state.lock().clock.clone()
    }

    /// The latest observation: the only one whose handles are accepted.
    pub fn latest(&self) -> Option<Arc<Observation>> {
        self.state.lock().latest.clone()
    }

    /// The version that was latest when the last screenshot was taken: what a pixel
    /// action's coordinates refer to.
    pub fn screenshot_version(&self) -> Option<String> {
        self.state
            .lock()
            .screenshot
            .as_ref()
            .and_then(|(_, v)| v.clone())
    }

    /// A downsampled screenshot of the whole display; pixel actions use its coordinates
    /// from now on.
    pub fn screenshot(&self) -> Result<Screenshot, SessionError> {
        let mut state = self.state.lock();
        let longest_side = state.config.fallback_longest_side;
        let capture = state.device.capture(longest_side)?;
        let shot = Screenshot::of(&capture, None, state.config.fallback_longest_side)?;
        let version = state.latest.as_ref().map(|o| o.version.clone());
        state.screenshot = Some((shot.scale(), version));
        Ok(shot)
    }

    /// The screen as the device captured it, leaving pixel actions on the agent's last
    /// screenshot: for recordings and viewers, who downsample it off the session's lock
    /// ([`Screenshot::of`]). Taken once per observation, so a recording and a viewer of the
    /// same moment share it (one screencap, not two).
    pub fn peek_capture(&self) -> Result<Arc<Capture>, SessionError> {
        let mut state = self.state.lock();
        let moment = state.latest.as_ref().map(|o| o.dumped_at);
        if let Some((seen, capture)) = &state.peeked
            && moment == Some(*seen)
        {
            return Ok(Arc::clone(capture));
        }
        let longest_side = state.config.fallback_longest_side;
        let capture = Arc::new(state.device.capture(longest_side)?);
        state.peeked = moment.map(|at| (at, Arc::clone(&capture)));
        Ok(capture)
    }

    /// [`Session::peek_capture`], downsampled as observations' screenshots are.
    pub fn peek_screenshot(&self) -> Result<Screenshot, SessionError> {
        let capture = self.peek_capture()?;
        Screenshot::of(
            &capture,
            None,
            self.state.lock().config.fallback_longest_side,
        )
    }

    /// Checks the action against the latest snapshot (a stale handle is refused without
    /// touching the device), performs it, waits for the screen to settle, and observes.
    pub fn act(&self, action: &Action) -> Result<Outcome, SessionError> {
        let mut state = self.state.lock();
        let Plan { acted_on, gesture } = state.plan(action)?;
        state.warm_up_reader();
        state.start_step_log();
        let path = gesture.path();
        let started = state.clock.now();
        state.perform(&gesture)?;
        let State {
            device,
            clock,
            config,
            ..
        } = &mut *state;
        let waited = wait_for_stable(
            clock,
            &mut DeviceSignals { device },
            &config.settle,
            started,
        );
        let looked = match waited {
            Ok(waited) => match state.observe_look(waited.look, waited.looked_at) {
                Ok(mut observation) => {
                    observation.look = waited.report.look;
                    Ok((waited.report, observation))
                }
                Err(error) => Err((waited.report, error)),
            },
            Err(failed) => Err((failed.report, failed.error)),
        };
        let (settle, observation) = match looked {
            Ok(looked) => looked,
            Err((settle, error)) => {
                // The screen moved on from the latest snapshot: its handles must not act.
                state.latest = None;
                state.last_scroll = None;
                return Err(SessionError::AfterAction {
                    acted_on,
                    settle: Box::new(settle),
                    source: Box::new(error),
                });
            }
        };
        let bottomed_out = match action {
            Action::Scroll { .. } => {
                let hash = structure_hash(&observation.tree);
                let ended = state.last_scroll == Some(hash);
                state.last_scroll = Some(hash);
                ended
            }
            _ => {
                state.last_scroll = None;
                false
            }
        };
        state.remember(&observation);
        let log = state.step_log();
        Ok(Outcome {
            acted_on,
            path,
            settle,
            observation,
            bottomed_out,
            log,
        })
    }
}

impl<D: Device, C: Clock> State<D, C> {
    fn observe(&mut self) -> Result<Observation, SessionError> {
        self.warm_up_reader();
        let dumped_at = self.clock.now();
        let look = Look::take(&mut self.device, None)?;
        let used = LookUsed {
            backend: self.device.look_backend(),
            cost: self.clock.now().saturating_sub(dumped_at),
            fell_back: self.device.take_fallback(),
        };
        let mut observation = self.observe_look(look, dumped_at)?;
        observation.look = Some(used);
        Ok(observation)
    }

    /// Before an action with step logs on: where the log ends, unless a step read it. A
    /// log that cannot be read is said by the read after the action.
    fn start_step_log(&mut self) {
        if self.config.step_logs && self.step_log.at().is_none() {
            let _ = log::mark_end(&mut self.device, &mut self.step_log);
        }
    }

    /// After an action with step logs on: what every process logged since the last step
    /// (or, the first time, since the call), bounded.
    fn step_log(&mut self) -> Option<Box<crate::logcat::Report>> {
        self.config
            .step_logs
            .then(|| Box::new(log::step_report(&mut self.device, &mut self.step_log)))
    }

    /// Looks for the readers of pixels while the device dumps (once a process): on a phone
    /// the dump's second hides loading them.
    fn warm_up_reader(&self) {
        #[cfg(feature = "ocr")]
        if self.config.rules.ocr && self.reader.given.is_none() {
            pixels::warm_up();
        }
    }

    /// The observation of a dump already read.
    fn observe_look(
        &mut self,
        look: Look,
        dumped_at: Duration,
    ) -> Result<Observation, SessionError> {
        let mut observation = observe::observe(
            &mut self.device,
            &self.clock,
            &self.config,
            &self.reader,
            look,
            dumped_at,
        )?;
        // How to install the engine is said once; a screen with no text, each time.
        if let Some(Unread::NoEngine(_)) = observation.pixel_note {
            if self.told_no_engine {
                observation.pixel_note = None;
            }
            self.told_no_engine = true;
        }
        Ok(observation)
    }

    fn remember(&mut self, observation: &Observation) {
        if let Some(shot) = &observation.fallback {
            self.screenshot = Some((shot.scale(), Some(observation.version.clone())));
        }
        self.latest = Some(Arc::new(observation.clone()));
    }

    fn image_scale(&self) -> Result<ImageScale, SessionError> {
        self.screenshot
            .as_ref()
            .map(|(scale, _)| *scale)
            .ok_or(SessionError::NoScreenshot)
    }

    /// What the action targets and what it does on the device, from the latest snapshot
    /// only.
    fn plan<'a>(&self, action: &'a Action) -> Result<Plan<'a>, SessionError> {
        let latest = || self.latest.as_ref().ok_or(SessionError::NotObserved);
        let plan = |acted_on: String, gesture| Plan { acted_on, gesture };
        Ok(match action {
            Action::Tap(handle) | Action::LongPress(handle) => {
                let latest = latest()?;
                let node = resolve(&latest.pruned, handle)?;
                let at = tap_point(&latest.tree, &latest.pruned, node);
                let gesture = match action {
                    Action::LongPress(_) => Gesture::LongPress(at),
                    _ => Gesture::Tap(at),
                };
                plan(node.name().acted_on(), gesture)
            }
            Action::Scroll { target, direction } => {
                let latest = latest()?;
                let node = resolve(&latest.pruned, target)?;
                if !latest.tree.nodes[node.raw].has(Flags::SCROLLABLE) {
                    return Err(SessionError::NotScrollable(node.name().acted_on()));
                }
                let (from, to) = scroll_path(&node.shown(), *direction, self.config.scroll_start);
                plan(node.name().acted_on(), Gesture::scroll(from, to))
            }
            Action::SwipeAcross { target, direction } => {
                let node = resolve(&latest()?.pruned, target)?;
                // Content scrolled one way is a finger moving the other way.
                let content = match direction {
                    Direction::Up => Direction::Down,
                    Direction::Down => Direction::Up,
                    Direction::Left => Direction::Right,
                    Direction::Right => Direction::Left,
                };
                let (from, to) = scroll_path(&node.shown(), content, self.config.scroll_start);
                plan(node.name().acted_on(), Gesture::scroll(from, to))
            }
            Action::Swipe { from, to, duration } => plan(
                "a swipe".into(),
                Gesture::Swipe {
                    from: *from,
                    to: *to,
                    duration: *duration,
                },
            ),
            Action::SwipeImage { from, to, duration } => {
                let scale = self.image_scale()?;
                plan(
                    "a swipe on the screenshot".into(),
                    Gesture::Swipe {
                        from: scale.image_to_display(*from)?,
                        to: scale.image_to_display(*to)?,
                        duration: *duration,
                    },
                )
            }
            Action::InputText(text) if text.chars().count() > MAX_TEXT_CHARS => {
                return Err(SessionError::TextTooLong(text.chars().count()));
            }
            Action::InputText(text) => plan(
                format!("text {:?} into the focused field", shorten(text)),
                Gesture::Type(text),
            ),
            Action::Key(key) => plan(format!("the {} key", key.name()), Gesture::Key(*key)),
            Action::Launch(package) => plan(format!("the app {package}"), Gesture::Launch(package)),
            Action::TapImage(point) => plan(
                "a point of the screenshot".into(),
                Gesture::Tap(self.image_scale()?.image_to_display(*point)?),
            ),
        })
    }

    fn perform(&mut self, gesture: &Gesture<'_>) -> Result<(), SessionError> {
        let device = &mut self.device;
        match *gesture {
            Gesture::Tap(at) => device.tap(at)?,
            Gesture::LongPress(at) => device.long_press(at, LONG_PRESS)?,
            Gesture::Swipe { from, to, duration } => device.swipe(from, to, duration)?,
            Gesture::Type(text) => device.input_text(text)?,
            Gesture::Key(key) => device.key(key)?,
            Gesture::Launch(package) => device.launch(package)?,
        }
        Ok(())
    }
}

/// How long a long press holds.
const LONG_PRESS: Duration = Duration::from_millis(800);

/// An action checked against the latest snapshot: what it acts on, in words, and what it
/// does on the device.
#[derive(Debug)]
struct Plan<'a> {
    acted_on: String,
    gesture: Gesture<'a>,
}

/// One thing done on the device, in display pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gesture<'a> {
    Tap(Point),
    LongPress(Point),
    Swipe {
        from: Point,
        to: Point,
        duration: Duration,
    },
    Type(&'a str),
    Key(Key),
    Launch(&'a str),
}

impl Gesture<'_> {
    fn scroll(from: Point, to: Point) -> Self {
        Gesture::Swipe {
            from,
            to,
            // A scroll swipes as `input swipe` does by default.
            duration: DEFAULT_SWIPE,
        }
    }

    /// The point tapped, or the path swiped; nothing for keys, text and launches.
    fn path(&self) -> Vec<Point> {
        match *self {
            Gesture::Tap(at) | Gesture::LongPress(at) => vec![at],
            Gesture::Swipe { from, to, .. } => vec![from, to],
            Gesture::Type(_) | Gesture::Key(_) | Gesture::Launch(_) => Vec::new(),
        }
    }
}

/// The swipe that scrolls `area` in `direction`, starting at `start` of its extent.
fn scroll_path(area: &Rect, direction: Direction, start: f64) -> (Point, Point) {
    let (cx, cy) = area.center();
    let along = |from: i32, extent: i32, fraction: f64| {
        from + (f64::from(extent) * fraction).round() as i32
    };
    let (w, h) = (area.width(), area.height());
    let (a, b) = (start, 1.0 - start);
    let (from, to) = match direction {
        Direction::Down => ((cx, along(area.top, h, a)), (cx, along(area.top, h, b))),
        Direction::Up => ((cx, along(area.top, h, b)), (cx, along(area.top, h, a))),
        Direction::Right => ((along(area.left, w, a), cy), (along(area.left, w, b), cy)),
        Direction::Left => ((along(area.left, w, b), cy), (along(area.left, w, a), cy)),
    };
    (Point::new(from.0, from.1), Point::new(to.0, to.1))
}

fn shorten(text: &str) -> String {
    crate::prune::truncate(text, 40)
}

/// The device as the settle loop reads it.
struct DeviceSignals<'a, D> {
    device: &'a mut D,
}

impl<D: Device> Signals for DeviceSignals<'_, D> {
    type Error = SessionError;
    type Look = Look;

    fn dumps(&self) -> Dumps {
        self.device.dumps()
    }

    fn look(&mut self, limit: Duration) -> Result<(u64, Look), SessionError> {
        let look = Look::take(self.device, Some(limit))?;
        Ok((structure_hash(&look.tree), look))
    }

    fn last_event_at(&mut self) -> Option<Duration> {
        self.device.last_event_at()
    }

    fn backend(&self) -> LookBackend {
        self.device.look_backend()
    }

    fn take_fallback(&mut self) -> Option<Fallback> {
        self.device.take_fallback()
    }
}

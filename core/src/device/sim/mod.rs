//! The simulated phone: a small app of this project's own, driven through [`Device`] with no phone attached.
//!
//! Screens come from `assets/sim/` (see `sim::screen`). Every action changes the state at
//! once and starts an animation on the clock; until it ends, [`Device::dump`] shows the
//! in-between frame (the new screen sliding in, a list part-way through its scroll) and
//! accessibility events arrive at its start and every 100 ms until its end. What the
//! system writes meanwhile (activity starts, injected input) goes to its [`log`], as a
//! phone's logd keeps it, for `logcat` to read.

mod app_log;
mod apps;
pub mod costs;
mod draw;
mod encode;
mod input;
pub mod log;
mod next;
pub mod phone;
mod screen;
pub mod shell;
#[cfg(feature = "measure")]
pub mod specimen;
mod stock_dump;
mod syslog;
mod u2;
mod view;

#[cfg(test)]
mod tests;

use std::time::Duration;

use crate::device::{Capture, Device, DeviceError, Display, Key};
use crate::geometry::Point;
use crate::model::{Flags, Size};
use crate::stability::Clock;

pub use next::Build;
use screen::Screen;
use syslog::{Arrival, Input, Procs};
pub use syslog::{SYSTEM_SERVER, Writer, app_ids};
use view::{ItemState, Placement, Shown, Win};

/// Longest text [`Device::input_text`] takes at once.
pub const MAX_INPUT_CHARS: usize = 10_000;
/// Events arrive this often while an animation runs.
const EVENT_EVERY: Duration = Duration::from_millis(100);
/// Longest gesture accepted; a longer one is surely a mistake in the caller.
const MAX_GESTURE: Duration = Duration::from_secs(60);
/// How long a list keeps moving after the finger lifts.
const FLING: Duration = Duration::from_millis(300);
const DISPLAY: Size = Size {
    width: 1080,
    height: 2400,
};

/// One accessibility event the simulated app raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// On the sim's clock.
    pub at: Duration,
    pub kind: EventKind,
    pub package: String,
}

/// The accessibility event types the simulated app raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventKind {
    WindowStateChanged,
    WindowContentChanged,
    ViewScrolled,
}

impl EventKind {
    /// The name Android's `AccessibilityEvent.toString()` prints.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::WindowStateChanged => "TYPE_WINDOW_STATE_CHANGED",
            EventKind::WindowContentChanged => "TYPE_WINDOW_CONTENT_CHANGED",
            EventKind::ViewScrolled => "TYPE_VIEW_SCROLLED",
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum AnimKind {
    /// The new screen slides in from the right (forward) or the left (back).
    Slide { forward: bool },
    /// A list moves from `from` to its current scroll.
    Scroll { item: usize, from: i32 },
    /// Nothing moves, but the app reports the change (a toggle, a typed letter).
    Still,
}

#[derive(Clone, Copy, Debug)]
struct Anim {
    start: Duration,
    end: Duration,
    kind: AnimKind,
}

/// The simulated phone on clock `C`: [`crate::stability::VirtualClock`] in tests,
/// [`crate::stability::RealClock`] in the app. The same seed gives the same phone.
#[derive(Debug)]
pub struct Sim<C> {
    clock: C,
    build: Build,
    screens: Vec<Screen>,
    /// Per screen, per item: what the user changed.
    states: Vec<Vec<ItemState>>,
    current: usize,
    /// When the current screen was entered, on the clock.
    entered: Duration,
    history: Vec<usize>,
    anim: Option<Anim>,
    status_clock: String,
    battery: u8,
    ticker_base: u64,
    /// Replaces every animation's authored length (benchmarks sweep lengths with it).
    animation_length: Option<Duration>,
    /// What the system and the apps wrote (`logcat` reads it).
    log: log::Log,
    procs: Procs,
    /// Where each capture files the words it drew, once asked for ([`Sim::transcript`]).
    #[cfg(feature = "ocr")]
    transcript: Option<crate::ocr::Transcript>,
}

impl<C: Clock + Clone + Send> Sim<C> {
    /// A phone on its home screen at the clock's current time, running the current build.
    pub fn new(clock: C, seed: u64) -> Self {
        Self::with_build(clock, seed, Build::Current)
    }

    /// A reader of this phone's screenshots that knows their words: from now on each
    /// capture files the words it drew, with their ink boxes, in the transcript returned
    /// (shared with its clones), which reads them back for those pixels. Exact and the same
    /// on every machine, with or without Tesseract: what the demo reads its game with.
    #[cfg(feature = "ocr")]
    pub fn transcript(&mut self) -> crate::ocr::Transcript {
        self.transcript.get_or_insert_with(Default::default).clone()
    }

    /// [`Sim::new`] running `build` of the app; the same seed draws the same figures in both.
    pub fn with_build(clock: C, seed: u64, build: Build) -> Self {
        let mut rng = fastrand::Rng::with_seed(seed);
        let screens = build
            .screens(&mut rng)
            .unwrap_or_else(|e| vec![screen::broken(&e)]);
        let states = screens
            .iter()
            .map(|s| s.items.iter().map(ItemState::initial).collect())
            .collect();
        let mut sim = Self {
            entered: clock.now(),
            clock,
            build,
            screens,
            states,
            current: 0,
            history: Vec::new(),
            anim: None,
            status_clock: format!("{:02}:{:02}", rng.u8(7..=22), rng.u8(0..60)),
            battery: rng.u8(20..=100),
            ticker_base: rng.u64(1_000..50_000),
            animation_length: None,
            log: log::Log::default(),
            procs: Procs::default(),
            #[cfg(feature = "ocr")]
            transcript: None,
        };
        sim.log_boot();
        sim
    }

    /// Which build of the app the phone runs.
    pub fn build(&self) -> Build {
        self.build
    }

    /// Makes every animation last `length` instead of its authored length (`None`: as authored).
    pub fn set_animation_length(&mut self, length: Option<Duration>) {
        self.animation_length = length;
    }

    /// When the running animation ends, if one is running.
    pub fn animation_end(&self) -> Option<Duration> {
        self.anim.map(|a| a.end)
    }

    /// The latest accessibility event, if any came yet: an animation raises one at its
    /// start, every 100 ms while it runs and at its end; a ticker one at every tick.
    pub fn last_event(&self) -> Option<Event> {
        let now = self.clock.now();
        let package = self.screen().map_or("", |s| s.package.as_str()).to_owned();
        let animated = self.anim.map(|a| Event {
            at: if now >= a.end {
                a.end
            } else {
                floor_to(now, a.start, EVENT_EVERY)
            },
            kind: match a.kind {
                AnimKind::Slide { .. } => EventKind::WindowStateChanged,
                AnimKind::Scroll { .. } => EventKind::ViewScrolled,
                AnimKind::Still => EventKind::WindowContentChanged,
            },
            package: package.clone(),
        });
        let ticked = self
            .screen()
            .and_then(|s| s.ticker.as_ref())
            .filter(|t| t.node.is_some())
            .map(|t| Event {
                at: floor_to(now, Duration::ZERO, Duration::from_millis(t.every_ms)),
                kind: EventKind::WindowContentChanged,
                package,
            });
        match (animated, ticked) {
            (Some(a), Some(t)) => Some(if t.at > a.at { t } else { a }),
            (a, t) => a.or(t),
        }
    }

    /// Every window shown now (the app's, the status bar, the keyboard) and every node, as
    /// uiautomator XML: tapscope's own view. A stock dump writes [`Sim::stock_xml`].
    pub fn xml(&self) -> String {
        encode::xml(&self.frame(false).0, 0)
    }

    /// What a dump will show once the running animation has ended (now, if none runs).
    pub fn settled_xml(&self) -> String {
        encode::xml(&self.frame(true).0, 0)
    }

    /// The package of the app on screen.
    pub fn package(&self) -> &str {
        self.screen().map_or("", |s| s.package.as_str())
    }

    /// The name of the screen shown (the file name under `assets/sim/`).
    pub fn screen_name(&self) -> &str {
        self.screens
            .get(self.current)
            .map_or("", |s| s.name.as_str())
    }

    fn screen(&self) -> Option<&Screen> {
        self.screens.get(self.current)
    }

    fn start(&mut self, kind: AnimKind, length: Duration) {
        let length = self.animation_length.unwrap_or(length);
        let start = self.clock.now();
        self.anim = Some(Anim {
            start,
            end: start.saturating_add(length),
            kind,
        });
    }

    /// How far the running animation is, in [0, 1); `None` once it has ended.
    fn progress(&self) -> Option<(Anim, f64)> {
        let anim = self.anim?;
        let now = self.clock.now();
        if now >= anim.end {
            return None;
        }
        let total = (anim.end - anim.start).as_secs_f64();
        Some((anim, (now.saturating_sub(anim.start)).as_secs_f64() / total))
    }

    /// Everything on screen, settled or as the animation has it now, and how the app
    /// window is placed.
    fn frame(&self, settled: bool) -> (Vec<Shown>, Placement) {
        let Some(screen) = self.screen() else {
            return (Vec::new(), Placement::default());
        };
        let mut at = Placement {
            tick: screen.ticker.as_ref().map(|t| {
                let every = u128::from(t.every_ms.max(1));
                let (base, since) = match t.start {
                    Some(start) => (start, self.entered),
                    None => (self.ticker_base, Duration::ZERO),
                };
                let ticks = self.clock.now().saturating_sub(since).as_millis() / every;
                let ticks = u64::try_from(ticks).unwrap_or(u64::MAX);
                base.saturating_add(ticks.saturating_mul(t.step))
            }),
            ..Placement::default()
        };
        if let Some((anim, p)) = self.progress().filter(|_| !settled) {
            match anim.kind {
                AnimKind::Slide { forward } => {
                    let left = (f64::from(DISPLAY.width) * (1.0 - p)) as i32;
                    at.shift_x = if forward { left } else { -left };
                }
                AnimKind::Scroll { item, from } => {
                    let to = self.state(item).map_or(from, |s| s.scroll);
                    let y = f64::from(from) + f64::from(to - from) * p;
                    at.scroll = Some((item, y as i32));
                }
                AnimKind::Still => {}
            }
        }
        let state = self.states.get(self.current).map_or(&[][..], Vec::as_slice);
        let mut nodes = view::app_nodes(screen, state, at, DISPLAY);
        nodes.extend(view::status_bar(
            &self.status_clock,
            self.battery,
            DISPLAY.width,
        ));
        if screen.keyboard {
            nodes.extend(view::keyboard(DISPLAY.width, DISPLAY.height));
        }
        (nodes, at)
    }

    fn state(&self, item: usize) -> Option<&ItemState> {
        self.states.get(self.current)?.get(item)
    }

    fn state_mut(&mut self, item: usize) -> Option<&mut ItemState> {
        self.states.get_mut(self.current)?.get_mut(item)
    }
}

impl<C: Clock + Clone + Send> Device for Sim<C> {
    fn name(&self) -> String {
        self.build.name().into()
    }

    fn dump(&mut self) -> Result<String, DeviceError> {
        Ok(self.xml())
    }

    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        let pixels = self.draw(1.0)?;
        encode::png(&pixels).map_err(screenshot_failed)
    }

    /// The pixels alone, drawn no larger than asked: whoever needs a PNG encodes it, off
    /// the session's lock.
    fn capture(&mut self, longest_side: u32) -> Result<Capture, DeviceError> {
        let longest = DISPLAY.width.max(DISPLAY.height);
        let scale = (f64::from(longest_side) / f64::from(longest)).min(1.0);
        Ok(Capture::Pixels {
            pixels: self.draw_filed(scale)?,
            display: DISPLAY,
        })
    }

    fn display(&mut self) -> Result<Display, DeviceError> {
        Ok(Display {
            size: DISPLAY,
            rotation: 0,
        })
    }

    fn tap(&mut self, at: Point) -> Result<(), DeviceError> {
        self.check_point(at)?;
        let wanted = Flags::CLICKABLE | Flags::CHECKABLE | Flags::EDITABLE;
        let node = self.hit(at, wanted);
        let to_keyboard = node.as_ref().is_some_and(|n| n.window == Win::Keyboard);
        self.log_input(Input::Tap(at), to_keyboard);
        let Some(node) = node else {
            if let Some(on) = self.transition_at(at) {
                self.apply(&on);
            }
            return Ok(());
        };
        if node.window == Win::Keyboard {
            return self.press_key_node(&node.desc);
        }
        let Some(item) = node.item else {
            return Ok(());
        };
        let id = self
            .screen()
            .and_then(|s| s.items.get(item))
            .map(|i| i.id.clone())
            .unwrap_or_default();
        if let Some(on) = self.transition(Some(&id), None) {
            self.apply(&on);
        } else if node.flags.contains(Flags::CHECKABLE) {
            if let Some(state) = self.state_mut(item) {
                state.checked = !state.checked;
            }
            self.start(AnimKind::Still, Duration::from_millis(150));
        } else if node.flags.contains(Flags::EDITABLE) {
            if let Some(states) = self.states.get_mut(self.current) {
                for (i, state) in states.iter_mut().enumerate() {
                    state.focused = i == item;
                }
            }
            self.start(AnimKind::Still, Duration::ZERO);
        } else {
            // A click the app ignores still raises a click event.
            self.start(AnimKind::Still, Duration::ZERO);
        }
        Ok(())
    }

    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError> {
        self.check_point(at)?;
        self.check_gesture(duration)?;
        self.log_input(Input::LongPress(at, duration), false);
        self.clock.sleep(duration);
        if self.hit(at, Flags::LONG_CLICKABLE).is_some() {
            self.start(AnimKind::Still, Duration::ZERO);
        }
        Ok(())
    }

    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError> {
        self.check_point(from)?;
        self.check_point(to)?;
        self.check_gesture(duration)?;
        self.log_input(Input::Swipe(from, to, duration), false);
        self.clock.sleep(duration);
        let Some(item) = self.hit(from, Flags::SCROLLABLE).and_then(|n| n.item) else {
            return Ok(());
        };
        let old = self.state(item).map_or(0, |s| s.scroll);
        // A finger moving up moves the content up: the scroll grows.
        let new = (old - (to.y - from.y)).clamp(0, self.max_scroll(item));
        if new != old {
            if let Some(state) = self.state_mut(item) {
                state.scroll = new;
            }
            self.start(AnimKind::Scroll { item, from: old }, FLING);
        }
        Ok(())
    }

    fn input_text(&mut self, text: &str) -> Result<(), DeviceError> {
        let chars = text.chars().count();
        if chars == 0 {
            return Err(DeviceError::InvalidInput(
                "input_text got empty text: give at least one character".into(),
            ));
        }
        if chars > MAX_INPUT_CHARS {
            return Err(DeviceError::InvalidInput(format!(
                "input_text got {chars} characters, over the limit of {MAX_INPUT_CHARS}: send it in parts"
            )));
        }
        self.log_input(Input::Text(chars), false);
        self.type_text(text);
        Ok(())
    }

    fn key(&mut self, key: Key) -> Result<(), DeviceError> {
        self.log_input(Input::Key(key), false);
        self.press(key);
        Ok(())
    }

    fn last_event_at(&mut self) -> Option<Duration> {
        self.last_event().map(|event| event.at)
    }

    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        let mut names: Vec<String> = self
            .screens
            .iter()
            .filter(|s| s.entry)
            .map(|s| s.package.clone())
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    fn launch(&mut self, package: &str) -> Result<(), DeviceError> {
        let Some(to) = self
            .screens
            .iter()
            .position(|s| s.entry && s.package == package)
        else {
            let known = self.packages()?.join(", ");
            return Err(DeviceError::InvalidInput(format!(
                "no package {package:?} on the simulated phone; installed: {known}"
            )));
        };
        self.history = if to == 0 { Vec::new() } else { vec![0] };
        self.go(to, Arrival::Launched, Duration::from_millis(600));
        Ok(())
    }

    fn logcat(&mut self, request: &crate::logcat::LogRequest) -> Result<String, DeviceError> {
        self.logcat_text(request).map_err(|e| DeviceError::NoLog {
            device: self.name(),
            why: format!("logcat: {e}"),
        })
    }

    fn pid_of(&mut self, package: &str) -> Result<Option<u32>, DeviceError> {
        Ok(self.running_pid(package))
    }
}

impl<C: Clock + Clone + Send> Sim<C> {
    /// What is shown, drawn at `scale` of the display.
    fn draw(&self, scale: f64) -> Result<image::RgbImage, DeviceError> {
        self.draw_words(scale, false).map(|(pixels, _)| pixels)
    }

    /// [`Sim::draw`], its words filed in the transcript when one was asked for.
    fn draw_filed(&self, scale: f64) -> Result<image::RgbImage, DeviceError> {
        #[cfg(feature = "ocr")]
        if let Some(transcript) = &self.transcript {
            let (pixels, words) = self.draw_words(scale, true)?;
            transcript.file(&pixels, &words);
            return Ok(pixels);
        }
        self.draw(scale)
    }

    /// [`Sim::draw`], with each word drawn and its ink box (image pixels) when `keep_words`.
    fn draw_words(
        &self,
        scale: f64,
        keep_words: bool,
    ) -> Result<(image::RgbImage, Vec<(String, crate::model::Rect)>), DeviceError> {
        let (nodes, at) = self.frame(false);
        let scene = draw::Scene {
            nodes: &nodes,
            paint: self.screen().map_or(&[][..], |s| s.paint.as_slice()),
            shift_x: at.shift_x,
            tick: at.tick,
        };
        draw::pixels(&scene, DISPLAY, scale, keep_words).map_err(screenshot_failed)
    }

    /// Shows screen `to` from now on.
    fn enter(&mut self, to: usize) {
        self.current = to;
        self.entered = self.clock.now();
    }

    /// Slides screen `to` in over `length`, and logs what the system writes as it does.
    fn go(&mut self, to: usize, how: Arrival, length: Duration) {
        let from = self.current;
        self.enter(to);
        let forward = how.forward();
        self.start(AnimKind::Slide { forward }, length);
        self.log_arrival(from, how);
    }

    /// A key as the app takes it, once injected.
    fn press(&mut self, key: Key) {
        if let Some(on) = self.transition(None, Some(key.name())) {
            self.apply(&on);
            return;
        }
        match key {
            Key::Back => self.back(Duration::from_millis(300)),
            Key::Home if self.current != 0 => {
                self.history.clear();
                self.go(0, Arrival::Home, Duration::from_millis(400));
            }
            Key::Delete => self.edit(|field| {
                field.pop();
            }),
            _ => {}
        }
    }

    /// Text as the focused field takes it, once injected.
    fn type_text(&mut self, text: &str) {
        self.edit(|field| field.push_str(text));
    }
}

fn screenshot_failed(output: String) -> DeviceError {
    DeviceError::Command {
        command: "sim screenshot".into(),
        output,
    }
}

/// The latest `since + k·step` (k ≥ 0) not after `now`: when the last periodic event fired.
fn floor_to(now: Duration, since: Duration, step: Duration) -> Duration {
    let step = step.as_nanos().max(1);
    let past = now.saturating_sub(since).as_nanos();
    let back = u64::try_from(past % step).unwrap_or(0);
    now.saturating_sub(Duration::from_nanos(back))
}

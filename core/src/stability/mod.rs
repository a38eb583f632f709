//! `wait_for_stable`: after an action, wait until the screen has settled, or give up at a ceiling.
//!
//! A look (a dump) is the expensive signal: on a phone one costs about 2 s. The wait knows
//! what a dump of the device promises ([`Dumps`]) and spends the fewest that never return
//! a screen mid-transition; the tree it returns is the last one it read. The wait is
//! generic over a [`Clock`] and its [`Signals`], so tests drive it with a [`VirtualClock`]
//! and scripted signals.
//!
//! Every duration in a serialized [`SettleConfig`] or [`SettleReport`] is a whole number of
//! milliseconds (rounded down) in a field whose name ends in `_ms`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

mod idle;
pub mod look;
mod poll;
#[cfg(test)]
mod tests;

/// A source of time for the wait.
pub trait Clock {
    /// Time since an arbitrary, fixed origin.
    fn now(&self) -> Duration;
    fn sleep(&mut self, d: Duration);
}

/// The wall clock: [`Instant`] and [`std::thread::sleep`].
#[derive(Clone, Copy, Debug)]
pub struct RealClock {
    origin: Instant,
}

impl RealClock {
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for RealClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for RealClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A clock whose time starts at zero and advances only by [`Clock::sleep`].
///
/// Clones share one time, so a scripted device can read the clock the wait advances.
#[derive(Clone, Debug, Default)]
pub struct VirtualClock {
    nanos: Arc<AtomicU64>,
}

impl VirtualClock {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }

    fn sleep(&mut self, d: Duration) {
        let add = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        // Saturates rather than wraps: time never runs backwards.
        let _ = self
            .nanos
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                Some(n.saturating_add(add))
            });
    }
}

/// What one dump promises about the moment it shows, as the device knows it: the wait
/// plans its dumps by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dumps {
    /// A dump shows the screen at the moment it is read (the sim; helpers on the device).
    Snapshot,
    /// A dump first waits until no accessibility event has come for `quiet`, then reads the
    /// screen, and fails when that never happens (stock `uiautomator dump`: 1 s). It begins
    /// watching `watches_after` into its call (its own process start).
    AfterIdle {
        quiet: Duration,
        watches_after: Duration,
    },
}

/// What the wait observes on the device.
pub trait Signals {
    /// Why a signal could not be read, e.g. the device disconnected mid-wait.
    type Error;
    /// What one dump gives the caller (the raw dump and its tree): the wait hands back the
    /// last one it read, so nobody dumps again after settling.
    type Look;

    /// What a dump of this device promises.
    fn dumps(&self) -> Dumps;

    /// Reads the screen once, giving up after `limit`: the structural hash of its tree (what
    /// an agent could see or act on) and the look itself.
    fn look(&mut self, limit: Duration) -> Result<(u64, Self::Look), Self::Error>;

    /// When the most recent accessibility event arrived, in the clock's frame;
    /// `None` when none is known (the device reports none, or none came yet).
    fn last_event_at(&mut self) -> Option<Duration>;

    /// The way the looks read the screen (the last look's, when a helper failed mid-wait).
    fn backend(&self) -> look::LookBackend {
        look::LookBackend::Sim
    }

    /// A helper that failed a look since this was last asked, and the way taken instead.
    fn take_fallback(&mut self) -> Option<look::Fallback> {
        None
    }
}

/// What the looks of one wait cost, in the clock's time, and how they were made.
#[derive(Debug, Default)]
struct LookCosts(Vec<Duration>);

impl LookCosts {
    fn add(&mut self, cost: Duration) {
        self.0.push(cost);
    }

    /// The report's `look`: the median look and the way, once a look was made.
    fn used<S: Signals>(mut self, signals: &mut S) -> Option<look::LookUsed> {
        self.0.sort_unstable();
        let cost = *self.0.get(self.0.len() / 2)?;
        Some(look::LookUsed {
            backend: signals.backend(),
            cost,
            fell_back: signals.take_fallback(),
        })
    }
}

/// The settling thresholds; `Default` is DESIGN.md's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SettleConfig {
    /// Wait at least this long after the action was sent, for animations to start.
    #[serde(rename = "floor_ms", with = "millis")]
    pub floor: Duration,
    /// Read the structural hash this often (at least every millisecond is enforced).
    #[serde(rename = "poll_ms", with = "millis")]
    pub poll: Duration,
    /// Settled needs at least this long without an accessibility event.
    #[serde(rename = "quiet_ms", with = "millis")]
    pub quiet: Duration,
    /// Give up at this time after the action was sent and report `settled: false`.
    #[serde(rename = "ceiling_ms", with = "millis")]
    pub ceiling: Duration,
}

impl Default for SettleConfig {
    fn default() -> Self {
        Self {
            floor: Duration::from_millis(200),
            poll: Duration::from_millis(50),
            quiet: Duration::from_millis(300),
            ceiling: Duration::from_secs(5),
        }
    }
}

/// Which signal was still moving when the ceiling was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaitingOn {
    /// The structural hash changed at the last poll (or there was only one poll).
    Structure,
    /// Accessibility events were still arriving.
    Events,
    Both,
}

/// Which signals said the screen had settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum DecidedBy {
    /// Two dumps a poll apart showed the same structure; the device reports no events.
    Structure,
    /// Two dumps a poll apart agreed, and no accessibility event came for `quiet`.
    StructureAndEvents,
    /// The device's own dump waited until no event came for its quiet time, then read the
    /// screen ([`Dumps::AfterIdle`]): one dump was the whole wait.
    IdleDump,
}

/// What the wait did; times are from the moment the action was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettleReport {
    /// When the first poll happened: the floor, or later if the action was slow to send
    /// (earlier for a dump that waits for idle itself: its process start counts).
    #[serde(rename = "floor_ms", with = "millis")]
    pub floor: Duration,
    /// How many times the signals were checked.
    pub polls: u32,
    /// How many dumps the wait spent; the tree returned is the last of them. Recordings
    /// made before this was counted read it as 0.
    #[serde(default)]
    pub dumps: u32,
    /// When the screen was last seen changing: the poll whose hash differed from the one
    /// before, or the last accessibility event while the events ruled dumps out; `None` if
    /// it never changed.
    #[serde(rename = "last_change_ms", with = "opt_millis")]
    pub last_change: Option<Duration>,
    /// Time since the last accessibility event, at the last poll; `None` if none is known.
    #[serde(rename = "idle_ms", with = "opt_millis")]
    pub idle: Option<Duration>,
    /// The whole wait, measured by the clock when it returned.
    #[serde(rename = "total_ms", with = "millis")]
    pub total: Duration,
    pub settled: bool,
    /// Which signals decided, when it settled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidedBy>,
    /// What was still moving at the ceiling. `settled: false` without it: the wait ended
    /// on an error (a dump that failed), which the step reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_on: Option<WaitingOn>,
    /// How the screen was read: filled in by whoever knows the device (the session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<look::LookUsed>,
}

/// A wait that ended: its report and the last look it read, which is the tree to return.
#[derive(Debug)]
pub struct Waited<L> {
    pub report: SettleReport,
    pub look: L,
    /// When that look began, in the clock's frame.
    pub looked_at: Duration,
}

/// A wait that a signal error ended: what the wait had done until then, and the error.
#[derive(Debug, PartialEq)]
pub struct WaitFailed<E> {
    pub report: SettleReport,
    pub error: E,
}

/// Waits until the screen is stable after an action sent at `started_at` (in `clock`'s frame)
/// and returns the last look it read, so the caller never dumps again.
///
/// How depends on what the device's dump promises ([`Signals::dumps`]):
/// - a dump that waits for idle itself, for at least `quiet`, is the whole wait: one dump
///   once the floor has passed, bounded by the ceiling (`stability::idle`);
/// - snapshot dumps are polled every `poll` from the floor until two in a row agree while
///   no event came for `quiet`, skipping every dump the events show cannot settle
///   (`stability::poll`); at the ceiling the wait returns `settled: false` with that moment's look.
pub fn wait_for_stable<C: Clock, S: Signals>(
    clock: &mut C,
    signals: &mut S,
    config: &SettleConfig,
    started_at: Duration,
) -> Result<Waited<S::Look>, WaitFailed<S::Error>> {
    match signals.dumps() {
        Dumps::AfterIdle {
            quiet,
            watches_after,
        } if quiet >= config.quiet => idle::wait(clock, signals, config, started_at, watches_after),
        // A dump that waits less than asked proves too little: poll as for snapshots.
        Dumps::AfterIdle { .. } | Dumps::Snapshot => poll::wait(clock, signals, config, started_at),
    }
}

fn sleep_until<C: Clock>(clock: &mut C, at: Duration) {
    let now = clock.now();
    if at > now {
        clock.sleep(at - now);
    }
}

/// A [`Duration`] as whole milliseconds.
pub(crate) mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

/// An optional [`Duration`] as whole milliseconds or `null`.
mod opt_millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => super::millis::serialize(d, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Option::<u64>::deserialize(d).map(|ms| ms.map(Duration::from_millis))
    }
}

//! `wait_for_stable`: after an action, wait until the screen has settled, or give up at a ceiling.
//!
//! Two signals must agree: the tree's structural hash is unchanged since the previous poll,
//! and no accessibility event has arrived for `quiet`. The wait is generic over a [`Clock`]
//! and its [`Signals`], so tests drive it with a [`VirtualClock`] and scripted signals.
//!
//! Every duration in a serialized [`SettleConfig`] or [`SettleReport`] is a whole number of
//! milliseconds (rounded down) in a field whose name ends in `_ms`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

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

/// What the wait observes on the device.
pub trait Signals {
    /// Why a signal could not be read, e.g. the device disconnected mid-wait.
    type Error;

    /// The structural hash of the current tree (what an agent could see or act on).
    fn structure_hash(&mut self) -> Result<u64, Self::Error>;

    /// When the most recent accessibility event arrived, in the clock's frame;
    /// `None` when none is known (the device reports none, or none came yet).
    fn last_event_at(&mut self) -> Option<Duration>;
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

/// What the wait did; times are from the moment the action was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettleReport {
    /// When the first poll happened: the floor, or later if the action was slow to send.
    #[serde(rename = "floor_ms", with = "millis")]
    pub floor: Duration,
    /// How many times the structural hash was read.
    pub polls: u32,
    /// The poll that last saw the hash change; `None` if it never changed.
    #[serde(rename = "last_change_ms", with = "opt_millis")]
    pub last_change: Option<Duration>,
    /// Time since the last accessibility event, at the last poll; `None` if none is known.
    #[serde(rename = "idle_ms", with = "opt_millis")]
    pub idle: Option<Duration>,
    /// The whole wait, measured by the clock when it returned.
    #[serde(rename = "total_ms", with = "millis")]
    pub total: Duration,
    pub settled: bool,
    /// Why it did not settle; `None` when it did (so `settled: false` means the ceiling hit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_on: Option<WaitingOn>,
}

/// Waits until the screen is stable after an action sent at `started_at` (in `clock`'s frame).
///
/// Sleeps until the floor, then reads the structural hash every `poll`. Returns settled at
/// the first poll whose hash equals the previous poll's while no event came for `quiet`;
/// at the ceiling it returns `settled: false` instead. A signal error ends the wait with it.
pub fn wait_for_stable<C: Clock, S: Signals>(
    clock: &mut C,
    signals: &mut S,
    config: &SettleConfig,
    started_at: Duration,
) -> Result<SettleReport, S::Error> {
    // A zero poll would spin without time passing.
    let poll = config.poll.max(Duration::from_millis(1));
    let ceiling_at = started_at.saturating_add(config.ceiling);
    let floor_at = started_at.saturating_add(config.floor).min(ceiling_at);
    sleep_until(clock, floor_at);

    let first_poll = clock.now();
    let mut previous: Option<u64> = None;
    let mut polls = 0u32;
    let mut last_change = None;
    loop {
        let at = clock.now();
        let hash = signals.structure_hash()?;
        polls = polls.saturating_add(1);
        let idle = signals
            .last_event_at()
            .map(|event| at.saturating_sub(event));

        let unchanged = previous == Some(hash);
        if previous.is_some() && !unchanged {
            last_change = Some(at.saturating_sub(started_at));
        }
        let quiet = idle.is_none_or(|idle| idle >= config.quiet);
        let waiting_on = match (unchanged, quiet) {
            (true, true) => None,
            (false, true) => Some(WaitingOn::Structure),
            (true, false) => Some(WaitingOn::Events),
            (false, false) => Some(WaitingOn::Both),
        };
        if waiting_on.is_none() || at >= ceiling_at {
            return Ok(SettleReport {
                floor: first_poll.saturating_sub(started_at),
                polls,
                last_change,
                idle,
                total: clock.now().saturating_sub(started_at),
                settled: waiting_on.is_none(),
                waiting_on,
            });
        }
        previous = Some(hash);
        // The last poll lands on the ceiling itself, so the wait never overshoots it.
        sleep_until(clock, at.saturating_add(poll).min(ceiling_at));
    }
}

fn sleep_until<C: Clock>(clock: &mut C, at: Duration) {
    let now = clock.now();
    if at > now {
        clock.sleep(at - now);
    }
}

/// A [`Duration`] as whole milliseconds.
mod millis {
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

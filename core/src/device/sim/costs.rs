//! What each command costs on the simulated phone: nothing (`instant`), or what a stock
//! phone's costs (`phone`), drawn per call from the seed so a run is the same on any clock.
//!
//! Every figure of the phone profile comes from a public measurement or from Android's
//! own source; `docs/device-costs.md` lists each with its source.

use std::time::Duration;

/// Which costs the simulated phone pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Profile {
    /// Every command returns at once (tests, the workbench, the demo).
    #[default]
    Instant,
    /// A stock phone's process starts, dump serialization and screencap encoding.
    Phone,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Instant => "instant",
            Profile::Phone => "phone",
        }
    }
}

impl std::str::FromStr for Profile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "instant" => Ok(Profile::Instant),
            "phone" => Ok(Profile::Phone),
            other => Err(format!(
                "unknown profile {other:?}: use instant (no costs) or phone (a stock phone's)"
            )),
        }
    }
}

/// `uiautomator dump` waits until no accessibility event has come for this long
/// (`UiAutomation.waitForIdle(1000, 10000)` in AOSP's `DumpCommand.java`).
pub const DUMP_QUIET: Duration = Duration::from_millis(1000);
/// … and gives up with `ERROR: could not get idle state.` after this long.
pub const DUMP_IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// A cost of `base` give or take `spread`, uniformly.
#[derive(Clone, Copy, Debug)]
struct Spread {
    base_ms: u64,
    spread_ms: u64,
}

const fn ms(base_ms: u64, spread_ms: u64) -> Spread {
    Spread { base_ms, spread_ms }
}

/// A stock phone's figures: Android 12 or newer over USB (see `docs/device-costs.md` for
/// the source of each).
mod phone {
    use super::{Spread, ms};

    /// A dump's start up to the moment it begins watching for idle: adb's round trip, the
    /// `app_process` JVM of `uiautomator`, and the UiAutomation connection. The measured
    /// total of a stock dump (2.1–2.2 s) less its 1 s idle wait and the write below.
    pub const DUMP_START: Spread = ms(800, 100);
    /// Writing the XML out, the JVM's exit and the transfer back.
    pub const DUMP_END: Spread = ms(250, 50);
    /// Walking and serializing the tree, per node (an upper bound from warm dumps).
    pub const PER_NODE_US: u64 = 500;
    /// Another Java command (`monkey`, `am instrument`): adb's round trip and a JVM start.
    pub const JAVA: Spread = ms(400, 80);
    /// `input` (a wrapper over `cmd input` since Android 12: no JVM start), blocking
    /// until the app has handled the event.
    pub const INPUT: Spread = ms(60, 20);
    /// A native or `cmd` command (`wm`, `dumpsys`, `getprop`, `pm`, `am start`, `cat`)
    /// with adb's round trip.
    pub const NATIVE: Spread = ms(40, 10);
    /// `screencap -p` of a 1080x2400 frame: the capture, and PNG encoding, which is most of it.
    pub const SCREENCAP: Spread = ms(800, 150);
}

/// uiautomator2's server on a phone (`docs/device-costs.md` gives each figure's source).
mod u2 {
    use super::{Spread, ms};

    /// One HTTP request to the server and its answer, through adb's `tcp:9008`: the
    /// connection, NanoHTTPD and jsonrpc4j, the call's own query of the tree. Handsets'
    /// blog ("Tapping Android in 5 ms", github.com/elliotgao2/handsets) measures
    /// uiautomator2's `d(text=…).click()`, which is three such calls (`waitForExists`,
    /// `objInfo`, `click`), at 30–100 ms on a recent Pixel, and "the HTTP round-trip
    /// alone … rarely under 5 ms".
    pub const REQUEST: Spread = ms(15, 5);
    /// Walking and serializing the tree for `dumpWindowHierarchy`, per node: the figure
    /// of the stock dump's serialization, itself from warm helper dumps. With the
    /// request, a screen of 50–150 nodes takes 35–95 ms: "under 100 ms" for uiautomator2
    /// on Android (codematrixer/hmdriver2 issue #10).
    pub const PER_NODE_US: u64 = super::phone::PER_NODE_US;
}

/// The costs of one simulated phone, drawn from its seed.
#[derive(Debug)]
pub(crate) struct Costs {
    profile: Profile,
    rng: fastrand::Rng,
}

impl Costs {
    pub(crate) fn new(profile: Profile, seed: u64) -> Self {
        Self {
            profile,
            rng: fastrand::Rng::with_seed(seed ^ 0x5eed_c057),
        }
    }

    pub(crate) fn profile(&self) -> Profile {
        self.profile
    }

    fn draw(&mut self, cost: Spread) -> Duration {
        match self.profile {
            Profile::Instant => Duration::ZERO,
            Profile::Phone => {
                let low = cost.base_ms.saturating_sub(cost.spread_ms);
                Duration::from_millis(self.rng.u64(low..=cost.base_ms + cost.spread_ms))
            }
        }
    }

    /// A dump's start, up to the moment it begins watching for idle.
    pub(crate) fn dump_start(&mut self) -> Duration {
        self.draw(phone::DUMP_START)
    }

    /// The least a dump's start takes: it begins watching no earlier.
    pub(crate) fn dump_start_at_least(&self) -> Duration {
        match self.profile {
            Profile::Instant => Duration::ZERO,
            Profile::Phone => Duration::from_millis(
                phone::DUMP_START
                    .base_ms
                    .saturating_sub(phone::DUMP_START.spread_ms),
            ),
        }
    }

    pub(crate) fn java(&mut self) -> Duration {
        self.draw(phone::JAVA)
    }

    pub(crate) fn input(&mut self) -> Duration {
        self.draw(phone::INPUT)
    }

    pub(crate) fn native(&mut self) -> Duration {
        self.draw(phone::NATIVE)
    }

    /// Serializing a dump of `nodes` nodes and ending the process.
    pub(crate) fn serialize(&mut self, nodes: usize) -> Duration {
        let exit = self.draw(phone::DUMP_END);
        match self.profile {
            Profile::Instant => Duration::ZERO,
            Profile::Phone => {
                let nodes = u64::try_from(nodes).unwrap_or(u64::MAX);
                exit + Duration::from_micros(nodes.saturating_mul(phone::PER_NODE_US))
            }
        }
    }

    /// One request to uiautomator2's server and its answer.
    pub(crate) fn u2_request(&mut self) -> Duration {
        self.draw(u2::REQUEST)
    }

    /// uiautomator2's server serializing a dump of `nodes` nodes.
    pub(crate) fn u2_serialize(&self, nodes: usize) -> Duration {
        match self.profile {
            Profile::Instant => Duration::ZERO,
            Profile::Phone => {
                let nodes = u64::try_from(nodes).unwrap_or(u64::MAX);
                Duration::from_micros(nodes.saturating_mul(u2::PER_NODE_US))
            }
        }
    }

    pub(crate) fn screencap(&mut self) -> Duration {
        self.draw(phone::SCREENCAP)
    }
}

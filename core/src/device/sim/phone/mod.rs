//! `SimPhone`: the simulated phone as a phone's shell runs it. Every command pays what it
//! costs under a [`Profile`]; `uiautomator dump` waits for idle as the stock one does (and
//! fails when the screen never settles); one UiAutomation client at a time, so a dump, the
//! events stream and a helper server (uiautomator2's) exclude each other. Shareable: the
//! ADB transport runs several commands at once, each sleeping its costs without holding
//! the phone.
//!
//! Two readers of the screen. The shell's `uiautomator dump` ([`SimPhone::uiautomator_dump`],
//! what adb-based tools get) writes what a stock phone does: the active window alone, its
//! nodes visible to the user, bounds on the display (`sim::stock_dump`). The phone's own
//! [`Device::dump`] (tapscope's `sim:phone` sessions) pays the same costs and waits the
//! same idle, but writes tapscope's fuller view, [`Sim::xml`]: every window (status bar,
//! keyboard) and every node, a list's items scrolled out of view too. It is tapscope
//! reading its own sim with a phone's timing, not a phone's shell, and it keeps the
//! observations of `sim` and `sim:phone` alike (a pruned `more:` line, the keyboard).

use std::ops::DerefMut;
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};

use super::costs::{Costs, DUMP_IDLE_TIMEOUT, DUMP_QUIET, Profile};
use super::{Build, Event, Sim};
use crate::device::look::LookBackend;
use crate::device::{Device, DeviceError, Display, Key};
use crate::geometry::Point;
use crate::stability::{Clock, Dumps};

/// How often a waiting dump checks whether its caller went away.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// Who holds the one UiAutomation connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UiClient {
    Dump,
    Events,
    /// A server that holds UiAutomation while it runs: uiautomator2's
    /// (`app_process / com.wetest.uia2.Main`).
    Helper,
}

/// Why `uiautomator` could not do what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UiAutomationError {
    /// Events kept coming: no `quiet` stretch within the dump's timeout or the caller's limit.
    NotIdle { waited: Duration },
    /// Another client holds the connection (`UiAutomationService … already registered!`).
    Busy(UiClient),
    /// The caller stopped it (the stream closed, `pkill`).
    Stopped,
}

impl From<UiAutomationError> for DeviceError {
    fn from(error: UiAutomationError) -> Self {
        match error {
            UiAutomationError::NotIdle { waited } => DeviceError::NotIdle {
                quiet: DUMP_QUIET,
                waited,
            },
            UiAutomationError::Busy(holder) => DeviceError::Command {
                command: "uiautomator dump".into(),
                output: format!(
                    "another UiAutomation client ({}) holds the accessibility service: stop it \
                     and try again",
                    match holder {
                        UiClient::Dump => "a dump still running",
                        UiClient::Events => "`uiautomator events`",
                        UiClient::Helper => "the uiautomator2 server",
                    }
                ),
            },
            UiAutomationError::Stopped => {
                DeviceError::Disconnected("the dump was stopped before it ended".into())
            }
        }
    }
}

/// The simulated phone behind a lock, paying each command's costs on its clock. A command
/// that panicked leaves the lock usable and the phone as consistent as any interrupted
/// command does.
#[derive(Debug)]
pub struct SimPhone<C> {
    sim: Mutex<Sim<C>>,
    clock: C,
    costs: Mutex<Costs>,
    ui_automation: Mutex<Option<UiClient>>,
    /// How [`Device::dump`] reads the screen: stock `uiautomator dump`, or through
    /// uiautomator2's server ([`SimPhone::looking_through`]).
    look: LookBackend,
}

/// The UiAutomation connection while a client holds it; released when dropped.
#[derive(Debug)]
pub struct UiLease<'a, C> {
    phone: &'a SimPhone<C>,
    /// The latest event the holder has been shown.
    seen: Option<Duration>,
}

impl<C> Drop for UiLease<'_, C> {
    fn drop(&mut self) {
        *self.phone.ui_automation.lock() = None;
    }
}

impl<C: Clock + Clone + Send> SimPhone<C> {
    /// The sim of `seed` on `clock`, paying the costs of `profile`.
    pub fn new(clock: C, seed: u64, profile: Profile) -> Self {
        Self::with_build(clock, seed, profile, Build::Current)
    }

    /// [`SimPhone::new`] running `build` of the app (`sim-next:phone`).
    pub fn with_build(clock: C, seed: u64, profile: Profile, build: Build) -> Self {
        Self {
            sim: Mutex::new(Sim::with_build(clock.clone(), seed, build)),
            clock,
            costs: Mutex::new(Costs::new(profile, seed)),
            ui_automation: Mutex::new(None),
            look: LookBackend::Stock,
        }
    }

    /// The clock the phone's costs are paid on.
    pub fn clock(&self) -> C {
        self.clock.clone()
    }

    pub fn profile(&self) -> Profile {
        self.costs.lock().profile()
    }

    /// The simulated phone itself, at this moment (no cost is paid).
    pub fn sim(&self) -> impl DerefMut<Target = Sim<C>> + '_ {
        self.sim.lock()
    }

    fn sleep(&self, d: Duration) {
        if !d.is_zero() {
            self.clock.clone().sleep(d);
        }
    }

    fn costs(&self) -> MutexGuard<'_, Costs> {
        self.costs.lock()
    }

    /// Who holds the UiAutomation connection now.
    pub fn ui_client(&self) -> Option<UiClient> {
        *self.ui_automation.lock()
    }

    /// Takes the UiAutomation connection for `client`, or says who holds it.
    pub fn claim(&self, client: UiClient) -> Result<UiLease<'_, C>, UiAutomationError> {
        let mut holder = self.ui_automation.lock();
        if let Some(other) = *holder {
            return Err(UiAutomationError::Busy(other));
        }
        *holder = Some(client);
        Ok(UiLease {
            phone: self,
            seen: self.sim().last_event().map(|e| e.at),
        })
    }

    /// `uiautomator dump`: its start, then a wait until no event came for 1 s since it
    /// began watching (at most 10 s, or `limit` from the call), then the tree as it is at
    /// that moment, serialized as a stock phone writes it ([`Sim::stock_xml`]: the active
    /// window, its nodes visible to the user). `stopped` ends it early (its caller went away).
    pub fn uiautomator_dump(
        &self,
        limit: Duration,
        stopped: &dyn Fn() -> bool,
    ) -> Result<String, UiAutomationError> {
        self.dump_when_idle(limit, stopped, Sim::stock_xml)
    }

    /// [`SimPhone::uiautomator_dump`]'s costs and wait for idle, then the tree as `write`
    /// serializes it, its write paid for the nodes it holds.
    fn dump_when_idle(
        &self,
        limit: Duration,
        stopped: &dyn Fn() -> bool,
        write: fn(&Sim<C>) -> String,
    ) -> Result<String, UiAutomationError> {
        let began = self.clock.now();
        let give_up = began.saturating_add(limit);
        let start = self.costs().dump_start();
        self.sleep(start.min(limit));
        let _lease = self.claim(UiClient::Dump)?;
        let watching = self.clock.now();
        let stop = watching.saturating_add(DUMP_IDLE_TIMEOUT).min(give_up);
        loop {
            let now = self.clock.now();
            let last = self
                .sim()
                .last_event()
                .map_or(watching, |e| e.at.max(watching));
            let idle_at = last.saturating_add(DUMP_QUIET);
            if now >= idle_at {
                break;
            }
            if now >= stop {
                return Err(UiAutomationError::NotIdle {
                    waited: now.saturating_sub(watching),
                });
            }
            if stopped() {
                return Err(UiAutomationError::Stopped);
            }
            // In slices, so a caller that goes away is noticed.
            self.sleep((idle_at.min(stop) - now).min(STOP_CHECK));
        }
        let xml = write(&self.sim());
        // The dumper pays for the nodes it writes, not for those it skipped.
        let nodes = xml.matches("<node ").count();
        let serialize = self.costs().serialize(nodes);
        self.sleep(serialize);
        Ok(xml)
    }

    /// `screencap -p`: the frame at the moment of capture, then the PNG encoding.
    pub fn screencap(&self) -> Result<Vec<u8>, DeviceError> {
        let cost = self.costs().screencap();
        let png = self.sim().screenshot_png();
        self.sleep(cost);
        png
    }

    /// An `input` command: its own start, then the gesture or key.
    pub fn input<R>(
        &self,
        act: impl FnOnce(&mut Sim<C>) -> Result<R, DeviceError>,
    ) -> Result<R, DeviceError> {
        let start = self.costs().input();
        self.sleep(start);
        act(&mut self.sim())
    }

    /// A Java command other than `uiautomator` (`monkey`): its start, then `act`.
    pub fn java<R>(&self, act: impl FnOnce(&mut Sim<C>) -> R) -> R {
        let start = self.costs().java();
        self.sleep(start);
        act(&mut self.sim())
    }

    /// A native or `cmd` command (`wm`, `dumpsys`, `pm`, `am start`, `cat`).
    pub fn native<R>(&self, act: impl FnOnce(&mut Sim<C>) -> R) -> R {
        let start = self.costs().native();
        self.sleep(start);
        act(&mut self.sim())
    }

    /// `uiautomator events`: the connection taken after the command's start, then each
    /// new event by [`UiLease::next`] until the lease is dropped.
    pub fn events(&self) -> Result<UiLease<'_, C>, UiAutomationError> {
        let start = self.costs().dump_start();
        self.sleep(start);
        self.claim(UiClient::Events)
    }
}

/// Looking through uiautomator2's server, in process: what the server would answer a
/// `dumpWindowHierarchy` with, at its cost, without ADB between.
impl<C: Clock + Clone + Send> SimPhone<C> {
    /// The phone read through `look`: [`LookBackend::U2`] (its server then holds
    /// UiAutomation, so stock dumps fail beside it, as on a phone) or
    /// [`LookBackend::Stock`]; the sim runs no other helper.
    pub fn looking_through(mut self, look: LookBackend) -> Result<Self, DeviceError> {
        match look {
            LookBackend::U2 => {
                *self.ui_automation.lock() = Some(UiClient::Helper);
            }
            LookBackend::Stock => {
                let mut holder = self.ui_automation.lock();
                if *holder == Some(UiClient::Helper) {
                    *holder = None;
                }
            }
            other => {
                return Err(DeviceError::InvalidInput(format!(
                    "the simulated phone runs no {}: look through u2 (uiautomator2's \
                     server) or stock",
                    other.describe()
                )));
            }
        }
        self.look = look;
        Ok(self)
    }

    /// How [`Device::dump`] reads the screen.
    pub fn look(&self) -> LookBackend {
        self.look
    }

    /// One request to uiautomator2's server and its answer, at the profile's cost.
    pub(super) fn pay_u2_request(&self) {
        let cost = self.costs().u2_request();
        self.sleep(cost);
    }

    /// uiautomator2's server serializing `nodes` nodes, at the profile's cost.
    pub(super) fn pay_u2_serialize(&self, nodes: usize) {
        let cost = self.costs().u2_serialize(nodes);
        self.sleep(cost);
    }
}

impl<C: Clock + Clone + Send> UiLease<'_, C> {
    /// The next event newer than the last one shown, waiting at most `wait` for it.
    pub fn next(&mut self, wait: Duration) -> Option<Event> {
        let until = self.phone.clock.now().saturating_add(wait);
        loop {
            let event = self.phone.sim().last_event();
            if let Some(event) = event.filter(|e| Some(e.at) > self.seen) {
                self.seen = Some(event.at);
                return Some(event);
            }
            let now = self.phone.clock.now();
            if now >= until {
                return None;
            }
            // Events come at most every 40 ms; look a little more often.
            self.phone
                .sleep((until - now).min(Duration::from_millis(20)));
        }
    }
}

impl<C: Clock + Clone + Send> Device for SimPhone<C> {
    fn name(&self) -> String {
        format!("{}:{}", self.sim().build().name(), self.profile().name())
    }

    fn dump(&mut self) -> Result<String, DeviceError> {
        self.dump_within(DUMP_IDLE_TIMEOUT.saturating_mul(2))
    }

    fn dump_within(&mut self, limit: Duration) -> Result<String, DeviceError> {
        if self.look == LookBackend::U2 {
            return Ok(self.u2_dump());
        }
        // Tapscope's fuller view, at the stock dump's costs (see the module's header).
        self.dump_when_idle(limit, &|| false, Sim::xml)
            .map_err(DeviceError::from)
    }

    fn look_backend(&self) -> LookBackend {
        self.look
    }

    fn dumps(&self) -> Dumps {
        if self.look == LookBackend::U2 {
            return Dumps::Snapshot;
        }
        Dumps::AfterIdle {
            quiet: DUMP_QUIET,
            watches_after: self.costs().dump_start_at_least(),
        }
    }

    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        self.screencap()
    }

    fn display(&mut self) -> Result<Display, DeviceError> {
        self.native(|sim| sim.display())
    }

    fn tap(&mut self, at: Point) -> Result<(), DeviceError> {
        self.input(|sim| sim.tap(at))
    }

    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError> {
        self.input(|sim| sim.long_press(at, duration))
    }

    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError> {
        self.input(|sim| sim.swipe(from, to, duration))
    }

    fn input_text(&mut self, text: &str) -> Result<(), DeviceError> {
        self.input(|sim| sim.input_text(text))
    }

    fn key(&mut self, key: Key) -> Result<(), DeviceError> {
        self.input(|sim| sim.key(key))
    }

    /// None: on a phone the events stream would hold UiAutomation and block every dump.
    fn last_event_at(&mut self) -> Option<Duration> {
        None
    }

    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        self.native(|sim| sim.packages())
    }

    fn launch(&mut self, package: &str) -> Result<(), DeviceError> {
        self.java(|sim| sim.launch(package))
    }

    /// `logcat -d`, a native command with adb's round trip.
    fn logcat(&mut self, request: &crate::logcat::LogRequest) -> Result<String, DeviceError> {
        let name = self.name();
        self.native(|sim| sim.logcat_text(request))
            .map_err(|e| DeviceError::NoLog {
                device: name,
                why: format!("logcat: {e}"),
            })
    }

    fn pid_of(&mut self, package: &str) -> Result<Option<u32>, DeviceError> {
        Ok(self.native(|sim| sim.running_pid(package)))
    }
}

#[cfg(test)]
mod tests;

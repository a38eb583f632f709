//! Settling on the simulated phone, instant (`sim`), with a stock phone's costs
//! (`sim:phone`), and that phone read through its uiautomator2 server: 200 transitions with animations from 0 to 2 s, each observed by
//! tapscope's act-and-observe and, side by side, by "tap, sleep 1 s, dump" and "tap,
//! sleep 2 s, dump" as common agents do. Virtual time, so the table is exact and the same
//! on every run; divan then times one act-and-observe of the real code path.
//!
//! Run with `cargo bench -p tapscope-core --bench settle`.

use std::time::Duration;

use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::device::{Device, Key};
use tapscope_core::geometry::Point;
use tapscope_core::handle::Handle;
use tapscope_core::parse::parse_str;
use tapscope_core::session::{Action, Observation, Session, SessionConfig, structure_hash};
use tapscope_core::stability::look::LookBackend;
use tapscope_core::stability::{Clock, VirtualClock};

const TRANSITIONS: u64 = 200;

fn main() {
    print_experiment();
    divan::main();
}

/// A simulated phone the experiment can steer: its animation lengths, and the screen as
/// it will be once settled.
trait Simulated: Device {
    fn with_sim<R>(&mut self, f: impl FnOnce(&mut Sim<VirtualClock>) -> R) -> R;

    /// The structural hash of the screen once settled, read as this device reads it.
    fn settled_hash(&mut self) -> u64 {
        hash_of(&self.with_sim(|sim| sim.settled_xml()))
    }
}

/// The instant sim, read directly.
fn instant(clock: &VirtualClock) -> Sim<VirtualClock> {
    Sim::new(clock.clone(), 1)
}

/// The sim with a stock phone's costs, read by stock dumps.
fn stock_phone(clock: &VirtualClock) -> SimPhone<VirtualClock> {
    SimPhone::new(clock.clone(), 1, Profile::Phone)
}

/// The same phone read through its uiautomator2 server.
fn u2_phone(clock: &VirtualClock) -> SimPhone<VirtualClock> {
    stock_phone(clock)
        .looking_through(LookBackend::U2)
        .expect("the sim runs uiautomator2's server")
}

impl Simulated for Sim<VirtualClock> {
    fn with_sim<R>(&mut self, f: impl FnOnce(&mut Sim<VirtualClock>) -> R) -> R {
        f(self)
    }
}

impl Simulated for SimPhone<VirtualClock> {
    fn with_sim<R>(&mut self, f: impl FnOnce(&mut Sim<VirtualClock>) -> R) -> R {
        f(&mut self.sim())
    }

    /// Through the helper: its own dump once the animation has ended (the clock moved on
    /// past the end, after the measurement), as its XML differs from the stock one's.
    fn settled_hash(&mut self) -> u64 {
        if self.look() != LookBackend::U2 {
            return hash_of(&self.sim().settled_xml());
        }
        let mut clock = self.clock();
        if let Some(end) = self.sim().animation_end() {
            let now = clock.now();
            if end >= now {
                clock.sleep(end - now + Duration::from_millis(1));
            }
        }
        hash_of(&self.u2_dump())
    }
}

fn handle_of(observation: &Observation, text: &str) -> Handle {
    observation
        .handle_where(|n| n.label.contains(text))
        .expect("the launcher shows the app")
}

/// Animation length of transition `k`: 0 to 1990 ms in 10 ms steps.
fn length(k: u64) -> Duration {
    Duration::from_millis(k * 2000 / TRANSITIONS)
}

fn hash_of(xml: &str) -> u64 {
    structure_hash(&parse_str(xml).expect("the sim writes valid XML"))
}

/// What one way of observing gave over the 200 transitions.
#[derive(Default)]
struct Tally {
    /// From the moment the action was issued to the tree in hand, per transition.
    action_to_tree: Vec<Duration>,
    /// Trees that were not the settled screen.
    premature: u64,
    dumps: u64,
    /// How long after the animation's end the tree came back, per transition.
    overheads: Vec<Duration>,
}

impl Tally {
    fn percentile(&self, p: usize) -> Duration {
        percentile(&self.action_to_tree, p)
    }
}

fn percentile(values: &[Duration], p: usize) -> Duration {
    {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted
            .get((sorted.len() * p / 100).min(sorted.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    }
}

/// Alternates opening TapTube and going back, each with its own animation length,
/// observed by `Session::act`.
fn settled_run<D: Simulated>(new_on: fn(&VirtualClock) -> D) -> Tally {
    let clock = VirtualClock::default();
    let session = Session::new(new_on(&clock), clock.clone(), SessionConfig::default());
    let mut observation = session.observe().expect("observe");
    let mut tally = Tally::default();
    for k in 0..TRANSITIONS {
        session.with_device(|d| d.with_sim(|sim| sim.set_animation_length(Some(length(k)))));
        let action = if k % 2 == 0 {
            Action::Tap(handle_of(&observation, "TapTube"))
        } else {
            Action::Key(Key::Back)
        };
        let started = clock.now();
        let outcome = session.act(&action).expect("act");
        tally.action_to_tree.push(clock.now() - started);
        let end = session
            .with_device(|d| d.with_sim(|sim| sim.animation_end()))
            .unwrap_or(started);
        tally.overheads.push(clock.now().saturating_sub(end));
        let settled = session.with_device(|d| d.settled_hash());
        if structure_hash(&outcome.observation.tree) != settled {
            tally.premature += 1;
        }
        tally.dumps += u64::from(outcome.settle.dumps);
        observation = outcome.observation;
    }
    tally
}

/// The same transitions, each dumped once `sleep` after the action.
fn fixed_sleep_run<D: Simulated>(new_on: fn(&VirtualClock) -> D, sleep: Duration) -> Tally {
    let mut clock = VirtualClock::default();
    let icon = {
        let session = Session::new(new_on(&clock), clock.clone(), SessionConfig::default());
        let home = session.observe().expect("observe");
        let node = home
            .pruned
            .resolve(handle_of(&home, "TapTube").i)
            .expect("icon");
        let (x, y) = node.visible.center();
        Point::new(x, y)
    };
    let mut device = new_on(&clock);
    let mut tally = Tally::default();
    for k in 0..TRANSITIONS {
        device.with_sim(|sim| sim.set_animation_length(Some(length(k))));
        let started = clock.now();
        if k % 2 == 0 {
            device.tap(icon).expect("tap");
        } else {
            device.key(Key::Back).expect("back");
        }
        clock.sleep(sleep);
        let dump = device.dump().expect("dump");
        tally.action_to_tree.push(clock.now() - started);
        let end = device
            .with_sim(|sim| sim.animation_end())
            .unwrap_or(started);
        tally.overheads.push(clock.now().saturating_sub(end));
        if hash_of(&dump) != device.settled_hash() {
            tally.premature += 1;
        }
        tally.dumps += 1;
    }
    tally
}

/// One look at the launcher at rest: the unit the phone's goals are stated in.
fn one_dump_on(new_on: fn(&VirtualClock) -> SimPhone<VirtualClock>) -> Duration {
    let clock = VirtualClock::default();
    let mut phone = new_on(&clock);
    let started = clock.now();
    phone.dump().expect("dump");
    clock.now() - started
}

fn print_experiment() {
    println!(
        "{TRANSITIONS} simulated transitions, animations 0-1990 ms (virtual time), \
         action issued to tree in hand:"
    );
    println!(
        "| device | observed by | median | p95 | premature captures | dumps spent | \
         median after the animation's end | total |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    let row = |device: &str, by: &str, tally: Tally| {
        println!(
            "| {device} | {by} | {} ms | {} ms | {} | {} | {} ms | {:.1} s |",
            tally.percentile(50).as_millis(),
            tally.percentile(95).as_millis(),
            tally.premature,
            tally.dumps,
            percentile(&tally.overheads, 50).as_millis(),
            tally.action_to_tree.iter().sum::<Duration>().as_secs_f64(),
        );
    };
    let one_s = Duration::from_secs(1);
    let two_s = Duration::from_secs(2);
    row("sim", "tapscope act", settled_run(instant));
    row(
        "sim",
        "tap, sleep 1 s, dump",
        fixed_sleep_run(instant, one_s),
    );
    row(
        "sim",
        "tap, sleep 2 s, dump",
        fixed_sleep_run(instant, two_s),
    );
    row("sim:phone", "tapscope act", settled_run(stock_phone));
    row(
        "sim:phone",
        "tap, sleep 1 s, dump",
        fixed_sleep_run(stock_phone, one_s),
    );
    row(
        "sim:phone",
        "tap, sleep 2 s, dump",
        fixed_sleep_run(stock_phone, two_s),
    );
    row("sim:phone, u2", "tapscope act", settled_run(u2_phone));
    row(
        "sim:phone, u2",
        "tap, sleep 1 s, dump",
        fixed_sleep_run(u2_phone, one_s),
    );
    row(
        "sim:phone, u2",
        "tap, sleep 2 s, dump",
        fixed_sleep_run(u2_phone, two_s),
    );
    println!(
        "one look at the launcher at rest on sim:phone: stock {} ms, through u2 {} ms",
        one_dump_on(stock_phone).as_millis(),
        one_dump_on(u2_phone).as_millis()
    );
    let (settled, total) = never_settling();
    println!(
        "never-settling screen on sim: settled = {settled}, returned after {} ms\n",
        total.as_millis()
    );
}

fn never_settling() -> (bool, Duration) {
    let clock = VirtualClock::default();
    let session = Session::new(Sim::new(clock.clone(), 1), clock, SessionConfig::default());
    let home = session.observe().expect("observe");
    let outcome = session
        .act(&Action::Tap(handle_of(&home, "Live TV")))
        .expect("act");
    (outcome.settle.settled, outcome.settle.total)
}

/// One act-and-observe on the sim with no animation: the runtime's own cost per call.
#[divan::bench(sample_count = 100)]
fn act_and_observe_without_animation(bencher: divan::Bencher) {
    let clock = VirtualClock::default();
    let session = Session::new(Sim::new(clock.clone(), 1), clock, SessionConfig::default());
    session.with_device(|sim| sim.set_animation_length(Some(Duration::ZERO)));
    session.observe().expect("observe");
    let mut forward = true;
    bencher.bench_local(|| {
        let action = if forward {
            let observation = session.observe().expect("observe");
            Action::Tap(handle_of(&observation, "TapTube"))
        } else {
            Action::Key(Key::Back)
        };
        forward = !forward;
        session.act(&action).expect("act")
    });
}

//! Settling on the simulated phone: 200 transitions with animations from 0 to 2 s, observed
//! by `Session::act` (wait_for_stable) and, side by side, after a fixed 1 s sleep as common
//! agents do. Virtual time, so the table is exact and the same on every run; divan then
//! times one act-and-observe of the real code path.
//!
//! Run with `cargo bench -p tapscope-core --bench settle`.

use std::time::Duration;

use tapscope_core::device::sim::Sim;
use tapscope_core::device::{Device, Key};
use tapscope_core::handle::Handle;
use tapscope_core::session::{Action, Observation, Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};

const TRANSITIONS: u64 = 200;

fn main() {
    print_experiment();
    divan::main();
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

struct Tally {
    premature: u64,
    overheads_ms: Vec<u64>,
    total: Duration,
}

/// Alternates opening TapTube and going back, each with its own animation length.
fn settled_run() -> Tally {
    let clock = VirtualClock::default();
    let session = Session::new(
        Sim::new(clock.clone(), 1),
        clock.clone(),
        SessionConfig::default(),
    );
    let mut observation = session.observe().expect("observe");
    let mut tally = Tally {
        premature: 0,
        overheads_ms: Vec::new(),
        total: Duration::ZERO,
    };
    for k in 0..TRANSITIONS {
        session.with_device(|sim| sim.set_animation_length(Some(length(k))));
        let action = if k % 2 == 0 {
            Action::Tap(handle_of(&observation, "TapTube"))
        } else {
            Action::Key(Key::Back)
        };
        let started = clock.now();
        let outcome = session.act(&action).expect("act");
        let end = session
            .with_device(|sim| sim.animation_end())
            .unwrap_or(started);
        if outcome.observation.dumped_at < end {
            tally.premature += 1;
        }
        let returned = started + outcome.settle.total;
        tally
            .overheads_ms
            .push(returned.saturating_sub(end).as_millis() as u64);
        tally.total += clock.now() - started;
        observation = outcome.observation;
    }
    tally
}

/// The same transitions, observed one second after each action.
fn fixed_sleep_run() -> Tally {
    let mut clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    let icon = {
        let session = Session::new(
            Sim::new(clock.clone(), 1),
            clock.clone(),
            SessionConfig::default(),
        );
        let home = session.observe().expect("observe");
        let node = home
            .pruned
            .resolve(handle_of(&home, "TapTube").i)
            .expect("icon");
        node.visible.center()
    };
    let mut tally = Tally {
        premature: 0,
        overheads_ms: Vec::new(),
        total: Duration::ZERO,
    };
    for k in 0..TRANSITIONS {
        sim.set_animation_length(Some(length(k)));
        let started = clock.now();
        if k % 2 == 0 {
            sim.tap(tapscope_core::geometry::Point::new(icon.0, icon.1))
                .expect("tap");
        } else {
            sim.key(Key::Back).expect("back");
        }
        clock.sleep(Duration::from_secs(1));
        let dumped_at = clock.now();
        sim.dump().expect("dump");
        if sim.animation_end().is_some_and(|end| dumped_at < end) {
            tally.premature += 1;
        }
        tally.total += clock.now() - started;
    }
    tally
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
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

fn print_experiment() {
    let mut settled = settled_run();
    let fixed = fixed_sleep_run();
    let (ticker_settled, ticker_total) = never_settling();
    println!("{TRANSITIONS} simulated transitions, animations 0-1990 ms (virtual time):");
    println!("| observed by | captured mid-transition | median settle overhead | total time |");
    println!("|---|---:|---:|---:|");
    println!(
        "| act + wait_for_stable | {} | {} ms | {:.1} s |",
        settled.premature,
        median(&mut settled.overheads_ms),
        settled.total.as_secs_f64()
    );
    println!(
        "| fixed 1 s sleep | {} | - | {:.1} s |",
        fixed.premature,
        fixed.total.as_secs_f64()
    );
    println!(
        "never-settling screen: settled = {ticker_settled}, returned after {} ms\n",
        ticker_total.as_millis()
    );
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

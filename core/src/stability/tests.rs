//! `wait_for_stable` on a virtual clock against scripted timelines of hash changes and events.

use super::*;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[derive(Debug, PartialEq)]
enum Gone {
    Disconnected,
    /// The idle dump's own time ran out before the events stopped.
    NotIdle,
}
use Gone::Disconnected;

/// A device whose tree and events follow a timeline read off a shared virtual clock.
struct Script {
    clock: VirtualClock,
    /// From each time on, the hash is the given one (until the next entry); 0 before any.
    changes: Vec<(Duration, u64)>,
    events: Vec<Duration>,
    fail_from: Option<Duration>,
    /// Dumps that wait for idle themselves, as stock uiautomator's do.
    idle_dumps: Option<IdleDumps>,
    next_hash: u64,
    /// When the hash was read, to check the poll cadence.
    reads: Vec<Duration>,
}

/// `from`, `from + every`, … below `to`, then `to` itself.
fn steps(from: u64, to: u64, every: u64) -> impl Iterator<Item = u64> {
    (from..to).step_by(every as usize).chain([to])
}

impl Script {
    fn new() -> Self {
        Self {
            clock: VirtualClock::new(),
            changes: Vec::new(),
            events: Vec::new(),
            fail_from: None,
            idle_dumps: None,
            next_hash: 1,
            reads: Vec::new(),
        }
    }

    /// The hash changes to a new value at each step from `from` to `to` (inclusive).
    fn frames(mut self, from: u64, to: u64, every: u64) -> Self {
        for t in steps(from, to, every) {
            self.changes.push((ms(t), self.next_hash));
            self.next_hash += 1;
        }
        self
    }

    /// An accessibility event at each step from `from` to `to` (inclusive).
    fn events(mut self, from: u64, to: u64, every: u64) -> Self {
        self.events.extend(steps(from, to, every).map(ms));
        self
    }

    fn fail_from(mut self, at: u64) -> Self {
        self.fail_from = Some(ms(at));
        self
    }

    /// Each dump starts `start` ms in and waits until no event came for `quiet` ms.
    fn idle_dumps(mut self, start: u64, quiet: u64) -> Self {
        self.idle_dumps = Some(IdleDumps {
            start: ms(start),
            quiet: ms(quiet),
        });
        self
    }

    fn run(&mut self, config: &SettleConfig, started_at: u64) -> Result<SettleReport, Gone> {
        self.wait(config, started_at)
            .map(|waited| waited.report)
            .map_err(|failed| failed.error)
    }

    fn wait(
        &mut self,
        config: &SettleConfig,
        started_at: u64,
    ) -> Result<Waited<u64>, WaitFailed<Gone>> {
        self.changes.sort_by_key(|c| c.0);
        self.events.sort();
        let mut clock = self.clock.clone();
        wait_for_stable(&mut clock, self, config, ms(started_at))
    }

    fn hash_now(&self) -> u64 {
        let now = self.clock.now();
        let seen = self.changes.partition_point(|c| c.0 <= now);
        seen.checked_sub(1).map_or(0, |i| self.changes[i].1)
    }

    /// What a stock dump does: its start, then a wait for `quiet` without events since
    /// it began watching, within `limit`.
    fn wait_for_idle(&mut self, idle: IdleDumps, limit: Duration) -> Result<(), Gone> {
        let began = self.clock.now();
        let give_up = began + limit;
        self.clock.sleep(idle.start.min(limit));
        let watching = self.clock.now();
        loop {
            let now = self.clock.now();
            let last = self.last_event_at().map_or(watching, |e| e.max(watching));
            if now >= last + idle.quiet {
                return Ok(());
            }
            if now >= give_up {
                return Err(Gone::NotIdle);
            }
            self.clock.sleep((last + idle.quiet).min(give_up) - now);
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct IdleDumps {
    start: Duration,
    quiet: Duration,
}

impl Signals for Script {
    type Error = Gone;
    type Look = u64;

    fn dumps(&self) -> Dumps {
        match self.idle_dumps {
            Some(idle) => Dumps::AfterIdle {
                quiet: idle.quiet,
                watches_after: idle.start,
            },
            None => Dumps::Snapshot,
        }
    }

    fn look(&mut self, limit: Duration) -> Result<(u64, u64), Gone> {
        self.reads.push(self.clock.now());
        if self.fail_from.is_some_and(|at| self.clock.now() >= at) {
            return Err(Disconnected);
        }
        if let Some(idle) = self.idle_dumps {
            self.wait_for_idle(idle, limit)?;
        }
        let hash = self.hash_now();
        Ok((hash, hash))
    }

    fn last_event_at(&mut self) -> Option<Duration> {
        let now = self.clock.now();
        let seen = self.events.partition_point(|&t| t <= now);
        seen.checked_sub(1).map(|i| self.events[i])
    }
}

fn default_run(script: &mut Script) -> SettleReport {
    script.run(&SettleConfig::default(), 0).unwrap()
}

#[test]
fn already_stable_returns_one_poll_after_the_floor() {
    let mut script = Script::new();
    let report = default_run(&mut script);
    assert_eq!(
        report,
        SettleReport {
            floor: ms(200),
            polls: 2,
            dumps: 2,
            last_change: None,
            idle: None,
            total: ms(250),
            settled: true,
            decided_by: Some(DecidedBy::Structure),
            waiting_on: None,
            look: Some(crate::stability::look::LookUsed {
                backend: crate::stability::look::LookBackend::Sim,
                cost: ms(0),
                fell_back: None,
            }),
        }
    );
    assert_eq!(script.reads, [ms(200), ms(250)]);
    assert_eq!(script.clock.now(), ms(250));
}

#[test]
fn hash_changes_a_few_times_then_settles() {
    let mut script = Script::new().frames(230, 380, 50);
    let report = default_run(&mut script);
    // Polls at 200 (first hash), 250, 300, 350, 400 (each new), 450 (unchanged).
    assert!(report.settled);
    assert_eq!(report.polls, 6);
    assert_eq!(report.last_change, Some(ms(400)));
    assert_eq!(report.total, ms(450));
}

#[test]
fn events_keep_arriving_then_stop() {
    let mut script = Script::new().events(0, 1000, 100);
    let report = default_run(&mut script);
    assert!(report.settled);
    // No dump saw a change; the last event is when the screen was last known to change.
    assert_eq!(report.last_change, Some(ms(1000)));
    assert_eq!(report.idle, Some(ms(300)));
    assert_eq!(report.total, ms(1300));
    assert_eq!(report.polls, 23);
    assert_eq!(report.decided_by, Some(DecidedBy::StructureAndEvents));
    // While events come, no poll can settle: only the last two polls dump.
    assert_eq!(report.dumps, 2);
    assert_eq!(script.reads, [ms(1250), ms(1300)]);
}

#[test]
fn a_ticker_returns_unsettled_at_the_ceiling() {
    let mut script = Script::new().frames(0, 10_000, 40);
    let report = default_run(&mut script);
    assert!(!report.settled);
    assert_eq!(report.waiting_on, Some(WaitingOn::Structure));
    assert_eq!(report.total, ms(5000));
    assert_eq!(report.polls, 97);
    assert_eq!(report.last_change, Some(ms(5000)));

    // A ceiling off the poll grid is still met exactly, not overshot.
    let config = SettleConfig {
        ceiling: ms(4990),
        ..SettleConfig::default()
    };
    let report = Script::new().frames(0, 10_000, 40).run(&config, 0).unwrap();
    assert!(!report.settled);
    assert_eq!(report.total, ms(4990));
}

#[test]
fn the_ceiling_says_which_signal_was_still_moving() {
    let busy = default_run(&mut Script::new().events(0, 10_000, 100));
    assert_eq!(
        (busy.settled, busy.waiting_on),
        (false, Some(WaitingOn::Events))
    );
    assert_eq!(busy.idle, Some(ms(0)));
    assert_eq!(busy.total, ms(5000));

    let both = default_run(&mut Script::new().frames(0, 10_000, 40).events(0, 10_000, 40));
    assert_eq!(
        (both.settled, both.waiting_on),
        (false, Some(WaitingOn::Both))
    );
}

#[test]
fn an_animation_longer_than_a_second_is_waited_out() {
    let mut script = Script::new().frames(0, 1500, 16).events(0, 1500, 16);
    let report = default_run(&mut script);
    assert!(report.settled);
    assert_eq!(report.last_change, Some(ms(1500)));
    assert_eq!(report.idle, Some(ms(300)));
    assert_eq!(report.total, ms(1800));
}

#[test]
fn events_stop_but_the_hash_still_changes() {
    let mut script = Script::new().events(0, 300, 50).frames(0, 1200, 30);
    let report = default_run(&mut script);
    assert!(report.settled);
    assert_eq!(report.last_change, Some(ms(1200)));
    assert_eq!(report.total, ms(1250));
    assert_eq!(report.idle, Some(ms(950)));
}

#[test]
fn a_signal_error_mid_wait_is_returned() {
    let mut script = Script::new().frames(0, 2000, 16).fail_from(600);
    assert_eq!(script.run(&SettleConfig::default(), 0), Err(Disconnected));
    assert_eq!(script.reads.last(), Some(&ms(600)));

    // Gone before the first poll.
    let mut script = Script::new().fail_from(0);
    assert_eq!(script.run(&SettleConfig::default(), 0), Err(Disconnected));
    assert_eq!(script.reads, [ms(200)]);
}

#[test]
fn a_poll_longer_than_quiet() {
    let config = SettleConfig {
        poll: ms(500),
        quiet: ms(100),
        ..SettleConfig::default()
    };
    let mut script = Script::new().events(0, 400, 100);
    let report = script.run(&config, 0).unwrap();
    assert!(report.settled);
    assert_eq!(script.reads, [ms(200), ms(700)]);
    assert_eq!(report.idle, Some(ms(300)));
}

#[test]
fn a_zero_floor_polls_at_once() {
    let config = SettleConfig {
        floor: Duration::ZERO,
        ..SettleConfig::default()
    };
    let report = Script::new().run(&config, 0).unwrap();
    assert_eq!(
        (report.floor, report.total, report.polls),
        (ms(0), ms(50), 2)
    );
}

#[test]
fn a_zero_poll_still_lets_time_pass() {
    let config = SettleConfig {
        poll: Duration::ZERO,
        ..SettleConfig::default()
    };
    let report = Script::new().run(&config, 0).unwrap();
    assert_eq!((report.total, report.polls), (ms(201), 2));
}

#[test]
fn an_action_slow_to_send_shortens_the_floor() {
    // The action was sent at 0 and took 300 ms: the floor has passed, poll at once.
    let mut script = Script::new();
    script.clock.sleep(ms(300));
    let report = script.run(&SettleConfig::default(), 0).unwrap();
    assert_eq!((report.floor, report.total), (ms(300), ms(350)));
    assert_eq!(script.reads, [ms(300), ms(350)]);

    // Only part of the floor has passed: wait out the rest.
    let mut script = Script::new();
    script.clock.sleep(ms(120));
    let report = script.run(&SettleConfig::default(), 0).unwrap();
    assert_eq!((report.floor, report.total), (ms(200), ms(250)));

    // Already past the ceiling: one poll, then an honest `settled: false`.
    let mut script = Script::new();
    script.clock.sleep(ms(6000));
    let report = script.run(&SettleConfig::default(), 0).unwrap();
    assert_eq!((report.settled, report.polls), (false, 1));
    assert_eq!(report.total, ms(6000));
}

#[test]
fn started_at_is_in_the_clocks_frame() {
    let mut script = Script::new().frames(1000, 1100, 16);
    script.clock.sleep(ms(1000));
    let report = script.run(&SettleConfig::default(), 1000).unwrap();
    // Change seen at 1200 (the floor) as the first hash; 1250 confirms.
    assert_eq!((report.floor, report.total), (ms(200), ms(250)));
    assert_eq!(script.clock.now(), ms(1250));
}

#[test]
fn a_floor_beyond_the_ceiling_stops_at_the_ceiling() {
    let config = SettleConfig {
        floor: ms(1000),
        ceiling: ms(500),
        ..SettleConfig::default()
    };
    let report = Script::new().run(&config, 0).unwrap();
    assert_eq!(
        (report.settled, report.polls, report.total),
        (false, 1, ms(500))
    );
}

/// The settle overhead (return time minus the end of the animation) stays within
/// `poll + quiet`, and the wait never declares settled while the animation runs.
#[test]
fn settle_overhead_is_bounded_for_any_animation_length() {
    let config = SettleConfig::default();
    for length in (0..=2000).step_by(50) {
        for phase in [0, 13, 29, 47] {
            for with_events in [false, true] {
                let end = length + phase;
                let mut script = Script::new();
                if end > 0 {
                    script = script.frames(0, end, 16);
                }
                if with_events {
                    script = script.events(0, end, 16);
                }
                let report = default_run(&mut script);
                let case = format!("animation {end} ms, events {with_events}: {report:?}");
                let end = ms(end);
                assert!(report.settled, "{case}");
                assert!(report.total >= end, "{case}");
                let overhead = report.total - end;
                assert!(overhead <= config.poll + config.quiet, "{case}");
                // Tighter: events add the quiet time, a bare hash change two polls.
                let floor_bound = config.floor + config.poll;
                let bound = if with_events {
                    assert!(report.total >= end + config.quiet, "{case}");
                    end + config.quiet + config.poll
                } else {
                    end + 2 * config.poll
                };
                assert!(report.total <= bound.max(floor_bound), "{case}");
            }
        }
    }
}

#[test]
fn virtual_clock_clones_share_time_and_saturate() {
    let mut clock = VirtualClock::default();
    let other = clock.clone();
    clock.sleep(ms(70));
    assert_eq!(other.now(), ms(70));
    clock.sleep(Duration::MAX);
    assert_eq!(other.now(), Duration::from_nanos(u64::MAX));
}

#[test]
fn config_reads_and_writes_milliseconds() {
    let text = toml::to_string(&SettleConfig::default()).unwrap();
    assert_eq!(
        text,
        "floor_ms = 200\npoll_ms = 50\nquiet_ms = 300\nceiling_ms = 5000\n"
    );
    let partial: SettleConfig = toml::from_str("poll_ms = 20").unwrap();
    assert_eq!(
        partial,
        SettleConfig {
            poll: ms(20),
            ..SettleConfig::default()
        }
    );
    assert!(toml::from_str::<SettleConfig>("poll = 20").is_err());
}

#[test]
fn report_is_json_in_milliseconds() {
    let settled = default_run(&mut Script::new());
    let json = serde_json::to_string(&settled).unwrap();
    assert_eq!(
        json,
        r#"{"floor_ms":200,"polls":2,"dumps":2,"last_change_ms":null,"idle_ms":null,"total_ms":250,"settled":true,"decided_by":"structure","look":{"backend":"sim","look_ms":0}}"#
    );
    assert_eq!(
        serde_json::from_str::<SettleReport>(&json).unwrap(),
        settled
    );

    let ticker = default_run(&mut Script::new().frames(0, 10_000, 40).events(0, 0, 1));
    let json = serde_json::to_string(&ticker).unwrap();
    assert!(json.contains(r#""last_change_ms":5000,"idle_ms":5000,"total_ms":5000,"settled":false,"waiting_on":"structure""#), "{json}");
    assert_eq!(serde_json::from_str::<SettleReport>(&json).unwrap(), ticker);
}

#[test]
fn the_ceiling_dumps_even_when_events_never_stop() {
    let mut script = Script::new().events(0, 10_000, 100);
    let report = default_run(&mut script);
    assert_eq!((report.settled, report.total), (false, ms(5000)));
    // The poll before the ceiling and the ceiling's: the tree returned, and what moved.
    assert_eq!(script.reads, [ms(4950), ms(5000)]);
    assert_eq!(report.dumps, 2);
    assert_eq!(report.waiting_on, Some(WaitingOn::Events));
}

#[test]
fn a_report_of_an_older_recording_reads_without_dumps() {
    let json = r#"{"floor_ms":200,"polls":9,"last_change_ms":600,"idle_ms":300,"total_ms":900,"settled":true}"#;
    let report: SettleReport = serde_json::from_str(json).unwrap();
    assert_eq!(
        (report.polls, report.dumps, report.decided_by),
        (9, 0, None)
    );
}

#[test]
fn an_idle_dump_is_the_whole_wait() {
    // A stock phone: the dump starts 600 ms in, then waits 1 s without events.
    let mut script = Script::new()
        .frames(0, 1400, 16)
        .events(0, 1400, 100)
        .idle_dumps(600, 1000);
    let waited = script.wait(&SettleConfig::default(), 0).unwrap();
    let report = waited.report;
    assert_eq!((report.settled, report.dumps, report.polls), (true, 1, 1));
    assert_eq!(report.decided_by, Some(DecidedBy::IdleDump));
    // Its process start covers the floor: the dump begins at once.
    assert_eq!(script.reads, [ms(0)]);
    assert_eq!(waited.looked_at, ms(0));
    // Read 1 s after the last event, at 1400: the settled frame.
    assert_eq!(report.total, ms(2400));
    assert_eq!(waited.look, script.hash_now());
    assert_eq!(script.clock.now(), ms(2400));
}

#[test]
fn an_idle_dump_starting_faster_than_the_floor_waits_out_the_rest() {
    let mut script = Script::new().idle_dumps(50, 1000);
    let report = default_run(&mut script);
    assert_eq!(script.reads, [ms(150)]);
    assert_eq!(report.floor, ms(150));
    assert_eq!(report.total, ms(1200));
}

#[test]
fn an_idle_dump_on_a_screen_that_never_settles_stops_at_the_ceiling() {
    let mut script = Script::new().events(0, 20_000, 40).idle_dumps(600, 1000);
    let failed = script.wait(&SettleConfig::default(), 0).unwrap_err();
    assert_eq!(failed.error, Gone::NotIdle);
    let report = failed.report;
    assert_eq!((report.settled, report.dumps), (false, 1));
    assert_eq!((report.decided_by, report.waiting_on), (None, None));
    assert_eq!(report.total, ms(5000));
    assert_eq!(script.clock.now(), ms(5000));
}

#[test]
fn an_idle_dump_quieter_than_asked_for_is_polled_like_snapshots() {
    // The dump waits 100 ms; settling asks for 300 ms of quiet: one dump proves too little.
    let mut script = Script::new().events(0, 600, 100).idle_dumps(0, 100);
    let report = default_run(&mut script);
    assert!(report.settled);
    assert_eq!(report.decided_by, Some(DecidedBy::StructureAndEvents));
    assert!(report.dumps >= 2, "{report:?}");
}

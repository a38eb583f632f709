//! Settling by snapshot dumps: from the floor, a poll every `poll` until two dumps in a row
//! show the same structure while no accessibility event came for `quiet`.
//!
//! Events are the cheap signal: a dump is only paid for at a poll that could settle, or
//! whose hash the next poll could settle against. Until the last event is `quiet` old, no
//! poll can settle, so the dumps before the poll that precedes that moment are skipped.
//! The settling poll is the same as if every poll dumped.

use std::time::Duration;

use super::{
    Clock, DecidedBy, LookCosts, SettleConfig, SettleReport, Signals, WaitFailed, Waited,
    WaitingOn, sleep_until,
};

pub(super) fn wait<C: Clock, S: Signals>(
    clock: &mut C,
    signals: &mut S,
    config: &SettleConfig,
    started_at: Duration,
) -> Result<Waited<S::Look>, WaitFailed<S::Error>> {
    // A zero poll would spin without time passing.
    let poll = config.poll.max(Duration::from_millis(1));
    let ceiling_at = started_at.saturating_add(config.ceiling);
    let floor_at = started_at.saturating_add(config.floor).min(ceiling_at);
    sleep_until(clock, floor_at);

    let first_poll = clock.now();
    let mut report = SettleReport {
        floor: first_poll.saturating_sub(started_at),
        polls: 0,
        dumps: 0,
        last_change: None,
        idle: None,
        total: Duration::ZERO,
        settled: false,
        decided_by: None,
        waiting_on: None,
        look: None,
    };
    let mut previous: Option<u64> = None;
    let mut costs = LookCosts::default();
    loop {
        let at = clock.now();
        report.polls = report.polls.saturating_add(1);
        let at_ceiling = at >= ceiling_at;
        let next = at.saturating_add(poll);
        let event = signals.last_event_at();
        let quiet_from = event.map(|event| event.saturating_add(config.quiet));
        // Neither this poll nor the next can settle before `quiet_from`; the ceiling's poll
        // and the one before it always dump, so the ceiling can say what still moved.
        let worth_a_dump = next >= ceiling_at || quiet_from.is_none_or(|q| next >= q);
        if !worth_a_dump {
            // No dump sees the change the events tell of: the last event dates it.
            if let Some(event) = event.filter(|&e| e >= started_at) {
                report.last_change = Some(event.saturating_sub(started_at));
            }
            previous = None;
            sleep_until(clock, next.min(ceiling_at));
            continue;
        }

        let limit = ceiling_at.saturating_sub(at).max(poll);
        let looked = signals.look(limit);
        costs.add(clock.now().saturating_sub(at));
        let (hash, look) = match looked {
            Ok(seen) => seen,
            Err(error) => {
                report.total = clock.now().saturating_sub(started_at);
                report.look = costs.used(signals);
                return Err(WaitFailed { report, error });
            }
        };
        report.dumps = report.dumps.saturating_add(1);
        // Read after the dump: an event while it ran is not quiet.
        let event = signals.last_event_at();
        report.idle = event.map(|event| at.saturating_sub(event));
        let unchanged = previous == Some(hash);
        if previous.is_some() && !unchanged {
            report.last_change = Some(at.saturating_sub(started_at));
        }
        let quiet = report.idle.is_none_or(|idle| idle >= config.quiet);
        report.waiting_on = match (unchanged, quiet) {
            (true, true) => None,
            (false, true) => Some(WaitingOn::Structure),
            (true, false) => Some(WaitingOn::Events),
            (false, false) => Some(WaitingOn::Both),
        };
        if report.waiting_on.is_none() || at_ceiling {
            report.settled = report.waiting_on.is_none();
            report.decided_by = report.settled.then_some(match event {
                Some(_) => DecidedBy::StructureAndEvents,
                None => DecidedBy::Structure,
            });
            report.total = clock.now().saturating_sub(started_at);
            report.look = costs.used(signals);
            return Ok(Waited {
                report,
                look,
                looked_at: at,
            });
        }
        previous = Some(hash);
        // The last poll lands on the ceiling itself, so the wait never overshoots it.
        sleep_until(clock, next.min(ceiling_at));
    }
}

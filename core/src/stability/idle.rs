//! Settling by one dump that waits for idle itself (stock `uiautomator dump`): the dump only
//! reads the screen once no accessibility event came for its quiet time, so a dump that
//! returns is a settled look, and polling with more of them (2 s each on a phone) would
//! only repeat that proof.

use std::time::Duration;

use super::{
    Clock, DecidedBy, LookCosts, SettleConfig, SettleReport, Signals, WaitFailed, Waited,
    sleep_until,
};

pub(super) fn wait<C: Clock, S: Signals>(
    clock: &mut C,
    signals: &mut S,
    config: &SettleConfig,
    started_at: Duration,
    watches_after: Duration,
) -> Result<Waited<S::Look>, WaitFailed<S::Error>> {
    let ceiling_at = started_at.saturating_add(config.ceiling);
    // The dump starts watching only after its own start: the floor is counted from there.
    let start_at = started_at
        .saturating_add(config.floor)
        .saturating_sub(watches_after)
        .max(started_at)
        .min(ceiling_at);
    sleep_until(clock, start_at);
    let at = clock.now();
    let looked = signals.look(ceiling_at.saturating_sub(at));
    let mut costs = LookCosts::default();
    costs.add(clock.now().saturating_sub(at));
    let mut report = SettleReport {
        floor: at.saturating_sub(started_at),
        polls: 1,
        dumps: 1,
        last_change: None,
        idle: None,
        total: clock.now().saturating_sub(started_at),
        settled: false,
        decided_by: None,
        waiting_on: None,
        look: costs.used(signals),
    };
    match looked {
        Ok((_, look)) => {
            report.settled = true;
            report.decided_by = Some(DecidedBy::IdleDump);
            Ok(Waited {
                report,
                look,
                looked_at: at,
            })
        }
        Err(error) => Err(WaitFailed { report, error }),
    }
}

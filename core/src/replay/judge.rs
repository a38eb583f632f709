//! One step judged: the recorded step and today's, each with the screen it left, give a
//! [`StepResult`]. When both left the same screenshot, the text read in its pixels is not
//! compared ([`Pixels::Same`]): it differs only where two engines read one picture
//! differently. The replay command judges each step as it runs; the workbench judges two
//! recordings side by side from their files.

use crate::forensics;
use crate::model::Tree;
use crate::prune::Pruned;
use crate::recording::{Recording, RecordingError, ScreenRef, Step};
use crate::stability::SettleReport;

use super::{AtPoint, Ignore, Pixels, Screen, StepResult, ThenNow, Verdict, compare};

/// One run's side of a step: the step as recorded, the screen it left (when that run read
/// one and it could be loaded), and what its display point met, for a pixel action.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub step: &'a Step,
    pub after: Option<Screen<'a>>,
    pub at_point: Option<&'a str>,
}

/// Judges today's step against the recorded one. `target` is the recorded node the call
/// named; `slower_factor` flags a settle that took that many times as long.
pub fn judge(
    then: Side<'_>,
    now: Side<'_>,
    target: Option<String>,
    ignore: &Ignore,
    slower_factor: f64,
) -> StepResult {
    let compared = compare(
        (then.step.outcome, now.step.outcome),
        &now.step.message,
        then.after,
        now.after,
        ignore,
        pictures(then.step, now.step),
    );
    // A crash the recording did not log is the first thing wrong with the step.
    let verdict = match (compared, new_crashes(then.step, now.step, ignore)) {
        (diverged @ Verdict::Diverged(_), _) => diverged,
        (_, crashes) if !crashes.is_empty() => {
            Verdict::Diverged(super::Divergence::Crashed { crashes })
        }
        (compared, _) => compared,
    };
    let settle_ms = ThenNow {
        then: settle_ms(then.step),
        now: settle_ms(now.step),
    };
    // A pixel action's point; a handle's node is its target already.
    let pixels = then.step.handle.is_none();
    let at_point = then
        .step
        .path
        .first()
        .filter(|_| pixels)
        .map(|&point| AtPoint {
            point,
            then: then.at_point.map(str::to_owned),
            now: now.at_point.map(str::to_owned),
        });
    StepResult {
        step: then.step.step,
        tool: then.step.tool.clone(),
        target,
        verdict,
        retries: 0,
        flaky: false,
        settle_ms,
        pruned_tokens: ThenNow {
            then: then.step.after.as_ref().map(|s| s.pruned_tokens),
            now: now.step.after.as_ref().map(|s| s.pruned_tokens),
        },
        slower: StepResult::is_slower(settle_ms, slower_factor),
        at_point,
    }
}

/// The crashes `now`'s log says that `then`'s does not (the same kind in the same process
/// for the same reason), less those `ignore` lets pass; a recording without logs says none.
fn new_crashes(then: &Step, now: &Step, ignore: &Ignore) -> Vec<String> {
    let before = then.log.as_ref().map_or(&[][..], |l| l.crashes.as_slice());
    let Some(after) = now.log.as_ref() else {
        return Vec::new();
    };
    after
        .crashes
        .iter()
        .filter(|c| {
            !before
                .iter()
                .any(|b| b.kind == c.kind && b.process == c.process && b.what == c.what)
        })
        .filter(|c| !ignore.lets_crash_pass(&c.said))
        .map(|c| c.said.clone())
        .collect()
}

/// [`Pixels::Same`] when both steps left a screen with the same screenshot: the same file
/// name, which is the hash of its bytes.
pub fn pictures(then: &Step, now: &Step) -> Pixels {
    fn shot(step: &Step) -> Option<&str> {
        step.after.as_ref()?.screenshot.as_deref()
    }
    match (shot(then), shot(now)) {
        (Some(a), Some(b)) if a == b => Pixels::Same,
        _ => Pixels::Differ,
    }
}

/// How long the step's settle wait took, when it waited.
pub fn settle_ms(step: &Step) -> Option<u64> {
    let report: SettleReport = serde_json::from_value(step.settle.clone()?).ok()?;
    Some(report.total.as_millis() as u64)
}

/// A recorded screen as the agent read it: its dump and the tree pruned again with the
/// default rules under its version; `None` when the dump does not prune back to the stored
/// text (another tapscope's rules) or does not parse.
pub fn recorded_screen(
    recording: &Recording,
    screen: &ScreenRef,
) -> Result<Option<(Tree, Pruned)>, RecordingError> {
    forensics::screen::as_read(recording, screen)
}

/// The latest screen of `version` among `steps` (screens after, then before).
pub fn screen_of<'a>(steps: &'a [Step], version: &str) -> Option<&'a ScreenRef> {
    forensics::find_screen(steps, version)
}

/// What a tap at `point` meets on `tree`, named as its pruned line names it.
pub fn at_point(tree: &Tree, point: [i32; 2]) -> Option<String> {
    forensics::screen::at_point(tree, crate::geometry::Point::new(point[0], point[1]))
        .map(|target| target.label)
}

impl Verdict {
    /// Whether the verdict is [`Verdict::Same`].
    pub fn is_same(&self) -> bool {
        matches!(self, Verdict::Same)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::ScreenRef;

    fn left(screenshot: Option<&str>) -> Step {
        Step {
            after: Some(ScreenRef {
                version: "0123456789ab".into(),
                dump: "screens/0000000000000000.xml".into(),
                pruned: "screens/1111111111111111.yaml".into(),
                screenshot: screenshot.map(str::to_owned),
                pixel_text: None,
                raw_tokens: 100,
                pruned_tokens: 10,
            }),
            ..Step::default()
        }
    }

    fn crashed(what: &str) -> Step {
        Step {
            log: Some(crate::recording::StepLog {
                crashes: vec![crate::recording::LoggedCrash {
                    kind: "crash".into(),
                    process: "tv.tapscope.demo".into(),
                    what: what.into(),
                    said: format!(
                        "12-01 00:00:05.000 crash in tv.tapscope.demo (pid 3101): {what}"
                    ),
                }],
                ..crate::recording::StepLog::default()
            }),
            ..Step::default()
        }
    }

    fn verdict(then: &Step, now: &Step, ignore: &Ignore) -> Verdict {
        let side = |step| Side {
            step,
            after: None,
            at_point: None,
        };
        judge(side(then), side(now), None, ignore, 2.0).verdict
    }

    #[test]
    fn a_crash_the_recording_did_not_log_diverges_naming_it() {
        let npe = "java.lang.NullPointerException: no account at A.onCreate(A.java:42)";
        let quiet = Step {
            log: Some(crate::recording::StepLog::default()),
            ..Step::default()
        };
        match verdict(&quiet, &crashed(npe), &Ignore::default()) {
            Verdict::Diverged(why) => {
                let said = why.sentence();
                assert!(
                    said.contains("crash in tv.tapscope.demo") && said.contains(npe),
                    "{said}"
                );
            }
            other => panic!("{other:?}"),
        }
        // A recording without logs said nothing either.
        assert!(matches!(
            verdict(&Step::default(), &crashed(npe), &Ignore::default()),
            Verdict::Diverged(_)
        ));
        // The same crash then and now, or one the user lets pass, is no divergence.
        assert!(verdict(&crashed(npe), &crashed(npe), &Ignore::default()).is_same());
        let expected = Ignore::default()
            .with_log(&["NullPointerException".into()])
            .unwrap();
        assert!(verdict(&quiet, &crashed(npe), &expected).is_same());
    }

    #[test]
    fn only_the_same_screenshot_on_both_sides_is_the_same_picture() {
        let a = "screens/0123456789abcdef.png";
        let b = "screens/fedcba9876543210.png";
        assert_eq!(pictures(&left(Some(a)), &left(Some(a))), Pixels::Same);
        assert_eq!(pictures(&left(Some(a)), &left(Some(b))), Pixels::Differ);
        assert_eq!(pictures(&left(Some(a)), &left(None)), Pixels::Differ);
        assert_eq!(pictures(&left(None), &left(None)), Pixels::Differ);
        assert_eq!(pictures(&Step::default(), &left(Some(a))), Pixels::Differ);
    }
}

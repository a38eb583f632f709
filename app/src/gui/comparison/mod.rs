//! A run compared with the recording it replays, step by step: row N holds the original's
//! step N and the run's step N (the run's step N replays the original's step N; a run that
//! stopped at a divergence is shorter). Each row's verdict is worked out off the UI thread
//! ([`judging`]) and read as it comes; the tree diff of a row's screens is made once, when
//! the row is shown.

mod judging;
mod locate;

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use tapscope_core::inspect::tree_diff::{TreeDiff, tree_diff};
use tapscope_core::replay::{self, Ignore, Report, StepResult, Verdict};

use self::judging::Judging;
pub use self::locate::original_path;
use super::recording::{Recording, Screen, StepRef};

/// Two recordings, the second a replay of the first, and the verdicts on their steps.
#[derive(Debug)]
pub struct Comparison {
    pub original: Arc<Recording>,
    pub run: Arc<Recording>,
    judging: Judging,
    /// The verdicts of steps the replay judged without making a call (it diverged before
    /// one), from the report it left in the run; by row.
    uncalled: HashMap<usize, Arc<Judged>>,
    /// The run's report could not be read (said once, in the summary).
    pub report_problem: Option<String>,
    /// Each shown row's screens after compared, by row.
    diffs: Mutex<HashMap<usize, Arc<TreeDiff>>>,
}

/// A step of both runs judged: the verdict and what could not be compared.
#[derive(Clone, Debug)]
pub struct Judged {
    pub result: StepResult,
    /// Screens that could not be read or pruned again, so the verdict went without them.
    pub notes: Vec<String>,
}

impl Judged {
    /// What the verdict says: what changed, why it diverged, or that the screen after it
    /// reads the same.
    pub fn sentence(&self) -> String {
        match &self.result.verdict {
            Verdict::Same => "the same outcome, and the screen after it reads the same".into(),
            Verdict::Changed(changes) => {
                format!("the screen after it changed: {}", changes.sentence())
            }
            Verdict::Diverged(why) => why.sentence(),
        }
    }
}

/// What a row reads as.
#[derive(Clone, Debug)]
pub enum Judgement {
    /// Both runs made the step; its verdict is still being worked out.
    Pending,
    Judged(Arc<Judged>),
    /// The run stopped before this step.
    NotRun,
    /// The run made a step the original does not have.
    NotInOriginal,
}

impl Judgement {
    /// `same`, `changed`, `diverged`, `not run`, `judging`, `not in the original`.
    pub fn word(&self) -> &'static str {
        match self {
            Self::Pending => "judging",
            Self::Judged(judged) => judged.result.verdict.name(),
            Self::NotRun => "not run",
            Self::NotInOriginal => "not in the original",
        }
    }

    /// The verdict, once there is one.
    pub fn verdict(&self) -> Option<&Verdict> {
        match self {
            Self::Judged(judged) => Some(&judged.result.verdict),
            _ => None,
        }
    }

    /// Judged the same: nothing to look at.
    pub fn is_same(&self) -> bool {
        self.verdict().is_some_and(Verdict::is_same)
    }

    fn is_diverged(&self) -> bool {
        matches!(self.verdict(), Some(Verdict::Diverged(_)))
    }
}

/// Row `index` of a comparison: step N of each run, when that run has it.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    pub comparison: &'a Comparison,
    pub index: usize,
    pub original: Option<StepRef<'a>>,
    pub run: Option<StepRef<'a>>,
}

impl<'a> Row<'a> {
    pub fn judgement(&self) -> Judgement {
        self.comparison.judgement(self.index)
    }

    /// The step's number and tool, from the original when it has the step.
    pub fn step(&self) -> Option<StepRef<'a>> {
        self.original.or(self.run)
    }

    /// Whether this row is the first that diverged.
    pub fn is_first_divergence(&self) -> bool {
        self.comparison.first_divergence() == Some(self.index)
    }
}

impl Comparison {
    /// `run` compared with `original`, its verdicts worked out from now on in the
    /// background. The report the replay left in the run, when it left one, gives the
    /// verdicts of the steps it judged without a call.
    pub fn new(original: Arc<Recording>, run: Arc<Recording>) -> Self {
        let judging = Judging::start(&original.recording, &run.recording);
        let (report, report_problem) = match Report::read(&run.recording.dir) {
            Ok(report) => (report, None),
            Err(problem) => (None, Some(problem.to_string())),
        };
        let made = run.steps().len();
        let uncalled = report
            .into_iter()
            .flat_map(|report| report.steps)
            .filter_map(|result| {
                let row = usize::try_from(result.step).ok()?.checked_sub(1)?;
                let judged = Judged {
                    result,
                    notes: Vec::new(),
                };
                (row >= made).then(|| (row, Arc::new(judged)))
            })
            .collect();
        Self {
            original,
            run,
            judging,
            uncalled,
            report_problem,
            diffs: Mutex::default(),
        }
    }

    /// One row per step of the longer run.
    pub fn rows(&self) -> usize {
        self.original.steps().len().max(self.run.steps().len())
    }

    pub fn row(&self, index: usize) -> Option<Row<'_>> {
        (index < self.rows()).then(|| Row {
            comparison: self,
            index,
            original: self.original.step(index),
            run: self.run.step(index),
        })
    }

    /// What row `index` reads as now.
    pub fn judgement(&self, index: usize) -> Judgement {
        let (original, run) = (self.original.steps().len(), self.run.steps().len());
        match (index < original, index < run) {
            (true, true) => self
                .judging
                .get(index)
                .map_or(Judgement::Pending, Judgement::Judged),
            (true, false) => self
                .uncalled
                .get(&index)
                .map_or(Judgement::NotRun, |judged| {
                    Judgement::Judged(Arc::clone(judged))
                }),
            (false, _) => Judgement::NotInOriginal,
        }
    }

    /// Judges row `index` before the others still waiting (the row a person looks at).
    pub fn hurry(&self, index: usize) {
        self.judging.hurry(index);
    }

    /// The first row that diverged, once every row before it is judged.
    pub fn first_divergence(&self) -> Option<usize> {
        (0..self.rows())
            .map(|k| (k, self.judgement(k)))
            .take_while(|(_, j)| !matches!(j, Judgement::Pending))
            .find(|(_, j)| j.is_diverged())
            .map(|(k, _)| k)
    }

    /// The rows not judged the same (changed, diverged, not run, still judging).
    pub fn differing(&self) -> Vec<usize> {
        (0..self.rows())
            .filter(|&k| !self.judgement(k).is_same())
            .collect()
    }

    /// Whether every step both runs made is judged.
    pub fn is_judged(&self) -> bool {
        self.judging.is_done()
    }

    /// Waits until every step is judged (tests, benchmarks, scripted use).
    pub fn wait(&self) {
        self.judging.wait();
    }

    /// Row `index`'s screens after compared as its verdict compares them (volatile text
    /// masked, nodes known by resource id), once per row.
    pub fn diff(&self, index: usize, then: &Screen, now: &Screen) -> Arc<TreeDiff> {
        let mut diffs = self.diffs.lock();
        let diff = diffs.entry(index).or_insert_with(|| {
            let ignore = Ignore::default();
            let comparable = |screen: &Screen| {
                let read = replay::Screen {
                    tree: &screen.document.tree,
                    pruned: &screen.inspection().pruned,
                };
                replay::comparable(read, &ignore)
            };
            Arc::new(tree_diff(&comparable(then), &comparable(now)))
        });
        Arc::clone(diff)
    }
}

#[cfg(test)]
mod fixture;

#[cfg(test)]
mod tests {
    use tapscope_core::recording::StepOutcome;
    use tapscope_core::replay::Divergence;

    use super::fixture::{Fixture, Made};
    use super::*;

    /// The original of four steps, and a run that changed the second's screen, refused
    /// the third and stopped there.
    fn compared() -> (Fixture, Comparison) {
        let fixture = Fixture::new();
        let original = fixture.write(
            "original",
            None,
            &[Made::Ok("a"), Made::Ok("b"), Made::Ok("c"), Made::Ok("a")],
        );
        let run = fixture.write(
            "run",
            Some("original"),
            &[Made::Ok("a"), Made::Ok("bee"), Made::Refused("c")],
        );
        let comparison = Comparison::new(original, run);
        comparison.wait();
        (fixture, comparison)
    }

    #[test]
    fn rows_align_step_by_step_with_a_verdict_each_and_the_rest_not_run() {
        let (_fixture, comparison) = compared();
        assert_eq!(comparison.rows(), 4);
        assert!(comparison.is_judged());
        let words: Vec<&str> = (0..4).map(|k| comparison.judgement(k).word()).collect();
        assert_eq!(words, ["same", "changed", "diverged", "not run"]);
        let Some(Verdict::Changed(changes)) = comparison.judgement(1).verdict().cloned() else {
            panic!("changed");
        };
        let renamed = "\"Button b\" → \"Button bee\" (text)";
        assert_eq!(changes.changed, [renamed], "{changes:?}");
        let Some(Verdict::Diverged(Divergence::Outcome { then, now, .. })) =
            comparison.judgement(2).verdict().cloned()
        else {
            panic!("diverged on the outcome");
        };
        assert_eq!((then, now), (StepOutcome::Ok, StepOutcome::Refused));
        let row = comparison.row(3).expect("row 4");
        assert!(row.original.is_some() && row.run.is_none());
        assert_eq!(row.step().expect("the original's").step.step, 4);
        assert!(comparison.row(4).is_none());
    }

    #[test]
    fn the_first_divergence_and_the_rows_that_differ() {
        let (_fixture, comparison) = compared();
        assert_eq!(comparison.first_divergence(), Some(2));
        assert!(comparison.row(2).expect("row 3").is_first_divergence());
        assert_eq!(comparison.differing(), [1, 2, 3]);
    }

    #[test]
    fn a_step_the_replay_judged_without_a_call_reads_its_report() {
        let fixture = Fixture::new();
        let original = fixture.write("original", None, &[Made::Ok("a"), Made::Ok("b")]);
        let run_dir = fixture.path("run");
        let mut report = Report {
            recording: "original".into(),
            device: "sim".into(),
            ..Report::default()
        };
        report.steps.push(StepResult {
            step: 2,
            tool: "tap".into(),
            target: Some("\"Button b\"".into()),
            verdict: Verdict::Diverged(Divergence::TargetGone {
                meant: "\"Button b\"".into(),
            }),
            retries: 1,
            flaky: false,
            settle_ms: replay::ThenNow::default(),
            pruned_tokens: replay::ThenNow::default(),
            slower: false,
            at_point: None,
        });
        let run = fixture.write("run", Some("original"), &[Made::Ok("a")]);
        report.write(&run_dir).expect("the report is written");
        let comparison = Comparison::new(original, run);
        comparison.wait();
        let words: Vec<&str> = (0..2).map(|k| comparison.judgement(k).word()).collect();
        assert_eq!(words, ["same", "diverged"]);
        assert_eq!(comparison.first_divergence(), Some(1));
        assert_eq!(comparison.report_problem, None);
    }

    #[test]
    fn a_run_longer_than_its_original_has_steps_not_in_it() {
        let fixture = Fixture::new();
        let original = fixture.write("original", None, &[Made::Ok("a")]);
        let run = fixture.write("run", None, &[Made::Ok("a"), Made::Ok("b")]);
        let comparison = Comparison::new(original, run);
        comparison.wait();
        assert_eq!(comparison.judgement(0).word(), "same");
        assert_eq!(comparison.judgement(1).word(), "not in the original");
        assert_eq!(comparison.first_divergence(), None);
    }

    #[test]
    fn the_diff_of_a_row_is_the_one_its_verdict_read() {
        let (_fixture, comparison) = compared();
        let row = comparison.row(1).expect("row 2");
        let screen = |step: StepRef<'_>| {
            let after = step.step.after.as_ref().expect("a screen after");
            step.recording.screen(after).expect("loads")
        };
        let (then, now) = (screen(row.original.expect("")), screen(row.run.expect("")));
        let diff = comparison.diff(1, &then, &now);
        assert!(
            diff.appeared.is_empty() && diff.disappeared.is_empty(),
            "{diff:?}"
        );
        let [renamed] = diff.changed.as_slice() else {
            panic!("one node changed: {diff:?}");
        };
        let labels = (renamed.before.label.as_str(), renamed.after.label.as_str());
        assert_eq!(labels, ("\"Button b\"", "\"Button bee\""));
        assert_eq!(renamed.what, ["text"]);
        assert!(Arc::ptr_eq(&diff, &comparison.diff(1, &then, &now)));
    }
}

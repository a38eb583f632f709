//! A comparison's verdicts worked out on a thread of its own, a step at a time in order
//! (the row a person looks at first, when it is still waiting); each screen is read and
//! pruned again once while it stays among the last few used. The UI reads each verdict as
//! soon as it is there; closing the comparison stops the thread at the next step.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::{Condvar, Mutex};
use tapscope_core::model::Tree;
use tapscope_core::prune::Pruned;
use tapscope_core::recording::{Recording, RecordingError, ScreenRef, Step};
use tapscope_core::replay::{
    Ignore, SLOWER_FACTOR, Screen, Side, at_point, judge, recorded_screen,
};

use super::Judged;

/// How many screens of each run stay read: a step's screen before is mostly the last one's
/// after, and runs come back to the same screens.
const HELD: usize = 16;

/// The verdicts so far, and the thread making the rest.
#[derive(Debug)]
pub(super) struct Judging {
    shared: Arc<Shared>,
}

/// The verdicts, shared by the judging thread and the view. A verdict is whole or not
/// there, so a thread that panicked leaves nothing unfit to read.
#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Told when the last step is judged.
    done: Condvar,
    /// A row to judge next, when it still waits (`usize::MAX`: none).
    hurry: AtomicUsize,
}

#[derive(Debug)]
struct State {
    /// By row, for the steps both runs made.
    judged: Vec<Option<Arc<Judged>>>,
    left: usize,
}

impl Judging {
    /// Starts judging the steps both `original` and `run` made.
    pub(super) fn start(original: &Arc<Recording>, run: &Arc<Recording>) -> Self {
        let steps = original.steps.len().min(run.steps.len());
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                judged: vec![None; steps],
                left: steps,
            }),
            done: Condvar::new(),
            hurry: AtomicUsize::new(usize::MAX),
        });
        let job = |shared: Weak<Shared>| {
            let (original, run) = (Arc::clone(original), Arc::clone(run));
            move || work(&shared, &original, &run)
        };
        let spawned = std::thread::Builder::new()
            .name("tapscope judge".into())
            .spawn(job(Arc::downgrade(&shared)));
        if spawned.is_err() {
            // No thread to be had: judged here, on the thread that opened the comparison.
            job(Arc::downgrade(&shared))();
        }
        Self { shared }
    }

    /// Row `index`'s verdict, once judged.
    pub(super) fn get(&self, index: usize) -> Option<Arc<Judged>> {
        self.shared
            .state
            .lock()
            .judged
            .get(index)
            .cloned()
            .flatten()
    }

    pub(super) fn hurry(&self, index: usize) {
        self.shared.hurry.store(index, Ordering::Relaxed);
    }

    pub(super) fn is_done(&self) -> bool {
        self.shared.state.lock().left == 0
    }

    pub(super) fn wait(&self) {
        let mut state = self.shared.state.lock();
        while state.left > 0 {
            self.shared.done.wait(&mut state);
        }
    }
}

impl Shared {
    /// The row to judge next: the hurried one while it waits, else the first waiting from
    /// `cursor` on; `None` when every row is judged.
    fn next(&self, cursor: &mut usize) -> Option<usize> {
        let state = self.state.lock();
        let hurried = self.hurry.swap(usize::MAX, Ordering::Relaxed);
        if state.judged.get(hurried).is_some_and(Option::is_none) {
            return Some(hurried);
        }
        while state.judged.get(*cursor).is_some_and(Option::is_some) {
            *cursor += 1;
        }
        (*cursor < state.judged.len()).then_some(*cursor)
    }

    fn put(&self, index: usize, judged: Judged) {
        let mut state = self.state.lock();
        state.judged[index] = Some(Arc::new(judged));
        state.left -= 1;
        if state.left == 0 {
            self.done.notify_all();
        }
    }
}

/// Judges every step both runs made, until done or the comparison is gone.
fn work(shared: &Weak<Shared>, original: &Recording, run: &Recording) {
    let ignore = Ignore::default();
    let mut memos = [Memo::new(original), Memo::new(run)];
    let mut cursor = 0;
    while let Some(shared) = shared.upgrade() {
        let Some(k) = shared.next(&mut cursor) else {
            return;
        };
        let judged = judge_step(&original.steps[k], &run.steps[k], &mut memos, &ignore);
        shared.put(k, judged);
    }
}

/// A recorded screen read and pruned again as the agent read it, or why it cannot be.
type Read = Result<Option<(Tree, Pruned)>, RecordingError>;

/// One step of each run judged, from the screens they left (and for a pixel action, what
/// its point met on the screens they acted on).
fn judge_step(then: &Step, now: &Step, memos: &mut [Memo<'_>; 2], ignore: &Ignore) -> Judged {
    let mut notes = Vec::new();
    let point = then.path.first().copied();
    let mut side = |k: usize, step: &Step, whose: &str| {
        let after = step
            .after
            .as_ref()
            .map(|screen| (screen, memos[k].get(screen)));
        if let Some(note) = after.as_ref().and_then(|(s, read)| note(whose, s, read)) {
            notes.push(note);
        }
        let met = point.and_then(|p| {
            let before = memos[k].get(step.before.as_ref()?);
            let Ok(Some((tree, _))) = &*before else {
                return None;
            };
            at_point(tree, p)
        });
        (after.map(|(_, read)| read), met)
    };
    let (then_after, then_met) = side(0, then, "the original's");
    let (now_after, now_met) = side(1, now, "the run's");
    let result = judge(
        Side {
            step: then,
            after: screen(&then_after),
            at_point: then_met.as_deref(),
        },
        Side {
            step: now,
            after: screen(&now_after),
            at_point: now_met.as_deref(),
        },
        then.acted_on.clone(),
        ignore,
        SLOWER_FACTOR,
    );
    Judged { result, notes }
}

/// The screen read, when it could be.
fn screen(read: &Option<Arc<Read>>) -> Option<Screen<'_>> {
    match read.as_deref() {
        Some(Ok(Some((tree, pruned)))) => Some(Screen { tree, pruned }),
        _ => None,
    }
}

/// Why a screen after a step could not be compared, when it could not.
fn note(whose: &str, screen: &ScreenRef, read: &Read) -> Option<String> {
    match read {
        Ok(Some(_)) => None,
        Ok(None) => Some(format!(
            "{whose} screen after ({}) does not prune back to the text the agent read; the \
             step was judged without it",
            screen.dump
        )),
        Err(why) => Some(format!(
            "{whose} screen after could not be read ({why}); the step was judged without it"
        )),
    }
}

/// The screens of one recording read last, most recent first.
struct Memo<'a> {
    recording: &'a Recording,
    held: VecDeque<(ScreenRef, Arc<Read>)>,
}

impl<'a> Memo<'a> {
    fn new(recording: &'a Recording) -> Self {
        Self {
            recording,
            held: VecDeque::with_capacity(HELD + 1),
        }
    }

    fn get(&mut self, screen: &ScreenRef) -> Arc<Read> {
        let same = |held: &ScreenRef| held.dump == screen.dump && held.version == screen.version;
        let entry = match self.held.iter().position(|(held, _)| same(held)) {
            Some(at) => self
                .held
                .remove(at)
                .unwrap_or_else(|| unreachable!("found above")),
            None => {
                let read = recorded_screen(self.recording, screen);
                (screen.clone(), Arc::new(read))
            }
        };
        let read = Arc::clone(&entry.1);
        self.held.push_front(entry);
        self.held.truncate(HELD);
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(steps: usize) -> Shared {
        Shared {
            state: Mutex::new(State {
                judged: vec![None; steps],
                left: steps,
            }),
            done: Condvar::new(),
            hurry: AtomicUsize::new(usize::MAX),
        }
    }

    fn judged() -> Judged {
        let step = Step::default();
        let side = Side {
            step: &step,
            after: None,
            at_point: None,
        };
        let result = judge(side, side, None, &Ignore::default(), SLOWER_FACTOR);
        Judged {
            result,
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_hurried_row_is_judged_next_then_the_rest_in_order() {
        let shared = shared(4);
        let mut cursor = 0;
        assert_eq!(shared.next(&mut cursor), Some(0));
        shared.put(0, judged());
        shared.hurry.store(2, Ordering::Relaxed);
        assert_eq!(shared.next(&mut cursor), Some(2));
        shared.put(2, judged());
        // A hurried row already judged, or past the end, changes nothing.
        shared.hurry.store(2, Ordering::Relaxed);
        assert_eq!(shared.next(&mut cursor), Some(1));
        shared.put(1, judged());
        shared.hurry.store(9, Ordering::Relaxed);
        assert_eq!(shared.next(&mut cursor), Some(3));
        shared.put(3, judged());
        assert_eq!(shared.next(&mut cursor), None);
        assert_eq!(shared.state.lock().left, 0);
    }
}

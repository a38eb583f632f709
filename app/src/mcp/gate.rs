//! The gate between agents and a person: a person takes the phone over (agents' calls wait,
//! then fail with a clear message), acts on the same session and journal as the agents, and
//! hands it back; the next agent call is told the screen changed meanwhile.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex, MutexGuard};
use serde_json::json;
use tapscope_core::recording::Actor;
use tapscope_core::session::{Action, Observation, Outcome};
use tokio_util::sync::CancellationToken;

use super::reply::{Failure, Reply};
use super::{PhoneServer, Request, ServedClock, ServedDevice, person};

/// What an agent's call answers when it waited past the limit for a person to hand back.
pub const HELD: &str = "a person holds the phone (taken over in the tapscope workbench); wait \
                        and call screen_operation_accessibility again";

/// The line the first agent call after a person's actions carries.
pub const CHANGED: &str = "the screen changed while a person held the phone (in the tapscope \
                           workbench): handles from before are stale; call \
                           screen_operation_accessibility for the latest tree";

/// What a call of a client that left while it waited answers (nobody reads it).
const LEFT: &str = "the client left while a person held the phone; nothing was done";

/// How long an agent's call waits for a person to hand the phone back.
pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(30);

/// How often a waiting call looks whether its client left.
const LOOK: Duration = Duration::from_millis(100);

tokio::task_local! {
    /// The running tool call's cancellation: cancelled when its client goes away.
    pub(super) static CALLER: CancellationToken;
}

/// Who may act: agents, or (taken over) only a person.
#[derive(Debug)]
pub struct Gate {
    state: Mutex<Hold>,
    turned: Condvar,
    patience: Duration,
}

#[derive(Debug, Default)]
struct Hold {
    held: bool,
    /// An agent has called: later person actions are news to it.
    agent_called: bool,
    /// A person acted since the last agent call.
    person_acted: bool,
    waiting: Waiting,
}

/// How an agent's call passed the gate, holding the lock it asked for.
pub(super) enum Entry<'a, T> {
    /// Free to act; the note to give the agent, if a person acted since its last call.
    Open(MutexGuard<'a, T>, Option<&'static str>),
    /// Waited past the limit: refuse the call.
    TimedOut(MutexGuard<'a, T>),
    /// Its client left while it waited.
    Left,
}

impl Default for Gate {
    fn default() -> Self {
        Self::new(DEFAULT_PATIENCE)
    }
}

impl Gate {
    /// A gate whose waiting calls give up after `patience`.
    pub fn new(patience: Duration) -> Self {
        Self {
            state: Mutex::new(Hold::default()),
            turned: Condvar::new(),
            patience,
        }
    }

    fn hold(&self) -> MutexGuard<'_, Hold> {
        self.state.lock()
    }

    /// A person holds the phone: agents' next calls wait.
    pub fn take_over(&self) {
        self.hold().held = true;
    }

    /// Agents may act again; the calls waiting proceed.
    pub fn hand_back(&self) {
        self.hold().held = false;
        self.turned.notify_all();
    }

    pub fn is_held(&self) -> bool {
        self.hold().held
    }

    /// A person's call reached the device: the agents' handles went stale.
    fn person_acted(&self) {
        let mut hold = self.hold();
        hold.person_acted = hold.agent_called;
    }

    /// The agents' calls waiting now, and how many gave up or left while a person held the
    /// phone, for the workbench to show.
    pub fn waiting(&self) -> Waiting {
        self.hold().waiting
    }

    /// Waits until no person holds the phone (at most the patience, and only while
    /// `left` says the client is there), then takes `lock`.
    pub(super) fn enter<'a, T>(&self, lock: &'a Mutex<T>, left: impl Fn() -> bool) -> Entry<'a, T> {
        let deadline = Instant::now() + self.patience;
        let take = || lock.lock();
        loop {
            match self.wait_while_held(deadline, &left) {
                Waited::Free => {}
                Waited::GaveUp => return Entry::TimedOut(take()),
                Waited::Left => return Entry::Left,
            }
            // The person's actions take this lock too, so after it nothing of theirs runs.
            let guard = take();
            let mut hold = self.hold();
            if !hold.held {
                hold.agent_called = true;
                let note = std::mem::take(&mut hold.person_acted).then_some(CHANGED);
                return Entry::Open(guard, note);
            }
            // Taken over between the wait and the lock: let go and wait again.
        }
    }

    /// Waits, counted among the waiting calls, while a person holds the phone.
    fn wait_while_held(&self, deadline: Instant, left: &impl Fn() -> bool) -> Waited {
        let mut hold = self.hold();
        if !hold.held {
            return Waited::Free;
        }
        hold.waiting.now += 1;
        let waited = loop {
            if !hold.held {
                break Waited::Free;
            }
            if left() {
                hold.waiting.left += 1;
                break Waited::Left;
            }
            let now = Instant::now();
            if now >= deadline {
                hold.waiting.gave_up += 1;
                break Waited::GaveUp;
            }
            let slice = (deadline - now).min(LOOK);
            self.turned.wait_for(&mut hold, slice);
        };
        hold.waiting.now -= 1;
        waited
    }
}

/// Agents' calls held at the gate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waiting {
    /// Calls waiting for the person to hand back.
    pub now: usize,
    /// Calls whose client left while waiting (since the server started).
    pub left: usize,
    /// Calls that waited past the limit and were refused (since the server started).
    pub gave_up: usize,
}

/// How a wait at the gate ended.
enum Waited {
    Free,
    GaveUp,
    Left,
}

/// Whether the running tool call's client has left (never, outside a tool call).
pub(super) fn caller_left() -> impl Fn() -> bool + Send + 'static {
    let token = CALLER.try_with(CancellationToken::clone).ok();
    move || token.as_ref().is_some_and(CancellationToken::is_cancelled)
}

/// What a person does through the workbench: the same session, the same journal lock,
/// recorded as `Actor::Person` steps in the tools' vocabulary.
impl<D: ServedDevice, C: ServedClock> PhoneServer<D, C> {
    /// Agents' calls wait at most `patience` while a person holds the phone.
    pub fn with_patience(mut self, patience: Duration) -> Self {
        self.gate = Arc::new(Gate::new(patience));
        self
    }

    pub fn gate(&self) -> &Arc<Gate> {
        &self.gate
    }

    pub fn take_over(&self) {
        self.gate.take_over();
    }

    pub fn hand_back(&self) {
        self.gate.hand_back();
    }

    pub fn is_held(&self) -> bool {
        self.gate.is_held()
    }

    /// The latest observation, whoever made it (reads nothing from the device).
    pub fn latest(&self) -> Option<Arc<Observation>> {
        self.session.latest()
    }

    /// A person's action: acted, settled and observed like an agent's, and recorded.
    pub fn person_act(&self, action: &Action) -> Result<Outcome, Failure> {
        match self.person(person::request(action), |s| {
            Ok(Reply::Acted(s.act(action)?))
        })? {
            Reply::Acted(outcome) => Ok(outcome),
            _ => unreachable!("an act replies with its outcome"),
        }
    }

    /// A person reads the screen: a new version, so agents' handles go stale.
    pub fn person_observe(&self) -> Result<Observation, Failure> {
        let request = Request::new("screen_operation_accessibility", &json!({}));
        match self.person(request, |s| Ok(Reply::Observed(s.observe()?)))? {
            Reply::Observed(observation) => Ok(observation),
            _ => unreachable!("an observation replies with it"),
        }
    }

    fn person(
        &self,
        request: Request,
        call: impl FnOnce(&tapscope_core::session::Session<D, C>) -> Result<Reply, Failure>,
    ) -> Result<Reply, Failure> {
        let arrival = super::Arrival {
            at: self.clock.now(),
            note: None,
        };
        let journal = self.journal.lock();
        let (result, ticket) = self.journaled(&journal, Actor::Person, request, arrival, call);
        if result.is_ok() {
            self.gate.person_acted();
        }
        // A recording that stops is told to the operator; the person's call stands.
        let _ = self.written(journal, ticket);
        result
    }
}

/// The result of a call whose client left while it waited.
pub(super) fn left_result() -> rmcp::model::CallToolResult {
    rmcp::model::CallToolResult::error(vec![rmcp::model::ContentBlock::text(LEFT)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entered<T>(entry: &Entry<'_, T>) -> &'static str {
        match entry {
            Entry::Open(_, None) => "open",
            Entry::Open(_, Some(_)) => "open with the note",
            Entry::TimedOut(_) => "timed out",
            Entry::Left => "left",
        }
    }

    #[test]
    fn an_open_gate_lets_calls_through_at_once() {
        let (gate, lock) = (Gate::new(Duration::from_secs(30)), Mutex::new(()));
        assert_eq!(entered(&gate.enter(&lock, || false)), "open");
    }

    #[test]
    fn a_held_gate_times_out_or_notices_the_client_left() {
        let (gate, lock) = (Gate::new(Duration::from_millis(150)), Mutex::new(()));
        gate.take_over();
        let started = Instant::now();
        assert_eq!(entered(&gate.enter(&lock, || false)), "timed out");
        assert!(started.elapsed() >= Duration::from_millis(150));
        assert_eq!(entered(&gate.enter(&lock, || true)), "left");
        let counted = Waiting {
            now: 0,
            left: 1,
            gave_up: 1,
        };
        assert_eq!(gate.waiting(), counted);
    }

    #[test]
    fn a_waiting_call_is_counted_until_it_goes_through() {
        let gate = Arc::new(Gate::new(Duration::from_secs(30)));
        gate.take_over();
        let agent = Arc::clone(&gate);
        let call = std::thread::spawn(move || {
            let lock = Mutex::new(());
            entered(&agent.enter(&lock, || false))
        });
        let started = Instant::now();
        while gate.waiting().now == 0 {
            assert!(started.elapsed() < Duration::from_secs(10), "never waited");
            std::thread::sleep(Duration::from_millis(5));
        }
        gate.hand_back();
        assert_eq!(call.join().expect("the call ends"), "open");
        assert_eq!(gate.waiting(), Waiting::default());
    }

    #[test]
    fn a_hand_back_releases_the_waiting_call_with_the_note_once() {
        let gate = Arc::new(Gate::new(Duration::from_secs(30)));
        let lock = Mutex::new(());
        assert_eq!(entered(&gate.enter(&lock, || false)), "open");
        gate.take_over();
        gate.person_acted();
        let person = Arc::clone(&gate);
        let handing = std::thread::spawn(move || {
            // Hands back once the agent's call is seen waiting at the gate.
            let started = Instant::now();
            while person.waiting().now == 0 {
                assert!(started.elapsed() < Duration::from_secs(10), "never waited");
                std::thread::sleep(Duration::from_millis(5));
            }
            person.hand_back();
        });
        assert_eq!(entered(&gate.enter(&lock, || false)), "open with the note");
        assert_eq!(entered(&gate.enter(&lock, || false)), "open");
        handing.join().expect("handed back");
    }

    #[test]
    fn a_person_acting_before_any_agent_is_no_news() {
        let (gate, lock) = (Gate::default(), Mutex::new(()));
        gate.person_acted();
        assert_eq!(entered(&gate.enter(&lock, || false)), "open");
    }
}

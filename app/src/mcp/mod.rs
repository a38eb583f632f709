//! The MCP server: the session runtime's observe and act calls as MCP tools, with the
//! phone-use manual behind `load_skill`, each call written to the journal when recording.
//! The transport is the caller's choice.

mod act;
mod args;
pub mod gate;
pub mod http;
mod log_args;
mod misfit;
pub mod person;
pub mod pixel_command;
mod reply;
mod tools;

use std::cell::Cell;
use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, tool_handler};
use tapscope_core::device::Device;
use tapscope_core::handle::HandleError;
use tapscope_core::recording::Actor;
use tapscope_core::session::{Session, SessionError};
use tapscope_core::stability::Clock;

pub use args::{
    KeyArgs, LaunchArgs, MAX_SWIPE, PackagesArgs, ScrollArgs, ShellArgs, SwipeArgs, TargetArgs,
    TextArgs, Towards,
};
pub use misfit::RefusedCall;
pub use reply::{Failure, Reply, result_text};

use crate::journal::{Call, Done, Journal, Pending, Shot, Ticket, Written};
use act::ActCall;
use gate::{Entry, Gate};

/// The operating manual `load_skill` returns.
pub const PHONE_USE_SKILL: &str = include_str!("../../../assets/skills/phone-use.md");

const INSTRUCTIONS: &str = "tapscope drives an Android phone through its accessibility tree. \
Before your first action, call load_skill once and follow the manual it returns. In short: \
observe with screen_operation_accessibility, act with tap / long_press / scroll / swipe / \
input_text / press_key on the `{version}_{i}` handles it prints; every action returns the \
new tree. screenshot and screen_operation_shell are for screens the tree cannot describe.";

/// A device the server can drive from its worker threads.
pub trait ServedDevice: Device + Debug + Send + 'static {}
impl<T: Device + Debug + Send + 'static> ServedDevice for T {}

/// A clock the server can read from its worker threads.
pub trait ServedClock: Clock + Clone + Debug + Send + Sync + 'static {}
impl<T: Clock + Clone + Debug + Send + Sync + 'static> ServedClock for T {}

/// An MCP server over one device's session; clones (one per MCP client) share it.
#[derive(Debug)]
pub struct PhoneServer<D, C> {
    session: Arc<Session<D, C>>,
    clock: C,
    /// The recording, when there is one; `None` inside once writing it failed. Held
    /// across each call so steps are written in the order they reached the device.
    journal: Arc<Mutex<Option<Journal>>>,
    /// Whether a person holds the phone (agents wait) or agents may act.
    gate: Arc<Gate>,
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

impl<D, C: Clone> Clone for PhoneServer<D, C> {
    fn clone(&self) -> Self {
        Self {
            session: Arc::clone(&self.session),
            clock: self.clock.clone(),
            journal: Arc::clone(&self.journal),
            gate: Arc::clone(&self.gate),
            tool_router: self.tool_router.clone(),
        }
    }
}

/// One tool call as the journal sees it, before it runs.
#[derive(Debug)]
struct Request {
    tool: &'static str,
    arguments: serde_json::Value,
    handle: Option<String>,
    /// Its coordinates are the last screenshot's.
    on_screenshot: bool,
}

impl Request {
    fn new(tool: &'static str, arguments: &impl serde::Serialize) -> Self {
        Self {
            tool,
            arguments: match serde_json::to_value(arguments) {
                Ok(serde_json::Value::Object(map)) => serde_json::Value::Object(map),
                _ => serde_json::json!({}),
            },
            handle: None,
            on_screenshot: false,
        }
    }

    fn with_handle(mut self, handle: &str) -> Self {
        self.handle = Some(handle.to_owned());
        self
    }

    fn on_screenshot(mut self) -> Self {
        self.on_screenshot = true;
        self
    }
}

impl From<HandleError> for Failure {
    fn from(error: HandleError) -> Self {
        SessionError::from(error).into()
    }
}

impl<D: ServedDevice, C: ServedClock> PhoneServer<D, C> {
    pub fn new(session: Session<D, C>) -> Self {
        Self {
            clock: session.clock(),
            session: Arc::new(session),
            journal: Arc::new(Mutex::new(None)),
            gate: Arc::new(Gate::default()),
            tool_router: Self::tool_router(),
        }
    }

    /// Records every call from now on into `journal`.
    pub fn with_journal(self, journal: Journal) -> Self {
        self.attach_journal(journal);
        self
    }

    /// Records every call from now on into `journal`, for this server and its clones.
    pub fn attach_journal(&self, journal: Journal) {
        *self.journal.lock() = Some(journal);
    }

    /// The session every clone of this server drives.
    pub fn session(&self) -> &Arc<Session<D, C>> {
        &self.session
    }

    /// Acts as `call` asks, unless its arguments are refused; journaled either way.
    async fn act(&self, call: ActCall) -> Result<CallToolResult, ErrorData> {
        let request = call.request();
        let action = call.action();
        self.run(request, move |session| {
            Ok(Reply::Acted(session.act(&action?)?))
        })
        .await
    }

    /// Runs a call on a worker thread (device calls block), journals it, and turns it into
    /// the tool's result: refusals and failures are tool errors (isError) with the message.
    async fn run(
        &self,
        request: Request,
        call: impl FnOnce(&Session<D, C>) -> Result<Reply, Failure> + Send + 'static,
    ) -> Result<CallToolResult, ErrorData> {
        let server = self.clone();
        let left = gate::caller_left();
        let arrived = self.clock.now();
        // Outside a tool call (tests driving the server directly) there is nothing to mark.
        let _ = TOOL_RAN.try_with(|ran| ran.set(true));
        tokio::task::spawn_blocking(move || server.run_blocking(request, call, left, arrived))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool call failed: {e}"), None))
    }

    /// Passes the gate (waiting while a person holds the phone), then runs the call and
    /// queues its step under the journal's lock; waits for the step to be written once the
    /// lock is free for the next call.
    fn run_blocking(
        &self,
        request: Request,
        call: impl FnOnce(&Session<D, C>) -> Result<Reply, Failure>,
        left: impl Fn() -> bool,
        arrived: Duration,
    ) -> CallToolResult {
        let (journal, admitted) = match self.gate.enter(&self.journal, left) {
            Entry::Open(journal, note) => (journal, Ok(note)),
            Entry::TimedOut(journal) => (journal, Err(Failure::Refused(gate::HELD.into()))),
            Entry::Left => return gate::left_result(),
        };
        let note = admitted.as_ref().ok().copied().flatten();
        let (result, ticket) = self.journaled(
            &journal,
            Actor::Agent,
            request,
            Arrival { at: arrived, note },
            |session| {
                admitted?;
                call(session)
            },
        );
        let stopped = self.written(journal, ticket);
        let mut tool_result = match &result {
            Ok(reply) => CallToolResult::success(reply.blocks()),
            Err(failure) => CallToolResult::error(vec![ContentBlock::text(failure.message())]),
        };
        if let Some(note) = note {
            tool_result.content.insert(0, ContentBlock::text(note));
        }
        tool_result.content.extend(stopped.map(ContentBlock::text));
        tool_result
    }

    /// Runs `call` and, when recording, queues its step as `actor`'s with the arrival's
    /// note before its message; returns the result and the step's ticket.
    fn journaled(
        &self,
        journal: &Option<Journal>,
        actor: Actor,
        request: Request,
        arrival: Arrival,
        call: impl FnOnce(&Session<D, C>) -> Result<Reply, Failure>,
    ) -> (Result<Reply, Failure>, Option<Ticket>) {
        let recording = journal.is_some();
        let before = recording.then(|| self.session.latest()).flatten();
        let version_used = match (&request.handle, request.on_screenshot) {
            (Some(handle), _) => handle.split_once('_').map(|(v, _)| v.to_owned()),
            (None, true) if recording => self.session.screenshot_version(),
            _ => None,
        };
        let result = call(&self.session);
        let duration = self.clock.now().saturating_sub(arrival.at);
        let Some(writer) = journal.as_ref() else {
            return (result, None);
        };
        let (done, mut message) = match &result {
            Ok(reply) => (reply.done(), reply.message()),
            Err(failure) => (failure.done(), failure.message().to_owned()),
        };
        if let Some(note) = arrival.note {
            message = [note, &message].join("\n").trim_end().to_owned();
        }
        // The screen the call left is the session's latest: shared, not copied.
        let after = done
            .observation()
            .and(self.session.latest())
            .filter(|latest| {
                done.observation()
                    .is_some_and(|o| o.version == latest.version)
            });
        // Captured now, while the screen is the one the call left (encoded by the writer),
        // unless it has one already: the one the agent got, or the journal's.
        let screenshot = match after.as_deref() {
            Some(seen) if seen.fallback.is_some() => seen
                .fallback
                .as_ref()
                .map(|shot| Shot::Png(shot.png.clone())),
            Some(seen) if writer.has_screenshot(seen) => None,
            Some(_) => self.session.peek_capture().ok().map(Shot::Captured),
            None => None,
        };
        let call = Call {
            actor,
            tool: request.tool.to_owned(),
            arguments: request.arguments,
            handle: request.handle,
            version_used,
            at: arrival.at,
            duration,
        };
        let step = Pending::new(call, before, done, after, message, screenshot);
        (result, Some(writer.submit(step)))
    }

    /// Lets go of the journal's lock (the next call may use the device while this step
    /// is written), then waits for the step; when writing it failed, stops recording and
    /// returns the sentence that says so, once.
    fn written(
        &self,
        journal: MutexGuard<'_, Option<Journal>>,
        ticket: Option<Ticket>,
    ) -> Option<String> {
        drop(journal);
        let Written::Failed { dir, error } = ticket?.wait() else {
            return None;
        };
        let stopped = format!("tapscope stopped recording to {}: {error}", dir.display());
        // Reported here once, to the operator and to the caller; the server goes on.
        eprintln!("tapscope: {stopped}");
        let mut journal = self.journal.lock();
        if journal.as_ref().is_some_and(|j| j.dir() == dir) {
            *journal = None;
        }
        Some(stopped)
    }
}

/// A server that records calls refused before any tool ran (arguments that do not fit the
/// tool's, an unknown tool) as refused steps, whoever refused them: the server itself, or
/// the HTTP front in front of it.
pub trait RecordRefusal {
    /// Records `call` as refused with `message` (waits for the disk when recording).
    fn record_refusal(&self, call: RefusedCall, message: &str);
}

impl<R: RecordRefusal + ?Sized> RecordRefusal for Arc<R> {
    fn record_refusal(&self, call: RefusedCall, message: &str) {
        (**self).record_refusal(call, message);
    }
}

impl<D: ServedDevice, C: ServedClock> RecordRefusal for PhoneServer<D, C> {
    fn record_refusal(&self, refused: RefusedCall, message: &str) {
        let arrived = self.clock.now();
        let journal = self.journal.lock();
        let Some(writer) = journal.as_ref() else {
            return;
        };
        let call = Call {
            actor: Actor::Agent,
            tool: refused.tool,
            arguments: refused.arguments,
            handle: None,
            version_used: None,
            at: arrived,
            duration: Duration::ZERO,
        };
        let before = self.session.latest();
        let ticket = writer.submit(Pending::new(
            call,
            before,
            Done::Refused,
            None,
            message.to_owned(),
            None,
        ));
        let _ = self.written(journal, Some(ticket));
    }
}

tokio::task_local! {
    /// Set once the tool's own code runs (it records its step itself).
    static TOOL_RAN: Cell<bool>;
}

/// When a call came in, and the note its result starts with (a person acted meanwhile).
#[derive(Clone, Copy, Debug)]
struct Arrival {
    at: Duration,
    note: Option<&'static str>,
}

#[tool_handler(router = self.tool_router)]
impl<D: ServedDevice, C: ServedClock> ServerHandler for PhoneServer<D, C> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tapscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// The router's call, with the call's cancellation at hand: a call waiting for a
    /// person to hand the phone back gives up when its client leaves. A call the router
    /// refuses before any tool runs is recorded too.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        let caller = context.ct.clone();
        let refused = RefusedCall::of_params(&request);
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        let routed = gate::CALLER.scope(caller, self.tool_router.call(call));
        let (answered, ran) = TOOL_RAN
            .scope(Cell::new(false), async {
                let answered = routed.await;
                (answered, TOOL_RAN.with(Cell::get))
            })
            .await;
        // The router answered without running the tool: its arguments did not fit, or
        // there is no such tool. The call is a step all the same.
        let refusal = match &answered {
            _ if ran => None,
            Err(error) => Some(error.message.to_string()),
            Ok(rmcp::model::CallToolResponse::Complete(result))
                if result.is_error == Some(true) =>
            {
                Some(result_text(result))
            }
            Ok(_) => None,
        };
        if let Some(message) = refusal {
            refused.record(self.clone(), message).await;
        }
        answered
    }

    /// A request rmcp could not read as any it knows: one whose params do not fit a
    /// method tapscope answers is invalid params, a tool call among them recorded as the
    /// refused call it is; anything else is an unknown method.
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        let Some(misfit) = misfit::misfit(&request) else {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        };
        if let Some(call) = misfit.call {
            call.record(self.clone(), misfit.message.clone()).await;
        }
        Err(ErrorData::invalid_params(misfit.message, None))
    }
}

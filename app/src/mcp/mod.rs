//! The MCP server: the session runtime's observe and act calls as MCP tools, with the
//! phone-use manual behind `load_skill`, each call written to the journal when recording.
//! The transport is the caller's choice.

pub mod gate;
pub mod http;
mod reply;
pub mod shell;
mod tools;

use std::fmt::Debug;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, tool_handler};
use tapscope_core::device::Device;
use tapscope_core::handle::HandleError;
use tapscope_core::recording::Actor;
use tapscope_core::session::{Action, Session, SessionError};
use tapscope_core::stability::Clock;

pub use reply::{Failure, Reply, result_text};
pub use tools::{
    KeyArgs, LaunchArgs, PackagesArgs, ScrollArgs, ShellArgs, SwipeArgs, TargetArgs, TextArgs,
    Towards,
};

use crate::journal::{Call, Journal};
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
        *self.journal.lock().unwrap_or_else(PoisonError::into_inner) = Some(journal);
    }

    /// The session every clone of this server drives.
    pub fn session(&self) -> &Arc<Session<D, C>> {
        &self.session
    }

    /// Acts, unless the arguments were already refused.
    async fn act(
        &self,
        request: Request,
        action: Result<Action, impl Into<Failure>>,
    ) -> Result<CallToolResult, ErrorData> {
        let action = action.map_err(Into::into);
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
        tokio::task::spawn_blocking(move || server.run_blocking(request, call, left))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the tool call failed: {e}"), None))
    }

    /// Passes the gate (waiting while a person holds the phone), then runs and journals
    /// the call under the journal's lock.
    fn run_blocking(
        &self,
        request: Request,
        call: impl FnOnce(&Session<D, C>) -> Result<Reply, Failure>,
        left: impl Fn() -> bool,
    ) -> CallToolResult {
        let (mut journal, admitted) = match self.gate.enter(&self.journal, left) {
            Entry::Open(journal, note) => (journal, Ok(note)),
            Entry::TimedOut(journal) => (journal, Err(Failure::Refused(gate::HELD.into()))),
            Entry::Left => return gate::left_result(),
        };
        let note = admitted.as_ref().ok().copied().flatten();
        let (result, stopped) =
            self.journaled(&mut journal, Actor::Agent, request, note, |session| {
                admitted?;
                call(session)
            });
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

    /// Runs `call` and, when recording, writes its step as `actor`'s with `note` before
    /// its message; returns the result and, when writing failed, why recording stopped.
    fn journaled(
        &self,
        journal: &mut Option<Journal>,
        actor: Actor,
        request: Request,
        note: Option<&str>,
        call: impl FnOnce(&Session<D, C>) -> Result<Reply, Failure>,
    ) -> (Result<Reply, Failure>, Option<String>) {
        let recording = journal.is_some();
        let before = recording.then(|| self.session.latest()).flatten();
        let version_used = match (&request.handle, request.on_screenshot) {
            (Some(handle), _) => handle.split_once('_').map(|(v, _)| v.to_owned()),
            (None, true) if recording => self.session.screenshot_version(),
            _ => None,
        };
        let at = self.clock.now();
        let result = call(&self.session);
        let duration = self.clock.now().saturating_sub(at);
        let Some(writer) = journal.as_mut() else {
            return (result, None);
        };
        let (done, mut message) = match &result {
            Ok(reply) => (reply.done(), reply.message()),
            Err(failure) => (failure.done(), failure.message().to_owned()),
        };
        if let Some(note) = note {
            message = [note, &message].join("\n").trim_end().to_owned();
        }
        let screenshot = match &result {
            // A recording without this screenshot is still whole: its dump is there.
            Ok(Reply::Observed(_) | Reply::Acted(_)) => {
                self.session.peek_screenshot().ok().map(|shot| shot.png)
            }
            _ => None,
        };
        let call = Call {
            actor,
            tool: request.tool.to_owned(),
            arguments: request.arguments,
            handle: request.handle,
            version_used,
            at,
            duration,
        };
        let written = writer.record(
            &call,
            before.as_deref(),
            done,
            &message,
            screenshot.as_deref(),
        );
        let Err(e) = written else {
            return (result, None);
        };
        // Reported here once, to the operator and to the caller; the server goes on.
        let stopped = format!(
            "tapscope stopped recording to {}: {e}",
            writer.dir().display()
        );
        eprintln!("tapscope: {stopped}");
        *journal = None;
        (result, Some(stopped))
    }
}

#[tool_handler(router = self.tool_router)]
impl<D: ServedDevice, C: ServedClock> ServerHandler for PhoneServer<D, C> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tapscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// The router's call, with the call's cancellation at hand: a call waiting for a
    /// person to hand the phone back gives up when its client leaves.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, ErrorData> {
        let caller = context.ct.clone();
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        gate::CALLER
            .scope(caller, self.tool_router.call(call))
            .await
    }
}

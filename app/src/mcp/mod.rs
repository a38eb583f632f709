//! The MCP server: the session runtime's observe and act calls as MCP tools, with the
//! phone-use manual behind `load_skill`. The transport is the caller's choice.

use std::fmt::Debug;
use std::sync::Arc;

use base64::Engine;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ErrorData, ServerHandler, schemars, tool, tool_handler, tool_router};
use tapscope_core::device::{Device, Key};
use tapscope_core::handle::Handle;
use tapscope_core::session::{Action, Observation, Outcome, Session, SessionError};
use tapscope_core::stability::Clock;

/// The operating manual `load_skill` returns.
pub const PHONE_USE_SKILL: &str = include_str!("../../../assets/skills/phone-use.md");

const INSTRUCTIONS: &str = "tapscope drives an Android phone through its accessibility tree. \
Before your first action, call load_skill once and follow the manual it returns. In short: \
observe with screen_operation_accessibility, act with tap / long_press / press_key on the \
`{version}_{i}` handles it prints; every action returns the new tree.";

/// Arguments of the tools that act on one node.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct TargetArgs {
    /// The node's handle, `{version}_{i}`: the version printed at the top of the latest
    /// tree, an underscore and the node's `i`, like `3f9a0c2b71de_12`. Only handles from
    /// the latest tree work.
    pub target: String,
}

/// Arguments of `press_key`.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct KeyArgs {
    /// One of: back, home, recents, enter, delete, tab, search, volume_up, volume_down,
    /// power.
    pub key: String,
}

/// An MCP server over one device's session.
#[derive(Debug, Clone)]
pub struct PhoneServer<D, C> {
    session: Arc<Session<D, C>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl<D, C> PhoneServer<D, C>
where
    D: Device + Debug + Send + 'static,
    C: Clock + Debug + Send + 'static,
{
    pub fn new(session: Session<D, C>) -> Self {
        Self {
            session: Arc::new(session),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Read the phone's screen: returns the tree's version and the pruned \
        accessibility tree, one node a line. Nodes you can act on carry an `i`; their handle \
        is `{version}_{i}`. Call it first, and again whenever a tool says the viewport was \
        updated. When the tree is empty (a self-drawn screen), a screenshot image comes \
        with it."
    )]
    async fn screen_operation_accessibility(&self) -> Result<CallToolResult, ErrorData> {
        Ok(match self.blocking(|s| s.observe()).await? {
            Ok(observation) => CallToolResult::success(observation_blocks(&observation)),
            Err(e) => refusal(&e),
        })
    }

    #[tool(
        description = "Tap the node whose handle is `target` ({version}_{i} from the latest \
        tree). Waits for the screen to settle and returns what was tapped, where, the settle \
        report and the new tree with its new version: use handles from that tree next. A \
        handle from an older tree is refused without touching the phone."
    )]
    async fn tap(
        &self,
        Parameters(args): Parameters<TargetArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act_on(&args.target, Action::Tap).await
    }

    #[tool(
        description = "Long-press the node whose handle is `target` ({version}_{i} from the \
        latest tree), e.g. for a context menu. Returns like tap: what was pressed, the settle \
        report and the new tree with its new version."
    )]
    async fn long_press(
        &self,
        Parameters(args): Parameters<TargetArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act_on(&args.target, Action::LongPress).await
    }

    #[tool(
        description = "Press a system key: back, home, recents, enter, delete, tab, search, \
        volume_up, volume_down or power. Needs no handle. Returns the settle report and the \
        new tree with its new version."
    )]
    async fn press_key(
        &self,
        Parameters(args): Parameters<KeyArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        match args.key.parse::<Key>() {
            Ok(key) => self.act(Action::Key(key)).await,
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(
                e.to_string(),
            )])),
        }
    }

    #[tool(
        description = "Load the phone-use operating manual: observing, handles and when they \
        go stale, scrolling and the end of a list, the screenshot fallback, keys, and how to \
        recover from each error. Read it once before acting."
    )]
    async fn load_skill(&self) -> String {
        PHONE_USE_SKILL.to_owned()
    }
}

impl<D, C> PhoneServer<D, C>
where
    D: Device + Debug + Send + 'static,
    C: Clock + Debug + Send + 'static,
{
    /// Runs a session call off the async runtime: device calls block (settling sleeps).
    async fn blocking<R: Send + 'static>(
        &self,
        call: impl FnOnce(&Session<D, C>) -> Result<R, SessionError> + Send + 'static,
    ) -> Result<Result<R, SessionError>, ErrorData> {
        let session = Arc::clone(&self.session);
        tokio::task::spawn_blocking(move || call(&session))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the device call failed: {e}"), None))
    }

    async fn act_on(
        &self,
        target: &str,
        action: fn(Handle) -> Action,
    ) -> Result<CallToolResult, ErrorData> {
        match target.parse::<Handle>() {
            Ok(handle) => self.act(action(handle)).await,
            Err(e) => Ok(refusal(&SessionError::from(e))),
        }
    }

    async fn act(&self, action: Action) -> Result<CallToolResult, ErrorData> {
        Ok(match self.blocking(move |s| s.act(&action)).await? {
            Ok(outcome) => CallToolResult::success(outcome_blocks(&outcome)),
            Err(e) => refusal(&e),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl<D, C> ServerHandler for PhoneServer<D, C>
where
    D: Device + Debug + Send + 'static,
    C: Clock + Debug + Send + 'static,
{
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tapscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }
}

/// A tool error (isError) whose text is the session's actionable message.
fn refusal(error: &SessionError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.to_string())])
}

/// The tree as text, and the screenshot when the tree is empty.
fn observation_blocks(observation: &Observation) -> Vec<ContentBlock> {
    let mut blocks = vec![ContentBlock::text(observation.text.clone())];
    if let Some(fallback) = &observation.fallback {
        blocks.push(ContentBlock::text(format!(
            "screenshot {}x{} of a {}x{} display: {}",
            fallback.image.width,
            fallback.image.height,
            fallback.display.width,
            fallback.display.height,
            fallback.rule
        )));
        let data = base64::engine::general_purpose::STANDARD.encode(&fallback.png);
        blocks.push(ContentBlock::image(data, "image/png"));
    }
    blocks
}

/// What was acted on and how the screen settled, then the new observation.
fn outcome_blocks(outcome: &Outcome) -> Vec<ContentBlock> {
    let path = outcome
        .path
        .iter()
        .map(|p| format!("({}, {})", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" -> ");
    let settle = serde_json::to_string(&outcome.settle)
        .unwrap_or_else(|e| format!("{{\"error\": \"settle report unreadable: {e}\"}}"));
    let mut head = format!("acted on: {}", outcome.acted_on);
    if !path.is_empty() {
        head.push_str(&format!(" at {path}"));
    }
    head.push_str(&format!("\nsettle: {settle}"));
    if outcome.bottomed_out {
        head.push_str("\nthe list did not move: its end is reached");
    }
    let mut blocks = vec![ContentBlock::text(head)];
    blocks.extend(observation_blocks(&outcome.observation));
    blocks
}

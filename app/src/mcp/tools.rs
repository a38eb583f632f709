//! The tools: each one's description, which teaches the model the contract, and its
//! arguments ([`super::args`]); an acting tool's call is decoded by [`ActCall`].

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

use super::act::{ActCall, Pixels, SwipeCall};
use super::args::{
    KeyArgs, LaunchArgs, PackagesArgs, ScrollArgs, ShellArgs, SwipeArgs, TargetArgs, TextArgs,
};
use super::log_args::LogcatArgs;
use super::reply::{Failure, Reply};
use super::{PHONE_USE_SKILL, PhoneServer, Request, ServedClock, ServedDevice};
use tapscope_core::session::log::LogScope;

#[tool_router(vis = "pub(super)")]
impl<D: ServedDevice, C: ServedClock> PhoneServer<D, C> {
    #[tool(
        description = "Read the phone's screen: returns the tree's version and the pruned \
        accessibility tree, one node a line. A node you can act on starts with its `[i]`; \
        its handle is `{version}_{i}`. Call it first, and again whenever a tool says the \
        viewport was updated. When the tree is empty (a self-drawn screen), a screenshot \
        image comes with it, with the rule that maps its pixels to the display."
    )]
    async fn screen_operation_accessibility(&self) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("screen_operation_accessibility", &());
        self.run(request, |s| Ok(Reply::Observed(s.observe()?)))
            .await
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
        self.act(ActCall::Tap(args)).await
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
        self.act(ActCall::LongPress(args)).await
    }

    #[tool(
        description = "Scroll a list: `target` is the handle of a node printed with `scroll`, \
        `direction` where the content you want is (down = further down the list). The swipe \
        starts at 70% of the list, away from bottom bars. Returns the settle report and the \
        new tree; when the list did not move, the result says its end is reached: stop \
        scrolling that way."
    )]
    async fn scroll(
        &self,
        Parameters(args): Parameters<ScrollArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act(ActCall::Scroll(args)).await
    }

    #[tool(
        description = "Swipe: either across a node (`target` handle and the finger's \
        `direction`, e.g. a carousel or a card to dismiss), or from one point to another \
        (`from` and `to` as [x, y] in pixels of the last screenshot; call screenshot \
        first). To move through a list, prefer scroll. Returns the settle report and the \
        new tree."
    )]
    async fn swipe(
        &self,
        Parameters(args): Parameters<SwipeArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let pixels = Pixels::Screenshot;
        self.act(ActCall::Swipe(SwipeCall { args, pixels })).await
    }

    #[tool(
        description = "Type `text` into the focused field (tap the field first; the tree \
        marks it `focused`). At most 10000 characters a call. Returns the settle report and \
        the new tree; press_key enter submits."
    )]
    async fn input_text(
        &self,
        Parameters(args): Parameters<TextArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act(ActCall::InputText(args)).await
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
        self.act(ActCall::PressKey(args)).await
    }

    #[tool(
        description = "Start an app by its package name (list_packages finds it) and return \
        the settle report and its first screen's tree."
    )]
    async fn launch_app(
        &self,
        Parameters(args): Parameters<LaunchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act(ActCall::LaunchApp(args)).await
    }

    #[tool(
        description = "List the installed apps' package names, one a line, optionally only \
        those containing `filter`. Use a name with launch_app."
    )]
    async fn list_packages(
        &self,
        Parameters(args): Parameters<PackagesArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("list_packages", &args);
        let filter = args.filter.unwrap_or_default().to_lowercase();
        self.run(request, move |s| {
            let packages = s.with_device(|d| d.packages())?;
            let shown: Vec<String> = packages
                .into_iter()
                .filter(|p| p.to_lowercase().contains(&filter))
                .collect();
            Ok(Reply::Text(if shown.is_empty() {
                format!("no package contains {filter:?}")
            } else {
                shown.join("\n")
            }))
        })
        .await
    }

    #[tool(
        description = "Take a screenshot: returns the image (downsampled to at most 1024 \
        pixels a side), the display and image sizes, and the rule that maps image pixels to \
        display pixels. Pixel coordinates you give swipe and screen_operation_shell are in \
        this image's pixels; the server scales them. Prefer the tree when it has the node."
    )]
    async fn screenshot(&self) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("screenshot", &());
        self.run(request, |s| Ok(Reply::Screenshot(s.screenshot()?)))
            .await
    }

    #[tool(
        description = "Run a pixel gesture: `input tap X Y` or `input swipe X1 Y1 X2 Y2 \
        [DURATION_MS]`, in pixels of the last screenshot (from screenshot or the fallback). \
        Any other command is refused. For self-drawn screens the tree cannot describe. \
        Returns the settle report and the new tree."
    )]
    async fn screen_operation_shell(
        &self,
        Parameters(args): Parameters<ShellArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        self.act(ActCall::ScreenOperationShell(args)).await
    }

    #[tool(
        description = "Read the phone's log (logcat): the app in front's lines since this \
        tool's previous call, every app's crashes (an uncaught exception, an ANR, a native \
        crash) summarised on top, then the newest lines, bounded. Use it when \
        an action did not do what you expected (the app may have crashed or logged an \
        error) and to check a fix. `package` (`front`, a package, `all`), `priority` (V, D, \
        I, W, E, F), `tag`, `since` (`last`, `start` or MM-DD hh:mm:ss.mmm) and \
        `max_lines` narrow it."
    )]
    async fn logcat(
        &self,
        Parameters(args): Parameters<LogcatArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("logcat", &args);
        self.run(request, move |s| {
            let query = args.query().map_err(Failure::Refused)?;
            let read = s.logcat(&query)?;
            let whose = match (read.package, &query.scope) {
                (None, _) => "every process".to_owned(),
                (Some(p), LogScope::Front) => {
                    format!("{p}, the app in front (every app's crashes)")
                }
                (Some(p), _) => p,
            };
            Ok(Reply::Text(format!(
                "log of {whose}\n{}",
                read.report.render()
            )))
        })
        .await
    }

    #[tool(
        description = "Load the phone-use operating manual: observing, handles and when they \
        go stale, scrolling and the end of a list, the screenshot fallback, keys, and how to \
        recover from each error. Read it once before acting."
    )]
    async fn load_skill(&self) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("load_skill", &());
        self.run(request, |_| Ok(Reply::Text(PHONE_USE_SKILL.to_owned())))
            .await
    }
}

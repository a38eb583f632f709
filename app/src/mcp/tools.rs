//! The tools, with argument schemas whose descriptions teach the model the contract.

use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, schemars, tool, tool_router};
use tapscope_core::device::Key;
use tapscope_core::geometry::Point;
use tapscope_core::handle::Handle;
use tapscope_core::session::{Action, Direction};

use super::reply::{Failure, Reply};
use super::{PHONE_USE_SKILL, PhoneServer, Request, ServedClock, ServedDevice, shell};

/// Arguments of the tools that act on one node.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct TargetArgs {
    /// The node's handle, `{version}_{i}`: the version printed at the top of the latest
    /// tree, an underscore and the node's `i`, like `3f9a0c2b71de_12`. Only handles from
    /// the latest tree work.
    pub target: String,
}

/// A direction on the screen.
#[derive(Clone, Copy, Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Towards {
    Up,
    Down,
    Left,
    Right,
}

impl From<Towards> for Direction {
    fn from(towards: Towards) -> Self {
        match towards {
            Towards::Up => Direction::Up,
            Towards::Down => Direction::Down,
            Towards::Left => Direction::Left,
            Towards::Right => Direction::Right,
        }
    }
}

/// Arguments of `scroll`.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct ScrollArgs {
    /// Handle `{version}_{i}` of a node printed with `scroll` (the list itself, not an
    /// item in it).
    pub target: String,
    /// Where the content you want to see is: `down` brings what is below into view (the
    /// finger moves up), `up` what is above, `left`/`right` for horizontal lists.
    pub direction: Towards,
}

/// Arguments of `swipe`: a node and a direction, or two screenshot pixels.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct SwipeArgs {
    /// Handle `{version}_{i}` of the node to swipe across (a carousel, a card to
    /// dismiss). Give it with `direction`, or give `from` and `to` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Which way the finger moves across `target`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Towards>,
    /// Start `[x, y]` in pixels of the last screenshot (call screenshot first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<[i32; 2]>,
    /// End `[x, y]` in pixels of the last screenshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<[i32; 2]>,
    /// How long the finger moves, in milliseconds (default 300, at most 10000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

/// Arguments of `input_text`.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct TextArgs {
    /// The text to type into the focused field, at most 10000 characters.
    pub text: String,
}

/// Arguments of `press_key`.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct KeyArgs {
    /// One of: back, home, recents, enter, delete, tab, search, volume_up, volume_down,
    /// power.
    pub key: String,
}

/// Arguments of `launch_app`.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct LaunchArgs {
    /// The app's package name, as list_packages prints it, like `com.android.settings`.
    pub package: String,
}

/// Arguments of `list_packages`.
#[derive(Debug, Default, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct PackagesArgs {
    /// Only packages whose name contains this text (case-insensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

/// Arguments of `screen_operation_shell`.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct ShellArgs {
    /// `input tap X Y` or `input swipe X1 Y1 X2 Y2 [DURATION_MS]`, in pixels of the last
    /// screenshot. Nothing else runs.
    pub command: String,
}

/// The longest swipe the `swipe` tool makes.
const MAX_SWIPE_MS: u64 = 10_000;

#[tool_router(vis = "pub(super)")]
impl<D: ServedDevice, C: ServedClock> PhoneServer<D, C> {
    #[tool(
        description = "Read the phone's screen: returns the tree's version and the pruned \
        accessibility tree, one node a line. Nodes you can act on carry an `i`; their handle \
        is `{version}_{i}`. Call it first, and again whenever a tool says the viewport was \
        updated. When the tree is empty (a self-drawn screen), a screenshot image comes \
        with it, with the rule that maps its pixels to the display."
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
        let request = Request::new("tap", &args).with_handle(&args.target);
        let handle = args.target.parse::<Handle>();
        self.act(request, handle.map(Action::Tap)).await
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
        let request = Request::new("long_press", &args).with_handle(&args.target);
        let handle = args.target.parse::<Handle>();
        self.act(request, handle.map(Action::LongPress)).await
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
        let request = Request::new("scroll", &args).with_handle(&args.target);
        let action = args.target.parse::<Handle>().map(|target| Action::Scroll {
            target,
            direction: args.direction.into(),
        });
        self.act(request, action).await
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
        let mut request = Request::new("swipe", &args);
        let action = match (&args.target, args.direction, args.from, args.to) {
            (Some(target), Some(direction), None, None) => {
                request = request.with_handle(target);
                target
                    .parse::<Handle>()
                    .map(|target| Action::SwipeAcross {
                        target,
                        direction: direction.into(),
                    })
                    .map_err(Failure::from)
            }
            (None, None, Some(from), Some(to)) => {
                request = request.on_screenshot();
                swipe_duration(args.duration_ms).map(|duration| Action::SwipeImage {
                    from: Point::new(from[0], from[1]),
                    to: Point::new(to[0], to[1]),
                    duration,
                })
            }
            _ => Err(Failure::Refused(
                "give either `target` and `direction`, or `from` and `to` (screenshot \
                 pixels), not a mix"
                    .into(),
            )),
        };
        self.act(request, action).await
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
        let request = Request::new("input_text", &args);
        self.act(request, Ok::<_, Failure>(Action::InputText(args.text)))
            .await
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
        let request = Request::new("press_key", &args);
        let key = args.key.parse::<Key>().map_err(Failure::Refused);
        self.act(request, key.map(Action::Key)).await
    }

    #[tool(
        description = "Start an app by its package name (list_packages finds it) and return \
        the settle report and its first screen's tree."
    )]
    async fn launch_app(
        &self,
        Parameters(args): Parameters<LaunchArgs>,
    ) -> Result<CallToolResult, ErrorData> {
        let request = Request::new("launch_app", &args);
        self.act(request, Ok::<_, Failure>(Action::Launch(args.package)))
            .await
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
        let request = Request::new("screen_operation_shell", &args).on_screenshot();
        let action = shell::parse(&args.command).map_err(Failure::Refused);
        self.act(request, action).await
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

fn swipe_duration(ms: Option<u64>) -> Result<Duration, Failure> {
    match ms {
        None => Ok(Duration::from_millis(300)),
        Some(ms) if ms <= MAX_SWIPE_MS => Ok(Duration::from_millis(ms)),
        Some(ms) => Err(Failure::Refused(format!(
            "duration_ms {ms} is too long: a swipe takes at most {MAX_SWIPE_MS} ms"
        ))),
    }
}

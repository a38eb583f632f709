//! A call of a tool that acts, decoded once whoever made it: an agent through the tools, a
//! person through the workbench, or a person's recorded call read back for a replay. From
//! it come the request the journal records and the action the session makes.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tapscope_core::geometry::Point;
use tapscope_core::handle::Handle;
use tapscope_core::session::Action;

use super::args::{
    KeyArgs, LaunchArgs, ScrollArgs, ShellArgs, SwipeArgs, TargetArgs, TextArgs, Towards,
    swipe_duration,
};
use super::reply::Failure;
use super::{Request, pixel_command};

/// An acting tool's call: the tool, by its name as a tag, and its arguments.
#[derive(Debug, Deserialize)]
#[serde(tag = "tool", content = "arguments", rename_all = "snake_case")]
pub(super) enum ActCall {
    Tap(TargetArgs),
    LongPress(TargetArgs),
    Scroll(ScrollArgs),
    Swipe(SwipeCall),
    ScreenOperationShell(ShellArgs),
    InputText(TextArgs),
    PressKey(KeyArgs),
    LaunchApp(LaunchArgs),
}

/// A swipe's arguments, and whose pixels `from` and `to` are.
#[derive(Debug, Deserialize, Serialize)]
pub(super) struct SwipeCall {
    #[serde(flatten)]
    pub(super) args: SwipeArgs,
    /// Recorded as `"pixels": "display"` for a person's drag on the live screen; an
    /// agent's are always the screenshot's.
    #[serde(default, skip_serializing_if = "Pixels::is_screenshot")]
    pub(super) pixels: Pixels,
}

/// Whose pixels a swipe's points are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Pixels {
    /// The last screenshot's.
    #[default]
    Screenshot,
    /// The display's.
    Display,
}

impl Pixels {
    fn is_screenshot(&self) -> bool {
        *self == Pixels::Screenshot
    }
}

/// The two swipes `swipe` makes, or neither.
enum Shape<'a> {
    Across(&'a str, Towards),
    Between([i32; 2], [i32; 2]),
    Mixed,
}

impl SwipeArgs {
    fn shape(&self) -> Shape<'_> {
        match (&self.target, self.direction, self.from, self.to) {
            (Some(target), Some(direction), None, None) => Shape::Across(target, direction),
            (None, None, Some(from), Some(to)) => Shape::Between(from, to),
            _ => Shape::Mixed,
        }
    }
}

/// The refusal of a swipe that is neither of the two.
const MIXED: &str = "give either `target` and `direction`, or `from` and `to` (screenshot \
pixels), not a mix";

impl ActCall {
    /// Reads the recorded call of `tool` with `arguments`, as the tools read an agent's.
    pub(super) fn read(tool: &str, arguments: &Value) -> Result<Self, String> {
        let call = serde_json::json!({ "tool": tool, "arguments": arguments });
        Self::deserialize(&call).map_err(|e| format!("{tool} as recorded is not an action: {e}"))
    }

    /// The tool's name, as the client calls it.
    pub(super) fn tool(&self) -> &'static str {
        match self {
            ActCall::Tap(_) => "tap",
            ActCall::LongPress(_) => "long_press",
            ActCall::Scroll(_) => "scroll",
            ActCall::Swipe(_) => "swipe",
            ActCall::ScreenOperationShell(_) => "screen_operation_shell",
            ActCall::InputText(_) => "input_text",
            ActCall::PressKey(_) => "press_key",
            ActCall::LaunchApp(_) => "launch_app",
        }
    }

    /// The call as the journal records it: its arguments, the handle it names and whether
    /// its pixels are the last screenshot's.
    pub(super) fn request(&self) -> Request {
        let tool = self.tool();
        match self {
            ActCall::Tap(args) | ActCall::LongPress(args) => {
                Request::new(tool, args).with_handle(&args.target)
            }
            ActCall::Scroll(args) => Request::new(tool, args).with_handle(&args.target),
            ActCall::Swipe(swipe) => {
                let request = Request::new(tool, swipe);
                match swipe.args.shape() {
                    Shape::Across(target, _) => request.with_handle(target),
                    Shape::Between(..) if swipe.pixels.is_screenshot() => request.on_screenshot(),
                    _ => request,
                }
            }
            ActCall::ScreenOperationShell(args) => Request::new(tool, args).on_screenshot(),
            ActCall::InputText(args) => Request::new(tool, args),
            ActCall::PressKey(args) => Request::new(tool, args),
            ActCall::LaunchApp(args) => Request::new(tool, args),
        }
    }

    /// The action the call asks for, or why its arguments are refused.
    pub(super) fn action(self) -> Result<Action, Failure> {
        let handle = |target: &str| target.parse::<Handle>().map_err(Failure::from);
        Ok(match self {
            ActCall::Tap(args) => Action::Tap(handle(&args.target)?),
            ActCall::LongPress(args) => Action::LongPress(handle(&args.target)?),
            ActCall::Scroll(args) => Action::Scroll {
                target: handle(&args.target)?,
                direction: args.direction.into(),
            },
            ActCall::Swipe(SwipeCall { args, pixels }) => match args.shape() {
                Shape::Across(target, direction) => Action::SwipeAcross {
                    target: handle(target)?,
                    direction: direction.into(),
                },
                Shape::Between(from, to) => {
                    let duration = swipe_duration(args.duration_ms).map_err(Failure::Refused)?;
                    let (from, to) = (point(from), point(to));
                    match pixels {
                        Pixels::Screenshot => Action::SwipeImage { from, to, duration },
                        Pixels::Display => Action::Swipe { from, to, duration },
                    }
                }
                Shape::Mixed => return Err(Failure::Refused(MIXED.into())),
            },
            ActCall::ScreenOperationShell(args) => {
                pixel_command::parse(&args.command).map_err(Failure::Refused)?
            }
            ActCall::InputText(args) => Action::InputText(args.text),
            ActCall::PressKey(args) => Action::Key(args.key.parse().map_err(Failure::Refused)?),
            ActCall::LaunchApp(args) => Action::Launch(args.package),
        })
    }
}

/// The call that makes `action`: the inverse of [`ActCall::action`].
impl From<&Action> for ActCall {
    fn from(action: &Action) -> Self {
        let swipe = |args, pixels| ActCall::Swipe(SwipeCall { args, pixels });
        let between = |from: &Point, to: &Point, duration: &Duration, pixels| {
            let args = SwipeArgs {
                from: Some([from.x, from.y]),
                to: Some([to.x, to.y]),
                duration_ms: Some(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)),
                ..SwipeArgs::default()
            };
            swipe(args, pixels)
        };
        match action {
            Action::Tap(target) => ActCall::Tap(TargetArgs {
                target: target.to_string(),
            }),
            Action::LongPress(target) => ActCall::LongPress(TargetArgs {
                target: target.to_string(),
            }),
            Action::Scroll { target, direction } => ActCall::Scroll(ScrollArgs {
                target: target.to_string(),
                direction: (*direction).into(),
            }),
            Action::SwipeAcross { target, direction } => swipe(
                SwipeArgs {
                    target: Some(target.to_string()),
                    direction: Some((*direction).into()),
                    ..SwipeArgs::default()
                },
                Pixels::Screenshot,
            ),
            Action::Swipe { from, to, duration } => between(from, to, duration, Pixels::Display),
            Action::SwipeImage { from, to, duration } => {
                between(from, to, duration, Pixels::Screenshot)
            }
            Action::TapImage(at) => ActCall::ScreenOperationShell(ShellArgs {
                command: format!("input tap {} {}", at.x, at.y),
            }),
            Action::InputText(text) => ActCall::InputText(TextArgs { text: text.clone() }),
            Action::Key(key) => ActCall::PressKey(KeyArgs {
                key: key.name().to_owned(),
            }),
            Action::Launch(package) => ActCall::LaunchApp(LaunchArgs {
                package: package.clone(),
            }),
        }
    }
}

fn point([x, y]: [i32; 2]) -> Point {
    Point::new(x, y)
}

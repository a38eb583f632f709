//! The tools' arguments: the structs rmcp reads an agent's call into, with schemas whose
//! descriptions teach the model the contract, and the cap on a swipe's duration. What an
//! acting call's arguments ask the device to do is [`super::act`]'s.

use std::time::Duration;

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use tapscope_core::device::DEFAULT_SWIPE;
use tapscope_core::session::Direction;

/// The longest swipe a call may ask for.
pub const MAX_SWIPE: Duration = Duration::from_secs(10);

/// Arguments of the tools that act on one node.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct TargetArgs {
    /// The node's handle, `{version}_{i}`: the version printed at the top of the latest
    /// tree, an underscore and the number in the node's `[i]`, like `3f9a0c2b71de_12` for
    /// the line `[12] …`. Only handles from the latest tree work.
    pub target: String,
}

/// A direction on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
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

impl From<Direction> for Towards {
    fn from(direction: Direction) -> Self {
        match direction {
            Direction::Up => Towards::Up,
            Direction::Down => Towards::Down,
            Direction::Left => Towards::Left,
            Direction::Right => Towards::Right,
        }
    }
}

/// Arguments of `scroll`.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ScrollArgs {
    /// Handle `{version}_{i}` of a node printed with `scroll` (the list itself, not an
    /// item in it).
    pub target: String,
    /// Where the content you want to see is: `down` brings what is below into view (the
    /// finger moves up), `up` what is above, `left`/`right` for horizontal lists.
    pub direction: Towards,
}

/// Arguments of `swipe`: a node and a direction, or two screenshot pixels.
#[derive(Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
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
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct TextArgs {
    /// The text to type into the focused field, at most 10000 characters.
    pub text: String,
}

/// Arguments of `press_key`.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct KeyArgs {
    /// One of: back, home, recents, enter, delete, tab, search, volume_up, volume_down,
    /// power.
    pub key: String,
}

/// Arguments of `launch_app`.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct LaunchArgs {
    /// The app's package name, as list_packages prints it, like `com.android.settings`.
    pub package: String,
}

/// Arguments of `list_packages`.
#[derive(Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
pub struct PackagesArgs {
    /// Only packages whose name contains this text (case-insensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
}

/// Arguments of `screen_operation_shell`.
#[derive(Debug, Deserialize, Serialize, schemars::JsonSchema)]
pub struct ShellArgs {
    /// `input tap X Y` or `input swipe X1 Y1 X2 Y2 [DURATION_MS]`, in pixels of the last
    /// screenshot. Nothing else runs.
    pub command: String,
}

/// How long a swipe asked to take `ms` milliseconds takes: [`DEFAULT_SWIPE`] when not
/// asked, refused past [`MAX_SWIPE`]. Every way of asking for a swipe goes through here.
pub(super) fn swipe_duration(ms: Option<u64>) -> Result<Duration, String> {
    match ms.map(Duration::from_millis) {
        None => Ok(DEFAULT_SWIPE),
        Some(duration) if duration <= MAX_SWIPE => Ok(duration),
        Some(duration) => Err(format!(
            "a swipe of {} ms is too long: give whole milliseconds up to {}",
            duration.as_millis(),
            MAX_SWIPE.as_millis()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swipe_takes_the_default_unless_asked_and_never_past_the_cap() {
        assert_eq!(swipe_duration(None), Ok(DEFAULT_SWIPE));
        assert_eq!(swipe_duration(Some(0)), Ok(Duration::ZERO));
        assert_eq!(swipe_duration(Some(10_000)), Ok(MAX_SWIPE));
        let refused = swipe_duration(Some(10_001)).unwrap_err();
        assert!(
            refused.contains("10001 ms") && refused.contains("up to 10000"),
            "{refused}"
        );
    }

    #[test]
    fn the_schema_states_the_default_and_the_cap() {
        let schema = serde_json::to_string(&schemars::schema_for!(SwipeArgs)).unwrap();
        let stated = format!(
            "default {}, at most {}",
            DEFAULT_SWIPE.as_millis(),
            MAX_SWIPE.as_millis()
        );
        assert!(schema.contains(&stated), "{stated} not in {schema}");
        let text = serde_json::to_string(&schemars::schema_for!(TextArgs)).unwrap();
        let stated = format!(
            "at most {} characters",
            tapscope_core::session::MAX_TEXT_CHARS
        );
        assert!(text.contains(&stated), "{stated} not in {text}");
    }
}

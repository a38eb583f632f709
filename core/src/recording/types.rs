//! The records of `session.jsonl`: the header line, one step per line, and the screens a
//! step refers to.

use serde::{Deserialize, Serialize};

use super::{FORMAT, FORMAT_VERSION};

/// The first line of `session.jsonl`: what the file is and what wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`FORMAT_VERSION`] for recordings this tapscope writes.
    pub version: u32,
    /// When the recording started, in milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// The device recorded, e.g. `sim` or an ADB serial.
    pub device: String,
    /// The version of the tapscope that wrote the recording.
    pub tapscope: String,
    /// The token encoding the counts were made with, e.g. `o200k`.
    pub encoding: String,
    /// How far each step was made safe before its call was answered; absent in
    /// recordings made before this was said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync: Option<Durability>,
    /// The recording this one replays (`tapscope replay --record`), as it was named; its
    /// step N replays the original's step N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    /// In a recording `tapscope proxy` made: the adb server it stood in front of and how
    /// it checked where actions landed. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy: Option<ProxyHeader>,
}

/// What a proxy's recording says of the proxy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProxyHeader {
    /// The adb server every request went on to, e.g. `127.0.0.1:5037`.
    pub upstream: String,
    /// How the screen was looked at when an action on a coordinate landed.
    pub check: Check,
}

/// How `tapscope proxy` finds what an action on a coordinate landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// No look of the proxy's own: the latest look any client took through the proxy.
    #[default]
    None,
    /// A screenshot just before the action goes on, its pixels under the point compared
    /// with a screenshot of the screen the agent read.
    Pixels,
    /// A dump just before the action goes on: the element under the point compared.
    Tree,
}

impl Check {
    pub fn name(self) -> &'static str {
        match self {
            Check::None => "none",
            Check::Pixels => "pixels",
            Check::Tree => "tree",
        }
    }
}

impl std::str::FromStr for Check {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(Check::None),
            "pixels" => Ok(Check::Pixels),
            "tree" => Ok(Check::Tree),
            other => Err(format!(
                "unknown check {other:?}: use none (judge from the looks clients take), \
                 pixels (a screenshot before each action) or tree (a dump before each action)"
            )),
        }
    }
}

/// How far a written step is safe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Durability {
    /// Each screen file, then the step line naming it, is synced to disk before the step
    /// counts as written: a power cut loses no step that was answered.
    #[default]
    Step,
    /// Handed to the operating system only: a crash of tapscope loses no answered step,
    /// a power cut may lose the latest.
    None,
}

impl Durability {
    pub fn name(self) -> &'static str {
        match self {
            Durability::Step => "step",
            Durability::None => "none",
        }
    }
}

impl std::str::FromStr for Durability {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "step" => Ok(Durability::Step),
            "none" => Ok(Durability::None),
            other => Err(format!(
                "unknown sync {other:?}: use step (each step on disk before it is answered) \
                 or none (left to the operating system)"
            )),
        }
    }
}

impl Header {
    /// A header of the current format and version.
    pub fn new(
        device: impl Into<String>,
        tapscope_version: impl Into<String>,
        encoding: impl Into<String>,
        started_at_ms: u64,
    ) -> Self {
        Self {
            format: FORMAT.to_owned(),
            version: FORMAT_VERSION,
            started_at_ms,
            device: device.into(),
            tapscope: tapscope_version.into(),
            encoding: encoding.into(),
            sync: Some(Durability::Step),
            replay_of: None,
            proxy: None,
        }
    }

    /// The same header, saying which recording this one replays.
    pub fn replaying(mut self, original: impl Into<String>) -> Self {
        self.replay_of = Some(original.into());
        self
    }

    /// The same header, saying how steps are made safe.
    pub fn with_durability(mut self, durability: Durability) -> Self {
        self.sync = Some(durability);
        self
    }

    /// How the writer makes steps safe: as said, or step by step when not said.
    pub fn durability(&self) -> Durability {
        self.sync.unwrap_or_default()
    }
}

/// Who made a call: the agent through the tools, or a person at the workbench.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    #[default]
    Agent,
    Person,
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum StepOutcome {
    /// The call did what it was asked.
    #[default]
    Ok,
    /// The runtime refused without touching the device (a stale handle, a bad argument).
    Refused,
    /// The device or the runtime failed.
    Error,
}

/// One screen as stored in `screens/`: paths relative to the recording folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenRef {
    /// The snapshot version the screen was given, the `{version}` of its handles.
    pub version: String,
    /// `screens/<hash>.xml`: the raw dump.
    pub dump: String,
    /// `screens/<hash>.yaml`: the pruned text the agent read.
    pub pruned: String,
    /// `screens/<hash>.png`: the screenshot, when one was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// `screens/<hash>.json`: the text read in the screenshot's pixels (a self-drawn
    /// screen's `ocr` lines), when any was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pixel_text: Option<String>,
    /// Tokens of the raw dump.
    pub raw_tokens: u32,
    /// Tokens of the pruned text.
    pub pruned_tokens: u32,
}

/// One tool call: what was asked, what it touched, how it ended, the screens around it.
///
/// Fields that are empty (`None`, `false`, no path) are left out of the line and read back
/// as empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Step {
    /// 1-based; assigned by [`super::RecordingWriter::append`], whatever the caller set.
    pub step: u64,
    /// When the call came in, in milliseconds since the recording started.
    pub at_ms: u64,
    /// From the call coming in to its result going out, in milliseconds.
    pub duration_ms: u64,
    pub actor: Actor,
    /// The MCP tool name, e.g. `tap`.
    pub tool: String,
    /// The call's arguments as the tool received them.
    #[serde(default)]
    pub arguments: serde_json::Value,
    /// The handle (`{version}_{i}`) the call named, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    /// The version part of that handle, or of the screenshot a pixel action used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_used: Option<String>,
    /// The latest version the runtime held when the call came in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_before: Option<String>,
    /// The version the call produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version_after: Option<String>,
    pub outcome: StepOutcome,
    /// The result text besides the tree: the acted-on line, the settle line, or the error.
    #[serde(default)]
    pub message: String,
    /// The acted-on line: the node the call touched, as the agent read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acted_on: Option<String>,
    /// The display pixels tapped or swiped through, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<[i32; 2]>,
    /// The settle report as JSON. A JSON `null` here reads back as `Some(Value::Null)`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present_value"
    )]
    pub settle: Option<serde_json::Value>,
    /// A scroll that found the end of its list.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bottomed_out: bool,
    /// The screen the call acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<ScreenRef>,
    /// The screen the call left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<ScreenRef>,
    /// A command a client sent the phone through `tapscope proxy`, as it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adb: Option<AdbCommand>,
    /// What the phone's log gained between the call and its settle, when the recording
    /// kept logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<StepLog>,
}

/// A step's log: its lines in a file beside the screens, and what they say in brief.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct StepLog {
    /// `screens/<hash>.log`: the lines as `logcat -v threadtime` prints them, bounded; absent
    /// when no line was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Lines kept in the file.
    pub lines: u32,
    /// Lines written but left out by the bounds (the oldest).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub left_out: u32,
    /// Kept lines of priority `E` or `F`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub errors: u32,
    /// Every crash, ANR and native crash among the lines written, kept or not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crashes: Vec<LoggedCrash>,
    /// What else was said of the read: a log that could not be read, output that was not
    /// log lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A crash as a step's log keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedCrash {
    /// `crash` (an uncaught exception), `ANR` or `native crash`.
    pub kind: String,
    /// The process, usually the package.
    pub process: String,
    /// The exception and its first frame, the ANR's reason or the signal.
    pub what: String,
    /// The crash in one sentence, with its time and pid.
    pub said: String,
}

impl From<&crate::logcat::Crash> for LoggedCrash {
    fn from(crash: &crate::logcat::Crash) -> Self {
        LoggedCrash {
            kind: crash.kind.name().to_owned(),
            process: crash.process.clone(),
            what: crash.what.clone(),
            said: crash.to_string(),
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One device service a client opened through `tapscope proxy`: what it was and what
/// passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdbCommand {
    /// The phone's serial.
    pub serial: String,
    /// The client connection that carried it, numbered from 1 in the order the proxy
    /// accepted them (the adb command-line tool opens one per command).
    pub connection: u64,
    /// The device service as the client opened it, e.g. `shell,v2,raw:input tap 540 1210`,
    /// `exec:screencap -p`, `sync:`.
    pub service: String,
    pub kind: CommandKind,
    /// The exit status, when the service says one (shell protocol v2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<u8>,
    /// Bytes the client sent on the service.
    pub sent: u64,
    /// Bytes the client received on it.
    pub received: u64,
    /// An action on a coordinate: what its point hit when it landed, against what it hit
    /// on the screen last read (`version_used`) before it; absent when not looked at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landed: Option<Landed>,
}

/// What a command through the proxy was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommandKind {
    /// It read the screen's tree: a dump printed, pulled or fetched from a helper.
    Look,
    /// It captured the screen's pixels.
    Screenshot,
    /// It acted on the phone: input on a coordinate, text, a key, an app started.
    Action,
    /// It moved files: a push or an install, counted, never held.
    Transfer,
    /// Anything else.
    Command,
}

/// Whether an action's point, when it landed, hit what it hit on the screen the agent read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Landed {
    /// The same element.
    Same,
    /// Something else, or nothing: the agent aimed at a screen that was gone.
    Elsewhere,
}

/// A field that is present is `Some`, even when it holds `null`; a missing one is `None`
/// (by `#[serde(default)]`), so `Some(Value::Null)` survives a round trip.
fn present_value<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(deserializer).map(Some)
}

fn is_false(value: &bool) -> bool {
    !*value
}

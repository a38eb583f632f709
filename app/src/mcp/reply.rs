//! What a tool call produced, and how it reads to the model: text blocks, and an image
//! block for screenshots.

use base64::Engine;
use rmcp::model::ContentBlock;
use tapscope_core::device::DeviceError;
use tapscope_core::session::{Observation, Outcome, Screenshot, SessionError};
use tapscope_core::stability::SettleReport;

use crate::journal::Done;

/// A tool's result before it becomes content blocks.
#[derive(Debug)]
pub enum Reply {
    Observed(Observation),
    Acted(Outcome),
    Screenshot(Screenshot),
    Text(String),
}

/// Why a tool call did not do what was asked, in words for the model.
#[derive(Debug)]
pub enum Failure {
    /// Nothing was sent to the device; the call can be corrected.
    Refused(String),
    /// The device or its output failed.
    Failed(String),
    /// The action reached the device, then the screen after it could not be read.
    AfterAction {
        message: String,
        acted_on: String,
        /// What the wait did before it failed.
        settle: Box<SettleReport>,
    },
}

impl From<SessionError> for Failure {
    fn from(error: SessionError) -> Self {
        match &error {
            SessionError::AfterAction {
                acted_on, settle, ..
            } => Failure::AfterAction {
                acted_on: acted_on.clone(),
                settle: settle.clone(),
                message: error.to_string(),
            },
            _ if error.is_refusal() => Failure::Refused(error.to_string()),
            _ => Failure::Failed(error.to_string()),
        }
    }
}

impl From<DeviceError> for Failure {
    fn from(error: DeviceError) -> Self {
        SessionError::from(error).into()
    }
}

impl Reply {
    /// The result text besides the tree: what was acted on, the settle report, sizes.
    pub fn message(&self) -> String {
        match self {
            Reply::Observed(_) => String::new(),
            Reply::Acted(outcome) => acted_message(outcome),
            Reply::Screenshot(shot) => screenshot_message(shot),
            Reply::Text(text) => text.clone(),
        }
    }

    pub fn done(&self) -> Done<'_> {
        match self {
            Reply::Observed(observation) => Done::Observed(observation),
            Reply::Acted(outcome) => Done::Acted(outcome),
            Reply::Screenshot(_) | Reply::Text(_) => Done::Answered,
        }
    }

    pub fn blocks(&self) -> Vec<ContentBlock> {
        match self {
            Reply::Observed(observation) => observation_blocks(observation),
            Reply::Acted(outcome) => {
                let mut blocks = vec![ContentBlock::text(acted_message(outcome))];
                blocks.extend(observation_blocks(&outcome.observation));
                blocks
            }
            Reply::Screenshot(shot) => screenshot_blocks(shot),
            Reply::Text(text) => vec![ContentBlock::text(text.clone())],
        }
    }
}

impl Failure {
    pub fn message(&self) -> &str {
        match self {
            Failure::Refused(message)
            | Failure::Failed(message)
            | Failure::AfterAction { message, .. } => message,
        }
    }

    pub fn done(&self) -> Done<'_> {
        match self {
            Failure::Refused(_) => Done::Refused,
            Failure::Failed(_) => Done::Failed,
            Failure::AfterAction {
                acted_on, settle, ..
            } => Done::FailedAfter { acted_on, settle },
        }
    }
}

/// The text blocks of a tool's result, joined: what a client reads of it.
pub fn result_text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tree as text, and the screenshot when the tree is empty.
fn observation_blocks(observation: &Observation) -> Vec<ContentBlock> {
    let mut blocks = vec![ContentBlock::text(observation.text.clone())];
    if let Some(shot) = &observation.fallback {
        blocks.extend(screenshot_blocks(shot));
    }
    blocks.extend(
        observation
            .pixel_note
            .as_ref()
            .map(|n| ContentBlock::text(n.sentence())),
    );
    blocks
}

fn screenshot_blocks(shot: &Screenshot) -> Vec<ContentBlock> {
    let data = base64::engine::general_purpose::STANDARD.encode(&shot.png);
    vec![
        ContentBlock::text(screenshot_message(shot)),
        ContentBlock::image(data, "image/png"),
    ]
}

fn screenshot_message(shot: &Screenshot) -> String {
    format!(
        "screenshot {}x{} of a {}x{} display: {}",
        shot.image.width, shot.image.height, shot.display.width, shot.display.height, shot.rule
    )
}

/// What was acted on, where, and how the screen settled.
fn acted_message(outcome: &Outcome) -> String {
    let path = outcome
        .path
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" -> ");
    let settle = serde_json::to_string(&outcome.settle)
        .unwrap_or_else(|e| format!("{{\"error\": \"settle report unreadable: {e}\"}}"));
    let mut message = format!("acted on: {}", outcome.acted_on);
    if !path.is_empty() {
        message.push_str(&format!(" at {path}"));
    }
    message.push_str(&format!("\nsettle: {settle}"));
    if !outcome.settle.settled {
        message.push_str(
            "\nthe screen was still changing at the ceiling: observe again before trusting it",
        );
    }
    if outcome.bottomed_out {
        message.push_str("\nthe list did not move: its end is reached");
    }
    message
}

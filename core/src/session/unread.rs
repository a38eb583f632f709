//! Why a self-drawn screen's text was not read in its screenshot.

use serde::Serialize;

/// What reading the screenshot came to, when it did not give lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "unread", content = "why", rename_all = "kebab-case")]
pub enum Unread {
    /// No engine: the sentence says how to install one.
    NoEngine(String),
    /// The screenshot holds no text the engine could read with enough confidence.
    Nothing,
    /// The engine failed or ran past its ceiling.
    Failed(String),
}

impl Unread {
    pub fn sentence(&self) -> String {
        match self {
            Unread::NoEngine(how) => format!("text was not read in the screenshot: {how}"),
            Unread::Nothing => "no text was read in the screenshot".to_owned(),
            Unread::Failed(why) => format!("text could not be read in the screenshot: {why}"),
        }
    }
}

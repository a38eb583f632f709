//! How a device reads its screen: the stock `uiautomator dump`, or an on-device helper
//! that answers faster (uiautomator2's server, droidrun's Portal, mobilecli's dump server),
//! and what a look through one said when it failed and another way was taken.
//!
//! ```
//! use tapscope_core::stability::look::{LookBackend, LookChoice};
//! assert_eq!("u2".parse::<LookChoice>(), Ok(LookChoice::Only(LookBackend::U2)));
//! assert_eq!("auto".parse::<LookChoice>(), Ok(LookChoice::Auto));
//! assert_eq!(LookBackend::Portal.name(), "portal");
//! ```

use serde::{Deserialize, Serialize};

/// One way of reading the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum LookBackend {
    /// The simulated phone read in process, as it is at that moment.
    Sim,
    /// `uiautomator dump`: a JVM start, a wait for idle, then the tree (about 2 s).
    Stock,
    /// uiautomator2's server (`com.wetest.uia2.Main` on device port 9008): JSON-RPC
    /// `dumpWindowHierarchy`.
    U2,
    /// droidrun's Portal app (`com.mobilerun.portal`): its content provider's `state_full`.
    Portal,
    /// mobilecli's dump server on the device (`localabstract:mobilecli-uidump`, formerly
    /// `devicekit`): JSON-RPC `device.dump.ui`.
    Mobilecli,
}

impl LookBackend {
    /// The on-device helpers, fastest first: the order `--look auto` tries them in.
    pub const HELPERS: [LookBackend; 3] =
        [LookBackend::U2, LookBackend::Mobilecli, LookBackend::Portal];

    /// The name `--look` takes and reports print.
    pub fn name(self) -> &'static str {
        match self {
            LookBackend::Sim => "sim",
            LookBackend::Stock => "stock",
            LookBackend::U2 => "u2",
            LookBackend::Portal => "portal",
            LookBackend::Mobilecli => "mobilecli",
        }
    }

    /// What it is, in words a person reading a report knows.
    pub fn describe(self) -> &'static str {
        match self {
            LookBackend::Sim => "the simulated phone read directly",
            LookBackend::Stock => "stock `uiautomator dump`",
            LookBackend::U2 => "uiautomator2's server",
            LookBackend::Portal => "droidrun's Portal",
            LookBackend::Mobilecli => "mobilecli's dump server",
        }
    }

    /// Whether the helper holds Android's one UiAutomation connection while it runs, so
    /// stock dumps fail beside it.
    pub fn holds_ui_automation(self) -> bool {
        matches!(self, LookBackend::U2 | LookBackend::Mobilecli)
    }
}

impl std::fmt::Display for LookBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which way a person asked tapscope to look (`--look`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LookChoice {
    /// The fastest helper that answers, else stock.
    #[default]
    Auto,
    /// This way only: a look that fails is an error, with no other way tried.
    Only(LookBackend),
}

impl std::str::FromStr for LookChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let backend = match s.trim().to_ascii_lowercase().as_str() {
            "auto" => return Ok(LookChoice::Auto),
            "stock" | "uiautomator" => LookBackend::Stock,
            "u2" | "uiautomator2" => LookBackend::U2,
            "portal" | "droidrun" | "mobilerun" => LookBackend::Portal,
            "mobilecli" => LookBackend::Mobilecli,
            _ => {
                return Err(format!(
                    "unknown look {s:?}: use auto (the fastest helper that answers, else \
                     stock), stock, u2, portal or mobilecli"
                ));
            }
        };
        Ok(LookChoice::Only(backend))
    }
}

/// How a helper failed a look.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum HelperFault {
    /// Nothing listens where it should (the helper is not running).
    Absent,
    /// Something answers there, but not as the helper does.
    NotTheHelper,
    /// It answered with something that is not a tree.
    Garbage,
    /// It answered with a tree with no node in it.
    Empty,
    /// It answered an error (a JSON-RPC error, a failed query).
    Refused,
    /// It gave no answer before its deadline.
    Hung,
    /// The connection ended mid-answer.
    Died,
}

impl HelperFault {
    /// What happened, in words: "stopped answering", ….
    pub fn describe(self) -> &'static str {
        match self {
            HelperFault::Absent => "is not running",
            HelperFault::NotTheHelper => "answered, but not as the helper does",
            HelperFault::Garbage => "answered something that is not a screen's tree",
            HelperFault::Empty => "answered an empty tree",
            HelperFault::Refused => "answered an error",
            HelperFault::Hung => "gave no answer in time",
            HelperFault::Died => "closed the connection mid-answer",
        }
    }
}

/// A look that a helper failed, and the way taken instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallback {
    pub from: LookBackend,
    pub why: HelperFault,
    pub to: LookBackend,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}: looked with {} instead",
            self.from.describe(),
            self.why.describe(),
            self.to.describe()
        )
    }
}

/// How a wait or an observation looked at the screen: the way, what one look cost, and a
/// helper that failed since the last report (said once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LookUsed {
    pub backend: LookBackend,
    /// The median look, from its call to the tree in hand (the dump's transfer and parse).
    #[serde(rename = "look_ms", with = "super::millis")]
    pub cost: std::time::Duration,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fell_back: Option<Fallback>,
}

impl LookUsed {
    /// `looked through uiautomator2's server (u2): 84 ms a look`, and a fallback after it.
    pub fn sentence(&self) -> String {
        let mut said = format!(
            "looked through {} ({}): {} ms a look",
            self.backend.describe(),
            self.backend.name(),
            self.cost.as_millis()
        );
        if let Some(fallback) = &self.fell_back {
            said.push_str(&format!("; {fallback}"));
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_backend_parses_back_from_its_name() {
        for backend in [
            LookBackend::Stock,
            LookBackend::U2,
            LookBackend::Portal,
            LookBackend::Mobilecli,
        ] {
            assert_eq!(
                backend.name().parse::<LookChoice>(),
                Ok(LookChoice::Only(backend))
            );
        }
        let err = "fast".parse::<LookChoice>().unwrap_err();
        assert!(err.contains("auto") && err.contains("mobilecli"), "{err}");
    }

    #[test]
    fn a_fallback_says_what_failed_and_what_was_used() {
        let fallback = Fallback {
            from: LookBackend::U2,
            why: HelperFault::Hung,
            to: LookBackend::Stock,
        };
        assert_eq!(
            fallback.to_string(),
            "uiautomator2's server gave no answer in time: looked with stock `uiautomator \
             dump` instead"
        );
    }
}

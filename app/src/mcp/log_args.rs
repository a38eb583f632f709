//! The `logcat` tool's arguments and what they ask the session for: whose lines, from
//! when, at what priority, of which tag, how many. Each is checked before the phone is
//! asked, and a wrong one is refused saying what to give.

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use tapscope_core::logcat::{Bounds, Priority, Stamp};
use tapscope_core::session::log::{LogQuery, LogScope, Since};

/// The most lines one call returns.
pub const MAX_LINES: usize = 2000;

/// Arguments of `logcat`.
#[derive(Debug, Default, Deserialize, Serialize, schemars::JsonSchema)]
pub struct LogcatArgs {
    /// Whose lines: `front` (the app in front, the default), a package name such as
    /// `com.example.app`, or `all` (every process).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// The least priority shown: `V`, `D`, `I`, `W`, `E` or `F` (logcat's `*:W` is `W`).
    /// Default `V`, everything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// Only this tag's lines, such as `ActivityManager` (crashes are still summarised).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// From when: `last` (since this tool's previous call, the default; the whole log the
    /// first time), `start` (all the phone keeps), or a time as the lines print it,
    /// `MM-DD hh:mm:ss.mmm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// At most this many lines, the newest (default 200, at most 2000; 16 KiB at most
    /// either way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lines: Option<usize>,
}

impl LogcatArgs {
    /// The session's query, or why these arguments are wrong.
    pub fn query(&self) -> Result<LogQuery, String> {
        let scope = match self.package.as_deref().map(str::trim) {
            None | Some("" | "front") => LogScope::Front,
            Some("all" | "*") => LogScope::All,
            Some(p) if is_package(p) => LogScope::Package(p.to_owned()),
            Some(p) => {
                return Err(format!(
                    "package {p:?} is not `front`, `all` or a package name such as \
                     com.example.app (list_packages lists them)"
                ));
            }
        };
        let least = match self.priority.as_deref().map(str::trim) {
            None | Some("") => Priority::Verbose,
            Some(p) => {
                let letter = p.trim_start_matches("*:");
                let mut letters = letter.chars();
                match (
                    letters.next().and_then(Priority::from_letter),
                    letters.next(),
                ) {
                    (Some(priority), None) => priority,
                    _ => {
                        return Err(format!(
                            "priority {p:?} is not one of V, D, I, W, E, F (or `*:W`)"
                        ));
                    }
                }
            }
        };
        let tag = match self.tag.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t)
                if t.chars()
                    .all(|c| c.is_ascii_graphic() && c != ':' && c != '\'') =>
            {
                Some(t.to_owned())
            }
            Some(t) => {
                return Err(format!(
                    "tag {t:?} has a space, a colon, a quote or a character logcat's filters \
                     cannot name: give the tag as the lines print it"
                ));
            }
        };
        let since = match self.since.as_deref().map(str::trim) {
            None | Some("" | "last") => Since::LastRead,
            Some("start") => Since::Start,
            Some(t) => Since::At(Stamp::parse(t).ok_or_else(|| {
                format!("since {t:?} is not `last`, `start` or a time MM-DD hh:mm:ss.mmm")
            })?),
        };
        let lines = match self.max_lines {
            None => Bounds::default().lines,
            Some(n) if (1..=MAX_LINES).contains(&n) => n,
            Some(n) => return Err(format!("max_lines {n}: give 1 to {MAX_LINES}")),
        };
        Ok(LogQuery {
            scope,
            since,
            least,
            tag,
            bounds: Bounds {
                lines,
                ..Bounds::default()
            },
        })
    }
}

/// Letters, digits, `_` and `.`, as Android names packages.
fn is_package(name: &str) -> bool {
    name.contains('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(package: &str, priority: &str, since: &str) -> LogcatArgs {
        LogcatArgs {
            package: Some(package.into()),
            priority: Some(priority.into()),
            since: Some(since.into()),
            ..LogcatArgs::default()
        }
    }

    #[test]
    fn the_defaults_are_the_front_app_since_the_last_call_everything_200_lines() {
        let query = LogcatArgs::default().query().unwrap();
        assert_eq!(query, LogQuery::default());
        let query = args("com.example.app", "*:W", "12-06 10:15:30.001")
            .query()
            .unwrap();
        assert_eq!(query.scope, LogScope::Package("com.example.app".into()));
        assert_eq!(query.least, Priority::Warn);
        assert_eq!(
            query.since,
            Since::At(Stamp::parse("12-06 10:15:30.001").unwrap())
        );
        assert_eq!(
            args("all", "e", "start").query().unwrap().scope,
            LogScope::All
        );
    }

    #[test]
    fn wrong_arguments_are_refused_saying_what_to_give() {
        for (bad, said) in [
            (
                args("rm -rf /", "V", "last"),
                "is not `front`, `all` or a package name",
            ),
            (args("front", "X", "last"), "is not one of V, D, I, W, E, F"),
            (
                args("front", "WE", "last"),
                "is not one of V, D, I, W, E, F",
            ),
            (
                args("front", "V", "yesterday"),
                "is not `last`, `start` or a time",
            ),
            (
                LogcatArgs {
                    tag: Some("a b".into()),
                    ..LogcatArgs::default()
                },
                "has a space",
            ),
            (
                LogcatArgs {
                    max_lines: Some(0),
                    ..LogcatArgs::default()
                },
                "give 1 to 2000",
            ),
        ] {
            let refused = bad.query().unwrap_err();
            assert!(refused.contains(said), "{refused}");
        }
    }
}

//! `sim-next`: the next release of the simulated app, as the five ways it differs from
//! `sim`, applied to the screen files before they are expanded.
//!
//! Four are ones a replay of `recordings/demo` meets early, in the order it meets them:
//! step 2 (the launcher) reads as changed (the app's new label), step 3 (the launch) as
//! changed and slower (the new label, the moved account button, a launch three times as
//! long), and step 4 (tap "Search videos") diverges: search is gone. The fifth is a bug:
//! the feed's "Account" button (`avatar`, its centre moved to (192, 168)) starts an
//! `AccountActivity` whose `onCreate` throws a `NullPointerException`, so the app crashes,
//! logged as Android 14 logs it ([`super::app_log`]), and the home screen shows; a replay
//! of a recording that taps it on `sim` diverges with the crash named. On `sim` the button
//! opens Settings.

use std::fmt;
use std::str::FromStr;

use super::screen::{AppCrash, Files, Screen, ScreenFile, expand_all, parse_all};

#[cfg(test)]
mod tests;

/// Which release of the simulated app the phone runs; chosen when the sim is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Build {
    /// The app as `assets/sim/` has it (`sim`): the one the demo was recorded on.
    #[default]
    Current,
    /// The next release (`sim-next`): the launcher label reads "TapTube Video", the feed's
    /// account button sits left by the logo, opening the app from the launcher animates
    /// 3.6 s instead of 1.2 s, search is gone (no search box, no search screen), and the
    /// account button crashes the app.
    Next,
}

impl Build {
    /// Every build, `sim` first.
    pub const ALL: [Build; 2] = [Build::Current, Build::Next];

    /// The device name the build is chosen by: `sim`, `sim-next`.
    pub fn name(self) -> &'static str {
        match self {
            Build::Current => "sim",
            Build::Next => "sim-next",
        }
    }

    /// Every embedded screen as this build has it; `rng` fills in `{views}`.
    pub(super) fn screens(self, rng: &mut fastrand::Rng) -> Result<Vec<Screen>, String> {
        let mut files = parse_all()?;
        self.apply(&mut files)?;
        expand_all(files, rng)
    }

    /// Applies the build's changes to the screen files, in order.
    pub(super) fn apply(self, files: &mut Files) -> Result<(), String> {
        let changes: &[Change] = match self {
            Build::Current => &[],
            Build::Next => &NEXT,
        };
        changes
            .iter()
            .try_for_each(|change| change.apply(files))
            .map_err(|e| format!("{}: {e}", self.name()))
    }
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Build {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Build::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("unknown simulated phone {name:?}: use sim or sim-next"))
    }
}

/// A node of a screen, by the screen's name and the node's `id`.
#[derive(Clone, Copy, Debug)]
struct At {
    screen: &'static str,
    node: &'static str,
}

/// One way the next release differs from the current one.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// The node's text changes; its id stays, so it is the same node under a new name.
    Rename { node: At, text: &'static str },
    /// The node and everything in it move by `by` (x, y) pixels.
    Move { node: At, by: [i32; 2] },
    /// Tapping the node animates `times` as long.
    Slower { tap: At, times: u64 },
    /// The screen is gone, and so is the node that led to it.
    Remove { screen: &'static str, opened_by: At },
    /// Tapping the node starts an activity that throws instead of going where it went.
    Crash { tap: At, crash: &'static AppCrash },
}

/// `sim-next`'s crash: TapTube's account screen reads an account that is not there.
const ACCOUNT_CRASH: AppCrash = AppCrash {
    activity: ".AccountActivity",
    exception: "java.lang.NullPointerException: Attempt to invoke virtual method \
                'java.lang.String tv.tapscope.demo.Account.name()' on a null object reference",
    // Android 14's own frames under an activity's onCreate.
    frames: &[
        "tv.tapscope.demo.AccountActivity.onCreate(AccountActivity.java:42)",
        "android.app.Activity.performCreate(Activity.java:8595)",
        "android.app.Activity.performCreate(Activity.java:8573)",
        "android.app.Instrumentation.callActivityOnCreate(Instrumentation.java:1456)",
        "android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3764)",
    ],
};

/// What `sim-next` changes: four against the demo's path (launcher, feed, search), then a
/// crash.
const NEXT: [Change; 5] = [
    // The app's new launcher label: a replay of the demo's first tap finds it by its id.
    Change::Rename {
        node: At {
            screen: "launcher",
            node: "icon_taptube",
        },
        text: "TapTube Video",
    },
    // The account button takes the search box's place next to the logo.
    Change::Move {
        node: At {
            screen: "feed",
            node: "avatar",
        },
        by: [-828, 0],
    },
    // A heavier cold start: 3.6 s instead of 1.2 s, inside the 5 s settle ceiling.
    Change::Slower {
        tap: At {
            screen: "launcher",
            node: "icon_taptube",
        },
        times: 3,
    },
    // In-app search is dropped: the demo's "Search videos" tap has nothing to find.
    Change::Remove {
        screen: "search",
        opened_by: At {
            screen: "feed",
            node: "search_box",
        },
    },
    // The account screen's bug: it reads an account before one is loaded.
    Change::Crash {
        tap: At {
            screen: "feed",
            node: "avatar",
        },
        crash: &ACCOUNT_CRASH,
    },
];

impl Change {
    fn apply(&self, files: &mut Files) -> Result<(), String> {
        match *self {
            Change::Rename { node, text } => {
                let file = file_mut(files, node.screen)?;
                let at = position(file, node)?;
                file.node[at].text = text.to_owned();
            }
            Change::Move { node, by: [dx, dy] } => {
                let file = file_mut(files, node.screen)?;
                for at in subtree(file, node)? {
                    let [l, t, r, b] = file.node[at].bounds;
                    file.node[at].bounds = [l + dx, t + dy, r + dx, b + dy];
                }
            }
            Change::Slower { tap, times } => {
                let on = file_mut(files, tap.screen)?
                    .on
                    .iter_mut()
                    .find(|on| on.tap.as_deref() == Some(tap.node))
                    .ok_or_else(|| format!("no tap on {} in {}", tap.node, tap.screen))?;
                on.anim_ms = on.anim_ms.saturating_mul(times);
            }
            Change::Crash { tap, crash } => {
                let on = file_mut(files, tap.screen)?
                    .on
                    .iter_mut()
                    .find(|on| on.tap.as_deref() == Some(tap.node))
                    .ok_or_else(|| format!("no tap on {} in {}", tap.node, tap.screen))?;
                on.go = None;
                on.back = false;
                on.crash = Some(crash);
            }
            Change::Remove { screen, opened_by } => {
                let before = files.len();
                files.retain(|(name, _)| *name != screen);
                if files.len() == before {
                    return Err(format!("no screen {screen} to remove"));
                }
                let file = file_mut(files, opened_by.screen)?;
                for at in subtree(file, opened_by)?.into_iter().rev() {
                    file.node.remove(at);
                }
                file.on
                    .retain(|on| on.tap.as_deref() != Some(opened_by.node));
                // Any other way in is left for `Build::screens` to refuse as a dangling `go`.
            }
        }
        Ok(())
    }
}

fn file_mut<'a>(
    files: &'a mut [(&str, ScreenFile)],
    screen: &str,
) -> Result<&'a mut ScreenFile, String> {
    files
        .iter_mut()
        .find(|(name, _)| *name == screen)
        .map(|(_, file)| file)
        .ok_or_else(|| format!("no screen {screen}"))
}

/// Where the spec of `at` is in its file.
fn position(file: &ScreenFile, at: At) -> Result<usize, String> {
    file.node
        .iter()
        .position(|spec| spec.id == at.node)
        .ok_or_else(|| format!("no node {} in {}", at.node, at.screen))
}

/// The specs of `at` and its descendants, in file order (a parent comes before its children).
fn subtree(file: &ScreenFile, at: At) -> Result<Vec<usize>, String> {
    let root = position(file, at)?;
    let mut ids = vec![at.node];
    let mut found = vec![root];
    for (k, spec) in file.node.iter().enumerate().skip(root + 1) {
        if spec.parent.as_deref().is_some_and(|p| ids.contains(&p)) {
            found.push(k);
            if !spec.id.is_empty() {
                ids.push(&spec.id);
            }
        }
    }
    Ok(found)
}

//! `am` (`cmd activity`) as Android 14's `ActivityManagerShellCommand` answers it: `start`
//! resolves its intent against the sim's apps ([`super::intent`]) and starts a launcher
//! activity (the sim's `launch`), brings an app already in front to the front, or says
//! what a phone says: `Error type 3` for a class the app does not have, a
//! `SecurityException` for one of its inner (not exported) activities, `unable to resolve`
//! for an intent no app takes (a web address: no browser). `force-stop` ends an app: in
//! front, the home screen shows. What `am start` prints goes to stdout, its errors to stderr
//! (stdout with `-W`, as `runStartActivity` chooses), and it exits 0 after them, as
//! `runStartActivity` does, but for a class that does not exist: 1 there, as the sim's
//! shell tests have it.

use super::super::{Io, SimShell};
use super::apps::{self, App, Component};
use super::intent::{Intent, NEW_TASK};
use crate::device::Device;
use crate::device::sim::Sim;
use crate::device::sim::view::ItemState;
use crate::stability::Clock;

/// How long the sim's `launch` animates: `am start -W`'s `TotalTime`.
const LAUNCH_MS: u32 = 600;

/// `am SUBCOMMAND …`.
pub(super) fn am<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    match args.split_first() {
        Some((&("start" | "start-activity"), rest)) => start(shell, sim, rest, io),
        Some((&"force-stop", rest)) => {
            if let Some(package) = rest.iter().rev().find(|a| !a.starts_with("--")) {
                force_stop(sim, package);
            }
            0
        }
        // Only background processes die, and the sim keeps none.
        Some((&("kill" | "kill-all"), _)) => 0,
        Some((&other, _)) if other != "help" && other != "-h" => {
            io.say(&format!("Unknown command: {other}\n"));
            255
        }
        _ => {
            io.say(
                "Activity manager (activity) commands:\n  help\n      Print this help text.\n  \
                 start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]\n          \
                 [--sampling INTERVAL] [--streaming] [-R COUNT] [-S]\n          [--track-allocation] \
                 [--user <USER_ID> | current] <INTENT>\n      Start an Activity.  Options are:\n      \
                 -W: wait for launch to complete\n      -S: force stop the target app before starting \
                 the activity\n  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n      \
                 Completely stop the given application package.\n",
            );
            255
        }
    }
}

/// What starting an intent came to.
enum Started {
    Launched(Component),
    /// The app was in front already: `START_TASK_TO_FRONT`.
    ToFront(Component),
    ClassNotFound(Component),
    /// One of the app's inner activities: not exported, so not the shell user's to start.
    NotExported(Component, u32),
    Unresolved,
    /// More than one app takes it: a phone asks the user with its chooser, the sim cannot.
    Ambiguous,
}

fn start<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let (mut wait, mut stop_first) = (false, false);
    let parsed = Intent::parse(args, |word, next| match word {
        "-W" => {
            wait = true;
            1
        }
        "-S" => {
            stop_first = true;
            1
        }
        "-D"
        | "-N"
        | "--streaming"
        | "--track-allocation"
        | "--auto-stop"
        | "--task-overlay"
        | "--lock-task"
        | "--splashscreen-show-icon"
        | "--dismiss-keyguard-if-insecure" => 1,
        "--user"
        | "-R"
        | "-P"
        | "--start-profiler"
        | "--sampling"
        | "--attach-agent"
        | "--attach-agent-bind"
        | "--display"
        | "--windowingMode"
        | "--activityType"
        | "--task" => 1 + usize::from(next.is_some()),
        _ => 0,
    });
    let mut intent = match parsed {
        Ok(intent) => intent,
        Err(why) => {
            io.complain(&format!(
                "\nException occurred while executing 'start':\n\
                 java.lang.IllegalArgumentException: {why}\n"
            ));
            return 255;
        }
    };
    io.say(&format!("Starting: {}\n", intent.describe()));
    intent.flags |= NEW_TASK;
    let apps = apps::installed(shell, sim);
    let outcome = resolve(sim, &apps, &intent);
    let outcome = match outcome {
        Ok((package, component)) => {
            if stop_first {
                io.say(&format!("Stopping: {package}\n"));
                force_stop(sim, &package);
            }
            if sim.package() == package {
                Started::ToFront(component)
            } else if sim.launch(&package).is_ok() {
                Started::Launched(component)
            } else {
                Started::ClassNotFound(component)
            }
        }
        Err(failed) => failed,
    };
    let error = |io: &mut Io<'_>, text: &str| {
        if wait {
            io.say(text);
        } else {
            io.complain(text);
        }
    };
    let (component, state) = match outcome {
        Started::Launched(component) => (component, "COLD"),
        Started::ToFront(component) => {
            error(
                io,
                "Warning: Activity not started, its current task has been brought to the front\n",
            );
            (component, "HOT")
        }
        Started::ClassNotFound(component) => {
            error(
                io,
                &format!(
                    "Error type 3\nError: Activity class {{{}}} does not exist.\n",
                    component.short()
                ),
            );
            return 1;
        }
        Started::NotExported(component, uid) => {
            let shown = Intent {
                component: Some(component),
                ..intent
            };
            io.complain(&format!(
                "\nException occurred while executing 'start':\njava.lang.SecurityException: \
                 Permission Denial: starting {} from null (pid={}, uid=2000) not exported from \
                 uid {uid}\n\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(ActivityTaskSupervisor.java:1185)\n",
                shown.describe(),
                4000 + apps::hash("am") % 4000,
            ));
            return 255;
        }
        // Android 14 exits 0 here: mobile-mcp's `openUrl` goes on as on a phone.
        Started::Unresolved => {
            error(
                io,
                &format!(
                    "Error: Activity not started, unable to resolve {}\n",
                    intent.describe()
                ),
            );
            return 0;
        }
        Started::Ambiguous => {
            error(
                io,
                &format!(
                    "Error: Activity not started: more than one app takes {}, and the sim \
                     shows no chooser; name one with -n COMPONENT or a package\n",
                    intent.describe()
                ),
            );
            return 0;
        }
    };
    if wait {
        io.say(&format!(
            "Status: ok\nLaunchState: {state}\nActivity: {}\nTotalTime: {LAUNCH_MS}\nWaitTime: {}\n\
             Complete\n",
            component.short(),
            LAUNCH_MS + 12
        ));
    }
    0
}

/// The app and activity an intent starts, or why none.
fn resolve<C: Clock + Clone + Send>(
    sim: &Sim<C>,
    apps: &[App],
    intent: &Intent,
) -> Result<(String, Component), Started> {
    let found = intent.resolve(apps);
    if let Some(component) = &intent.component {
        return match found.first() {
            Some((app, component, _)) => Ok((app.package.clone(), component.clone())),
            None => Err(not_started(sim, apps, component)),
        };
    }
    match found.as_slice() {
        [] => Err(Started::Unresolved),
        [(app, component, _)] => Ok((app.package.clone(), component.clone())),
        _ => Err(Started::Ambiguous),
    }
}

/// Why a named activity did not start: it is inner to its app, or it does not exist.
fn not_started<C: Clock + Clone + Send>(
    sim: &Sim<C>,
    apps: &[App],
    component: &Component,
) -> Started {
    let inner = apps::activities_of(sim, &component.package).contains(component);
    match apps.iter().find(|a| a.package == component.package) {
        Some(app) if inner => Started::NotExported(component.clone(), app.uid),
        _ => Started::ClassNotFound(component.clone()),
    }
}

/// `am force-stop`: the app's activities end; in front, the home screen shows.
pub(super) fn force_stop<C: Clock + Clone + Send>(sim: &mut Sim<C>, package: &str) {
    let home = apps::home_package(sim);
    if sim.package() == package && package != home {
        let _ = sim.launch(&home);
    }
}

/// `pm clear`: the app's state as it was installed (every screen as authored) and the
/// app stopped.
pub(super) fn clear_data<C: Clock + Clone + Send>(sim: &mut Sim<C>, package: &str) {
    for (screen, states) in sim.screens.iter().zip(sim.states.iter_mut()) {
        if screen.package == package {
            *states = screen.items.iter().map(ItemState::initial).collect();
        }
    }
    force_stop(sim, package);
}

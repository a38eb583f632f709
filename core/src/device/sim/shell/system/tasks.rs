//! `dumpsys activity` (`activities`, `top`, `recents`) as Android 14's activity task
//! manager prints it, cut to what tools read: each task with its activities (`* Hist  #0:
//! ActivityRecord{…}`), the task in front's `mResumedActivity:` and `ResumedActivity:`
//! (what adbutils' `app_current()` takes the package from), and `dumpsys activity top`'s
//! `ACTIVITY pkg/.Class 9f3c6a4 pid=4321` (its activity and pid). The app in front's task
//! holds the screens it was opened through (the sim's back stack), the home task the
//! launcher.

use super::super::{Io, SimShell};
use super::apps::{self, Component, object_id, screen_activity, task_of};
use super::intent::{CATEGORY_HOME, CATEGORY_LAUNCHER};
use super::window::{configuration, record, uid_name};
use crate::device::sim::Sim;
use crate::stability::Clock;

/// A task on the display: its app, its activities bottom to top, and whether it is in front.
struct Task {
    package: String,
    uid: u32,
    /// Its app's process.
    pid: u32,
    id: u32,
    home: bool,
    activities: Vec<Component>,
    front: bool,
}

impl Task {
    /// `Task.toString()`.
    fn describe(&self) -> String {
        let visible = self.front;
        let kind = if self.home {
            format!(
                "type=home I={}",
                self.activities
                    .first()
                    .map_or_else(String::new, Component::short)
            )
        } else {
            format!("type=standard A={}:{}", self.uid, self.package)
        };
        format!(
            "Task{{{} #{} {kind} U=0 visible={visible} visibleRequested={visible} \
             mode=fullscreen translucent=false sz={}}}",
            object_id(&format!("task {}", self.package)),
            self.id,
            self.activities.len()
        )
    }

    fn top(&self) -> Option<&Component> {
        self.activities.last()
    }
}

/// The tasks, front first: the app in front's (when it is not the launcher), then home.
fn tasks<C: Clock + Clone + Send>(shell: &SimShell<C>, sim: &Sim<C>) -> Vec<Task> {
    let home = apps::home_package(sim);
    let current = sim.screens.get(sim.current).map_or(&home, |s| &s.package);
    let uid = |package: &str| apps::uid_of(shell, sim, package);
    let mut tasks = Vec::new();
    if *current != home {
        // The back stack's screens of the same app, then the one shown.
        let mut activities: Vec<Component> = sim
            .history
            .iter()
            .chain(std::iter::once(&sim.current))
            .filter(|&&i| sim.screens.get(i).is_some_and(|s| s.package == *current))
            .map(|&i| screen_activity(sim, i))
            .collect();
        activities.dedup();
        tasks.push(Task {
            package: current.clone(),
            uid: uid(current),
            pid: sim.shown_pid(current),
            id: task_of(current, false),
            home: false,
            activities,
            front: true,
        });
    }
    tasks.push(Task {
        package: home.clone(),
        uid: uid(&home),
        pid: sim.shown_pid(&home),
        id: task_of(&home, true),
        home: true,
        activities: vec![screen_activity(sim, 0)],
        front: *current == home,
    });
    tasks
}

/// `dumpsys activity [activities|top|recents]`.
pub(super) fn dumpsys_activity<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let tasks = tasks(shell, sim);
    match args.first().copied() {
        None | Some("-a") => {
            io.say(&activities(&tasks));
            io.say("\n");
            io.say(&recents(&tasks));
        }
        Some("activities" | "a") => io.say(&activities(&tasks)),
        Some("top") => io.say(&top(&tasks, &configuration(shell.rotation()))),
        Some("recents" | "r") => io.say(&recents(&tasks)),
        Some(other) => io.say(&format!(
            "Bad activity command, or no activities match: {other}\nUse -h for help.\n"
        )),
    }
    0
}

fn activities(tasks: &[Task]) -> String {
    let mut out = String::from(
        "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from \
         top to bottom):\n",
    );
    let mut resumed = String::new();
    for task in tasks {
        out.push_str(&format!("  * {}\n", task.describe()));
        if task.front
            && let Some(top) = task.top()
        {
            resumed = record(top, task.id);
            out.push_str(&format!("    mResumedActivity: {resumed}\n"));
            out.push_str(&format!(
                "    isSleeping=false\n    topResumedActivity={resumed}\n"
            ));
        }
        for (n, activity) in task.activities.iter().enumerate().rev() {
            let state = if task.front && Some(activity) == task.top() {
                "RESUMED"
            } else {
                "STOPPED"
            };
            let pid = task.pid;
            out.push_str(&format!(
                "    * Hist  #{n}: {}\n      packageName={} processName={}\n      \
                 launchedFromUid=2000 launchedFromPackage=com.android.shell \
                 launchedFromFeature=null userId=0\n      app=ProcessRecord{{{} {pid}:{}/{}}}\n      \
                 Intent {{ act=android.intent.action.MAIN cat=[{category}] flg={flags} cmp={} }}\n      \
                 state={state} delayedResume=false finishing=false\n",
                record(activity, task.id),
                task.package,
                task.package,
                object_id(&format!("process {}", task.package)),
                task.package,
                uid_name(task.uid),
                activity.short(),
                category = if task.home {
                    CATEGORY_HOME
                } else {
                    CATEGORY_LAUNCHER
                },
                flags = if task.home { "0x10000100" } else { "0x10000000" },
            ));
        }
    }
    let front = tasks.first().map(Task::describe).unwrap_or_default();
    out.push_str(&format!(
        "\n  Resumed activities in task display areas (from top to bottom):\n    Resumed: \
         {resumed}\n\n  ResumedActivity: {resumed}\n\nActivityTaskSupervisor state:\n  \
         topDisplayFocusedRootTask={front}\n  mCurrentUser=0\n  mUserRootTaskInFront={{}}\n  \
         mVisibilityTransactionDepth=0\n  isHomeRecentsComponent=true\n"
    ));
    out
}

/// `dumpsys activity top`: the activity in front with its process.
fn top(tasks: &[Task], config: &str) -> String {
    let Some((task, activity)) = tasks
        .iter()
        .find(|t| t.front)
        .and_then(|t| Some((t, t.top()?)))
    else {
        return String::new();
    };
    let hash = object_id(&format!("record {}", activity.full()));
    format!(
        "TASK {}:{} id={} userId=0\n  ACTIVITY {} {hash} pid={}\n    Local Activity {} State:\n      \
         mResumed=true mStopped=false mFinished=false\n      mIsInMultiWindowMode=false \
         mIsInPictureInPictureMode=false\n      mChangingConfigurations=false\n      \
         mCurrentConfig={config}\n      mLoadersStarted=true\n    ViewRoot:\n      mAdded=true \
         mRemoved=false mStopped=false mPausedForTransition=false\n",
        task.uid,
        task.package,
        task.id,
        activity.short(),
        task.pid,
        object_id(&format!("local {}", activity.full())),
    )
}

fn recents(tasks: &[Task]) -> String {
    let mut out = String::from(
        "ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n  mRecentsUid=10192\n  \
         mRecentsComponent=ComponentInfo{com.google.android.apps.nexuslauncher/com.android.quickstep.RecentsActivity}\n  \
         mFreezeTaskListReordering=false\n  mFreezeTaskListReorderingPendingTimeout=false\n  \
         Recent tasks:\n",
    );
    // The home task is not among the recents.
    for (n, task) in tasks.iter().filter(|t| !t.home).enumerate() {
        out.push_str(&format!("  * Recent #{n}: {}\n", task.describe()));
    }
    out
}

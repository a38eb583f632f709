//! `query-activities` and `resolve-activity` of `pm`/`cmd package`, as
//! `PackageManagerShellCommand.printResolveInfo` prints their matches: with `--brief`, the
//! match line (`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1
//! isDefault=false`, `true` for the home app's default filter) then `PKG/.Class`; with
//! `--components`, the component alone; without either, `ResolveInfo.dump` (its
//! `ActivityInfo` and `ApplicationInfo`, whose `packageName=` lines mobile-mcp lists apps
//! by). More than one match resolves to the system's chooser, as on a phone.

use super::super::{Io, SimShell};
use super::apps::{self, App, Origin};
use super::intent::Intent;
use crate::device::sim::Sim;
use crate::stability::Clock;

/// Whether a query lists every match or the one an intent would start.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Query {
    All,
    Best,
}

/// `query-activities` and `resolve-activity`.
pub(super) fn query<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
    query: Query,
) -> u8 {
    let (mut brief, mut components) = (false, false);
    let parsed = Intent::parse(args, |word, next| match word {
        "--brief" => {
            brief = true;
            1
        }
        "--components" => {
            components = true;
            1
        }
        "--user" | "--query-flags" => 1 + usize::from(next.is_some()),
        _ => 0,
    });
    let intent = match parsed {
        Ok(intent) => intent,
        Err(why) => {
            let name = if query == Query::All {
                "query-activities"
            } else {
                "resolve-activity"
            };
            io.complain(&format!(
                "\nException occurred while executing '{name}':\njava.lang.IllegalArgumentException: {why}\n"
            ));
            return 255;
        }
    };
    let apps = apps::installed(shell, sim);
    let found = intent.resolve(&apps);
    let style = match (brief, components) {
        (_, true) => Style::Component,
        (true, false) => Style::Brief,
        (false, false) => Style::Full,
    };
    match query {
        Query::Best => match found.as_slice() {
            [] => io.say("No activity found\n"),
            [(app, component, default)] => {
                io.say(&resolve_info(app, &component.class, *default, "", style));
            }
            // More than one: the chooser is what resolves, as on a phone.
            _ => io.say(&resolve_info(
                &chooser(),
                "com.android.internal.app.ResolverActivity",
                false,
                "",
                style,
            )),
        },
        Query::All if found.is_empty() => io.say("No activities found\n"),
        Query::All if style == Style::Component => {
            for (app, component, default) in &found {
                io.say(&resolve_info(app, &component.class, *default, "", style));
            }
        }
        Query::All => {
            io.say(&format!("{} activities found:\n", found.len()));
            for (n, (app, component, default)) in found.iter().enumerate() {
                io.say(&format!("  Activity #{n}:\n"));
                io.say(&resolve_info(
                    app,
                    &component.class,
                    *default,
                    "    ",
                    style,
                ));
            }
        }
    }
    0
}

/// How a `ResolveInfo` is printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// `--components`: the component alone.
    Component,
    /// `--brief`: its match line and the component.
    Brief,
    /// `ResolveInfo.dump`.
    Full,
}

/// The `android` package as the chooser's owner.
fn chooser() -> App {
    App {
        package: "android".into(),
        origin: Origin::System,
        apk: "/system/framework/framework-res.apk".into(),
        uid: 1000,
        version_name: "14",
        version_code: 34,
        target_sdk: 34,
        installed_at: "",
        updated_at: "",
        launcher: None,
        home: None,
    }
}

/// `printResolveInfo`: `--brief`'s two lines, or `ResolveInfo.dump` with its activity and
/// application (every filter here matches without data: `MATCH_CATEGORY_EMPTY`, normal).
fn resolve_info(app: &App, class: &str, default: bool, prefix: &str, style: Style) -> String {
    let component = apps::Component {
        package: app.package.clone(),
        class: class.to_owned(),
    };
    let matched = format!(
        "{prefix}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault={default}\n"
    );
    match style {
        Style::Component => format!("{prefix}{}\n", component.short()),
        Style::Brief => format!("{matched}{prefix}{}\n", component.short()),
        Style::Full => {
            let p = format!("{prefix}    ");
            let package = &app.package;
            format!(
                "{matched}{prefix}ActivityInfo:\n{prefix}  name={class}\n{prefix}  \
                 packageName={package}\n{prefix}  enabled=true exported=true \
                 directBootAware=false\n{prefix}  taskAffinity={package} targetActivity=null \
                 persistableMode=PERSIST_ROOT_ONLY\n{prefix}  launchMode=0 flags=0x3 \
                 privateFlags=0x0 theme=0x0\n{prefix}  \
                 lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT\n{prefix}  \
                 resizeMode=RESIZE_MODE_RESIZEABLE\n{prefix}  ApplicationInfo:\n{p}packageName={package}\n{p}\
                 processName={package}\n{p}taskAffinity={package}\n{p}uid={} flags=0x{:x} \
                 privateFlags=0x0 theme=0x0\n{p}requiresSmallestWidthDp=0 compatibleWidthLimitDp=0 \
                 largestWidthLimitDp=0\n{p}sourceDir={}\n{p}dataDir=/data/user/0/{package}\n{p}\
                 deviceProtectedDataDir=/data/user_de/0/{package}\n{p}\
                 credentialProtectedDataDir=/data/user/0/{package}\n{p}enabled=true \
                 minSdkVersion=26 targetSdkVersion={} versionCode={} targetSandboxVersion=1\n{p}\
                 supportsRtl=true\n{p}fullBackupContent=true\n{p}crossProfile=false\n{p}\
                 HiddenApiEnforcementPolicy=2\n{p}usesNonSdkApi=false\n{p}\
                 allowsPlaybackCapture=true\n",
                app.uid,
                app_flags(app),
                app.apk,
                app.target_sdk,
                app.version_code,
            )
        }
    }
}

/// `ApplicationInfo.flags`: has code, allows clearing data and backup, supports every
/// screen size and RTL; `FLAG_SYSTEM` for the system image's apps.
pub(super) fn app_flags(app: &App) -> u32 {
    let common = 0x3048_be44;
    match app.origin {
        Origin::System => common | 0x1,
        Origin::User => common,
    }
}

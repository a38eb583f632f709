//! What is installed on the sim and what each app runs, as the package manager knows it:
//! the system apps of its image (the launcher, Settings, System UI, the keyboard, the
//! permission controller, and the sim's own apps, preinstalled as a phone maker bundles
//! apps) and droidrun's Portal once installed into `/data/app`. Each screen of the sim is
//! one activity of its app; the app's entry screen is its launcher activity (exported,
//! `MAIN`/`LAUNCHER`), the others are internal (not exported), as an app's inner screens are.

use super::super::SimShell;
use crate::device::helper_wire::PORTAL_PACKAGE;
use crate::device::sim::Sim;
use crate::device::sim::apps::{IMAGE, Known, camel, image_uid, screen_class};
pub(super) use crate::device::sim::apps::{hash, object_id};
use crate::stability::Clock;

/// Where an app came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// In the system image: `pm list packages -s`, and the shell user cannot remove it.
    System,
    /// Installed into `/data/app`: `pm list packages -3`.
    User,
}

/// An activity's name, as `ComponentName` holds it: its package and its full class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Component {
    pub package: String,
    pub class: String,
}

impl Component {
    fn new(package: &str, class: &str) -> Self {
        Self {
            package: package.to_owned(),
            class: class.to_owned(),
        }
    }

    /// `ComponentName.unflattenFromString`: `PKG/CLASS`, a class from `.` relative to the
    /// package.
    pub fn parse(text: &str) -> Option<Self> {
        let (package, class) = text.split_once('/')?;
        if package.is_empty() || class.is_empty() {
            return None;
        }
        let class = match class.strip_prefix('.') {
            Some(_) => format!("{package}{class}"),
            None => class.to_owned(),
        };
        Some(Self::new(package, &class))
    }

    /// `flattenToShortString`: `PKG/.Class` when the class is in the package.
    pub fn short(&self) -> String {
        match self.class.strip_prefix(&self.package) {
            Some(rest) if rest.starts_with('.') => format!("{}/{rest}", self.package),
            _ => self.full(),
        }
    }

    /// `flattenToString`: `PKG/full.Class`, as a window's title names its activity.
    pub fn full(&self) -> String {
        format!("{}/{}", self.package, self.class)
    }
}

/// An installed package.
#[derive(Clone, Debug)]
pub(super) struct App {
    pub package: String,
    pub origin: Origin,
    /// Its base APK, as `pm path` prints it.
    pub apk: String,
    /// Its Linux uid (an app id for the ones from 10000).
    pub uid: u32,
    pub version_name: &'static str,
    pub version_code: u64,
    pub target_sdk: u32,
    /// When it was installed and last updated, in the phone's time zone.
    pub installed_at: &'static str,
    pub updated_at: &'static str,
    /// Its launcher activity (`MAIN`/`LAUNCHER`), if the sim can show it.
    pub launcher: Option<Component>,
    /// Its home activity (`MAIN`/`HOME`/`DEFAULT`), for the home app.
    pub home: Option<Component>,
}

impl App {
    /// The directory of its APK: `dumpsys package`'s `codePath`.
    pub fn code_path(&self) -> &str {
        self.apk.rsplit_once('/').map_or("", |(dir, _)| dir)
    }
}

/// The build's fixed file time (2009-01-01 00:00 UTC) in the phone's zone, as system APKs
/// carry it; and the day the phone first booted.
const IMAGE_TIME: &str = "2008-12-31 16:00:00";
const FIRST_BOOT: &str = "2025-03-03 09:14:27";
/// When `--portal` (`mobilerun setup`) installed Portal.
const PORTAL_INSTALLED: &str = "2025-04-14 10:21:07";

/// The activity screen `index` of the sim stands for.
pub(super) fn screen_activity<C: Clock + Clone + Send>(sim: &Sim<C>, index: usize) -> Component {
    let Some(screen) = sim.screens.get(index) else {
        return Component::new("android", "android.app.Activity");
    };
    Component::new(&screen.package, &screen_class(screen))
}

/// The activity on screen now.
pub(super) fn current_activity<C: Clock + Clone + Send>(sim: &Sim<C>) -> Component {
    screen_activity(sim, sim.current)
}

/// Every activity of `package`, by its screens.
pub(super) fn activities_of<C: Clock + Clone + Send>(
    sim: &Sim<C>,
    package: &str,
) -> Vec<Component> {
    (0..sim.screens.len())
        .filter(|&i| sim.screens[i].package == package)
        .map(|i| screen_activity(sim, i))
        .collect()
}

/// The home app: the package of the screen Home returns to.
pub(super) fn home_package<C: Clock + Clone + Send>(sim: &Sim<C>) -> String {
    sim.screens
        .first()
        .map_or_else(String::new, |s| s.package.clone())
}

/// Every package installed now, by name.
pub(super) fn installed<C: Clock + Clone + Send>(shell: &SimShell<C>, sim: &Sim<C>) -> Vec<App> {
    let home = home_package(sim);
    let mut names: Vec<String> = IMAGE.iter().map(|k| k.package.to_owned()).collect();
    names.extend(sim.screens.iter().map(|s| s.package.clone()));
    names.sort();
    names.dedup();
    let mut apps: Vec<App> = names
        .iter()
        .map(|package| {
            let known = IMAGE.iter().find(|k| k.package == package);
            // An entry screen is where `launch` lands: the app's launcher activity.
            let entry = sim
                .screens
                .iter()
                .position(|s| s.entry && s.package == *package);
            let is_home = *package == home;
            App {
                package: package.clone(),
                origin: Origin::System,
                apk: known.map_or_else(|| generic_apk(package), |k| k.apk.to_owned()),
                uid: image_uid(package),
                version_name: version_name(sim, package, known),
                version_code: known.map_or(1, |k| k.version_code),
                target_sdk: 34,
                installed_at: FIRST_BOOT,
                updated_at: IMAGE_TIME,
                // The home app answers HOME, not LAUNCHER (it has no icon of its own).
                launcher: entry.filter(|_| !is_home).map(|i| screen_activity(sim, i)),
                home: is_home.then(|| screen_activity(sim, entry.unwrap_or(0))),
            }
        })
        .collect();
    if shell.portal_installed() {
        apps.push(App {
            package: PORTAL_PACKAGE.to_owned(),
            origin: Origin::User,
            apk: super::super::portal_app::APK.to_owned(),
            uid: 10234,
            version_name: "0.7.2",
            version_code: 72,
            target_sdk: 35,
            installed_at: PORTAL_INSTALLED,
            updated_at: PORTAL_INSTALLED,
            // The sim shows no screen of Portal's own, so it offers none to launch.
            launcher: None,
            home: None,
        });
        apps.sort_by(|a, b| a.package.cmp(&b.package));
    }
    apps
}

/// The uid `package` runs as (the system's for one not installed).
pub(super) fn uid_of<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    package: &str,
) -> u32 {
    installed(shell, sim)
        .iter()
        .find(|a| a.package == package)
        .map_or(1000, |a| a.uid)
}

/// The next release of the sim's app is a newer version of it.
fn version_name<C: Clock + Clone + Send>(
    sim: &Sim<C>,
    package: &str,
    known: Option<&Known>,
) -> &'static str {
    match (package, sim.build()) {
        ("tv.tapscope.demo", crate::device::sim::Build::Next) => "3.3.0",
        _ => known.map_or("1.0", |k| k.version_name),
    }
}

/// A screen's package that no table names: preinstalled like the sim's own apps.
fn generic_apk(package: &str) -> String {
    let name = package.rsplit('.').next().unwrap_or(package);
    let name = camel(name);
    format!("/product/app/{name}/{name}.apk")
}

/// The task an app's activities run in: the launcher's is the home task.
pub(super) fn task_of(package: &str, home: bool) -> u32 {
    if home { 2 } else { 10 + hash(package) % 80 }
}

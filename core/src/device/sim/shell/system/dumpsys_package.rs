//! `dumpsys package PKG` (and `pm dump PKG`) as Android 14 prints one package, cut to its
//! resolver entries and its `Packages:` block: what adbutils' `app_info()` reads
//! (`versionName=`, `versionCode=`, `PackageSignatures{…[…]}`, `pkgFlags=[ … ]`,
//! `firstInstallTime=`, `lastUpdateTime=`) and uiautomator2 (`targetSdk=`, `granted=`).
//! A package not installed: `Unable to find package: PKG`.

use super::super::{Io, SimShell};
use super::apps::{self, App, Origin, object_id};
use super::intent::{ACTION_MAIN, CATEGORY_DEFAULT, CATEGORY_HOME, CATEGORY_LAUNCHER};
use crate::device::sim::Sim;
use crate::stability::Clock;

/// `dumpsys package PKG`; with no package, the same for every one.
pub(super) fn dump<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let installed = apps::installed(shell, sim);
    let wanted: Vec<&App> = match args.iter().find(|a| !a.starts_with('-')) {
        Some(package) => match installed.iter().find(|a| a.package == *package) {
            Some(app) => vec![app],
            None => {
                io.say(&format!("Unable to find package: {package}\n"));
                return 0;
            }
        },
        None => installed.iter().collect(),
    };
    io.say(&resolver(&wanted));
    io.say("\nKey Set Manager:\n");
    for app in &wanted {
        io.say(&format!(
            "  [{}]\n      Signing KeySets: {}\n",
            app.package,
            1 + apps::hash(&app.package) % 90
        ));
    }
    io.say("\nPackages:\n");
    for app in wanted {
        io.say(&package(app));
    }
    0
}

/// The activity resolver's entries of these apps: `MAIN` with its categories.
fn resolver(apps: &[&App]) -> String {
    let mut out = String::from("Activity Resolver Table:\n  Non-Data Actions:\n");
    let mut any = false;
    for app in apps {
        let entries = [
            (&app.launcher, vec![CATEGORY_LAUNCHER]),
            (&app.home, vec![CATEGORY_HOME, CATEGORY_DEFAULT]),
        ];
        for (component, categories) in entries {
            let Some(component) = component else {
                continue;
            };
            if !any {
                out.push_str(&format!("      {ACTION_MAIN}:\n"));
                any = true;
            }
            out.push_str(&format!(
                "        {} {} filter {}\n          Action: \"{ACTION_MAIN}\"\n",
                object_id(&format!("activity {}", component.full())),
                component.short(),
                object_id(&format!("filter {}", component.full())),
            ));
            for category in categories {
                out.push_str(&format!("          Category: \"{category}\"\n"));
            }
        }
    }
    out
}

/// One package's block.
fn package(app: &App) -> String {
    let code_path = app.code_path();
    let flags = match app.origin {
        Origin::System => "SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP",
        Origin::User => "HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP",
    };
    let private_flags = match app.origin {
        Origin::System => {
            "PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION \
             ALLOW_AUDIO_PLAYBACK_CAPTURE PRODUCT PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING"
        }
        Origin::User => {
            "PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION \
             ALLOW_AUDIO_PLAYBACK_CAPTURE PRIVATE_FLAG_ALLOW_NATIVE_HEAP_POINTER_TAGGING"
        }
    };
    let installer = match app.origin {
        Origin::System => "null",
        Origin::User => "com.android.shell",
    };
    let package = &app.package;
    let signature = format!("{:08x}", apps::hash(&format!("signature {package}")));
    format!(
        "  Package [{package}] ({}):\n    appId={uid}\n    pkg=Package{{{} {package}}}\n    \
         codePath={code_path}\n    resourcePath={code_path}\n    \
         legacyNativeLibraryDir={code_path}/lib\n    extractNativeLibs=false\n    \
         primaryCpuAbi=null\n    secondaryCpuAbi=null\n    cpuAbiOverride=null\n    \
         versionCode={code} minSdk=26 targetSdk={target}\n    minExtensionVersions=[]\n    \
         versionName={name}\n    hiddenApiEnforcementPolicy=2\n    usesNonSdkApi=false\n    \
         splits=[base]\n    apkSigningVersion=3\n    flags=[ {flags} ]\n    privateFlags=[ \
         {private_flags} ]\n    forceQueryable=false\n    dataDir=/data/user/0/{package}\n    \
         supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]\n    \
         timeStamp={updated}\n    lastUpdateTime={updated}\n    \
         installerPackageName={installer}\n    packageSource=0\n    \
         signatures=PackageSignatures{{{} version:3, signatures:[{signature}], past \
         signatures:[]}}\n    installPermissionsFixed=true\n    pkgFlags=[ {flags} ]\n    \
         privatePkgFlags=[ {private_flags} ]\n    apexModuleName=null\n    requested \
         permissions:\n      android.permission.INTERNET\n      \
         android.permission.ACCESS_NETWORK_STATE\n      android.permission.POST_NOTIFICATIONS\n    \
         install permissions:\n      android.permission.INTERNET: granted=true\n      \
         android.permission.ACCESS_NETWORK_STATE: granted=true\n    User 0: ceDataInode={} \
         installed=true hidden=false suspended=false distractionFlags=0 stopped=false \
         notLaunched=false enabled=0 instant=false virtual=false quarantined=false\n      \
         installReason=0\n      firstInstallTime={installed}\n      uninstallReason=0\n      \
         gids=[3003]\n      runtime permissions:\n        \
         android.permission.POST_NOTIFICATIONS: granted=true, flags=[ \
         USER_SET|USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]\n",
        object_id(&format!("setting {package}")),
        object_id(&format!("package {package}")),
        object_id(&format!("signatures {package}")),
        4000 + apps::hash(package) % 90_000,
        uid = app.uid,
        code = app.version_code,
        target = app.target_sdk,
        name = app.version_name,
        updated = app.updated_at,
        installed = app.installed_at,
    )
}

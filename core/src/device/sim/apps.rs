//! Who the sim's apps are, where both the phone's own log ([`super::syslog`]) and its
//! package and activity managers (`shell::system`) name them: the system image's packages
//! with their APKs, uids and versions, the activity class each screen stands for, and the
//! stable pids and object ids printed for them.

use super::screen::Screen;

/// What a package is, when it is one the sim knows by name: its APK, uid and version.
pub(super) struct Known {
    pub package: &'static str,
    pub apk: &'static str,
    pub uid: u32,
    pub version_name: &'static str,
    pub version_code: u64,
}

/// The packages of the sim's system image, with a Pixel's paths and ids for the ones a
/// Pixel has. The sim's own apps live in `/product/app`, where a phone maker's do.
pub(super) const IMAGE: [Known; 9] = [
    Known {
        package: "android",
        apk: "/system/framework/framework-res.apk",
        uid: 1000,
        version_name: "14",
        version_code: 34,
    },
    Known {
        package: "com.android.settings",
        apk: "/system_ext/priv-app/SettingsGoogle/SettingsGoogle.apk",
        uid: 1000,
        version_name: "14",
        version_code: 34,
    },
    Known {
        package: "com.android.shell",
        apk: "/system/priv-app/Shell/Shell.apk",
        uid: 2000,
        version_name: "14",
        version_code: 34,
    },
    Known {
        package: "com.android.systemui",
        apk: "/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk",
        uid: 10183,
        version_name: "14",
        version_code: 34,
    },
    Known {
        package: "com.google.android.apps.nexuslauncher",
        apk: "/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk",
        uid: 10192,
        version_name: "14",
        version_code: 34,
    },
    Known {
        package: "com.google.android.inputmethod.latin",
        apk: "/product/app/LatinIMEGooglePrebuilt/LatinIMEGooglePrebuilt.apk",
        uid: 10160,
        version_name: "13.6.08.573530938-release-arm64-v8a",
        version_code: 136_080_573,
    },
    Known {
        package: "com.google.android.permissioncontroller",
        apk: "/apex/com.android.permission/priv-app/GooglePermissionController@340818022/GooglePermissionController.apk",
        uid: 10156,
        version_name: "34 system image",
        version_code: 340_818_022,
    },
    Known {
        package: "tv.tapscope.blocks",
        apk: "/product/app/TapBlocks/TapBlocks.apk",
        uid: 10211,
        version_name: "1.4.0",
        version_code: 140,
    },
    Known {
        package: "tv.tapscope.demo",
        apk: "/product/app/TapTube/TapTube.apk",
        uid: 10210,
        version_name: "3.2.1",
        version_code: 30201,
    },
];

/// The uid `package` runs as: its image entry's, else a stable one of its own.
pub(super) fn image_uid(package: &str) -> u32 {
    IMAGE
        .iter()
        .find(|k| k.package == package)
        .map_or_else(|| generic_uid(package), |k| k.uid)
}

fn generic_uid(package: &str) -> u32 {
    10_300 + hash(package) % 600
}

/// The activity classes of screens that stand for a real system app's activity.
const NAMED_ACTIVITIES: [(&str, &str); 3] = [
    (
        "launcher",
        "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
    ),
    ("settings", "com.android.settings.Settings"),
    (
        "permission",
        "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity",
    ),
];

/// The class of the activity `screen` stands for: a real system app's own, `.MainActivity`
/// for an app's entry screen, `.GamePlayActivity` for its `game_play` screen.
pub(super) fn screen_class(screen: &Screen) -> String {
    if let Some((_, class)) = NAMED_ACTIVITIES.iter().find(|(n, _)| *n == screen.name) {
        return (*class).to_owned();
    }
    let name = if screen.entry {
        "Main".to_owned()
    } else {
        camel(&screen.name)
    };
    format!("{}.{name}Activity", screen.package)
}

/// `game_play` as a class name's word: `GamePlay`.
pub(super) fn camel(name: &str) -> String {
    name.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A stable stand-in for an object's identity hash (`Window{7c1a2f0 …}`), from its name.
pub(super) fn hash(name: &str) -> u32 {
    // FNV-1a: the same name gives the same hash on every run.
    name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// `hash` as Java prints `Integer.toHexString(identityHashCode)`, seven digits or so.
pub(super) fn object_id(name: &str) -> String {
    format!("{:x}", hash(name) >> 4)
}

/// The process id an app runs as: fixed for each app, as if started once after boot.
pub(super) fn pid_of(package: &str) -> u32 {
    3000 + hash(package) % 9000
}

/// A uid as `UserHandle.formatUid` prints it: `u0a123` for an app's, `1000` for the
/// system's.
pub(super) fn format_uid(uid: u32) -> String {
    match uid.checked_sub(10_000) {
        Some(app) => format!("u0a{app}"),
        None => uid.to_string(),
    }
}

//! `dumpsys window` (`windows`, `displays`, `lastanr`), `dumpsys display` and `dumpsys
//! input` as Android 14 prints them, cut to the lines tools read, every one agreeing on the
//! display's rotation ([`Rotation`], from the settings): `mCurrentRotation=ROTATION_90` and
//! `cur=2400x1080` in the window manager's display dump (its `DisplayRotation` block, as a
//! captured Pixel dump has it), `orientation=1` first in `dumpsys display` (its viewport
//! line: what adbutils' `rotation()` reads), `InputDeviceOrientation: 1` in `dumpsys input`
//! (Android 14's `TouchInputMapper::dumpDisplay`) with Android 13's `SurfaceOrientation: 1`
//! beside it, which older tools grep for. `wm size` stays the physical size, as on a phone.
//! `dumpsys window windows` has no `mCurrentFocus` line on Android 13 and later (the
//! display dump has it), so adbutils' `app_current()` goes on to `dumpsys activity`.

use super::super::{Io, SimShell};
use super::DENSITY;
use super::apps::{self, Component, current_activity, object_id};
use super::settings::Rotation;
use crate::device::sim::view::{KEYBOARD_PACKAGE, STATUS_BAR_HEIGHT};
use crate::device::sim::{DISPLAY, Sim};
use crate::stability::Clock;

/// The display's unique id, as `local:` plus its physical id on a Pixel.
const UNIQUE_ID: &str = "local:4619827259835644672";
const SYSTEMUI_UID: u32 = 10183;
const SECTION_RULE: &str =
    "-------------------------------------------------------------------------------";

/// The display's size as apps see it now: the physical one, turned.
pub(super) fn logical(rotation: Rotation) -> (i32, i32) {
    if rotation.sideways() {
        (DISPLAY.height, DISPLAY.width)
    } else {
        (DISPLAY.width, DISPLAY.height)
    }
}

/// `Configuration.toString()` of the display's configuration.
pub(super) fn configuration(rotation: Rotation) -> String {
    let (w, h) = logical(rotation);
    let dp = |px: i32| (f64::from(px) * 160.0 / f64::from(DENSITY)) as i32;
    let bar = STATUS_BAR_HEIGHT;
    let (wdp, hdp) = (dp(w), dp(h - bar));
    let orientation = if rotation.sideways() { "land" } else { "port" };
    let r = rotation.name();
    format!(
        "{{1.0 ?mcc?mnc [en_US] ldltr sw{}dp w{wdp}dp h{hdp}dp {DENSITY}dpi nrml long {orientation} \
         finger -keyb/v/h -nav/h winConfig={{ mBounds=Rect(0, 0 - {w}, {h}) mAppBounds=Rect(0, \
         {bar} - {w}, {h}) mMaxBounds=Rect(0, 0 - {w}, {h}) mDisplayRotation={r} \
         mWindowingMode=fullscreen mActivityType=undefined mAlwaysOnTop=undefined mRotation={r}}} \
         s.12 fontWeightAdjustment=0}}",
        dp(DISPLAY.width.min(DISPLAY.height))
    )
}

/// A window as `WindowState.toString()` names it: `Window{7c1a2f0 u0 TITLE}`.
fn window(title: &str) -> String {
    format!(
        "Window{{{} u0 {title}}}",
        object_id(&format!("window {title}"))
    )
}

/// An activity's record as `ActivityRecord.toString()` names it.
pub(super) fn record(component: &Component, task: u32) -> String {
    format!(
        "ActivityRecord{{{} u0 {} t{task}}}",
        object_id(&format!("record {}", component.full())),
        component.short()
    )
}

/// `dumpsys window [windows|displays|lastanr]`.
pub(super) fn dumpsys_window<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let rotation = shell.rotation();
    let auto = shell.auto_rotate();
    let uid = apps::uid_of(shell, sim, &current_activity(sim).package);
    match args.first().copied() {
        None | Some("-a") => {
            let text = [
                last_anr(),
                displays(sim, rotation, auto),
                windows(sim, rotation, uid),
            ]
            .join(&format!("\n{SECTION_RULE}\n"));
            io.say(&text);
        }
        Some("windows" | "w") => io.say(&windows(sim, rotation, uid)),
        Some("displays" | "d") => io.say(&displays(sim, rotation, auto)),
        Some("lastanr" | "l") => io.say(&last_anr()),
        Some(other) => {
            io.say(&format!(
                "Bad window command, or no windows match: {other}\nUse -h for help.\n"
            ));
        }
    }
    0
}

fn last_anr() -> String {
    "WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  <no ANR has occurred since boot>\n"
        .to_owned()
}

/// A window `dumpsys window windows` lists.
struct Shown {
    title: String,
    package: String,
    uid: u32,
    /// `WindowManager.LayoutParams.toString()`.
    attrs: String,
    /// The size it asked for.
    size: (i32, i32),
    visible: bool,
}

/// The windows on the display, top to bottom, and the window manager's global state.
fn windows<C: Clock + Clone + Send>(sim: &Sim<C>, rotation: Rotation, app_uid: u32) -> String {
    let (w, h) = logical(rotation);
    let activity = current_activity(sim);
    let home = apps::home_package(sim);
    let task = apps::task_of(&activity.package, activity.package == home);
    let keyboard = sim.screens.get(sim.current).is_some_and(|s| s.keyboard);
    let bar = STATUS_BAR_HEIGHT;
    let mut out = String::from("WINDOW MANAGER WINDOWS (dumpsys window windows)\n");
    let systemui = |title: &str, attrs: String, size: (i32, i32)| Shown {
        title: title.to_owned(),
        package: "com.android.systemui".to_owned(),
        uid: SYSTEMUI_UID,
        attrs,
        size,
        visible: true,
    };
    // Top to bottom.
    let mut entries = vec![
        systemui(
            "StatusBar",
            format!("{{(0,0)({w}x{bar}) gr=TOP CENTER_VERTICAL sim={{adjust=pan}} ty=STATUS_BAR fmt=TRANSLUCENT}}"),
            (w, bar),
        ),
        Shown {
            title: "InputMethod".into(),
            package: KEYBOARD_PACKAGE.into(),
            uid: 10160,
            attrs: "{(0,0)(fillxwrap) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan} ty=INPUT_METHOD fmt=TRANSPARENT}".into(),
            size: (w, h / 3),
            visible: keyboard,
        },
        Shown {
            title: activity.full(),
            package: activity.package.clone(),
            uid: app_uid,
            attrs: "{(0,0)(fillxfill) sim={adjust=pan forwardNavigation} ty=BASE_APPLICATION wanim=0x10302fe}".into(),
            size: (w, h),
            visible: true,
        },
    ];
    if activity.package == home {
        entries.push(systemui(
            "com.android.systemui.wallpapers.ImageWallpaper",
            format!("{{(0,0)({w}x{h}) gr=TOP START CENTER_VERTICAL ty=WALLPAPER fmt=RGBX_8888}}"),
            (w, h),
        ));
    }
    for (n, shown) in entries.iter().enumerate() {
        let Shown {
            title,
            package,
            uid,
            attrs,
            size: (rw, rh),
            visible,
        } = shown;
        let pid = sim.shown_pid(package);
        // Only an activity's window is in a task.
        let is_app = *package == activity.package && title.contains('/');
        let task_part = if is_app {
            format!(" rootTaskId={task}")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  Window #{n} {}:\n    mDisplayId=0{task_part} mSession=Session{{{} {pid}:{}}} \
             mClient=android.os.BinderProxy@{}\n    mOwnerUid={uid} showForAllUsers=false \
             package={package} appop=NONE\n    mAttrs={attrs}\n    Requested w={rw} h={rh} \
             mLayoutSeq=412\n",
            window(title),
            object_id(&format!("session {package}")),
            uid_name(*uid),
            object_id(&format!("client {title}")),
        ));
        if is_app {
            out.push_str(&format!(
                "    mActivityRecord={}\n",
                record(&activity, task)
            ));
        }
        let visibility = if *visible { "0x0" } else { "0x8" };
        out.push_str(&format!(
            "    mViewVisibility={visibility} mHaveFrame=true mObscured=false\n    \
             mHasSurface={visible} isReadyForDisplay()={visible} mWindowRemovalAllowed=false\n"
        ));
    }
    out.push_str(&format!(
        "\n  mGlobalConfiguration={}\n  mHasPermanentDpad=false\n  mTopFocusedDisplayId=0\n  \
         mBlurEnabled=true\n  mInTouchMode=true\n  mDisplayFrozen=false windows=0 client=false \
         apps=0\n",
        configuration(rotation)
    ));
    out
}

/// The display's contents: its size now, the focus, and its rotation.
fn displays<C: Clock + Clone + Send>(sim: &Sim<C>, rotation: Rotation, auto: bool) -> String {
    let (w, h) = logical(rotation);
    let (pw, ph) = (DISPLAY.width, DISPLAY.height);
    let activity = current_activity(sim);
    let home = apps::home_package(sim);
    let task = apps::task_of(&activity.package, activity.package == home);
    let r = rotation.quarter_turns();
    let name = rotation.name();
    let config = configuration(rotation);
    let focus = window(&activity.full());
    let record = record(&activity, task);
    format!(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 \
         rootTasks=2\n    init={pw}x{ph} {DENSITY}dpi mMinSizeOfResizeableTaskDp=220 cur={w}x{h} \
         app={w}x{h} rng={pw}x{pw}-{ph}x{ph}\n    deferred=false mLayoutNeeded=false\n  \
         overrideConfig={config}\n  mSleeping=false mAllSleepTokens=[]\n  mLayoutSeq=412\n  \
         mCurrentFocus={focus}\n  mFocusedApp={record}\n  mFixedRotationLaunchingApp=null\n\n  \
         DisplayFrames w={w} h={h} r={r}\n\n  DisplayRotation\n    \
         mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n    mLastOrientation=-1\n    \
         mRotation={r} mDeferredRotationPauseCount=0\n    mLandscapeRotation=ROTATION_90 \
         mSeascapeRotation=ROTATION_270\n    mPortraitRotation=ROTATION_0 \
         mUpsideDownRotation=ROTATION_180\n    mSupportAutoRotation=true\n    \
         WindowOrientationListener\n      mEnabled={auto}\n      mCurrentRotation={name}\n      \
         mSensorType=null\n\n    mCarDockRotation=-1 mDeskDockRotation=-1\n    \
         mUserRotationMode={mode} mUserRotation={name} mCameraRotationMode=0 \
         mAllowAllRotations=unknown\n    mDemoHdmiRotation=ROTATION_90 \
         mDemoHdmiRotationLock=false mUndockedHdmiRotation=-1\n    mLidOpenRotation=-1\n    \
         mFixedToUserRotation=false\n",
        mode = if auto {
            "USER_ROTATION_FREE"
        } else {
            "USER_ROTATION_LOCKED"
        },
    )
}

/// `dumpsys display`: the viewport line first (with `orientation=`), then the built-in
/// screen's device info (natural size) and the logical display (turned).
pub(super) fn dumpsys_display<C: Clock + Clone + Send>(shell: &SimShell<C>, io: &mut Io<'_>) -> u8 {
    let rotation = shell.rotation();
    let (w, h) = logical(rotation);
    let (pw, ph) = (DISPLAY.width, DISPLAY.height);
    let r = rotation.quarter_turns();
    let info = |width: i32, height: i32, rotation: u8| {
        format!(
            "DisplayInfo{{\"Built-in Screen\", displayId 0, displayGroupId 0, FLAG_SECURE, \
             FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real {width} x {height}, largest app \
             {ph} x {ph}, smallest app {pw} x {pw}, appVsyncOff 7500000, presDeadline 16666666, \
             mode 1, defaultMode 1, modes [{{id=1, width={pw}, height={ph}, fps=60.0, \
             vsync=60.0, synthetic=false, alternativeRefreshRates=[], supportedHdrTypes=[]}}], \
             rotation {rotation}, state ON, committedState ON, type INTERNAL, uniqueId \
             \"{UNIQUE_ID}\", app {width} x {height}, density {DENSITY} (409.432 x 411.891) dpi, \
             layerStack 0, colorMode 0, supportedColorModes [0], address {{port=0, \
             model=0x401cec6a7a2b7b}}, removeMode 0, installOrientation ROTATION_0}}"
        )
    };
    io.say(&format!(
        "DISPLAY MANAGER (dumpsys display)\n  mSafeMode=false\n  mPendingTraversal=false\n  \
         mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, \
         uniqueId='{UNIQUE_ID}', physicalPort=0, orientation={r}, logicalFrame=Rect(0, 0 - {w}, \
         {h}), physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, deviceHeight={h}}}]\n  \
         mDefaultDisplayDefaultColorMode=0\n  mWifiDisplayScanRequestCount=0\n  \
         mStableDisplaySize=Point({pw}, {ph})\n\nDisplay Adapters: size=1\n  \
         LocalDisplayAdapter\n\nDisplay Devices: size=1\n  DisplayDeviceInfo{{\"Built-in \
         Screen\": uniqueId=\"{UNIQUE_ID}\", {pw} x {ph}, modeId 1, renderFrameRate 60.0, \
         defaultModeId 1, density {DENSITY}, 409.432 x 411.891 dpi, appVsyncOff 7500000, \
         presDeadline 16666666, touch INTERNAL, rotation 0, type INTERNAL, state ON, \
         committedState ON, FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, \
         FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, installOrientation 0}}\n    \
         mAdapter=LocalDisplayAdapter\n    mUniqueId={UNIQUE_ID}\n    mCurrentLayerStack=0\n    \
         mCurrentOrientation={r}\n    mCurrentLayerStackRect=Rect(0, 0 - {w}, {h})\n    \
         mCurrentDisplayRect=Rect(0, 0 - {pw}, {ph})\n\nLogical Displays: size=1\n  Display 0:\n    \
         mDisplayId=0\n    mIsEnabled=true\n    mLayerStack=0\n    mHasContent=true\n    \
         mBaseDisplayInfo={}\n    mOverrideDisplayInfo={}\n",
        info(pw, ph, 0),
        info(w, h, r),
    ));
    0
}

/// `dumpsys input`: the touchscreen's mapper, on the display as it is turned.
pub(super) fn dumpsys_input<C: Clock + Clone + Send>(shell: &SimShell<C>, io: &mut Io<'_>) -> u8 {
    let rotation = shell.rotation();
    let (w, h) = logical(rotation);
    let (pw, ph) = (DISPLAY.width, DISPLAY.height);
    let r = rotation.quarter_turns();
    io.say(&format!(
        "INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n  Interactive: true\n  System UI \
         Lights Out: false\n  Pointer Speed: 0\n  Pointer Gestures Enabled: true\n  Show \
         Touches: false\n  Pointer Capture: Disabled, seq=0\n\nEvent Hub State:\n  \
         BuiltInKeyboardId: -2\n  Devices:\n    -1: Virtual\n      Classes: KEYBOARD | \
         ALPHAKEY | VIRTUAL\n    3: sim-touchscreen\n      Classes: TOUCH | TOUCH_MT\n\nInput \
         Reader State (Nums of device: 1):\n  Device 3: sim-touchscreen\n    EventHub Devices: [ \
         3 ] \n    Generation: 12\n    IsExternal: false\n    AssociatedDisplayPort: <none>\n    \
         Sources: TOUCHSCREEN\n    KeyboardType: NONE\n    Touch Input Mapper (mode - \
         DIRECT):\n      Parameters:\n        GestureMode: MULTI_TOUCH\n        DeviceType: \
         TOUCH_SCREEN\n        OrientationAware: true\n        Orientation: Rotation0\n      \
         Viewport INTERNAL: displayId=0, uniqueId={UNIQUE_ID}, port=0, orientation={r}, \
         logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}], \
         isActive=[1]\n      DisplayBounds: {w}x{h}\n      PhysicalFrameInRotatedDisplay: [0, \
         0, {w}, {h}]\n      InputDeviceOrientation: {r}\n      SurfaceOrientation: {r}\n      \
         RawPointerAxes:\n        X: min=0, max={}, flat=0, fuzz=0, resolution=0\n        Y: \
         min=0, max={}, flat=0, fuzz=0, resolution=0\n",
        pw - 1,
        ph - 1,
    ));
    0
}

/// A uid as `UserHandle.formatUid` writes it.
pub(super) use crate::device::sim::apps::format_uid as uid_name;

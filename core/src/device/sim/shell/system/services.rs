//! `dumpsys` itself (`-l`, options, `Can't find service: NAME` on stderr for a service the
//! sim does not have) and its small services: `power` (Android 14's
//! `PowerManagerService.dumpInternal`, cut: `mWakefulness=Awake`,
//! `mHoldingDisplaySuspendBlocker=true`, which adbutils' `is_screen_on()` reads, `Display
//! Power: state=ON`), `battery` (`BatteryService`'s `Current Battery Service state:` block,
//! the level the sim's status bar shows, on USB power as a phone on adb is) and
//! `SurfaceFlinger --display-id` (mobile-mcp counts its `Display ` lines). The sim's screen
//! is always on: it has no power key to turn it off.

use super::super::{Io, SimShell};
use super::{dumpsys_package, tasks, window};
use crate::device::sim::Sim;
use crate::stability::Clock;

/// The services `dumpsys -l` lists: the ones the sim answers, by name.
const SERVICES: [&str; 8] = [
    "SurfaceFlinger",
    "activity",
    "battery",
    "display",
    "input",
    "package",
    "power",
    "window",
];

/// `dumpsys [-l] [-t SECONDS] [SERVICE [ARGS…]]`.
pub(super) fn dumpsys<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let mut rest = args;
    loop {
        match rest {
            ["-l", ..] => {
                io.say("Currently running services:\n");
                for service in SERVICES {
                    io.say(&format!("  {service}\n"));
                }
                return 0;
            }
            ["-t" | "-T", _, more @ ..] => rest = more,
            [flag, more @ ..] if flag.starts_with("--") && *flag != "--" => rest = more,
            _ => break,
        }
    }
    let Some((&service, service_args)) = rest.split_first() else {
        // Every service, each under its header, as a bare `dumpsys` dumps them.
        io.say("Currently running services:\n");
        for service in SERVICES {
            io.say(&format!("  {service}\n"));
        }
        for service in SERVICES {
            io.say(&format!(
                "-------------------------------------------------------------------------------\n\
                 DUMP OF SERVICE {service}:\n"
            ));
            one(shell, sim, service, &[], io);
        }
        return 0;
    };
    if !SERVICES.contains(&service) {
        io.complain(&format!("Can't find service: {service}\n"));
        return 0;
    }
    one(shell, sim, service, service_args, io)
}

/// One service's dump.
fn one<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    sim: &mut Sim<C>,
    service: &str,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    match service {
        "activity" => tasks::dumpsys_activity(shell, sim, args, io),
        "window" => window::dumpsys_window(shell, sim, args, io),
        "display" => window::dumpsys_display(shell, io),
        "input" => window::dumpsys_input(shell, io),
        "package" => dumpsys_package::dump(shell, sim, args, io),
        "power" => power(sim, io),
        "battery" => battery(sim, io),
        _ => surface_flinger(args, io),
    }
}

/// `dumpsys SurfaceFlinger --display-id`: one built-in display.
fn surface_flinger(args: &[&str], io: &mut Io<'_>) -> u8 {
    if args.contains(&"--display-id") {
        io.say(
            "Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL \
             displayName=\"Common Panel\"\n",
        );
    }
    0
}

fn level<C: Clock + Clone + Send>(sim: &Sim<C>) -> u8 {
    sim.battery.min(100)
}

/// `dumpsys power`, cut to its state lines.
fn power<C: Clock + Clone + Send>(sim: &Sim<C>, io: &mut Io<'_>) -> u8 {
    let level = level(sim);
    io.say(&format!(
        "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  Settings \
         power_manager_constants:\n    no_cached_wake_locks=true\n  mDirty=0x0\n  \
         mWakefulness=Awake\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  \
         mBatteryLevel={level}\n  mBatteryLevelWhenDreamStarted=0\n  mDockState=0\n  \
         mStayOn=false\n  mProximityPositive=false\n  mBootCompleted=true\n  \
         mSystemReady=true\n  mHalAutoSuspendModeEnabled=false\n  \
         mHalInteractiveModeEnabled=true\n  mWakeLockSummary=0x0\n  mNotifyLongScheduled=-1\n  \
         mNotifyLongDispatched=-1\n  mNotifyLongNextCheck=-1\n  mUserActivitySummary=0x1\n  \
         mRequestWaitForNegativeProximity=false\n  mSandmanScheduled=false\n  \
         mBatteryLevelLow=false\n  mLightDeviceIdleMode=false\n  mDeviceIdleMode=false\n  \
         mScreenBrightnessBoostInProgress=false\n  mHoldingWakeLockSuspendBlocker=false\n  \
         mHoldingDisplaySuspendBlocker=true\n\nSettings and Configuration:\n  \
         mScreenOffTimeoutSetting=30000\n  mStayOnWhilePluggedInSetting=0\n  \
         mMaximumScreenOffTimeoutFromDeviceAdmin=9223372036854775807 (enforced=false)\n\n\
         Wake Locks: size=0\n\nSuspend Blockers: size=4\n  PowerManagerService.WakeLocks: \
         ref count=0\n  PowerManagerService.Display: ref count=1\n  \
         PowerManagerService.Broadcasts: ref count=0\n  PowerManagerService.WirelessChargerDetector: \
         ref count=0\n\nDisplay Power: state=ON\n"
    ));
    0
}

/// `dumpsys battery`: on USB, charging until full.
fn battery<C: Clock + Clone + Send>(sim: &Sim<C>, io: &mut Io<'_>) -> u8 {
    let level = level(sim);
    // BatteryManager: 2 charging, 5 full; health 2 good.
    let status = if level >= 100 { 5 } else { 2 };
    let capacity_uah: u32 = 4_355_000;
    let counter = capacity_uah / 100 * u32::from(level);
    let voltage = 3700 + u32::from(level) * 5;
    io.say(&format!(
        "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless \
         powered: false\n  Dock powered: false\n  Max charging current: 500000\n  Max charging \
         voltage: 5000000\n  Charge counter: {counter}\n  status: {status}\n  health: 2\n  \
         present: true\n  level: {level}\n  scale: 100\n  voltage: {voltage}\n  temperature: \
         285\n  technology: Li-ion\n  Charging state: 1\n  Charging policy: 1\n"
    ));
    0
}

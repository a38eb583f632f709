//! Opening the device a person names — `sim`, `sim-next`, either with `:phone`, or an ADB
//! serial — as a session, for every front-end that drives one.

use std::fmt;
use std::str::FromStr;

use clap::Args;
use tapscope_core::device::DeviceError;
use tapscope_core::device::adb::{self, AdbDevice};
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::device::sim::{Build, Sim};
use tapscope_core::prune::{OcrEngine, OcrLanguages};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::look::{LookBackend, LookChoice};
use tapscope_core::stability::{RealClock, VirtualClock};

use crate::mcp::{ServedClock, ServedDevice};

/// Which device to drive.
#[derive(Clone, Debug, Args)]
pub struct DeviceArgs {
    /// `sim` (the built-in simulated phone, instant), `sim:phone` (the sim with a stock
    /// phone's costs: a dump takes about 2 s), `sim-next` and `sim-next:phone` (the next
    /// release of the sim's app), or an ADB serial (see `tapscope devices`).
    #[arg(long, default_value = "sim")]
    pub device: DeviceChoice,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How to read the screen: `auto` (the fastest on-device helper that answers —
    /// uiautomator2's server, mobilecli's, droidrun's Portal — else stock `uiautomator
    /// dump`), or one of `stock`, `u2`, `portal`, `mobilecli` only. On `sim:phone`, `u2`
    /// reads through the sim's own uiautomator2 server.
    #[arg(long, default_value = "auto")]
    pub look: LookChoice,
    /// The languages text in a self-drawn screen's pixels is read in: `auto` (English, and
    /// each installed one whose script the dump's own texts use), or Tesseract's names
    /// joined by `+`, such as `eng+chi_sim` (`tesseract --list-langs` lists them).
    #[arg(long = "ocr-lang", value_name = "LANGS", default_value = "auto", value_parser = OcrLanguages::parse)]
    pub ocr_languages: OcrLanguages,
    /// What reads that text: `auto` (PP-OCR's models where they are installed, `pip
    /// install --no-deps rapidocr-onnxruntime==1.4.4`, and write the screen's languages;
    /// else Tesseract), `ppocr` or `tesseract`.
    #[arg(long = "ocr-engine", value_name = "ENGINE", default_value = "auto", value_parser = OcrEngine::parse)]
    pub ocr_engine: OcrEngine,
    /// Read what the phone logs during each action (kept in recordings, compared by
    /// replays, shown by `observe`): `auto` on the sim only, `on` (one `logcat -d` more an
    /// action on a phone), `off`.
    #[arg(long = "step-logs", value_name = "WHEN", default_value = "auto")]
    pub step_logs: StepLogs,
}

/// When a session reads the log around each action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StepLogs {
    /// On the sim, where it costs nothing; off on a phone.
    #[default]
    Auto,
    On,
    Off,
}

/// A device by name: a build of the sim under a profile, or a phone the ADB server knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// `sim` or `sim-next`, instant or with `:phone` costs.
    Sim { build: Build, profile: Profile },
    /// A serial as `adb devices` lists it (`emulator-5554`, `127.0.0.1:5555`).
    Adb(String),
}

impl DeviceChoice {
    /// The simulated phones, by the names they are chosen with: each build, instant then
    /// with a phone's costs.
    pub const SIMS: [DeviceChoice; 4] = [
        DeviceChoice::sim(Build::Current, Profile::Instant),
        DeviceChoice::sim(Build::Current, Profile::Phone),
        DeviceChoice::sim(Build::Next, Profile::Instant),
        DeviceChoice::sim(Build::Next, Profile::Phone),
    ];

    /// The simulated phone running `build` under `profile`.
    pub const fn sim(build: Build, profile: Profile) -> Self {
        DeviceChoice::Sim { build, profile }
    }
}

/// The names of the simulated phones, for messages: `sim, sim:phone, …`.
fn sim_names() -> String {
    let names: Vec<String> = DeviceChoice::SIMS.iter().map(ToString::to_string).collect();
    names.join(", ")
}

impl FromStr for DeviceChoice {
    type Err = String;

    /// A name that is `sim` or begins `sim-` before any `:` is a simulated phone's (an
    /// unknown one is an error listing them); anything else is taken for a serial.
    fn from_str(name: &str) -> Result<Self, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err(format!(
                "no device named: use {} or a serial from `tapscope devices`",
                sim_names()
            ));
        }
        let (base, profile) = match name.split_once(':') {
            Some((base, profile)) => (base, Some(profile)),
            None => (name, None),
        };
        if base != "sim" && !base.starts_with("sim-") {
            return Ok(DeviceChoice::Adb(name.to_owned()));
        }
        let build = base
            .parse()
            .map_err(|_| format!("unknown simulated phone {name:?}: use {}", sim_names()))?;
        let profile = profile
            .map_or(Ok(Profile::Instant), str::parse)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(DeviceChoice::Sim { build, profile })
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceChoice::Sim {
                build,
                profile: Profile::Instant,
            } => f.write_str(build.name()),
            DeviceChoice::Sim { build, profile } => {
                write!(f, "{}:{}", build.name(), profile.name())
            }
            DeviceChoice::Adb(serial) => f.write_str(serial),
        }
    }
}

/// What to do with the session once it is open (the device type differs per device).
pub trait WithSession {
    type Output;
    fn run<D: ServedDevice, C: ServedClock>(self, session: Session<D, C>) -> Self::Output;
}

impl DeviceArgs {
    /// The session's configuration: the defaults, reading pixels with the engine and in
    /// the languages asked for.
    fn session_config(&self) -> SessionConfig {
        let mut config = SessionConfig::default();
        config.rules.ocr_languages = self.ocr_languages.clone();
        config.rules.ocr_engine = self.ocr_engine;
        config.step_logs = match self.step_logs {
            StepLogs::On => true,
            StepLogs::Off => false,
            StepLogs::Auto => matches!(self.device, DeviceChoice::Sim { .. }),
        };
        config
    }

    /// Opens the device on the wall clock and hands its session to `then`.
    pub fn open<W: WithSession>(&self, then: W) -> Result<W::Output, DeviceError> {
        match &self.device {
            DeviceChoice::Sim { build, profile } => {
                self.open_sim(*build, *profile, RealClock::new(), then)
            }
            DeviceChoice::Adb(serial) => {
                let device =
                    AdbDevice::connect_looking(adb::server_address()?, Some(serial), self.look)?;
                let clock = device.clock();
                Ok(then.run(Session::new(device, clock, self.session_config())))
            }
        }
    }

    /// Opens the device for a replay: a sim on a virtual clock (settle timings simulated,
    /// as the sim's recordings have them, and a replay as fast as the sim answers), a phone
    /// on its own clock.
    pub fn open_replayable<W: WithSession>(&self, then: W) -> Result<W::Output, DeviceError> {
        match &self.device {
            DeviceChoice::Sim { build, profile } => {
                self.open_sim(*build, *profile, VirtualClock::default(), then)
            }
            DeviceChoice::Adb(_) => self.open(then),
        }
    }

    /// The simulated phone: read directly when instant; with a phone's costs, through
    /// stock dumps, or through its own uiautomator2 server with `--look u2`.
    fn open_sim<W: WithSession, C: ServedClock>(
        &self,
        build: Build,
        profile: Profile,
        clock: C,
        then: W,
    ) -> Result<W::Output, DeviceError> {
        let config = self.session_config();
        match (profile, self.look) {
            (Profile::Instant, LookChoice::Auto) => Ok(then.run(Session::new(
                Sim::with_build(clock.clone(), self.seed, build),
                clock,
                config,
            ))),
            (Profile::Instant, LookChoice::Only(look)) => Err(DeviceError::InvalidInput(format!(
                "--look {look}: the instant sim is read directly, in no time; look at \
                 `--device {build}:phone --look {look}` to read the sim with a phone's costs \
                 that way",
                build = build.name()
            ))),
            (profile, look) => {
                let look = match look {
                    LookChoice::Auto => LookBackend::Stock,
                    LookChoice::Only(look) => look,
                };
                let phone = SimPhone::with_build(clock.clone(), self.seed, profile, build)
                    .looking_through(look)?;
                Ok(then.run(Session::new(phone, clock, config)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_are_parsed_then_named_back() {
        let names = ["sim", "sim:phone", "sim-next", "sim-next:phone"];
        for (name, sim) in names.into_iter().zip(&DeviceChoice::SIMS) {
            assert_eq!(name.parse::<DeviceChoice>().as_ref(), Ok(sim));
            assert_eq!(sim.to_string(), name);
        }
        for name in ["emulator-5554", "127.0.0.1:5555", "simulator-1"] {
            let choice: DeviceChoice = name.parse().unwrap();
            assert_eq!(choice, DeviceChoice::Adb(name.to_owned()));
            assert_eq!(choice.to_string(), name);
        }
        assert_eq!(
            "sim-next:instant".parse(),
            Ok(DeviceChoice::sim(Build::Next, Profile::Instant))
        );
        let err = "sim:tablet".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("instant") && err.contains("phone"), "{err}");
        for wrong in ["sim-nxt", "sim-nxt:phone", ""] {
            let err = wrong.parse::<DeviceChoice>().unwrap_err();
            assert!(
                err.contains("sim, sim:phone, sim-next, sim-next:phone"),
                "{err}"
            );
        }
    }
}

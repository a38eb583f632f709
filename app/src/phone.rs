//! Opening the device a person names — `sim`, `sim:phone` or an ADB serial — as a
//! session, for every front-end that drives one.

use std::fmt;
use std::str::FromStr;

use clap::Args;
use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{RealClock, VirtualClock};

use crate::mcp::{ServedClock, ServedDevice};

/// Which device to drive.
#[derive(Clone, Debug, Args)]
pub struct DeviceArgs {
    /// `sim` (the built-in simulated phone, instant), `sim:phone` (the sim with a stock
    /// phone's costs: a dump takes about 2 s), or an ADB serial (see `tapscope devices`).
    #[arg(long, default_value = "sim")]
    pub device: DeviceChoice,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A device by name: the sim under a profile, or a phone the ADB server knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    /// `sim` (instant) or `sim:phone`.
    Sim(Profile),
    /// A serial as `adb devices` lists it (`emulator-5554`, `127.0.0.1:5555`).
    Adb(String),
}

impl DeviceChoice {
    /// The simulated phones, by the names they are chosen with.
    pub const SIMS: [DeviceChoice; 2] = [
        DeviceChoice::Sim(Profile::Instant),
        DeviceChoice::Sim(Profile::Phone),
    ];
}

impl FromStr for DeviceChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        let name = name.trim();
        match name.split_once(':') {
            _ if name == "sim" => Ok(DeviceChoice::Sim(Profile::Instant)),
            Some(("sim", profile)) => profile
                .parse()
                .map(DeviceChoice::Sim)
                .map_err(|e| format!("{name}: {e}")),
            _ if name.is_empty() => Err(
                "no device named: use sim, sim:phone or a serial from `tapscope devices`".into(),
            ),
            _ => Ok(DeviceChoice::Adb(name.to_owned())),
        }
    }
}

impl fmt::Display for DeviceChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceChoice::Sim(Profile::Instant) => f.write_str("sim"),
            DeviceChoice::Sim(profile) => write!(f, "sim:{}", profile.name()),
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
    /// Opens the device on the wall clock and hands its session to `then`.
    pub fn open<W: WithSession>(
        &self,
        then: W,
    ) -> Result<W::Output, tapscope_core::device::DeviceError> {
        let clock = RealClock::new();
        let config = SessionConfig::default();
        Ok(match &self.device {
            DeviceChoice::Sim(Profile::Instant) => {
                then.run(Session::new(Sim::new(clock, self.seed), clock, config))
            }
            DeviceChoice::Sim(profile) => then.run(Session::new(
                SimPhone::new(clock, self.seed, *profile),
                clock,
                config,
            )),
            DeviceChoice::Adb(serial) => {
                let device = AdbDevice::connect(Some(serial))?;
                let clock = device.clock();
                then.run(Session::new(device, clock, config))
            }
        })
    }
}

impl DeviceArgs {
    /// Opens the device for a replay: a sim on a virtual clock (settle timings simulated,
    /// as the sim's recordings have them, and a replay as fast as the sim answers), a phone
    /// on its own clock.
    pub fn open_replayable<W: WithSession>(
        &self,
        then: W,
    ) -> Result<W::Output, tapscope_core::device::DeviceError> {
        let clock = VirtualClock::default();
        let config = SessionConfig::default();
        Ok(match &self.device {
            DeviceChoice::Sim(Profile::Instant) => then.run(Session::new(
                Sim::new(clock.clone(), self.seed),
                clock,
                config,
            )),
            DeviceChoice::Sim(profile) => then.run(Session::new(
                SimPhone::new(clock.clone(), self.seed, *profile),
                clock,
                config,
            )),
            DeviceChoice::Adb(_) => return self.open(then),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_are_parsed_then_named_back() {
        for name in ["sim", "sim:phone", "emulator-5554", "127.0.0.1:5555"] {
            let choice: DeviceChoice = name.parse().unwrap();
            assert_eq!(choice.to_string(), name);
        }
        assert_eq!(
            "sim:instant".parse(),
            Ok(DeviceChoice::Sim(Profile::Instant))
        );
        let err = "sim:tablet".parse::<DeviceChoice>().unwrap_err();
        assert!(err.contains("instant") && err.contains("phone"), "{err}");
        assert!("".parse::<DeviceChoice>().is_err());
    }
}

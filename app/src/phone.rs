//! Opening the device a person names — `sim` or an ADB serial — as a session, for every
//! front-end that drives one.

use clap::Args;
use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::sim::Sim;
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::RealClock;

use crate::mcp::{ServedClock, ServedDevice};

/// Which device to drive.
#[derive(Clone, Debug, Args)]
pub struct DeviceArgs {
    /// `sim` (the built-in simulated phone) or an ADB serial (see `tapscope devices`).
    #[arg(long, default_value = "sim")]
    pub device: String,
    /// Seed of the simulated phone.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
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
        if self.device == "sim" {
            let clock = RealClock::new();
            let sim = Sim::new(clock, self.seed);
            Ok(then.run(Session::new(sim, clock, SessionConfig::default())))
        } else {
            let device = AdbDevice::connect(Some(&self.device))?;
            let clock = device.clock();
            Ok(then.run(Session::new(device, clock, SessionConfig::default())))
        }
    }
}

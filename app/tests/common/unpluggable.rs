//! The sim behind a cable a test pulls: unplugged, every call fails as a phone that went
//! away does.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tapscope_core::device::sim::Sim;
use tapscope_core::device::{Device, DeviceError, Display, Key};
use tapscope_core::geometry::Point;
use tapscope_core::stability::VirtualClock;

/// The sim, and whether its cable is in.
pub struct Unpluggable {
    pub sim: Sim<VirtualClock>,
    pub plugged: Arc<AtomicBool>,
}

impl std::fmt::Debug for Unpluggable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Unpluggable")
    }
}

impl Unpluggable {
    fn sim(&mut self) -> Result<&mut Sim<VirtualClock>, DeviceError> {
        if self.plugged.load(Ordering::SeqCst) {
            Ok(&mut self.sim)
        } else {
            Err(DeviceError::Disconnected("device 'sim' not found".into()))
        }
    }
}

impl Device for Unpluggable {
    fn name(&self) -> String {
        self.sim.name()
    }
    fn dump(&mut self) -> Result<String, DeviceError> {
        self.sim()?.dump()
    }
    fn screenshot_png(&mut self) -> Result<Vec<u8>, DeviceError> {
        self.sim()?.screenshot_png()
    }
    fn display(&mut self) -> Result<Display, DeviceError> {
        self.sim()?.display()
    }
    fn tap(&mut self, at: Point) -> Result<(), DeviceError> {
        self.sim()?.tap(at)
    }
    fn long_press(&mut self, at: Point, duration: Duration) -> Result<(), DeviceError> {
        self.sim()?.long_press(at, duration)
    }
    fn swipe(&mut self, from: Point, to: Point, duration: Duration) -> Result<(), DeviceError> {
        self.sim()?.swipe(from, to, duration)
    }
    fn input_text(&mut self, text: &str) -> Result<(), DeviceError> {
        self.sim()?.input_text(text)
    }
    fn key(&mut self, key: Key) -> Result<(), DeviceError> {
        self.sim()?.key(key)
    }
    fn last_event_at(&mut self) -> Option<Duration> {
        self.sim().ok()?.last_event_at()
    }
    fn packages(&mut self) -> Result<Vec<String>, DeviceError> {
        self.sim()?.packages()
    }
    fn launch(&mut self, package: &str) -> Result<(), DeviceError> {
        self.sim()?.launch(package)
    }
}

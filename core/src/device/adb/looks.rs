//! Which way an [`AdbDevice`] reads its screen: the helpers found answering when it was
//! opened (fastest first), then the stock dump. A helper that fails a look is set aside
//! and the next way looks instead, said once as a [`Fallback`]; when the stock dump then
//! finds UiAutomation held (a helper still runs), the helpers are asked again, so the
//! phone is never left with no way to look.

use std::time::{Duration, Instant};

use super::AdbDevice;
use crate::device::DeviceError;
use crate::device::helper_wire::{
    PortalApp, PortalEndpoint, PortalQuery, portal_command, portal_reply,
};
use crate::stability::look::{Fallback, HelperFault, LookBackend, LookChoice};

/// How long a helper is given to say it is there when a device is opened.
const PROBE_LIMIT: Duration = Duration::from_secs(2);
/// The longest one look through a helper may take (a large tree over USB is well under).
const HELPER_LOOK_LIMIT: Duration = Duration::from_secs(5);

/// The ways a device looks, in the order they are tried.
#[derive(Debug, Clone)]
pub(super) struct Looks {
    choice: LookChoice,
    /// Helpers that answered, fastest first; the stock dump comes after them (unless a
    /// single helper was asked for).
    helpers: Vec<LookBackend>,
    /// A helper set aside since the last report, and the way used instead.
    fallback: Option<Fallback>,
    /// Which Portal app `pm` listed, when one is among the helpers.
    portal: Option<PortalApp>,
}

impl Looks {
    /// Stock dumps only, nothing asked of the phone.
    pub(super) fn stock() -> Self {
        Self {
            choice: LookChoice::Only(LookBackend::Stock),
            helpers: Vec::new(),
            fallback: None,
            portal: None,
        }
    }

    /// The way looks go now.
    pub(super) fn current(&self) -> LookBackend {
        match (self.helpers.first(), self.choice) {
            (Some(helper), _) => *helper,
            (None, LookChoice::Only(only)) => only,
            (None, LookChoice::Auto) => LookBackend::Stock,
        }
    }

    pub(super) fn take_fallback(&mut self) -> Option<Fallback> {
        self.fallback.take()
    }
}

impl AdbDevice {
    /// Finds the ways `choice` allows that answer on this phone; a helper asked for by
    /// name that does not answer is an error saying how to start it.
    pub(super) fn find_looks(&mut self, choice: LookChoice) -> Result<(), DeviceError> {
        let wanted: Vec<LookBackend> = match choice {
            LookChoice::Auto => LookBackend::HELPERS.to_vec(),
            LookChoice::Only(LookBackend::Stock | LookBackend::Sim) => Vec::new(),
            LookChoice::Only(helper) => vec![helper],
        };
        let mut helpers = Vec::new();
        let mut portal = None;
        for helper in wanted {
            // Asking Portal starts a JVM on the phone: only when nothing faster answers.
            if helper == LookBackend::Portal && !helpers.is_empty() {
                continue;
            }
            let deadline = Instant::now() + PROBE_LIMIT;
            let answered = match helper {
                // `pm` (a native `cmd`) lists it; whether its service is on shows at the
                // first look (an error, then the next way), not in a `content` call of its
                // own, which would start a JVM for nothing.
                LookBackend::Portal => self.installed_portal(deadline).map(|app| {
                    portal = Some(app);
                }),
                _ => self.ping(helper, deadline),
            };
            match answered {
                Ok(()) => helpers.push(helper),
                Err(fault) if choice == LookChoice::Only(helper) => {
                    return Err(self.not_answering(helper, fault));
                }
                Err(_) => {}
            }
        }
        self.looks = Looks {
            choice,
            helpers,
            fallback: None,
            portal,
        };
        Ok(())
    }

    /// One look by the current way, falling back as the module says.
    pub(super) fn look_within(&mut self, limit: Duration) -> Result<String, DeviceError> {
        let deadline = Instant::now() + limit;
        let mut asked_again = false;
        loop {
            let way = self.looks.current();
            if way == LookBackend::Stock {
                match self.stock_dump_within(deadline.saturating_duration_since(Instant::now())) {
                    Err(busy) if is_busy(&busy) && !asked_again => {
                        asked_again = true;
                        let choice = self.looks.choice;
                        let fallback = self.looks.fallback.take();
                        self.find_looks(choice)?;
                        self.looks.fallback = fallback;
                        if self.looks.current() == LookBackend::Stock {
                            return Err(self.stuck(busy));
                        }
                        continue;
                    }
                    Err(busy) if is_busy(&busy) => return Err(self.stuck(busy)),
                    other => return other,
                }
            }
            // Half of what is left at most, so a hung helper leaves time for the next way.
            let left = deadline.saturating_duration_since(Instant::now());
            let helper_deadline = Instant::now() + HELPER_LOOK_LIMIT.min(left / 2);
            match self.helper_dump(way, helper_deadline) {
                Ok(xml) => return Ok(xml),
                Err(fault) => {
                    if let LookChoice::Only(_) = self.looks.choice {
                        return Err(self.not_answering(way, fault));
                    }
                    self.looks.helpers.retain(|h| *h != way);
                    let to = self.looks.current();
                    // The first failure since the last report is the one said.
                    self.looks.fallback.get_or_insert(Fallback {
                        from: way,
                        why: fault,
                        to,
                    });
                    if Instant::now() >= deadline {
                        return Err(self.not_answering(way, fault));
                    }
                }
            }
        }
    }

    /// A stock dump refused because a helper that failed still holds UiAutomation: said
    /// as the helper's failure, with what to do.
    fn stuck(&mut self, busy: DeviceError) -> DeviceError {
        match self.looks.fallback {
            Some(Fallback { from, why, .. }) if from.holds_ui_automation() => {
                self.looks.fallback = None;
                let restart = match from {
                    LookBackend::U2 => format!(
                        "restart it (`tapscope helper stop u2`, then `tapscope helper start u2 \
                         --device {}`) or stop it",
                        self.serial
                    ),
                    _ => "restart it or stop it".to_owned(),
                };
                DeviceError::Helper {
                    serial: self.serial.clone(),
                    helper: from,
                    fault: why,
                    advice: format!(
                        "it still holds UiAutomation, so stock dumps fail too: {restart}"
                    ),
                }
            }
            _ => busy,
        }
    }

    fn ping(&mut self, helper: LookBackend, deadline: Instant) -> Result<(), HelperFault> {
        match helper {
            LookBackend::U2 => super::u2::ping(self.address, &self.serial, deadline),
            // Its dump is the only call known to every version, and costs milliseconds.
            LookBackend::Mobilecli => {
                super::mobilecli::dump(self.address, &self.serial, deadline).map(drop)
            }
            LookBackend::Portal => self.portal(PortalEndpoint::Ping, deadline).map(drop),
            LookBackend::Stock | LookBackend::Sim => Ok(()),
        }
    }

    fn helper_dump(
        &mut self,
        helper: LookBackend,
        deadline: Instant,
    ) -> Result<String, HelperFault> {
        match helper {
            LookBackend::U2 => super::u2::dump(self.address, &self.serial, deadline),
            LookBackend::Mobilecli => super::mobilecli::dump(self.address, &self.serial, deadline),
            LookBackend::Portal => self.portal(PortalEndpoint::StateFull, deadline),
            LookBackend::Stock | LookBackend::Sim => Err(HelperFault::NotTheHelper),
        }
    }

    /// The Portal app `pm` lists, the current one first.
    fn installed_portal(&self, deadline: Instant) -> Result<PortalApp, HelperFault> {
        let listed = super::server::run(
            self.address,
            &self.serial,
            "pm list packages portal",
            deadline,
        );
        let Ok(super::server::Ran::Done(output)) = listed else {
            return Err(HelperFault::Absent);
        };
        let listed = String::from_utf8_lossy(&output.stdout);
        PortalApp::ALL
            .into_iter()
            .find(|app| {
                listed
                    .lines()
                    .any(|l| l.trim() == format!("package:{}", app.authority()))
            })
            .ok_or(HelperFault::Absent)
    }

    /// Asks the content provider of the Portal app `pm` listed.
    fn portal(
        &mut self,
        endpoint: PortalEndpoint,
        deadline: Instant,
    ) -> Result<String, HelperFault> {
        let app = self.looks.portal.ok_or(HelperFault::Absent)?;
        let command = portal_command(PortalQuery { app, endpoint });
        let output = match super::server::run(self.address, &self.serial, &command, deadline) {
            Ok(super::server::Ran::Done(output)) => output,
            Ok(super::server::Ran::TimedOut) => return Err(HelperFault::Hung),
            Err(_) => return Err(HelperFault::Died),
        };
        let mut printed = output.stdout;
        printed.extend_from_slice(&output.stderr);
        portal_reply(&String::from_utf8_lossy(&printed))
    }

    /// A helper asked for by name that failed, and what to do.
    fn not_answering(&self, helper: LookBackend, fault: HelperFault) -> DeviceError {
        DeviceError::Helper {
            serial: self.serial.clone(),
            helper,
            fault,
            advice: match helper {
                LookBackend::U2 => format!(
                    "start it with `tapscope helper start u2 --device {}` (or `python3 -c \
                     \"import uiautomator2; uiautomator2.connect()\"`), or look another way \
                     with --look auto",
                    self.serial
                ),
                LookBackend::Portal => "install droidrun's Portal app, enable its accessibility \
                                        service, or look another way with --look auto"
                    .to_owned(),
                LookBackend::Mobilecli => "start mobilecli's dump server on the phone, or look \
                                           another way with --look auto"
                    .to_owned(),
                LookBackend::Stock | LookBackend::Sim => "look with --look auto".to_owned(),
            },
        }
    }
}

/// A stock dump that failed because another client holds UiAutomation.
fn is_busy(error: &DeviceError) -> bool {
    matches!(error, DeviceError::Command { output, .. } if output.contains("UiAutomation"))
}

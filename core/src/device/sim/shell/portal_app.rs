//! droidrun's Portal as an app installed on the sim: its APK and whether its accessibility
//! service is on, which `pm` lists and `content` ([`super::content`]) answers through.

use super::SimShell;
use crate::stability::Clock;

/// Where the installed APK lies; its bytes say whether the accessibility service is on.
pub(super) const APK: &str = "/data/app/com.mobilerun.portal-1/base.apk";
const SERVICE_ON: &[u8] = b"accessibility=on";
const SERVICE_OFF: &[u8] = b"accessibility=off";

impl<C: Clock + Clone + Send> SimShell<C> {
    /// Installs droidrun's Portal with its accessibility service on, as `mobilerun setup`
    /// leaves a phone.
    pub fn install_portal(&self) {
        self.write_own_file(APK, SERVICE_ON);
    }

    /// Turns Portal's accessibility service on or off; nothing before it is installed.
    pub fn set_portal_service(&self, on: bool) {
        if self.portal_service().is_some() {
            let state = if on { SERVICE_ON } else { SERVICE_OFF };
            self.write_own_file(APK, state);
        }
    }

    /// Uninstalls Portal (`pm uninstall`): its provider goes with it.
    pub(super) fn uninstall_portal(&self) {
        self.remove_file(APK);
    }

    /// Whether Portal is installed (`pm` lists it).
    pub(super) fn portal_installed(&self) -> bool {
        self.portal_service().is_some()
    }

    /// Whether Portal's service is on; `None` when Portal is not installed.
    pub(super) fn portal_service(&self) -> Option<bool> {
        self.with_file(APK, |bytes| bytes == SERVICE_ON)
    }
}

//! The banner this device sends in its CNXN: who it is, and the features it implements.

use super::Identity;

/// Only what this device implements: shell protocol v2 (exit codes, stderr apart), the
/// stat and list v2 requests of the sync protocol, and `cmd` (the host may run `cmd
/// package install -S SIZE` with the APK on stdin rather than push it first).
pub(super) const FEATURES: [&str; 4] = ["shell_v2", "cmd", "stat_v2", "ls_v2"];

/// Longest value kept in the banner: the whole banner must fit the 4 KiB of the oldest
/// hosts' first message.
const MAX_VALUE_CHARS: usize = 256;

/// `device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`, as adbd
/// builds it (no trailing NUL).
pub(super) fn device_banner(identity: &Identity) -> String {
    format!(
        "device::ro.product.name={};ro.product.model={};ro.product.device={};features={}",
        banner_value(&identity.product),
        banner_value(&identity.model),
        banner_value(&identity.device),
        FEATURES.join(","),
    )
}

/// The host splits the banner on `:`, `;`, `=` and `,`: those (and control characters)
/// in a value would cut it short or forge a field, so they become `_`.
fn banner_value(value: &str) -> String {
    value
        .chars()
        .take(MAX_VALUE_CHARS)
        .map(|c| {
            if matches!(c, ':' | ';' | '=' | ',') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(product: &str, model: &str, device: &str) -> Identity {
        Identity {
            product: product.into(),
            model: model.into(),
            device: device.into(),
        }
    }

    #[test]
    fn the_banner_is_what_adbd_sends() {
        assert_eq!(
            device_banner(&identity("sdk_gphone64", "Pixel 7", "emu64x")),
            "device::ro.product.name=sdk_gphone64;ro.product.model=Pixel 7;\
             ro.product.device=emu64x;features=shell_v2,cmd,stat_v2,ls_v2"
        );
    }

    #[test]
    fn separators_in_values_cannot_forge_fields() {
        let banner = device_banner(&identity("a;features=cmd", "b:c", "d=e\n"));
        assert_eq!(
            banner,
            "device::ro.product.name=a_features_cmd;ro.product.model=b_c;\
             ro.product.device=d_e_;features=shell_v2,cmd,stat_v2,ls_v2"
        );
    }

    #[test]
    fn a_long_identity_still_fits_the_first_message() {
        let long = "x".repeat(10_000);
        let banner = device_banner(&identity(&long, &long, &long));
        assert!(banner.len() < 4096, "{}", banner.len());
    }
}

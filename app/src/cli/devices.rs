//! `tapscope devices`: the built-in `sim` and `sim-next` (instant, and `:phone` with a
//! phone's costs) and the phones the ADB server knows, as `adb devices -l` lists them,
//! with what to do about unusable ones.

use std::net::SocketAddrV4;
use std::time::Instant;

use clap::Args;
use tapscope_core::device::Device;
use tapscope_core::device::DeviceError;
use tapscope_core::device::adb;
use tapscope_core::device::adb::AdbDevice;
use tapscope_core::device::adb::text::state_word;
use tapscope_core::device::adb_output::DeviceEntry;
use tapscope_core::device::adb_output::DeviceState;
use tapscope_core::stability::look::LookChoice;

use super::Outcome;
use super::output::Stdout;
use crate::phone::DeviceChoice;
use tapscope_core::device::sim::Build;
use tapscope_core::device::sim::costs::Profile;

#[derive(Debug, Args)]
pub struct DevicesArgs {}

/// Lists `sim` first, so it shows even when ADB fails; no server or no phone is then an
/// error (exit code 2) that says what to do.
pub fn run(_args: &DevicesArgs) -> anyhow::Result<Outcome> {
    let address = adb::server_address()?;
    let listed = adb::list_devices(address);
    let phones = listed.as_deref().unwrap_or_default();
    let looks = looks_of(address, phones);
    let mut stdout = Stdout::lock();
    write!(stdout, "{}", table(phones, &looks))?;
    stdout.flush()?;
    match listed {
        Ok(phones) if phones.is_empty() => Err(DeviceError::NoDevice {
            wanted: "is connected to the ADB server".to_owned(),
        }
        .into()),
        Ok(_) => Ok(Outcome::Ok),
        Err(e) => Err(e.into()),
    }
}

/// How each usable phone reads its screen and what one look cost, measured by one look
/// (all phones at once); nothing for phones that cannot be used.
fn looks_of(address: SocketAddrV4, phones: &[DeviceEntry]) -> Vec<String> {
    std::thread::scope(|scope| {
        let looking: Vec<_> = phones
            .iter()
            .map(|phone| {
                scope.spawn(move || {
                    (phone.state == DeviceState::Device).then(|| one_look(address, &phone.serial))
                })
            })
            .collect();
        looking
            .into_iter()
            .map(|look| look.join().ok().flatten().unwrap_or_default())
            .collect()
    })
}

/// `u2, 84 ms a look`, or why no look could be had.
fn one_look(address: SocketAddrV4, serial: &str) -> String {
    let looked = AdbDevice::connect_looking(address, Some(serial), LookChoice::Auto).and_then(
        |mut device| {
            let started = Instant::now();
            device.dump()?;
            Ok((device.look_backend(), started.elapsed()))
        },
    );
    match looked {
        Ok((backend, cost)) => format!("looks: {backend}, {} ms a look", cost.as_millis()),
        Err(e) => format!("no look: {e}"),
    }
}

/// What sets a simulated phone apart from plain `sim`.
fn sim_note(sim: &DeviceChoice) -> String {
    let DeviceChoice::Sim { build, profile } = sim else {
        return String::new();
    };
    let build = match build {
        Build::Current => None,
        Build::Next => Some("the next release of its app (renamed, moved, slower, no search)"),
    };
    let profile = (*profile == Profile::Phone).then_some(
        "with a stock phone's costs (a stock dump takes about 2 s; --look u2 reads through \
         its uiautomator2 server)",
    );
    [build, profile]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Serial, state, model, then how it looks and advice, aligned in columns, `sim` first.
fn table(phones: &[DeviceEntry], looks: &[String]) -> String {
    let mut rows: Vec<[String; 4]> = DeviceChoice::SIMS
        .iter()
        .map(|sim| {
            [
                sim.to_string(),
                "device".to_owned(),
                "tapscope simulated phone".to_owned(),
                sim_note(sim),
            ]
        })
        .collect();
    rows.extend(phones.iter().zip(looks).map(|(phone, look)| {
        let advice = phone.state.advice().unwrap_or_default();
        [
            phone.serial.clone(),
            state_word(&phone.state),
            phone.model.clone().unwrap_or_else(|| "-".to_owned()),
            [look.as_str(), advice]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; "),
        ]
    }));
    let width = |column: usize| rows.iter().map(|r| r[column].len()).max().unwrap_or(0);
    let (serial, state, model) = (width(0), width(1), width(2));
    rows.iter()
        .map(|[s, st, m, advice]| {
            let line = format!("{s:serial$}  {st:state$}  {m:model$}  {advice}");
            format!("{}\n", line.trim_end())
        })
        .collect()
}

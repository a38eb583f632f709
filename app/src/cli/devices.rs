//! `tapscope devices`: the built-in `sim` and `sim-next` (instant, and `:phone` with a
//! phone's costs) and the phones the ADB server knows, as `adb devices -l` lists them,
//! with what to do about unusable ones.

use clap::Args;
use tapscope_core::device::DeviceError;
use tapscope_core::device::adb;
use tapscope_core::device::adb::shell::state_word;
use tapscope_core::device::adb_output::DeviceEntry;

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
    let mut stdout = Stdout::lock();
    write!(stdout, "{}", table(phones))?;
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

/// What sets a simulated phone apart from plain `sim`.
fn sim_note(sim: &DeviceChoice) -> String {
    let DeviceChoice::Sim { build, profile } = sim else {
        return String::new();
    };
    let build = match build {
        Build::Current => None,
        Build::Next => Some("the next release of its app (renamed, moved, slower, no search)"),
    };
    let profile = (*profile == Profile::Phone)
        .then_some("with a stock phone's costs (a dump takes about 2 s)");
    [build, profile]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Serial, state, model and advice, aligned in columns, `sim` first.
fn table(phones: &[DeviceEntry]) -> String {
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
    rows.extend(phones.iter().map(|phone| {
        [
            phone.serial.clone(),
            state_word(&phone.state),
            phone.model.clone().unwrap_or_else(|| "-".to_owned()),
            phone.state.advice().unwrap_or_default().to_owned(),
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

//! `tapscope devices`: the built-in `sim` (instant, and `sim:phone` with a phone's
//! costs) and the phones the ADB server knows, as
//! `adb devices -l` lists them, with what to do about unusable ones.

use clap::Args;
use tapscope_core::device::DeviceError;
use tapscope_core::device::adb;
use tapscope_core::device::adb::shell::state_word;
use tapscope_core::device::adb_output::DeviceEntry;

use super::Outcome;
use super::output::Stdout;
use crate::phone::DeviceChoice;
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

/// Serial, state, model and advice, aligned in columns, `sim` first.
fn table(phones: &[DeviceEntry]) -> String {
    let mut rows = vec![
        [
            DeviceChoice::Sim(Profile::Instant).to_string(),
            "device".to_owned(),
            "tapscope simulated phone".to_owned(),
            String::new(),
        ],
        [
            DeviceChoice::Sim(Profile::Phone).to_string(),
            "device".to_owned(),
            "tapscope simulated phone".to_owned(),
            "with a stock phone's costs (a dump takes about 2 s)".to_owned(),
        ],
    ];
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

//! `tapscope proxy`: an adb server in front of the real one, recording what every adb
//! client sends its phones (looks, screenshots, actions on raw coordinates, transfers,
//! commands) and saying each stale action as it happens. Loopback only.

use std::net::{SocketAddr, SocketAddrV4};
use std::path::PathBuf;

use clap::Args;
use tapscope_core::device::adb::list_devices;
use tapscope_core::recording::Check;

use super::Outcome;
use super::output::note;
use crate::proxy::{Config, Proxy};

#[derive(Debug, Args)]
pub struct ProxyArgs {
    /// Where clients reach the proxy: `adb -P PORT …`, `ANDROID_ADB_SERVER_PORT=PORT`,
    /// adbutils' `AdbClient(port=PORT)`. Loopback only.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:5038")]
    listen: SocketAddr,
    /// The real adb server every request goes on to.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:5037")]
    upstream: SocketAddrV4,
    /// Record what passes into this new folder (a tapscope recording: `tapscope open DIR`,
    /// `tapscope forensics DIR`).
    #[arg(long, value_name = "DIR")]
    record: PathBuf,
    /// How to tell where an action on a coordinate landed: `none` (from the looks clients
    /// take), `pixels` (a screenshot before each action, compared with one of the screen
    /// the agent read) or `tree` (a dump before each action: the element under the point).
    /// A look costs the action its time: on a stock phone a dump about 2 s, a screenshot
    /// about 0.8 s.
    #[arg(long, default_value = "none", value_parser = parse_check)]
    check: Check,
    /// Keep in the recording what each phone logged since its previous action, read once
    /// each action has gone on: one `logcat -d` more an action, on a connection of the
    /// proxy's own.
    #[arg(long)]
    logs: bool,
}

fn parse_check(name: &str) -> Result<Check, String> {
    name.parse()
}

pub fn run(args: &ProxyArgs) -> anyhow::Result<Outcome> {
    if SocketAddr::V4(args.upstream) == args.listen {
        anyhow::bail!(
            "--listen and --upstream are both {}: the proxy cannot stand in front of itself; \
             give the real adb server's address to --upstream",
            args.listen
        );
    }
    crate::proxy::refuse_non_loopback(args.listen.ip())?;
    // Said now, rather than to the first client: no adb server, no proxy.
    list_devices(args.upstream)?;
    let config = Config {
        listen: args.listen,
        upstream: args.upstream,
        record: Some(args.record.clone()),
        check: args.check,
        logs: args.logs,
    };
    let said = Box::new(|sentence: &str| note!("tapscope proxy: {sentence}"));
    let proxy = Proxy::start(config, Some(said))?;
    let at = proxy.local_addr();
    note!(
        "tapscope proxy: an adb server at {at} in front of {}, recording to {} (check: {}); \
         point clients at it with `adb -P {port} …` or ANDROID_ADB_SERVER_PORT={port}; \
         Ctrl-C stops",
        args.upstream,
        args.record.display(),
        args.check.name(),
        port = at.port(),
    );
    if args.check == Check::None {
        note!(
            "tapscope proxy: with --check none nothing is looked at when an action lands: \
             --check tree or pixels tells a stale tap from a good one"
        );
    }
    super::until_interrupted()?;
    proxy.stop();
    note!(
        "tapscope proxy: stopped; the recording is in {} (`tapscope forensics {0}` lists its \
         stale actions)",
        args.record.display()
    );
    Ok(Outcome::Ok)
}

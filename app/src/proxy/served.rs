//! What passed on one device service through the proxy, once it ended (or, on
//! uiautomator2's `tcp:9008`, once each call was answered): the connection's facts, the
//! proxy's own looks, and what the watchers read. The recorder turns it into steps.

use std::time::Duration;

use tapscope_core::device::adb_command::Input;
use tapscope_core::device::u2_rpc;

use super::check::Checked;
use super::rpc::Answered;
use super::splice::Spliced;
use super::watch::{Passed, Screen, Shown};

/// How the adb server answered a device service's request.
#[derive(Debug)]
pub enum Opened {
    Yes,
    Refused(String),
}

/// One device service that ended, with everything that passed on it.
#[derive(Debug)]
pub struct Served {
    pub connection: u64,
    pub serial: String,
    pub service: String,
    /// What it ran, in words: a shell's command line, a JSON-RPC call; empty for a sync
    /// session or an interactive shell.
    pub command: String,
    /// When its request came in, and when its stream ended, on the proxy's clock.
    pub started: Duration,
    pub ended: Duration,
    pub opened: Opened,
    pub inputs: Vec<Input>,
    /// The proxy's look just before the action went on.
    pub checked: Option<Checked>,
    /// The proxy's screenshot just after an agent's dump (`--check pixels`).
    pub after_look: Option<Checked>,
    pub passed: Passed,
    pub spliced: Spliced,
}

impl Served {
    /// One uiautomator2 JSON-RPC exchange on `tcp:9008`, as a service of its own.
    pub fn of_rpc(exchange: Answered, connection: u64, serial: &str) -> Served {
        let (command, inputs) = match exchange.call {
            u2_rpc::Call::Dump => ("uiautomator2 dumpWindowHierarchy".to_owned(), Vec::new()),
            u2_rpc::Call::Input(input) => {
                (format!("uiautomator2 {}", input.describe()), vec![input])
            }
            u2_rpc::Call::Other(method) => (format!("uiautomator2 {method}"), Vec::new()),
        };
        let screens = exchange
            .dump
            .map(|xml| Shown {
                screen: Screen::Dump(xml),
                pulled: None,
            })
            .into_iter()
            .collect();
        Served {
            connection,
            serial: serial.to_owned(),
            service: "tcp:9008".to_owned(),
            command,
            started: exchange.asked,
            ended: exchange.answered,
            opened: Opened::Yes,
            inputs,
            checked: exchange.checked,
            after_look: None,
            passed: Passed {
                screens,
                output_bytes: exchange.received,
                ..Passed::default()
            },
            spliced: Spliced {
                sent: exchange.sent,
                received: exchange.received,
                broken: false,
            },
        }
    }
}

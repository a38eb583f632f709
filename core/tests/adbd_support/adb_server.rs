//! The fake phone connected to a private adb server (the real `adb`, on a port of its
//! own), for `adbd_real_adb.rs`.

use std::net::SocketAddrV4;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::mpsc::Receiver;

use tapscope_core::device::adbd::{Limits, Server};
use tapscope_tests::adb::PrivateAdb;

use super::Seen;

/// A private adb server with the fake phone connected as `serial`; both end on drop,
/// even when the test fails.
pub struct Adb {
    adb: PrivateAdb,
    pub serial: String,
    pub seen: Receiver<Seen>,
    _phone: Server,
}

impl Adb {
    pub fn start() -> Adb {
        let adb = PrivateAdb::start();
        let served = super::start(Limits::default());
        let serial = served.server.local_addr().to_string();
        adb.connect(&serial);
        Adb {
            adb,
            serial,
            seen: served.seen,
            _phone: served.server,
        }
    }

    pub fn home(&self) -> &Path {
        self.adb.home()
    }

    pub fn command(&self, args: &[&str]) -> Command {
        self.adb.command(args)
    }

    /// The private server's environment, for adb or for what runs it.
    pub fn environment<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        self.adb.environment(command)
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.adb.run(args)
    }

    /// `adb -s SERIAL ARGS…`.
    pub fn on_phone(&self, args: &[&str]) -> Output {
        self.adb.on(&self.serial, args)
    }

    pub fn server_address(&self) -> SocketAddrV4 {
        self.adb.server_address()
    }
}

//! `app_process` as the sim runs it: uiautomator2's server (`CLASSPATH=/data/local/tmp/u2.jar
//! app_process / com.wetest.uia2.Main -p 9008`), which holds UiAutomation and listens on
//! its port until its stream closes or `pkill -f` ends it; and the sockets a host opens to
//! that port (`tcp:9008`), each a [`Connection`] to the server.
//!
//! As on Android 9 and later, a class that cannot be loaded (no such class, or its jar
//! not on the device) aborts the runtime: the shell prints `Aborted`, exit 134, and only
//! logcat says why. Either way the runtime's start is logged, as `AndroidRuntime` logs it.

use std::time::Duration;

use super::{Io, JobGuard, SimShell};
use crate::device::adbd::{DeviceSocket, SocketName};
use crate::device::sim::log::{Buffer, Priority};
use crate::device::sim::phone::UiClient;
use crate::device::sim::{Sim, Writer};
use crate::stability::Clock;

/// The connection a host's socket to the server speaks with: uiautomator2's HTTP/JSON-RPC.
type Connection = crate::device::sim::u2::U2Connection;

/// uiautomator2's server, the one class the sim's `app_process` can load.
const U2_MAIN: &str = "com.wetest.uia2.Main";
const DEFAULT_PORT: u16 = 9008;
/// How often the running server looks whether its stream closed or it was killed.
const WATCH: Duration = Duration::from_millis(100);
/// 128 + SIGABRT: the runtime aborted.
const ABORTED: u8 = 134;
/// 128 + SIGHUP: the adb stream it ran in was closed.
const HUNG_UP: u8 = 129;
/// 128 + SIGTERM: `pkill`.
const TERMINATED: u8 = 143;
/// What the server prints when another UiAutomation client holds the connection.
const ALREADY_REGISTERED: &str = "java.lang.IllegalStateException: UiAutomationService \
    android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5already \
    registered!\n";

/// `app_process [java-options] cmd-dir start-class-name [options]`, its class found on
/// the `CLASSPATH` of `env`.
pub(super) fn app_process<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    env: &[(String, String)],
    io: &mut Io<'_>,
) -> u8 {
    let mut words = args.iter().copied().skip_while(|a| a.starts_with('-'));
    let (Some(_dir), Some(class)) = (words.next(), words.next()) else {
        io.complain(
            "Error: no class name or --zygote supplied.\n\
             Usage: app_process [java-options] cmd-dir start-class-name [options]\n",
        );
        return ABORTED;
    };
    let options: Vec<&str> = words.collect();
    let classpath = env
        .iter()
        .rev()
        .find(|(name, _)| name == "CLASSPATH")
        .map_or("", |(_, value)| value.as_str());
    let loaded = class == U2_MAIN
        && classpath
            .split(':')
            .any(|jar| !jar.is_empty() && shell.with_file(jar, |_| ()).is_some());
    // The runtime starts either way.
    shell.phone.java(|sim| log_runtime(sim, class, loaded));
    if !loaded {
        io.complain("Aborted\n");
        return ABORTED;
    }
    let port = match port(&options) {
        Ok(port) => port,
        Err(text) => {
            io.complain(&format!("Invalid port: {text}\n"));
            return 1;
        }
    };
    u2_server(shell, port, format!("app_process {}", args.join(" ")), io)
}

/// What a new `app_process` writes as its runtime starts and calls `class`'s main, or
/// aborts when it could not load it.
fn log_runtime<C: Clock + Clone + Send>(sim: &mut Sim<C>, class: &str, loaded: bool) {
    let me = Writer::main(sim.spawn_pid());
    let runtime = |sim: &mut Sim<C>, priority, message: &str| {
        sim.write_log(Buffer::Main, me, priority, "AndroidRuntime", message);
    };
    let start = ">>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<";
    runtime(sim, Priority::Debug, start);
    runtime(sim, Priority::Info, "Using default boot image");
    runtime(sim, Priority::Info, "Leaving lock profiling enabled");
    if loaded {
        runtime(sim, Priority::Debug, &format!("Calling main entry {class}"));
        return;
    }
    let why = format!("ERROR: could not find class '{class}'");
    sim.write_log(Buffer::Main, me, Priority::Error, "appproc", &why);
    let pid = me.pid;
    let signal = format!(
        "Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid {pid} (main), pid {pid} (main)"
    );
    sim.write_log(Buffer::Crash, me, Priority::Fatal, "libc", &signal);
}

/// The server's `-p PORT` (or `--port`), 9008 without one.
fn port<'a>(options: &[&'a str]) -> Result<u16, &'a str> {
    let Some(at) = options.iter().position(|o| *o == "-p" || *o == "--port") else {
        return Ok(DEFAULT_PORT);
    };
    let text = options.get(at + 1).copied().unwrap_or("");
    text.parse().ok().filter(|port| *port != 0).ok_or(text)
}

/// The server running: UiAutomation held and the port listened on until its stream
/// closes or it is killed, then both given back.
fn u2_server<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    port: u16,
    cmdline: String,
    io: &mut Io<'_>,
) -> u8 {
    let job = shell.start_job(cmdline);
    io.say("[server] INFO: [UiAutomator2Server] Starting Server\n");
    let Ok(ui_automation) = shell.phone.claim(UiClient::Helper) else {
        io.complain(ALREADY_REGISTERED);
        return 1;
    };
    let Some(listening) = shell.listen(port, &job) else {
        io.complain(&format!(
            "java.net.BindException: bind failed: EADDRINUSE (Address already in use): \
             port {port}\n"
        ));
        return 1;
    };
    io.say(&format!(
        "[server] INFO: http server listening on *:{port}\n"
    ));
    let mut clock = shell.phone.clock();
    while !job.killed() && !io.closed() {
        clock.sleep(WATCH);
    }
    drop(listening);
    drop(ui_automation);
    if job.killed() { TERMINATED } else { HUNG_UP }
}

/// A port a server listens on, given up when dropped.
struct Listening<'a, C> {
    shell: &'a SimShell<C>,
    port: u16,
}

impl<C> Drop for Listening<'_, C> {
    fn drop(&mut self) {
        self.shell.listening.lock().remove(&self.port);
    }
}

impl<C> SimShell<C> {
    /// Registers `job` as listening on `port`; `None` when something listens there already.
    fn listen(&self, port: u16, job: &JobGuard<'_, C>) -> Option<Listening<'_, C>> {
        let mut ports = self.listening.lock();
        if ports.contains_key(&port) {
            return None;
        }
        ports.insert(port, job.id);
        Some(Listening { shell: self, port })
    }

    /// The job listening on `port`, if any.
    fn listener(&self, port: u16) -> Option<u64> {
        self.listening.lock().get(&port).copied()
    }
}

/// A host's connection to `tcp:PORT`: a socket while a server listens there, else `None`
/// (the OPEN refused, as a phone refuses a port nothing listens on).
pub(super) fn open_socket<'a, C: Clock + Clone + Send + Sync>(
    shell: &'a SimShell<C>,
    destination: &SocketName,
) -> Option<Box<dyn DeviceSocket + 'a>> {
    let SocketName::Tcp(port) = *destination else {
        return None;
    };
    let server = shell.listener(port)?;
    Some(Box::new(ServerSocket {
        shell,
        port,
        server,
        connection: Connection::new(),
    }))
}

/// One connection to a running server's port.
struct ServerSocket<'a, C> {
    shell: &'a SimShell<C>,
    port: u16,
    /// The job that listened when the host connected.
    server: u64,
    connection: Connection,
}

impl<C: Clock + Clone + Send + Sync> DeviceSocket for ServerSocket<'_, C> {
    fn received(&mut self, bytes: &[u8]) -> (Vec<u8>, bool) {
        // The server ended (killed, its stream closed): the connection is reset.
        if self.shell.listener(self.port) != Some(self.server) {
            return (Vec::new(), true);
        }
        self.connection.received(&self.shell.phone, bytes)
    }
}

//! One client connection through the proxy. Its first request goes to the real adb server
//! as it came and the answer comes back as it came; a transport switch is followed by the
//! device service the client opens next, which is spliced byte for byte and watched as it
//! passes. Anything else (a host service: `host:version`, `host:track-devices`,
//! `host-serial:…:forward:…`) is spliced unwatched. A bad request, a client that vanishes
//! or an upstream that dies ends this connection only.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

use tapscope_core::device::adb::list_devices;
use tapscope_core::device::adb_command::inputs;
use tapscope_core::device::host_service::{
    DeviceService, Request, RequestError, Select, Status, fail, read_request, read_status,
    write_request,
};
use tapscope_core::device::u2_rpc::Call;
use tapscope_core::recording::Check;

use super::Shared;
use super::check;
use super::rpc::RpcWatch;
use super::served::{Opened, Served};
use super::splice::{Spliced, splice};
use super::watch::{Screen, Watch};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a client may take to send a whole request; a silent one is let go.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Answers a client that cannot be served with adb's `FAIL` and `reason`, once its
/// request is read, then closes.
pub(super) fn refuse(mut client: TcpStream, reason: &str) {
    let _ = client.set_read_timeout(Some(CONNECT_TIMEOUT));
    let _ = read_request(&mut client);
    let _ = client.write_all(&fail(reason));
    let _ = client.shutdown(Shutdown::Both);
}

/// Serves one client connection to its end.
pub(super) fn serve(mut client: TcpStream, number: u64, shared: &Shared) {
    let _ = client.set_read_timeout(Some(REQUEST_TIMEOUT));
    let request = match read_request(&mut client) {
        Ok(request) => request,
        Err(RequestError::Closed | RequestError::Io(_)) => return,
        Err(bad) => {
            let _ = client.write_all(&fail(&format!("tapscope proxy: {bad}")));
            return;
        }
    };
    let upstream_address = shared.config.upstream;
    let mut upstream = match TcpStream::connect_timeout(&upstream_address.into(), CONNECT_TIMEOUT) {
        Ok(upstream) => upstream,
        Err(e) => {
            let reason = format!(
                "cannot connect to daemon at tcp:{upstream_address}: {e} (the adb server \
                     tapscope proxy stands in front of; start it with `adb start-server`)"
            );
            let _ = client.write_all(&fail(&reason));
            return;
        }
    };
    let _ = (client.set_nodelay(true), upstream.set_nodelay(true));
    let ended = match Request::parse(&request) {
        Request::Transport { select, says_id } => transport(
            &mut client,
            &mut upstream,
            &request,
            select,
            says_id,
            number,
            shared,
        ),
        _ => write_request(&mut upstream, &request)
            .and_then(|()| client.set_read_timeout(None))
            .map(|()| {
                splice(&client, &upstream, &mut |_| {}, &mut |_| {});
            }),
    };
    if ended.is_err() {
        let _ = client.shutdown(Shutdown::Both);
        let _ = upstream.shutdown(Shutdown::Both);
    }
}

/// A transport switch passed on, then the device service after it.
fn transport(
    client: &mut TcpStream,
    upstream: &mut TcpStream,
    request: &str,
    select: Select<'_>,
    says_id: bool,
    number: u64,
    shared: &Shared,
) -> std::io::Result<()> {
    write_request(upstream, request)?;
    let (status, raw) = read_status(upstream)?;
    client.write_all(&raw)?;
    if status != Status::Okay {
        return Ok(());
    }
    let id = if says_id {
        let mut id = [0u8; 8];
        upstream.read_exact(&mut id)?;
        client.write_all(&id)?;
        Some(u64::from_le_bytes(id))
    } else {
        None
    };
    let serial = serial_of(shared, select, id);
    let service = match read_request(client) {
        Ok(service) => service,
        Err(RequestError::Io(e)) => return Err(e),
        Err(RequestError::Closed) => return Ok(()),
        Err(bad) => {
            client.write_all(&fail(&format!("tapscope proxy: {bad}")))?;
            return Ok(());
        }
    };
    // Spliced streams may be quiet for as long as their command runs.
    client.set_read_timeout(None)?;
    device_service(client, upstream, &service, serial, number, shared)
}

/// A device service: the proxy's own look first when the command acts on a coordinate
/// and a check is asked for, then the request passed on, the stream spliced and watched,
/// and what passed handed to the recorder.
fn device_service(
    client: &mut TcpStream,
    upstream: &mut TcpStream,
    service: &str,
    serial: String,
    number: u64,
    shared: &Shared,
) -> std::io::Result<()> {
    let parsed = DeviceService::parse(service);
    let inputs = parsed.command().map(inputs).unwrap_or_default();
    let check = shared.config.check;
    let started = shared.started.elapsed();
    let aims = inputs.iter().any(|input| !input.points().is_empty());
    let checked =
        (aims && check != Check::None).then(|| check::look(shared.config.upstream, &serial, check));
    write_request(upstream, service)?;
    let (status, raw) = read_status(upstream)?;
    client.write_all(&raw)?;
    let opened = match status {
        Status::Okay => Opened::Yes,
        Status::Fail(reason) => Opened::Refused(reason),
    };
    let watch = Watch::of(parsed);
    let spliced = match (&opened, parsed) {
        (Opened::Yes, DeviceService::Other(U2_SERVICE)) => {
            let (exchanges, spliced) = rpc_stream(client, upstream, &serial, number, shared);
            if exchanges > 0 {
                return Ok(());
            }
            spliced
        }
        (Opened::Yes, _) => splice(
            client,
            upstream,
            &mut |bytes| watch.to_device(bytes),
            &mut |bytes| watch.to_client(bytes),
        ),
        (Opened::Refused(_), _) => Default::default(),
    };
    let ended = shared.started.elapsed();
    let passed = watch.passed();
    // With `--check pixels`, the screen an agent just read is photographed for the
    // comparison its next action needs, unless it took a screenshot itself.
    let after_look = (check == Check::Pixels
        && passed
            .screens
            .iter()
            .any(|s| matches!(s.screen, Screen::Dump(_)))
        && !passed
            .screens
            .iter()
            .any(|s| matches!(s.screen, Screen::Png(_))))
    .then(|| check::look(shared.config.upstream, &serial, Check::Pixels));
    shared.record(Served {
        connection: number,
        serial,
        service: service.to_owned(),
        command: parsed.command().unwrap_or_default().to_owned(),
        started,
        ended,
        opened,
        inputs,
        checked,
        after_look,
        passed,
        spliced,
    });
    Ok(())
}

/// The device service of uiautomator2's server on the phone.
const U2_SERVICE: &str = "tcp:9008";

/// A `tcp:9008` stream spliced with its JSON-RPC read as it passes: each exchange recorded
/// as it completes, the proxy's look taken before an action goes on. How many exchanges
/// there were (none: the stream was no JSON-RPC, to be recorded as a service), and what
/// passed.
fn rpc_stream(
    client: &TcpStream,
    upstream: &TcpStream,
    serial: &str,
    number: u64,
    shared: &Shared,
) -> (usize, Spliced) {
    let check = shared.config.check;
    let watch = parking_lot::Mutex::new(RpcWatch::new());
    let lock = || watch.lock();
    let mut exchanges = 0;
    let spliced = splice(
        client,
        upstream,
        &mut |bytes| {
            let calls = lock().requests(bytes, shared.started.elapsed());
            for call in calls {
                let aims = matches!(&call, Call::Input(input) if !input.points().is_empty());
                if aims && check != Check::None {
                    // Before the request's last bytes go on: the action has not happened.
                    let checked = check::look_through_u2(shared.config.upstream, serial, check);
                    lock().checked(checked);
                }
            }
        },
        &mut |bytes| {
            let answered = lock().answers(bytes, shared.started.elapsed());
            for exchange in answered {
                exchanges += 1;
                shared.record(Served::of_rpc(exchange, number, serial));
            }
        },
    );
    (exchanges, spliced)
}

/// The serial a transport switch chose: as named, else looked up in the server's list
/// (`transport_id:`, or the only device); what was asked when it cannot be found.
fn serial_of(shared: &Shared, select: Select<'_>, id: Option<u64>) -> String {
    if let Select::Serial(serial) = select {
        return serial.to_owned();
    }
    let devices = list_devices(shared.config.upstream).unwrap_or_default();
    let wanted = match select {
        Select::Id(n) => Some(n),
        _ => id,
    };
    let found = match wanted {
        Some(n) => devices.iter().find(|d| d.transport_id == Some(n)),
        None if devices.len() == 1 => devices.first(),
        None => None,
    };
    match (found, wanted) {
        (Some(device), _) => device.serial.clone(),
        (None, Some(n)) => format!("transport-id:{n}"),
        (None, None) => "any".to_owned(),
    }
}

//! Looks through helpers against a fake ADB server whose phone answers each device service
//! as scripted: uiautomator2's server that answers, answers garbage, an empty tree, an
//! error, nothing, or is not there; mobilecli's dump server that answers or answers a
//! JSON-RPC error; droidrun's Portal installed with its accessibility service on or off;
//! and the stock dump beside them.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::super::AdbDevice;
use crate::device::host_service::read_request;
use crate::device::http_stream::{HttpStream, Message};
use crate::device::shell_v2::{PacketId, frame};
use crate::device::{Device, DeviceError};
use crate::stability::Dumps;
use crate::stability::look::{Fallback, HelperFault, LookBackend, LookChoice};

const SERIAL: &str = "emulator-5554";
const STOCK_XML: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Stock" class="android.widget.TextView" bounds="[0,0][100,100]" /></hierarchy>"#;
const U2_XML: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Through u2" class="android.widget.TextView" bounds="[0,0][100,100]" /></hierarchy>"#;
/// `device.dump.ui`'s `result`: one window, its root holding one text (keys as mobilecli's
/// `UiTreeSerializer.java` writes them, abridged).
const MOBILECLI_RESULT: &str = r#"{"hierarchy":[{"index":0,"class":"android.widget.FrameLayout","package":"com.example.mail","text":"","visible":true,"rect":{"x":0,"y":0,"width":1080,"height":2400},"children":[{"index":0,"class":"android.widget.TextView","package":"com.example.mail","text":"Through mobilecli","visible":true,"rect":{"x":48,"y":120,"width":352,"height":80}}]}]}"#;
/// A JSON-RPC 2.0 error object (code and message are the fake's own: any error is refused).
const MOBILECLI_ERROR: &str = r#"{"code":-32603,"message":"UiAutomation not connected"}"#;
/// The one socket name the fake's mobilecli listens on: mobilecli 1.0.8's, the second the
/// client tries.
const MOBILECLI_SOCKET: &str = "localabstract:mobilecli-uidump";
/// Portal's rows for `ping`, and for any endpoint with its accessibility service off.
const PORTAL_PONG: &str = r#"Row: 0 result={"status":"success","result":"pong"}"#;
const PORTAL_OFF: &str =
    r#"Row: 0 result={"status":"error","error":"Accessibility service not available"}"#;
/// `state_full`'s row as `content query` prints it: Portal's envelope around the active
/// window's tree (keys as `AccessibilityTreeBuilder.kt` writes them, abridged).
const PORTAL_STATE: &str = r#"Row: 0 result={"status":"success","result":{"a11y_tree":{"resourceId":"","className":"android.widget.FrameLayout","packageName":"com.example.mail","text":"","boundsInScreen":{"left":0,"top":0,"right":1080,"bottom":2400},"isVisibleToUser":true,"children":[{"resourceId":"","className":"android.widget.TextView","packageName":"com.example.mail","text":"Through Portal","boundsInScreen":{"left":48,"top":120,"right":400,"bottom":200},"isVisibleToUser":true,"children":[]}]},"phone_state":{"packageName":"com.example.mail"}}}"#;

/// What the phone's port 9008 does with a request.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Port {
    /// Nothing listens: the server answers FAIL.
    Closed,
    /// uiautomator2's server: `pong`, and `result` for a dump.
    U2(&'static str),
    /// Something else answers HTTP there.
    Nginx,
    /// The request is read, and nothing ever comes back.
    Hangs,
    /// Half an answer, then the connection ends.
    Dies,
}

/// What the stock dump prints.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stock {
    Dumps,
    /// UiAutomation is held by another client.
    Busy,
}

/// What mobilecli's dump server does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mobilecli {
    /// Nothing listens on any of its socket names.
    Absent,
    /// `device.dump.ui` answers `MOBILECLI_RESULT`.
    Dumps,
    /// `device.dump.ui` answers a JSON-RPC error.
    Refuses,
}

/// droidrun's Portal on the phone.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Portal {
    /// Not installed: `pm` lists nothing, `content` finds no provider.
    Absent,
    /// Installed with its accessibility service on.
    On,
    /// Installed, its accessibility service off: every tree endpoint answers an error.
    Off,
}

#[derive(Debug)]
struct Phone {
    port: Mutex<Port>,
    stock: Mutex<Stock>,
    mobilecli: Mutex<Mobilecli>,
    portal: Mutex<Portal>,
    /// The device services opened, in order.
    opened: Mutex<Vec<String>>,
}

/// A fake ADB server on loopback with one phone, `SERIAL`.
fn fake_adb(port: Port, stock: Stock) -> (SocketAddrV4, Arc<Phone>) {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let std::net::SocketAddr::V4(address) = listener.local_addr().unwrap() else {
        panic!("IPv4")
    };
    let phone = Arc::new(Phone {
        port: Mutex::new(port),
        stock: Mutex::new(stock),
        mobilecli: Mutex::new(Mobilecli::Absent),
        portal: Mutex::new(Portal::Absent),
        opened: Mutex::new(Vec::new()),
    });
    let serving = Arc::clone(&phone);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let phone = Arc::clone(&serving);
            std::thread::spawn(move || serve(stream, &phone));
        }
    });
    (address, phone)
}

fn serve(mut stream: TcpStream, phone: &Phone) {
    let Ok(request) = read_request(&mut stream) else {
        return;
    };
    if request == "host:devices-l" {
        let list = format!("{SERIAL}\tdevice product:sdk model:Pixel_7 transport_id:1\n");
        let _ = write!(stream, "OKAY{:04x}{list}", list.len());
        return;
    }
    write_okay(&mut stream);
    let Ok(service) = read_request(&mut stream) else {
        return;
    };
    phone.opened.lock().unwrap().push(service.clone());
    if service == "tcp:9008" {
        serve_port(stream, *phone.port.lock().unwrap());
    } else if service == MOBILECLI_SOCKET && *phone.mobilecli.lock().unwrap() != Mobilecli::Absent {
        serve_mobilecli(stream, *phone.mobilecli.lock().unwrap());
    } else if let Some(command) = service.strip_prefix("shell,v2,raw:") {
        let (stdout, stderr, exit) = shell(phone, command);
        write_okay(&mut stream);
        let mut packets = Vec::new();
        frame(PacketId::Stdout, stdout.as_bytes(), &mut packets);
        frame(PacketId::Stderr, stderr.as_bytes(), &mut packets);
        frame(PacketId::Exit, &[exit], &mut packets);
        let _ = stream.write_all(&packets);
    } else {
        // Nothing listens there: the phone closes the stream, and the server says so.
        let _ = stream.write_all(b"FAIL0006closed");
    }
}

/// What the phone's shell prints for `command`: stdout, stderr and the exit status.
fn shell(phone: &Phone, command: &str) -> (String, String, u8) {
    let portal = *phone.portal.lock().unwrap();
    match (*phone.stock.lock().unwrap(), command) {
        (Stock::Dumps, c) if c.contains("uiautomator dump") => {
            (STOCK_XML.to_owned(), String::new(), 0)
        }
        (Stock::Busy, c) if c.contains("uiautomator dump") => (
            "java.lang.IllegalStateException: UiAutomationService \
             android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5\
             already registered!\n"
                .to_owned(),
            String::new(),
            1,
        ),
        (_, "pm list packages portal") if portal != Portal::Absent => (
            "package:com.mobilerun.portal\n".to_owned(),
            String::new(),
            0,
        ),
        (_, c) if c.starts_with("content query --uri 'content://") => {
            let (authority, path) = c
                .trim_start_matches("content query --uri 'content://")
                .trim_end_matches('\'')
                .split_once('/')
                .unwrap_or_default();
            let row = match (portal, authority, path) {
                (Portal::Absent, ..) | (_, "com.droidrun.portal", _) => {
                    return (
                        String::new(),
                        format!(
                            "Error while accessing provider:{authority}\n\
                             java.lang.IllegalStateException: Could not find provider: \
                             {authority}\n"
                        ),
                        0,
                    );
                }
                (Portal::Off, ..) => PORTAL_OFF,
                (Portal::On, _, "ping") => PORTAL_PONG,
                (Portal::On, _, "state_full?filter=false") => PORTAL_STATE,
                (Portal::On, _, other) => panic!("Portal asked for {other}"),
            };
            (format!("{row}\n"), String::new(), 0)
        }
        _ => (String::new(), String::new(), 0),
    }
}

/// mobilecli's dump server: one JSON-RPC request over HTTP, one answer, then closed.
fn serve_mobilecli(mut stream: TcpStream, mobilecli: Mobilecli) {
    write_okay(&mut stream);
    let Some(request) = read_http(&mut stream) else {
        return;
    };
    assert!(request.start.starts_with("POST / "), "{}", request.start);
    let asked: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(asked["method"], "device.dump.ui", "{asked}");
    let id = &asked["id"];
    let body = match mobilecli {
        Mobilecli::Dumps => format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{MOBILECLI_RESULT}}}"#),
        Mobilecli::Refuses => format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{MOBILECLI_ERROR}}}"#),
        Mobilecli::Absent => unreachable!("nothing listens"),
    };
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
}

/// The first HTTP message read from `stream`; `None` when it ends before one.
fn read_http(stream: &mut TcpStream) -> Option<Message> {
    let mut requests = HttpStream::new(1 << 20);
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return None,
            Ok(n) => {
                if let Some(request) = requests.push(&buffer[..n]).into_iter().next() {
                    return Some(request);
                }
            }
        }
    }
}

fn serve_port(mut stream: TcpStream, port: Port) {
    if port == Port::Closed {
        let _ = stream.write_all(b"FAIL0006closed");
        return;
    }
    write_okay(&mut stream);
    let Some(request) = read_http(&mut stream) else {
        return;
    };
    let body = match port {
        Port::U2(_) if request.start.starts_with("GET /ping") => "pong".to_owned(),
        Port::U2(result) => {
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": result}).to_string()
        }
        Port::Nginx => "<html><body>Welcome to nginx!</body></html>".to_owned(),
        Port::Dies => {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{\"jsonrpc\"");
            return;
        }
        Port::Hangs => {
            std::thread::sleep(Duration::from_secs(30));
            return;
        }
        Port::Closed => unreachable!("answered above"),
    };
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
}

fn write_okay(stream: &mut TcpStream) {
    let _ = stream.write_all(b"OKAY");
}

fn open(address: SocketAddrV4, choice: LookChoice) -> Result<AdbDevice, DeviceError> {
    AdbDevice::connect_looking(address, Some(SERIAL), choice)
}

#[test]
fn a_running_uiautomator2_server_is_found_and_looked_through() {
    let (address, phone) = fake_adb(Port::U2(U2_XML), Stock::Busy);
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::U2);
    assert_eq!(device.dumps(), Dumps::Snapshot);
    let xml = device.dump().unwrap();
    assert!(xml.contains("Through u2"), "{xml}");
    assert_eq!(device.take_fallback(), None);
    let opened = phone.opened.lock().unwrap().clone();
    // Nothing but the helper's socket: no stock dump, no Portal query was paid for.
    assert!(opened.iter().all(|s| !s.starts_with("shell")), "{opened:?}");
    assert!(opened.contains(&"tcp:9008".to_owned()), "{opened:?}");
}

#[test]
fn with_no_helper_running_the_stock_dump_looks() {
    let (address, _phone) = fake_adb(Port::Closed, Stock::Dumps);
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::Stock);
    assert!(matches!(device.dumps(), Dumps::AfterIdle { .. }));
    assert!(device.dump().unwrap().contains("Stock"));
}

#[test]
fn a_helper_asked_for_by_name_that_is_not_running_is_an_error_saying_how_to_start_it() {
    let (address, _phone) = fake_adb(Port::Closed, Stock::Dumps);
    let err = open(address, LookChoice::Only(LookBackend::U2)).unwrap_err();
    let said = err.to_string();
    assert!(
        said.starts_with("uiautomator2's server on emulator-5554 is not running"),
        "{said}"
    );
    assert!(said.contains("tapscope helper start u2"), "{said}");
}

#[test]
fn every_failing_helper_falls_back_to_the_stock_dump_and_says_so_once() {
    for (fault, port) in [
        (HelperFault::Garbage, Port::U2("no xml here")),
        (
            HelperFault::Empty,
            Port::U2("<?xml version='1.0' ?><hierarchy rotation=\"0\" />"),
        ),
        (HelperFault::NotTheHelper, Port::Nginx),
        (HelperFault::Hung, Port::Hangs),
        (HelperFault::Died, Port::Dies),
    ] {
        let (address, phone) = fake_adb(Port::U2(U2_XML), Stock::Dumps);
        let mut device = open(address, LookChoice::Auto).unwrap();
        assert_eq!(device.look_backend(), LookBackend::U2);
        *phone.port.lock().unwrap() = port;
        let started = Instant::now();
        let xml = device.dump_within(Duration::from_secs(4)).unwrap();
        assert!(started.elapsed() < Duration::from_secs(4), "{fault:?}");
        assert!(xml.contains("Stock"), "{fault:?}: {xml}");
        assert_eq!(
            device.take_fallback(),
            Some(Fallback {
                from: LookBackend::U2,
                why: fault,
                to: LookBackend::Stock,
            }),
            "{port:?}"
        );
        // Said once; the stock dump looks from now on.
        assert!(device.dump().unwrap().contains("Stock"));
        assert_eq!(device.take_fallback(), None);
        assert_eq!(device.look_backend(), LookBackend::Stock);
    }
}

#[test]
fn a_helper_that_fails_while_holding_ui_automation_is_named_with_what_to_do() {
    let (address, phone) = fake_adb(Port::U2(U2_XML), Stock::Busy);
    let mut device = open(address, LookChoice::Auto).unwrap();
    *phone.port.lock().unwrap() = Port::U2("garbage");
    let err = device.dump_within(Duration::from_secs(4)).unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("uiautomator2's server on emulator-5554 answered something that is not"),
        "{said}"
    );
    assert!(said.contains("tapscope helper stop u2"), "{said}");
}

#[test]
fn a_helper_that_comes_back_while_stock_is_refused_is_looked_through_again() {
    let (address, phone) = fake_adb(Port::Closed, Stock::Busy);
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::Stock);
    // Started after the device was opened: the stock dump now finds UiAutomation held.
    *phone.port.lock().unwrap() = Port::U2(U2_XML);
    let xml = device.dump_within(Duration::from_secs(4)).unwrap();
    assert!(xml.contains("Through u2"), "{xml}");
    assert_eq!(device.look_backend(), LookBackend::U2);
}

/// The node texts of a look's dump, parsed as a session parses it.
fn texts(dump: &str) -> Vec<String> {
    let tree = crate::parse::parse_str(dump).unwrap();
    tree.nodes
        .iter()
        .map(|n| n.text.to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

#[test]
fn mobilecli_is_found_where_uiautomator2_is_not_and_looked_through() {
    let (address, phone) = fake_adb(Port::Closed, Stock::Dumps);
    *phone.mobilecli.lock().unwrap() = Mobilecli::Dumps;
    // Portal answers too, and is not asked: a faster helper did.
    *phone.portal.lock().unwrap() = Portal::On;
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::Mobilecli);
    assert_eq!(device.dumps(), Dumps::Snapshot);
    let dump = device.dump().unwrap();
    assert_eq!(texts(&dump), ["Through mobilecli"], "{dump}");
    assert_eq!(device.take_fallback(), None);
    let opened = phone.opened.lock().unwrap().clone();
    // Its newest socket name first, then the one it listens on; no shell at all.
    let at = |name: &str| opened.iter().position(|s| s == name);
    assert!(
        at("localabstract:mobilecli-server") < at(MOBILECLI_SOCKET),
        "{opened:?}"
    );
    assert!(opened.iter().all(|s| !s.starts_with("shell")), "{opened:?}");
}

#[test]
fn mobilecli_asked_for_by_name_on_a_phone_without_it_is_an_error_saying_what_to_do() {
    let (address, phone) = fake_adb(Port::U2(U2_XML), Stock::Dumps);
    let err = open(address, LookChoice::Only(LookBackend::Mobilecli)).unwrap_err();
    let said = err.to_string();
    assert!(
        said.starts_with("mobilecli's dump server on emulator-5554 is not running: "),
        "{said}"
    );
    assert!(said.contains("start mobilecli's dump server"), "{said}");
    // Every name it has listened on was tried, and no other helper.
    let opened = phone.opened.lock().unwrap().clone();
    for name in crate::device::helper_wire::MOBILECLI_SERVICES {
        assert!(opened.iter().any(|s| s == name), "{name}: {opened:?}");
    }
    assert!(!opened.contains(&"tcp:9008".to_owned()), "{opened:?}");
}

#[test]
fn mobilecli_answering_an_error_falls_back_to_the_stock_dump_and_says_so_once() {
    let (address, phone) = fake_adb(Port::Closed, Stock::Dumps);
    *phone.mobilecli.lock().unwrap() = Mobilecli::Dumps;
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::Mobilecli);
    *phone.mobilecli.lock().unwrap() = Mobilecli::Refuses;
    let xml = device.dump_within(Duration::from_secs(4)).unwrap();
    assert!(xml.contains("Stock"), "{xml}");
    assert_eq!(
        device.take_fallback(),
        Some(Fallback {
            from: LookBackend::Mobilecli,
            why: HelperFault::Refused,
            to: LookBackend::Stock,
        })
    );
    assert_eq!(device.look_backend(), LookBackend::Stock);
    assert!(device.dump().unwrap().contains("Stock"));
    assert_eq!(device.take_fallback(), None);
}

#[test]
fn portal_is_looked_through_when_no_faster_helper_answers() {
    let (address, phone) = fake_adb(Port::Closed, Stock::Dumps);
    *phone.portal.lock().unwrap() = Portal::On;
    let mut device = open(address, LookChoice::Auto).unwrap();
    assert_eq!(device.look_backend(), LookBackend::Portal);
    assert_eq!(device.dumps(), Dumps::Snapshot);
    let dump = device.dump().unwrap();
    assert_eq!(texts(&dump), ["Through Portal"], "{dump}");
    let opened = phone.opened.lock().unwrap().clone();
    let shells: Vec<&str> = opened
        .iter()
        .filter_map(|s| s.strip_prefix("shell,v2,raw:"))
        .collect();
    // `pm` (no JVM), then Portal's state: no `content` call of its own to probe it, and
    // never a stock dump.
    assert_eq!(
        shells,
        [
            "pm list packages portal",
            "content query --uri 'content://com.mobilerun.portal/state_full?filter=false'",
        ],
        "{opened:?}"
    );
}

#[test]
fn portal_with_its_service_off_falls_back_once_and_is_named_when_asked_for() {
    let (address, phone) = fake_adb(Port::Closed, Stock::Dumps);
    *phone.portal.lock().unwrap() = Portal::Off;
    let mut device = open(address, LookChoice::Auto).unwrap();
    // Installed, so tried: its first look says the service is off, and stock looks.
    assert_eq!(device.look_backend(), LookBackend::Portal);
    assert!(device.dump().unwrap().contains("Stock"));
    assert_eq!(
        device.take_fallback(),
        Some(Fallback {
            from: LookBackend::Portal,
            why: HelperFault::Refused,
            to: LookBackend::Stock,
        })
    );
    assert_eq!(device.look_backend(), LookBackend::Stock);

    let mut asked = open(address, LookChoice::Only(LookBackend::Portal)).unwrap();
    let said = asked.dump().unwrap_err().to_string();
    assert!(
        said.starts_with("droidrun's Portal on emulator-5554 answered an error: "),
        "{said}"
    );
    assert!(said.contains("enable its accessibility service"), "{said}");
}

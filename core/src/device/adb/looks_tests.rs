//! Looks through helpers against a fake ADB server whose phone answers each device service
//! as scripted: uiautomator2's server that answers, answers garbage, an empty tree, an
//! error, nothing, or is not there; and the stock dump beside it.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::AdbDevice;
use crate::device::host_service::read_request;
use crate::device::http_stream::HttpStream;
use crate::device::shell_v2::{PacketId, frame};
use crate::device::{Device, DeviceError};
use crate::stability::Dumps;
use crate::stability::look::{Fallback, HelperFault, LookBackend, LookChoice};

const SERIAL: &str = "emulator-5554";
const STOCK_XML: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Stock" class="android.widget.TextView" bounds="[0,0][100,100]" /></hierarchy>"#;
const U2_XML: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Through u2" class="android.widget.TextView" bounds="[0,0][100,100]" /></hierarchy>"#;

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

#[derive(Debug)]
struct Phone {
    port: Mutex<Port>,
    stock: Mutex<Stock>,
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
    } else if let Some(command) = service.strip_prefix("shell,v2,raw:") {
        let (stdout, exit) = match (*phone.stock.lock().unwrap(), command) {
            (Stock::Dumps, c) if c.contains("uiautomator dump") => (STOCK_XML.to_owned(), 0),
            (Stock::Busy, c) if c.contains("uiautomator dump") => (
                "java.lang.IllegalStateException: UiAutomationService \
                 android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5\
                 already registered!\n"
                    .to_owned(),
                1,
            ),
            _ => (String::new(), 0),
        };
        write_okay(&mut stream);
        let mut packets = Vec::new();
        frame(PacketId::Stdout, stdout.as_bytes(), &mut packets);
        frame(PacketId::Exit, &[exit], &mut packets);
        let _ = stream.write_all(&packets);
    }
}

fn serve_port(mut stream: TcpStream, port: Port) {
    if port == Port::Closed {
        let _ = stream.write_all(b"FAIL0006closed");
        return;
    }
    write_okay(&mut stream);
    let mut requests = HttpStream::new(1 << 20);
    let mut buffer = [0u8; 4096];
    let request = loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if let Some(request) = requests.push(&buffer[..n]).into_iter().next() {
                    break request;
                }
            }
        }
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

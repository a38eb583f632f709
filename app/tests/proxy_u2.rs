//! `tapscope proxy` in front of an adb server whose phone runs uiautomator2's server: a
//! client's JSON-RPC over `tcp:9008` (a `dumpWindowHierarchy`, then `click`s on one kept-
//! alive connection) recorded exchange by exchange, and with `--check tree` the proxy's
//! own look taken through uiautomator2's dump (a stock dump fails while it holds
//! UiAutomation): the click aimed at a row that was replaced is flagged, the other not.
//! The phone and its adb server are played by a small fake speaking both protocols.

use std::io::{Read, Write};
use std::net::{SocketAddrV4, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tapscope::proxy::{Config, Proxy};
use tapscope_core::device::host_service::{Status, read_request, read_status, write_request};
use tapscope_core::device::http_stream::HttpStream;
use tapscope_core::recording::{self, Check, Landed};

const SERIAL: &str = "emulator-5554";

/// A feed whose second row is `row`.
fn screen(row: &str) -> String {
    format!(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">\
         <node index=\"0\" text=\"\" class=\"android.widget.FrameLayout\" package=\"tv.tapscope.demo\" bounds=\"[0,0][1080,2400]\">\
         <node index=\"0\" text=\"Video: Rust in 100 s\" class=\"android.widget.TextView\" package=\"tv.tapscope.demo\" clickable=\"true\" bounds=\"[0,200][1080,600]\"/>\
         <node index=\"1\" text=\"{row}\" class=\"android.widget.TextView\" package=\"tv.tapscope.demo\" clickable=\"true\" bounds=\"[0,600][1080,1000]\"/>\
         </node></hierarchy>"
    )
}

/// The fake adb server: `tcp:9008` on `SERIAL` answers JSON-RPC, its dump showing the
/// second row replaced once `replaced` is set.
fn fake_server(replaced: Arc<AtomicBool>) -> SocketAddrV4 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let std::net::SocketAddr::V4(address) = listener.local_addr().expect("its address") else {
        panic!("IPv4")
    };
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let replaced = Arc::clone(&replaced);
            std::thread::spawn(move || serve(stream, &replaced));
        }
    });
    address
}

fn serve(mut stream: TcpStream, replaced: &AtomicBool) {
    let Ok(first) = read_request(&mut stream) else {
        return;
    };
    if first == "host:devices-l" {
        let list = format!("{SERIAL}\tdevice product:sdk model:Pixel_7 transport_id:1\n");
        let _ = write!(stream, "OKAY{:04x}{list}", list.len());
        return;
    }
    if first != format!("host:transport:{SERIAL}") {
        let _ = stream.write_all(b"FAIL0007unknown");
        return;
    }
    let _ = stream.write_all(b"OKAY");
    if read_request(&mut stream).ok().as_deref() != Some("tcp:9008") {
        return;
    }
    let _ = stream.write_all(b"OKAY");
    let mut requests = HttpStream::new(1 << 20);
    let mut buffer = [0u8; 4096];
    while let Ok(n @ 1..) = stream.read(&mut buffer) {
        for request in requests.push(&buffer[..n]) {
            let body = String::from_utf8_lossy(&request.body);
            if request.start.starts_with("GET /ping") {
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npong");
                continue;
            }
            let result = if body.contains("dumpWindowHierarchy") {
                let row = if replaced.load(Ordering::SeqCst) {
                    "Sponsored: Buy now"
                } else {
                    "Video: Cats at sea"
                };
                serde_json::to_string(&screen(row)).expect("a JSON string")
            } else {
                "true".to_owned()
            };
            let answer = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
            let reply = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
                answer.len()
            );
            if stream.write_all(reply.as_bytes()).is_err() {
                return;
            }
        }
    }
}

/// One JSON-RPC call on the kept-alive connection, and its answer's body.
fn call(stream: &mut TcpStream, answers: &mut HttpStream, method: &str, params: &str) -> String {
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
    let request = format!(
        "POST /jsonrpc/0 HTTP/1.1\r\nHost: 127.0.0.1:9008\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .expect("the call is sent");
    let mut buffer = [0u8; 4096];
    loop {
        let n = stream.read(&mut buffer).expect("the answer");
        assert!(n > 0, "the connection closed before answering {method}");
        if let Some(answer) = answers.push(&buffer[..n]).into_iter().next() {
            return String::from_utf8_lossy(&answer.body).into_owned();
        }
    }
}

#[test]
fn uiautomator2s_calls_are_recorded_and_its_stale_click_flagged() {
    let replaced = Arc::new(AtomicBool::new(false));
    let upstream = fake_server(Arc::clone(&replaced));
    let folder = tempfile::tempdir().expect("a folder");
    let said = Arc::new(Mutex::new(Vec::new()));
    let hears = Arc::clone(&said);
    let proxy = Proxy::start(
        Config {
            logs: false,
            listen: "127.0.0.1:0".parse().expect("an address"),
            upstream,
            record: Some(folder.path().join("rec")),
            check: Check::Tree,
        },
        Some(Box::new(move |line: &str| {
            hears.lock().expect("the lines").push(line.to_owned());
        })),
    )
    .expect("the proxy starts");

    let mut stream = TcpStream::connect(proxy.local_addr()).expect("the proxy accepts");
    for request in [format!("host:transport:{SERIAL}"), "tcp:9008".to_owned()] {
        write_request(&mut stream, &request).expect("sent");
        assert_eq!(read_status(&mut stream).expect("answered").0, Status::Okay);
    }
    let mut answers = HttpStream::new(1 << 20);
    let dump = call(
        &mut stream,
        &mut answers,
        "dumpWindowHierarchy",
        "[false,50]",
    );
    assert!(dump.contains("Video: Cats at sea"), "{dump}");
    // The second row is replaced behind the client's back; it clicks where it was.
    replaced.store(true, Ordering::SeqCst);
    call(&mut stream, &mut answers, "click", "[540,800]");
    // The first row stayed: a click on it is no alarm.
    call(&mut stream, &mut answers, "click", "[540,400]");
    drop(stream);
    proxy.stop();

    let said = said.lock().expect("the lines").clone();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("\"Video: Cats at sea\"") && said[0].contains("\"Sponsored: Buy now\""),
        "{}",
        said[0]
    );
    let recording = recording::read(&folder.path().join("rec")).expect("the recording reads");
    let steps: Vec<(&str, Option<Landed>)> = recording
        .steps
        .iter()
        .map(|s| (s.tool.as_str(), s.adb.as_ref().and_then(|a| a.landed)))
        .collect();
    assert_eq!(
        steps,
        [
            ("look", None),
            ("tap", Some(Landed::Elsewhere)),
            ("tap", Some(Landed::Same))
        ]
    );
    assert_eq!(recording.steps[1].path, [[540, 800]]);
    assert_eq!(
        recording.steps[1].arguments["command"],
        "uiautomator2 tap (540, 800)"
    );
    assert!(
        recording
            .steps
            .iter()
            .all(|s| s.adb.as_ref().is_some_and(|a| a.service == "tcp:9008"))
    );
}

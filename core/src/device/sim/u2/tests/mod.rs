//! The simulated uiautomator2 server over HTTP as its client speaks to it, on a virtual
//! clock: ping, requests split anywhere, the dump against the sim's own, gestures and
//! keys, selectors, errors, and requests too large to read.

use std::time::Duration;

use serde_json::{Value, json};

use super::U2Connection;
use crate::device::Device;
use crate::device::look::LookBackend;
use crate::device::sim::costs::Profile;
use crate::device::sim::phone::{SimPhone, UiAutomationError, UiClient};
use crate::geometry::Point;
use crate::parse::parse_str;
use crate::prune::{PruneRules, prune_with_version};
use crate::render::yaml;
use crate::stability::{Clock, Dumps, VirtualClock};

mod queries;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn phone(profile: Profile) -> (SimPhone<VirtualClock>, VirtualClock) {
    let clock = VirtualClock::new();
    (SimPhone::new(clock.clone(), 3, profile), clock)
}

/// One answer: its status line, its headers and its body.
#[derive(Debug)]
struct Answer {
    status: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&self.body)))
    }
}

/// The answers in `bytes`, each read by its `Content-Length`.
fn answers(mut bytes: &[u8]) -> Vec<Answer> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let end = memchr::memmem::find(bytes, b"\r\n\r\n").expect("a whole head");
        let head = std::str::from_utf8(&bytes[..end]).unwrap();
        let mut lines = head.split("\r\n");
        let status = lines.next().unwrap().to_owned();
        let headers: Vec<(String, String)> = lines
            .map(|l| {
                let (n, v) = l.split_once(": ").unwrap();
                (n.to_owned(), v.to_owned())
            })
            .collect();
        let answer = Answer {
            status,
            headers,
            body: Vec::new(),
        };
        let length: usize = answer.header("Content-Length").unwrap().parse().unwrap();
        let body = bytes[end + 4..end + 4 + length].to_vec();
        bytes = &bytes[end + 4 + length..];
        out.push(Answer { body, ..answer });
    }
    out
}

/// What Python's `http.client` sends for uiautomator2's `_jsonrpc_call`.
fn post(method: &str, params: &Value) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    format!(
        "POST /jsonrpc/0 HTTP/1.1\r\nHost: localhost:9008\r\nAccept-Identity: identity\r\n\
         User-Agent: uiautomator2\r\nAccept-Encoding: \r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One call on a fresh connection, as uiautomator2 makes each: its JSON answer.
fn call(phone: &SimPhone<VirtualClock>, method: &str, params: Value) -> Value {
    let (bytes, close) = U2Connection::new().received(phone, &post(method, &params));
    assert!(!close, "keep-alive, as NanoHTTPD answers HTTP/1.1");
    let mut got = answers(&bytes);
    assert_eq!(got.len(), 1);
    let answer = got.remove(0);
    assert_eq!(answer.status, "HTTP/1.1 200 OK ");
    assert_eq!(answer.header("Content-Type"), Some("application/json"));
    answer.json()
}

fn result(phone: &SimPhone<VirtualClock>, method: &str, params: Value) -> Value {
    let answer = call(phone, method, params);
    assert!(answer.get("error").is_none(), "{method}: {answer}");
    answer["result"].clone()
}

/// A selector as uiautomator2's `Selector(**kwargs)` sends it.
fn selector(fields: Value) -> Value {
    const MASKS: [(&str, u64); 8] = [
        ("text", 0x01),
        ("textContains", 0x02),
        ("textMatches", 0x04),
        ("className", 0x10),
        ("description", 0x40),
        ("clickable", 0x1000),
        ("resourceId", 0x20_0000),
        ("instance", 0x0100_0000),
    ];
    let mut object = fields.as_object().unwrap().clone();
    let mask = object
        .keys()
        .map(|k| MASKS.iter().find(|(n, _)| n == k).unwrap().1)
        .sum::<u64>();
    object.insert("mask".into(), json!(mask));
    object.insert("childOrSibling".into(), json!([]));
    object.insert("childOrSiblingSelector".into(), json!([]));
    Value::Object(object)
}

fn pruned_text(xml: &str) -> String {
    let tree = parse_str(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    yaml(&prune_with_version(
        &tree,
        &PruneRules::default(),
        "v1".into(),
    ))
}

fn dump(phone: &SimPhone<VirtualClock>) -> String {
    result(phone, "dumpWindowHierarchy", json!([false, 50]))
        .as_str()
        .unwrap()
        .to_owned()
}

/// The middle of the node `label` names, as the sim's own view (`Sim::xml`) has it.
fn center_of(phone: &SimPhone<VirtualClock>, label: &str) -> Point {
    let tree = parse_str(&phone.sim().xml()).unwrap();
    let node = tree
        .nodes
        .iter()
        .find(|n| n.text == label || n.desc == label)
        .unwrap_or_else(|| panic!("no {label:?}"));
    Point::center_of(&node.bounds)
}

fn go_to(phone: &SimPhone<VirtualClock>, clock: &VirtualClock, screen: &str) {
    let mut sim = phone.sim();
    sim.current = sim.screens.iter().position(|s| s.name == screen).unwrap();
    sim.anim = None;
    drop(sim);
    clock.clone().sleep(Duration::from_secs(3));
}

#[test]
fn ping_answers_pong_and_the_connection_stays_open_unless_asked() {
    let (phone, _) = phone(Profile::Instant);
    let mut connection = U2Connection::new();
    let (bytes, close) = connection.received(&phone, b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(!close);
    let got = answers(&bytes);
    assert_eq!(got[0].status, "HTTP/1.1 200 OK ");
    assert_eq!(got[0].body, b"pong");
    assert_eq!(got[0].header("Connection"), Some("keep-alive"));
    // Two more on the same connection, the second asking to close.
    let (bytes, close) = connection.received(
        &phone,
        b"GET /ping HTTP/1.1\r\n\r\nGET /ping HTTP/1.1\r\nConnection: close\r\n\r\nGET /ping HTTP/1.1\r\n\r\n",
    );
    assert!(close);
    let got = answers(&bytes);
    assert_eq!(got.len(), 2, "nothing after the request that closed");
    assert_eq!(got[1].header("Connection"), Some("close"));
    assert_eq!(
        connection.received(&phone, b"GET /ping HTTP/1.1\r\n\r\n"),
        (Vec::new(), true)
    );
    let (bytes, close) =
        U2Connection::new().received(&phone, b"GET /screenshot/1 HTTP/1.0\r\n\r\n");
    assert!(close, "HTTP/1.0 closes");
    assert!(answers(&bytes)[0].status.starts_with("HTTP/1.1 404"));
}

#[test]
fn a_request_split_byte_by_byte_gets_the_same_answer() {
    let (phone, _) = phone(Profile::Instant);
    let request = post("deviceInfo", &json!({}));
    let (whole, _) = U2Connection::new().received(&phone, &request);
    let mut connection = U2Connection::new();
    let mut split = Vec::new();
    for (k, byte) in request.iter().enumerate() {
        let (bytes, close) = connection.received(&phone, std::slice::from_ref(byte));
        assert!(!close);
        if k + 1 < request.len() {
            assert!(
                bytes.is_empty(),
                "an answer before the request ended, at byte {k}"
            );
        }
        split.extend(bytes);
    }
    assert_eq!(split, whole);
    let info = answers(&whole)[0].json()["result"].clone();
    assert_eq!(
        info,
        json!({
            "currentPackageName": "com.google.android.apps.nexuslauncher",
            "displayHeight": 2400, "displayRotation": 0, "displaySizeDpX": 411,
            "displaySizeDpY": 914, "displayWidth": 1080, "naturalOrientation": true,
            "productName": "tapscope_sim", "screenOn": true, "sdkInt": 34,
        })
    );
}

#[test]
fn the_dump_prunes_to_what_the_stock_dump_does_on_every_kind_of_screen() {
    let (phone, clock) = phone(Profile::Instant);
    let same = |what: &str| {
        let stock = phone.sim().xml();
        let u2 = dump(&phone);
        assert_eq!(pruned_text(&u2), pruned_text(&stock), "{what}\n{u2}");
        u2
    };
    let launcher = same("the launcher");
    assert!(launcher.starts_with(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\">\r\n  <node index=\"0\" text=\"\""
    ));
    assert!(
        launcher.ends_with("\r\n  </node>\r\n</hierarchy>"),
        "{launcher}"
    );
    assert!(launcher.contains(
        "visible-to-user=\"true\" bounds=\"[0,0][1080,2400]\" drawing-order=\"0\" hint=\"\" display-id=\"0\">"
    ));
    assert!(
        !launcher.contains('\n')
            || launcher.matches('\n').count() == launcher.matches("\r\n").count()
    );

    go_to(&phone, &clock, "feed");
    same("the feed");
    phone
        .sim()
        .swipe(Point::new(540, 1500), Point::new(540, 700), ms(200))
        .unwrap();
    clock.clone().sleep(ms(120));
    assert!(
        phone
            .sim()
            .animation_end()
            .is_some_and(|end| end > clock.now())
    );
    let mid = same("the feed mid-scroll");
    clock.clone().sleep(Duration::from_secs(3));
    assert_ne!(
        mid,
        dump(&phone),
        "the dump is a snapshot, not an idle wait"
    );

    go_to(&phone, &clock, "search");
    let search = same("search with the keyboard");
    assert!(search.contains("package=\"com.google.android.inputmethod.latin\""));
    assert!(search.contains("text=\"Search videos\""));
    assert!(search.contains("hint=\"Search videos\""));

    // Typed, the field still has its hint: u2 says so, as a phone's does; the stock
    // dump writes no hint.
    phone.sim().input_text("cello").unwrap();
    let typed = pruned_text(&dump(&phone));
    assert!(typed.contains("hint: \"Search videos\""), "{typed}");
    assert_eq!(
        typed.replace(" hint: \"Search videos\"", ""),
        pruned_text(&phone.sim().xml())
    );

    let roots = result(&phone, "dumpWindowHierarchy", json!([false, 0]));
    assert_eq!(
        roots.as_str().unwrap().matches("<node ").count(),
        3,
        "a root a window"
    );
    let active = result(&phone, "dumpWindowHierarchy", json!([true, 50, true]));
    assert!(!active.as_str().unwrap().contains("inputmethod"));
}

#[test]
fn a_click_on_a_nodes_center_changes_the_screen_as_a_tap_does() {
    let (mut tapped, _) = phone(Profile::Instant);
    let at = center_of(&tapped, "TapTube");
    tapped.tap(at).unwrap();

    let (clicked, clock) = phone(Profile::Instant);
    let start = clock.now();
    assert_eq!(
        result(&clicked, "click", json!([at.x as f64 + 0.4, at.y])),
        json!(true)
    );
    assert_eq!(clock.now() - start, ms(100), "the touch is held 100 ms");
    assert_eq!(clicked.sim().screen_name(), "feed");
    assert_eq!(clicked.sim().settled_xml(), tapped.sim().settled_xml());

    assert_eq!(result(&clicked, "click", json!([-1, 10])), json!(false));
    assert_eq!(
        result(&clicked, "click", json!([5000, 10])),
        json!(true),
        "lands nowhere"
    );
}

#[test]
fn swipes_take_five_ms_a_step_and_keys_wait_for_the_screen_to_answer() {
    let (phone, clock) = phone(Profile::Instant);
    go_to(&phone, &clock, "feed");
    let before = phone.sim().settled_xml();
    let start = clock.now();
    assert_eq!(
        result(&phone, "swipe", json!([540, 1500, 540, 700, 55])),
        json!(true)
    );
    assert_eq!(clock.now() - start, ms(275));
    assert_ne!(phone.sim().settled_xml(), before, "the list scrolled");

    // Home from the feed slides back to the launcher: the event comes at once.
    let start = clock.now();
    assert_eq!(result(&phone, "pressKey", json!(["home"])), json!(true));
    assert_eq!(clock.now() - start, Duration::ZERO);
    assert_eq!(phone.sim().screen_name(), "launcher");
    clock.clone().sleep(Duration::from_secs(3));
    // Home on the launcher changes nothing: `pressHome` gives up after 1 s.
    let start = clock.now();
    assert_eq!(result(&phone, "pressKey", json!(["home"])), json!(false));
    assert_eq!(clock.now() - start, Duration::from_secs(1));
    assert_eq!(
        result(&phone, "pressKey", json!(["volume_up"])),
        json!(true)
    );
    assert_eq!(result(&phone, "pressKey", json!(["warp"])), json!(false));

    go_to(&phone, &clock, "search");
    assert_eq!(result(&phone, "pressKeyCode", json!([31])), json!(true)); // KEYCODE_C
    assert_eq!(result(&phone, "pressKeyCode", json!([36, 1])), json!(true)); // shift+H
    let typed = dump(&phone);
    assert!(typed.contains("text=\"cH\""), "{typed}");
}

#[test]
fn an_oversized_request_is_refused_before_its_body_is_read() {
    let (phone, _) = phone(Profile::Instant);
    let mut connection = U2Connection::new();
    let head = format!(
        "POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
        u64::MAX / 2
    );
    let (bytes, close) = connection.received(&phone, head.as_bytes());
    assert!(close);
    assert!(answers(&bytes)[0].status.starts_with("HTTP/1.1 413"));
    let chunk = vec![b'{'; 1 << 16];
    for _ in 0..64 {
        assert_eq!(connection.received(&phone, &chunk), (Vec::new(), true));
    }
    assert_eq!(connection.reader.held(), 0, "nothing of the body kept");

    // A head that never ends is refused once it passes 8 KiB.
    let mut endless = U2Connection::new();
    let mut refused = None;
    for k in 0..100 {
        let (bytes, close) = endless.received(&phone, &[b'x'; 1000]);
        if close {
            refused = Some((k, bytes));
            break;
        }
        assert!(endless.reader.held() <= super::http::MAX_HEAD + 4);
    }
    let (k, bytes) = refused.expect("refused");
    assert_eq!(k, 8);
    assert!(answers(&bytes)[0].status.starts_with("HTTP/1.1 431"));
    assert_eq!(endless.reader.held(), 0);
    let (bytes, close) = U2Connection::new().received(&phone, b"\x16\x03\x01 garbage\r\n\r\n");
    assert!(close);
    assert!(answers(&bytes)[0].status.starts_with("HTTP/1.1 400"));
}

#[test]
fn calls_cost_what_the_phone_profile_says() {
    let (phone, clock) = phone(Profile::Phone);
    let start = clock.now();
    result(&phone, "deviceInfo", json!([]));
    let took = clock.now() - start;
    assert!((ms(10)..=ms(20)).contains(&took), "{took:?}");
    let nodes = phone.sim().xml().matches("<node ").count() as u64;
    let start = clock.now();
    let xml = dump(&phone);
    let took = clock.now() - start;
    assert_eq!(xml.matches("<node ").count() as u64, nodes);
    let serialize = ms(nodes / 2);
    assert!(
        took >= ms(10) + serialize && took <= ms(20) + serialize + ms(1),
        "{took:?}"
    );
    assert!(took < ms(100), "under 100 ms a dump: {took:?}");
}

#[test]
fn a_phone_looking_through_u2_dumps_a_snapshot_and_holds_ui_automation() {
    let (phone, clock) = phone(Profile::Phone);
    let mut phone = phone.looking_through(LookBackend::U2).unwrap();
    assert_eq!(phone.look_backend(), LookBackend::U2);
    assert_eq!(phone.dumps(), Dumps::Snapshot);
    assert_eq!(phone.ui_client(), Some(UiClient::Helper));
    assert_eq!(
        phone.uiautomator_dump(Duration::from_secs(20), &|| false),
        Err(UiAutomationError::Busy(UiClient::Helper))
    );
    let at = center_of(&phone, "TapTube");
    phone.tap(at).unwrap();
    clock.clone().sleep(ms(300));
    let start = clock.now();
    let sliding = phone.dump().unwrap();
    assert!(clock.now() - start < ms(100), "no idle wait");
    // Mid-slide, the server clips each node to the display as Android does; the sim's
    // own view does not, so only the list's summary of what is off it differs.
    let without_more = |text: String| {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("more:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        without_more(pruned_text(&sliding)),
        without_more(pruned_text(&phone.sim().xml())),
        "the frame mid-launch"
    );
    clock.clone().sleep(Duration::from_secs(3));
    let settled = phone.dump().unwrap();
    assert_ne!(sliding, settled);
    assert_eq!(pruned_text(&settled), pruned_text(&phone.sim().xml()));

    let (stock, _) = self::phone(Profile::Instant);
    let stock = stock.looking_through(LookBackend::Stock).unwrap();
    assert!(matches!(stock.dumps(), Dumps::AfterIdle { .. }));
    assert_eq!(stock.look(), LookBackend::Stock);
    let portal = self::phone(Profile::Instant)
        .0
        .looking_through(LookBackend::Portal);
    let why = portal.unwrap_err().to_string();
    assert!(
        why.contains("droidrun's Portal") && why.contains("u2"),
        "{why}"
    );
}

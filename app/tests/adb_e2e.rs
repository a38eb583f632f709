//! End to end through Debian's real `adb` server: `tapscope sim --adb` serves the sim as an
//! ADB device, a private adb server connects to it, and `tapscope serve --device SERIAL`
//! drives it over ADB for an MCP client: observe, a tap by handle that reaches the sim as
//! `input tap` at the node's tap point, a stale refusal, scrolling to the end, the
//! screenshot fallback, `tapscope devices`, a dump pulled by `adb pull`, and the sim
//! stopped mid-call.

use std::process::Command;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::ClientConfig;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use tapscope_tests::adb::{PrivateAdb, text as output_text};
use tapscope_tests::child::Running;

mod common;

use common::{STALE, ask, handle_of, handle_where, ok, refused, text};

const OBSERVE: &str = "screen_operation_accessibility";
const PATIENCE: Duration = Duration::from_secs(60);

fn tapscope(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tapscope"));
    command.args(args).env_remove("TAPSCOPE_TOKEN");
    command
}

/// `tapscope sim --adb` on a free loopback port, logging the commands it runs, connected
/// to the private adb server.
fn sim_on(adb: &PrivateAdb) -> (Running, String) {
    let mut sim = Running::spawn(tapscope(&["sim", "--adb", "127.0.0.1:0", "--verbose"]));
    let serial = sim
        .address_after(" is an ADB device at ", PATIENCE)
        .to_string();
    adb.connect(&serial);
    (sim, serial)
}

async fn client(url: String) -> RunningService<RoleClient, ClientConfig> {
    let config = StreamableHttpClientTransportConfig::with_uri(url);
    ClientConfig::default()
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("the client initializes")
}

/// The display point in an act's "acted on: … at (X, Y)" line.
fn tapped_at(result: &str) -> (i32, i32) {
    let at = result
        .lines()
        .find_map(|l| l.strip_prefix("acted on: "))
        .and_then(|l| l.rsplit_once(" at ("))
        .map(|(_, point)| point.trim_end_matches(')').to_owned())
        .unwrap_or_else(|| panic!("no point in {result}"));
    let (x, y) = at.split_once(", ").expect("x, y");
    (x.parse().expect("x"), y.parse().expect("y"))
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_drives_the_sim_through_the_real_adb_server() {
    let adb = PrivateAdb::start();
    let (mut sim, serial) = sim_on(&adb);

    let devices = adb
        .environment(&mut tapscope(&["devices"]))
        .output()
        .expect("tapscope devices runs");
    let listed = output_text(&devices.stdout);
    assert!(devices.status.success(), "{listed}");
    let line = listed
        .lines()
        .find(|l| l.starts_with(&serial))
        .unwrap_or_else(|| panic!("{serial} not in\n{listed}"));
    assert!(
        line.contains(" device ") && line.contains("tapscope_sim"),
        "{line}"
    );

    let mut serve = {
        let mut command = tapscope(&["serve", "--device", &serial, "--http", "127.0.0.1:0"]);
        adb.environment(&mut command);
        Running::spawn(command)
    };
    let addr = serve.address_after("streamable HTTP at ", PATIENCE);
    let client = client(format!("http://{addr}/mcp")).await;

    let home = ok(&client, OBSERVE, json!({})).await;
    assert!(home.contains("\"TapTube\""), "{home}");
    let tapped = ok(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
    // One stock dump settled it, and the sim got `input tap` at the node's tap point.
    assert!(tapped.contains(r#""dumps":1"#), "{tapped}");
    assert!(tapped.contains(r#""decided_by":"idle-dump""#), "{tapped}");
    let (x, y) = tapped_at(&tapped);
    let sent = format!("$ input tap {x} {y}");
    sim.wait_for(PATIENCE, |l| l.contains(&sent).then_some(()));
    // A stock dump holds only what is on the display, so no `more:` line: the list itself.
    assert!(
        tapped.contains(" list #feed "),
        "the feed came back: {tapped}"
    );

    let stale = refused(
        &client,
        "tap",
        json!({ "target": handle_of(&home, "TapTube") }),
    )
    .await;
    assert_eq!(stale, STALE);

    let mut tree = tapped;
    let mut scrolls = 0;
    while !tree.contains("its end is reached") {
        scrolls += 1;
        assert!(scrolls <= 30, "the feed never ended:\n{tree}");
        let list = handle_where(&tree, |l| l.contains(" list ") && l.contains(" scroll"));
        tree = ok(
            &client,
            "scroll",
            json!({ "target": list, "direction": "down" }),
        )
        .await;
    }
    assert!(scrolls > 1, "{tree}");

    let game = ask(
        &client,
        "launch_app",
        json!({ "package": "tv.tapscope.blocks" }),
    )
    .await;
    let game_text = text(&game);
    assert_ne!(game.is_error, Some(true), "{game_text}");
    assert!(game_text.contains("fallback: screenshot"), "{game_text}");
    assert!(
        game.content
            .iter()
            .filter_map(|c| c.as_image())
            .any(|image| image.mime_type == "image/png"),
        "the screenshot comes with the tree"
    );

    // A person's adb beside the agent: a dump to the phone's file, pulled by the sync
    // protocol, is a dump tapscope reads.
    let dumped = adb.on(&serial, &["shell", "uiautomator", "dump"]);
    assert_eq!(
        output_text(&dumped.stdout),
        "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    );
    let pulled = adb.home().join("window_dump.xml");
    let pull = adb.on(
        &serial,
        &["pull", "/sdcard/window_dump.xml", pulled.to_str().unwrap()],
    );
    assert!(pull.status.success(), "{pull:?}");
    let pruned = tapscope(&["prune", pulled.to_str().unwrap()])
        .output()
        .expect("tapscope prune runs");
    assert!(pruned.status.success(), "{pruned:?}");
    assert!(output_text(&pruned.stdout).contains("fallback: screenshot"));

    // The sim stops while a call is on it: the agent is told, the server goes on.
    let pressing = {
        let client = client.peer().clone();
        tokio::spawn(async move { ask(&client, "press_key", json!({ "key": "back" })).await })
    };
    sim.wait_for(PATIENCE, |l| l.contains("$ input keyevent 4").then_some(()));
    sim.child.kill().expect("the sim stops");
    let pressed = pressing.await.expect("the call returns");
    let said = text(&pressed);
    assert_eq!(pressed.is_error, Some(true), "{said}");
    assert!(said.contains(&serial) || said.contains("device"), "{said}");
    assert!(serve.is_running());
    assert!(
        ok(&client, "load_skill", json!({}))
            .await
            .contains("screen_operation_accessibility")
    );
    let gone = refused(&client, OBSERVE, json!({})).await;
    assert!(gone.contains(&serial) || gone.contains("device"), "{gone}");
}

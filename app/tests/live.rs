//! Live mode on the sim, driven as a person would with egui_kittest: a click on the
//! screenshot taps the phone and the screen follows once it settles; Back goes back; with
//! the MCP server running, clicks tap only after "Take over" and every step, the agent's
//! and the person's, shows on the timeline as it happens; a phone that disconnects is a
//! message, and the workbench goes on.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod common;

use common::unpluggable::Unpluggable;
use egui::pos2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use tapscope::gui::Workbench;
use tapscope::mcp::gate::CHANGED;
use tapscope::mcp::{PhoneServer, ServedClock, ServedDevice};
use tapscope_core::device::sim::Sim;

use tapscope_core::model::Flags;
use tapscope_core::recording::{self, Actor};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::VirtualClock;

const OBSERVE: &str = "screen_operation_accessibility";

/// The centre of TapTube's launcher icon, in display pixels (its bounds: 40..280 × 300..560).
const TAPTUBE: egui::Pos2 = pos2(160.0, 430.0);

/// A workbench with nothing open.
fn harness() -> Harness<'static, Workbench> {
    Harness::builder()
        .with_size(egui::vec2(1600.0, 960.0))
        .build_ui_state(
            |ui, workbench: &mut Workbench| workbench.ui(ui),
            Workbench::new(),
        )
}

/// A test's recording folder, removed when the test ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A workbench showing the sim live, on a virtual clock so settling takes no real time,
/// recording into the scratch folder `name`.
fn live_harness(name: &str) -> (Harness<'static, Workbench>, Scratch) {
    let clock = VirtualClock::default();
    let session = Session::new(Sim::new(clock.clone(), 1), clock, SessionConfig::default());
    let scratch = Scratch(common::temp_dir(name));
    let mut harness = harness();
    harness.state_mut().live.record = scratch.0.display().to_string();
    attach(&mut harness, PhoneServer::new(session));
    (harness, scratch)
}

/// Shows `phone` live and waits for its first screen.
fn attach<D: ServedDevice, C: ServedClock>(
    harness: &mut Harness<'static, Workbench>,
    phone: PhoneServer<D, C>,
) {
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .live
        .attach(&ctx, "sim", Arc::new(phone));
    until(harness, "the live screen shows the launcher", |w| {
        shows(w, "TapTube")
    });
}

/// Whether the current document is the live screen and its dump has `text`.
fn shows(workbench: &Workbench, text: &str) -> bool {
    workbench
        .document()
        .is_some_and(|d| d.name == "live: sim" && d.text.contains(text))
        && workbench.analysis.is_some()
}

/// Runs frames until `done`, failing with `what` after a few seconds.
fn until(harness: &mut Harness<'_, Workbench>, what: &str, done: impl Fn(&Workbench) -> bool) {
    let started = Instant::now();
    while !done(harness.state()) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "timed out waiting until {what}; the panel says: {:?}",
            harness.state().live.error()
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.step();
}

/// Starts the MCP server from the panel on a free port; returns its URL.
fn start_server(harness: &mut Harness<'_, Workbench>) -> String {
    harness.state_mut().live.port = "0".into();
    harness.get_by_label("Start server").click();
    until(harness, "the server runs", |w| w.live.serving().is_some());
    harness.state().live.serving().expect("serving").to_owned()
}

fn click_screen_at(harness: &mut Harness<'_, Workbench>, display: egui::Pos2) {
    let state = harness.state();
    let at = state
        .screen
        .display_to_screen(state.document().expect("a document"), display)
        .expect("the screen pane drew the display");
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.step();
}

#[test]
fn a_click_on_the_screen_taps_the_phone_and_back_returns() {
    let (mut harness, scratch) = live_harness("live-click");
    assert!(
        harness.state().screen.touch,
        "no server: the person may act"
    );
    click_screen_at(&mut harness, TAPTUBE);
    until(&mut harness, "the feed is shown after the tap", |w| {
        shows(w, "Search videos")
    });
    let in_pane = harness.query_all_by_label_contains("] \"Search videos\"");
    assert!(in_pane.count() > 0, "the pruned pane shows the feed");

    harness.get_by_label("Back").click();
    until(&mut harness, "Back returns to the launcher", |w| {
        shows(w, "TapTube") && !shows(w, "Search videos")
    });

    // Every person's action is recorded as theirs, and shows on the timeline.
    until(&mut harness, "the person's steps on the timeline", |w| {
        w.timeline_step().is_some_and(|s| s.step.step == 3)
    });
    harness.get_by_label(&format!("timeline step 1: {OBSERVE}, ok, by the person"));
    harness.get_by_label("timeline step 2: tap, ok, by the person");
    harness.get_by_label("timeline step 3: press_key, ok, by the person");
    let recorded = recording::read(&scratch.0).expect("the recording reads");
    assert!(recorded.steps.iter().all(|s| s.actor == Actor::Person));
}

#[test]
fn typing_goes_through_the_text_field() {
    let (mut harness, _scratch) = live_harness("live-typing");
    click_screen_at(&mut harness, TAPTUBE);
    until(&mut harness, "the feed", |w| shows(w, "Search videos"));
    let search = harness
        .state()
        .document()
        .and_then(|d| d.tree.nodes.iter().find(|n| n.text == "Search videos"))
        .map(|n| n.bounds.center())
        .expect("the search field");
    click_screen_at(&mut harness, pos2(search.0 as f32, search.1 as f32));
    until(&mut harness, "a focused field", |w| {
        w.document()
            .is_some_and(|d| d.tree.nodes.iter().any(|n| n.has(Flags::FOCUSED)))
    });
    harness.get_by_label("Text to type").type_text("cello");
    harness.step();
    harness.get_by_label("Type").click();
    until(&mut harness, "the typed text", |w| shows(w, "cello"));
}

#[test]
fn the_panel_serves_agents_whose_steps_show_live_and_take_over_pauses_them() {
    let (mut harness, scratch) = live_harness("live-serve");
    let dir = scratch.0.clone();
    let url = start_server(&mut harness);
    harness.step();
    // The session was recorded from the start; the server shares that recording.
    harness.get_by_label(&format!("Recording to {}", dir.display()));
    assert!(
        !harness.state().screen.touch,
        "agents drive: clicks inspect"
    );

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let agent = runtime.block_on(async {
        let transport = StreamableHttpClientTransport::from_uri(url);
        ().serve(transport).await.expect("the agent connects")
    });
    let home = runtime.block_on(common::ok(&agent, OBSERVE, json!({})));
    let target = common::handle_of(&home, "TapTube");
    runtime.block_on(common::ok(&agent, "tap", json!({ "target": target })));
    until(&mut harness, "the agent's step shows live", |w| {
        shows(w, "Search videos")
    });
    until(&mut harness, "the agent's tap is on the timeline", |w| {
        w.timeline_step().is_some_and(|s| s.step.tool == "tap")
    });
    harness.get_by_label(&format!("timeline step 1: {OBSERVE}, ok, by the person"));
    harness.get_by_label(&format!("timeline step 2: {OBSERVE}, ok"));
    harness.get_by_label("timeline step 3: tap, ok");

    harness.get_by_label("Take over").click();
    until(&mut harness, "the person may act", |w| w.screen.touch);
    let peer = agent.peer().clone();
    let waiting = runtime
        .spawn(async move { common::ask(&peer, "press_key", json!({ "key": "home" })).await });
    std::thread::sleep(Duration::from_millis(300));
    assert!(!waiting.is_finished(), "the agent waits");
    until(&mut harness, "the panel counts the waiting call", |w| {
        w.live.agents().now == 1
    });
    harness.get_by_label("1 agent call waiting for you to hand back");
    harness.get_by_label("Back").click();
    until(&mut harness, "the person's Back shows the launcher", |w| {
        shows(w, "TapTube") && !shows(w, "Search videos")
    });
    harness.get_by_label("Hand back").click();
    harness.step();
    let answered = runtime
        .block_on(waiting)
        .expect("the agent's call answered");
    assert!(
        common::text(&answered).starts_with(CHANGED),
        "{}",
        common::text(&answered)
    );
    until(&mut harness, "the agent's step after the person's", |w| {
        w.timeline_step().is_some_and(|s| s.step.step == 5)
    });
    harness.get_by_label("timeline step 4: press_key, ok, by the person");
    harness.get_by_label("timeline step 5: press_key, ok");

    // A cell opens its step: the agent's tap, with the step panel.
    harness.get_by_label("timeline step 3: tap, ok").click();
    harness.step();
    let tap = harness.state().step().expect("a step on show");
    assert_eq!((tap.step.step, tap.step.tool.as_str()), (3, "tap"));
    assert!(tap.recording.recording.dir.ends_with(&dir));

    // An agent's step while the person reads an earlier one: they stay on it, drawn whole
    // in every frame while the timeline grows.
    runtime.block_on(common::ok(&agent, OBSERVE, json!({})));
    let started = Instant::now();
    loop {
        harness.step();
        let workbench = harness.state();
        let on_show = workbench.step().expect("a step on show");
        assert_eq!(on_show.step.step, 3, "the person stays on the agent's tap");
        // A step's document exists only while its screen is in memory.
        assert!(
            workbench.document().is_some() && workbench.analysis.is_some(),
            "the step on show is drawn in every frame"
        );
        if on_show.steps().len() == 6 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the agent's step never reached the timeline"
        );
        std::thread::sleep(Duration::from_millis(10));
    }

    let recorded = recording::read(&dir).expect("the recording reads");
    let steps: Vec<(Actor, &str)> = recorded
        .steps
        .iter()
        .map(|s| (s.actor, s.tool.as_str()))
        .collect();
    assert_eq!(
        steps,
        [
            (Actor::Person, OBSERVE),
            (Actor::Agent, OBSERVE),
            (Actor::Agent, "tap"),
            (Actor::Person, "press_key"),
            (Actor::Agent, "press_key"),
            (Actor::Agent, OBSERVE),
        ]
    );
    drop(agent);
}

#[test]
fn an_agent_that_disconnects_while_paused_is_a_note_and_the_server_goes_on() {
    let (mut harness, _scratch) = live_harness("live-leave");
    let url = start_server(&mut harness);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let connect = |url: &str| {
        runtime.block_on(async {
            let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
            ().serve(transport).await.expect("the agent connects")
        })
    };
    let leaving = connect(&url);
    runtime.block_on(common::ok(&leaving, OBSERVE, json!({})));
    harness.get_by_label("Take over").click();
    until(&mut harness, "the person holds the phone", |w| {
        w.screen.touch
    });
    let peer = leaving.peer().clone();
    let call = runtime
        .spawn(async move { common::ask(&peer, "press_key", json!({ "key": "home" })).await });
    until(&mut harness, "the call waits", |w| w.live.agents().now == 1);

    call.abort();
    runtime
        .block_on(leaving.cancel())
        .expect("the agent disconnects");
    until(&mut harness, "the panel says the agent left", |w| {
        w.live.agents().left == 1
    });
    let note = harness.state().live.note().expect("a note").to_owned();
    assert!(
        note.contains("disconnected while you held the phone"),
        "{note}"
    );
    harness.get_by_label(&note);
    assert_eq!(harness.state().live.agents().now, 0);

    // The workbench and the server go on: a new agent is served after the hand-back.
    harness.get_by_label("Hand back").click();
    harness.step();
    let next = connect(&url);
    let screen = runtime.block_on(common::ok(&next, OBSERVE, json!({})));
    assert!(screen.contains("TapTube"), "{screen}");
    drop(next);
}

#[test]
fn a_phone_opened_without_a_folder_is_recorded_into_a_new_temporary_one() {
    let clock = VirtualClock::default();
    let session = Session::new(Sim::new(clock.clone(), 1), clock, SessionConfig::default());
    let mut harness = harness();
    attach(&mut harness, PhoneServer::new(session));
    let dir = harness.state().live.recording().expect("a recording");
    let scratch = Scratch(dir.to_owned());
    let temp = std::env::temp_dir().join("tapscope-live");
    assert!(scratch.0.starts_with(temp), "{}", scratch.0.display());
    assert!(scratch.0.join(recording::SESSION_FILE).is_file());
    harness.get_by_label(&format!("Recording to {}", scratch.0.display()));
}

#[test]
fn a_phone_that_disconnects_is_a_message_and_comes_back_on_refresh() {
    let plugged = Arc::new(AtomicBool::new(true));
    let clock = VirtualClock::default();
    let device = Unpluggable {
        sim: Sim::new(clock.clone(), 1),
        plugged: Arc::clone(&plugged),
    };
    let session = Session::new(device, clock, SessionConfig::default());
    let mut harness = harness();
    let scratch = Scratch(common::temp_dir("live-unplugged"));
    harness.state_mut().live.record = scratch.0.display().to_string();
    attach(&mut harness, PhoneServer::new(session));

    plugged.store(false, Ordering::SeqCst);
    harness.get_by_label("Back").click();
    until(&mut harness, "the panel explains", |w| {
        w.live.error().is_some()
    });
    let error = harness.state().live.error().expect("a message").to_owned();
    assert!(error.contains("the device disconnected"), "{error}");
    assert!(error.contains("connect again"), "{error}");
    harness.get_by_label_contains("the phone did not answer");
    assert!(shows(harness.state(), "TapTube"), "the last screen stays");

    plugged.store(true, Ordering::SeqCst);
    harness.get_by_label("Refresh").click();
    until(&mut harness, "the phone answers again", |w| {
        w.live.error().is_none() && shows(w, "TapTube")
    });
}

#[test]
fn a_phone_that_cannot_be_opened_is_a_message_in_the_panel() {
    let mut harness = harness();
    let ctx = harness.ctx.clone();
    let live = &mut harness.state_mut().live;
    live.device = "no-such-serial".into();
    live.connect(&ctx);
    until(&mut harness, "the panel explains", |w| {
        w.live.error().is_some()
    });
    let error = harness.state().live.error().expect("a message").to_owned();
    assert!(error.to_lowercase().contains("adb"), "{error}");
    harness.get_by_label_contains(&error);
    harness.get_by_label("Connect");
}

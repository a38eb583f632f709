//! A person takes the phone over from an agent and hands it back, over a real MCP client in
//! this process: the agent's call waits, the person's tap is recorded as theirs, the agent
//! hears that the screen changed, a call that waits too long gets a clear error, and an
//! agent that leaves while paused does not wedge the server.

mod common;

use std::time::Duration;

use common::{STALE, ask, handle_of, ok, refused, temp_dir, text};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use tapscope::journal::Journal;
use tapscope::mcp::PhoneServer;
use tapscope::mcp::gate::{CHANGED, HELD, Waiting};
use tapscope_core::device::sim::Sim;
use tapscope_core::recording::{self, Actor, StepOutcome};
use tapscope_core::session::{Action, Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};

const OBSERVE: &str = "screen_operation_accessibility";
type Server = PhoneServer<Sim<VirtualClock>, VirtualClock>;

/// The server on the sim (virtual clock), whose waiting calls give up after `patience`.
fn server(record: &std::path::Path, patience: Duration) -> Server {
    let clock = VirtualClock::default();
    let session = Session::new(
        Sim::new(clock.clone(), 1),
        clock.clone(),
        SessionConfig::default(),
    );
    let journal = Journal::create(record, "sim", clock.now()).expect("the recording starts");
    PhoneServer::new(session)
        .with_journal(journal)
        .with_patience(patience)
}

/// A new MCP client of `server` (a clone: the same session, journal and gate).
async fn connect(server: &Server) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 22);
    let server = server.clone();
    tokio::spawn(async move {
        if let Ok(service) = server.serve(server_io).await {
            let _ = service.waiting().await;
        }
    });
    ().serve(client_io).await.expect("the client initializes")
}

/// Polls the gate until its count of waiting calls is as `wanted` says (10 s at most).
async fn waiting_calls(server: &Server, wanted: impl Fn(&Waiting) -> bool) {
    let started = std::time::Instant::now();
    loop {
        let waiting = server.gate().waiting();
        if wanted(&waiting) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the gate still counts {waiting:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The person's action, off the async threads (it blocks while the device settles).
async fn person(server: &Server, action: Action) -> tapscope_core::session::Outcome {
    let server = server.clone();
    tokio::task::spawn_blocking(move || server.person_act(&action))
        .await
        .expect("the person's action ran")
        .unwrap_or_else(|f| panic!("the person's action failed: {}", f.message()))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_takes_over_acts_and_hands_back() {
    let (dir, server, agent, home) = taken_over("takeover", Duration::from_secs(30)).await;
    let taptube = handle_of(&home, "TapTube");
    assert!(server.is_held());
    let peer = agent.peer().clone();
    let target = taptube.clone();
    let waiting = tokio::spawn(async move { ask(&peer, "tap", json!({ "target": target })).await });
    waiting_calls(&server, |w| w.now == 1).await;
    assert!(
        !waiting.is_finished(),
        "the agent's call waits for the person"
    );

    // The person acts on the same session while the agent waits.
    let latest = server.latest().expect("the agent observed");
    let icon = latest
        .handle_where(|n| n.label == "TapTube")
        .expect("TapTube on the launcher");
    let outcome = person(&server, Action::Tap(icon)).await;
    assert!(
        outcome.observation.text.contains("Search videos"),
        "the person's tap opened the feed:\n{}",
        outcome.observation.text
    );
    assert_ne!(outcome.observation.version, latest.version, "a new version");
    assert!(!waiting.is_finished(), "still waiting until the hand-back");

    server.hand_back();
    let answered = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the waiting call proceeds after the hand-back")
        .expect("the call's task ran");
    let answer = text(&answered);
    assert_eq!(answered.is_error, Some(true), "{answer}");
    assert!(
        answer.starts_with(CHANGED),
        "told a person changed it: {answer}"
    );
    assert!(answer.contains(STALE), "its old handle is stale: {answer}");

    let feed = ok(&agent, OBSERVE, json!({})).await;
    assert!(!feed.contains(CHANGED), "told once only:\n{feed}");
    assert!(feed.contains("Search videos"), "{feed}");

    let recorded = recording::read(&dir).expect("the recording reads");
    let steps: Vec<(Actor, &str, StepOutcome)> = recorded
        .steps
        .iter()
        .map(|s| (s.actor, s.tool.as_str(), s.outcome))
        .collect();
    assert_eq!(
        steps,
        [
            (Actor::Agent, OBSERVE, StepOutcome::Ok),
            (Actor::Person, "tap", StepOutcome::Ok),
            (Actor::Agent, "tap", StepOutcome::Refused),
            (Actor::Agent, OBSERVE, StepOutcome::Ok),
        ]
    );
    let tap = &recorded.steps[1];
    assert_eq!(tap.version_before.as_deref(), Some(latest.version.as_str()));
    assert!(tap.handle.is_some() && tap.acted_on.is_some(), "{tap:?}");
    assert!(recorded.steps[2].message.starts_with(CHANGED));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recording server, an agent that has observed (its tree returned), and a person who
/// took the phone over.
async fn taken_over(
    name: &str,
    patience: Duration,
) -> (
    std::path::PathBuf,
    Server,
    RunningService<RoleClient, ()>,
    String,
) {
    let dir = temp_dir(name);
    let server = server(&dir, patience);
    let agent = connect(&server).await;
    let home = ok(&agent, OBSERVE, json!({})).await;
    server.take_over();
    (dir, server, agent, home)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_that_waits_too_long_is_told_why() {
    let (dir, server, agent, _) = taken_over("takeover-timeout", Duration::from_millis(400)).await;
    let started = std::time::Instant::now();
    let message = refused(&agent, OBSERVE, json!({})).await;
    assert_eq!(message, HELD);
    assert!(started.elapsed() >= Duration::from_millis(400));
    server.hand_back();
    ok(&agent, OBSERVE, json!({})).await;
    let recorded = recording::read(&dir).expect("the recording reads");
    let refusal = &recorded.steps[1];
    assert_eq!(
        (refusal.actor, refusal.outcome),
        (Actor::Agent, StepOutcome::Refused)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_that_leaves_while_paused_does_not_wedge_the_server() {
    let (dir, server, leaving, home) = taken_over("takeover-leave", Duration::from_secs(30)).await;
    let peer = leaving.peer().clone();
    let target = handle_of(&home, "TapTube");
    let waiting = tokio::spawn(async move {
        let _ = peer
            .call_tool(common::call("tap", json!({ "target": target })))
            .await;
    });
    waiting_calls(&server, |w| w.now == 1).await;
    waiting.abort();
    leaving.cancel().await.expect("the client leaves");
    // The gate notices the call's client went away and stops counting it as waiting.
    waiting_calls(&server, |w| w.now == 0 && w.left == 1).await;

    // The person acts and hands back; a new agent works at once.
    person(&server, Action::Key(tapscope_core::device::Key::Home)).await;
    server.hand_back();
    let next = connect(&server).await;
    let screen = tokio::time::timeout(Duration::from_secs(10), ok(&next, OBSERVE, json!({})))
        .await
        .expect("the new client is served");
    assert!(screen.contains("TapTube"), "{screen}");
    let _ = std::fs::remove_dir_all(&dir);
}

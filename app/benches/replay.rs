//! Regression replay's speed: a 1,000-step session recorded through the MCP tools on the sim
//! (virtual clock), replayed on a fresh sim and judged step by step. Goal: at least 200
//! steps a second.
//!
//! Run with `cargo bench -p tapscope --bench replay`. The session is recorded once, outside
//! the timings: a seeded agent observes, taps a handle it saw, scrolls or goes back.

use std::path::Path;
use std::sync::OnceLock;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use tapscope::journal::Journal;
use tapscope::mcp::{PhoneServer, result_text};
use tapscope::replay::{self, Options};
use tapscope_core::device::sim::Sim;
use tapscope_core::recording::{self, Durability, Recording};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};
use tapscope_tests::tree::handles;

const STEPS: usize = 1000;
const SEED: u64 = 1;

fn main() {
    let recorded = session();
    println!("recorded {} steps", recorded.steps.len());
    divan::main();
}

/// The recorded session, made on first use.
fn session() -> &'static Recording {
    static RECORDING: OnceLock<(tempfile::TempDir, Recording)> = OnceLock::new();
    &RECORDING
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("a folder");
            let path = dir.path().join("session");
            record(&path);
            let read = recording::read(&path).expect("the session reads");
            (dir, read)
        })
        .1
}

fn sim_session() -> Session<Sim<VirtualClock>, VirtualClock> {
    let clock = VirtualClock::default();
    Session::new(
        Sim::new(clock.clone(), SEED),
        clock,
        SessionConfig::default(),
    )
}

/// A seeded agent's calls through the tools, recorded into `dir`.
fn record(dir: &Path) {
    let session = sim_session();
    let journal = Journal::create_with(dir, "sim", session.clock().now(), Durability::None)
        .expect("a journal");
    let server = PhoneServer::new(session).with_journal(journal);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let serving = tokio::spawn(async move {
            let service = server.serve(server_io).await.expect("served");
            let _ = service.waiting().await;
        });
        let client = ().serve(client_io).await.expect("connected");
        let mut rng = fastrand::Rng::with_seed(7);
        let call = |tool: &'static str, args: serde_json::Value| {
            let mut request = CallToolRequestParams::new(tool);
            if let serde_json::Value::Object(map) = args {
                request = request.with_arguments(map);
            }
            client.call_tool(request)
        };
        let mut tree = result_text(
            &call("screen_operation_accessibility", serde_json::json!({}))
                .await
                .expect("observed"),
        );
        for _ in 1..STEPS {
            let handles = handles(&tree);
            let result = match rng.u8(..10) {
                0 | 1 => call("press_key", serde_json::json!({ "key": "back" })).await,
                2 => call("screen_operation_accessibility", serde_json::json!({})).await,
                _ if handles.is_empty() => {
                    call("press_key", serde_json::json!({ "key": "back" })).await
                }
                _ => {
                    let target = &handles[rng.usize(..handles.len())];
                    call("tap", serde_json::json!({ "target": target })).await
                }
            };
            let said = result_text(&result.expect("answered"));
            if said.contains("version: \"") {
                tree = said;
            }
        }
        client.cancel().await.expect("disconnected");
        serving.await.expect("the server ended");
    });
}

/// The whole session replayed on a fresh sim and judged; prints steps a second once.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn replay_1000_steps(bencher: divan::Bencher) {
    let original = session();
    bencher.bench_local(|| {
        let dir = tempfile::tempdir().expect("a folder");
        let options = Options::recording_to(dir.path().join("run"));
        let started = std::time::Instant::now();
        let report = replay::replay(
            sim_session(),
            original,
            "session",
            "sim",
            &options,
            &mut |_, _| {},
        )
        .expect("replayed");
        let took = started.elapsed().as_secs_f64();
        static SAID: OnceLock<()> = OnceLock::new();
        SAID.get_or_init(|| {
            println!(
                "{} of {} steps replayed ({}) at {:.0} steps/s",
                report.steps.len(),
                original.steps.len(),
                report.summary(),
                report.steps.len() as f64 / took
            );
        });
        report
    });
}

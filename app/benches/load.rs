//! Several agents on one served phone: N = 1, 4 and 8 MCP clients over loopback HTTP on
//! the sim, each looping observe, tap a node it saw, and now and then press back, for a few
//! seconds; with recording off, on (each step synced to disk before its call is answered,
//! the default) and on without syncing. The sim runs two ways, both on a virtual clock:
//! instant (zero animations: calls are nearly free, so what a step costs the server shows
//! in full) and paying a phone's costs (`sim:phone`: a dump, an input, a screencap take
//! what they take on a stock phone), where the phone is what the agents wait for and the
//! figure is calls per second of the phone's time. Prints calls/s, p95 latency per tool,
//! the taps refused on a screen that had not changed (goal 0) and, recording, the steps
//! written against the calls made.
//!
//! Run with `cargo bench -p tapscope --bench load`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use tapscope::journal::Journal;
use tapscope::mcp::ServedDevice;
use tapscope::mcp::http::{PATH, serve_http};
use tapscope::mcp::{PhoneServer, result_text};
use tapscope_core::device::sim::Sim;
use tapscope_core::device::sim::costs::Profile;
use tapscope_core::device::sim::phone::SimPhone;
use tapscope_core::recording::{self, Durability};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};
use tapscope_tests::tree::handles;

/// How long each configuration runs.
const RUN: Duration = Duration::from_secs(8);

/// How the sim behind the server runs (on a virtual clock both ways).
#[derive(Clone, Copy)]
enum Pace {
    /// Zero animations, no costs: calls/s of the wall clock.
    Instant,
    /// A stock phone's costs: calls/s of the phone's time.
    Phone,
}
impl Pace {
    fn name(self) -> &'static str {
        match self {
            Pace::Instant => "instant",
            Pace::Phone => "phone",
        }
    }
}

const STALE: &str = "Token version mismatch";

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!(
        "| sim | clients | recording | calls/s | p95 observe | p95 tap | p95 press_key | stale refusals | refused on an unchanged screen | steps / calls |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|---:|---:|---|");
    // Every recording is kept until the end: deleting thousands of files just before the
    // next run would slow that run's file creation.
    let mut kept = Vec::new();
    let configurations = [1, 4, 8]
        .map(|clients| (Pace::Instant, clients))
        .into_iter()
        .chain([(Pace::Phone, 8)]);
    // `cargo bench --bench load -- phone` runs only the rows of that sim.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for (pace, clients) in configurations {
        if !only.is_empty() && !only.iter().any(|o| o == pace.name()) {
            continue;
        }
        for recording in [None, Some(Durability::Step), Some(Durability::None)] {
            let dir = tempfile::tempdir().expect("a folder");
            let record = recording.map(|sync| (dir.path().join("run"), sync));
            kept.push(dir);
            let tally = runtime.block_on(async {
                match pace {
                    Pace::Instant => {
                        let clock = VirtualClock::default();
                        let mut sim = Sim::new(clock.clone(), 1);
                        sim.set_animation_length(Some(Duration::ZERO));
                        let session = Session::new(sim, clock, SessionConfig::default());
                        run(
                            session,
                            clients,
                            record.as_ref(),
                            Timer::Wall(Instant::now()),
                        )
                        .await
                    }
                    Pace::Phone => {
                        let clock = VirtualClock::default();
                        let sim = SimPhone::new(clock.clone(), 1, Profile::Phone);
                        let timer = Timer::Phone(clock.clone());
                        let session = Session::new(sim, clock, SessionConfig::default());
                        run(session, clients, record.as_ref(), timer).await
                    }
                }
            });
            let (steps, unchanged) = match &record {
                Some((dir, _)) => {
                    let read = recording::read(dir).expect("the recording reads");
                    (
                        format!(
                            "{} / {} ({} screenshots)",
                            read.steps.len(),
                            tally.calls,
                            screenshots(dir)
                        ),
                        refused_on_unchanged(dir, &read).to_string(),
                    )
                }
                None => ("-".into(), "-".into()),
            };
            println!(
                "| {} | {clients} | {} | {} | {} | {} | {} | {} | {unchanged} | {steps} |",
                pace.name(),
                match recording {
                    None => "off",
                    Some(Durability::Step) => "on, --sync step",
                    Some(Durability::None) => "on, --sync none",
                },
                per_second(tally.calls, tally.took),
                p95(&tally, "observe"),
                p95(&tally, "tap"),
                p95(&tally, "press_key"),
                tally.stale,
            );
        }
    }
}

/// Calls a second, to three significant digits.
fn per_second(calls: usize, took: Duration) -> String {
    let rate = calls as f64 / took.as_secs_f64();
    let decimals = if rate >= 100.0 {
        0
    } else if rate >= 10.0 {
        1
    } else {
        2
    };
    format!("{rate:.decimals$}")
}

fn p95(tally: &Tally, tool: &str) -> String {
    let mut times = tally.latencies.get(tool).cloned().unwrap_or_default();
    if times.is_empty() {
        return "-".into();
    }
    times.sort_unstable();
    let at = (times.len() * 95 / 100).min(times.len() - 1);
    format!("{:.1} ms", times[at].as_secs_f64() * 1000.0)
}

#[derive(Default)]
struct Tally {
    calls: usize,
    took: Duration,
    latencies: HashMap<&'static str, Vec<Duration>>,
    stale: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.calls += other.calls;
        self.stale += other.stale;
        for (tool, times) in other.latencies {
            self.latencies.entry(tool).or_default().extend(times);
        }
    }
}

/// What calls are timed by: the wall clock, or the phone's.
#[derive(Clone)]
enum Timer {
    Wall(Instant),
    Phone(VirtualClock),
}

impl Timer {
    fn now(&self) -> Duration {
        match self {
            Timer::Wall(start) => start.elapsed(),
            Timer::Phone(clock) => clock.now(),
        }
    }
}

/// One configuration: a server on `session`, `clients` clients for [`RUN`] of the wall
/// clock, timed by `timer`.
async fn run<D: ServedDevice>(
    session: Session<D, VirtualClock>,
    clients: usize,
    record: Option<&(PathBuf, Durability)>,
    timer: Timer,
) -> Tally {
    let now = session.clock().now();
    let mut server = PhoneServer::new(session);
    if let Some((dir, sync)) = record {
        let journal = Journal::create_with(dir, "sim", now, *sync).expect("journal");
        server = server.with_journal(journal);
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let url = format!("http://{}{PATH}", listener.local_addr().expect("bound"));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(serve_http(listener, None, move || server.clone(), async {
        let _ = stopped.await;
    }));
    let until = Instant::now() + RUN;
    let started = timer.now();
    let workers: Vec<_> = (0..clients)
        .map(|k| tokio::spawn(agent(url.clone(), k as u64, until, timer.clone())))
        .collect();
    let mut tally = Tally::default();
    for worker in workers {
        tally.add(worker.await.expect("an agent"));
    }
    tally.took = timer.now() - started;
    let _ = stop.send(());
    let _ = serving.await;
    tally
}

async fn connect(url: String) -> RunningService<RoleClient, ClientConfig> {
    ClientConfig::default()
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .expect("connected")
}

/// One agent: observe, tap a node it saw, sometimes back; until `until`.
async fn agent(url: String, seed: u64, until: Instant, timer: Timer) -> Tally {
    let client = connect(url).await;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut tally = Tally::default();
    while Instant::now() < until {
        let (tree, _) = timed(
            &client,
            &timer,
            &mut tally,
            "observe",
            "screen_operation_accessibility",
            &[],
        )
        .await;
        let handles = handles(&tree);
        if !handles.is_empty() && rng.u8(..4) != 0 {
            let handle = &handles[rng.usize(..handles.len())];
            let (said, refused) = timed(
                &client,
                &timer,
                &mut tally,
                "tap",
                "tap",
                &[("target", handle)],
            )
            .await;
            if refused && said.contains(STALE) {
                tally.stale += 1;
            }
        } else {
            timed(
                &client,
                &timer,
                &mut tally,
                "press_key",
                "press_key",
                &[("key", "back")],
            )
            .await;
        }
    }
    let _ = client.cancel().await;
    tally
}

/// Calls `tool`; its text and whether it was a tool error.
async fn timed(
    client: &RunningService<RoleClient, ClientConfig>,
    timer: &Timer,
    tally: &mut Tally,
    kind: &'static str,
    tool: &'static str,
    args: &[(&str, &str)],
) -> (String, bool) {
    let map = args
        .iter()
        .map(|(k, v)| ((*k).to_owned(), serde_json::Value::from(*v)))
        .collect();
    let started = timer.now();
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(map))
        .await
        .expect("answered");
    tally
        .latencies
        .entry(kind)
        .or_default()
        .push(timer.now() - started);
    tally.calls += 1;
    (result_text(&result), result.is_error == Some(true))
}

/// Stale refusals whose handle named a screen that read the same as the one on the phone
/// then (apart from the version line): what the recording says of each refused tap.
fn refused_on_unchanged(dir: &Path, read: &recording::Recording) -> usize {
    let mut screens: HashMap<&str, String> = HashMap::new();
    for step in &read.steps {
        for screen in [&step.before, &step.after].into_iter().flatten() {
            screens.entry(&screen.version).or_insert_with(|| {
                let text = std::fs::read_to_string(dir.join(&screen.pruned)).unwrap_or_default();
                body(&text).to_owned()
            });
        }
    }
    read.steps
        .iter()
        .filter(|s| s.tool == "tap" && s.message.contains(STALE))
        .filter(|s| {
            let named = s.version_used.as_deref().and_then(|v| screens.get(v));
            let then = s.version_before.as_deref().and_then(|v| screens.get(v));
            named.is_some() && named == then
        })
        .count()
}

/// The screenshots a recording stored.
fn screenshots(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("screens")).map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "png"))
            .count()
    })
}

/// A tree below its version line.
fn body(tree: &str) -> &str {
    tree.split_once('\n').map_or("", |(_, rest)| rest)
}

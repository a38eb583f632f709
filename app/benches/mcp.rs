//! The MCP server's own cost per tool call over loopback HTTP, on the sim's feed with zero
//! animation time and a virtual clock (settling costs its dumps, never real waiting).
//!
//! Run with `cargo bench -p tapscope --bench mcp`. Each tool is timed twice: through
//! rmcp's streamable-HTTP client to `tapscope`'s server (request in to response out), and
//! as the same session call made directly. The difference of the medians is the server's
//! overhead: JSON-RPC, HTTP, the worker-thread hop and rendering the result.

use std::sync::LazyLock;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use tapscope::mcp::PhoneServer;
use tapscope::mcp::http::{PATH, serve_http};
use tapscope_core::device::sim::Sim;
use tapscope_core::device::{Device, Key};
use tapscope_core::session::{Action, Session, SessionConfig};
use tapscope_core::stability::VirtualClock;

fn main() {
    divan::main();
}

type SimSession = Session<Sim<VirtualClock>, VirtualClock>;

/// The sim with every animation cut to nothing, on a virtual clock, showing the feed.
fn session() -> SimSession {
    let clock = VirtualClock::default();
    let mut sim = Sim::new(clock.clone(), 1);
    sim.set_animation_length(Some(Duration::ZERO));
    sim.launch("tv.tapscope.demo").expect("the feed's app");
    Session::new(sim, clock, SessionConfig::default())
}

static RUNTIME: LazyLock<tokio::runtime::Runtime> =
    LazyLock::new(|| tokio::runtime::Runtime::new().expect("a runtime"));

/// A client connected over loopback HTTP to a server on its own sim, observed once.
static CLIENT: LazyLock<RunningService<RoleClient, ClientConfig>> = LazyLock::new(|| {
    RUNTIME.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}{PATH}", listener.local_addr().expect("bound"));
        let server = PhoneServer::new(session());
        tokio::spawn(serve_http(
            listener,
            None,
            move || server.clone(),
            std::future::pending(),
        ));
        let transport = StreamableHttpClientTransport::from_uri(url);
        let client = ClientConfig::default()
            .serve(transport)
            .await
            .expect("connected");
        client
            .call_tool(call("screen_operation_accessibility", &[]))
            .await
            .expect("observed");
        client
    })
});

fn call(tool: &'static str, args: &[(&str, &str)]) -> CallToolRequestParams {
    let map = args
        .iter()
        .map(|(k, v)| ((*k).to_owned(), serde_json::Value::from(*v)))
        .collect();
    CallToolRequestParams::new(tool).with_arguments(map)
}

#[divan::bench(sample_count = 200)]
fn observe_over_http(bencher: divan::Bencher) {
    let client = &*CLIENT;
    bencher.bench_local(|| {
        RUNTIME
            .block_on(client.call_tool(call("screen_operation_accessibility", &[])))
            .expect("answered")
    });
}

#[divan::bench(sample_count = 200)]
fn observe_direct(bencher: divan::Bencher) {
    let session = session();
    bencher.bench_local(|| session.observe().expect("observed"));
}

/// A key that changes nothing on the sim: act, settle (dumps until stable), observe.
#[divan::bench(sample_count = 200)]
fn press_key_over_http(bencher: divan::Bencher) {
    let client = &*CLIENT;
    bencher.bench_local(|| {
        RUNTIME
            .block_on(client.call_tool(call("press_key", &[("key", "volume_up")])))
            .expect("answered")
    });
}

#[divan::bench(sample_count = 200)]
fn press_key_direct(bencher: divan::Bencher) {
    let session = session();
    session.observe().expect("observed");
    bencher.bench_local(|| session.act(&Action::Key(Key::VolumeUp)).expect("acted"));
}

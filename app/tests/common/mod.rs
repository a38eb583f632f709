//! What the MCP tests share: building calls, reading results, finding handles, a phone
//! whose cable a test pulls, and a
//! server on the sim in this process.
#![allow(dead_code)] // each test file uses its own part

pub mod unpluggable;

use std::path::Path;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{Peer, RunningService};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use tapscope::journal::Journal;
use tapscope::mcp::{PhoneServer, ServedDevice};
use tapscope_core::device::sim::Sim;
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};
use tapscope_tests::tree;

pub const STALE: &str = "Token version mismatch, viewport updated. Call screen_operation_accessibility to fetch the latest tree.";

pub use tapscope::mcp::result_text as text;

/// Calls `tool`; tool errors are results, a protocol error fails the test.
pub async fn ask(client: &Peer<RoleClient>, tool: &'static str, args: Value) -> CallToolResult {
    client
        .call_tool(call(tool, args))
        .await
        .unwrap_or_else(|e| panic!("{tool} was not answered: {e}"))
}

/// Calls `tool`, which must succeed, and returns its text.
pub async fn ok(client: &Peer<RoleClient>, tool: &'static str, args: Value) -> String {
    let result = ask(client, tool, args).await;
    assert_ne!(result.is_error, Some(true), "{tool}: {}", text(&result));
    text(&result)
}

/// Calls `tool`, which must answer with a tool error, and returns its message.
pub async fn refused(client: &Peer<RoleClient>, tool: &'static str, args: Value) -> String {
    let result = ask(client, tool, args).await;
    assert_eq!(
        result.is_error,
        Some(true),
        "{tool} worked: {}",
        text(&result)
    );
    text(&result)
}

pub fn call(name: &'static str, args: Value) -> CallToolRequestParams {
    let params = CallToolRequestParams::new(name);
    match args {
        Value::Object(map) => params.with_arguments(map),
        _ => params,
    }
}

/// The version at the top of the last tree in `text`.
pub fn version_of(text: &str) -> String {
    tree::version(text).expect("a version line").to_owned()
}

/// The handle of the first line with an `i` that `wanted` accepts.
pub fn handle_where(tree: &str, wanted: impl Fn(&str) -> bool) -> String {
    tree::handle_where(tree, wanted).unwrap_or_else(|| panic!("no such line in:\n{tree}"))
}

/// The handle of the line that shows `label`.
pub fn handle_of(tree: &str, label: &str) -> String {
    handle_where(tree, |l| l.contains(&format!("\"{label}\"")))
}

/// A client connected to a server on the sim (virtual clock: no real waiting) in this
/// process, recording into `record` when given.
pub async fn in_process(record: Option<&Path>) -> RunningService<RoleClient, ()> {
    let clock = VirtualClock::default();
    in_process_on(Sim::new(clock.clone(), 1), clock, record).await
}

/// A client connected to a server on `device`, whose clock is `clock`, in this process.
pub async fn in_process_on<D: ServedDevice>(
    device: D,
    clock: VirtualClock,
    record: Option<&Path>,
) -> RunningService<RoleClient, ()> {
    in_process_with(device, clock, SessionConfig::default(), record).await
}

/// [`in_process_on`] with the session configured as `config`.
pub async fn in_process_with<D: ServedDevice>(
    device: D,
    clock: VirtualClock,
    config: SessionConfig,
    record: Option<&Path>,
) -> RunningService<RoleClient, ()> {
    let session = Session::new(device, clock.clone(), config);
    let mut server = PhoneServer::new(session);
    if let Some(dir) = record {
        let journal = Journal::create(dir, "sim", clock.now()).expect("the recording starts");
        server = server.with_journal(journal);
    }
    let (server_io, client_io) = tokio::io::duplex(1 << 22);
    tokio::spawn(async move {
        if let Ok(service) = server.serve(server_io).await {
            let _ = service.waiting().await;
        }
    });
    ().serve(client_io).await.expect("the client initializes")
}

/// A fresh folder under the system's temp dir, for one test.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tapscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

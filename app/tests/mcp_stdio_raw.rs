//! `tapscope serve --stdio` spoken to line by line, as a client that gets the parameters
//! of `tools/call` wrong: `arguments` as a string is invalid parameters (-32602), over
//! stdio as over HTTP, and the refused call is recorded.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use tapscope_core::recording::{self, StepOutcome};

#[test]
fn arguments_as_a_string_are_invalid_parameters_and_a_step() {
    let dir = tempfile::tempdir().expect("a folder");
    let run = dir.path().join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tapscope"))
        .args(["serve", "--stdio", "--record"])
        .arg(&run)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tapscope serve starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let send = |input: &mut std::process::ChildStdin, message: Value| {
        writeln!(input, "{message}").expect("the server reads");
    };
    let mut answer = || {
        let mut line = String::new();
        output.read_line(&mut line).expect("the server answers");
        serde_json::from_str::<Value>(&line).expect("one JSON-RPC message a line")
    };
    send(
        &mut input,
        json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {},
                        "clientInfo": { "name": "raw", "version": "1" } }
        }),
    );
    assert_eq!(answer()["id"], 1);
    send(
        &mut input,
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    );
    send(
        &mut input,
        json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "tap", "arguments": "{\"target\": \"0123456789ab_1\"}" }
        }),
    );
    let refused = answer();
    assert_eq!(refused["id"], 2, "{refused}");
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("`arguments` a JSON object"), "{message}");
    // The client goes away: the server ends and its recording is complete.
    drop(input);
    let _ = child.wait();

    let recorded = recording::read(&run).expect("the recording reads");
    let step = recorded.steps.last().expect("the refused call is a step");
    assert_eq!(
        (step.tool.as_str(), step.outcome),
        ("tap", StepOutcome::Refused)
    );
    assert!(
        step.message.contains("`arguments` a JSON object"),
        "{}",
        step.message
    );
}

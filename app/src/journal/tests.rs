//! A recording that stops is said to stop, once: a writer that panics, and a writer that
//! went away without answering, fail the step they leave like a failed write does.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use tapscope_core::device::sim::Sim;
use tapscope_core::recording::{self, Actor};
use tapscope_core::session::{Session, SessionConfig};
use tapscope_core::stability::{Clock, VirtualClock};

use super::{Call, Done, Journal, JournalError, Pending, Shared, Ticket, Written};
use crate::mcp::{PhoneServer, result_text};

/// An argument that makes the writer panic on its step.
const PANICS: &str = "tapscope-test: the writer panics here";

/// The hook the writer calls on each step (in tests only).
pub(super) fn panic_if_asked(call: &Call) {
    if call.arguments.to_string().contains(PANICS) {
        panic!("asked to by a test");
    }
}

/// A call that reads no screen, with `arguments`.
fn answered(arguments: serde_json::Value) -> Pending {
    let call = Call {
        actor: Actor::Agent,
        tool: "list_packages".to_owned(),
        arguments,
        handle: None,
        version_used: None,
        at: Duration::ZERO,
        duration: Duration::ZERO,
    };
    Pending::new(call, None, Done::Answered, None, String::new(), None)
}

#[test]
fn a_writer_that_panics_fails_its_step_once_and_keeps_the_steps_before() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let journal = Journal::create(&run, "sim", Duration::ZERO).unwrap();
    let first = journal.submit(answered(json!({}))).wait();
    assert!(matches!(first, Written::Step(1)), "{first:?}");

    let Written::Failed { dir: said, error } = journal.submit(answered(json!([PANICS]))).wait()
    else {
        panic!("the panicking step did not fail");
    };
    assert_eq!(said, run);
    assert!(
        matches!(&error, JournalError::WriterStopped { why } if why == "it panicked: asked to by a test"),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("start a new recording"),
        "says what to do: {error}"
    );
    let after = journal.submit(answered(json!({}))).wait();
    assert!(matches!(after, Written::Stopped), "said once: {after:?}");
    drop(journal);

    let recorded = recording::read(&run).unwrap();
    assert_eq!(recorded.steps.len(), 1, "the step before the panic");
    assert!(recorded.problems.is_empty(), "{:?}", recorded.problems);
}

#[test]
fn a_ticket_its_writer_never_answered_is_a_failure_said_once() {
    let shared = Arc::new(Shared {
        dir: "somewhere".into(),
        failed: AtomicBool::new(false),
    });
    let unanswered = || {
        let (done, answer) = mpsc::channel::<Written>();
        drop(done);
        Ticket {
            answer,
            shared: Arc::clone(&shared),
        }
    };
    let first = unanswered().wait();
    assert!(
        matches!(
            &first,
            Written::Failed { dir, error: JournalError::WriterStopped { .. } }
                if dir.as_os_str() == "somewhere"
        ),
        "{first:?}"
    );
    let second = unanswered().wait();
    assert!(matches!(second, Written::Stopped), "said once: {second:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_hears_once_that_the_recording_stopped_when_its_writer_panicked() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let clock = VirtualClock::default();
    let session = Session::new(
        Sim::new(clock.clone(), 1),
        clock.clone(),
        SessionConfig::default(),
    );
    let journal = Journal::create(&run, "sim", clock.now()).unwrap();
    let server = PhoneServer::new(session).with_journal(journal);
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let serving = tokio::spawn(async move {
        let service = server.serve(server_io).await.unwrap();
        service.waiting().await.unwrap();
    });
    let client = ().serve(client_io).await.unwrap();
    let call = async |arguments: serde_json::Value| {
        let serde_json::Value::Object(map) = arguments else {
            panic!("arguments are an object");
        };
        let params = CallToolRequestParams::new("press_key").with_arguments(map);
        result_text(&client.call_tool(params).await.unwrap())
    };

    let before = call(json!({"key": "home"})).await;
    assert!(!before.contains("stopped recording"), "{before}");
    let said = call(json!({"key": PANICS})).await;
    assert!(
        said.contains(&format!("tapscope stopped recording to {}", run.display()))
            && said.contains("it panicked"),
        "{said}"
    );
    let next = call(json!({"key": "home"})).await;
    assert!(!next.contains("stopped recording"), "said once: {next}");
    client.cancel().await.unwrap();
    serving.await.unwrap();

    let recorded = recording::read(&run).unwrap();
    assert_eq!(recorded.steps.len(), 1, "the step before the panic");
}

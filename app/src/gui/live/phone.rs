//! The live phone as the workbench drives it, whatever its device type: a person's
//! actions through the MCP server's gate, and the server started on the same session.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use tapscope_core::recording::RecordingError;
use tapscope_core::session::{Action, Observation, Outcome, Session, SessionError};

use crate::gui::error::LiveError;
use crate::journal::Journal;
use crate::mcp::gate::Waiting;
use crate::mcp::http::{self, PATH};
use crate::mcp::{Failure, PhoneServer, ServedClock, ServedDevice};
use crate::phone::{DeviceArgs, DeviceChoice, WithSession};

/// One device's session behind the gate, for the workbench's worker thread.
pub trait LivePhone: Send + Sync {
    fn take_over(&self);
    fn hand_back(&self);
    fn is_held(&self) -> bool;
    /// Agents' calls waiting for the person, and those that gave up or left.
    fn waiting(&self) -> Waiting;
    /// A person's action, recorded as theirs when recording.
    fn person_act(&self, action: &Action) -> Result<Outcome, Failure>;
    /// A person reads the screen (a new version).
    fn person_observe(&self) -> Result<Observation, Failure>;
    /// The latest observation, an agent's or the person's.
    fn latest(&self) -> Option<Arc<Observation>>;
    /// A screenshot for the view (pixel actions keep the agent's last one).
    fn peek_png(&self) -> Result<Vec<u8>, SessionError>;
    /// Records every call from now on, the person's and agents', into `dir` (as the
    /// device `device`).
    fn record(&self, dir: &Path, device: &str) -> Result<(), RecordingError>;
    /// Serves MCP over HTTP at `addr` on this session until the returned server is dropped.
    fn serve(&self, addr: SocketAddr) -> Result<Served, LiveError>;
}

impl<D: ServedDevice, C: ServedClock> LivePhone for PhoneServer<D, C>
where
    PhoneServer<D, C>: Sync,
{
    fn take_over(&self) {
        PhoneServer::take_over(self);
    }

    fn hand_back(&self) {
        PhoneServer::hand_back(self);
    }

    fn is_held(&self) -> bool {
        PhoneServer::is_held(self)
    }

    fn waiting(&self) -> Waiting {
        self.gate().waiting()
    }

    fn person_act(&self, action: &Action) -> Result<Outcome, Failure> {
        PhoneServer::person_act(self, action)
    }

    fn person_observe(&self) -> Result<Observation, Failure> {
        PhoneServer::person_observe(self)
    }

    fn latest(&self) -> Option<Arc<Observation>> {
        PhoneServer::latest(self)
    }

    fn peek_png(&self) -> Result<Vec<u8>, SessionError> {
        self.session().peek_screenshot().map(|s| s.png)
    }

    fn record(&self, dir: &Path, device: &str) -> Result<(), RecordingError> {
        let now = self.session().clock().now();
        let journal = Journal::create(dir, device, now)?;
        self.attach_journal(journal);
        Ok(())
    }

    fn serve(&self, addr: SocketAddr) -> Result<Served, LiveError> {
        serve_http(self.clone(), addr)
    }
}

/// A running MCP server; dropping it stops it.
#[derive(Debug)]
pub struct Served {
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Binds `addr` (loopback only: there is no token here) and serves `server`'s clones on a
/// thread of its own.
fn serve_http<D: ServedDevice, C: ServedClock>(
    server: PhoneServer<D, C>,
    addr: SocketAddr,
) -> Result<Served, LiveError> {
    let runtime = tokio::runtime::Runtime::new().map_err(LiveError::Serve)?;
    let listener = runtime.block_on(http::bind(addr, None))?;
    let url = format!("http://{}{PATH}", listener.local_addr().unwrap_or(addr));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::Builder::new()
        .name("tapscope mcp".into())
        .spawn(move || {
            let shutdown = async {
                let _ = stopped.await;
            };
            let served = runtime.block_on(http::serve_http(
                listener,
                None,
                move || server.clone(),
                shutdown,
            ));
            if let Err(e) = served {
                eprintln!("tapscope: the MCP server stopped: {e}");
            }
        })
        .map_err(LiveError::Serve)?;
    Ok(Served {
        url,
        stop: Some(stop),
    })
}

/// Opens `device` (one of `DeviceChoice::SIMS` or an ADB serial) as a live phone; ADB's
/// problems come back as the sentence `tapscope devices` prints.
pub fn open(device: &str) -> Result<Arc<dyn LivePhone>, LiveError> {
    let args = DeviceArgs {
        device: device.parse().map_err(LiveError::UnknownDevice)?,
        seed: 1,
        look: tapscope_core::stability::look::LookChoice::Auto,
        ocr_languages: tapscope_core::prune::OcrLanguages::Auto,
        ocr_engine: tapscope_core::prune::OcrEngine::Auto,
        step_logs: crate::phone::StepLogs::Auto,
    };
    Ok(args.open(Opened)?)
}

struct Opened;

impl WithSession for Opened {
    type Output = Arc<dyn LivePhone>;

    fn run<D: ServedDevice, C: ServedClock>(self, session: Session<D, C>) -> Self::Output {
        Arc::new(PhoneServer::new(session))
    }
}

/// `sim` and the serials the ADB server lists, or why ADB could not be asked.
pub fn devices() -> (Vec<String>, Option<String>) {
    use tapscope_core::device::adb;
    let mut names: Vec<String> = DeviceChoice::SIMS.iter().map(ToString::to_string).collect();
    let listed = adb::server_address().and_then(adb::list_devices);
    match listed {
        Ok(phones) => {
            names.extend(phones.into_iter().map(|p| p.serial));
            (names, None)
        }
        Err(e) => (names, Some(e.to_string())),
    }
}

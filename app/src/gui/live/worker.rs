//! The live phone's thread: opens the device, runs a person's actions and the MCP server
//! off the UI thread, and sends the screen (a `Document`) whenever a new version settles.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use tapscope_core::session::Action;

use super::phone::{LivePhone, Served};
use super::touch;
use crate::gui::document::Document;
use crate::gui::error::{LiveError, PhoneFailure};
use crate::gui::gesture::Gesture;
use crate::gui::recording::{Follow, Recording};
use crate::mcp::Failure;
use crate::mcp::gate::Waiting;

/// How often the thread looks for a screen an agent left.
const POLL: Duration = Duration::from_millis(250);

/// What the workbench asks of the thread.
#[derive(Debug)]
pub enum Command {
    Act(Action),
    /// A click or drag on the live screen, in display pixels.
    Touch(Gesture),
    /// The person reads the screen again.
    Refresh,
    Serve(SocketAddr),
    StopServing,
}

/// What the thread tells the workbench.
pub enum Update {
    Opened(Arc<dyn LivePhone>),
    /// The device could not be opened.
    NotOpened(LiveError),
    Screen(Box<Document>),
    /// A person's call went through and left the screen on show as it was.
    Answered,
    /// An action was refused (nothing reached the device).
    Refused(String),
    /// Something to read that stops nothing: a session not recorded, a recording the
    /// timeline could not read.
    Note(LiveError),
    /// The device or the server failed: most often the phone was disconnected.
    Failed(LiveError),
    /// The MCP server's address, or `None` once it stopped.
    Serving(Option<String>),
    /// The folder the session is recorded into from now on.
    Recording(PathBuf),
    /// The recording, read again after it grew.
    Steps(Arc<Recording>),
    /// Agents' calls at the gate changed.
    Agents(Waiting),
}

/// Starts the thread on the phone `open` returns, recorded into `record`; `name` names
/// its screens and the recording's device.
pub fn start(
    ctx: egui::Context,
    name: String,
    record: PathBuf,
    open: impl FnOnce() -> Result<Arc<dyn LivePhone>, LiveError> + Send + 'static,
) -> (Sender<Command>, Receiver<Update>) {
    let (commands, inbox) = channel();
    let (outbox, updates) = channel();
    let send = move |update: Update| {
        let _ = outbox.send(update);
        ctx.request_repaint();
    };
    let spawned = std::thread::Builder::new()
        .name("tapscope live".into())
        .spawn(move || {
            let phone = match open() {
                Ok(phone) => phone,
                Err(e) => return send(Update::NotOpened(e)),
            };
            send(Update::Opened(Arc::clone(&phone)));
            let followed = match phone.record(&record, &name) {
                Ok(()) => {
                    send(Update::Recording(record.clone()));
                    Some(Follow::new(record))
                }
                Err(e) => {
                    send(Update::Note(LiveError::Record(e)));
                    None
                }
            };
            Worker {
                phone,
                name,
                send: &send,
                shown: None,
                served: None,
                followed,
                agents: Waiting::default(),
            }
            .run(&inbox);
        });
    if let Err(e) = spawned {
        eprintln!("tapscope: the live thread did not start: {e}");
    }
    (commands, updates)
}

struct Worker<'a, F: Fn(Update)> {
    phone: Arc<dyn LivePhone>,
    name: String,
    send: &'a F,
    /// The version on show.
    shown: Option<String>,
    served: Option<Served>,
    /// The session's recording, read again as it grows.
    followed: Option<Follow>,
    /// Agents' calls at the gate, as last told.
    agents: Waiting,
}

impl<F: Fn(Update)> Worker<'_, F> {
    fn run(mut self, inbox: &Receiver<Command>) {
        if self.phone.latest().is_none() {
            self.refresh();
        }
        loop {
            let _ = self.show_latest();
            self.show_steps();
            self.show_agents();
            match inbox.recv_timeout(POLL) {
                Ok(command) => self.handle(command),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Act(action) => self.act(&action),
            Command::Touch(gesture) => match self.phone.latest() {
                Some(latest) => self.act(&touch::action(&latest, gesture)),
                None => self.refresh(),
            },
            Command::Refresh => self.refresh(),
            Command::Serve(addr) => {
                self.served = None;
                match self.phone.serve(addr) {
                    Ok(served) => {
                        (self.send)(Update::Serving(Some(served.url.clone())));
                        self.served = Some(served);
                    }
                    Err(e) => (self.send)(Update::Failed(e)),
                }
            }
            Command::StopServing => {
                self.served = None;
                (self.send)(Update::Serving(None));
            }
        }
    }

    fn act(&mut self, action: &Action) {
        match self.phone.person_act(action) {
            Ok(_) => self.answered(),
            Err(failure) => self.failed(failure),
        }
    }

    fn refresh(&mut self) {
        match self.phone.person_observe() {
            Ok(_) => self.answered(),
            Err(failure) => self.failed(failure),
        }
    }

    /// A person's call went through: the screen it left, or, when that is the screen on
    /// show already (its version comes from its content), word that the phone answered.
    fn answered(&mut self) {
        if !self.show_latest() {
            (self.send)(Update::Answered);
        }
    }

    fn failed(&self, failure: Failure) {
        (self.send)(match failure {
            Failure::Refused(why) => Update::Refused(why),
            failed => Update::Failed(LiveError::Phone(PhoneFailure::Call(failed))),
        });
    }

    /// Sends the recording's steps when new ones were written.
    fn show_steps(&mut self) {
        let grown = self.followed.as_mut().and_then(Follow::grown);
        match grown {
            Some(Ok(recording)) => (self.send)(Update::Steps(recording)),
            Some(Err(why)) => (self.send)(Update::Note(LiveError::Timeline(why))),
            None => {}
        }
    }

    /// Sends the agents' calls at the gate when they changed.
    fn show_agents(&mut self) {
        let agents = self.phone.waiting();
        if agents != self.agents {
            self.agents = agents;
            (self.send)(Update::Agents(agents));
        }
    }

    /// Sends the latest observation when it is not the one on show; whether it did.
    fn show_latest(&mut self) -> bool {
        let Some(latest) = self.phone.latest() else {
            return false;
        };
        if self.shown.as_deref() == Some(latest.version.as_str()) {
            return false;
        }
        self.shown = Some(latest.version.clone());
        let png = self.phone.peek_png().map_err(|e| {
            (self.send)(Update::Failed(LiveError::Phone(PhoneFailure::Screenshot(
                e,
            ))));
        });
        let name = format!("live: {}", self.name);
        match Document::from_bytes(name, None, latest.raw.as_bytes(), png.ok().as_deref()) {
            Ok(document) => {
                // The handles shown are the session's, text read in pixels included.
                let mut document = document.with_pixel_text(latest.pixel_text.clone());
                document.version = latest.version.clone();
                (self.send)(Update::Screen(Box::new(document)));
            }
            Err(e) => (self.send)(Update::Failed(LiveError::Phone(PhoneFailure::Screen(e)))),
        }
        true
    }
}

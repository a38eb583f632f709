//! Live mode: a phone (the sim or an ADB serial) on show in the workbench, its screen
//! refreshed after every settle; a person takes it over from agents (click to tap, drag to
//! swipe, type, keys), and the MCP server can run on the same session; the session is
//! recorded and its steps shown on the timeline as they happen.

mod follow;
pub mod panel;
pub mod phone;
mod touch;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

use poll_promise::Promise;

use tapscope_core::device::Key;

use crate::mcp::gate::Waiting;
use crate::phone::DeviceChoice;

pub use phone::LivePhone;
use worker::{Command, Update};

use super::document::Document;
use super::error::LiveError;
use super::gesture::Gesture;
use super::recording::Recording;

/// The live panel: what the person chose, and the phone when one is open.
pub struct LiveState {
    /// The panel is shown.
    pub shown: bool,
    pub device: String,
    /// `sim` and the serials ADB listed last, and why ADB could not list any.
    devices: Vec<String>,
    adb_note: Option<String>,
    /// ADB being asked for its phones, off the UI thread (a wedged server takes seconds).
    finding: Option<Promise<(Vec<String>, Option<String>)>>,
    /// The MCP server's port, and the folder to record the session into (empty: a new
    /// temporary one).
    pub port: String,
    pub record: String,
    /// What the "Type" button types, and the key the menu presses.
    pub text: String,
    key: Key,
    link: Option<Link>,
}

/// An open (or opening) phone and its thread.
struct Link {
    name: String,
    commands: Sender<Command>,
    updates: Receiver<Update>,
    phone: Option<Arc<dyn LivePhone>>,
    /// An action is running on the phone.
    busy: bool,
    /// Why the device failed or would not open, which stays until the next success.
    error: Option<String>,
    /// A refusal, or a note that does not stop anything.
    note: Option<String>,
    serving: Option<String>,
    /// The folder the session is recorded into, once it opened.
    recording: Option<PathBuf>,
    /// Where the recording sits among what the workbench has open, once it has steps.
    steps: Option<usize>,
    /// Agents' calls at the gate: waiting now, and those that gave up or left.
    agents: Waiting,
    /// Where the live screen sits among what the workbench has open.
    screen: Option<usize>,
}

impl Link {
    /// A phone opening on the thread behind `commands` and `updates`.
    fn new(name: String, commands: Sender<Command>, updates: Receiver<Update>) -> Self {
        Self {
            name,
            commands,
            updates,
            phone: None,
            busy: true,
            error: None,
            note: None,
            serving: None,
            recording: None,
            steps: None,
            agents: Waiting::default(),
            screen: None,
        }
    }
}

impl Default for LiveState {
    fn default() -> Self {
        Self {
            shown: false,
            device: "sim".to_owned(),
            devices: DeviceChoice::SIMS.iter().map(ToString::to_string).collect(),
            adb_note: None,
            finding: None,
            port: "8791".to_owned(),
            record: String::new(),
            text: String::new(),
            key: Key::Enter,
            link: None,
        }
    }
}

impl std::fmt::Debug for LiveState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveState")
            .field("shown", &self.shown)
            .field("device", &self.device)
            .field("open", &self.link.as_ref().map(|l| &l.name))
            .finish_non_exhaustive()
    }
}

impl LiveState {
    /// Opens the chosen device off the UI thread.
    pub fn connect(&mut self, ctx: &egui::Context) {
        let device = self.device.clone();
        self.start(ctx, device.clone(), move || phone::open(&device));
    }

    /// Shows a phone opened elsewhere (a test's sim on a virtual clock).
    pub fn attach(&mut self, ctx: &egui::Context, name: &str, phone: Arc<dyn LivePhone>) {
        self.start(ctx, name.to_owned(), move || Ok(phone));
    }

    fn start(
        &mut self,
        ctx: &egui::Context,
        name: String,
        open: impl FnOnce() -> Result<Arc<dyn LivePhone>, LiveError> + Send + 'static,
    ) {
        self.disconnect();
        let record = follow::record_dir(&self.record, &name);
        let (commands, updates) = worker::start(ctx.clone(), name.clone(), record, open);
        self.shown = true;
        self.link = Some(Link::new(name, commands, updates));
    }

    /// Hands the phone back and lets the thread (and the server) end.
    pub fn disconnect(&mut self) {
        if let Some(phone) = self.link.take().and_then(|l| l.phone) {
            phone.hand_back();
        }
    }

    /// The open phone, once it opened.
    pub fn phone(&self) -> Option<&Arc<dyn LivePhone>> {
        self.link.as_ref()?.phone.as_ref()
    }

    /// Agents' calls waiting for the person, and those that gave up or left.
    pub fn agents(&self) -> Waiting {
        self.link
            .as_ref()
            .map_or_else(Waiting::default, |l| l.agents)
    }

    /// A note for the person (a refusal, an agent that left), to show.
    pub fn note(&self) -> Option<&str> {
        self.link.as_ref()?.note.as_deref()
    }

    /// The MCP server's address while it runs.
    pub fn serving(&self) -> Option<&str> {
        self.link.as_ref()?.serving.as_deref()
    }

    /// The folder the session is recorded into.
    pub fn recording(&self) -> Option<&Path> {
        self.link.as_ref()?.recording.as_deref()
    }

    /// What went wrong last, to show.
    pub fn error(&self) -> Option<&str> {
        self.link.as_ref()?.error.as_deref()
    }

    /// A person may act: no agents are served, or the person took the phone.
    pub fn can_act(&self) -> bool {
        self.phone()
            .is_some_and(|p| self.serving().is_none() || p.is_held())
    }

    fn send(&mut self, command: Command) {
        if let Some(link) = &mut self.link {
            link.busy |= matches!(
                command,
                Command::Act(_) | Command::Touch(_) | Command::Refresh
            );
            // A thread that ended has said why already.
            let _ = link.commands.send(command);
        }
    }

    /// Asks the ADB server, off the UI thread, which phones it knows; the list offers
    /// them beside `sim` once it answered.
    pub fn find_devices(&mut self, ctx: &egui::Context) {
        if self.finding.is_some() {
            return;
        }
        let ctx = ctx.clone();
        self.finding = Some(Promise::spawn_thread("find phones", move || {
            let found = phone::devices();
            ctx.request_repaint();
            found
        }));
    }

    /// ADB is being asked for its phones.
    pub fn finding(&self) -> bool {
        self.finding.is_some()
    }

    /// Takes the phones ADB listed, once it answered.
    fn take_found(&mut self) {
        if let Some(finding) = self.finding.take() {
            match finding.try_take() {
                Ok(found) => (self.devices, self.adb_note) = found,
                Err(finding) => self.finding = Some(finding),
            }
        }
    }
}

/// What the person should hear when agents' calls gave up or left since `before`.
fn agents_note(before: Waiting, now: Waiting) -> Option<String> {
    if now.left > before.left {
        return Some(
            "An agent disconnected while you held the phone: its call was dropped, nothing \
             was done for it."
                .to_owned(),
        );
    }
    (now.gave_up > before.gave_up).then(|| {
        "An agent's call waited too long and was refused: it was told a person holds the \
         phone. Hand back to let agents act."
            .to_owned()
    })
}

/// What live mode brings the workbench in a frame.
#[derive(Debug)]
pub enum LiveNews {
    /// The phone's screen settled on a new version.
    Screen(Box<Document>),
    /// The session's recording grew.
    Steps(Arc<Recording>),
}

impl LiveState {
    /// The phone's updates since the last frame: what they change of the panel is taken
    /// here, the screens and the grown recording are handed back for the workbench to show.
    pub fn poll(&mut self) -> Vec<LiveNews> {
        self.take_found();
        let Some(link) = &mut self.link else {
            return Vec::new();
        };
        let mut news = Vec::new();
        for update in link.updates.try_iter() {
            match update {
                Update::Opened(phone) => link.phone = Some(phone),
                Update::NotOpened(why) => {
                    link.busy = false;
                    link.error = Some(why.to_string());
                }
                Update::Screen(document) => {
                    link.busy = false;
                    link.error = None;
                    news.push(LiveNews::Screen(document));
                }
                Update::Answered => {
                    link.busy = false;
                    link.error = None;
                }
                Update::Refused(why) => {
                    link.busy = false;
                    link.note = Some(why);
                }
                Update::Note(why) => link.note = Some(why.to_string()),
                Update::Failed(why) => {
                    link.busy = false;
                    link.error = Some(why.to_string());
                }
                Update::Serving(url) => link.serving = url,
                Update::Recording(dir) => {
                    link.recording = Some(dir);
                    link.steps = None;
                }
                Update::Steps(recording) => news.push(LiveNews::Steps(recording)),
                Update::Agents(agents) => {
                    link.note = agents_note(link.agents, agents).or(link.note.take());
                    link.agents = agents;
                }
            }
        }
        news
    }

    /// Where the live screen sits among what is open, once it showed.
    pub fn screen_at(&self) -> Option<usize> {
        self.link.as_ref()?.screen
    }

    /// Where the session's recording sits among what is open, once it has steps.
    pub fn steps_at(&self) -> Option<usize> {
        self.link.as_ref()?.steps
    }

    /// Notes where the live screen and the session's recording are shown.
    pub fn shown_at(&mut self, screen: Option<usize>, steps: Option<usize>) {
        if let Some(link) = &mut self.link {
            link.screen = screen;
            link.steps = steps;
        }
    }

    /// A panel linked to no phone thread, the live screen at `screen`: for tests of what
    /// the workbench does with live news.
    #[cfg(test)]
    pub(crate) fn linked_for_tests(screen: usize) -> Self {
        let (commands, _) = std::sync::mpsc::channel();
        let (_, updates) = std::sync::mpsc::channel();
        let mut link = Link::new("sim".into(), commands, updates);
        link.screen = Some(screen);
        Self {
            link: Some(link),
            ..Self::default()
        }
    }

    /// Sends the person's gesture on the live screen to the phone.
    pub fn touch(&mut self, gesture: Gesture) {
        self.send(Command::Touch(gesture));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_are_found_off_the_ui_thread_and_taken_at_the_next_poll() {
        let ctx = egui::Context::default();
        let mut live = LiveState::default();
        live.find_devices(&ctx);
        assert!(live.finding());
        // A second click while ADB is asked starts nothing more.
        live.find_devices(&ctx);
        if let Some(finding) = &live.finding {
            finding.block_until_ready();
        }
        assert!(live.poll().is_empty());
        assert!(!live.finding());
        assert!(
            live.devices.starts_with(&["sim".to_owned()]),
            "{:?}",
            live.devices
        );
        // ADB answered with its phones, or said why it could not.
        assert!(
            live.adb_note.is_some() || live.devices.len() > DeviceChoice::SIMS.len(),
            "{:?}",
            live.devices
        );
    }
}

//! What passed through the proxy, as steps of a tapscope recording, written by the
//! journal's thread off the connections' threads: a look for every dump an agent read, a
//! screenshot, an action (with the screen the agent last read before it, the point on it,
//! and where it landed when the proxy looked), a transfer, or a command. A stale action is
//! said as soon as it is found.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde_json::json;
use tapscope_core::device::Capture;
use tapscope_core::device::adb_command::Input;
use tapscope_core::device::host_service::DeviceService;
use tapscope_core::device::sync_stream::Transfer;
use tapscope_core::forensics::coordinate;
use tapscope_core::geometry::Point;
use tapscope_core::model::Rect;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::{Actor, AdbCommand, CommandKind, Landed, ProxyHeader};
use tapscope_core::session::Observation;

use super::Config;
use super::check::{Checked, pixels_landed};
use super::served::{Opened, Served};
use super::watch::Screen;
use crate::journal::{Call, Done, Journal, Pending, Shot, Ticket, Written};

/// Hears each stale action as it is found, in a sentence.
pub type Said = Box<dyn Fn(&str) + Send + 'static>;

/// The recorder: a queue to its thread.
#[derive(Debug)]
pub struct Recorder {
    queue: Mutex<Option<Sender<Served>>>,
    thread: Option<JoinHandle<()>>,
}

impl Recorder {
    /// Starts a recording in `dir` of what passes to `config.upstream`.
    pub fn start(
        dir: &Path,
        config: &Config,
        started: Instant,
        said: Option<Said>,
    ) -> anyhow::Result<Recorder> {
        let header = ProxyHeader {
            upstream: config.upstream.to_string(),
            check: config.check,
        };
        let journal = Journal::proxying(dir, header, started.elapsed())?;
        let (queue, served) = mpsc::channel();
        let mut steps = Steps {
            journal,
            rules: PruneRules::default(),
            phones: HashMap::new(),
            said,
            logs: config.logs.then(|| Logs {
                upstream: config.upstream,
                read_to: HashMap::new(),
            }),
        };
        let thread = std::thread::Builder::new()
            .name("tapscope proxy recorder".into())
            .spawn(move || steps.run(&served))?;
        Ok(Recorder {
            queue: Mutex::new(Some(queue)),
            thread: Some(thread),
        })
    }

    /// Queues what passed on one service.
    pub fn served(&self, served: Served) {
        let queue = self.queue.lock();
        if let Some(queue) = &*queue {
            // The thread ends only when the queue closes.
            let _ = queue.send(served);
        }
    }
}

impl Drop for Recorder {
    /// Closes the queue and waits until every step in it is written.
    fn drop(&mut self) {
        self.queue.lock().take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Waits for each step to be written, in order, and says once, on the proxy's terminal,
/// when the recording stopped (a failure is given for one step only); the proxy goes on.
fn say_when_stopped(tickets: &Receiver<Ticket>) {
    for ticket in tickets {
        if let Written::Failed { dir, error } = ticket.wait() {
            eprintln!(
                "tapscope proxy: stopped recording to {}: {error}; what passes is no longer recorded",
                dir.display()
            );
        }
    }
}

/// The most recent looks kept per phone, to find the one an action was aimed from.
const LOOKS_KEPT: usize = 16;
/// The box compared around a point when no element is known there (`--check pixels`).
const POINT_BOX: i32 = 48;

/// Where an action landed, as the proxy's own look told.
enum Verdict {
    /// By the element under the point on both trees.
    Tree(coordinate::Landing),
    /// By the pixels under the point: what it hit on the screen read, and whether they
    /// changed.
    Pixels {
        then: Option<tapscope_core::forensics::Target>,
        landed: Landed,
    },
}

impl Verdict {
    fn landed(&self) -> Landed {
        match self {
            Verdict::Tree(landing) => landing.landed,
            Verdict::Pixels { landed, .. } => *landed,
        }
    }
}

/// A dump an agent read, and when it ended.
#[derive(Debug)]
struct Look {
    ended: Duration,
    seen: Arc<Observation>,
}

/// What is known of one phone's screen.
#[derive(Debug, Default)]
struct Phone {
    looks: VecDeque<Look>,
    /// The latest screenshot an agent took (or the proxy took after a look).
    shot: Option<Arc<Capture>>,
    /// An action came since the latest look.
    acted: bool,
}

/// The recorder's thread.
struct Steps {
    journal: Journal,
    rules: PruneRules,
    phones: HashMap<String, Phone>,
    said: Option<Said>,
    /// Where each phone's log was read to, when the recording keeps logs.
    logs: Option<Logs>,
}

/// What reading the phones' logs needs: the adb server, and each phone's cursor.
struct Logs {
    upstream: std::net::SocketAddrV4,
    read_to: HashMap<String, tapscope_core::session::log::Cursor>,
}

impl Logs {
    /// What `serial` logged since its previous action (since this one, the first time),
    /// or a note of why it could not be read.
    fn after_action(&mut self, serial: &str) -> tapscope_core::logcat::Report {
        use tapscope_core::device::adb::AdbDevice;
        let cursor = self.read_to.entry(serial.to_owned()).or_default();
        match AdbDevice::connect_at(self.upstream, Some(serial)) {
            Ok(mut phone) => tapscope_core::session::log::step_report(&mut phone, cursor),
            Err(why) => tapscope_core::logcat::Report {
                notes: vec![format!(
                    "the proxy could not reach the phone to read its log: {why}"
                )],
                ..tapscope_core::logcat::Report::default()
            },
        }
    }
}

impl Steps {
    fn run(&mut self, served: &Receiver<Served>) {
        // Waited on by a thread of their own: the journal writes in order while this
        // thread reads what comes next.
        let (tickets, to_wait) = mpsc::channel();
        let waiter = std::thread::Builder::new()
            .name("tapscope proxy recording".into())
            .spawn(move || say_when_stopped(&to_wait));
        while let Ok(one) = served.recv() {
            for pending in self.steps(one) {
                let _ = tickets.send(self.journal.submit(pending));
            }
        }
        drop(tickets);
        if let Ok(waiter) = waiter {
            let _ = waiter.join();
        }
    }

    fn steps(&mut self, served: Served) -> Vec<Pending> {
        let command = served.command.clone();
        let adb = |kind| AdbCommand {
            serial: served.serial.clone(),
            connection: served.connection,
            service: served.service.clone(),
            kind,
            exit: served.passed.exit,
            sent: served.spliced.sent,
            received: served.spliced.received,
            landed: None,
        };
        let call = |tool: &str, version_used: Option<String>| Call {
            actor: Actor::Agent,
            tool: tool.to_owned(),
            arguments: json!({ "command": command }),
            handle: None,
            version_used,
            at: served.started,
            duration: served.ended.saturating_sub(served.started),
        };
        if let Opened::Refused(reason) = &served.opened {
            let kind = if served.inputs.is_empty() {
                CommandKind::Command
            } else {
                CommandKind::Action
            };
            let message = format!("the adb server refused {}: {reason}", served.service);
            let pending = Pending::new(
                call(tool_of(&served), None),
                None,
                Done::Failed,
                None,
                message,
                None,
            );
            return vec![pending.proxied(adb(kind), Vec::new())];
        }
        let mut steps = Vec::new();
        if !served.inputs.is_empty() {
            steps.push(self.action(&served, call, adb(CommandKind::Action)));
        }
        for shown in &served.passed.screens {
            // A pulled screen is read by its pull, whatever opened the stream.
            let pulled = shown.pulled.as_ref().map(|path| format!("pull {path}"));
            let look_call = |tool: &str, used: Option<String>| {
                let mut made = call(tool, used);
                if let Some(pulled) = &pulled {
                    made.arguments = json!({ "command": pulled });
                }
                made
            };
            steps.push(self.screen(&served, &shown.screen, look_call, adb));
        }
        for transfer in &served.passed.transfers {
            steps.push(transfer_step(transfer, call, adb));
        }
        if steps.is_empty() {
            let installs = command.contains("package install") || command.contains("pm install");
            let (tool, kind) = match DeviceService::parse(&served.service) {
                _ if installs => ("install", CommandKind::Transfer),
                DeviceService::Sync => ("sync", CommandKind::Command),
                DeviceService::Other(_) => ("service", CommandKind::Command),
                _ => ("shell", CommandKind::Command),
            };
            let message = command_message(&served);
            steps.push(
                Pending::new(
                    call(tool, None),
                    None,
                    done_of(&served),
                    None,
                    message,
                    None,
                )
                .proxied(adb(kind), Vec::new()),
            );
        }
        steps
    }

    /// The action step: the screen read before it, where it landed when looked at.
    fn action(
        &mut self,
        served: &Served,
        call: impl Fn(&str, Option<String>) -> Call,
        mut adb: AdbCommand,
    ) -> Pending {
        let aimed = served
            .inputs
            .iter()
            .find(|input| !input.points().is_empty())
            .unwrap_or(&served.inputs[0]);
        let points = aimed.points();
        let phone = self.phones.entry(served.serial.clone()).or_default();
        phone.acted = true;
        let read = phone
            .looks
            .iter()
            .rev()
            .find(|look| look.ended <= served.started)
            .map(|look| (Arc::clone(&look.seen), look.ended));
        let mut notes: Vec<String> = served.inputs.iter().map(Input::describe).collect();
        let mut landing_screen = read.as_ref().map(|(seen, _)| Arc::clone(seen));
        let point = points.first().copied();
        // What the point meets on the screen it was aimed from.
        let aimed_at = read
            .as_ref()
            .zip(point)
            .and_then(|((seen, _), point)| coordinate::hit(&seen.tree, point));
        let verdict = match (&served.checked, &read, point) {
            (Some(Checked::Tree(now)), Some((seen, _)), Some(point)) => {
                landing_screen = Some(Arc::clone(now));
                Some(Verdict::Tree(coordinate::landing(
                    &seen.tree, &now.tree, point,
                )))
            }
            (Some(Checked::Tree(now)), None, _) => {
                landing_screen = Some(Arc::clone(now));
                None
            }
            (Some(Checked::Pixels(now)), _, Some(point)) => phone.shot.as_ref().and_then(|shot| {
                let then = aimed_at.clone();
                let area = then
                    .as_ref()
                    .and_then(|t| t.bounds)
                    .unwrap_or_else(|| around(point));
                pixels_landed(shot, now, area).map(|landed| Verdict::Pixels { then, landed })
            }),
            (Some(Checked::Failed(why)), ..) => {
                notes.push(format!("the proxy could not look before it went on: {why}"));
                None
            }
            _ => None,
        };
        adb.landed = verdict.as_ref().map(Verdict::landed);
        if let (Some(verdict), Some(point)) = (&verdict, point)
            && verdict.landed() == Landed::Elsewhere
        {
            let read_ms = read
                .as_ref()
                .map(|(_, ended)| millis(served.started.saturating_sub(*ended)));
            let tool = tool_of(served);
            let sentence = match verdict {
                Verdict::Tree(landing) => coordinate::describe(tool, point, read_ms, landing),
                Verdict::Pixels { then, .. } => {
                    coordinate::describe_pixels(tool, point, read_ms, then)
                }
            };
            if let Some(said) = &self.said {
                said(&format!(
                    "stale {tool} on {} (connection {}): {sentence}",
                    served.serial, served.connection
                ));
            }
            notes.push(format!("stale: {sentence}"));
        }
        let version_used = read.as_ref().map(|(seen, _)| seen.version.clone());
        let path = points.iter().map(|p| [p.x, p.y]).collect();
        let log = self
            .logs
            .as_mut()
            .map(|logs| Box::new(logs.after_action(&served.serial)));
        Pending::new(
            call(tool_of(served), version_used),
            landing_screen,
            done_of(served),
            None,
            notes.join("\n"),
            None,
        )
        .proxied(adb, path)
        .acting_on(aimed_at.map(|target| target.label))
        .with_log(log)
    }

    /// A look (a dump that passed) or a screenshot.
    fn screen(
        &mut self,
        served: &Served,
        screen: &Screen,
        call: impl Fn(&str, Option<String>) -> Call,
        adb: impl Fn(CommandKind) -> AdbCommand,
    ) -> Pending {
        let phone = self.phones.entry(served.serial.clone()).or_default();
        match screen {
            Screen::Dump(xml) => {
                let seen = match Observation::of_dump(xml.clone(), &self.rules, served.ended) {
                    Ok(seen) => Arc::new(seen),
                    Err(e) => {
                        let message = format!("a dump passed that does not parse: {e}");
                        return Pending::new(
                            call("look", None),
                            None,
                            Done::Failed,
                            None,
                            message,
                            None,
                        )
                        .proxied(adb(CommandKind::Look), Vec::new());
                    }
                };
                let shot = match &served.after_look {
                    Some(Checked::Pixels(shot)) => Some(Arc::clone(shot)),
                    _ => None,
                };
                if let Some(shot) = &shot {
                    phone.shot = Some(Arc::clone(shot));
                }
                phone.looks.push_back(Look {
                    ended: served.ended,
                    seen: Arc::clone(&seen),
                });
                if phone.looks.len() > LOOKS_KEPT {
                    phone.looks.pop_front();
                }
                phone.acted = false;
                let message = format!("read {} nodes", seen.tree.nodes.len());
                let shot = shot.map(Shot::Captured);
                Pending::new(
                    call("look", None),
                    None,
                    Done::Observed(&seen),
                    Some(Arc::clone(&seen)),
                    message,
                    shot,
                )
                .proxied(adb(CommandKind::Look), Vec::new())
            }
            Screen::Png(png) => {
                let capture = Arc::new(Capture::Png(png.clone()));
                phone.shot = Some(Arc::clone(&capture));
                let message = format!("a screenshot of {} bytes", png.len());
                // Shown with the latest look when nothing was done since: the same screen.
                // The agent read that screen again, in pixels: its reading ends now.
                let shown = match phone.looks.back_mut() {
                    Some(look) if !phone.acted => {
                        look.ended = served.ended;
                        Some(Arc::clone(&look.seen))
                    }
                    _ => None,
                };
                let pending = match &shown {
                    Some(seen) => Pending::new(
                        call("screenshot", None),
                        None,
                        Done::Observed(seen),
                        Some(Arc::clone(seen)),
                        message,
                        Some(Shot::Captured(capture)),
                    ),
                    None => Pending::new(
                        call("screenshot", None),
                        None,
                        Done::Answered,
                        None,
                        message,
                        None,
                    ),
                };
                pending.proxied(adb(CommandKind::Screenshot), Vec::new())
            }
        }
    }
}

/// A command that exited with an error, or whose stream broke, failed.
fn done_of(served: &Served) -> Done<'static> {
    if served.passed.exit.is_some_and(|code| code != 0) || served.spliced.broken {
        Done::Failed
    } else {
        Done::Answered
    }
}

/// What a command that was no look, screenshot, action or transfer did, in words.
fn command_message(served: &Served) -> String {
    let (sent, received) = (served.spliced.sent, served.spliced.received);
    match DeviceService::parse(&served.service) {
        DeviceService::Shell { command: "", .. } => {
            format!("an interactive shell: {sent} bytes typed, {received} shown")
        }
        DeviceService::Sync => {
            format!("file queries, no file moved: {sent} bytes sent, {received} received")
        }
        DeviceService::Shell { .. } | DeviceService::Exec(_) => format!(
            "{}{} bytes of output, {sent} bytes of input",
            served
                .passed
                .exit
                .map_or(String::new(), |code| format!("exit {code}; ")),
            served.passed.output_bytes,
        ),
        DeviceService::Other(_) => format!("{sent} bytes sent, {received} received"),
    }
}

/// A push, or a pull that was not a screen, as a step.
fn transfer_step(
    transfer: &Transfer,
    call: impl Fn(&str, Option<String>) -> Call,
    adb: impl Fn(CommandKind) -> AdbCommand,
) -> Pending {
    let (tool, verb, path, size, failed) = match transfer {
        Transfer::Pushed { path, size, failed } => ("push", "pushed", path, size, failed),
        Transfer::Pulled {
            path, size, failed, ..
        } => ("pull", "pulled", path, size, failed),
    };
    let (done, message) = match failed {
        Some(why) => (Done::Failed, format!("{tool} of {path} failed: {why}")),
        None => (Done::Answered, format!("{verb} {path} ({size} bytes)")),
    };
    Pending::new(call(tool, None), None, done, None, message, None)
        .proxied(adb(CommandKind::Transfer), Vec::new())
}

/// The step's tool: what its aimed input (else its first) does.
fn tool_of(served: &Served) -> &'static str {
    let aimed = served
        .inputs
        .iter()
        .find(|input| !input.points().is_empty())
        .or(served.inputs.first());
    match aimed {
        Some(Input::Tap(_)) => "tap",
        Some(Input::Swipe { drag: false, .. }) => "swipe",
        Some(Input::Swipe { drag: true, .. }) => "drag",
        Some(Input::Motion { .. }) => "touch",
        Some(Input::Text(_)) => "text",
        Some(Input::Keys(_)) => "key",
        Some(Input::Launch(_)) => "launch",
        None => "shell",
    }
}

/// A box of [`POINT_BOX`] pixels around `point`.
fn around(point: Point) -> Rect {
    Rect {
        left: point.x - POINT_BOX / 2,
        top: point.y - POINT_BOX / 2,
        right: point.x + POINT_BOX / 2,
        bottom: point.y + POINT_BOX / 2,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

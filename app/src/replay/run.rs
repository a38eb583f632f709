//! The replay loop: each recorded step sent again, in order, and judged as it comes back.
//!
//! The loop runs on the caller's thread, outside the async runtime: it reads the session
//! (`latest`, `observe`, a person's calls), which blocks for as long as an act holds the
//! session for its settle, and it enters the runtime only to connect, to make an agent's
//! call over MCP and to disconnect. The server answers on the runtime's threads.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

use anyhow::Context;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RunningService, ServiceError};
use rmcp::{RoleClient, ServiceExt};
use tapscope_core::handle::Handle;
use tapscope_core::model::Tree;
use tapscope_core::prune::Pruned;
use tapscope_core::recording::{Actor, Recording, ScreenRef, Step, StepOutcome};
use tapscope_core::replay::{
    self, Divergence, Found, Report, Screen, Side, StepResult, ThenNow, Verdict,
};
use tapscope_core::session::{Observation, Session};
use tokio::runtime::Runtime;

use super::Options;
use crate::journal::Journal;
use crate::mcp::{PhoneServer, ServedClock, ServedDevice, person};

/// Replays `original` (named `name`) on `session` of the device `device`, recording the run
/// into `options.record`; `progress` hears of each step done out of all.
pub fn replay<D: ServedDevice, C: ServedClock>(
    session: Session<D, C>,
    original: &Recording,
    name: &str,
    device: &str,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<Report> {
    let now = session.clock().now();
    let (journal, written) = Journal::replaying(
        &options.record,
        device,
        now,
        options.durability,
        options.name_original.then_some(name),
    )
    .with_context(|| {
        format!(
            "could not record the replay in {}",
            options.record.display()
        )
    })?;
    let server = PhoneServer::new(session).with_journal(journal);
    let runtime = Runtime::new().context("the async runtime did not start")?;
    let mut report = Report {
        recording: name.to_owned(),
        device: device.to_owned(),
        slower_factor: options.slower_factor,
        notes: notes(original, device),
        ..Report::default()
    };
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let serving = runtime.spawn({
        let server = server.clone();
        async move {
            let service = server.serve(server_io).await?;
            service.waiting().await?;
            anyhow::Ok(())
        }
    });
    let client = runtime
        .block_on(().serve(client_io))
        .context("the replay could not connect")?;
    let mut run = Run {
        original,
        options,
        runtime: &runtime,
        server: &server,
        client: &client,
        written: &written,
        today: HashMap::new(),
        recorded: HashMap::new(),
        notes: Vec::new(),
        displays_compared: false,
    };
    let total = original.steps.len();
    for (k, step) in original.steps.iter().enumerate() {
        let result = run.step(k, step);
        let diverged = matches!(result.verdict, Verdict::Diverged(_));
        report.steps.push(result);
        progress(k + 1, total);
        if diverged {
            report.not_run = total - k - 1;
            break;
        }
    }
    report.notes.append(&mut run.notes);
    runtime
        .block_on(client.cancel())
        .context("the replay did not disconnect")?;
    runtime
        .block_on(serving)
        .context("the server task failed")??;
    Ok(report)
}

/// What cannot be compared, said once before the steps.
fn notes(original: &Recording, device: &str) -> Vec<String> {
    let mut notes: Vec<String> = original.problems.iter().map(ToString::to_string).collect();
    let recorded_on = &original.header.device;
    let sims = |d: &str| d.starts_with("sim");
    if recorded_on != device && sims(recorded_on) != sims(device) {
        notes.push(format!(
            "recorded on {recorded_on}, replayed on {device}: another kind of device, so \
             screens may differ beyond the app's changes"
        ));
    }
    notes
}

/// One replay under way.
struct Run<'a, D: ServedDevice, C: ServedClock> {
    original: &'a Recording,
    options: &'a Options,
    /// Where the agent's calls are made.
    runtime: &'a Runtime,
    server: &'a PhoneServer<D, C>,
    client: &'a RunningService<RoleClient, ()>,
    written: &'a Receiver<Step>,
    /// Today's screen in the place of each recorded version.
    today: HashMap<String, Arc<Observation>>,
    /// Recorded screens as the agent read them, by dump and pixel text files (one version
    /// may have had several dumps: the same text at other exact bounds), or why one cannot
    /// be read.
    recorded: HashMap<ScreenFiles, Loaded>,
    /// What could not be compared, as it is found.
    notes: Vec<String>,
    /// Whether the display sizes of then and now were compared yet.
    displays_compared: bool,
}

/// A recorded screen's files: its dump, and the text read in its pixels.
type ScreenFiles = (String, Option<String>);

/// A recorded screen as the agent read it, or why it cannot be read.
type Loaded = Result<Arc<(Tree, Pruned)>, String>;

/// What a recorded call becomes today.
enum Sent {
    /// These arguments, and the recorded target's name when it named one.
    Call(serde_json::Value, Option<String>),
    /// It cannot be sent: the step diverges before any call.
    Diverged(Divergence, Option<String>),
}

impl<D: ServedDevice, C: ServedClock> Run<'_, D, C> {
    fn step(&mut self, k: usize, step: &Step) -> StepResult {
        let before = self.server.session().latest();
        if let (Some(screen), Some(seen)) = (&step.before, &before) {
            self.today
                .entry(screen.version.clone())
                .or_insert_with(|| Arc::clone(seen));
        }
        let (arguments, target) = match self.retarget(k, step) {
            Sent::Call(arguments, target) => (arguments, target),
            Sent::Diverged(why, target) => return not_sent(step, why, target),
        };
        let today = match self.call(step, arguments) {
            Ok(today) => today,
            Err(why) => return not_sent(step, why, target),
        };
        let after = today
            .after
            .as_ref()
            .and_then(|_| self.server.session().latest());
        let mut result = self.judged(step, &today, after.as_deref(), before.as_deref(), target);
        if let (Some(screen), Some(seen)) = (&step.after, &after) {
            self.today.insert(screen.version.clone(), Arc::clone(seen));
        }
        // A screen that read otherwise may still have been moving: look again.
        while matches!(result.verdict, Verdict::Changed(_)) && result.retries < self.options.retries
        {
            let Ok(fresh) = self.server.session().observe() else {
                break;
            };
            let fresh = Arc::new(fresh);
            let retries = result.retries + 1;
            result = self.judged(step, &today, Some(&fresh), before.as_deref(), result.target);
            result.retries = retries;
            result.flaky = result.verdict.is_same();
            if let Some(screen) = &step.after {
                self.today.insert(screen.version.clone(), fresh);
            }
        }
        result
    }

    /// The latest recorded screen of `version` up to step index `k`, as the agent read it.
    fn recorded(&mut self, k: usize, version: &str) -> Loaded {
        let original = self.original;
        let Some(screen) = replay::screen_of(&original.steps[..=k], version) else {
            return Err("no step of the recording up to this one shows it".to_owned());
        };
        self.recorded_screen(screen)
    }

    /// A recorded screen as the agent read it (loaded once).
    fn recorded_screen(&mut self, screen: &ScreenRef) -> Loaded {
        // One dump can be several screens: other text read in its pixels.
        let files = (screen.dump.clone(), screen.pixel_text.clone());
        if let Some(known) = self.recorded.get(&files) {
            return known.clone();
        }
        let loaded = match replay::recorded_screen(self.original, screen) {
            Ok(Some(read)) => Ok(Arc::new(read)),
            Ok(None) => Err(
                "its dump does not parse, or does not prune back to the text \
                             recorded (another tapscope's rules)"
                    .to_owned(),
            ),
            Err(error) => Err(error.to_string()),
        };
        self.recorded.insert(files, loaded.clone());
        loaded
    }

    /// The recorded call's arguments with its handle turned into today's.
    fn retarget(&mut self, k: usize, step: &Step) -> Sent {
        let Some((recorded, handle)) = step
            .handle
            .as_deref()
            .and_then(|h| Some((h, h.parse::<Handle>().ok()?)))
        else {
            // No handle, or one that never parsed (the call was refused for it).
            return Sent::Call(step.arguments.clone(), None);
        };
        let then = self.recorded(k, &handle.version);
        let target = then
            .as_ref()
            .ok()
            .and_then(|s| s.1.resolve(handle.i))
            .map(|n| n.name().to_string());
        let then = match then {
            Ok(then) => then,
            Err(why) => {
                return Sent::Diverged(
                    Divergence::ScreenUnknown {
                        version: handle.version.clone(),
                        why,
                    },
                    target,
                );
            }
        };
        let Some(now) = self.today.get(&handle.version).cloned() else {
            if step.outcome == StepOutcome::Refused {
                // A handle from a screen today's run never showed: refused again, as it was.
                return Sent::Call(step.arguments.clone(), target);
            }
            let why = "today's run never showed a screen in its place".to_owned();
            return Sent::Diverged(
                Divergence::ScreenUnknown {
                    version: handle.version.clone(),
                    why,
                },
                target,
            );
        };
        let then_screen = Screen {
            tree: &then.0,
            pruned: &then.1,
        };
        let mut looks = 0;
        let mut now = now;
        loop {
            let found = replay::find_again(
                then_screen,
                handle.i,
                Screen {
                    tree: &now.tree,
                    pruned: &now.pruned,
                },
                &self.options.ignore,
            );
            let meant = target
                .clone()
                .unwrap_or_else(|| format!("node {}", handle.i));
            let why = match found {
                Found::At { i, .. } => {
                    let today = format!("{}_{i}", now.version);
                    return Sent::Call(
                        replay::with_handle(&step.arguments, recorded, &today),
                        target,
                    );
                }
                Found::NotActionable { .. } => Divergence::TargetNotActionable { meant },
                Found::Gone => Divergence::TargetGone { meant },
            };
            // The screen may still have been loading: look again, when it is the latest.
            let latest = self.server.session().latest();
            let is_latest = latest.as_ref().is_some_and(|l| l.version == now.version);
            if looks >= self.options.retries || !is_latest {
                return Sent::Diverged(why, target);
            }
            looks += 1;
            match self.server.session().observe() {
                Ok(fresh) => {
                    now = Arc::new(fresh);
                    self.today.insert(handle.version.clone(), Arc::clone(&now));
                }
                Err(_) => return Sent::Diverged(why, target),
            }
        }
    }

    /// Sends the call and returns today's step as the replay's recording wrote it.
    fn call(&self, step: &Step, arguments: serde_json::Value) -> Result<Step, Divergence> {
        if step.actor == Actor::Person {
            self.person_call(step, &arguments)?;
        } else {
            self.agent_call(step, arguments)?;
        }
        self.written.try_recv().map_err(|_| Divergence::Device {
            error: "the call left no step in the replay's recording (it stopped recording)"
                .to_owned(),
        })
    }

    /// An agent's call, through the tools as the agent made it.
    fn agent_call(&self, step: &Step, arguments: serde_json::Value) -> Result<(), Divergence> {
        let mut request = CallToolRequestParams::new(step.tool.clone());
        if let serde_json::Value::Object(map) = arguments {
            request = request.with_arguments(map);
        }
        match self.runtime.block_on(self.client.call_tool(request)) {
            // A refusal of the protocol's is recorded as a refused step too.
            Ok(_) | Err(ServiceError::McpError(_)) => Ok(()),
            Err(other) => Err(Divergence::Device {
                error: format!("the call could not be made: {other}"),
            }),
        }
    }

    /// A person's call, through the person's side of the server (display pixels, the gate).
    fn person_call(&self, step: &Step, arguments: &serde_json::Value) -> Result<(), Divergence> {
        let made = if step.tool == "screen_operation_accessibility" {
            Ok(self.server.person_observe().map(drop))
        } else {
            person::action(&step.tool, arguments)
                .map(|action| self.server.person_act(&action).map(drop))
        };
        // A call that failed is a step like any other; one that could not be made is not.
        made.map(drop)
            .map_err(|why| Divergence::NotReplayable { why })
    }

    fn judged(
        &mut self,
        step: &Step,
        today: &Step,
        after: Option<&Observation>,
        before: Option<&Observation>,
        target: Option<String>,
    ) -> StepResult {
        let then_after = match &step.after {
            Some(screen) => match self.recorded_screen(screen) {
                Ok(read) => Some(read),
                Err(why) => {
                    self.notes.push(format!(
                        "step {}: the recorded screen after it ({}) cannot be read, so only its \
                         outcome was compared: {why}",
                        step.step, screen.dump
                    ));
                    None
                }
            },
            None => None,
        };
        let then_before = step
            .before
            .as_ref()
            .and_then(|s| self.recorded_screen(s).ok());
        if let (Some(then), Some(now), false) = (&then_after, after, self.displays_compared) {
            self.displays_compared = true;
            let (was, is) = (then.1.display, now.pruned.display);
            if was != is {
                self.notes.push(format!(
                    "recorded on a {}×{} display, replayed on {}×{}: pixel actions are sent as \
                     recorded (the screenshot's pixels), and places are compared as they are",
                    was.width, was.height, is.width, is.height
                ));
            }
        }
        // Only a pixel action's point is reported (a handle's target is named already), so
        // only then is it looked up on both screens.
        let point = step.path.first().copied().filter(|_| step.handle.is_none());
        let then_at = point.and_then(|p| replay::at_point(&then_before.as_ref()?.0, p));
        let now_point = point.and(today.path.first().copied()).or(point);
        let now_at = now_point.and_then(|p| replay::at_point(&before?.tree, p));
        let then = Side {
            step,
            after: then_after
                .as_deref()
                .map(|(tree, pruned)| Screen { tree, pruned }),
            at_point: then_at.as_deref(),
        };
        let now = Side {
            step: today,
            after: after.map(|o| Screen {
                tree: &o.tree,
                pruned: &o.pruned,
            }),
            at_point: now_at.as_deref(),
        };
        replay::judge(
            then,
            now,
            target,
            &self.options.ignore,
            self.options.slower_factor,
        )
    }
}

/// A step that diverged before a call was made (or could be).
fn not_sent(step: &Step, why: Divergence, target: Option<String>) -> StepResult {
    StepResult {
        step: step.step,
        tool: step.tool.clone(),
        target,
        verdict: Verdict::Diverged(why),
        retries: 0,
        flaky: false,
        settle_ms: ThenNow {
            then: replay::settle_ms(step),
            now: None,
        },
        pruned_tokens: ThenNow {
            then: step.after.as_ref().map(|s| s.pruned_tokens),
            now: None,
        },
        slower: false,
        at_point: None,
    }
}

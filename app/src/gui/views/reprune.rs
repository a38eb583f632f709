//! The rules panel on the open recording: every distinct screen of it re-pruned under the
//! rules being edited, the pruned tokens as recorded and now, and the steps whose screens
//! lose semantic nodes or whose target is lost, each a click away. A short recording is
//! re-pruned in the frame; a long one on a thread of its own, the last result shown
//! meanwhile. A result is kept until the recording or the rules change.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

use poll_promise::Promise;
use tapscope_core::prune::PruneRules;
use tapscope_core::recording::Recording;
use tapscope_core::reprune::{self, Reprune, RepruneError, StepReprune, TargetCheck};

use super::colors;

/// Recordings with at most this many distinct screens are re-pruned in the frame (about
/// 0.1 ms a screen in a release build); longer ones off the UI thread.
pub const IN_FRAME_SCREENS: usize = 32;

/// How many lost nodes a step's hover text names before it says how many more.
const NAMED_ON_HOVER: usize = 12;

type Outcome = Result<Reprune, RepruneError>;

/// What a re-prune was made of: the recording as read (a grown live recording is read
/// again, so it is another) and the rules.
struct Made {
    recording: Arc<Recording>,
    rules: PruneRules,
}

impl Made {
    fn is(&self, recording: &Arc<Recording>, rules: &PruneRules) -> bool {
        Arc::ptr_eq(&self.recording, recording) && self.rules == *rules
    }
}

/// The latest re-prune finished, and the one in flight.
#[derive(Default)]
pub struct RepruneState {
    done: Option<(Made, Outcome)>,
    running: Option<(Made, Promise<Outcome>)>,
}

impl fmt::Debug for RepruneState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepruneState")
            .field("done", &self.done.as_ref().map(|(made, _)| &made.rules))
            .field("running", &self.running.is_some())
            .finish()
    }
}

impl RepruneState {
    /// Takes a finished re-prune in, and starts one of `recording` under `rules` unless
    /// that is the one shown or one is in flight (the next starts once it is in).
    fn refresh(&mut self, recording: &Arc<Recording>, rules: &PruneRules, ctx: &egui::Context) {
        if let Some((made, promise)) = self.running.take() {
            match promise.try_take() {
                Ok(outcome) => self.done = Some((made, outcome)),
                Err(promise) => self.running = Some((made, promise)),
            }
        }
        let current = self
            .done
            .as_ref()
            .is_some_and(|(made, _)| made.is(recording, rules));
        if current || self.running.is_some() {
            return;
        }
        let made = Made {
            recording: Arc::clone(recording),
            rules: rules.clone(),
        };
        if distinct_screens(recording) <= IN_FRAME_SCREENS {
            self.done = Some((made, reprune::reprune(recording, rules)));
            return;
        }
        let ctx = ctx.clone();
        let (recording, rules) = (Arc::clone(recording), rules.clone());
        let promise = Promise::spawn_thread("reprune", move || {
            let outcome = reprune::reprune(&recording, &rules);
            ctx.request_repaint();
            outcome
        });
        self.running = Some((made, promise));
    }

    /// Waits for the re-prune in flight, if any (tests, scripted use).
    pub fn finish(&mut self) {
        if let Some((made, promise)) = self.running.take() {
            self.done = Some((made, promise.block_and_take()));
        }
    }
}

fn distinct_screens(recording: &Recording) -> usize {
    let screens = recording.steps.iter().flat_map(|s| [&s.before, &s.after]);
    let dumps: HashSet<&str> = screens.flatten().map(|s| s.dump.as_str()).collect();
    dumps.len()
}

/// The whole recording under `rules`; returns the step a person clicked.
pub fn reprune_ui(
    ui: &mut egui::Ui,
    state: &mut RepruneState,
    recording: &Arc<Recording>,
    rules: &PruneRules,
) -> Option<usize> {
    state.refresh(recording, rules, ui.ctx());
    ui.strong("Whole recording");
    let Some((made, outcome)) = &state.done else {
        ui.weak("Re-pruning every screen of the recording…");
        return None;
    };
    if !made.is(recording, rules) {
        ui.weak("Re-pruning under the rules as they are now…");
    }
    match outcome {
        Ok(result) => result_ui(ui, result),
        Err(error) => {
            ui.colored_label(colors::LOST, error.to_string());
            None
        }
    }
}

fn result_ui(ui: &mut egui::Ui, result: &Reprune) -> Option<usize> {
    let totals = result.totals();
    let tokens = egui::RichText::new(totals.tokens.describe("->")).strong();
    ui.label(match totals.tokens.now.tokens().cmp(&totals.tokens.then) {
        std::cmp::Ordering::Less => tokens.color(colors::ADDED),
        std::cmp::Ordering::Greater => tokens.color(colors::REMOVED),
        std::cmp::Ordering::Equal => tokens,
    });
    ui.weak(format!(
        "over {} steps' screens ({} distinct)",
        totals.counted_steps, totals.screens
    ));
    let unreadable = result.unreadable_files();
    if !unreadable.is_empty() {
        let list: Vec<String> = unreadable.iter().map(ToString::to_string).collect();
        ui.colored_label(
            colors::AMBER,
            format!("{} screen files could not be read", unreadable.len()),
        )
        .on_hover_text(list.join("\n"));
    }
    if !totals.loses_anything() {
        ui.label("no semantic node or target lost on any step");
        return None;
    }
    ui.colored_label(
        colors::LOST,
        format!(
            "{} semantic nodes lost on {} steps, {} targets lost:",
            totals.lost_nodes, totals.steps_with_lost_nodes, totals.lost_targets
        ),
    );
    let mut go = None;
    egui::ScrollArea::vertical()
        .id_salt("reprune steps")
        .max_height(150.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for step in result.steps.iter().filter(|s| loses(result, s)) {
                let text = egui::RichText::new(step_label(result, step)).color(colors::LOST);
                let button = ui.add(egui::Button::new(text).small());
                if button.on_hover_text(step_hover(result, step)).clicked() {
                    go = Some(step.index);
                }
            }
        });
    go
}

fn loses(result: &Reprune, step: &StepReprune) -> bool {
    let target = step.target.as_ref().is_some_and(TargetCheck::is_lost);
    target || !result.lost_nodes(step).is_empty()
}

fn lost_count(result: &Reprune, step: &StepReprune) -> usize {
    result.lost_nodes(step).iter().map(|l| l.lost.len()).sum()
}

/// `step 4 · tap: 29 nodes lost, target lost`.
fn step_label(result: &Reprune, step: &StepReprune) -> String {
    let mut what = Vec::new();
    match lost_count(result, step) {
        0 => {}
        n => what.push(format!("{n} nodes lost")),
    }
    if step.target.as_ref().is_some_and(TargetCheck::is_lost) {
        what.push("target lost".to_owned());
    }
    format!("step {} · {}: {}", step.step, step.tool, what.join(", "))
}

/// The lost nodes by name, per screen, and why the target is lost.
fn step_hover(result: &Reprune, step: &StepReprune) -> String {
    let mut lines = Vec::new();
    for loss in result.lost_nodes(step) {
        let names: Vec<&str> = loss.lost.iter().map(|l| l.name.as_str()).collect();
        let shown = names[..names.len().min(NAMED_ON_HOVER)].join(", ");
        let more = match names.len().saturating_sub(NAMED_ON_HOVER) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        lines.push(format!("screen {}: {shown}{more}", loss.side.name()));
    }
    if let Some(TargetCheck::Lost {
        target,
        i_then,
        why,
    }) = &step.target
    {
        lines.push(format!("target {target} (i {i_then}): {why}"));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapscope_core::prune::KeyboardMode;
    use tapscope_core::recording;
    use tapscope_core::session::synthetic;

    fn generated(steps: usize) -> (tempfile::TempDir, Arc<Recording>) {
        let dir = tempfile::tempdir().expect("a folder");
        synthetic::write(dir.path(), steps, 7).expect("written");
        let recording = recording::read(dir.path()).expect("reads");
        (dir, Arc::new(recording))
    }

    fn shown_rules(state: &RepruneState) -> Option<&PruneRules> {
        state.done.as_ref().map(|(made, _)| &made.rules)
    }

    #[test]
    fn a_long_recording_is_repruned_on_a_thread_the_last_result_shown_meanwhile() {
        let (_dir, recording) = generated(120);
        assert!(distinct_screens(&recording) > IN_FRAME_SCREENS);
        let ctx = egui::Context::default();
        let mut state = RepruneState::default();
        let defaults = PruneRules::default();
        state.refresh(&recording, &defaults, &ctx);
        assert!(state.running.is_some() && state.done.is_none());
        state.finish();
        assert_eq!(shown_rules(&state), Some(&defaults));
        state.refresh(&recording, &defaults, &ctx);
        assert!(state.running.is_none(), "the same rules start nothing");

        let collapse = PruneRules {
            keyboard: KeyboardMode::Collapse,
            ..PruneRules::default()
        };
        state.refresh(&recording, &collapse, &ctx);
        assert!(state.running.is_some());
        assert_eq!(
            shown_rules(&state),
            Some(&defaults),
            "shown until the new one is in"
        );
        state.finish();
        let Some((_, Ok(result))) = &state.done else {
            panic!("re-pruned: {state:?}");
        };
        assert!(result.totals().lost_nodes > 0);
    }

    #[test]
    fn a_short_recording_is_repruned_in_the_frame() {
        let (_dir, recording) = generated(6);
        assert!(distinct_screens(&recording) <= IN_FRAME_SCREENS);
        let mut state = RepruneState::default();
        state.refresh(
            &recording,
            &PruneRules::default(),
            &egui::Context::default(),
        );
        assert!(state.running.is_none());
        assert_eq!(shown_rules(&state), Some(&PruneRules::default()));
    }
}

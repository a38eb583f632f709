//! `compare_ui`: one step's screens before and after side by side with the action drawn on
//! them, beside the structural diff of the two trees (appeared in green, disappeared in
//! red, changed with what changed), the tree acted on with the target's line selected, the
//! arguments and the whole result.

use egui::{Color32, RichText, pos2, vec2};
use tapscope_core::handle::Handle;
use tapscope_core::inspect::tree_diff::{DiffNode, TreeDiff};
use tapscope_core::model::NodeId;
use tapscope_core::recording::{ScreenRef, Step};

use super::colors;
use super::picture::{Mark, picture_ui};
use super::screen::node_at;
use super::step::{outcome_color, outcome_word};
use crate::gui::recording::{Loaded as LoadedScreen, Screen, StepRef};

/// The step's screens, their diff and its text.
pub fn compare_ui(ui: &mut egui::Ui, info: StepRef<'_>) {
    let step = info.step;
    let before = step.before.as_ref().map(|s| (s, info.recording.screen(s)));
    let after = step.after.as_ref().map(|s| (s, info.recording.screen(s)));
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("Compare {}", info.position()));
        ui.label(RichText::new(&step.tool).monospace().strong());
        ui.colored_label(outcome_color(step.outcome), outcome_word(step.outcome));
        if let Some(acted_on) = &step.acted_on {
            ui.label(format!("acted on {acted_on}"));
        }
    });
    let diff = match (&before, &after) {
        (Some((_, Ok(b))), Some((_, Ok(a)))) => Some(info.recording.diff(info.index, b, a)),
        _ => None,
    };
    egui::Panel::right("compare text")
        .resizable(true)
        .default_size(ui.available_width() * 0.5)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("compare text")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    text_ui(ui, step, diff.as_deref(), before.as_ref(), after.as_ref());
                });
        });
    // What went is outlined in red on the screen before, what came in green after.
    let outlines = |nodes: fn(&TreeDiff) -> &[DiffNode], color: Color32| -> Vec<Mark> {
        let nodes = diff.as_deref().map_or(&[][..], nodes);
        nodes
            .iter()
            .map(|n| Mark::Bounds(n.bounds, color))
            .collect()
    };
    let mut gone = outlines(|d| &d.disappeared, colors::REMOVED);
    if let Some((_, Ok(screen))) = &before
        && let Some(target) = target(step, screen)
    {
        gone.push(Mark::Bounds(target.bounds, colors::SELECTED));
    }
    let came = outlines(|d| &d.appeared, colors::ADDED);
    egui::CentralPanel::default().show(ui, |ui| {
        ui.columns(2, |columns| {
            screen_ui(&mut columns[0], "before", step, before.as_ref(), gone);
            screen_ui(&mut columns[1], "after", step, after.as_ref(), came);
        });
    });
}

/// A recorded screen, and the screen loaded (or why it could not be).
pub type Loaded<'a> = (&'a ScreenRef, LoadedScreen);

/// One screen with `marks` and the gesture drawn over it, named `screen {side}`.
pub fn screen_ui(
    ui: &mut egui::Ui,
    side: &str,
    step: &Step,
    screen: Option<&Loaded>,
    mut marks: Vec<Mark>,
) {
    let Some((screen_ref, loaded)) = screen else {
        ui.strong(format!("No screen {side}"));
        ui.weak("the call did not record one");
        return;
    };
    ui.strong(format!("{side}: version {}", screen_ref.version));
    let screen = match loaded {
        Ok(screen) => screen,
        Err(why) => {
            ui.colored_label(colors::LOST, why.to_string());
            return;
        }
    };
    for warning in &screen.document.screen_notes {
        ui.colored_label(colors::LOST, warning);
    }
    if !step.path.is_empty() {
        marks.push(Mark::Gesture(step.path.clone(), colors::SELECTED));
    }
    let size = ui.available_size().max(vec2(40.0, 80.0));
    picture_ui(ui, screen, size, &format!("screen {side}"), &marks);
}

/// The element a call acted on, found on one of its screens.
struct Target {
    /// The raw node.
    id: NodeId,
    bounds: tapscope_core::Rect,
}

/// The element the call named by handle on this screen, else the one at its first point.
fn target(step: &Step, screen: &Screen) -> Option<Target> {
    if let Some(handle) = step.handle.as_deref() {
        let handle: Handle = handle.parse().ok()?;
        let node = (handle.version == screen.document.version)
            .then(|| screen.inspection().pruned.resolve(handle.i))??;
        return Some(Target {
            id: node.raw,
            bounds: node.bounds,
        });
    }
    let &[x, y] = step.path.first()?;
    let document = &screen.document;
    let id = node_at(document, screen.inspection(), pos2(x as f32, y as f32))?;
    let bounds = document.visibility.get(id).ok()?;
    Some(Target { id, bounds })
}

fn text_ui(
    ui: &mut egui::Ui,
    step: &Step,
    diff: Option<&TreeDiff>,
    before: Option<&Loaded>,
    after: Option<&Loaded>,
) {
    ui.strong("What changed in the tree");
    match diff {
        Some(diff) => diff_ui(ui, diff, "the tree is the same before and after"),
        None => {
            ui.weak("nothing to compare: the step lacks a screen before or after");
        }
    };
    ui.separator();
    let aimed = step.handle.is_some() || !step.path.is_empty();
    if let Some((_, Ok(screen))) = before.filter(|_| aimed) {
        egui::CollapsingHeader::new("Tree acted on, the target highlighted")
            .default_open(true)
            .show(ui, |ui| acted_on_ui(ui, step, screen));
        ui.separator();
    }
    ui.strong("Arguments");
    let arguments = serde_json::to_string_pretty(&step.arguments).unwrap_or_default();
    ui.label(RichText::new(arguments).monospace());
    ui.separator();
    ui.strong("Result text");
    if step.message.is_empty() {
        ui.weak("(none besides the tree)");
    } else {
        ui.add(egui::Label::new(RichText::new(&step.message).monospace()).wrap());
    }
    if let Some((_, Ok(screen))) = after {
        egui::CollapsingHeader::new("Tree after, as the agent read it")
            .default_open(false)
            .show(ui, |ui| match &screen.pruned_text {
                Ok(text) => ui.label(RichText::new(text).monospace()),
                Err(why) => ui.colored_label(colors::LOST, why.to_string()),
            });
    }
}

/// The pruned tree of the screen the step acted on, its target's line selected; a stale
/// handle's target is on another screen (the forensics show it).
fn acted_on_ui(ui: &mut egui::Ui, step: &Step, screen: &Screen) {
    let target = target(step, screen);
    let line = target.and_then(|t| *screen.inspection().line_of_node.get(t.id)?);
    match (&step.handle, line) {
        (_, Some(_)) => {}
        (Some(handle), None) => {
            ui.colored_label(
                colors::AMBER,
                format!(
                    "{handle} names a screen other than this one (version {}); the \
                     forensics under the timeline show what it meant",
                    screen.document.version
                ),
            );
        }
        (None, None) => {
            ui.weak("no element is under the step's point on this screen");
        }
    }
    for (k, text) in screen
        .inspection()
        .lines
        .iter()
        .map(|l| &l.text)
        .enumerate()
    {
        let _ = ui.selectable_label(line == Some(k), RichText::new(text).monospace());
    }
}

/// Appeared, disappeared and changed nodes, one per line; `same` when there are none.
pub fn diff_ui(ui: &mut egui::Ui, diff: &TreeDiff, same: &str) {
    ui.label(format!(
        "{} appeared · {} disappeared · {} changed · {} unchanged",
        diff.appeared.len(),
        diff.disappeared.len(),
        diff.changed.len(),
        diff.unchanged
    ));
    if diff.is_empty() {
        ui.weak(same);
    }
    let list = |ui: &mut egui::Ui, sign: &str, nodes: &[DiffNode], color: Color32| {
        for node in nodes {
            ui.label(RichText::new(format!("{sign} {}", node.label)).color(color));
        }
    };
    list(ui, "+", &diff.appeared, colors::ADDED);
    list(ui, "-", &diff.disappeared, colors::REMOVED);
    for changed in &diff.changed {
        let what = changed.what.join(", ");
        let text = if changed.before.label == changed.after.label {
            format!("~ {} ({what})", changed.after.label)
        } else {
            format!(
                "~ {} -> {} ({what})",
                changed.before.label, changed.after.label
            )
        };
        ui.label(RichText::new(text).color(colors::HOVERED));
    }
}

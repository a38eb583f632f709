//! `forensics_ui`: whether the step on show acted on a screen that was gone, in one amber
//! sentence, with the element the agent meant on the old screen beside what is at that
//! point on the screen of the moment (for a command through `tapscope proxy`, the screen
//! the agent read beside the one its point landed on); and whether its observation came
//! before the screen settled.

use egui::{RichText, Vec2, vec2};
use tapscope_core::forensics::{Stale, Target};
use tapscope_core::recording::ScreenRef;

use super::colors;
use super::picture::{Mark, picture_ui};
use crate::gui::recording::StepRef;

/// A phone screen's shape, small.
const THUMBNAIL: Vec2 = vec2(72.0, 160.0);
const CAPTION_WIDTH: f32 = 230.0;

/// The review of `info`'s step; nothing when there is nothing to say.
pub fn forensics_ui(ui: &mut egui::Ui, info: StepRef<'_>) {
    let review = match info.recording.review(info.index) {
        Ok(review) => review,
        Err(why) => {
            ui.colored_label(colors::LOST, format!("forensics: {why}"));
            return;
        }
    };
    if let Some(stale) = &review.stale {
        let sentence = RichText::new(&stale.sentence)
            .size(15.0)
            .strong()
            .color(colors::AMBER);
        ui.add(egui::Label::new(sentence).wrap());
        ui.horizontal(|ui| {
            let old = info.recording.find_screen(info.index, &stale.version_used);
            let now = info
                .recording
                .find_screen(info.index, &stale.version_at_action);
            let (then, now_heading) = headings(info, stale);
            let meant = Side {
                name: "meant on the old screen",
                heading: then,
                target: stale.meant.as_ref(),
                color: colors::AMBER,
            };
            side_ui(ui, info, old.as_ref(), &meant, stale);
            ui.separator();
            let now_there = Side {
                name: "now at that point",
                heading: now_heading.to_owned(),
                target: stale.now_there.as_ref(),
                color: colors::HOVERED,
            };
            side_ui(ui, info, now.as_ref(), &now_there, stale);
        });
    }
    if review.unsettled {
        ui.colored_label(colors::AMBER, "observation taken before the screen settled");
    }
    for sentence in crashed(info.step) {
        let sentence = RichText::new(sentence)
            .size(15.0)
            .strong()
            .color(colors::LOST);
        ui.add(egui::Label::new(sentence).wrap());
    }
}

/// What the step's log says happened after it landed: `the tap landed; tv.tapscope.demo
/// then crashed: java.lang.NullPointerException: … at …`.
pub fn crashed(step: &tapscope_core::recording::Step) -> Vec<String> {
    let Some(log) = &step.log else {
        return Vec::new();
    };
    log.crashes
        .iter()
        .map(|crash| {
            let process = if crash.process.is_empty() {
                "a process"
            } else {
                crash.process.as_str()
            };
            let then = match crash.kind.as_str() {
                "ANR" => "then stopped responding (ANR)",
                "native crash" => "then died in native code",
                _ => "then crashed",
            };
            format!("the {} landed; {process} {then}: {}", step.tool, crash.what)
        })
        .collect()
}

/// The two screens' headings: a tool call's old screen and the screen of the moment, or
/// for a command through `tapscope proxy` the screen the agent read and the one its point
/// landed on.
fn headings(info: StepRef<'_>, stale: &Stale) -> (String, &'static str) {
    if info.step.adb.is_some() {
        return (
            "Aimed at, on the screen the agent read".to_owned(),
            "Hit when it landed, on the screen of that moment",
        );
    }
    let ago = match stale.screens_ago {
        1 => "1 screen ago".to_owned(),
        n => format!("{n} screens ago"),
    };
    (
        format!("Meant, on the screen from {ago}"),
        "Now at that point, on the screen of the moment",
    )
}

/// One of the two screens: what it is called, the element on it and its colour.
struct Side<'a> {
    name: &'static str,
    heading: String,
    target: Option<&'a Target>,
    color: egui::Color32,
}

/// A thumbnail with the element's bounds and the point, and a caption beside it.
fn side_ui(
    ui: &mut egui::Ui,
    info: StepRef<'_>,
    screen: Option<&ScreenRef>,
    side: &Side,
    stale: &Stale,
) {
    let mut marks: Vec<Mark> = side
        .target
        .and_then(|t| t.bounds)
        .map(|bounds| Mark::Bounds(bounds, side.color))
        .into_iter()
        .collect();
    marks.extend(stale.point.map(|p| Mark::Gesture(vec![p], side.color)));
    let loaded = screen.map(|s| info.recording.screen(s));
    match &loaded {
        Some(Ok(screen)) => {
            picture_ui(ui, screen, THUMBNAIL, side.name, &marks);
        }
        Some(Err(_)) | None => {
            ui.allocate_exact_size(THUMBNAIL, egui::Sense::hover());
        }
    }
    ui.vertical(|ui| {
        ui.set_width(CAPTION_WIDTH);
        ui.label(RichText::new(&side.heading).strong());
        let what = side.target.map_or("nothing", |t| t.label.as_str());
        ui.add(egui::Label::new(RichText::new(what).color(side.color)).wrap());
        match (screen, &loaded) {
            (Some(screen), Some(Ok(_))) => ui.weak(format!("version {}", screen.version)),
            (_, Some(Err(why))) => ui.colored_label(colors::LOST, why.to_string()),
            _ => ui.weak("that screen is not in the recording"),
        };
        if let Some([x, y]) = stale.point {
            ui.weak(format!("point ({x}, {y})"));
        }
    });
}

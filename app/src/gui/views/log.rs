//! `log_ui`: what the phone logged during the step on show — its crashes first, in red, then
//! its lines coloured by priority (errors red, warnings amber, debug and verbose faint),
//! narrowed by a search and a least priority; what the recording left out is said.

use egui::{Color32, RichText};
use tapscope_core::logcat::{LogLine, Priority};
use tapscope_core::recording::{Recording, Step};

use super::colors;

/// The search, the least priority, and the step's lines once loaded.
#[derive(Debug)]
pub struct LogState {
    pub search: String,
    pub least: Priority,
    /// The file loaded last and what it read as.
    loaded: Option<(String, Result<Vec<LogLine>, String>)>,
}

impl Default for LogState {
    fn default() -> Self {
        Self {
            search: String::new(),
            least: Priority::Verbose,
            loaded: None,
        }
    }
}

/// The log of `step`, read from `recording` once per step.
pub fn log_ui(ui: &mut egui::Ui, recording: &Recording, step: &Step, state: &mut LogState) {
    ui.strong("Log");
    let Some(log) = &step.log else {
        ui.weak(
            "no log was kept for this step (the log is read around actions, with --step-logs on)",
        );
        return;
    };
    for crash in &log.crashes {
        let said = RichText::new(&crash.said).strong().color(colors::LOST);
        ui.add(egui::Label::new(said).wrap());
    }
    for note in &log.notes {
        ui.colored_label(colors::AMBER, note);
    }
    let Some(file) = &log.file else {
        ui.weak("nothing was logged during the step");
        return;
    };
    if state.loaded.as_ref().is_none_or(|(f, _)| f != file) {
        let read = recording.load_log(log).map_err(|e| e.to_string());
        state.loaded = Some((file.clone(), read));
    }
    ui.horizontal(|ui| {
        let label = ui.label("Filter:");
        let edit = egui::TextEdit::singleline(&mut state.search)
            .id_salt("log search")
            .hint_text("tag or text")
            .desired_width(160.0);
        ui.add(edit).labelled_by(label.id);
        egui::ComboBox::from_label("least priority")
            .selected_text(state.least.letter().to_string())
            .show_ui(ui, |ui| {
                for p in Priority::ALL {
                    ui.selectable_value(&mut state.least, p, p.letter().to_string());
                }
            });
    });
    let Some((_, read)) = &state.loaded else {
        return;
    };
    let lines = match read {
        Ok(lines) => lines,
        Err(why) => {
            ui.colored_label(colors::LOST, format!("the log could not be read: {why}"));
            return;
        }
    };
    let search = state.search.to_lowercase();
    let shown: Vec<&LogLine> = lines
        .iter()
        .filter(|l| l.priority >= state.least)
        .filter(|l| {
            search.is_empty()
                || l.tag.to_lowercase().contains(&search)
                || l.message.to_lowercase().contains(&search)
        })
        .collect();
    ui.weak(format!(
        "{} of {} lines{}",
        shown.len(),
        lines.len(),
        match log.left_out {
            0 => String::new(),
            n => format!(" ({n} earlier lines were left out when recorded)"),
        }
    ));
    let weak = ui.visuals().weak_text_color();
    egui::ScrollArea::vertical()
        .id_salt("step log")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for line in shown {
                let text = RichText::new(line.to_string()).monospace().color(color_of(
                    line.priority,
                    weak,
                    ui.visuals().text_color(),
                ));
                ui.add(egui::Label::new(text).wrap());
            }
        });
}

/// Errors red, warnings amber, info as text, debug and verbose faint.
fn color_of(priority: Priority, weak: Color32, text: Color32) -> Color32 {
    match priority {
        Priority::Error | Priority::Fatal => colors::LOST,
        Priority::Warn => colors::AMBER,
        Priority::Info => text,
        Priority::Debug | Priority::Verbose => weak,
    }
}

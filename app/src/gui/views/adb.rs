//! `adb_ui`: what a command a client sent the phone through `tapscope proxy` was, beside
//! the step's result text: the service as sent, the phone and client connection, the exit
//! status, the bytes each way, and where an action on a coordinate landed.

use egui::{Color32, RichText};
use tapscope_core::recording::{AdbCommand, CommandKind, Landed, Step};

use super::colors;

/// A heading, and the command a row each.
pub fn adb_ui(ui: &mut egui::Ui, step: &Step, adb: &AdbCommand) {
    ui.strong("Sent through tapscope proxy");
    egui::Grid::new("adb command grid")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| rows_ui(ui, step, adb));
}

fn rows_ui(ui: &mut egui::Ui, step: &Step, adb: &AdbCommand) {
    let row = |ui: &mut egui::Ui, key: &str, value: RichText| {
        ui.label(key);
        ui.add(egui::Label::new(value).wrap());
        ui.end_row();
    };
    row(ui, "adb service", RichText::new(&adb.service).monospace());
    let phone = format!("{} · client connection {}", adb.serial, adb.connection);
    row(ui, "phone", phone.into());
    row(ui, "command kind", kind_word(adb.kind).into());
    row(ui, "exit status", exit_text(adb.exit).into());
    let bytes = format!("{} sent · {} received", size(adb.sent), size(adb.received));
    row(ui, "bytes", bytes.into());
    let (landed, color) = landed_text(step, adb);
    row(ui, "landed", RichText::new(landed).color(color));
}

fn kind_word(kind: CommandKind) -> &'static str {
    match kind {
        CommandKind::Look => "look: read the screen's tree",
        CommandKind::Screenshot => "screenshot: captured the screen's pixels",
        CommandKind::Action => "action: acted on the phone",
        CommandKind::Transfer => "transfer: moved files",
        CommandKind::Command => "command",
    }
}

fn exit_text(exit: Option<u8>) -> String {
    exit.map_or_else(
        || "not said (the service reports none)".to_owned(),
        |code| code.to_string(),
    )
}

/// `512 bytes`, `14.2 KiB`, `2.3 MiB`.
fn size(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    match bytes as f64 {
        b if b < 10.0 * KIB => format!("{bytes} bytes"),
        b if b < KIB * KIB => format!("{:.1} KiB", b / KIB),
        b => format!("{:.1} MiB", b / (KIB * KIB)),
    }
}

/// Where an action on a coordinate landed, in words, and its colour.
fn landed_text(step: &Step, adb: &AdbCommand) -> (String, Color32) {
    let weak = Color32::GRAY;
    match adb.landed {
        Some(Landed::Same) => match (&step.version_used, &step.version_before) {
            (Some(used), Some(before)) if used != before => (
                format!(
                    "on what the agent aimed at; the screen changed elsewhere ({used} -> \
                     {before})"
                ),
                colors::ADDED,
            ),
            _ => ("on what the agent aimed at".to_owned(), colors::ADDED),
        },
        Some(Landed::Elsewhere) => (
            "elsewhere: the point hit something other than on the screen the agent read".to_owned(),
            colors::AMBER,
        ),
        None if adb.kind == CommandKind::Action && !step.path.is_empty() => (
            "not checked: the proxy looked at no screen of its own".to_owned(),
            weak,
        ),
        None => ("not an action on a coordinate".to_owned(), weak),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_at_a_glance() {
        assert_eq!(size(0), "0 bytes");
        assert_eq!(size(10_239), "10239 bytes");
        assert_eq!(size(14_540), "14.2 KiB");
        assert_eq!(size(2_411_724), "2.3 MiB");
    }

    #[test]
    fn a_tap_that_hit_the_same_element_says_why_its_versions_differ() {
        let adb = AdbCommand {
            serial: "emulator-5554".into(),
            connection: 3,
            service: "shell,v2,raw:input tap 540 1210".into(),
            kind: CommandKind::Action,
            exit: Some(0),
            sent: 0,
            received: 0,
            landed: Some(Landed::Same),
        };
        let step = Step {
            version_used: Some("aaa".into()),
            version_before: Some("bbb".into()),
            path: vec![[540, 1210]],
            ..Step::default()
        };
        let (text, color) = landed_text(&step, &adb);
        assert!(text.ends_with("changed elsewhere (aaa -> bbb)"), "{text}");
        assert_eq!(color, colors::ADDED);
        let unchecked = AdbCommand {
            landed: None,
            ..adb.clone()
        };
        assert!(landed_text(&step, &unchecked).0.starts_with("not checked"));
        let shell = AdbCommand {
            kind: CommandKind::Command,
            ..unchecked
        };
        let (text, _) = landed_text(&Step::default(), &shell);
        assert_eq!(text, "not an action on a coordinate");
    }
}

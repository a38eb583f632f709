//! `panel_ui`: the live panel: pick and open a device, take it over or hand it back, keys
//! and typing, and the MCP server on the same session.

use std::net::{Ipv4Addr, SocketAddr};

use tapscope_core::device::Key;
use tapscope_core::session::Action;

use super::LiveState;
use super::worker::Command;
use crate::gui::views::colors;

pub fn panel_ui(ui: &mut egui::Ui, live: &mut LiveState) {
    ui.heading("Live phone");
    match live.phone().cloned() {
        None => connect_ui(ui, live),
        Some(phone) => {
            let name = live.link.as_ref().map_or("", |l| l.name.as_str());
            ui.label(format!("Showing {name} live"));
            if let Some(dir) = live.recording() {
                ui.label(format!("Recording to {}", dir.display()))
                    .on_hover_text(
                        "every step, yours and agents', shows on the timeline as it happens",
                    );
            }
            take_over_ui(ui, live, phone.is_held());
            ui.add_enabled_ui(live.can_act(), |ui| controls_ui(ui, live));
            ui.separator();
            server_ui(ui, live);
            ui.separator();
            if ui.button("Disconnect").clicked() {
                live.disconnect();
            }
        }
    }
    messages_ui(ui, live);
}

/// The device menu, "Find phones" and "Connect"; a spinner while it opens.
fn connect_ui(ui: &mut egui::Ui, live: &mut LiveState) {
    if live.link.as_ref().is_some_and(|l| l.busy) {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("Opening {}…", live.device));
        });
        return;
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("device")
            .selected_text(live.device.clone())
            .show_ui(ui, |ui| {
                for device in live.devices.clone() {
                    ui.selectable_value(&mut live.device, device.clone(), device);
                }
            });
        let finding = live.finding();
        let find = ui
            .add_enabled(!finding, egui::Button::new("Find phones"))
            .on_hover_text("asks the ADB server which phones are connected");
        if find.clicked() {
            live.find_devices(ui.ctx());
        }
        if finding {
            ui.spinner();
        }
    });
    if let Some(note) = &live.adb_note {
        ui.colored_label(colors::AMBER, format!("ADB: {note}"));
    }
    ui.horizontal(|ui| {
        let label = ui.label("Record to");
        ui.add(
            egui::TextEdit::singleline(&mut live.record)
                .hint_text("a folder (default: a new temporary one)")
                .desired_width(140.0),
        )
        .labelled_by(label.id);
    });
    if ui.button("Connect").clicked() {
        live.connect(ui.ctx());
    }
}

fn take_over_ui(ui: &mut egui::Ui, live: &mut LiveState, held: bool) {
    ui.horizontal(|ui| {
        let Some(phone) = live.phone().cloned() else {
            return;
        };
        if !held && ui.button("Take over").clicked() {
            phone.take_over();
        }
        if held && ui.button("Hand back").clicked() {
            phone.hand_back();
        }
        if live.link.as_ref().is_some_and(|l| l.busy) {
            ui.spinner();
        }
    });
    let waiting = live.agents().now;
    if held && waiting > 0 {
        let calls = if waiting == 1 { "call" } else { "calls" };
        ui.colored_label(
            colors::AMBER,
            format!("{waiting} agent {calls} waiting for you to hand back"),
        );
    }
    ui.label(
        egui::RichText::new(match (held, live.serving().is_some()) {
            (true, _) => "You hold the phone: agents wait. Click the screen to tap, drag to swipe.",
            (false, true) => "Agents drive the phone. Take over to act.",
            (false, false) => "Click the screen to tap, drag to swipe.",
        })
        .small()
        .weak(),
    );
}

/// Keys, the key menu and typing.
fn controls_ui(ui: &mut egui::Ui, live: &mut LiveState) {
    ui.horizontal(|ui| {
        for key in [Key::Back, Key::Home, Key::Recents] {
            let name = key.name();
            let title = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
            if ui.button(title).clicked() {
                live.send(Command::Act(Action::Key(key)));
            }
        }
    });
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("live key")
            .selected_text(live.key.name())
            .show_ui(ui, |ui| {
                for key in Key::ALL {
                    ui.selectable_value(&mut live.key, key, key.name());
                }
            });
        if ui.button("Press").clicked() {
            live.send(Command::Act(Action::Key(live.key)));
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Text to type");
        ui.add(egui::TextEdit::singleline(&mut live.text).desired_width(120.0))
            .labelled_by(label.id);
        if ui.button("Type").clicked() && !live.text.is_empty() {
            let text = std::mem::take(&mut live.text);
            live.send(Command::Act(Action::InputText(text)));
        }
    });
    if ui
        .button("Refresh")
        .on_hover_text("reads the screen again: agents' handles go stale")
        .clicked()
    {
        live.send(Command::Refresh);
    }
}

/// The port, and starting or stopping the server.
fn server_ui(ui: &mut egui::Ui, live: &mut LiveState) {
    ui.label("MCP server (streamable HTTP on 127.0.0.1)");
    if let Some(url) = live.serving().map(str::to_owned) {
        ui.label(format!("Agents connect to {url}"));
        if ui.button("Stop server").clicked() {
            live.send(Command::StopServing);
        }
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Port");
        ui.add(egui::TextEdit::singleline(&mut live.port).desired_width(60.0))
            .labelled_by(label.id);
    });
    let port = live.port.trim().parse::<u16>();
    if port.is_err() {
        ui.colored_label(colors::AMBER, "the port is a number from 0 to 65535");
    }
    if ui
        .add_enabled(port.is_ok(), egui::Button::new("Start server"))
        .clicked()
        && let Ok(port) = port
    {
        live.send(Command::Serve(SocketAddr::from((
            Ipv4Addr::LOCALHOST,
            port,
        ))));
    }
}

fn messages_ui(ui: &mut egui::Ui, live: &LiveState) {
    let Some(link) = &live.link else {
        return;
    };
    if let Some(error) = &link.error {
        ui.colored_label(colors::LOST, error);
    }
    if let Some(note) = &link.note {
        ui.colored_label(colors::AMBER, note);
    }
}

//! The message banner: errors and warnings stay on screen until dismissed; nothing open is lost.

use super::colors;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

/// Messages waiting to be read, newest last.
#[derive(Clone, Debug, Default)]
pub struct Banner {
    pub messages: Vec<Message>,
}

impl Banner {
    pub fn error(&mut self, text: impl Into<String>) {
        self.push(text.into(), true);
    }

    pub fn error_all(&mut self, texts: &[String]) {
        for text in texts {
            self.error(text.clone());
        }
    }

    pub fn warn_all(&mut self, texts: &[String]) {
        for text in texts {
            self.push(text.clone(), false);
        }
    }

    fn push(&mut self, text: String, error: bool) {
        if !self.messages.iter().any(|m| m.text == text) {
            self.messages.push(Message { text, error });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

pub fn banner_ui(ui: &mut egui::Ui, banner: &mut Banner) {
    let mut dismissed = None;
    for (k, message) in banner.messages.iter().enumerate() {
        ui.horizontal(|ui| {
            let (icon, color) = if message.error {
                ("Error:", colors::LOST)
            } else {
                ("Warning:", colors::SELECTED)
            };
            ui.colored_label(color, icon);
            ui.label(&message.text);
            if ui.small_button("Dismiss").clicked() {
                dismissed = Some(k);
            }
        });
    }
    if let Some(k) = dismissed {
        banner.messages.remove(k);
    }
}

//! The screen pane: the screenshot (or a wireframe drawn from the tree) with node bounds over it.

use tapscope_core::inspect::Inspection;

use crate::gui::document::Document;
use crate::gui::selection::Selection;

/// Zoom and pan of the screen pane.
#[derive(Clone, Debug, Default)]
pub struct ScreenState {
    pub zoom: f32,
    pub pan: egui::Vec2,
}

impl ScreenState {
    pub fn reset_view(&mut self) {
        *self = Self::default();
    }
}

pub fn screen_ui(
    ui: &mut egui::Ui,
    _document: &Document,
    _inspection: &Inspection,
    _selection: &mut Selection,
    _state: &mut ScreenState,
    _heat_map: bool,
) {
    ui.heading("Screen");
}

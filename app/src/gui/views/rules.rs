//! The rules panel: every pruning rule and parameter, the diff against the baseline, save and load.

use crate::gui::selection::Selection;
use crate::gui::workbench::{Analysis, Settings};

use super::banner::Banner;

#[derive(Clone, Debug, Default)]
pub struct RulesState {}

pub fn rules_ui(
    ui: &mut egui::Ui,
    _settings: &mut Settings,
    _analysis: &Analysis,
    _state: &mut RulesState,
    _banner: &mut Banner,
    _selection: &mut Selection,
) {
    ui.heading("Rules");
}

//! `open_list_ui`: everything open in one list in the toolbar, a recording or a comparison
//! by its steps; picking one shows it.

use crate::gui::opened::Opened;

/// The list, when more than one thing is open; returns the item and step picked, when a
/// person picked another than `on_show`.
pub fn open_list_ui(
    ui: &mut egui::Ui,
    opened: &[Opened],
    on_show: (usize, Option<usize>),
) -> Option<(usize, Option<usize>)> {
    let entries: Vec<(usize, Option<usize>, String)> = opened
        .iter()
        .enumerate()
        .flat_map(|(k, item)| {
            let entries = item.entries().into_iter();
            entries.map(move |(step, name)| (k, step, name))
        })
        .collect();
    if entries.len() < 2 {
        return None;
    }
    let mut picked = entries
        .iter()
        .position(|(k, s, _)| (*k, *s) == on_show)
        .unwrap_or(0);
    let before = picked;
    egui::ComboBox::from_label("document")
        .selected_text(entries[picked].2.as_str())
        .show_ui(ui, |ui| {
            for (k, (_, _, name)) in entries.iter().enumerate() {
                ui.selectable_value(&mut picked, k, name.as_str());
            }
        });
    let (item, step, _) = &entries[picked];
    (picked != before).then_some((*item, *step))
}

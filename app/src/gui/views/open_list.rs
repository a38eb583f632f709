//! `open_list_ui`: everything open in one list in the toolbar, a recording or a comparison
//! by its steps; picking one shows it.

/// One line of the list: the item open at `item`, on `step` when it has steps, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub item: usize,
    pub step: Option<usize>,
    pub name: String,
}

/// The list, when it has more than one line; returns the item and step picked, when a
/// person picked another than `on_show`.
pub fn open_list_ui(
    ui: &mut egui::Ui,
    entries: &[Entry],
    on_show: (usize, Option<usize>),
) -> Option<(usize, Option<usize>)> {
    if entries.len() < 2 {
        return None;
    }
    let mut picked = entries
        .iter()
        .position(|e| (e.item, e.step) == on_show)
        .unwrap_or(0);
    let before = picked;
    egui::ComboBox::from_label("document")
        .selected_text(entries[picked].name.as_str())
        .show_ui(ui, |ui| {
            for (k, entry) in entries.iter().enumerate() {
                ui.selectable_value(&mut picked, k, entry.name.as_str());
            }
        });
    let entry = &entries[picked];
    (picked != before).then_some((entry.item, entry.step))
}

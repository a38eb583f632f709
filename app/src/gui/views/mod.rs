//! One pane of the workbench per module, each drawn by a `*_ui` function.

pub mod adb;
pub mod banner;
pub mod compare;
pub mod details;
pub mod forensics;
pub mod log;
pub mod look;
pub mod open_list;
pub mod picture;
pub mod pruned;
pub mod raw;
pub mod reprune;
pub mod rules;
pub mod runs;
pub mod screen;
pub mod settle;
pub mod stats;
pub mod step;
pub mod timeline;

/// Highlight colours shared by the panes.
pub mod colors {
    use egui::Color32;

    pub const SELECTED: Color32 = Color32::from_rgb(255, 170, 40);
    pub const HOVERED: Color32 = Color32::from_rgb(90, 170, 255);
    pub const LOST: Color32 = Color32::from_rgb(235, 80, 80);
    pub const ADDED: Color32 = Color32::from_rgb(90, 200, 110);
    pub const REMOVED: Color32 = Color32::from_rgb(235, 90, 90);
    /// A refusal, a stale handle, a screen that did not settle.
    pub const AMBER: Color32 = Color32::from_rgb(240, 185, 40);
    /// Text read in pixels, not dumped: an `ocr` node's box.
    pub const PIXEL_TEXT: Color32 = Color32::from_rgb(200, 110, 255);
}

/// `text` as the bundled proportional font prints it: its arrows (what changed, `a → b`)
/// as `->`.
pub fn printable(text: &str) -> String {
    text.replace('→', "->")
}

/// Rows of monospace lines in a scroll area that lays out only the visible ones, and
/// scrolls `reveal` into view when given.
pub fn line_rows_ui(
    ui: &mut egui::Ui,
    id: &str,
    rows: usize,
    reveal: Option<usize>,
    mut row_ui: impl FnMut(&mut egui::Ui, usize),
) {
    // A selectable monospace label; `show_rows` adds the spacing between rows itself.
    let row_height = ui.text_style_height(&egui::TextStyle::Monospace) + 2.0;
    let pitch = row_height + ui.spacing().item_spacing.y;
    let mut area = egui::ScrollArea::both()
        .id_salt(id)
        .auto_shrink([false, false]);
    if let Some(row) = reveal {
        let above = (ui.available_height() / 3.0).max(0.0);
        area = area
            .vertical_scroll_offset((row as f32 * pitch - above).max(0.0))
            .horizontal_scroll_offset(0.0);
    }
    area.show_rows(ui, row_height, rows, |ui, range| {
        // One line per row: wrapping would break the fixed row height virtualization needs.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        for row in range {
            row_ui(ui, row);
        }
    });
}

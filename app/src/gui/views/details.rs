//! The details of the selected node: every attribute, its handle, bounds, anchor, and its fate.

use tapscope_core::Flags;
use tapscope_core::prune::Anchor;

use crate::gui::context::ViewContext;

pub fn details_ui(ui: &mut egui::Ui, ctx: &ViewContext<'_>) {
    let (document, inspection, selection) = (ctx.document, &ctx.analysis.current, &*ctx.selection);
    ui.heading("Node");
    let Some(id) = selection.selected else {
        ui.label("Select a node: click it on the screen, in the raw dump or in the pruned tree.");
        return;
    };
    let tree = &document.tree;
    let node = &tree.nodes[id];
    let pruned = &inspection.pruned;
    let printed = pruned.printed_as(id);
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::Grid::new("node details")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                let mut row = |key: &str, value: String| {
                    ui.label(key);
                    ui.add(egui::Label::new(value).wrap());
                    ui.end_row();
                };
                match document.pixel_confidence(id) {
                    Some(confidence) => row(
                        "read in pixels",
                        format!("OCR, {confidence:.0} % confident (not in the dump)"),
                    ),
                    None => row("raw node", format!("#{id} (depth {})", node.depth)),
                }
                let handle = printed
                    .and_then(|p| p.i.filter(|_| p.raw == id))
                    .map_or_else(|| "none".to_owned(), |i| format!("{}_{i}", pruned.version));
                row("handle", handle);
                row("fate", pruned.fates[id].reason(pruned));
                row("class", node.class.clone());
                row("text", node.text.clone());
                row("content-desc", node.desc.clone());
                row("hint", node.hint.clone());
                row("resource-id", node.resource_id.clone());
                row("package", node.package.clone());
                row("bounds", node.bounds.to_string());
                match document.visibility.get(id) {
                    Ok(visible) => {
                        row("visible part", visible.to_string());
                        row(
                            "anchor",
                            Anchor::of(&visible, tree.display).name().to_owned(),
                        );
                    }
                    Err(why) => row("visible part", format!("none ({why:?})")),
                }
                let window = &tree.windows[node.window];
                row(
                    "window",
                    format!("{} {}", window.kind.name(), window.package),
                );
                let flags: Vec<String> = node
                    .flags
                    .iter_names()
                    .filter(|(_, f)| *f != Flags::ENABLED)
                    .map(|(name, _)| name.to_lowercase())
                    .collect();
                row(
                    "flags",
                    if flags.is_empty() {
                        "none".into()
                    } else {
                        flags.join(", ")
                    },
                );
                row("enabled", node.has(Flags::ENABLED).to_string());
            });
        if let Some(line) = inspection.line_of_node[id] {
            ui.separator();
            ui.label("Printed as:");
            ui.code(&inspection.lines[line].text);
        }
    });
}

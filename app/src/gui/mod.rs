//! The desktop workbench (eframe/egui): screenshot, raw dump and pruned tree side by side,
//! for one dump or each step of a recording, or a run beside the recording it replays.

pub mod compared;
pub mod comparison;
pub mod context;
pub mod document;
pub mod error;
pub mod gesture;
pub mod live;
pub mod on_step;
pub mod open;
pub mod opened;
pub mod recording;
pub mod selection;
pub mod texture;
pub mod views;
pub mod workbench;

use std::path::PathBuf;

pub use document::Document;
pub use workbench::Workbench;

/// The window: the workbench plus keeping the title in step with what is open.
struct WorkbenchApp {
    workbench: Workbench,
    title: String,
}

impl eframe::App for WorkbenchApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.workbench.ui(ui);
        let title = self.workbench.title();
        if title != self.title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }
}

/// Opens the workbench window on `path` (compared with `against`, when given), or on the
/// sample tapscope ships.
pub fn run(path: Option<PathBuf>, against: Option<PathBuf>) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1600.0, 960.0])
            .with_title("tapscope"),
        ..Default::default()
    };
    eframe::run_native(
        "tapscope",
        options,
        Box::new(move |cc| {
            let mut workbench = Workbench::new();
            match path {
                Some(path) => workbench.open_against(path, against, &cc.egui_ctx),
                None => workbench.add_documents(vec![sample()]),
            }
            Ok(Box::new(WorkbenchApp {
                workbench,
                title: String::new(),
            }))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the workbench window could not open: {e}"))
}

/// The recording `tapscope` opens without arguments: `recordings/demo` under the current
/// folder when it holds a recording, else the demo of the source tree tapscope was built
/// from when that is still there; `None` means the shipped sample.
pub fn default_recording() -> Option<PathBuf> {
    let here = PathBuf::from(crate::demo::DEMO_DIR);
    [here, crate::demo::source_tree_demo()]
        .into_iter()
        .find(|dir| dir.join(tapscope_core::recording::SESSION_FILE).is_file())
}

/// The shipped sample, compiled in so the workbench opens on something anywhere it runs.
pub fn sample() -> Document {
    const DUMP: &[u8] = include_bytes!("../../../assets/samples/video_feed.xml");
    Document::from_bytes("video_feed.xml (sample)".into(), None, DUMP, None)
        .unwrap_or_else(|e| unreachable!("the shipped sample parses: {e}"))
}

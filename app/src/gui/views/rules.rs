//! The rules panel: every pruning rule and parameter, the diff against the baseline, save
//! and load, and with a recording open the whole recording re-pruned under the rules.

use std::cmp::Ordering;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tapscope_core::inspect::{Change, Inspection, line_diff};
use tapscope_core::prune::{KeyboardMode, PruneRules};
use tapscope_core::recall::LostNode;
use tapscope_core::recording::Recording;
use tapscope_core::tokens::TokenCount;

use super::banner::Banner;
use super::reprune::{RepruneState, reprune_ui};
use super::{colors, line_rows_ui};
use crate::gui::context::{Analysis, Settings};
use crate::gui::selection::Selection;

/// Unchanged lines kept around each change in the diff.
const CONTEXT: usize = 2;

/// The diff's least height; when the panel has less room left, the panel scrolls.
const MIN_DIFF_HEIGHT: f32 = 160.0;

/// One row of the diff pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffRow {
    Line(Change, String),
    /// This many unchanged lines left out.
    Skipped(usize),
}

/// The panel's memory: the diff rows and what they were computed from, the last file, and
/// the open recording re-pruned.
#[derive(Debug, Default)]
pub struct RulesState {
    /// The baseline and current texts `rows` were computed from.
    diffed: (String, String),
    rows: Vec<DiffRow>,
    /// The rules file last loaded or saved, where the next dialog starts.
    last_file: Option<PathBuf>,
    /// What the last load or save did, shown until the next one.
    last_action: Option<String>,
    pub reprune: RepruneState,
}

impl RulesState {
    /// The diff rows of baseline → current, recomputed only when either text changed.
    fn diff(&mut self, baseline: &str, current: &str) -> &[DiffRow] {
        if self.diffed.0 != baseline || self.diffed.1 != current {
            self.rows = diff_rows(baseline, current);
            self.diffed = (baseline.to_owned(), current.to_owned());
        }
        &self.rows
    }

    fn dialog(&self, title: &str) -> rfd::FileDialog {
        let dialog = rfd::FileDialog::new()
            .add_filter("toml", &["toml"])
            .set_title(title);
        let Some(last) = &self.last_file else {
            return dialog.set_file_name("rules.toml");
        };
        let dialog = match last.parent() {
            Some(dir) => dialog.set_directory(dir),
            None => dialog,
        };
        match last.file_name() {
            Some(name) => dialog.set_file_name(name.to_string_lossy()),
            None => dialog,
        }
    }
}

/// The panel; with `recording` open, also the whole of it under the rules. Returns the
/// step a person clicked.
pub fn rules_ui(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    analysis: &Analysis,
    state: &mut RulesState,
    banner: &mut Banner,
    selection: &mut Selection,
    recording: Option<&Arc<Recording>>,
) -> Option<usize> {
    ui.heading("Rules");
    // The panel scrolls when the recording's section leaves the diff too little room.
    let viewport = ui.available_height();
    egui::ScrollArea::vertical()
        .id_salt("rules panel")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let top = ui.cursor().top();
            controls_ui(ui, &mut settings.rules);
            ui.separator();
            buttons_ui(ui, settings, state, banner);
            ui.separator();
            let go = recording.and_then(|recording| {
                let go = reprune_ui(ui, &mut state.reprune, recording, &settings.rules);
                ui.separator();
                ui.strong("This step's screen");
                go
            });
            let (baseline, current) = (&analysis.baseline, &analysis.current);
            let summary = diff_summary_of(state.diff(&baseline.yaml, &current.yaml));
            effect_ui(ui, baseline, current, summary, selection);
            ui.separator();
            let rest = viewport - (ui.cursor().top() - top);
            let size = egui::vec2(ui.available_width(), rest.max(MIN_DIFF_HEIGHT));
            let rows = state.diff(&baseline.yaml, &current.yaml);
            ui.allocate_ui(size, |ui| diff_ui(ui, rows));
            go
        })
        .inner
}

/// One control per field of [`PruneRules`], in the order of the table in docs/prune-rules.md.
fn controls_ui(ui: &mut egui::Ui, r: &mut PruneRules) {
    switch(ui, &mut r.flatten_shells, "flatten_shells");
    switch(ui, &mut r.merge_clickable_text, "merge_clickable_text");
    parameters(ui, r.merge_clickable_text, |ui| {
        number(ui, &mut r.max_merged_texts, "max_merged_texts", 1..=20);
    });
    switch(ui, &mut r.keep_id_containers, "keep_id_containers");
    switch(ui, &mut r.omit_false_flags, "omit_false_flags");
    switch(ui, &mut r.index_all, "index_all");
    switch(ui, &mut r.anchors, "anchors");
    switch(ui, &mut r.more_summaries, "more_summaries");
    parameters(ui, r.more_summaries, |ui| {
        number(ui, &mut r.more_samples, "more_samples", 0..=10);
        number(ui, &mut r.more_words, "more_words", 1..=20);
    });
    number(ui, &mut r.max_text_chars, "max_text_chars", 8..=500);
    switch(ui, &mut r.ids, "ids");
    switch(ui, &mut r.version_header, "version_header");
    keyboard_ui(ui, &mut r.keyboard);
    switch(ui, &mut r.ocr, "ocr");
    parameters(ui, r.ocr, |ui| {
        let mut least = usize::from(r.ocr_min_confidence);
        number(ui, &mut least, "ocr_min_confidence", 0..=100);
        r.ocr_min_confidence = u8::try_from(least.min(100)).unwrap_or(100);
        // Shown, not edited: what is read in pixels was read when the screen was taken.
        ui.label(format!("ocr_languages {}", r.ocr_languages))
            .on_hover_text(hint("ocr_languages"));
        ui.label(format!("ocr_engine {}", r.ocr_engine))
            .on_hover_text(hint("ocr_engine"));
    });
}

/// What the rule named as in the rules file does, in the words of docs/prune-rules.md.
fn hint(name: &str) -> &'static str {
    match name {
        "flatten_shells" => {
            "Nodes with no text, description, action or kept id are dropped; children move up."
        }
        "merge_clickable_text" => {
            "A clickable node absorbs the texts of its non-actionable content."
        }
        "max_merged_texts" => "More texts than this and nothing merges.",
        "keep_id_containers" => "Print containers that have only a readable resource id.",
        "omit_false_flags" => "Only true flags, as bare words; `disabled` for enabled=false.",
        "index_all" => {
            "Every printed line gets a handle `[i]`, not only actionable nodes; `click` is then \
             printed."
        }
        "anchors" => {
            "Print `pos:`, the 3×3 cell of the display that holds the node's centre, on every \
             line with a handle; off, only on sibling lines that would otherwise read the same."
        }
        "more_summaries" => "Summarise off-viewport items of scrollables as `more:`.",
        "more_samples" => "Items quoted per direction in a `more:` line.",
        "more_words" => "Words quoted per item in a `more:` line.",
        "max_text_chars" => "Longer text is cut and ends with `…`.",
        "ids" => "Print `#id` for actionable nodes without text.",
        "version_header" => "Print the `version:` line.",
        "keyboard" => "`keys` lists every key; `collapse` shows only `keyboard: open`.",
        "ocr" => "On a self-drawn screen, list the text read in its pixels as `ocr` nodes.",
        "ocr_min_confidence" => {
            "Words read in pixels less sure than this (0-100) are dropped when the screen is read."
        }
        "ocr_languages" => {
            "The languages a screen's pixels are read in when it is taken (`auto`: English and \
             the scripts of the dump's texts): set it in a rules file or with `--ocr-lang`."
        }
        "ocr_engine" => {
            "What reads a screen's pixels when it is taken (`auto`: PP-OCR's models where \
             installed, else Tesseract): set it in a rules file or with `--ocr-engine`."
        }
        _ => "",
    }
}

fn switch(ui: &mut egui::Ui, value: &mut bool, name: &str) {
    ui.checkbox(value, name).on_hover_text(hint(name));
}

/// The parameters of a rule: indented under it, and inactive while it is off.
fn parameters(ui: &mut egui::Ui, rule_on: bool, add: impl FnOnce(&mut egui::Ui)) {
    ui.add_enabled_ui(rule_on, |ui| ui.indent("parameters", add));
}

fn number(ui: &mut egui::Ui, value: &mut usize, name: &str, range: RangeInclusive<usize>) {
    let speed = (*range.end() as f64 / 100.0).max(0.05);
    ui.horizontal(|ui| {
        let label = ui.label(name).on_hover_text(hint(name));
        // Values from a rules file may lie outside the range; keep them until edited.
        let drag = egui::DragValue::new(value)
            .range(range)
            .speed(speed)
            .clamp_existing_to_range(false);
        ui.add(drag).labelled_by(label.id).on_hover_text(hint(name));
    });
}

fn keyboard_ui(ui: &mut egui::Ui, keyboard: &mut KeyboardMode) {
    ui.horizontal(|ui| {
        ui.label("keyboard").on_hover_text(hint("keyboard"));
        ui.selectable_value(keyboard, KeyboardMode::Keys, "keys")
            .on_hover_text("List every key of an on-screen keyboard as a node.");
        ui.selectable_value(keyboard, KeyboardMode::Collapse, "collapse")
            .on_hover_text("Show only `keyboard: open`; the recall check then reports the keys.");
    });
}

fn buttons_ui(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    state: &mut RulesState,
    banner: &mut Banner,
) {
    ui.horizontal_wrapped(|ui| {
        if ui.button("Reset to defaults").clicked() {
            settings.rules = PruneRules::default();
        }
        let all_off = ui.button("All off");
        if all_off
            .on_hover_text("The tree as close to raw as the format allows.")
            .clicked()
        {
            settings.rules = PruneRules::all_off();
        }
        let baseline = ui.button("Use as baseline");
        if baseline
            .on_hover_text("Compare later changes against these rules.")
            .clicked()
        {
            settings.baseline = settings.rules.clone();
        }
        files_ui(ui, &mut settings.rules, state, banner);
    });
    ui.weak(format!("baseline: {}", baseline_name(&settings.baseline)));
    if let Some(action) = &state.last_action {
        ui.weak(action);
    }
}

/// Load… and Save…: the native dialogs are the only thing allowed to block the UI.
fn files_ui(
    ui: &mut egui::Ui,
    rules: &mut PruneRules,
    state: &mut RulesState,
    banner: &mut Banner,
) {
    let load = ui
        .button("Load…")
        .on_hover_text("Read a rules file (TOML).");
    if load.clicked()
        && let Some(path) = state.dialog("Load rules").pick_file()
    {
        state.last_action = load_rules(&path, rules, banner);
        state.last_file = Some(path);
    }
    let save = ui
        .button("Save…")
        .on_hover_text("Write a rules file for `tapscope prune --rules`.");
    if save.clicked()
        && let Some(path) = state.dialog("Save rules").save_file()
    {
        state.last_action = save_rules(&path, rules, banner);
        state.last_file = Some(path);
    }
}

/// Reads `path` into `rules`; a bad file leaves them as they were and says why in the banner.
pub fn load_rules(path: &Path, rules: &mut PruneRules, banner: &mut Banner) -> Option<String> {
    match PruneRules::load(path) {
        Ok(loaded) => {
            *rules = loaded;
            Some(format!("loaded {}", path.display()))
        }
        Err(e) => {
            // The error names the path already.
            banner.error(format!("could not load rules: {e}"));
            None
        }
    }
}

/// Writes `rules` to `path` as `tapscope prune --rules` reads them.
pub fn save_rules(path: &Path, rules: &PruneRules, banner: &mut Banner) -> Option<String> {
    match rules.save(path) {
        Ok(()) => Some(format!("saved {}", path.display())),
        Err(e) => {
            banner.error(format!("could not save rules: {e}"));
            None
        }
    }
}

fn baseline_name(baseline: &PruneRules) -> &'static str {
    if *baseline == PruneRules::default() {
        "the defaults"
    } else if *baseline == PruneRules::all_off() {
        "all off"
    } else {
        "custom rules"
    }
}

/// Tokens, lines and lost semantic nodes of the current rules against the baseline.
fn effect_ui(
    ui: &mut egui::Ui,
    baseline: &Inspection,
    current: &Inspection,
    (added, removed): (usize, usize),
    selection: &mut Selection,
) {
    let (base, now) = (baseline.stats.pruned_tokens, current.stats.pruned_tokens);
    let text = egui::RichText::new(token_delta(base, now)).strong();
    ui.label(match now.tokens().cmp(&base.tokens()) {
        Ordering::Less => text.color(colors::ADDED),
        Ordering::Greater => text.color(colors::REMOVED),
        Ordering::Equal => text,
    });
    ui.label(format!(
        "{} lines, {} in the baseline (+{added} −{removed})",
        current.lines.len(),
        baseline.lines.len()
    ));
    lost_ui(ui, &current.stats.lost_semantic_nodes, selection);
}

fn lost_ui(ui: &mut egui::Ui, lost: &[LostNode], selection: &mut Selection) {
    if lost.is_empty() {
        ui.label("no semantic node lost");
        return;
    }
    ui.colored_label(colors::LOST, format!("{} semantic nodes lost:", lost.len()));
    ui.horizontal_wrapped(|ui| {
        for node in lost {
            let text = egui::RichText::new(lost_label(node)).color(colors::LOST);
            let button = ui.add(egui::Button::new(text).small());
            if button.on_hover_text(&node.reason).clicked() {
                selection.select(Some(node.node));
            }
        }
    });
}

/// What names a lost node: its text, else its description (cut short to keep the button
/// small), with its short class.
fn lost_label(node: &LostNode) -> String {
    node.name().plain()
}

/// The current token count and how it differs from the baseline's, e.g.
/// "721 tokens (−38 vs baseline, −5.0%)"; an estimate starts with "≈".
pub fn token_delta(baseline: TokenCount, current: TokenCount) -> String {
    let (baseline, shown, current) = (baseline.tokens(), current, current.tokens());
    let sign = match current.cmp(&baseline) {
        Ordering::Less => '−',
        Ordering::Greater => '+',
        Ordering::Equal => return format!("{shown} tokens (same as baseline)"),
    };
    let delta = current.abs_diff(baseline);
    let percent = delta as f64 * 100.0 / baseline.max(1) as f64;
    format!("{shown} tokens ({sign}{delta} vs baseline, {sign}{percent:.1}%)")
}

fn diff_ui(ui: &mut egui::Ui, rows: &[DiffRow]) {
    ui.label("Diff, baseline to current:");
    if rows.is_empty() {
        ui.weak("identical to the baseline");
        return;
    }
    line_rows_ui(ui, "rules diff", rows.len(), None, |ui, k| {
        let (text, color) = match &rows[k] {
            DiffRow::Line(Change::Added, line) => (format!("+ {line}"), Some(colors::ADDED)),
            DiffRow::Line(Change::Removed, line) => (format!("- {line}"), Some(colors::REMOVED)),
            DiffRow::Line(Change::Same, line) => (format!("  {line}"), None),
            DiffRow::Skipped(n) => (format!("⋯ {n} unchanged lines"), None),
        };
        let mut text = egui::RichText::new(text).monospace();
        if let Some(color) = color {
            text = text.color(color);
        }
        ui.add(egui::Label::new(text).extend());
    });
}

/// The changed lines of baseline → current with [`CONTEXT`] lines around each, like a
/// unified diff; empty when the texts are the same.
pub fn diff_rows(baseline: &str, current: &str) -> Vec<DiffRow> {
    let diff = line_diff(baseline, current);
    let mut shown = vec![false; diff.len()];
    for k in (0..diff.len()).filter(|&k| diff[k].0 != Change::Same) {
        let end = (k + CONTEXT + 1).min(diff.len());
        shown[k.saturating_sub(CONTEXT)..end].fill(true);
    }
    if !shown.contains(&true) {
        return Vec::new();
    }
    let mut rows = Vec::new();
    for ((change, line), shown) in diff.into_iter().zip(shown) {
        if shown {
            rows.push(DiffRow::Line(change, line));
        } else if let Some(DiffRow::Skipped(n)) = rows.last_mut() {
            *n += 1;
        } else {
            rows.push(DiffRow::Skipped(1));
        }
    }
    rows
}

/// Lines added and removed from the baseline's pruned text to the current one.
pub fn diff_summary(baseline: &Inspection, current: &Inspection) -> (usize, usize) {
    diff_summary_of(&diff_rows(&baseline.yaml, &current.yaml))
}

fn diff_summary_of(rows: &[DiffRow]) -> (usize, usize) {
    let count = |kind| {
        rows.iter()
            .filter(|r| matches!(r, DiffRow::Line(c, _) if *c == kind))
            .count()
    };
    (count(Change::Added), count(Change::Removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapscope_core::parse::parse_str;
    use tapscope_core::report::RawSize;
    use tapscope_core::tokens::Encoding;

    const XML: &str = r#"<hierarchy rotation="0">
  <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
    <node text="Search" class="android.widget.EditText" package="app" clickable="true" bounds="[0,0][1080,100]"/>
    <node class="android.view.ViewGroup" clickable="true" package="app" bounds="[0,200][1080,400]">
      <node text="Title" class="android.widget.TextView" package="app" bounds="[0,200][500,300]"/>
      <node text="Subtitle" class="android.widget.TextView" package="app" bounds="[0,300][500,400]"/>
    </node>
    <node text="Note" class="android.widget.TextView" package="app" bounds="[0,500][500,600]"/>
    <node text="Play" class="android.widget.Button" package="app" clickable="true" bounds="[0,700][500,800]"/>
  </node>
</hierarchy>"#;

    fn inspect(rules: &PruneRules) -> Inspection {
        let tree = parse_str(XML).expect("parses");
        let raw = RawSize::measure(XML, Encoding::O200k);
        Inspection::new(&tree, rules, "0123456789ab", raw)
    }

    #[test]
    fn same_rules_diff_to_nothing() {
        let rules = PruneRules::default();
        let (baseline, current) = (inspect(&rules), inspect(&rules));
        assert!(diff_rows(&baseline.yaml, &current.yaml).is_empty());
        assert_eq!(diff_summary(&baseline, &current), (0, 0));
    }

    #[test]
    fn dropping_anchors_changes_every_positioned_line() {
        let baseline = inspect(&PruneRules {
            anchors: true,
            ..PruneRules::default()
        });
        let current = inspect(&PruneRules {
            anchors: false,
            ..PruneRules::default()
        });
        let positioned = baseline
            .lines
            .iter()
            .filter(|l| l.text.contains("pos:"))
            .count();
        assert!(positioned >= 3, "{}", baseline.yaml);
        assert_eq!(diff_summary(&baseline, &current), (positioned, positioned));
        let rows = diff_rows(&baseline.yaml, &current.yaml);
        assert!(
            rows.contains(&DiffRow::Line(
                Change::Removed,
                r#"[3] "Play" pos: top-left"#.into()
            )),
            "{rows:?}"
        );
        assert!(rows.contains(&DiffRow::Line(Change::Added, r#"[3] "Play""#.into())));
    }

    #[test]
    fn diff_keeps_two_lines_of_context_and_counts_the_rest() {
        let baseline = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let current = "1\n2\n3\n4\n5\nsix\n7\n8\n9\n";
        let same = |s: &str| DiffRow::Line(Change::Same, s.into());
        assert_eq!(
            diff_rows(baseline, current),
            [
                DiffRow::Skipped(3),
                same("4"),
                same("5"),
                DiffRow::Line(Change::Removed, "6".into()),
                DiffRow::Line(Change::Added, "six".into()),
                same("7"),
                same("8"),
                DiffRow::Skipped(1),
            ]
        );
        // Changes closer than twice the context share their context: nothing is skipped.
        let rows = diff_rows("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n");
        assert!(
            !rows.iter().any(|r| matches!(r, DiffRow::Skipped(_))),
            "{rows:?}"
        );
    }

    #[test]
    fn token_delta_reads_as_signed_count_and_percent() {
        use tapscope_core::tokens::TokenCount::{Estimate, Exact};
        assert_eq!(
            token_delta(Exact(759), Exact(721)),
            "721 tokens (−38 vs baseline, −5.0%)"
        );
        assert_eq!(
            token_delta(Exact(200), Exact(210)),
            "210 tokens (+10 vs baseline, +5.0%)"
        );
        assert_eq!(
            token_delta(Exact(5), Exact(5)),
            "5 tokens (same as baseline)"
        );
        assert_eq!(
            token_delta(Exact(0), Exact(3)),
            "3 tokens (+3 vs baseline, +300.0%)"
        );
        assert_eq!(
            token_delta(Estimate(759), Estimate(721)),
            "≈721 tokens (−38 vs baseline, −5.0%)"
        );
    }

    #[test]
    fn saved_rules_load_back_and_bad_files_go_to_the_banner() {
        let dir = std::env::temp_dir().join(format!("tapscope-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("rules.toml");
        let rules = PruneRules {
            max_text_chars: 42,
            keyboard: KeyboardMode::Collapse,
            ..PruneRules::all_off()
        };
        let mut banner = Banner::default();
        assert!(save_rules(&path, &rules, &mut banner).is_some());
        let mut loaded = PruneRules::default();
        assert!(load_rules(&path, &mut loaded, &mut banner).is_some());
        assert_eq!(loaded, rules);
        assert!(banner.is_empty());

        std::fs::write(&path, "anchor = false\n").expect("write");
        assert!(load_rules(&path, &mut loaded, &mut banner).is_none());
        assert_eq!(loaded, rules, "a bad file changes nothing");
        let message = &banner.messages[0].text;
        assert!(
            message.contains("rules.toml") && message.contains("unknown field `anchor`"),
            "{message}"
        );
        assert!(save_rules(&dir.join("missing/rules.toml"), &rules, &mut banner).is_none());
        assert!(banner.messages[1].text.contains("missing"), "{banner:?}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn every_rule_has_a_hint() {
        let toml = PruneRules::default().to_toml();
        let keys: Vec<&str> = toml.lines().filter_map(|l| l.split(" = ").next()).collect();
        assert_eq!(keys.len(), 18, "{toml}");
        for key in keys {
            assert!(!hint(key).is_empty(), "no hint for {key}");
        }
    }

    #[test]
    fn the_panel_shows_what_a_rule_changes() {
        use egui_kittest::{Harness, kittest::Queryable};
        let mut workbench = crate::gui::Workbench::new();
        // Anchors on, in the rules and the baseline: the click below drops them.
        workbench.settings.rules.anchors = true;
        workbench.settings.baseline.anchors = true;
        workbench.add_documents(vec![crate::gui::sample()]);
        // Other panes may draw glyphs the test fonts lack (the stats bar's →); this panel's
        // own are in the default fonts (⋯ only in monospace rows).
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1600.0, 960.0))
            .allow_missing_glyphs()
            .build_ui_state(|ui, w: &mut crate::gui::Workbench| w.ui(ui), workbench);
        harness.run();
        harness.get_by_label("identical to the baseline");
        harness.get_by_label("no semantic node lost");
        harness.get_by_label("anchors").click();
        harness.run();
        harness.get_by_label_contains("tokens (−");
        harness.get_by_label_contains("- [2] edit \"Search videos\" long pos: top-center");
        harness.get_by_label_contains("+ [2] edit \"Search videos\" long");
        harness.get_by_label("Use as baseline").click();
        harness.run();
        assert_eq!(
            harness.state().settings.baseline,
            harness.state().settings.rules
        );
        harness.get_by_label("identical to the baseline");
    }

    #[test]
    fn lost_nodes_are_named_by_text_then_description_then_class() {
        let mut node = LostNode {
            node: 3,
            class: "android.widget.Button".into(),
            text: String::new(),
            desc: "Back".into(),
            bounds: tapscope_core::Rect::default(),
            reason: "no line".into(),
        };
        assert_eq!(lost_label(&node), "Back (Button)");
        node.text = "é".repeat(41);
        assert_eq!(lost_label(&node), format!("{}… (Button)", "é".repeat(40)));
        node.text.clear();
        node.desc.clear();
        assert_eq!(lost_label(&node), "Button");
    }
}

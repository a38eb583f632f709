//! What every pane may read and change, and nothing more: the settings a person chose
//! (kept across documents), the analysis of the screen on show, and the selection. Panes
//! get a [`ViewContext`], never the workbench.

use tapscope_core::inspect::Inspection;
use tapscope_core::prune::PruneRules;
use tapscope_core::tokens::Encoding;

use super::document::Document;
use super::selection::Selection;

/// What a person chose, kept across documents (and what a saved session would keep).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub rules: PruneRules,
    /// The rules the diff compares against.
    pub baseline: PruneRules,
    pub encoding: Encoding,
    pub heat_map: bool,
    pub show_rules: bool,
    /// In a recording, the central area compares the step's screens instead of
    /// inspecting one.
    pub compare: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            rules: PruneRules::default(),
            baseline: PruneRules::default(),
            encoding: Encoding::O200k,
            heat_map: false,
            show_rules: true,
            compare: false,
        }
    }
}

/// Which screen is on show: the open item's place, and the step of a recording.
pub type ShownId = (usize, Option<usize>);

/// The screen on show pruned under the current and the baseline rules.
#[derive(Debug)]
pub struct Analysis {
    pub current: Inspection,
    pub baseline: Inspection,
    /// What these were computed from, to know when to recompute.
    key: (ShownId, PruneRules, PruneRules, Encoding),
}

impl Analysis {
    /// `slot` made the analysis of `document` (on show as `shown`) under `settings`,
    /// re-pruned only when the screen, the rules or the encoding changed; the baseline is
    /// kept when only the current rules changed.
    pub fn refresh(
        slot: &mut Option<Analysis>,
        shown: ShownId,
        document: &Document,
        settings: &Settings,
    ) {
        let key = (
            shown,
            settings.rules.clone(),
            settings.baseline.clone(),
            settings.encoding,
        );
        if slot.as_ref().is_some_and(|a| a.key == key) {
            return;
        }
        let inspect = |rules: &PruneRules| document.inspect(rules, settings.encoding);
        let baseline = match slot.take() {
            Some(old) if old.key.0 == key.0 && old.key.2 == key.2 && old.key.3 == key.3 => {
                old.baseline
            }
            _ => inspect(&settings.baseline),
        };
        *slot = Some(Analysis {
            current: inspect(&settings.rules),
            baseline,
            key,
        });
    }
}

/// What a pane of the screen on show is given: the screen, what it is called, its
/// analysis, the settings and the selection.
#[derive(Debug)]
pub struct ViewContext<'a> {
    pub settings: &'a mut Settings,
    pub document: &'a Document,
    /// What the screen on show is called (a dump's file, a recorded step).
    pub name: &'a str,
    pub analysis: &'a Analysis,
    pub selection: &'a mut Selection,
}

//! `look_ui`: how a step's screen was read, in one line under its settle facts: the way
//! (the sim, stock `uiautomator dump`, or an on-device helper) and what one look cost; under
//! it, in amber, a helper that failed and the way taken instead. Recordings made before looks
//! were reported have none, and show nothing.

use serde_json::Value;
use tapscope_core::stability::look::LookUsed;

use super::colors;

/// What a step's `settle` JSON says of its looks: `None` when it says nothing (an older
/// recording, a step that never waited); `Some(Err(..))` when it says it in a form this
/// build does not read (a backend of a newer one).
pub fn look_of(settle: Option<&Value>) -> Option<Result<LookUsed, serde_json::Error>> {
    let look = settle?.get("look").filter(|look| !look.is_null())?;
    Some(serde_json::from_value(look.clone()))
}

/// `looked through uiautomator2's server (u2): 62 ms a look`, and under it the fallback,
/// if any, in amber.
pub fn look_ui(ui: &mut egui::Ui, look: &LookUsed) {
    ui.vertical(|ui| {
        ui.add(egui::Label::new(cost_text(look)).wrap());
        if let Some(fallback) = &look.fell_back {
            let said = egui::RichText::new(fallback.to_string()).color(colors::AMBER);
            ui.add(egui::Label::new(said).wrap());
        }
    });
}

/// The way and its cost, without the fallback: the core's own sentence for it.
fn cost_text(look: &LookUsed) -> String {
    LookUsed {
        fell_back: None,
        ..*look
    }
    .sentence()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tapscope_core::stability::look::{Fallback, HelperFault, LookBackend};

    use super::*;

    #[test]
    fn a_settle_with_a_fallback_reads_as_the_way_its_cost_and_the_fallback() {
        let settle = json!({
            "total_ms": 900,
            "settled": true,
            "look": {"backend": "stock", "look_ms": 2100,
                     "fell_back": {"from": "u2", "why": "hung", "to": "stock"}},
        });
        let look = look_of(Some(&settle)).expect("a look").expect("readable");
        assert_eq!(
            look.fell_back,
            Some(Fallback {
                from: LookBackend::U2,
                why: HelperFault::Hung,
                to: LookBackend::Stock,
            })
        );
        assert_eq!(
            cost_text(&look),
            "looked through stock `uiautomator dump` (stock): 2100 ms a look"
        );
    }

    #[test]
    fn an_old_settle_says_nothing_and_a_newer_backend_is_said_unreadable() {
        let old = json!({"total_ms": 900, "settled": true});
        assert!(look_of(Some(&old)).is_none());
        assert!(look_of(None).is_none());
        let newer = json!({"look": {"backend": "telepathy", "look_ms": 1}});
        assert!(matches!(look_of(Some(&newer)), Some(Err(_))));
    }
}

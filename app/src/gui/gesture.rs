//! A person's click or drag on a screen, in display pixels: what the screen pane makes and
//! live mode turns into an action.

use egui::Pos2;

/// A click or a drag on the picture, in display pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    Tap(Pos2),
    Swipe { from: Pos2, to: Pos2 },
}

//! What stock `uiautomator dump` writes on a phone, as the simulated phone's shell answers
//! it (AOSP `frameworks/base/cmds/uiautomator`: `DumpCommand`, `AccessibilityNodeInfoDumper`).
//!
//! - The active window only (`getRootInActiveWindow`): one root `<node>` under
//!   `<hierarchy rotation="0">`. That is the app's window: the status bar is another
//!   window, and the keyboard's, shown over the app, never takes the focus, so the app
//!   keeps it and a stock dump has no key. A window has one root view; a screen
//!   authored with several gives its first.
//! - A child not visible to the user is skipped with all under it (`isVisibleToUser`):
//!   one whose bounds, clipped by every ancestor and the display, hold nothing — a list's
//!   items scrolled out of it, a sliding screen's part off the display. Nodes merely
//!   covered by another window (under the keyboard) are still visible to the user.
//! - Bounds are `getVisibleBoundsInScreen`: `getBoundsInScreen`, already clipped to each
//!   ancestor (`View.getBoundsOnScreen(clipToParent)`), then to the display.
//! - `index` is the child's place among all its parent's children (`getChild(i)`), so a
//!   skipped child leaves a gap; the root is 0.
//!
//! Who reads which: the shell's `uiautomator dump` ([`SimPhone::uiautomator_dump`], what
//! adb-based tools parse) writes this. Tapscope's own readers keep every window and every
//! node, its fuller view: [`Sim::xml`], which [`Sim`]'s `Device` (`sim`, the demo
//! recording) and [`SimPhone`]'s `Device` (`sim:phone`, at the stock dump's costs) return,
//! and uiautomator2's `dumpWindowHierarchy`, which dumps every window on a phone too.
//!
//! [`SimPhone`]: super::phone::SimPhone
//! [`SimPhone::uiautomator_dump`]: super::phone::SimPhone::uiautomator_dump

use crate::model::Rect;
use crate::stability::Clock;

use super::view::{Shown, Win};
use super::{DISPLAY, Sim, encode};

impl<C: Clock + Clone + Send> Sim<C> {
    /// What stock `uiautomator dump` writes now: the app's window, its nodes visible to
    /// the user, their bounds clipped to what is on the display.
    pub fn stock_xml(&self) -> String {
        let (nodes, indices) = active_window(&self.frame(false).0);
        encode::xml_indexed(&nodes, Some(&indices), 0)
    }

    /// [`Sim::stock_xml`] once the running animation has ended (now, if none runs).
    pub fn settled_stock_xml(&self) -> String {
        let (nodes, indices) = active_window(&self.frame(true).0);
        encode::xml_indexed(&nodes, Some(&indices), 0)
    }
}

/// An ancestor of the node being placed, as the dumper walks down.
struct Open {
    /// Its part on the display, clipped by its own ancestors: where its children may show.
    clip: Rect,
    /// Written, so its children may be.
    dumped: bool,
    /// Its children met so far, written or skipped.
    children: usize,
}

/// The nodes a stock dump writes, with their clipped bounds, and each one's `index`.
fn active_window(shown: &[Shown]) -> (Vec<Shown>, Vec<usize>) {
    let display = Rect::new(0, 0, DISPLAY.width, DISPLAY.height);
    let mut out = Vec::new();
    let mut indices = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let mut roots = 0usize;
    for node in shown.iter().filter(|n| n.window == Win::App) {
        // A depth past its parent's next level (never from `view`) hangs under the last open.
        open.truncate(node.depth);
        let (bounds, dumped, index) = match open.last_mut() {
            Some(parent) => {
                let index = parent.children;
                parent.children += 1;
                let bounds = node.bounds.intersect(&parent.clip);
                (bounds, parent.dumped && !bounds.is_empty(), index)
            }
            None => {
                roots += 1;
                // The root is written whatever it shows (the dumper checks only children),
                // clipped as `Rect.intersect` does: unchanged when off the display.
                (visible_on(node.bounds, display), roots == 1, 0)
            }
        };
        if dumped {
            out.push(Shown {
                depth: open.len(),
                bounds,
                visible: bounds,
                ..node.clone()
            });
            indices.push(index);
        }
        open.push(Open {
            clip: bounds.intersect(&display),
            dumped,
            children: 0,
        });
    }
    (out, indices)
}

/// Android's `Rect.intersect`: the overlap, or `rect` unchanged when they do not overlap.
fn visible_on(rect: Rect, display: Rect) -> Rect {
    let overlap = rect.intersect(&display);
    if overlap.is_empty() { rect } else { overlap }
}

#[cfg(test)]
mod tests;

//! How the simulated app answers a touch or a key: hit tests, transitions, focus and typing, bounds checks.

use std::time::Duration;

use crate::device::{DeviceError, Key};
use crate::geometry::Point;
use crate::model::Flags;
use crate::stability::Clock;

use super::screen::On;
use super::syslog::Arrival;
use super::view::{Shown, Win};
use super::{AnimKind, DISPLAY, MAX_GESTURE, Sim};

impl<C: Clock + Clone + Send> Sim<C> {
    /// The node a touch at `at` reaches: a key of the keyboard, else the topmost app node
    /// that takes it.
    pub(super) fn hit(&self, at: Point, wanted: Flags) -> Option<Shown> {
        let inside = |n: &Shown| {
            let r = n.visible;
            at.x >= r.left && at.x < r.right && at.y >= r.top && at.y < r.bottom
        };
        let (nodes, _) = self.frame(true);
        if let Some(board) = nodes
            .iter()
            .find(|n| n.window == Win::Keyboard && n.depth == 0)
            && inside(board)
        {
            return nodes
                .into_iter()
                .find(|n| n.window == Win::Keyboard && n.depth > 0 && inside(n));
        }
        nodes
            .into_iter()
            .rev()
            .find(|n| n.window == Win::App && n.flags.intersects(wanted) && inside(n))
    }

    pub(super) fn apply(&mut self, on: &On) {
        let length = Duration::from_millis(on.anim_ms);
        if let Some(crash) = on.crash {
            self.crash(crash, length);
        } else if on.back {
            self.back(length);
        } else if let Some(go) = &on.go
            && let Some(to) = self.screens.iter().position(|s| &s.name == go)
        {
            self.history.push(self.current);
            self.go(to, Arrival::Opened, length);
        }
    }

    pub(super) fn back(&mut self, length: Duration) {
        if let Some(previous) = self.history.pop() {
            self.go(previous, Arrival::Back, length);
        }
    }

    pub(super) fn transition(&self, tap: Option<&str>, key: Option<&str>) -> Option<On> {
        self.screen()?
            .on
            .iter()
            .find(|on| {
                (tap.is_some() && on.tap.as_deref() == tap)
                    || (key.is_some() && on.key.as_deref() == key)
            })
            .cloned()
    }

    /// The `tap_rect` rule of the current screen a tap at `at` lands in.
    pub(super) fn transition_at(&self, at: Point) -> Option<On> {
        self.screen()?
            .on
            .iter()
            .find(|on| on.takes_point(at.x, at.y))
            .cloned()
    }

    /// The focused text field of the current screen.
    pub(super) fn focused_field(&self) -> Option<usize> {
        let screen = self.screen()?;
        (0..screen.items.len()).find(|&i| {
            screen.items[i].flags.contains(Flags::EDITABLE)
                && self.state(i).is_some_and(|s| s.focused)
        })
    }

    pub(super) fn edit(&mut self, change: impl FnOnce(&mut String)) {
        if let Some(field) = self.focused_field()
            && let Some(state) = self.state_mut(field)
        {
            change(&mut state.text);
            self.start(AnimKind::Still, Duration::ZERO);
        }
    }

    pub(super) fn check_point(&self, at: Point) -> Result<(), DeviceError> {
        if at.x < 0 || at.y < 0 || at.x >= DISPLAY.width || at.y >= DISPLAY.height {
            return Err(DeviceError::InvalidInput(format!(
                "point {at} is outside the display (0..{}, 0..{}): give display coordinates",
                DISPLAY.width, DISPLAY.height
            )));
        }
        Ok(())
    }

    pub(super) fn check_gesture(&self, duration: Duration) -> Result<(), DeviceError> {
        if duration > MAX_GESTURE {
            return Err(DeviceError::InvalidInput(format!(
                "a gesture of {} ms is longer than the {} s limit",
                duration.as_millis(),
                MAX_GESTURE.as_secs()
            )));
        }
        Ok(())
    }

    /// A key of the on-screen keyboard, tapped: the keyboard types it into the app (the
    /// tap was logged, not a key or text injected).
    pub(super) fn press_key_node(&mut self, desc: &str) -> Result<(), DeviceError> {
        match desc {
            "Delete" => self.press(Key::Delete),
            "Search" => self.press(Key::Search),
            "Space" => self.type_text(" "),
            letter => self.type_text(letter),
        }
        Ok(())
    }

    /// The lowest a list can scroll: its content's bottom plus a margin, under its own bottom.
    pub(super) fn max_scroll(&self, item: usize) -> i32 {
        let Some(screen) = self.screen() else {
            return 0;
        };
        let Some(list) = screen.items.get(item) else {
            return 0;
        };
        let mut bottom = list.bounds.bottom;
        let mut stack = list.children.clone();
        while let Some(c) = stack.pop() {
            if let Some(child) = screen.items.get(c) {
                bottom = bottom.max(child.bounds.bottom);
                stack.extend(&child.children);
            }
        }
        (bottom + 24 - list.bounds.bottom).max(0)
    }
}

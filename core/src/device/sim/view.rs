//! What the simulated phone shows at one moment: the app's nodes placed (scrolled, mid-slide), the status bar and the keyboard.

use crate::model::{Flags, Rect, Size};

use super::screen::{Item, Screen};

pub(super) const KEYBOARD_PACKAGE: &str = "com.google.android.inputmethod.latin";
const SYSTEMUI: &str = "com.android.systemui";
pub(super) const STATUS_BAR_HEIGHT: i32 = 96;

/// Which window a shown node belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Win {
    App,
    StatusBar,
    Keyboard,
}

/// A node as it is on screen now, in document order with its depth.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Shown {
    pub window: Win,
    pub depth: usize,
    /// Index into the screen's items, for app nodes.
    pub item: Option<usize>,
    pub class: String,
    pub text: String,
    pub desc: String,
    pub resource_id: String,
    pub package: String,
    pub bounds: Rect,
    /// The part not clipped by scrolling ancestors or the display: where a touch lands.
    pub visible: Rect,
    pub flags: Flags,
    /// An empty field showing its hint as its text.
    pub showing_hint: bool,
    /// Where the screen file puts the node, before scrolling or sliding: the same in
    /// every build and at every scroll, so what is drawn from it (a picture's colours)
    /// stays put.
    pub authored: Rect,
}

/// What the app changed on an item since the screen was authored.
#[derive(Clone, Debug, Default)]
pub(super) struct ItemState {
    pub scroll: i32,
    pub checked: bool,
    pub focused: bool,
    pub text: String,
}

impl ItemState {
    pub(super) fn initial(item: &Item) -> Self {
        Self {
            scroll: 0,
            checked: item.flags.contains(Flags::CHECKED),
            focused: item.flags.contains(Flags::FOCUSED),
            text: String::new(),
        }
    }
}

/// How the app window is placed: slid sideways, and one list at an in-between scroll.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Placement {
    pub shift_x: i32,
    pub scroll: Option<(usize, i32)>,
    /// The ticker's current count, on a screen that has one.
    pub tick: Option<u64>,
}

/// The app window's nodes.
pub(super) fn app_nodes(
    screen: &Screen,
    state: &[ItemState],
    at: Placement,
    display: Size,
) -> Vec<Shown> {
    let screen_rect = Rect::new(0, 0, display.width, display.height);
    let mut out = Vec::with_capacity(screen.items.len());
    // (item, depth, offset x, offset y, clip)
    let mut stack: Vec<(usize, usize, i32, i32, Rect)> = screen
        .roots
        .iter()
        .rev()
        .map(|&r| (r, 0, at.shift_x, 0, screen_rect))
        .collect();
    while let Some((i, depth, dx, dy, clip)) = stack.pop() {
        let (Some(item), Some(st)) = (screen.items.get(i), state.get(i)) else {
            continue;
        };
        let b = item.bounds;
        let mut bounds = Rect::new(b.left + dx, b.top + dy, b.right + dx, b.bottom + dy);
        if depth == 0 {
            // The window root reports its on-screen part, so a slide keeps the display size.
            bounds = bounds.intersect(&screen_rect);
        }
        let mut flags = item.flags - (Flags::CHECKED | Flags::FOCUSED);
        flags.set(Flags::CHECKED, st.checked);
        flags.set(Flags::FOCUSED, st.focused);
        let text = match &screen.ticker {
            Some(t) if t.node.as_deref() == Some(item.id.as_str()) => {
                t.format.replace("{}", &at.tick.unwrap_or(0).to_string())
            }
            _ if item.flags.contains(Flags::EDITABLE) && st.text.is_empty() => item.hint.clone(),
            _ if item.flags.contains(Flags::EDITABLE) => st.text.clone(),
            _ => item.text.clone(),
        };
        out.push(Shown {
            window: Win::App,
            depth,
            item: Some(i),
            class: item.class.clone(),
            text,
            desc: item.desc.clone(),
            resource_id: resource_id(&screen.package, &item.id),
            package: screen.package.clone(),
            bounds,
            visible: bounds.intersect(&clip),
            flags,
            showing_hint: item.flags.contains(Flags::EDITABLE) && st.text.is_empty(),
            authored: item.bounds,
        });
        let (scroll, child_clip) = if item.flags.contains(Flags::SCROLLABLE) {
            let scroll = match at.scroll {
                Some((s, y)) if s == i => y,
                _ => st.scroll,
            };
            (scroll, clip.intersect(&bounds))
        } else {
            (0, clip)
        };
        for &c in item.children.iter().rev() {
            stack.push((c, depth + 1, dx, dy - scroll, child_clip));
        }
    }
    out
}

fn resource_id(package: &str, id: &str) -> String {
    if id.is_empty() {
        String::new()
    } else {
        format!("{package}:id/{id}")
    }
}

fn plain(window: Win, depth: usize, class: &str, package: &str, bounds: Rect) -> Shown {
    Shown {
        window,
        depth,
        item: None,
        class: format!("android.widget.{class}"),
        text: String::new(),
        desc: String::new(),
        resource_id: String::new(),
        package: package.to_owned(),
        bounds,
        visible: bounds,
        flags: Flags::ENABLED,
        showing_hint: false,
        authored: bounds,
    }
}

/// The system status bar: clock, Wi-Fi and battery.
pub(super) fn status_bar(clock: &str, battery: u8, width: i32) -> Vec<Shown> {
    let mut root = plain(
        Win::StatusBar,
        0,
        "FrameLayout",
        SYSTEMUI,
        Rect::new(0, 0, width, STATUS_BAR_HEIGHT),
    );
    root.resource_id = format!("{SYSTEMUI}:id/status_bar");
    let mut time = plain(
        Win::StatusBar,
        1,
        "TextView",
        SYSTEMUI,
        Rect::new(32, 20, 140, 76),
    );
    time.text = clock.to_owned();
    time.resource_id = format!("{SYSTEMUI}:id/clock");
    let mut wifi = plain(
        Win::StatusBar,
        1,
        "ImageView",
        SYSTEMUI,
        Rect::new(880, 24, 928, 72),
    );
    wifi.desc = "Wi-Fi signal full.".into();
    let mut power = plain(
        Win::StatusBar,
        1,
        "ImageView",
        SYSTEMUI,
        Rect::new(940, 24, 1048, 72),
    );
    power.desc = format!("Battery {battery} percent.");
    vec![root, time, wifi, power]
}

/// Keys besides the letters: (description, bounds).
const SPECIAL_KEYS: [(&str, Rect); 3] = [
    ("Delete", Rect::new(918, 1930, 1080, 2080)),
    ("Space", Rect::new(270, 2100, 810, 2250)),
    ("Search", Rect::new(864, 2100, 1080, 2250)),
];

/// The input method's window: three rows of letters, delete, space and search.
pub(super) fn keyboard(width: i32, height: i32) -> Vec<Shown> {
    let holder = Rect::new(0, 1560, width, height);
    let mut root = plain(Win::Keyboard, 0, "FrameLayout", KEYBOARD_PACKAGE, holder);
    root.resource_id = format!("{KEYBOARD_PACKAGE}:id/keyboard_holder");
    let mut out = vec![root];
    let rows = [
        ("qwertyuiop", 0, 1590),
        ("asdfghjkl", 54, 1760),
        ("zxcvbnm", 162, 1930),
    ];
    let mut keys: Vec<(String, Rect)> = Vec::new();
    for (letters, left, top) in rows {
        for (k, ch) in (0i32..).zip(letters.chars()) {
            let l = left + 108 * k;
            keys.push((ch.to_string(), Rect::new(l, top, l + 108, top + 150)));
        }
    }
    keys.extend(SPECIAL_KEYS.iter().map(|(d, r)| ((*d).to_owned(), *r)));
    for (desc, bounds) in keys {
        let mut key = plain(Win::Keyboard, 1, "FrameLayout", KEYBOARD_PACKAGE, bounds);
        key.desc = desc;
        key.flags |= Flags::CLICKABLE;
        out.push(key);
    }
    out
}

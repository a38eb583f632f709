//! The simulated phone's screens: TOML files under `assets/sim/`, embedded at build time and expanded into node lists.
//!
//! A screen lists `[[node]]`s (a flat list; `parent` names another node's `id`), the
//! `[[on]]` transitions, optional `[[paint]]` pixels for self-drawn content and an
//! optional `[ticker]`. A node with `repeat` stands for `count` copies laid out in
//! `columns`, each shifted by `step`; its descendants are copied with it and take the
//! copy's entry of `texts`. `{n}` in a text is the copy's number from 1, `{views}` a
//! view count drawn from the seed.
//!
//! Self-drawn content (a game, a map) is pixels the tree does not describe. Each
//! `[[paint]]` is drawn under the nodes, in file order, in display pixels:
//!
//! ```toml
//! [[paint]]                      # a filled rectangle, corners rounded by `radius`
//! rect = [240, 1640, 840, 1860]
//! color = [250, 250, 252]
//! radius = 110
//!
//! [[paint]]                      # a line of text centred in `rect`, `size` pixels high
//! rect = [240, 1640, 840, 1860]  # (the font's ascent to descent), shrunk to fit
//! text = "Play"
//! size = 112
//! color = [24, 26, 48]
//! ```
//!
//! `{}` in painted text is the ticker's count. A tap on pixels alone is an `[[on]]` with
//! `tap_rect = [l, t, r, b]` instead of `tap`: a tap inside the rectangle that no
//! clickable node takes. Every `[[on]]` has exactly one trigger (`tap`, `tap_rect`,
//! `key`) and one effect (`go`, `back`).
//!
//! A `[ticker]` counts every `every_ms` by `step` (1 unless given). With `node`, that
//! node's text is `format` with `{}` replaced by the count, and every tick raises a
//! content-changed event; without one only painted text changes, as a game's pixels do,
//! with no event. With `start` the count starts there when the screen is entered;
//! without, it is drawn from the seed and runs on the clock whether shown or not.

use serde::Deserialize;

use crate::model::{Flags, Rect};

/// Every screen file, by name; the first is where the phone starts.
const SOURCES: [(&str, &str); 10] = [
    (
        "launcher",
        include_str!("../../../../assets/sim/launcher.toml"),
    ),
    ("feed", include_str!("../../../../assets/sim/feed.toml")),
    ("search", include_str!("../../../../assets/sim/search.toml")),
    ("detail", include_str!("../../../../assets/sim/detail.toml")),
    (
        "settings",
        include_str!("../../../../assets/sim/settings.toml"),
    ),
    (
        "permission",
        include_str!("../../../../assets/sim/permission.toml"),
    ),
    ("game", include_str!("../../../../assets/sim/game.toml")),
    (
        "game_play",
        include_str!("../../../../assets/sim/game_play.toml"),
    ),
    (
        "game_settings",
        include_str!("../../../../assets/sim/game_settings.toml"),
    ),
    ("live", include_str!("../../../../assets/sim/live.toml")),
];

/// One screen file as written; a build's changes are made to it before it is expanded.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ScreenFile {
    package: String,
    /// Where `launch(package)` lands.
    #[serde(default)]
    entry: bool,
    /// Whether the input method is shown over this screen.
    #[serde(default)]
    keyboard: bool,
    ticker: Option<Ticker>,
    #[serde(default)]
    pub node: Vec<NodeSpec>,
    #[serde(default)]
    pub on: Vec<On>,
    #[serde(default)]
    paint: Vec<Paint>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NodeSpec {
    #[serde(default)]
    pub id: String,
    pub parent: Option<String>,
    class: String,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    texts: Vec<String>,
    #[serde(default)]
    desc: String,
    #[serde(default)]
    hint: String,
    pub bounds: [i32; 4],
    #[serde(default)]
    flags: Vec<String>,
    repeat: Option<Repeat>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Repeat {
    count: usize,
    #[serde(default = "one")]
    columns: usize,
    step: [i32; 2],
}

fn one() -> usize {
    1
}

/// An activity that throws in `onCreate`, and what its uncaught exception says.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct AppCrash {
    /// The activity's class, from `.` in its app's package (`.AccountActivity`).
    pub activity: &'static str,
    /// The exception as `Throwable.toString()` prints it: its class, then its message.
    pub exception: &'static str,
    /// Its stack, innermost frame first, each as an `at` line names it.
    pub frames: &'static [&'static str],
}

/// What an input does on a screen: exactly one trigger, one effect.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct On {
    /// A node's `id` (every copy of a repeated node answers to it).
    pub tap: Option<String>,
    /// A rectangle of the display (`[l, t, r, b]`) that no clickable node covers.
    pub tap_rect: Option<[i32; 4]>,
    /// A key name: back, home, enter, search.
    pub key: Option<String>,
    /// Go to this screen.
    pub go: Option<String>,
    /// Return to the previous screen.
    #[serde(default)]
    pub back: bool,
    /// Start an activity that crashes the app: a build's change (`sim-next`), never a file's.
    #[serde(skip)]
    pub crash: Option<&'static AppCrash>,
    #[serde(default)]
    pub anim_ms: u64,
}

impl On {
    /// Exactly one trigger and one effect, or why not.
    fn check(&self) -> Result<(), String> {
        let triggers = [
            self.tap.is_some(),
            self.tap_rect.is_some(),
            self.key.is_some(),
        ];
        let effects = [self.go.is_some(), self.back, self.crash.is_some()];
        if triggers.iter().filter(|&&t| t).count() != 1 {
            return Err("an [[on]] needs exactly one of tap, tap_rect, key".into());
        }
        if effects.iter().filter(|&&e| e).count() != 1 {
            return Err("an [[on]] needs exactly one of go, back".into());
        }
        Ok(())
    }

    /// Whether a tap at (`x`, `y`) is inside this rule's `tap_rect`.
    pub(super) fn takes_point(&self, x: i32, y: i32) -> bool {
        self.tap_rect
            .is_some_and(|[l, t, r, b]| x >= l && x < r && y >= t && y < b)
    }
}

/// A count that changes on its own, forever.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Ticker {
    /// The node whose text ticks; without one, only painted text shows the count.
    pub node: Option<String>,
    pub every_ms: u64,
    /// The node's text: `{}` is replaced by the count.
    #[serde(default)]
    pub format: String,
    /// What a tick adds.
    #[serde(default = "one_step")]
    pub step: u64,
    /// The count when the screen is entered; without it, drawn from the seed.
    pub start: Option<u64>,
}

fn one_step() -> u64 {
    1
}

/// Self-drawn content, not in the tree: a filled rectangle, or a line of text in it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Paint {
    pub rect: [i32; 4],
    /// The fill's colour, or the text's.
    pub color: [u8; 3],
    /// How much a fill's corners are rounded.
    #[serde(default)]
    pub radius: f32,
    /// Text centred in `rect`.
    pub text: Option<String>,
    /// The text's size in display pixels.
    #[serde(default = "text_size")]
    pub size: u32,
}

fn text_size() -> u32 {
    48
}

/// One node of a screen, repeats expanded.
#[derive(Clone, Debug)]
pub(super) struct Item {
    pub id: String,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub class: String,
    pub text: String,
    pub desc: String,
    pub hint: String,
    pub bounds: Rect,
    pub flags: Flags,
}

#[derive(Clone, Debug)]
pub(super) struct Screen {
    pub name: String,
    pub package: String,
    pub entry: bool,
    pub keyboard: bool,
    pub ticker: Option<Ticker>,
    pub items: Vec<Item>,
    pub roots: Vec<usize>,
    pub on: Vec<On>,
    pub paint: Vec<Paint>,
}

/// Screen files by name, in the order of `SOURCES`.
pub(super) type Files = Vec<(&'static str, ScreenFile)>;

/// Every embedded screen file, as written.
pub(super) fn parse_all() -> Result<Files, String> {
    SOURCES
        .iter()
        .map(|&(name, text)| {
            let file = toml::from_str(text).map_err(|e| format!("assets/sim/{name}.toml: {e}"))?;
            Ok((name, file))
        })
        .collect()
}

/// The screens of `files`, expanded in order; every `go` must name one of them.
pub(super) fn expand_all(files: Files, rng: &mut fastrand::Rng) -> Result<Vec<Screen>, String> {
    let screens: Vec<Screen> = files
        .into_iter()
        .map(|(name, file)| {
            expand(name, file, rng).map_err(|e| format!("assets/sim/{name}.toml: {e}"))
        })
        .collect::<Result<_, _>>()?;
    for screen in &screens {
        for on in &screen.on {
            if let Some(go) = &on.go
                && !screens.iter().any(|s| &s.name == go)
            {
                return Err(format!(
                    "screen {}: `go` names unknown screen {go}",
                    screen.name
                ));
            }
        }
    }
    Ok(screens)
}

/// Where one copy of a node was made: its item, copy number and shift.
#[derive(Clone, Copy, Debug, Default)]
struct Place {
    item: Option<usize>,
    n: Option<usize>,
    offset: (i32, i32),
}

#[cfg(test)]
pub(super) fn load(name: &str, text: &str, rng: &mut fastrand::Rng) -> Result<Screen, String> {
    expand(name, toml::from_str(text).map_err(|e| e.to_string())?, rng)
}

/// A screen file's nodes with their repeats made, `{n}` and `{views}` filled in.
fn expand(name: &str, file: ScreenFile, rng: &mut fastrand::Rng) -> Result<Screen, String> {
    file.on.iter().try_for_each(On::check)?;
    let mut items: Vec<Item> = Vec::new();
    // For each spec id: where its copies were made.
    let mut copies: Vec<(String, Vec<Place>)> = Vec::new();
    for spec in &file.node {
        let flags = flags_of(&spec.flags)?;
        let parents: Vec<Place> = match &spec.parent {
            None => vec![Place::default()],
            Some(p) => copies
                .iter()
                .find(|(id, _)| id == p)
                .ok_or_else(|| format!("node {:?}: parent {p:?} is not defined above it", spec.id))?
                .1
                .clone(),
        };
        let mut made = Vec::new();
        for Place {
            item: parent,
            n,
            offset,
        } in parents
        {
            let repeats: Vec<(Option<usize>, (i32, i32))> = match (&spec.repeat, n) {
                (None, _) => vec![(n, offset)],
                (Some(_), Some(_)) => {
                    return Err(format!("node {:?}: repeats may not nest", spec.id));
                }
                (Some(r), None) => (0..r.count)
                    .map(|k| {
                        let (col, row) = (k % r.columns.max(1), k / r.columns.max(1));
                        let dx = r.step[0].saturating_mul(col as i32);
                        let dy = r.step[1].saturating_mul(row as i32);
                        (Some(k), (offset.0 + dx, offset.1 + dy))
                    })
                    .collect(),
            };
            for (n, (dx, dy)) in repeats {
                let [l, t, r, b] = spec.bounds;
                let raw = match n {
                    Some(k) if !spec.texts.is_empty() => &spec.texts[k % spec.texts.len()],
                    _ => &spec.text,
                };
                let at = items.len();
                items.push(Item {
                    id: spec.id.clone(),
                    parent,
                    children: Vec::new(),
                    class: full_class(&spec.class),
                    text: fill(raw, n, rng),
                    desc: fill(&spec.desc, n, rng),
                    hint: spec.hint.clone(),
                    bounds: Rect::new(l + dx, t + dy, r + dx, b + dy),
                    flags,
                });
                if let Some(p) = parent {
                    items[p].children.push(at);
                }
                made.push(Place {
                    item: Some(at),
                    n,
                    offset: (dx, dy),
                });
            }
        }
        if !spec.id.is_empty() {
            copies.push((spec.id.clone(), made));
        }
    }
    let roots = (0..items.len())
        .filter(|&i| items[i].parent.is_none())
        .collect();
    Ok(Screen {
        name: name.to_owned(),
        package: file.package,
        entry: file.entry,
        keyboard: file.keyboard,
        ticker: file.ticker,
        items,
        roots,
        on: file.on,
        paint: file.paint,
    })
}

/// A screen that says the embedded assets are broken, so the phone still runs.
pub(super) fn broken(why: &str) -> Screen {
    let item = Item {
        id: "error".into(),
        parent: None,
        children: Vec::new(),
        class: "android.widget.TextView".into(),
        text: format!("sim screens failed to load: {why}"),
        desc: String::new(),
        hint: String::new(),
        bounds: Rect::new(0, 96, 1080, 2400),
        flags: Flags::ENABLED,
    };
    Screen {
        name: "launcher".into(),
        package: "tv.tapscope.sim".into(),
        entry: true,
        keyboard: false,
        ticker: None,
        items: vec![item],
        roots: vec![0],
        on: Vec::new(),
        paint: Vec::new(),
    }
}

fn fill(text: &str, n: Option<usize>, rng: &mut fastrand::Rng) -> String {
    let mut out = text.replace("{n}", &n.map_or(0, |k| k + 1).to_string());
    if out.contains("{views}") {
        out = out.replace("{views}", &format!("{}K", rng.u32(1..=999)));
    }
    out
}

/// `TextView` is short for `android.widget.TextView`; dotted names are kept.
fn full_class(class: &str) -> String {
    if class.contains('.') {
        class.to_owned()
    } else if ["View", "ViewGroup"].contains(&class) {
        format!("android.view.{class}")
    } else {
        format!("android.widget.{class}")
    }
}

fn flags_of(words: &[String]) -> Result<Flags, String> {
    let mut flags = Flags::ENABLED;
    for word in words {
        flags |= match word.as_str() {
            "clickable" => Flags::CLICKABLE | Flags::FOCUSABLE,
            "long-clickable" => Flags::LONG_CLICKABLE,
            "checkable" => Flags::CHECKABLE | Flags::CLICKABLE,
            "checked" => Flags::CHECKED,
            "scrollable" => Flags::SCROLLABLE | Flags::FOCUSABLE,
            "editable" => Flags::EDITABLE | Flags::CLICKABLE | Flags::FOCUSABLE,
            "focused" => Flags::FOCUSED,
            "selected" => Flags::SELECTED,
            other => return Err(format!("unknown flag {other:?}")),
        };
    }
    Ok(flags)
}

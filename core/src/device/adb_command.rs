//! What an agent's command to a phone means, read as it passes (the proxy's view): the
//! actions in its command line (`input tap 540 1210`, `input swipe …`, `am start …`), and
//! the screen in its output (a dump's XML, a screenshot's PNG), whatever command printed it.
//!
//! ```
//! use tapscope_core::device::adb_command::{Input, inputs};
//! use tapscope_core::geometry::Point;
//! assert_eq!(
//!     inputs("input touchscreen tap 540 1210.5; sleep 1"),
//!     [Input::Tap(Point::new(540, 1211))]
//! );
//! ```

use crate::device::shell_line;
use crate::geometry::Point;

/// One action a command line takes on the phone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Tap(Point),
    /// `input swipe`; also `input draganddrop`, a press held then moved.
    Swipe {
        from: Point,
        to: Point,
        duration_ms: Option<u64>,
        drag: bool,
    },
    /// `input motionevent DOWN|MOVE|UP X Y`: one part of a gesture made by hand.
    Motion {
        event: String,
        at: Point,
    },
    Text(String),
    /// `input keyevent K…`.
    Keys(Vec<String>),
    /// `am start …` (its component or package) or `monkey -p PACKAGE …`.
    Launch(String),
}

impl Input {
    /// The display pixels it touches, in order; none for text, keys and launches.
    pub fn points(&self) -> Vec<Point> {
        match self {
            Input::Tap(at) | Input::Motion { at, .. } => vec![*at],
            Input::Swipe { from, to, .. } => vec![*from, *to],
            Input::Text(_) | Input::Keys(_) | Input::Launch(_) => Vec::new(),
        }
    }

    /// How a person reads it: `tap (540, 1210)`, `key BACK`, `text "hello"`.
    pub fn describe(&self) -> String {
        match self {
            Input::Tap(at) => format!("tap ({}, {})", at.x, at.y),
            Input::Swipe { from, to, drag, .. } => format!(
                "{} ({}, {}) → ({}, {})",
                if *drag { "drag" } else { "swipe" },
                from.x,
                from.y,
                to.x,
                to.y
            ),
            Input::Motion { event, at } => format!("touch {event} ({}, {})", at.x, at.y),
            Input::Text(text) => format!("text {text:?}"),
            Input::Keys(keys) => format!("key {}", keys.join(" ")),
            Input::Launch(app) => format!("launch {app}"),
        }
    }
}

/// The actions in a shell command line, in order; none when it takes none or does not
/// parse.
pub fn inputs(line: &str) -> Vec<Input> {
    let Ok(pipelines) = shell_line::parse(line) else {
        return Vec::new();
    };
    pipelines
        .iter()
        .flat_map(|pipeline| &pipeline.commands)
        .filter_map(|command| {
            // A word that expands (`$?`, `$X`) means nothing until the phone runs it.
            let words: Option<Vec<&str>> = command.words.iter().map(|w| w.literal()).collect();
            // `VAR=value cmd` (its `env`), `exec cmd`: the command is what follows.
            let words: Vec<&str> = words?.into_iter().skip_while(|w| *w == "exec").collect();
            input(&words)
        })
        .collect()
}

/// Input sources `input` takes before its command.
const SOURCES: [&str; 9] = [
    "touchscreen",
    "touchpad",
    "touchnavigation",
    "mouse",
    "keyboard",
    "gamepad",
    "joystick",
    "stylus",
    "dpad",
];

fn input(words: &[&str]) -> Option<Input> {
    match words {
        ["input", rest @ ..] => {
            let mut rest = rest;
            // `input [-d DISPLAY] [SOURCE] COMMAND …`
            while let ["-d", _, more @ ..] = rest {
                rest = more;
            }
            if let [source, more @ ..] = rest
                && SOURCES.contains(source)
            {
                rest = more;
            }
            input_command(rest)
        }
        ["am", "start" | "start-activity", args @ ..] => launched(args).map(Input::Launch),
        ["monkey", args @ ..] => {
            let at = args.iter().position(|a| *a == "-p")?;
            args.get(at + 1).map(|p| Input::Launch((*p).to_owned()))
        }
        _ => None,
    }
}

fn input_command(words: &[&str]) -> Option<Input> {
    match words {
        ["tap", x, y, ..] => Some(Input::Tap(point(x, y)?)),
        [verb @ ("swipe" | "draganddrop"), x1, y1, x2, y2, rest @ ..] => Some(Input::Swipe {
            from: point(x1, y1)?,
            to: point(x2, y2)?,
            duration_ms: rest.first().and_then(|d| d.parse().ok()),
            drag: *verb == "draganddrop",
        }),
        ["motionevent", event, x, y, ..] => Some(Input::Motion {
            event: event.to_ascii_uppercase(),
            at: point(x, y)?,
        }),
        ["text", text @ ..] if !text.is_empty() => Some(Input::Text(text.join(" "))),
        ["keyevent", keys @ ..] => {
            let keys: Vec<String> = keys
                .iter()
                .filter(|k| !k.starts_with("--"))
                .map(|k| (*k).to_owned())
                .collect();
            (!keys.is_empty()).then_some(Input::Keys(keys))
        }
        _ => None,
    }
}

/// Options of `am start` followed by one value, and by two (an extra's key and value).
const ONE_VALUE: [&str; 7] = ["-a", "-d", "-t", "-c", "-f", "--user", "--display"];
const TWO_VALUES: [&str; 7] = ["-e", "--es", "--ei", "--ez", "--el", "--ef", "--eu"];

/// What `am start` starts: its `-n COMPONENT`, else its last word that is neither an
/// option nor an option's value (a package, or the URI of `-d` when none follows).
fn launched(args: &[&str]) -> Option<String> {
    if let Some(at) = args.iter().position(|a| *a == "-n") {
        return args.get(at + 1).map(|c| (*c).to_owned());
    }
    let mut last = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if ONE_VALUE.contains(word) {
            words.next();
        } else if TWO_VALUES.contains(word) {
            words.nth(1);
        } else if !word.starts_with('-') {
            last = Some(*word);
        }
    }
    last.map(str::to_owned)
}

fn point(x: &str, y: &str) -> Option<Point> {
    let coordinate = |word: &str| {
        word.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (-100_000.0..=100_000.0).contains(v))
            .map(|v| v.round() as i32)
    };
    Some(Point::new(coordinate(x)?, coordinate(y)?))
}

/// The PNG file signature.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A screen found in a command's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen<'a> {
    /// A dump: the XML from its declaration (or root) to its root's end.
    Dump(&'a str),
    /// A screenshot: the PNG.
    Png(&'a [u8]),
}

/// How much of an output's start [`may_hold_screen`] needs to decide.
pub const SNIFF: usize = 4096;

/// Whether an output starting with `start` (its first [`SNIFF`] bytes, or all of it) may
/// hold a screen, so that the rest is worth keeping.
pub fn may_hold_screen(start: &[u8]) -> bool {
    start.starts_with(PNG) || memchr::memmem::find(start, b"<hierarchy").is_some()
}

/// The screen in a command's whole output, if any: a PNG at its start, or a dump's XML
/// anywhere (after what `uiautomator dump` prints, before `UI hierchary dumped to…`).
pub fn seen(output: &[u8]) -> Option<Seen<'_>> {
    if output.starts_with(PNG) {
        return Some(Seen::Png(output));
    }
    let root = memchr::memmem::find(output, b"<hierarchy")?;
    let start = memchr::memmem::rfind(&output[..root], b"<?xml").unwrap_or(root);
    let end = memchr::memmem::rfind(output, b"</hierarchy>")? + b"</hierarchy>".len();
    if end <= root {
        return None;
    }
    std::str::from_utf8(&output[start..end])
        .ok()
        .map(Seen::Dump)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Command lines as agents send them (mobile-mcp, droidrun, AppAgent, adbutils,
    /// uiautomator2's shell fallbacks).
    #[test]
    fn agents_command_lines_read_as_their_actions() {
        let p = Point::new;
        let cases: Vec<(&str, Vec<Input>)> = vec![
            ("input tap 540 1210", vec![Input::Tap(p(540, 1210))]),
            ("input tap 540.4 1210.6", vec![Input::Tap(p(540, 1211))]),
            ("input -d 0 touchscreen tap 1 2", vec![Input::Tap(p(1, 2))]),
            (
                "input swipe 540 1800 540 600 300",
                vec![Input::Swipe {
                    from: p(540, 1800),
                    to: p(540, 600),
                    duration_ms: Some(300),
                    drag: false,
                }],
            ),
            (
                "input draganddrop 10 20 30 40 1000",
                vec![Input::Swipe {
                    from: p(10, 20),
                    to: p(30, 40),
                    duration_ms: Some(1000),
                    drag: true,
                }],
            ),
            (
                "input motionevent down 5 6",
                vec![Input::Motion {
                    event: "DOWN".into(),
                    at: p(5, 6),
                }],
            ),
            (
                "input text 'hello%sworld'",
                vec![Input::Text("hello%sworld".into())],
            ),
            ("input keyevent 4", vec![Input::Keys(vec!["4".into()])]),
            (
                "input keyevent --longpress KEYCODE_POWER",
                vec![Input::Keys(vec!["KEYCODE_POWER".into()])],
            ),
            (
                "am start -n tv.tapscope.demo/.Main",
                vec![Input::Launch("tv.tapscope.demo/.Main".into())],
            ),
            (
                "am start -W -a android.intent.action.VIEW -d https://x.org com.android.chrome",
                vec![Input::Launch("com.android.chrome".into())],
            ),
            (
                "monkey -p tv.tapscope.demo -c android.intent.category.LAUNCHER 1",
                vec![Input::Launch("tv.tapscope.demo".into())],
            ),
            (
                "input tap 1 2 && sleep 1; input keyevent BACK",
                vec![Input::Tap(p(1, 2)), Input::Keys(vec!["BACK".into()])],
            ),
            ("export A=1; exec input tap 3 4", vec![Input::Tap(p(3, 4))]),
            ("A=1 B='x y' input tap 5 6", vec![Input::Tap(p(5, 6))]),
            (
                "input tap $? 6; input keyevent 4",
                vec![Input::Keys(vec!["4".into()])],
            ),
            (
                "X=5; input tap $X 6; input tap \"${X}\" 7; input tap '$X' 8; input text A",
                vec![Input::Text("A".into())],
            ),
            ("uiautomator dump /dev/tty", vec![]),
            ("input tap x y", vec![]),
            ("input tap 1", vec![]),
            ("echo 'unclosed", vec![]),
        ];
        for (line, expected) in cases {
            assert_eq!(inputs(line), expected, "{line}");
        }
    }

    #[test]
    fn actions_are_described_and_give_their_points() {
        let swipe = Input::Swipe {
            from: Point::new(1, 2),
            to: Point::new(3, 4),
            duration_ms: None,
            drag: false,
        };
        assert_eq!(swipe.describe(), "swipe (1, 2) → (3, 4)");
        assert_eq!(swipe.points(), [Point::new(1, 2), Point::new(3, 4)]);
        assert_eq!(Input::Keys(vec!["BACK".into()]).describe(), "key BACK");
        assert!(Input::Text("a".into()).points().is_empty());
    }

    /// Outputs as phones print them: `uiautomator dump /dev/tty` (the XML, then its
    /// notice), a dump to a file then `cat`, and `screencap -p`.
    #[test]
    fn screens_are_found_in_what_commands_print() {
        let xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node text=\"a\"/></hierarchy>";
        let tty = format!("{xml}UI hierchary dumped to: /dev/tty\n");
        assert_eq!(seen(tty.as_bytes()), Some(Seen::Dump(xml)));
        let file = format!("UI hierchary dumped to: /sdcard/window_dump.xml\n{xml}");
        assert_eq!(seen(file.as_bytes()), Some(Seen::Dump(xml)));
        assert!(may_hold_screen(file.as_bytes()));
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert_eq!(seen(png), Some(Seen::Png(png)));
        assert!(may_hold_screen(png));
        assert_eq!(seen(b"ERROR: could not get idle state.\n"), None);
        assert!(!may_hold_screen(b"package:tv.tapscope.demo\n"));
        // A dump cut short (the command died mid-write) is no screen.
        assert_eq!(seen(&xml.as_bytes()[..60]), None);
    }
}

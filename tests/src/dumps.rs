//! Generated dumps of the shapes that once broke tapscope: tens of thousands of top-level
//! windows (uiautomator XML, droidbot JSON), and a long run of one character.

/// What top-level window `index` of a generated screen is: a tile of a 10 × 24 grid of
/// 108 × 100 on a 1080 × 2400 display, mostly an app's (all but the first drawn as
/// overlays), one in 50 a keyboard's and one in 50 a status bar's over the tile before it.
fn tile(index: usize) -> (&'static str, [i32; 4]) {
    let package = match index % 50 {
        24 => "com.google.android.inputmethod.latin",
        49 => "com.android.systemui",
        _ => "com.example.app",
    };
    let cell = i32::try_from((index - usize::from(index % 50 == 49)) % 240).unwrap_or(0);
    let (left, top) = (cell % 10 * 108, cell / 10 * 100);
    (package, [left, top, left + 108, top + 100])
}

/// uiautomator XML with `windows` top-level nodes, each a window with a text.
pub fn many_windows_xml(windows: usize) -> String {
    let mut xml = String::from(r#"<hierarchy rotation="0">"#);
    for index in 0..windows {
        let (package, [l, t, r, b]) = tile(index);
        xml.push_str(&format!(
            r#"<node text="w{index}" package="{package}" bounds="[{l},{t}][{r},{b}]"/>"#
        ));
    }
    xml.push_str("</hierarchy>");
    xml
}

/// droidbot state JSON with `views` root views (no parent), each a window with a text.
pub fn droidbot_root_views(views: usize) -> String {
    let mut json = String::from(r#"{"foreground_activity": "com.example.app/.Main", "views": ["#);
    for index in 0..views {
        let (package, [l, t, r, b]) = tile(index);
        if index > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#"{{"temp_id": {index}, "parent": -1, "package": "{package}", "text": "w{index}", "bounds": [[{l}, {t}], [{r}, {b}]]}}"#
        ));
    }
    json.push_str("]}");
    json
}

/// Where a generated dump holds its long run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunAt {
    /// The text attribute of a node.
    InAttribute,
    /// Between two nodes.
    BetweenNodes,
}

/// A small screen holding `unit` repeated `times` (a million spaces, tabs, letters, …) at
/// `at`; `unit` must need no XML escaping.
pub fn dump_with_run(unit: &str, times: usize, at: RunAt) -> String {
    let run = unit.repeat(times);
    let (text, between) = match at {
        RunAt::InAttribute => (run.as_str(), ""),
        RunAt::BetweenNodes => ("Title", run.as_str()),
    };
    format!(
        r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example.app" bounds="[0,0][1080,2400]"><node text="{text}" class="android.widget.TextView" package="com.example.app" bounds="[0,0][1080,200]"/>{between}<node text="Send" clickable="true" class="android.widget.Button" package="com.example.app" bounds="[0,200][540,400]"/></node></hierarchy>"#
    )
}

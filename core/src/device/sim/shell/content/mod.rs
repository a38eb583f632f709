//! `content`, Android's content provider tool, with the settings provider
//! (`content://settings/…`, answered by the system's settings: `super::system`) and
//! droidrun's Portal once it is installed ([`super::portal_app`]). `content query` of
//! `content://com.mobilerun.portal/…` answers as Portal 0.7.2 does (`Row: 0 result=…`,
//! its JSON envelope, `org.json`'s escaping), the tree built from the screen shown: the
//! app's window, which is what Portal reads (`rootInActiveWindow`); the status bar and the
//! keyboard are other windows. Every node the sim's stock dump lists is visible to the user
//! (a stock dump lists no other), so each says so. Before the install, and for any other
//! authority, `content` prints Android's `Could not find provider` (on stderr, status 0).

use super::{Io, SimShell};
use crate::device::helper_wire::PORTAL_PACKAGE;
use crate::device::sim::view::{Shown, Win};
use crate::device::sim::{DISPLAY, Sim};
use crate::model::{Flags, Rect};
use crate::stability::Clock;

/// The release whose answers these are (droidrun-portal 0.7.2, April 2026).
const VERSION: &str = "0.7.2";
/// What `auth_token` answers.
const AUTH_TOKEN: &str = "tapscope-sim-portal";
/// The accessibility window id of the app's window: Portal prints one, any will do.
const WINDOW_ID: i64 = 41;
/// The display's density, as `wm density` prints it.
const DENSITY_DPI: i64 = 420;
/// Portal's filter keeps a node at least this much on screen (`VISIBILITY_THRESHOLD`).
const VISIBLE_FRACTION: f64 = 0.01;
/// What `content query` prints above an error in its arguments (Android prints every
/// subcommand's usage; this is the query's).
const USAGE: &str = "usage: adb shell content [subcommand] [options]\n\n\
    usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] \
    [--where <WHERE>] [--sort <SORT_ORDER>] [--extra <BINDING>...]\n\n";

/// `content SUBCOMMAND …`.
pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    let uri = match arguments(args) {
        Ok(uri) => uri,
        Err(why) => {
            io.say(&format!("{USAGE}[ERROR] {why}\n"));
            return 0;
        }
    };
    let (authority, path, query) = split_uri(&uri);
    if authority == "settings" {
        // The settings provider: `super::system`'s settings.
        return shell
            .phone
            .java(|_| super::system::settings_content(shell, args, path, io));
    }
    let service = shell.portal_service();
    let Some(service) = service.filter(|_| authority == PORTAL_PACKAGE) else {
        io.complain(&format!(
            "Error while accessing provider:{authority}\n\
             java.lang.IllegalStateException: Could not find provider: {authority}\n"
        ));
        return 0;
    };
    if args.first() != Some(&"query") {
        io.complain(&format!(
            "Error while accessing provider:{authority}\n\
             java.lang.UnsupportedOperationException: the sim's Portal answers queries only\n"
        ));
        return 0;
    }
    let filter = query_flag(query, "filter").unwrap_or(true);
    let value = shell
        .phone
        .java(|sim| answer(sim, path.trim_end_matches('/'), filter, service));
    io.say(&format!("Row: 0 result={value}\n"));
    0
}

/// The `--uri` of a command line as `Content.java`'s parser reads it, or its complaint.
fn arguments(args: &[&str]) -> Result<String, String> {
    const OPERATIONS: [&str; 8] = [
        "insert", "delete", "update", "query", "call", "read", "write", "gettype",
    ];
    const TAKE_VALUES: [&str; 9] = [
        "--uri",
        "--user",
        "--projection",
        "--where",
        "--sort",
        "--bind",
        "--extra",
        "--method",
        "--arg",
    ];
    if !args.first().is_some_and(|op| OPERATIONS.contains(op)) {
        let named = args.first().copied().unwrap_or("null");
        return Err(format!("Unsupported operation: {named}"));
    }
    let mut uri = None;
    let mut rest = args[1..].iter();
    while let Some(&argument) = rest.next() {
        if !TAKE_VALUES.contains(&argument) {
            return Err(format!("Unsupported argument: {argument}"));
        }
        let value = rest
            .next()
            .filter(|v| !v.is_empty() && !v.starts_with("--"))
            .ok_or_else(|| format!("No value for argument: {argument}"))?;
        if argument == "--uri" {
            uri = Some((*value).to_owned());
        }
    }
    uri.ok_or_else(|| {
        "Content provider URI not specified. Did you specify --uri argument?".to_owned()
    })
}

/// `content://AUTHORITY/PATH?QUERY` in its three parts (`null` for no authority, as
/// Android's `Uri` has none then).
fn split_uri(uri: &str) -> (&str, &str, &str) {
    let Some(rest) = uri.strip_prefix("content://") else {
        return ("null", "", "");
    };
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, path) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
    (authority, path, query)
}

/// `Uri.getBooleanQueryParameter`: anything but `false` and `0` is true.
fn query_flag(query: &str, key: &str) -> Option<bool> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| !(v.eq_ignore_ascii_case("false") || v == "0"))
}

/// Portal's answer to `path`: its `ApiResponse` as `toJson` writes it.
fn answer<C: Clock + Clone + Send>(
    sim: &Sim<C>,
    path: &str,
    filter: bool,
    service: bool,
) -> String {
    match path {
        "/version" => return success_string(VERSION),
        "/auth_token" => return success_string(AUTH_TOKEN),
        _ if !service => return error("Accessibility service not available"),
        _ => {}
    }
    match path {
        "/ping" => success_string("pong"),
        "/state_full" => match tree(sim, filter) {
            Some(tree) => {
                let mut state = String::from("{");
                member(&mut state, "a11y_tree");
                state.push_str(&tree);
                member(&mut state, "phone_state");
                state.push_str(&phone_state(sim));
                member(&mut state, "device_context");
                state.push_str(&device_context());
                state.push('}');
                let mut out = String::from(r#"{"status":"success","result":"#);
                out.push_str(&state);
                out.push('}');
                out
            }
            None => error("No active window or root filtered out"),
        },
        "/a11y_tree_full" => match tree(sim, filter) {
            Some(tree) => success_string(&tree),
            None => error("No active window or root filtered out"),
        },
        "/phone_state" => success_string(&phone_state(sim)),
        "/a11y_tree" | "/state" | "/packages" => error(&format!(
            "the sim's Portal does not answer {path}: ask for state_full, a11y_tree_full, \
             phone_state, ping or version"
        )),
        other => error(&format!("Unknown endpoint: {other}")),
    }
}

/// `ApiResponse.Success(text)`.
fn success_string(text: &str) -> String {
    let mut out = String::from(r#"{"status":"success","result":"#);
    string(&mut out, text);
    out.push('}');
    out
}

/// `ApiResponse.Error(message)`.
fn error(message: &str) -> String {
    let mut out = String::from(r#"{"status":"error","error":"#);
    string(&mut out, message);
    out.push('}');
    out
}

/// The app window's first root and everything under it, as `AccessibilityTreeBuilder`
/// writes it; with `filter`, without the nodes under 1 % on screen that hold none that is
/// not. `None` when the root itself is filtered out.
fn tree<C: Clock + Clone + Send>(sim: &Sim<C>, filter: bool) -> Option<String> {
    let (frame, _) = sim.frame(false);
    let nodes: Vec<&Shown> = frame
        .iter()
        .filter(|n| n.window == Win::App)
        .enumerate()
        .take_while(|(k, n)| *k == 0 || n.depth > 0)
        .map(|(_, n)| n)
        .collect();
    if nodes.is_empty() {
        return None;
    }
    let hints: Vec<&str> = nodes
        .iter()
        .map(|n| {
            let item = n.item.and_then(|i| sim.screen()?.items.get(i));
            item.map_or("", |item| item.hint.as_str())
        })
        .collect();
    // Parents, each node's place among its siblings, and how many children each has.
    let mut parent: Vec<Option<usize>> = Vec::with_capacity(nodes.len());
    let mut place = vec![0i64; nodes.len()];
    let mut children = vec![0i64; nodes.len()];
    let mut open: Vec<usize> = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&p| nodes[p].depth >= node.depth) {
            open.pop();
        }
        let p = open.last().copied();
        if let Some(p) = p {
            place[k] = children[p];
            children[p] += 1;
        }
        parent.push(p);
        open.push(k);
    }
    // What of each node shows: its bounds within its parent's shown part and the display,
    // as Android's bounds in screen are clipped by the views above.
    let screen = Rect::new(0, 0, DISPLAY.width, DISPLAY.height);
    let mut shown: Vec<Rect> = Vec::with_capacity(nodes.len());
    for (k, node) in nodes.iter().enumerate() {
        let within = parent[k].map_or(screen, |p| shown[p]);
        shown.push(node.bounds.intersect(&within));
    }
    let mut kept: Vec<bool> = nodes
        .iter()
        .zip(&shown)
        .map(|(n, s)| !filter || visible_fraction(&n.bounds, s) >= VISIBLE_FRACTION)
        .collect();
    for k in (0..nodes.len()).rev() {
        if let (true, Some(p)) = (kept[k], parent[k]) {
            kept[p] = true;
        }
    }
    if !kept[0] {
        return None;
    }
    let mut out = String::with_capacity(nodes.len() * 1500);
    let mut open: Vec<usize> = Vec::new();
    for (k, node) in nodes.iter().enumerate().filter(|(k, _)| kept[*k]) {
        while open.last().is_some_and(|&p| nodes[p].depth >= node.depth) {
            open.pop();
            out.push_str("]}");
        }
        if out.ends_with('}') {
            out.push(',');
        }
        let within = parent[k].map_or(Rect::default(), |p| nodes[p].bounds);
        write_node(&mut out, node, hints[k], within, place[k], children[k]);
        open.push(k);
    }
    for _ in open {
        out.push_str("]}");
    }
    Some(out)
}

/// How much of `rect` shows, its `shown` part, as `AccessibilityTreeBuilder`'s
/// `getVisiblePercentage`.
fn visible_fraction(rect: &Rect, shown: &Rect) -> f64 {
    let area = rect.area();
    if area <= 0 {
        return 0.0;
    }
    shown.area().max(0) as f64 / area as f64
}

/// One node's keys, in `AccessibilityTreeBuilder`'s order, up to its open `children`.
fn write_node(out: &mut String, node: &Shown, hint: &str, parent: Rect, place: i64, children: i64) {
    let f = |flag| node.flags.contains(flag);
    out.push('{');
    for (key, value) in [
        ("resourceId", node.resource_id.as_str()),
        ("className", &node.class),
        ("packageName", &node.package),
        ("text", &node.text),
        ("contentDescription", &node.desc),
        ("hint", hint),
        ("stateDescription", ""),
        ("tooltipText", ""),
        ("paneTitle", ""),
        ("error", ""),
    ] {
        member(out, key);
        string(out, value);
    }
    let b = node.bounds;
    let in_parent = Rect::new(
        b.left - parent.left,
        b.top - parent.top,
        b.right - parent.left,
        b.bottom - parent.top,
    );
    for (key, rect) in [("boundsInScreen", b), ("boundsInParent", in_parent)] {
        member(out, key);
        out.push_str(&format!(
            r#"{{"left":{},"top":{},"right":{},"bottom":{}}}"#,
            rect.left, rect.top, rect.right, rect.bottom
        ));
    }
    let editable = f(Flags::EDITABLE);
    for (key, value) in [
        ("isClickable", f(Flags::CLICKABLE)),
        ("isLongClickable", f(Flags::LONG_CLICKABLE)),
        ("isContextClickable", false),
        ("isFocusable", f(Flags::FOCUSABLE)),
        ("isFocused", f(Flags::FOCUSED)),
        ("isAccessibilityFocused", false),
        ("isSelected", f(Flags::SELECTED)),
        ("isCheckable", f(Flags::CHECKABLE)),
        ("isChecked", f(Flags::CHECKED)),
        ("isEnabled", f(Flags::ENABLED)),
        ("isVisibleToUser", true),
        ("isEditable", editable),
        ("isPassword", f(Flags::PASSWORD)),
        ("isShowingHintText", node.showing_hint),
        ("isScrollable", f(Flags::SCROLLABLE)),
        ("isDismissable", false),
        ("isMultiLine", false),
        ("isImportantForAccessibility", true),
        ("isScreenReaderFocusable", false),
        ("isHeading", false),
        ("isTextSelectable", false),
    ] {
        member(out, key);
        out.push_str(if value { "true" } else { "false" });
    }
    let has_text = !node.text.is_empty();
    let selection = if editable {
        node.text.chars().count() as i64
    } else {
        -1
    };
    let mut numbers = Vec::with_capacity(10);
    if has_text {
        numbers.extend([
            ("textSelectionStart", selection),
            ("textSelectionEnd", selection),
        ]);
    }
    let actions = actions(node.flags);
    numbers.extend([
        ("inputType", i64::from(editable)),
        ("liveRegion", 0),
        ("windowId", WINDOW_ID),
        ("drawingOrder", place),
        ("maxTextLength", -1),
        ("movementGranularities", if has_text { 31 } else { 0 }),
        ("childCount", children),
        ("actionCount", actions.len() as i64),
    ]);
    for (key, value) in numbers {
        member(out, key);
        out.push_str(&value.to_string());
    }
    member(out, "actionList");
    out.push('[');
    for (id, name) in actions {
        if !out.ends_with('[') {
            out.push(',');
        }
        out.push_str(&format!(r#"{{"id":{id},"label":"","name":"{name}"}}"#));
    }
    out.push(']');
    member(out, "children");
    out.push('[');
}

/// The actions a node with `flags` offers, by id, named as Portal names them.
fn actions(flags: Flags) -> Vec<(u32, &'static str)> {
    let mut out = Vec::new();
    let has = |flag| flags.contains(flag);
    if has(Flags::FOCUSABLE) {
        out.push(if has(Flags::FOCUSED) {
            (2, "CLEAR_FOCUS")
        } else {
            (1, "FOCUS")
        });
    }
    if has(Flags::CLICKABLE) {
        out.push((16, "CLICK"));
    }
    if has(Flags::LONG_CLICKABLE) {
        out.push((32, "LONG_CLICK"));
    }
    // ACTION_ACCESSIBILITY_FOCUS, which Portal's table does not name.
    out.push((64, "UNKNOWN_64"));
    if has(Flags::SCROLLABLE) {
        out.extend([(4096, "SCROLL_FORWARD"), (8192, "SCROLL_BACKWARD")]);
    }
    if has(Flags::EDITABLE) {
        out.push((2_097_152, "SET_TEXT"));
    }
    out
}

/// `JsonBuilders.phoneStateToJson`: a `null` (no app label, no focused node) leaves its key out.
fn phone_state<C: Clock + Clone + Send>(sim: &Sim<C>) -> String {
    let (frame, _) = sim.frame(false);
    let focused = frame
        .iter()
        .find(|n| n.window == Win::App && n.flags.contains(Flags::FOCUSED));
    let mut out = String::from("{");
    member(&mut out, "packageName");
    string(&mut out, sim.package());
    member(&mut out, "activityName");
    string(&mut out, &activity(sim));
    member(&mut out, "keyboardVisible");
    out.push_str(if frame.iter().any(|n| n.window == Win::Keyboard) {
        "true"
    } else {
        "false"
    });
    member(&mut out, "isEditable");
    let editable = focused.is_some_and(|n| n.flags.contains(Flags::EDITABLE));
    out.push_str(if editable { "true" } else { "false" });
    member(&mut out, "focusedElement");
    out.push('{');
    if let Some(node) = focused {
        member(&mut out, "text");
        string(&mut out, &node.text);
        member(&mut out, "className");
        string(&mut out, &node.class);
    }
    member(&mut out, "resourceId");
    string(&mut out, focused.map_or("", |n| n.resource_id.as_str()));
    out.push_str("}}");
    out
}

/// The activity a window-state event names for the screen: `PACKAGE.NameActivity`.
fn activity<C: Clock + Clone + Send>(sim: &Sim<C>) -> String {
    let mut name = sim.screen_name().to_owned();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    format!("{}.{name}Activity", sim.package())
}

/// `MobilerunAccessibilityService.getDeviceContext`.
fn device_context() -> String {
    let density = DENSITY_DPI as f64 / 160.0;
    let (w, h) = (DISPLAY.width, DISPLAY.height);
    format!(
        r#"{{"screen_bounds":{{"width":{w},"height":{h}}},"filtering_params":{{"min_element_size":5,"overlay_offset":0}},"display_metrics":{{"density":{density},"densityDpi":{DENSITY_DPI},"scaledDensity":{density},"widthPixels":{w},"heightPixels":{h}}}}}"#
    )
}

/// `"key":` after a comma unless it opens its object.
fn member(out: &mut String, key: &str) {
    if !out.ends_with('{') {
        out.push(',');
    }
    string(out, key);
    out.push(':');
}

/// A JSON string as Android's `org.json` writes one: `"`, `\` and `/` escaped, the
/// control characters by name or as `\u00XX`.
fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' | '/' => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) <= 0x1f => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests;

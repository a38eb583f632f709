//! The sim's `content` and Portal, read back with tapscope's own Portal reader: what
//! Android prints without Portal, usage errors, Portal's small answers, and every screen
//! pruned from Portal's JSON as from the stock dump of the same window.

use crate::device::sim::shell::tests::run;
use std::time::Duration;

use super::*;
use crate::device::helper_wire::{
    PortalApp, PortalEndpoint, PortalQuery, portal_command, portal_reply,
};
use crate::device::look::HelperFault;
use crate::device::sim::costs::Profile;
use crate::device::sim::encode;
use crate::device::{Device, Key};
use crate::geometry::Point;
use crate::parse::parse_str;
use crate::prune::PruneRules;
use crate::render::versioned;
use crate::stability::VirtualClock;

/// What tapscope reads of `query`: everything printed, through its Portal reader.
fn ask(shell: &SimShell<VirtualClock>, query: PortalQuery) -> Result<String, HelperFault> {
    let (status, out, err) = run(shell, &portal_command(query));
    assert_eq!(status, 0, "`content` exits 0 whatever happens");
    portal_reply(&format!("{out}{err}"))
}

fn shell() -> (SimShell<VirtualClock>, VirtualClock) {
    let clock = VirtualClock::new();
    (SimShell::new(clock.clone(), 5, Profile::Instant), clock)
}

/// The pruned text an agent reads of a dump.
fn pruned(dump: &str) -> String {
    versioned(&parse_str(dump).unwrap(), &PruneRules::default()).1
}

/// The stock dump of the app's window alone: the window Portal reads.
fn stock_app_window(shell: &SimShell<VirtualClock>) -> String {
    let sim = shell.phone().sim();
    let (frame, _) = sim.frame(false);
    let app: Vec<_> = frame.into_iter().filter(|n| n.window == Win::App).collect();
    encode::xml(&app, 0)
}

#[test]
fn without_portal_content_prints_what_android_prints() {
    let (shell, _) = shell();
    let (status, out, err) = run(&shell, &portal_command(PortalQuery::SCREEN));
    assert_eq!((status, out.as_str()), (0, ""));
    assert_eq!(
        err,
        "Error while accessing provider:com.mobilerun.portal\n\
         java.lang.IllegalStateException: Could not find provider: com.mobilerun.portal\n"
    );
    assert_eq!(ask(&shell, PortalQuery::PING), Err(HelperFault::Absent));
    shell.install_portal();
    let legacy = PortalQuery {
        app: PortalApp::Droidrun,
        endpoint: PortalEndpoint::StateFull,
    };
    assert_eq!(
        ask(&shell, legacy),
        Err(HelperFault::Absent),
        "the old name is gone"
    );
    let (_, _, err) = run(&shell, "content query --uri content://com.example.none/x");
    assert!(
        err.contains("Could not find provider: com.example.none"),
        "{err}"
    );
    // The settings provider is the system's (`system::settings`).
    let (_, out, _) = run(&shell, "content query --uri content://settings/secure");
    assert!(
        out.contains(", name=user_setup_complete, value=1\n"),
        "{out}"
    );
}

#[test]
fn usage_errors_print_as_content_does() {
    let (shell, _) = shell();
    for (line, error) in [
        ("content", "[ERROR] Unsupported operation: null\n"),
        ("content list", "[ERROR] Unsupported operation: list\n"),
        (
            "content query",
            "[ERROR] Content provider URI not specified. Did you specify --uri argument?\n",
        ),
        (
            "content query --uri",
            "[ERROR] No value for argument: --uri\n",
        ),
        (
            "content query --uri --user",
            "[ERROR] No value for argument: --uri\n",
        ),
        (
            "content query --uri content://com.mobilerun.portal/ping --fast",
            "[ERROR] Unsupported argument: --fast\n",
        ),
    ] {
        let (status, out, err) = run(&shell, line);
        assert_eq!(status, 0, "{line}");
        assert!(out.starts_with("usage: adb shell content"), "{line}: {out}");
        assert!(out.ends_with(error), "{line}: {out}");
        assert_eq!(err, "", "{line}");
    }
}

#[test]
fn portal_answers_its_small_queries() {
    let (shell, _) = shell();
    shell.install_portal();
    assert_eq!(ask(&shell, PortalQuery::PING), Ok("pong".into()));
    let version = PortalQuery {
        endpoint: PortalEndpoint::Version,
        ..PortalQuery::PING
    };
    assert_eq!(ask(&shell, version), Ok("0.7.2".into()));
    let (_, out, _) = run(
        &shell,
        "content query --uri content://com.mobilerun.portal/nothing/here",
    );
    assert_eq!(
        out,
        "Row: 0 result={\"status\":\"error\",\"error\":\"Unknown endpoint: \\/nothing\\/here\"}\n"
    );
    let (_, _, err) = run(
        &shell,
        "content insert --uri content://com.mobilerun.portal/keyboard/clear --bind a:s:b",
    );
    assert!(err.contains("answers queries only"), "{err}");
    // Its accessibility service off: the tree and ping refused, the version still given.
    shell.set_portal_service(false);
    assert_eq!(ask(&shell, PortalQuery::PING), Err(HelperFault::Refused));
    assert_eq!(ask(&shell, PortalQuery::SCREEN), Err(HelperFault::Refused));
    assert_eq!(ask(&shell, version), Ok("0.7.2".into()));
    shell.set_portal_service(true);
    assert_eq!(ask(&shell, PortalQuery::PING), Ok("pong".into()));
}

/// Portal's JSON of what is shown now, and the stock dump of the same window, pruned.
fn both_pruned(shell: &SimShell<VirtualClock>) -> (String, String) {
    let json = ask(shell, PortalQuery::SCREEN).unwrap();
    (pruned(&json), pruned(&stock_app_window(shell)))
}

#[test]
fn every_screen_from_portal_prunes_as_its_stock_dump() {
    let (shell, mut clock) = shell();
    shell.install_portal();
    let names: Vec<String> = {
        let sim = shell.phone().sim();
        sim.screens.iter().map(|s| s.name.clone()).collect()
    };
    assert!(names.len() >= 10, "{names:?}");
    for (index, name) in names.iter().enumerate() {
        {
            let mut sim = shell.phone().sim();
            sim.current = index;
            sim.anim = None;
        }
        clock.sleep(Duration::from_secs(3));
        let (portal, stock) = both_pruned(&shell);
        assert_eq!(portal, stock, "{name}");
        let json = ask(&shell, PortalQuery::SCREEN).unwrap();
        let tree = parse_str(&json).unwrap();
        let stock_tree = parse_str(&stock_app_window(&shell)).unwrap();
        assert_eq!(tree.nodes.len(), stock_tree.nodes.len(), "{name}");
        assert_eq!(tree.app, shell.phone().sim().package(), "{name}");
    }
}

#[test]
fn portal_follows_scrolls_slides_and_typing() {
    let (shell, mut clock) = shell();
    shell.install_portal();
    shell.phone().sim().launch("tv.tapscope.demo").unwrap();
    // Half way through the slide in: the new screen is part off the display.
    clock.sleep(Duration::from_millis(300));
    let (portal, stock) = both_pruned(&shell);
    assert_eq!(portal, stock, "mid-slide");
    // Portal's own filter (no `filter=false`) drops what is off the display.
    let unfiltered = parse_str(&ask(&shell, PortalQuery::SCREEN).unwrap()).unwrap();
    let (_, out, _) = run(
        &shell,
        "content query --uri content://com.mobilerun.portal/state_full",
    );
    let kept = parse_str(&portal_reply(&out).unwrap()).unwrap();
    assert!(
        kept.nodes.len() < unfiltered.nodes.len(),
        "{} of {}",
        kept.nodes.len(),
        unfiltered.nodes.len()
    );
    clock.sleep(Duration::from_secs(3));
    // Scrolled: what went past the list's edges is counted alike.
    shell
        .phone()
        .sim()
        .swipe(
            Point::new(540, 1900),
            Point::new(540, 700),
            Duration::from_millis(300),
        )
        .unwrap();
    clock.sleep(Duration::from_secs(3));
    let (portal, stock) = both_pruned(&shell);
    assert_eq!(portal, stock, "scrolled");
    assert!(portal.contains("more"), "{portal}");
    // Typed into the search field, the keyboard up: Portal's state says so.
    {
        let mut sim = shell.phone().sim();
        sim.current = sim.screens.iter().position(|s| s.name == "search").unwrap();
        sim.anim = None;
    }
    clock.sleep(Duration::from_secs(3));
    shell.phone().sim().input_text("cello").unwrap();
    clock.sleep(Duration::from_secs(3));
    let json = ask(&shell, PortalQuery::SCREEN).unwrap();
    assert!(
        json.contains(r#""keyboardVisible":true,"isEditable":true"#),
        "{json:.300}"
    );
    let tree = parse_str(&json).unwrap();
    let field = tree.nodes.iter().find(|n| n.text == "cello").unwrap();
    assert_eq!(
        field.hint, "Search videos",
        "Portal gives the hint beside the text"
    );
    shell.phone().sim().key(Key::Back).unwrap();
}

#[test]
fn text_is_escaped_as_android_s_org_json_escapes_it() {
    let mut out = String::new();
    string(&mut out, "a/b \"c\" \\ \n\t\u{1}é");
    assert_eq!(out, r#""a\/b \"c\" \\ \n\t\u0001é""#);
    let back: String = serde_json::from_str(&out).unwrap();
    assert_eq!(back, "a/b \"c\" \\ \n\t\u{1}é");
}

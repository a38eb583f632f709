//! The wire readers on what each project writes: Portal's rows as `content query` prints
//! them, mobilecli's answers as its server frames them; then every bad input.
//!
//! Where a project published a captured answer it is copied as published. Where it did
//! not, the literal is written as its source writes it, key by key in the source's order,
//! and the comment names that source.

use super::*;
use crate::model::{DumpFormat, Flags, Rect, Size, WindowKind};
use crate::parse::parse_str;
use crate::prune::PruneRules;
use crate::render::versioned;

/// The pruned text an agent reads of `dump`.
fn pruned(dump: &str) -> String {
    versioned(&parse_str(dump).unwrap(), &PruneRules::default()).1
}

/// `content query --uri content://com.mobilerun.portal/state_full?filter=false` of a mail
/// app's inbox, as Portal 0.7.2 prints it: no capture is published, so it is written as
/// droidrun/droidrun-portal writes it at 88b301c — the row by Android's `Content.java`
/// (`Row: 0 result=…`), the envelope by `api/ApiResponse.kt` (`RawObject`), the state by
/// `api/ApiHandler.kt` `getStateFull`, each node's keys in the order of
/// `core/AccessibilityTreeBuilder.kt` (an Android 14 phone: every versioned key present),
/// `phone_state` by `core/JsonBuilders.kt`, `device_context` by
/// `MobilerunAccessibilityService.kt` `getDeviceContext`; `/` escaped as Android's
/// `org.json` escapes it.
const STATE_FULL: &str = concat!(
    r#"Row: 0 result={"status":"success","result":{"a11y_tree":{"resourceId":"","className":"android.widget.FrameLayout","#,
    r#""packageName":"com.example.mail","text":"","contentDescription":"","hint":"","stateDescription":"","#,
    r#""tooltipText":"","paneTitle":"","error":"","boundsInScreen":{"left":0,"top":0,"right":1080,"#,
    r#""bottom":2400},"boundsInParent":{"left":0,"top":0,"right":1080,"bottom":2400},"isClickable":false,"#,
    r#""isLongClickable":false,"isContextClickable":false,"isFocusable":false,"isFocused":false,"#,
    r#""isAccessibilityFocused":false,"isSelected":false,"isCheckable":false,"isChecked":false,"#,
    r#""isEnabled":true,"isVisibleToUser":true,"isEditable":false,"isPassword":false,"isShowingHintText":false,"#,
    r#""isScrollable":false,"isDismissable":false,"isMultiLine":false,"isImportantForAccessibility":true,"#,
    r#""isScreenReaderFocusable":false,"isHeading":false,"isTextSelectable":false,"inputType":0,"#,
    r#""liveRegion":0,"windowId":41,"drawingOrder":0,"maxTextLength":-1,"movementGranularities":0,"#,
    r#""childCount":3,"actionCount":1,"actionList":[{"id":64,"label":"","name":"UNKNOWN_64"}],"#,
    r#""children":[{"resourceId":"com.example.mail:id\/title","className":"android.widget.TextView","#,
    r#""packageName":"com.example.mail","text":"Inbox","contentDescription":"","hint":"","#,
    r#""stateDescription":"","tooltipText":"","paneTitle":"","error":"","boundsInScreen":{"left":48,"#,
    r#""top":120,"right":400,"bottom":200},"boundsInParent":{"left":48,"top":120,"right":400,"#,
    r#""bottom":200},"isClickable":false,"isLongClickable":false,"isContextClickable":false,"#,
    r#""isFocusable":false,"isFocused":false,"isAccessibilityFocused":false,"isSelected":false,"#,
    r#""isCheckable":false,"isChecked":false,"isEnabled":true,"isVisibleToUser":true,"isEditable":false,"#,
    r#""isPassword":false,"isShowingHintText":false,"isScrollable":false,"isDismissable":false,"#,
    r#""isMultiLine":false,"isImportantForAccessibility":true,"isScreenReaderFocusable":false,"#,
    r#""isHeading":false,"isTextSelectable":false,"textSelectionStart":-1,"textSelectionEnd":-1,"#,
    r#""inputType":0,"liveRegion":0,"windowId":41,"drawingOrder":1,"maxTextLength":-1,"movementGranularities":31,"#,
    r#""childCount":0,"actionCount":1,"actionList":[{"id":64,"label":"","name":"UNKNOWN_64"}],"#,
    r#""children":[]},{"resourceId":"com.example.mail:id\/search","className":"android.widget.EditText","#,
    r#""packageName":"com.example.mail","text":"Search mail","contentDescription":"","hint":"Search mail","#,
    r#""stateDescription":"","tooltipText":"","paneTitle":"","error":"","boundsInScreen":{"left":48,"#,
    r#""top":240,"right":1032,"bottom":360},"boundsInParent":{"left":48,"top":240,"right":1032,"#,
    r#""bottom":360},"isClickable":true,"isLongClickable":false,"isContextClickable":false,"#,
    r#""isFocusable":true,"isFocused":true,"isAccessibilityFocused":false,"isSelected":false,"#,
    r#""isCheckable":false,"isChecked":false,"isEnabled":true,"isVisibleToUser":true,"isEditable":true,"#,
    r#""isPassword":false,"isShowingHintText":true,"isScrollable":false,"isDismissable":false,"#,
    r#""isMultiLine":false,"isImportantForAccessibility":true,"isScreenReaderFocusable":false,"#,
    r#""isHeading":false,"isTextSelectable":false,"textSelectionStart":0,"textSelectionEnd":0,"#,
    r#""inputType":1,"liveRegion":0,"windowId":41,"drawingOrder":2,"maxTextLength":-1,"movementGranularities":31,"#,
    r#""childCount":0,"actionCount":4,"actionList":[{"id":2,"label":"","name":"CLEAR_FOCUS"},"#,
    r#"{"id":16,"label":"","name":"CLICK"},{"id":64,"label":"","name":"UNKNOWN_64"},{"id":2097152,"#,
    r#""label":"","name":"SET_TEXT"}],"children":[]},{"resourceId":"com.example.mail:id\/compose","#,
    r#""className":"android.widget.Button","packageName":"com.example.mail","text":"Compose","#,
    r#""contentDescription":"","hint":"","stateDescription":"","tooltipText":"","paneTitle":"","#,
    r#""error":"","boundsInScreen":{"left":700,"top":2200,"right":1032,"bottom":2330},"boundsInParent":{"left":700,"#,
    r#""top":2200,"right":1032,"bottom":2330},"isClickable":true,"isLongClickable":false,"#,
    r#""isContextClickable":false,"isFocusable":true,"isFocused":false,"isAccessibilityFocused":false,"#,
    r#""isSelected":false,"isCheckable":false,"isChecked":false,"isEnabled":true,"isVisibleToUser":true,"#,
    r#""isEditable":false,"isPassword":false,"isShowingHintText":false,"isScrollable":false,"#,
    r#""isDismissable":false,"isMultiLine":false,"isImportantForAccessibility":true,"isScreenReaderFocusable":false,"#,
    r#""isHeading":false,"isTextSelectable":false,"textSelectionStart":-1,"textSelectionEnd":-1,"#,
    r#""inputType":0,"liveRegion":0,"windowId":41,"drawingOrder":3,"maxTextLength":-1,"movementGranularities":31,"#,
    r#""childCount":0,"actionCount":3,"actionList":[{"id":1,"label":"","name":"FOCUS"},"#,
    r#"{"id":16,"label":"","name":"CLICK"},{"id":64,"label":"","name":"UNKNOWN_64"}],"children":[]}]},"#,
    r#""phone_state":{"currentApp":"Mail","packageName":"com.example.mail","activityName":"com.example.mail.InboxActivity","#,
    r#""keyboardVisible":false,"isEditable":true,"focusedElement":{"text":"Search mail","#,
    r#""className":"android.widget.EditText","resourceId":"com.example.mail:id\/search"}},"#,
    r#""device_context":{"screen_bounds":{"width":1080,"height":2400},"filtering_params":{"min_element_size":5,"#,
    r#""overlay_offset":0},"display_metrics":{"density":2.625,"densityDpi":420,"scaledDensity":2.625,"#,
    r#""widthPixels":1080,"heightPixels":2400}}}}"#,
);

/// The stock `uiautomator dump` of the same screen (its active window).
const STOCK_INBOX: &str = concat!(
    r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">"#,
    r#"<node index="0" text="" resource-id="" class="android.widget.FrameLayout" "#,
    r#"package="com.example.mail" content-desc="" checkable="false" checked="false" "#,
    r#"clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" "#,
    r#"long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">"#,
    r#"<node index="0" text="Inbox" resource-id="com.example.mail:id/title" "#,
    r#"class="android.widget.TextView" package="com.example.mail" content-desc="" "#,
    r#"checkable="false" checked="false" clickable="false" enabled="true" focusable="false" "#,
    r#"focused="false" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[48,120][400,200]" />"#,
    r#"<node index="1" text="Search mail" resource-id="com.example.mail:id/search" "#,
    r#"class="android.widget.EditText" package="com.example.mail" content-desc="" "#,
    r#"checkable="false" checked="false" clickable="true" enabled="true" focusable="true" "#,
    r#"focused="true" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[48,240][1032,360]" />"#,
    r#"<node index="2" text="Compose" resource-id="com.example.mail:id/compose" "#,
    r#"class="android.widget.Button" package="com.example.mail" content-desc="" "#,
    r#"checkable="false" checked="false" clickable="true" enabled="true" focusable="true" "#,
    r#"focused="false" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[700,2200][1032,2330]" /></node></hierarchy>"#,
);

#[test]
fn portal_commands_name_each_authority_and_endpoint() {
    assert_eq!(
        PortalQuery::SCREEN.uri(),
        "content://com.mobilerun.portal/state_full?filter=false"
    );
    assert_eq!(
        portal_command(PortalQuery::PING),
        "content query --uri 'content://com.mobilerun.portal/ping'"
    );
    let legacy = PortalQuery {
        app: PortalApp::Droidrun,
        endpoint: PortalEndpoint::A11yTreeFull,
    };
    assert_eq!(
        legacy.uri(),
        "content://com.droidrun.portal/a11y_tree_full?filter=false"
    );
    assert_eq!(
        PortalApp::ALL.map(PortalApp::authority),
        [PORTAL_PACKAGE, PORTAL_LEGACY_PACKAGE]
    );
}

#[test]
fn state_full_as_portal_writes_it_parses_into_the_tree() {
    let json = portal_reply(STATE_FULL).unwrap();
    assert!(
        json.starts_with(r#"{"a11y_tree":{"resourceId":"","#),
        "{json:.60}"
    );
    let tree = parse_str(&json).unwrap();
    assert_eq!(tree.format, DumpFormat::Droidrun);
    assert_eq!(tree.app, "com.example.mail");
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
    assert_eq!(tree.windows.len(), 1);
    assert_eq!(tree.windows[0].kind, WindowKind::App);
    assert_eq!(tree.nodes.len(), 4);
    let search = &tree.nodes[2];
    assert_eq!(search.resource_id, "com.example.mail:id/search");
    assert_eq!(
        (search.text.as_str(), search.hint.as_str()),
        ("Search mail", "Search mail")
    );
    assert_eq!(search.bounds, Rect::new(48, 240, 1032, 360));
    for flag in [
        Flags::EDITABLE,
        Flags::FOCUSED,
        Flags::CLICKABLE,
        Flags::FOCUSABLE,
        Flags::ENABLED,
    ] {
        assert!(search.has(flag), "{flag:?}");
    }
    assert!(!tree.nodes[1].has(Flags::CLICKABLE) && !tree.nodes[1].has(Flags::HIDDEN));
    assert_eq!(tree.nodes[3].parent, Some(0));
}

#[test]
fn state_full_prunes_as_the_stock_dump_of_the_same_screen() {
    let portal = pruned(&portal_reply(STATE_FULL).unwrap());
    assert_eq!(portal, pruned(STOCK_INBOX));
    assert!(portal.contains("Compose"), "{portal}");
}

#[test]
fn older_envelopes_hold_the_state_in_a_string() {
    let state = portal_reply(STATE_FULL).unwrap();
    let quoted = serde_json::to_string(&state).unwrap();
    // `createSuccessResponse` of DroidrunContentProvider.kt (droidrun-portal 666fbc5,
    // September 2025): `{"status":"success","data":"<json>"}`; ApiResponse.kt at 4c22cc7
    // (December 2025, on the way to 0.4.8) put the same string under `result`.
    for key in ["data", "result"] {
        let row = format!(r#"Row: 0 result={{"status":"success","{key}":{quoted}}}"#);
        assert_eq!(portal_reply(&row).as_deref(), Ok(state.as_str()), "{key}");
    }
    // No envelope at all: the state itself.
    assert_eq!(
        portal_reply(&format!("Row: 0 result={state}")),
        Ok(state.clone())
    );
}

#[test]
fn a11y_tree_elements_parse_as_droidrun_lists() {
    // The answer droidrun/mobilerun-portal#110 shows after its fix, cut there with "...";
    // completed here as core/JsonBuilders.kt `elementNodeToJson` writes an element.
    let row = concat!(
        r#"Row: 0 result={"status":"success","result":"[{\"index\":1,\"resourceId\":\"\","#,
        r#"\"className\":\"FrameLayout\",\"text\":\"FrameLayout\",\"bounds\":\"0, 0, 1080, 2400\","#,
        r#"\"children\":[{\"index\":2,\"resourceId\":\"\",\"className\":\"Button\","#,
        r#"\"text\":\"Compose\",\"bounds\":\"700, 2200, 1032, 2330\",\"children\":[]}]}]"}"#,
    );
    let tree = parse_str(&portal_reply(row).unwrap()).unwrap();
    assert_eq!(tree.format, DumpFormat::Droidrun);
    assert_eq!(tree.nodes.len(), 2);
    assert_eq!(
        tree.nodes[0].text, "",
        "the class name in `text` is no text"
    );
    assert_eq!(tree.nodes[1].bounds, Rect::new(700, 2200, 1032, 2330));
}

#[test]
fn a_bare_full_tree_parses_as_one_root() {
    // `a11y_tree_full`: ApiHandler.kt `getTreeFull` gives the root object alone, as a string.
    let state = portal_reply(STATE_FULL).unwrap();
    let start = state.find(r#"{"resourceId""#).unwrap();
    let end = state.find(r#","phone_state""#).unwrap();
    let row = format!(
        r#"Row: 0 result={{"status":"success","result":{}}}"#,
        serde_json::to_string(&state[start..end]).unwrap()
    );
    let tree = parse_str(&portal_reply(&row).unwrap()).unwrap();
    assert_eq!((tree.format, tree.nodes.len()), (DumpFormat::Droidrun, 4));
    assert_eq!(tree.app, "com.example.mail");
}

#[test]
fn ping_empty_and_error_answers() {
    // MobilerunContentProvider.kt: `handler.ping()` is `ApiResponse.Success("pong")`.
    assert_eq!(
        portal_reply("Row: 0 result={\"status\":\"success\",\"result\":\"pong\"}\r\n"),
        Ok("pong".into())
    );
    // droidrun/mobilerun-portal#110, before its fix: a tree with nothing in it, and the
    // full tree's error.
    assert_eq!(
        portal_reply(r#"Row: 0 result={"status":"success","result":"[]"}"#),
        Err(HelperFault::Empty)
    );
    assert_eq!(
        portal_reply(
            r#"Row: 0 result={"status":"error","error":"No active window or root filtered out"}"#
        ),
        Err(HelperFault::Refused)
    );
    // MobilerunContentProvider.kt: an unknown path, and the accessibility service off.
    assert_eq!(
        portal_reply(r#"Row: 0 result={"status":"error","error":"Unknown endpoint: \/statefull"}"#),
        Err(HelperFault::Refused)
    );
    let off = r#"Row: 0 result={"status":"error","error":"Accessibility service not available"}"#;
    assert_eq!(portal_reply(off), Err(HelperFault::Refused));
    let no_tree =
        r#"Row: 0 result={"status":"success","result":{"a11y_tree":[],"phone_state":{}}}"#;
    assert_eq!(portal_reply(no_tree), Err(HelperFault::Empty));
}

#[test]
fn what_content_prints_without_portal() {
    // AOSP frameworks/base cmds/content/.../Content.java, `Command.execute`: the provider
    // is looked up by authority, and a missing one is reported on stderr (exit status 0).
    let absent = "Error while accessing provider:com.mobilerun.portal\n\
                  java.lang.IllegalStateException: Could not find provider: com.mobilerun.portal\n\
                  \tat com.android.commands.content.Content$Command.execute(Content.java:541)\n";
    assert_eq!(portal_reply(absent), Err(HelperFault::Absent));
    // A provider that refused the caller (Portal's `enforceAuthorizedCaller`).
    let denied = "Error while accessing provider:com.mobilerun.portal\n\
                  java.lang.SecurityException: Caller uid 10123 is not allowed\n";
    assert_eq!(portal_reply(denied), Err(HelperFault::Refused));
    // Content.java's `QueryCommand`: a null or empty cursor.
    assert_eq!(portal_reply("No result found.\n"), Err(HelperFault::Empty));
    assert_eq!(portal_reply(""), Err(HelperFault::Empty));
    // No `content` tool at all: mksh's words.
    assert_eq!(
        portal_reply("/system/bin/sh: content: inaccessible or not found\n"),
        Err(HelperFault::Absent)
    );
    // A provider under the name that does not know the path (providers such as Android's
    // settings throw this): not Portal, which answers unknown paths with an error row.
    let unknown = "Error while accessing provider:com.mobilerun.portal\n\
                   java.lang.IllegalArgumentException: Unknown URI content://com.mobilerun.portal/state_full\n";
    assert_eq!(portal_reply(unknown), Err(HelperFault::NotTheHelper));
    // Another provider under the name, with columns of its own.
    assert_eq!(
        portal_reply("Row: 0 _id=1, name=volume_ring, value=5\n"),
        Err(HelperFault::NotTheHelper)
    );
}

#[test]
fn garbage_and_cut_short_rows() {
    let half = &STATE_FULL[..STATE_FULL.len() / 2];
    assert_eq!(portal_reply(half), Err(HelperFault::Garbage));
    let missing_brace = &STATE_FULL[..STATE_FULL.len() - 1];
    assert_eq!(portal_reply(missing_brace), Err(HelperFault::Garbage));
    for value in [
        "NULL",
        "BLOB",
        "pong",
        r#"{"status":"success"}"#,
        r#"{"status":"success","result":{"a11y_tree":[}}"#,
        r#"{"status":"success","result":"x",}"#,
        r#"{"status":"success","result":"x"} trailing"#,
        r#"{"status":"success" "result":"x"}"#,
        r#"{"status":"success","result":tru}"#,
        "{\"status\":\"success\",\"result\":\"a\u{1}b\"}",
        "[1, 2]",
    ] {
        let row = format!("Row: 0 result={value}");
        assert_eq!(portal_reply(&row), Err(HelperFault::Garbage), "{value}");
    }
    assert_eq!(
        portal_reply("Row: 0 result={\"status\":\"busy\",\"result\":\"x\"}"),
        Err(HelperFault::NotTheHelper)
    );
    assert_eq!(
        portal_reply("\u{0}\u{1}garbage\n"),
        Err(HelperFault::Garbage)
    );
    // The envelope alone is checked: a tree the parser refuses is the parser's to report.
    let bad_tree =
        r#"Row: 0 result={"status":"success","result":{"a11y_tree":{"boundsInScreen":7}}}"#;
    assert!(parse_str(&portal_reply(bad_tree).unwrap()).is_err());
}

// ---- mobilecli

/// The head mobilecli's `JsonRpcSocketServer.java` `writeResponse` writes (devicekit-android's
/// `DeviceKitServer.kt` `handleConnection` writes the same), then the body.
fn answer(body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// `device.dump.ui` of the inbox with the keyboard up (`full`). No capture is published:
/// written as mobilecli's `agents/android/java/UiTreeSerializer.java` writes it (its keys
/// in its order, `children` only when there are some, one root a window in
/// `getWindows()` order) inside `JsonRpcSocketServer.java`'s `result(id, result)`.
const DUMP_BODY: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"result":{"hierarchy":[{"index":0,"class":"android.widget.FrameLayout","#,
    r#""package":"com.example.mail","text":"","hint":"","content-desc":"","resource-id":"","#,
    r#""checkable":false,"checked":false,"clickable":false,"enabled":true,"focusable":false,"#,
    r#""focused":false,"scrollable":false,"long-clickable":false,"password":false,"selected":false,"#,
    r#""visible":true,"editable":false,"rect":{"x":0,"y":0,"width":1080,"height":2400},"#,
    r#""children":[{"index":0,"class":"android.widget.TextView","package":"com.example.mail","#,
    r#""text":"Inbox","hint":"","content-desc":"","resource-id":"com.example.mail:id\/title","#,
    r#""checkable":false,"checked":false,"clickable":false,"enabled":true,"focusable":false,"#,
    r#""focused":false,"scrollable":false,"long-clickable":false,"password":false,"selected":false,"#,
    r#""visible":true,"editable":false,"rect":{"x":48,"y":120,"width":352,"height":80}},"#,
    r#"{"index":1,"class":"android.widget.CheckBox","package":"com.example.mail","text":"Unread only","#,
    r#""hint":"","content-desc":"","resource-id":"com.example.mail:id\/unread","checkable":true,"#,
    r#""checked":true,"clickable":true,"enabled":true,"focusable":true,"focused":false,"#,
    r#""scrollable":false,"long-clickable":false,"password":false,"selected":false,"visible":true,"#,
    r#""editable":false,"rect":{"x":48,"y":240,"width":552,"height":90}},{"index":2,"class":"android.widget.Button","#,
    r#""package":"com.example.mail","text":"Compose","hint":"","content-desc":"","resource-id":"com.example.mail:id\/compose","#,
    r#""checkable":false,"checked":false,"clickable":true,"enabled":true,"focusable":true,"#,
    r#""focused":false,"scrollable":false,"long-clickable":false,"password":false,"selected":false,"#,
    r#""visible":true,"editable":false,"rect":{"x":700,"y":2200,"width":332,"height":130}}]},"#,
    r#"{"index":0,"class":"android.widget.FrameLayout","package":"com.google.android.inputmethod.latin","#,
    r#""text":"","hint":"","content-desc":"","resource-id":"","checkable":false,"checked":false,"#,
    r#""clickable":false,"enabled":true,"focusable":false,"focused":false,"scrollable":false,"#,
    r#""long-clickable":false,"password":false,"selected":false,"visible":true,"editable":false,"#,
    r#""rect":{"x":0,"y":1560,"width":1080,"height":840},"children":[{"index":0,"class":"android.widget.FrameLayout","#,
    r#""package":"com.google.android.inputmethod.latin","text":"","hint":"","content-desc":"q","#,
    r#""resource-id":"","checkable":false,"checked":false,"clickable":true,"enabled":true,"#,
    r#""focusable":false,"focused":false,"scrollable":false,"long-clickable":false,"password":false,"#,
    r#""selected":false,"visible":true,"editable":false,"rect":{"x":0,"y":1590,"width":108,"#,
    r#""height":150}}]}]}}"#,
);

/// The stock dump of the same screen: two windows.
const STOCK_KEYBOARD: &str = concat!(
    r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">"#,
    r#"<node index="0" text="" resource-id="" class="android.widget.FrameLayout" "#,
    r#"package="com.example.mail" content-desc="" checkable="false" checked="false" "#,
    r#"clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" "#,
    r#"long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">"#,
    r#"<node index="0" text="Inbox" resource-id="com.example.mail:id/title" "#,
    r#"class="android.widget.TextView" package="com.example.mail" content-desc="" "#,
    r#"checkable="false" checked="false" clickable="false" enabled="true" focusable="false" "#,
    r#"focused="false" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[48,120][400,200]" />"#,
    r#"<node index="1" text="Unread only" resource-id="com.example.mail:id/unread" "#,
    r#"class="android.widget.CheckBox" package="com.example.mail" content-desc="" "#,
    r#"checkable="true" checked="true" clickable="true" enabled="true" focusable="true" "#,
    r#"focused="false" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[48,240][600,330]" />"#,
    r#"<node index="2" text="Compose" resource-id="com.example.mail:id/compose" "#,
    r#"class="android.widget.Button" package="com.example.mail" content-desc="" "#,
    r#"checkable="false" checked="false" clickable="true" enabled="true" focusable="true" "#,
    r#"focused="false" scrollable="false" long-clickable="false" password="false" "#,
    r#"selected="false" bounds="[700,2200][1032,2330]" /></node>"#,
    r#"<node index="0" text="" resource-id="" class="android.widget.FrameLayout" "#,
    r#"package="com.google.android.inputmethod.latin" content-desc="" checkable="false" "#,
    r#"checked="false" clickable="false" enabled="true" focusable="false" focused="false" "#,
    r#"scrollable="false" long-clickable="false" password="false" selected="false" "#,
    r#"bounds="[0,1560][1080,2400]"><node index="0" text="" resource-id="" "#,
    r#"class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" "#,
    r#"content-desc="q" checkable="false" checked="false" clickable="true" enabled="true" "#,
    r#"focusable="false" focused="false" scrollable="false" long-clickable="false" "#,
    r#"password="false" selected="false" bounds="[0,1590][108,1740]" /></node></hierarchy>"#,
);

#[test]
fn the_request_is_the_readme_call_over_http() {
    // devicekit-android README.md, "Resident JSON-RPC server": the call curl posts.
    let readme =
        r#"{"jsonrpc":"2.0","id":1,"method":"device.dump.ui","params":{"waitUntilIdle":2000}}"#;
    let readme: serde_json::Value = serde_json::from_str(readme).unwrap();
    let mut stream = HttpStream::new(1 << 16);
    let sent = stream.push(&mobilecli_request(1));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].start, "POST / HTTP/1.1");
    let body: serde_json::Value = serde_json::from_slice(&sent[0].body).unwrap();
    for key in ["jsonrpc", "id", "method"] {
        assert_eq!(body[key], readme[key], "{key}");
    }
    assert_eq!(body["params"]["waitUntilIdle"], 0);
    assert_eq!(body["params"]["full"], true);
    let text = String::from_utf8(mobilecli_request(u64::MAX)).unwrap();
    assert!(text.contains(&format!(r#""id":{}"#, u64::MAX)), "{text}");
}

#[test]
fn a_dump_as_the_server_writes_it_parses_into_windows() {
    let Ok(MobilecliReply::Complete { id, dump }) = mobilecli_reply(&answer(DUMP_BODY)) else {
        panic!("{:?}", mobilecli_reply(&answer(DUMP_BODY)));
    };
    assert_eq!(id, Some(1));
    assert!(
        dump.starts_with(r#"{"hierarchy":[{"index":0,"#),
        "{dump:.40}"
    );
    let tree = parse_str(&dump).unwrap();
    assert_eq!(tree.format, DumpFormat::FlatList);
    let kinds: Vec<WindowKind> = tree.windows.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WindowKind::App, WindowKind::Keyboard]);
    assert_eq!(tree.nodes.len(), 6);
    let unread = &tree.nodes[2];
    assert_eq!(unread.resource_id, "com.example.mail:id/unread");
    assert_eq!(unread.bounds, Rect::new(48, 240, 600, 330));
    assert!(
        unread.has(Flags::CHECKABLE) && unread.has(Flags::CHECKED) && unread.has(Flags::CLICKABLE)
    );
    assert_eq!(tree.nodes[5].desc, "q");
    assert_eq!(
        tree.display,
        Size {
            width: 1080,
            height: 2400
        }
    );
}

#[test]
fn a_dump_prunes_as_the_stock_dump_of_the_same_screen() {
    let Ok(MobilecliReply::Complete { dump, .. }) = mobilecli_reply(&answer(DUMP_BODY)) else {
        panic!("not complete");
    };
    let text = pruned(&dump);
    assert_eq!(text, pruned(STOCK_KEYBOARD));
    assert!(
        text.contains("keyboard: open") && !text.contains("Compose"),
        "{text}"
    );
}

#[test]
fn an_empty_field_gives_its_hint_as_hint_not_text() {
    // UiTreeSerializer.java: "empty text for an empty field, and the hint as its own attribute".
    let body = concat!(
        r#"{"jsonrpc":"2.0","id":3,"result":{"hierarchy":[{"index":0,"class":"android.widget.EditText","#,
        r#""package":"com.example.mail","text":"","hint":"Search mail","content-desc":"","#,
        r#""resource-id":"","editable":true,"focused":true,"visible":true,"#,
        r#""rect":{"x":0,"y":0,"width":1080,"height":2400}}]}}"#,
    );
    let Ok(MobilecliReply::Complete { dump, .. }) = mobilecli_reply(&answer(body)) else {
        panic!("not complete");
    };
    let tree = parse_str(&dump).unwrap();
    assert_eq!(
        (tree.nodes[0].text.as_str(), tree.nodes[0].hint.as_str()),
        ("", "Search mail")
    );
    assert!(tree.nodes[0].has(Flags::EDITABLE) && tree.nodes[0].has(Flags::FOCUSED));
}

#[test]
fn an_answer_split_anywhere_is_incomplete_until_whole() {
    let whole = answer(DUMP_BODY);
    for cut in 0..whole.len() {
        assert_eq!(
            mobilecli_reply(&whole[..cut]),
            Ok(MobilecliReply::Incomplete),
            "cut at {cut}"
        );
    }
    assert!(matches!(
        mobilecli_reply(&whole),
        Ok(MobilecliReply::Complete { .. })
    ));
}

#[test]
fn errors_strangers_and_garbage() {
    // JsonRpcSocketServer.java `error(id, code, message)`; the messages its dispatchers throw.
    let not_found = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: device.dump.ui"}}"#;
    assert_eq!(
        mobilecli_reply(&answer(not_found)),
        Err(HelperFault::Refused)
    );
    let parse = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: End of input at character 0 of "}}"#;
    assert_eq!(mobilecli_reply(&answer(parse)), Err(HelperFault::Refused));
    // `writeResponse` of a notification (no `id`): the server took the call for one.
    let no_content = b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
    assert_eq!(mobilecli_reply(no_content), Err(HelperFault::NotTheHelper));
    assert_eq!(
        mobilecli_reply(b"SSH-2.0-OpenSSH_9.6\r\n"),
        Err(HelperFault::NotTheHelper)
    );
    assert_eq!(
        mobilecli_reply(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
        Err(HelperFault::NotTheHelper)
    );
    assert_eq!(mobilecli_reply(b""), Ok(MobilecliReply::Incomplete));
    assert_eq!(mobilecli_reply(b"HTT"), Ok(MobilecliReply::Incomplete));
    assert_eq!(mobilecli_reply(b"HTTQ"), Err(HelperFault::NotTheHelper));
    let mut endless_head = b"HTTP/1.1 200 OK\r\n".to_vec();
    endless_head.extend(std::iter::repeat_n(b'x', 70 * 1024));
    assert_eq!(
        mobilecli_reply(&endless_head),
        Err(HelperFault::NotTheHelper)
    );
    for body in [
        "not json",
        "",
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":"ok"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"windows":[]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"hierarchy":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"hierarchy":[{"class":"F"]}}"#,
        &DUMP_BODY[..DUMP_BODY.len() - 3],
    ] {
        assert_eq!(
            mobilecli_reply(&answer(body)),
            Err(HelperFault::Garbage),
            "{body:.60}"
        );
    }
    let mut latin1 = answer("{\"result\":\"\u{e9}\"}");
    let at = latin1.len() - 4;
    latin1[at] = 0xe9;
    assert_eq!(mobilecli_reply(&latin1), Err(HelperFault::Garbage));
    let empty = r#"{"jsonrpc":"2.0","id":1,"result":{"hierarchy":[]}}"#;
    assert_eq!(mobilecli_reply(&answer(empty)), Err(HelperFault::Empty));
    // An id that is not an integer is no id; the rest still reads.
    let named = r#"{"jsonrpc":"2.0","id":"1","result":{"hierarchy":[{"class":"F"}]}}"#;
    assert!(matches!(
        mobilecli_reply(&answer(named)),
        Ok(MobilecliReply::Complete { id: None, .. })
    ));
}

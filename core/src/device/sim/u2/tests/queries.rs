//! Selectors against the sim's screens as uiautomator2 sends them (text, `textContains`,
//! `textMatches`, `resourceId`, `instance`; `objInfo`, `count`, the waits), what a
//! selector that matches nothing answers, and the JSON-RPC errors.

use super::*;

#[test]
fn selectors_find_nodes_by_text_id_and_instance_with_their_bounds() {
    let (phone, clock) = phone(Profile::Instant);
    go_to(&phone, &clock, "feed");
    let bounds = |info: &Value| {
        let b = &info["bounds"];
        [&b["left"], &b["top"], &b["right"], &b["bottom"]].map(|v| v.as_i64().unwrap())
    };
    let search = result(
        &phone,
        "objInfo",
        json!([selector(json!({"text": "Search videos"}))]),
    );
    assert_eq!(bounds(&search), [144, 120, 840, 216]);
    assert_eq!(search["resourceName"], "tv.tapscope.demo:id/search_box");
    assert_eq!(search["clickable"], true);
    assert_eq!(search["className"], "android.widget.TextView");
    assert_eq!(search["visibleBounds"], search["bounds"]);

    let by_id = json!({"resourceId": "tv.tapscope.demo:id/search_box"});
    assert_eq!(
        result(&phone, "objInfo", json!([selector(by_id)]))["text"],
        "Search videos"
    );
    let contains = selector(json!({"textContains": "sourdough"}));
    assert_eq!(
        result(&phone, "exist", json!([contains.clone()])),
        json!(false),
        "case-sensitive as a BySelector"
    );
    let text = result(
        &phone,
        "getText",
        json!([selector(json!({"textContains": "Sourdough"}))]),
    );
    assert!(text.as_str().unwrap().starts_with("Sourdough"), "{text}");
    let matches = selector(json!({"textMatches": "(?i)sourdough.*"}));
    assert_eq!(result(&phone, "exist", json!([matches])), json!(true));

    let cards = json!({"resourceId": "tv.tapscope.demo:id/video_card"});
    let count = result(&phone, "count", json!([selector(cards.clone())]))
        .as_u64()
        .unwrap();
    assert!(count >= 2, "{count}");
    let all = result(
        &phone,
        "objInfoOfAllInstances",
        json!([selector(cards.clone())]),
    );
    assert_eq!(all.as_array().unwrap().len() as u64, count);
    let mut second = cards.as_object().unwrap().clone();
    second.insert("instance".into(), json!(1));
    let second = result(&phone, "objInfo", json!([selector(Value::Object(second))]));
    assert_eq!(second, all[1]);
    assert_eq!(second["resourceName"], Value::Null, "found as a UiObject");
    assert_ne!(bounds(&second), bounds(&all[0]));

    let start = clock.now();
    let later = selector(json!({"text": "Subscribe"}));
    assert_eq!(
        result(&phone, "waitForExists", json!([later.clone(), 2500])),
        json!(false)
    );
    assert_eq!(
        clock.now() - start,
        Duration::from_secs(3),
        "looks at 0, 1, 2 and 3 s"
    );
    assert_eq!(
        result(&phone, "waitUntilGone", json!([later, 2500])),
        json!(true)
    );
    let card = center_of(&phone, "Sourdough at 80% hydration, start to finish");
    phone.sim().tap(card).unwrap();
    let start = clock.now();
    let subscribe = selector(json!({"text": "Subscribe"}));
    assert_eq!(
        result(&phone, "waitForExists", json!([subscribe, 5000])),
        json!(true)
    );
    assert!(
        clock.now() - start <= Duration::from_secs(1),
        "found on a look, mid-slide or after"
    );
}

#[test]
fn a_selector_that_matches_nothing_fails_as_the_real_server_does() {
    let (phone, _) = phone(Profile::Instant);
    for method in ["objInfo", "getText"] {
        let answer = call(
            &phone,
            method,
            json!([selector(
                json!({"text": "Nowhere", "className": "android.widget.Button"})
            )]),
        );
        assert_eq!(answer["id"], 1);
        let error = &answer["error"];
        assert_eq!(error["code"], -32001, "{answer}");
        assert_eq!(
            error["message"],
            "androidx.test.uiautomator.UiObjectNotFoundException"
        );
        assert_eq!(
            error["data"],
            "UiSelector[TEXT=Nowhere, CLASS=android.widget.Button]"
        );
    }
    assert_eq!(
        result(
            &phone,
            "exist",
            json!([selector(json!({"text": "Nowhere"}))])
        ),
        json!(false)
    );
    assert_eq!(
        result(
            &phone,
            "count",
            json!([selector(json!({"text": "Nowhere"}))])
        ),
        json!(0)
    );
    let bad = call(
        &phone,
        "exist",
        json!([selector(json!({"textMatches": "(unclosed"}))]),
    );
    assert_eq!(
        bad["error"]["message"],
        "java.util.regex.PatternSyntaxException"
    );
}

#[test]
fn unknown_methods_bad_parameters_and_bad_json_get_jsonrpc_errors() {
    let (phone, _) = phone(Profile::Instant);
    let unknown = call(&phone, "teleport", json!([1]));
    assert_eq!(unknown["error"]["code"], -32601);
    assert_eq!(unknown["error"]["message"], "method not found");
    assert!(
        unknown["error"]["data"]
            .as_str()
            .unwrap()
            .contains("teleport")
    );
    let unserved = call(
        &phone,
        "setText",
        json!([selector(json!({"text": "a"})), "b"]),
    );
    assert_eq!(unserved["error"]["code"], -32601);
    assert!(
        unserved["error"]["data"]
            .as_str()
            .unwrap()
            .contains("does not serve")
    );
    let arity = call(&phone, "click", json!([1, 2, 3, 4]));
    assert_eq!(arity["error"]["code"], -32602);
    let typed = call(&phone, "click", json!(["left", true]));
    assert_eq!(typed["error"]["code"], -32700);

    for body in [
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"",
        "not json",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    ] {
        let request = format!(
            "POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let (bytes, _) = U2Connection::new().received(&phone, request.as_bytes());
        let answer = answers(&bytes).remove(0).json();
        assert_eq!(answer["error"]["code"], -32700, "{body}");
        assert_eq!(answer["error"]["message"], "JSON parse error");
        assert_eq!(answer["id"], "null", "jsonrpc4j writes the id as a string");
    }
    let (bytes, _) = U2Connection::new().received(&phone, b"POST /jsonrpc/0 HTTP/1.1\r\n\r\n");
    assert!(answers(&bytes)[0].status.starts_with("HTTP/1.1 500"));
}

#[test]
fn child_and_sibling_steps_search_under_what_the_step_before_found() {
    let (phone, clock) = phone(Profile::Instant);
    go_to(&phone, &clock, "feed");
    let id = |name: &str| selector(json!({"resourceId": format!("tv.tapscope.demo:id/{name}")}));
    let chained = |first: &str, relation: &str, then: &str| {
        let mut top = id(first);
        top["childOrSibling"] = json!([relation]);
        top["childOrSiblingSelector"] = json!([id(then)]);
        top
    };
    let cards = result(&phone, "count", json!([id("video_card")]));
    let titles = result(&phone, "count", json!([chained("feed", "child", "title")]));
    assert_eq!(titles, cards, "a title in every card");
    let durations = result(
        &phone,
        "count",
        json!([chained("cover", "sibling", "duration")]),
    );
    assert_eq!(durations, cards, "every cover's card has a duration");
    let none = result(&phone, "count", json!([chained("title", "child", "title")]));
    assert_eq!(none, json!(0));
    let missing = call(
        &phone,
        "objInfo",
        json!([chained("logo", "child", "title")]),
    );
    assert_eq!(
        missing["error"]["data"],
        // `UiSelector` lists its criteria by number: CHILD (19) before RESOURCE_ID (29).
        "UiSelector[CHILD=UiSelector[RESOURCE_ID=tv.tapscope.demo:id/title], RESOURCE_ID=tv.tapscope.demo:id/logo]"
    );
}

#[test]
fn a_uiselector_ignores_case_and_searches_the_app_window_where_a_byselector_does_not() {
    let (phone, clock) = phone(Profile::Instant);
    go_to(&phone, &clock, "feed");
    let mut lower = selector(json!({"textContains": "sourdough"}));
    assert_eq!(
        result(&phone, "exist", json!([lower.clone()])),
        json!(false)
    );
    lower["instance"] = json!(0);
    lower["mask"] = json!(0x02 | 0x0100_0000);
    let info = result(&phone, "objInfo", json!([lower]));
    assert!(
        info["text"].as_str().unwrap().starts_with("Sourdough"),
        "{info}"
    );

    // The status bar is another window: a BySelector finds its clock, a UiSelector not.
    let battery = selector(json!({"className": ".ImageView", "description": "Wi-Fi signal full."}));
    assert_eq!(
        result(&phone, "exist", json!([battery.clone()])),
        json!(true)
    );
    assert_eq!(result(&phone, "count", json!([battery])), json!(0));

    let both = selector(json!({"text": "a", "textContains": "b"}));
    let refused = call(&phone, "exist", json!([both]));
    assert_eq!(
        refused["error"]["message"],
        "java.lang.IllegalStateException"
    );
    assert_eq!(refused["error"]["data"], "Text selector is already defined");
    let lookaround = call(
        &phone,
        "exist",
        json!([selector(json!({"textMatches": "a(?=b)"}))]),
    );
    assert_eq!(
        lookaround["error"]["message"],
        "java.lang.UnsupportedOperationException"
    );
    assert!(
        lookaround["error"]["data"]
            .as_str()
            .unwrap()
            .contains("look-ahead")
    );
    let unknown_field = call(&phone, "exist", json!([{"mask": 1, "txt": "a"}]));
    assert_eq!(unknown_field["error"]["code"], -32700);
}

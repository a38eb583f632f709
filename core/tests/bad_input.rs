//! Malformed, truncated, empty and unknown input: each is refused with a typed error
//! that says what was wrong and where, never a panic. Limits are in `bad_input_limits.rs`.

mod common;

use common::{fixture_text, parse_err};
use tapscope_core::prune::PruneRules;
use tapscope_core::{Error, InputSize, parse};

/// Asserts an [`Error::Xml`] at `line`, `column` whose message holds `words`.
#[track_caller]
fn assert_xml_error(text: &str, line: usize, column: usize, words: &str) {
    let err = parse_err(text);
    let shown = err.to_string();
    match err {
        Error::Xml {
            line: l,
            column: c,
            message,
        } => {
            assert_eq!((l, c), (line, column), "{shown}");
            assert!(
                message.contains(words),
                "{message:?} should mention {words:?}"
            );
            assert!(
                shown.starts_with(&format!("malformed XML at line {line}, column {column}: ")),
                "{shown}"
            );
        }
        other => panic!("expected Error::Xml, got {other:?}"),
    }
}

const OPEN: &str = "<hierarchy rotation=\"0\">\n  <node text=\"a\" bounds=\"[0,0][10,10]\">\n";

#[test]
fn malformed_xml_reports_line_and_column() {
    // A misspelt closing tag: the position of `</nod>`.
    assert_xml_error(
        &format!("{OPEN}  </nod>\n</hierarchy>\n"),
        3,
        3,
        "found </nod>",
    );
    // A closing tag with nothing open.
    assert_xml_error(
        &format!("{OPEN}  </node>\n</hierarchy>\n</hierarchy>\n"),
        5,
        1,
        "</hierarchy>",
    );
    // An inner tag closed by its parent's end tag: the column of that end tag.
    assert_xml_error(
        &format!("{OPEN}    <x></node>\n</hierarchy>\n"),
        3,
        8,
        "</x>",
    );
    // An unclosed comment.
    assert_xml_error(
        &format!("{OPEN}  <!-- no end\n  </node>\n</hierarchy>\n"),
        3,
        3,
        "comment",
    );
}

#[test]
fn malformed_attributes_point_at_the_attribute() {
    let node = |attrs: &str| {
        format!("<hierarchy>\n  <node bounds=\"[0,0][1,1]\"/>\n    <node {attrs}/>\n</hierarchy>")
    };
    assert_xml_error(&node("text=abc"), 3, 11, "not quoted");
    assert_xml_error(&node("text"), 3, 11, "has no value");
    assert_xml_error(&node("text=\"&bogus;\""), 3, 11, "bogus");
}

#[test]
fn columns_count_characters_not_bytes() {
    // Six three-byte characters before the error on the same line.
    let text = "<hierarchy><node text=\"日本語のボタ\" bounds=\"[0,0][1,1]\"></nod></hierarchy>";
    let byte = text.find("</nod>").expect("position");
    let column = text[..byte].chars().count() + 1;
    assert_eq!(
        byte + 1 - column,
        12,
        "two extra bytes for each of the six characters"
    );
    assert_xml_error(text, 1, column, "</nod>");
}

#[test]
fn bounds_garbage_is_an_error_naming_the_bounds() {
    for (garbage, what) in [
        ("[zero,0][1,1]", "not of the form [left,top][right,bottom]"),
        ("[0,0][1080]", "not of the form [left,top][right,bottom]"),
        ("0,0,1080,2400", "not of the form [left,top][right,bottom]"),
        ("", "not of the form [left,top][right,bottom]"),
        ("[0,0][99999999999,1]", "99999999999 is out of range"),
        ("[0,0][2147483648,1]", "2147483648 is out of range"),
        ("[-2147483649,0][1,1]", "-2147483649 is out of range"),
    ] {
        let text = format!("<hierarchy>\n<node text=\"x\" bounds=\"{garbage}\"/>\n</hierarchy>");
        let err = parse_err(&text);
        let shown = err.to_string();
        assert!(
            matches!(
                err,
                Error::Xml {
                    line: 2,
                    column: 16,
                    ..
                }
            ),
            "{shown}"
        );
        assert!(shown.contains(&format!("bounds {garbage:?}")), "{shown}");
        assert!(shown.contains(what), "{shown}");
    }
}

#[test]
fn json_bounds_garbage_is_an_error_naming_the_bounds() {
    let text = r#"[{"text": "Title", "bounds": "[0,0][1080,200]"},
                   {"text": "Send", "clickable": true, "bounds": "garbage"}]"#;
    let err = parse_err(text);
    assert!(err.to_string().contains("\"garbage\""), "{err}");
}

#[test]
fn truncated_xml_is_an_error_at_every_cut() {
    let text = fixture_text("feed.xml");
    let end = text.rfind("</hierarchy>").expect("closing tag") + "</hierarchy>".len();
    let mut cuts = 0;
    for cut in (0..end).filter(|&c| text.is_char_boundary(c)) {
        let result = std::panic::catch_unwind(|| parse::parse_str(&text[..cut]));
        let result = result.unwrap_or_else(|_| panic!("parsing the first {cut} bytes panicked"));
        assert!(
            result.is_err(),
            "the first {cut} bytes parsed as a whole dump"
        );
        cuts += 1;
    }
    assert!(cuts > 4000, "{cuts}");
    assert!(
        parse::parse_str(&text[..end]).is_ok(),
        "the full document parses"
    );
    // A cut in the middle of a node names the unclosed element.
    let middle = text.find("Rust in 100").expect("card");
    let next_line = middle + text[middle..].find('\n').expect("line end") + 1;
    let err = parse_err(&text[..next_line]);
    assert!(err.to_string().contains("truncated file?"), "{err}");
}

#[test]
fn truncated_utf8_in_the_middle_of_a_character_is_an_encoding_error() {
    let text = fixture_text("entities.xml");
    let emoji = text.find('😀').expect("literal emoji");
    let err = parse::parse_bytes(&text.as_bytes()[..emoji + 2]).expect_err("half a character");
    assert!(
        matches!(err, Error::Encoding { encoding: "UTF-8", offset } if offset == emoji),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("not valid UTF-8 text (at byte"),
        "{err}"
    );
}

#[test]
fn truncated_json_is_an_error_at_every_cut() {
    for name in [
        "rico.json",
        "droidbot_state.json",
        "droidrun_portal_early.json",
    ] {
        let text = fixture_text(name);
        let end = text.trim_end().len();
        for cut in (1..end).filter(|&c| text.is_char_boundary(c)) {
            let result = std::panic::catch_unwind(|| parse::parse_str(&text[..cut]));
            let result =
                result.unwrap_or_else(|_| panic!("{name}: the first {cut} bytes panicked"));
            assert!(result.is_err(), "{name}: the first {cut} bytes parsed");
        }
    }
}

#[test]
fn malformed_json_reports_line_and_column() {
    let text = "{\n  \"views\": [\n    {\"parent\": -1,}\n  ]\n}";
    match parse_err(text) {
        Error::Json {
            line,
            column,
            message,
        } => {
            assert_eq!((line, column), (3, 19));
            assert!(message.contains("trailing comma"), "{message}");
        }
        other => panic!("expected Error::Json, got {other:?}"),
    }
    let err =
        parse_err("[{\"text\": \"a\", \"bounds\": [0,0,1,1]},\n {\"text\": \"b\" \"bounds\": 3}]");
    assert!(
        matches!(
            err,
            Error::Json {
                line: 2,
                column: 15,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("malformed JSON at line 2, column 15: "),
        "{err}"
    );
}

#[test]
fn json_of_unknown_shape_is_unknown_format() {
    let cases = [
        (r#"{"a": 1, "b": [1, 2]}"#, r#"keys ["a", "b"]"#),
        (r#"{"views": 3}"#, r#"keys ["views"]"#),
        ("[1, 2, 3]", "holds no objects"),
        ("[]", "holds no objects"),
        (r#"[{"name": "x"}]"#, r#"keys ["name"]"#),
    ];
    for (text, found) in cases {
        let err = parse_err(text);
        assert!(
            matches!(&err, Error::UnknownFormat { found: f } if f.contains(found)),
            "{text}: {err:?}"
        );
        assert!(
            err.to_string().starts_with("unrecognised dump format: "),
            "{err}"
        );
    }
    let err = parse_err("hello, I am not a dump");
    assert!(
        matches!(&err, Error::UnknownFormat { found } if found.contains("\"hello, I am not a dump\"")),
        "{err:?}"
    );
}

#[test]
fn json_of_the_wrong_inner_shape_is_a_shape_error() {
    let err = parse_err(r#"{"views": [1]}"#);
    assert!(
        matches!(
            err,
            Error::JsonShape {
                format: "droidbot",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("views[0] is not an object"),
        "{err}"
    );
    let err = parse_err(r#"{"views": [{"parent": -1, "children": [5]}]}"#);
    assert!(
        err.to_string()
            .contains("views[0] names a child that does not exist"),
        "{err}"
    );
}

#[test]
fn empty_input_is_empty() {
    for text in ["", "   ", "\n\t \r\n"] {
        assert!(matches!(parse_err(text), Error::Empty), "{text:?}");
    }
    assert!(matches!(parse::parse_bytes(b""), Err(Error::Empty)));
    assert!(
        matches!(parse::parse_bytes(&[0xEF, 0xBB, 0xBF]), Err(Error::Empty)),
        "a lone BOM"
    );
    assert!(parse_err("").to_string().contains("the input is empty"));
}

#[test]
fn a_dump_without_nodes_says_so() {
    for text in [
        "<hierarchy rotation=\"0\"/>",
        "<?xml version='1.0' ?><hierarchy></hierarchy>",
        r#"{"views": []}"#,
    ] {
        let err = parse_err(text);
        assert!(matches!(err, Error::NoNodes), "{text}: {err:?}");
        assert!(err.to_string().contains("no UI nodes"), "{err}");
    }
}
#[test]
fn missing_files_and_bad_rules_name_the_path() {
    let path = std::path::Path::new("/nonexistent/tapscope/dump.xml");
    let err = parse::read_file(path).expect_err("missing");
    assert!(
        matches!(&err, Error::Io { path: p, .. } if p == path),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("/nonexistent/tapscope/dump.xml: "),
        "{err}"
    );

    let dir = std::env::temp_dir().join(format!("tapscope-bad-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rules = dir.join("rules.toml");
    std::fs::write(&rules, "anchor = false\n").expect("write rules");
    let err = PruneRules::load(&rules).expect_err("typo");
    let shown = err.to_string();
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert!(matches!(err, Error::Rules { .. }), "{shown}");
    assert!(
        shown.contains("rules.toml") && shown.contains("unknown field `anchor`"),
        "{shown}"
    );
}

#[test]
fn rules_files_that_are_not_small_regular_files_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let err = PruneRules::load(dir.path()).expect_err("a folder");
    assert!(
        err.to_string().starts_with(&format!(
            "{} is a folder: give a rules file",
            dir.path().display()
        )),
        "{err}"
    );
    let err = PruneRules::load(std::path::Path::new("/dev/zero")).expect_err("a device");
    assert_eq!(
        err.to_string(),
        "/dev/zero is a device: give a rules file (TOML, like assets/rules/default.toml)"
    );
    // One line of 100 KB: refused by size, and never echoed.
    let huge = dir.path().join("huge.toml");
    std::fs::write(&huge, "x".repeat(100_000)).expect("write");
    let shown = PruneRules::load(&huge).expect_err("too large").to_string();
    assert!(shown.contains("huge.toml"), "{shown}");
    assert!(
        shown.contains("is 100000 bytes, over the 65536-byte limit"),
        "{shown}"
    );
    assert!(shown.len() < 400, "{shown}");
    // Just under the limit, a bad line is named but not quoted whole.
    let long = dir.path().join("long.toml");
    std::fs::write(&long, format!("anchors = {}", "9".repeat(60_000))).expect("write");
    let shown = PruneRules::load(&long).expect_err("bad value").to_string();
    assert!(shown.contains("line 1, column"), "{shown}");
    assert!(shown.len() < 1000, "{} bytes", shown.len());
}

#[test]
fn every_error_says_what_was_wrong() {
    let cases: Vec<(Error, &[&str])> = vec![
        (
            Error::TooLarge {
                input: "big.xml".into(),
                size: InputSize::Exactly(70_000_000),
                limit: 67_108_864,
            },
            &["big.xml is 70000000 bytes", "67108864-byte limit", "dump"],
        ),
        (
            Error::NotAFile {
                path: "screens".into(),
                found: "a folder",
                wanted: "a dump file",
            },
            &["screens is a folder: give a dump file"],
        ),
        (Error::Empty, &["empty", "XML", "JSON"]),
        (
            Error::Encoding {
                encoding: "UTF-16LE",
                offset: 7,
            },
            &["not valid UTF-16LE", "byte 7", "byte-order mark"],
        ),
        (
            Error::UnknownFormat {
                found: "a bare JSON number".into(),
            },
            &["unrecognised", "a bare JSON number", "uiautomator"],
        ),
        (
            Error::Xml {
                line: 3,
                column: 9,
                message: "boom".into(),
            },
            &["malformed XML", "line 3", "column 9", "boom"],
        ),
        (
            Error::Json {
                line: 4,
                column: 2,
                message: "eof".into(),
            },
            &["malformed JSON", "line 4", "column 2", "eof"],
        ),
        (
            Error::JsonShape {
                format: "rico",
                message: "no root".into(),
            },
            &["rico JSON", "unexpected shape", "no root"],
        ),
        (
            Error::TooDeep {
                limit: 1024,
                at: "line 12".into(),
            },
            &["deeper than 1024 levels", "line 12"],
        ),
        (Error::NoNodes, &["no UI nodes", "capture it again"]),
    ];
    for (err, words) in cases {
        let shown = err.to_string();
        for word in words {
            assert!(shown.contains(word), "{shown:?} should contain {word:?}");
        }
    }
}

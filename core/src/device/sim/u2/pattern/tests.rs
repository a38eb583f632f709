//! The Java regex subset against what `Pattern.matches` gives for the same pattern and text.

use super::*;

fn matches(pattern: &str, text: &str) -> bool {
    Pattern::new(pattern)
        .unwrap_or_else(|e| panic!("{pattern}: {e}"))
        .matches(text)
}

#[test]
fn the_whole_text_must_match() {
    let cases = [
        ("Settings", "Settings", true),
        ("Set", "Settings", false),
        ("Set.*", "Settings", true),
        (".*tin.*", "Settings", true),
        ("S[a-z]+s", "Settings", true),
        ("S[^e]+", "Settings", false),
        ("(Wi-Fi|Bluetooth) on", "Bluetooth on", true),
        ("(Wi-Fi|Bluetooth) on", "Wi-Fi off", false),
        ("Battery \\d{1,3} percent\\.", "Battery 87 percent.", true),
        ("Battery \\d{1,2} percent\\.", "Battery 100 percent.", false),
        ("\\w+\\s\\w+", "two words", true),
        ("\\W", "-", true),
        ("colou?r", "color", true),
        ("a{3}", "aaa", true),
        ("a{3}", "aaaa", false),
        ("a{2,}", "aaaa", true),
        ("(?i)taptube", "TapTube", true),
        ("taptube", "TapTube", false),
        ("(?i:tap)Tube", "TAPTube", true),
        ("(?i:tap)Tube", "TAPTUBE", false),
        ("a.c", "a\nc", false),
        ("(?s)a.c", "a\nc", true),
        ("^abc$", "abc", true),
        ("abc$", "abc\n", false),
        ("abc$\\n", "abc\n", true),
        ("\\bcat\\b.*", "cat nap", true),
        ("x\\Bcat", "xcat", true),
        ("x\\bcat", "xcat", false),
        ("\\Q1+1=2\\E", "1+1=2", true),
        ("[\\d.]+", "3.14", true),
        ("[a\\-z]+", "a-z", true),
        ("[-a]+", "-a", true),
        ("[]a]+", "]a", true),
        ("(?:ab)+", "ababab", true),
        ("(?<word>ab)+c", "ababc", true),
        ("(a|)+b", "aab", true),
        (
            "(a*)*b",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac",
            false,
        ),
        (".*?x", "aax", true),
        ("", "", true),
        ("a|", "", true),
        ("caf\\u00e9", "caf\u{e9}", true),
        ("\\x41\\0101", "AA", true),
    ];
    for (pattern, text, expected) in cases {
        assert_eq!(matches(pattern, text), expected, "{pattern:?} on {text:?}");
    }
}

#[test]
fn what_java_refuses_is_a_syntax_error_and_the_rest_is_said_to_be_unsupported() {
    for bad in [
        "(ab", "ab)", "[ab", "*a", "a{2", "a{3,1}", "{1}", "\\y", "a**",
    ] {
        assert!(
            matches!(Pattern::new(bad), Err(PatternError::Syntax { .. })),
            "{bad}: {:?}",
            Pattern::new(bad)
        );
    }
    for valid in [
        "(a)\\1",
        "a(?=b)",
        "(?<!a)b",
        "(?>a)",
        "a*+",
        "\\p{L}",
        "[a-z&&[^e]]",
        "a{1001}",
    ] {
        let error = Pattern::new(valid).unwrap_err();
        assert!(matches!(error, PatternError::Unsupported(_)), "{valid}");
        assert!(error.to_string().contains("valid Java"), "{error}");
    }
}

#[test]
fn long_texts_and_patterns_stay_cheap() {
    let text = "a".repeat(100_000);
    assert!(matches("(a|aa)*", &text));
    assert!(!matches("(a|aa)*b", &text));
    let nested = format!("{}a{}", "(".repeat(65), ")".repeat(65));
    assert!(matches!(
        Pattern::new(&nested),
        Err(PatternError::Unsupported(_))
    ));
    assert!(matches!(
        Pattern::new(&"a{1000}".repeat(60)),
        Err(PatternError::Unsupported(_))
    ));
}

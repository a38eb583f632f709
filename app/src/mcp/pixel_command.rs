//! The two shell commands `screen_operation_shell` runs, `input tap` and `input swipe` in
//! the coordinates of the last screenshot, read into the pixel action they make; a swipe's
//! duration has the `swipe` tool's default and cap. Everything else is refused with a
//! reason.

use tapscope_core::geometry::Point;
use tapscope_core::session::Action;

use super::args::{MAX_SWIPE, swipe_duration};

/// The refusal for anything that is not one of the two gestures.
const ALLOWED: &str = "screen_operation_shell runs only `input tap X Y` and `input swipe X1 Y1 \
X2 Y2 [DURATION_MS]`, in the pixels of the last screenshot; use press_key, input_text, \
launch_app and list_packages for the rest";

/// Parses `command` into a pixel action, or says why it is refused.
///
/// ```
/// use tapscope::mcp::pixel_command::parse;
/// use tapscope_core::{geometry::Point, session::Action};
/// assert_eq!(parse("input tap 120 340"), Ok(Action::TapImage(Point::new(120, 340))));
/// assert!(parse("rm -rf /").unwrap_err().contains("only `input tap X Y`"));
/// ```
pub fn parse(command: &str) -> Result<Action, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    // Agents often copy the whole `adb shell …` line.
    let words = match words.as_slice() {
        ["adb", "shell", rest @ ..] | ["shell", rest @ ..] => rest,
        all => all,
    };
    if command.contains([';', '&', '|', '`', '$', '>', '<', '\n']) {
        return Err(format!(
            "{ALLOWED}; {command:?} chains or redirects commands"
        ));
    }
    match words {
        ["input", "tap", x, y] => Ok(Action::TapImage(Point::new(pixel(x)?, pixel(y)?))),
        ["input", "swipe", x1, y1, x2, y2, rest @ ..] => {
            let duration = match rest {
                [] => swipe_duration(None)?,
                [ms] => swipe_duration(Some(milliseconds(ms)?))?,
                _ => return Err(format!("{ALLOWED}; {command:?} has extra words")),
            };
            Ok(Action::SwipeImage {
                from: Point::new(pixel(x1)?, pixel(y1)?),
                to: Point::new(pixel(x2)?, pixel(y2)?),
                duration,
            })
        }
        _ => Err(format!("{ALLOWED}; {command:?} is not one of them")),
    }
}

fn pixel(word: &str) -> Result<i32, String> {
    word.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v <= 100_000.0)
        .map(|v| v.round() as i32)
        .ok_or_else(|| format!("{word:?} is not a pixel coordinate (a number from 0)"))
}

fn milliseconds(word: &str) -> Result<u64, String> {
    word.parse::<u64>().map_err(|_| {
        format!(
            "{word:?} is not a swipe duration: give whole milliseconds up to {}",
            MAX_SWIPE.as_millis()
        )
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tapscope_core::device::DEFAULT_SWIPE;

    use super::*;

    #[test]
    fn taps_and_swipes_in_the_forms_agents_write() {
        assert_eq!(
            parse("adb shell input tap 10 20"),
            Ok(Action::TapImage(Point::new(10, 20)))
        );
        assert_eq!(
            parse("  input  swipe 500 1500 500.4 400 250 "),
            Ok(Action::SwipeImage {
                from: Point::new(500, 1500),
                to: Point::new(500, 400),
                duration: Duration::from_millis(250),
            })
        );
        assert_eq!(
            parse("input swipe 1 2 3 4"),
            Ok(Action::SwipeImage {
                from: Point::new(1, 2),
                to: Point::new(3, 4),
                duration: DEFAULT_SWIPE,
            })
        );
    }

    #[test]
    fn everything_else_is_refused_with_what_is_allowed() {
        for command in [
            "input text hello",
            "input keyevent 4",
            "am start -n com.x/.Main",
            "input tap 10 20; reboot",
            "input tap 10 20 && rm -rf /sdcard",
            "input tap $(id) 3",
            "input tap 10",
            "input swipe 1 2 3 4 5 6",
            "",
        ] {
            let err = parse(command).unwrap_err();
            assert!(err.contains("only `input tap X Y`"), "{command}: {err}");
        }
        assert!(parse("input tap -5 20").unwrap_err().contains("\"-5\""));
        assert!(parse("input tap ten 20").unwrap_err().contains("\"ten\""));
        assert!(
            parse("input swipe 1 2 3 4 99999999")
                .unwrap_err()
                .contains("up to 10000")
        );
    }
}

//! A person's action as the tool call an agent would make (how the journal records it),
//! and a recorded person's call back as the action (how a replay makes it again).

use std::time::Duration;

use serde_json::json;
use tapscope_core::geometry::Point;
use tapscope_core::handle::Handle;
use tapscope_core::session::{Action, Direction};

use super::{Request, shell};

/// A person's action as the tool call an agent would make, coordinates in display pixels
/// (`"pixels": "display"`) unless they are the screenshot's.
pub(super) fn request(action: &Action) -> Request {
    let xy = |p: &tapscope_core::geometry::Point| [p.x, p.y];
    match action {
        Action::Tap(target) => target_request("tap", &json!({ "target": target.to_string() })),
        Action::LongPress(target) => {
            target_request("long_press", &json!({ "target": target.to_string() }))
        }
        Action::Scroll { target, direction } => target_request(
            "scroll",
            &json!({ "target": target.to_string(), "direction": direction }),
        ),
        Action::SwipeAcross { target, direction } => target_request(
            "swipe",
            &json!({ "target": target.to_string(), "direction": direction }),
        ),
        Action::Swipe { from, to, duration } => Request::new(
            "swipe",
            &json!({
                "from": xy(from), "to": xy(to),
                "duration_ms": duration.as_millis() as u64, "pixels": "display",
            }),
        ),
        Action::SwipeImage { from, to, duration } => Request::new(
            "swipe",
            &json!({ "from": xy(from), "to": xy(to), "duration_ms": duration.as_millis() as u64 }),
        )
        .on_screenshot(),
        Action::TapImage(at) => Request::new(
            "screen_operation_shell",
            &json!({ "command": format!("input tap {} {}", at.x, at.y) }),
        )
        .on_screenshot(),
        Action::InputText(text) => Request::new("input_text", &json!({ "text": text })),
        Action::Key(key) => Request::new("press_key", &json!({ "key": key.name() })),
        Action::Launch(package) => Request::new("launch_app", &json!({ "package": package })),
    }
}

fn target_request(tool: &'static str, arguments: &serde_json::Value) -> Request {
    let handle = arguments["target"].as_str().unwrap_or_default().to_owned();
    Request::new(tool, arguments).with_handle(&handle)
}

/// The action a person's recorded call `tool` with `arguments` made: the inverse of
/// [`request`]. A call that is not one a person makes is the error.
pub fn action(tool: &str, arguments: &serde_json::Value) -> Result<Action, String> {
    let text = |field: &str| {
        arguments[field]
            .as_str()
            .ok_or_else(|| format!("{tool} without a `{field}`"))
    };
    let handle =
        || -> Result<Handle, String> { text("target")?.parse().map_err(|e| format!("{e}")) };
    let direction = || -> Result<Direction, String> {
        serde_json::from_value(arguments["direction"].clone())
            .map_err(|_| format!("{tool} without a direction"))
    };
    let point = |field: &str| -> Result<Point, String> {
        let [x, y]: [i32; 2] = serde_json::from_value(arguments[field].clone())
            .map_err(|_| format!("{tool} without `{field}` as [x, y]"))?;
        Ok(Point::new(x, y))
    };
    let duration = || Duration::from_millis(arguments["duration_ms"].as_u64().unwrap_or(300));
    Ok(match tool {
        "tap" => Action::Tap(handle()?),
        "long_press" => Action::LongPress(handle()?),
        "scroll" => Action::Scroll {
            target: handle()?,
            direction: direction()?,
        },
        "swipe" if arguments.get("target").is_some() => Action::SwipeAcross {
            target: handle()?,
            direction: direction()?,
        },
        "swipe" if arguments["pixels"] == "display" => Action::Swipe {
            from: point("from")?,
            to: point("to")?,
            duration: duration(),
        },
        "swipe" => Action::SwipeImage {
            from: point("from")?,
            to: point("to")?,
            duration: duration(),
        },
        "screen_operation_shell" => shell::parse(text("command")?)?,
        "input_text" => Action::InputText(text("text")?.to_owned()),
        "press_key" => Action::Key(text("key")?.parse()?),
        "launch_app" => Action::Launch(text("package")?.to_owned()),
        other => return Err(format!("{other} is not an action a person makes")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapscope_core::device::Key;

    #[test]
    fn every_action_a_person_makes_reads_back_from_its_recorded_call() {
        let handle: Handle = "0123456789ab_3".parse().unwrap();
        let (from, to) = (Point::new(10, 20), Point::new(30, 40));
        let duration = Duration::from_millis(450);
        let actions = [
            Action::Tap(handle.clone()),
            Action::LongPress(handle.clone()),
            Action::Scroll {
                target: handle.clone(),
                direction: Direction::Down,
            },
            Action::SwipeAcross {
                target: handle,
                direction: Direction::Left,
            },
            Action::Swipe { from, to, duration },
            Action::SwipeImage { from, to, duration },
            Action::TapImage(from),
            Action::InputText("hello".into()),
            Action::Key(Key::Back),
            Action::Launch("tv.tapscope.demo".into()),
        ];
        for made in actions {
            let call = request(&made);
            assert_eq!(
                action(call.tool, &call.arguments),
                Ok(made.clone()),
                "{call:?}"
            );
        }
    }

    #[test]
    fn a_call_no_person_makes_is_named() {
        let said = action("list_packages", &json!({})).unwrap_err();
        assert!(said.contains("list_packages"), "{said}");
        assert!(action("tap", &json!({})).unwrap_err().contains("target"));
    }
}

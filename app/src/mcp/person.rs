//! A person's action as the tool call an agent would make (how the journal records it),
//! and a recorded person's call back as the action (how a replay makes it again).

use tapscope_core::session::Action;

use super::Request;
use super::act::ActCall;

/// A person's action as the tool call an agent would make, coordinates in display pixels
/// (`"pixels": "display"`) unless they are the screenshot's.
pub(super) fn request(action: &Action) -> Request {
    ActCall::from(action).request()
}

/// The action a person's recorded call `tool` with `arguments` made: the inverse of
/// [`request`], read as the tools read an agent's call. A call that is not one a person
/// makes is the error.
pub fn action(tool: &str, arguments: &serde_json::Value) -> Result<Action, String> {
    ActCall::read(tool, arguments)?
        .action()
        .map_err(|refused| refused.message().to_owned())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;
    use tapscope_core::device::Key;
    use tapscope_core::geometry::Point;
    use tapscope_core::handle::Handle;
    use tapscope_core::session::Direction;

    use super::*;

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
    fn a_recorded_swipe_has_the_default_duration_and_the_cap_of_the_tools() {
        let drag = json!({ "from": [1, 2], "to": [3, 4], "pixels": "display" });
        assert_eq!(
            action("swipe", &drag),
            Ok(Action::Swipe {
                from: Point::new(1, 2),
                to: Point::new(3, 4),
                duration: tapscope_core::device::DEFAULT_SWIPE,
            })
        );
        let endless = json!({ "from": [1, 2], "to": [3, 4], "duration_ms": 60_000 });
        let refused = action("swipe", &endless).unwrap_err();
        assert!(refused.contains("up to 10000"), "{refused}");
    }

    #[test]
    fn a_call_no_person_makes_is_named() {
        let said = action("list_packages", &json!({})).unwrap_err();
        assert!(said.contains("list_packages"), "{said}");
        assert!(action("tap", &json!({})).unwrap_err().contains("target"));
    }
}

//! A person's click or drag on the live screen as the action an agent would make: a click
//! taps the node under it by handle when there is one, so the step reads like an agent's.

use std::time::Duration;

use egui::Pos2;
use tapscope_core::device::DEFAULT_SWIPE;
use tapscope_core::geometry::Point;
use tapscope_core::model::Flags;
use tapscope_core::session::{Action, Observation};

use crate::gui::gesture::Gesture;

/// How long a tap where no node answers touches.
const TOUCH: Duration = Duration::from_millis(50);

/// What a gesture on the screen of `latest` does.
pub fn action(latest: &Observation, gesture: Gesture) -> Action {
    match gesture {
        Gesture::Tap(at) => tap(latest, point(at)),
        Gesture::Swipe { from, to } => Action::Swipe {
            from: point(from),
            to: point(to),
            duration: DEFAULT_SWIPE,
        },
    }
}

/// The smallest node with a handle that a tap reaches at `at` (what the device would hit);
/// on a self-drawn screen a tap on its screenshot; elsewhere a touch at the pixel, a
/// swipe of no length.
fn tap(latest: &Observation, at: Point) -> Action {
    let wanted = Flags::CLICKABLE | Flags::LONG_CLICKABLE | Flags::CHECKABLE | Flags::EDITABLE;
    let inside = |r: &tapscope_core::Rect| {
        at.x >= r.left && at.x < r.right && at.y >= r.top && at.y < r.bottom
    };
    let hit = latest
        .pruned
        .nodes
        .iter()
        .filter(|n| n.i.is_some() && n.flags.intersects(wanted) && inside(&n.visible))
        .min_by_key(|n| i64::from(n.visible.width()) * i64::from(n.visible.height()));
    if let Some(i) = hit.and_then(|n| n.i) {
        let handle = tapscope_core::handle::Handle {
            version: latest.version.clone(),
            i,
        };
        return Action::Tap(handle);
    }
    if let Some(image) = latest
        .fallback
        .as_ref()
        .and_then(|shot| shot.scale().display_to_image(at).ok())
    {
        return Action::TapImage(image);
    }
    Action::Swipe {
        from: at,
        to: at,
        duration: TOUCH,
    }
}

fn point(p: Pos2) -> Point {
    Point::new(p.x.floor() as i32, p.y.floor() as i32)
}

#[cfg(test)]
mod tests {
    use egui::pos2;
    use tapscope_core::device::sim::Sim;
    use tapscope_core::session::{Session, SessionConfig};
    use tapscope_core::stability::VirtualClock;

    use super::*;

    fn sim() -> Session<Sim<VirtualClock>, VirtualClock> {
        let clock = VirtualClock::default();
        Session::new(Sim::new(clock.clone(), 1), clock, SessionConfig::default())
    }

    #[test]
    fn a_click_on_a_node_taps_it_by_handle_and_elsewhere_touches_the_pixel() {
        let session = sim();
        let home = session.observe().expect("the launcher");
        let icon = home
            .handle_where(|n| n.label == "TapTube")
            .expect("TapTube");
        assert_eq!(
            action(&home, Gesture::Tap(pos2(160.0, 430.0))),
            Action::Tap(icon)
        );
        let nowhere = Point::new(5, 1500);
        assert_eq!(
            action(&home, Gesture::Tap(pos2(5.5, 1500.2))),
            Action::Swipe {
                from: nowhere,
                to: nowhere,
                duration: TOUCH
            }
        );
        let swipe = Gesture::Swipe {
            from: pos2(540.0, 1800.0),
            to: pos2(540.0, 600.0),
        };
        assert!(matches!(
            action(&home, swipe),
            Action::Swipe {
                duration: DEFAULT_SWIPE,
                ..
            }
        ));
    }

    #[test]
    fn a_click_on_a_self_drawn_screen_taps_its_screenshot() {
        let session = sim();
        session.observe().expect("the launcher");
        let game = session
            .act(&Action::Launch("tv.tapscope.blocks".into()))
            .expect("the game starts")
            .observation;
        let shot = game.fallback.as_ref().expect("a self-drawn screen");
        let Action::TapImage(at) = action(&game, Gesture::Tap(pos2(540.0, 1200.0))) else {
            panic!("a tap on the screenshot");
        };
        let back = shot.scale().image_to_display(at).expect("maps back");
        assert!(
            (back.x - 540).abs() <= 2 && (back.y - 1200).abs() <= 2,
            "{back}"
        );
    }
}

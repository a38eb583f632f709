//! Actions on raw coordinates that an agent sent through `tapscope proxy`: did the point,
//! when the action landed, still hit what it hit on the screen the agent last read?
//!
//! Elements are compared by what an agent would call them: their names, numbers masked
//! (a counter that ticked is the same button), and their places overlapping. A screen
//! whose version changed elsewhere (a clock, a progress bar) is not a stale tap.

use super::{Stale, Target, find_screen, screen};
use crate::geometry::Point;
use crate::model::{Rect, Tree};
use crate::recording::{Landed, Recording, RecordingError, Step};

/// What a point hit on the screen read and on the screen the action landed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Landing {
    pub then: Option<Target>,
    pub now: Option<Target>,
    pub landed: Landed,
}

/// What `point` hit on `read` (the screen the agent last read) and on `now` (the screen
/// when the action landed).
pub fn landing(read: &Tree, now: &Tree, point: Point) -> Landing {
    let then = screen::at_point(read, point);
    let now = screen::at_point(now, point);
    let landed = if same_element(then.as_ref(), now.as_ref()) {
        Landed::Same
    } else {
        Landed::Elsewhere
    };
    Landing { then, now, landed }
}

/// Whether two elements are one to an agent: both nothing, or of one name (numbers
/// aside) in places that overlap by at least half the smaller.
pub fn same_element(a: Option<&Target>, b: Option<&Target>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            masked(&a.label) == masked(&b.label)
                && match (a.bounds, b.bounds) {
                    (Some(x), Some(y)) => overlap_of_smaller(x, y) >= 0.5,
                    _ => true,
                }
        }
        _ => false,
    }
}

/// The label with every run of digits one `#`.
fn masked(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut in_number = false;
    for c in label.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

fn overlap_of_smaller(a: Rect, b: Rect) -> f64 {
    let width = (a.right.min(b.right) - a.left.max(b.left)).max(0) as f64;
    let height = (a.bottom.min(b.bottom) - a.top.max(b.top)).max(0) as f64;
    let smaller = a.area().min(b.area()) as f64;
    if smaller == 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    width * height / smaller
}

/// The review of step `index`, a proxied action on a coordinate aimed from screen `used`
/// that landed on the step's screen before (`latest`): `None` when its point hit the same
/// element on both, or either screen is not in the recording.
pub(super) fn review(
    recording: &Recording,
    index: usize,
    used: &str,
    latest: &str,
) -> Result<Option<Stale>, RecordingError> {
    let step = &recording.steps[index];
    let earlier = &recording.steps[..index];
    let (Some(&[x, y]), Some(read), Some(now)) = (
        step.path.first(),
        find_screen(earlier, used),
        step.before.as_ref().filter(|s| s.version == latest),
    ) else {
        return Ok(None);
    };
    let point = Point::new(x, y);
    let (Some(read_tree), Some(now_tree)) = (
        screen::load_tree(recording, read)?,
        screen::load_tree(recording, now)?,
    ) else {
        return Ok(None);
    };
    let landing = landing(&read_tree, &now_tree, point);
    if landing.landed == Landed::Same {
        return Ok(None);
    }
    let sentence = sentence(step, point, read_ms_before(earlier, step, used), &landing);
    Ok(Some(Stale {
        version_used: used.to_owned(),
        version_at_action: latest.to_owned(),
        screens_ago: super::screens_between(&recording.steps[..=index], used),
        meant: landing.then,
        now_there: landing.now,
        point: Some([x, y]),
        refused: false,
        sentence,
    }))
}

/// How long before the action the agent's look at `used` ended.
fn read_ms_before(earlier: &[Step], step: &Step, used: &str) -> Option<u64> {
    let look = earlier.iter().rev().find(|s| {
        s.after.as_ref().is_some_and(|a| a.version == used) && s.version_used.is_none()
    })?;
    Some(step.at_ms.saturating_sub(look.at_ms + look.duration_ms))
}

/// `tapped (540, 1210) 1.8 s after reading a screen where that point was "Video: …"; when
/// the tap landed it was on "Sponsored: …"`.
fn sentence(step: &Step, point: Point, read_ms: Option<u64>, landing: &Landing) -> String {
    let (verb, noun) = match step.tool.as_str() {
        "swipe" => ("swiped from", "swipe"),
        "drag" => ("dragged from", "drag"),
        "touch" => ("touched", "touch"),
        _ => ("tapped", "tap"),
    };
    let when = match read_ms {
        Some(ms) => format!(" {:.1} s after reading", ms as f64 / 1000.0),
        None => " after reading".to_owned(),
    };
    let label = |t: &Option<Target>| match t {
        Some(target) => target.label.clone(),
        None => "nothing".to_owned(),
    };
    format!(
        "{verb} ({}, {}){when} a screen where that point was {}; when the {noun} landed it \
         was on {}",
        point.x,
        point.y,
        label(&landing.then),
        label(&landing.now),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(label: &str, bounds: Option<Rect>) -> Target {
        Target {
            label: label.to_owned(),
            bounds,
        }
    }

    fn rect(left: i32, top: i32, right: i32, bottom: i32) -> Rect {
        Rect {
            left,
            top,
            right,
            bottom,
        }
    }

    #[test]
    fn one_element_stays_one_when_its_numbers_tick_or_it_moves_a_little() {
        let like = target("\"Like 12\"", Some(rect(0, 0, 100, 50)));
        let ticked = target("\"Like 13\"", Some(rect(0, 10, 100, 60)));
        assert!(same_element(Some(&like), Some(&ticked)));
        assert!(same_element(None, None));
        let ad = target("\"Sponsored: Buy now\"", Some(rect(0, 0, 100, 50)));
        assert!(!same_element(Some(&like), Some(&ad)));
        assert!(!same_element(Some(&like), None));
        // The same name one row further: another element.
        let next_row = target("\"Like 12\"", Some(rect(0, 50, 100, 100)));
        assert!(!same_element(Some(&like), Some(&next_row)));
    }
}

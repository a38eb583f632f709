//! Actions on raw coordinates that an agent sent through `tapscope proxy`: did the point,
//! when the action landed, still hit what it hit on the screen the agent last read?
//!
//! Elements are compared by what an agent would call them: their names, numbers masked
//! (a counter that ticked is the same button), and their places overlapping. A screen
//! whose version changed elsewhere (a clock, a progress bar) is not a stale tap.

use super::{Stale, Target, find_screen, screen};
use crate::geometry::Point;
use crate::model::{Rect, Tree};
use crate::prune::NAME_CHARS;
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

/// What a tap at `point` meets on `tree`, named as its pruned line names it.
pub fn hit(tree: &Tree, point: Point) -> Option<Target> {
    screen::at_point(tree, point)
}

/// Whether two elements are one to an agent: both nothing, or of one name (numbers
/// aside) in places that overlap by at least half the smaller.
pub fn same_element(a: Option<&Target>, b: Option<&Target>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            same_name(&a.label, &b.label)
                && match (a.bounds, b.bounds) {
                    (Some(x), Some(y)) => overlap_of_smaller(x, y) >= 0.5,
                    _ => true,
                }
        }
        _ => false,
    }
}

/// Whether two labels name one element: equal with numbers masked, or one whose text was
/// cut at [`NAME_CHARS`] showing the start of the other's (a number that grew a digit
/// moves where a long text is cut).
fn same_name(a: &str, b: &str) -> bool {
    masked(a) == masked(b) || begins(a, b) || begins(b, a)
}

/// Whether `cut`, a label whose text was cut short, shows the start of `other`'s text,
/// numbers masked.
fn begins(cut: &str, other: &str) -> bool {
    let Some((shown, after)) = cut_text(cut) else {
        return false;
    };
    let other_shown = match cut_text(other) {
        Some((other_shown, other_after)) => (other_after == after).then_some(other_shown),
        None => other.strip_suffix(after),
    };
    other_shown.is_some_and(|other_shown| masked(other_shown).starts_with(&masked(shown)))
}

/// A label whose quoted text was cut at [`NAME_CHARS`] (`"45:10 · Every Apollo landing
/// site from o…"`): the label up to the `…`, and what follows it (the closing quote, a
/// class); `None` when its text is whole.
fn cut_text(label: &str) -> Option<(&str, &str)> {
    let at = label.find("…\"")?;
    let (shown, rest) = label.split_at(at);
    let text = &shown[shown.find('"')? + 1..];
    // A cut text keeps its first NAME_CHARS characters, less a space before the cut.
    (text.chars().count() + 1 >= NAME_CHARS).then(|| (shown, &rest['…'.len_utf8()..]))
}

/// The characters that stay inside a number between its digits: `1,000`, `4.5`, `1 000`.
const NUMBER_SEPARATORS: [char; 5] = [',', '.', '\'', '\u{a0}', '\u{202f}'];
/// A magnitude straight after a number: `483K`, `1.2M`, `3B`.
const MAGNITUDES: [char; 4] = ['K', 'k', 'M', 'B'];

/// The label with every number one `#`: its digits, the separators between them and a
/// magnitude after them, so `Like 999`, `Like 1,000` and `Like 1.2K` read the same.
fn masked(label: &str) -> String {
    let chars: Vec<char> = label.chars().collect();
    let digit_at = |at: usize| chars.get(at).is_some_and(char::is_ascii_digit);
    let mut out = String::with_capacity(label.len());
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        at += 1;
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        out.push('#');
        while digit_at(at)
            || (chars.get(at).is_some_and(|c| NUMBER_SEPARATORS.contains(c)) && digit_at(at + 1))
        {
            at += 1;
        }
        let magnitude = chars.get(at).is_some_and(|c| MAGNITUDES.contains(c));
        if magnitude && !chars.get(at + 1).is_some_and(|c| c.is_alphanumeric()) {
            at += 1;
        }
    }
    out
}

/// How much of the smaller rectangle the other covers, from 0 to 1 (inverted ones are
/// empty); reckoned in `i64` and `f64`, so bounds at the ends of `i32` cannot overflow.
fn overlap_of_smaller(a: Rect, b: Rect) -> f64 {
    let span = |from: [i32; 2], to: [i32; 2]| {
        (i64::from(to[0].min(to[1])) - i64::from(from[0].max(from[1]))).max(0) as f64
    };
    let area = |r: Rect| span([r.left; 2], [r.right; 2]) * span([r.top; 2], [r.bottom; 2]);
    let overlap =
        span([a.left, b.left], [a.right, b.right]) * span([a.top, b.top], [a.bottom, b.bottom]);
    let smaller = area(a).min(area(b));
    if smaller == 0.0 {
        return if a == b { 1.0 } else { 0.0 };
    }
    overlap / smaller
}

/// The review of step `index`, a command through the proxy: an action on a coordinate
/// aimed from the screen it read (`version_used`) that landed on the step's screen before
/// (`version_before`), stale when its point hit another element there, or when the proxy
/// found the pixels under it changed (`--check pixels`); `None` when it hit the same, was
/// no such action, or either screen is not in the recording.
pub(super) fn review(recording: &Recording, index: usize) -> Result<Option<Stale>, RecordingError> {
    let step = &recording.steps[index];
    let (Some(used), Some(latest)) = (&step.version_used, &step.version_before) else {
        return Ok(None);
    };
    if used == latest {
        return pixels_review(recording, index, used);
    }
    let earlier = &recording.steps[..index];
    let (Some(&[x, y]), Some(read), Some(now)) = (
        step.path.first(),
        find_screen(earlier, used),
        step.before.as_ref().filter(|s| s.version == *latest),
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
    let read_ms = read_ms_before(earlier, step, used);
    let sentence = describe(&step.tool, point, read_ms, &landing);
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

/// A step the proxy judged by pixels (its tree was not looked at): stale when it found
/// the pixels under the point changed since the agent's screenshot.
fn pixels_review(
    recording: &Recording,
    index: usize,
    used: &str,
) -> Result<Option<Stale>, RecordingError> {
    let step = &recording.steps[index];
    let changed = step.adb.as_ref().and_then(|adb| adb.landed) == Some(Landed::Elsewhere);
    let (true, Some(&[x, y])) = (changed, step.path.first()) else {
        return Ok(None);
    };
    let point = Point::new(x, y);
    let earlier = &recording.steps[..index];
    let then = match find_screen(earlier, used) {
        Some(read) => screen::load_tree(recording, read)?.and_then(|tree| hit(&tree, point)),
        None => None,
    };
    let sentence = describe_pixels(
        &step.tool,
        point,
        read_ms_before(earlier, step, used),
        &then,
    );
    Ok(Some(Stale {
        version_used: used.to_owned(),
        version_at_action: used.to_owned(),
        screens_ago: 0,
        meant: then,
        now_there: None,
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
    Some(
        step.at_ms
            .saturating_sub(look.at_ms.saturating_add(look.duration_ms)),
    )
}

/// What an action `tool` (`tap`, `swipe`, `drag`, `touch`) at `point` met, read
/// `read_ms` before it: `tapped (540, 1210) 1.8 s after reading a screen where that point
/// was "Video: …"; when the tap landed it was on "Sponsored: …"`.
pub fn describe(tool: &str, point: Point, read_ms: Option<u64>, landing: &Landing) -> String {
    let (opening, noun) = opening(tool, point, read_ms, &landing.then);
    format!(
        "{opening}; when the {noun} landed it was on {}",
        label(&landing.now)
    )
}

/// As [`describe`], for an action judged by the pixels under its point: `…; when the tap
/// landed the pixels there had changed`.
pub fn describe_pixels(
    tool: &str,
    point: Point,
    read_ms: Option<u64>,
    then: &Option<Target>,
) -> String {
    let (opening, noun) = opening(tool, point, read_ms, then);
    format!("{opening}; when the {noun} landed the pixels there had changed")
}

/// `tapped (540, 1210) 1.8 s after reading a screen where that point was "Video: …"`, and
/// the action's noun.
fn opening(
    tool: &str,
    point: Point,
    read_ms: Option<u64>,
    then: &Option<Target>,
) -> (String, &'static str) {
    let (verb, noun) = match tool {
        "swipe" => ("swiped from", "swipe"),
        "drag" => ("dragged from", "drag"),
        "touch" => ("touched", "touch"),
        _ => ("tapped", "tap"),
    };
    let when = match read_ms {
        Some(ms) => format!(" {:.1} s after reading", ms as f64 / 1000.0),
        None => " after reading".to_owned(),
    };
    let opening = format!(
        "{verb} ({}, {}){when} a screen where that point was {}",
        point.x,
        point.y,
        label(then)
    );
    (opening, noun)
}

fn label(target: &Option<Target>) -> String {
    match target {
        Some(target) => target.label.clone(),
        None => "nothing".to_owned(),
    }
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

    #[test]
    fn numbers_are_masked_with_their_separators_and_magnitudes() {
        assert_eq!(
            masked("Like 1,000 · 4.5 stars · 483K views"),
            "Like # · # stars · # views"
        );
        assert_eq!(masked("1.2M"), masked("7"));
        // A letter that goes on into a word is not a magnitude; a full stop ends a number.
        assert_eq!(masked("3 Mbps, 12 Kilos, 5."), "# Mbps, # Kilos, #.");
        assert_eq!(masked("9:41"), "#:#");
    }

    #[test]
    fn a_cut_name_is_the_start_of_the_whole_one() {
        // 40 characters and whole, against the same text one digit longer and cut at 40.
        let whole = "\"Comments 9 · a long title that runs past\"";
        let cut = "\"Comments 10 · a long title that runs pas…\"";
        assert!(same_name(whole, cut) && same_name(cut, whole));
        // Both cut, with a role word before and a class after.
        let nine = "button \"Comments 9 · a long title that runs past…\" (View)";
        let ten = "button \"Comments 10 · a long title that runs pas…\" (View)";
        assert!(same_name(nine, ten));
        assert!(!same_name(nine, &ten.replace("(View)", "(Text)")));
        // A short text that ends in `…` was not cut: it names only itself.
        assert!(!same_name("\"Sending…\"", "\"Sending… done\""));
        assert!(!same_name(cut, "\"Comments 10 · another title\""));
    }
}

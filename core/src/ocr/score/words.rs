//! Hand-labelled words: `NAME.words` beside a pair holds the texts its screenshot shows
//! that its dump does not (a game's HUD drawn over one opaque view). One text a line;
//! `[left,top][right,bottom] text` places it in the screenshot's pixels (the dump's bounds
//! notation), and a text alone counts wherever on the screen it is read. Blank lines and
//! lines starting with `#` are skipped.

use crate::model::Rect;
use crate::parse::parse_bounds;

/// The texts of a `.words` file, each with its box (`screen` when none is given); a line
/// whose box does not parse is the error, with its number.
pub fn labelled(text: &str, screen: Rect) -> Result<Vec<(String, Rect)>, String> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (bounds, said) = match line.strip_prefix('[') {
            Some(_) => {
                let end = line
                    .match_indices(']')
                    .nth(1)
                    .map(|(at, _)| at + 1)
                    .ok_or_else(|| bad(number, line))?;
                let bounds = parse_bounds(&line[..end]).ok_or_else(|| bad(number, line))?;
                (bounds, line[end..].trim())
            }
            None => (screen, line),
        };
        if !said.is_empty() {
            out.push((said.to_string(), bounds));
        }
    }
    Ok(out)
}

fn bad(number: usize, line: &str) -> String {
    format!(
        "line {}: `{line}` does not start with a box `[left,top][right,bottom]` nor is it a \
         text alone",
        number + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_with_and_without_a_box_comments_and_blanks() {
        let screen = Rect::new(0, 0, 1600, 900);
        let got = labelled(
            "# the village's HUD\nAttack!\n\n[1400,760][1560,860] Shop\n  Gold  \n",
            screen,
        )
        .unwrap();
        assert_eq!(
            got,
            [
                ("Attack!".to_string(), screen),
                ("Shop".to_string(), Rect::new(1400, 760, 1560, 860)),
                ("Gold".to_string(), screen),
            ]
        );
        let err = labelled("ok\n[1,2][3 Shop\n", screen).unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
    }
}

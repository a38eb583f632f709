//! A line's text from a CTC recognizer's output (PP-OCR's): at each step the most probable
//! class, repeats collapsed and blanks (class 0) dropped; class `i` is the dictionary's
//! `i - 1`th character, and the class after the dictionary a space (as is a blank in the
//! dictionary, such as the ideographic space). Each character keeps
//! the step it was read at, so words get boxes along the line.

/// What one crop read as.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The characters read, spaces included.
    pub text: String,
    /// The mean of the characters' probabilities (0 to 1); 0 for nothing read.
    pub confidence: f32,
    /// The words (runs between spaces): their text, mean probability, and first and last
    /// step.
    pub words: Vec<Spoken>,
}

/// One word of a [`Decoded`] line.
#[derive(Clone, Debug, PartialEq)]
pub struct Spoken {
    pub text: String,
    pub confidence: f32,
    pub first_step: usize,
    pub last_step: usize,
}

/// Greedy CTC decoding of `probabilities`, `steps` rows of `classes` (softmax outputs) for
/// `dictionary` (classes = its length + 2: blank, characters, space). Rows of another
/// width decode as nothing.
pub fn decode(
    probabilities: &[f32],
    steps: usize,
    classes: usize,
    dictionary: &[String],
) -> Decoded {
    let mut out = Decoded {
        text: String::new(),
        confidence: 0.0,
        words: Vec::new(),
    };
    if classes == 0 || probabilities.len() != steps * classes {
        return out;
    }
    let space = dictionary.len() + 1;
    let mut previous = 0;
    let mut sum = 0.0;
    let mut read = 0usize;
    let mut word: Option<(Spoken, usize)> = None;
    for (step, row) in probabilities.chunks_exact(classes).enumerate() {
        let (best, probability) = row
            .iter()
            .copied()
            .enumerate()
            .fold((0, f32::MIN), |a, b| if b.1 > a.1 { b } else { a });
        let repeated = best == previous;
        previous = best;
        if best == 0 || repeated {
            continue;
        }
        sum += probability;
        read += 1;
        // The dictionary's own blanks (an ideographic space) part words as the space does.
        let character = match best {
            c if c == space => None,
            c => dictionary
                .get(c - 1)
                .map(String::as_str)
                .filter(|c| !c.chars().all(char::is_whitespace)),
        };
        match character {
            Some(c) => {
                out.text.push_str(c);
                let (w, count) = word.get_or_insert_with(|| {
                    (
                        Spoken {
                            text: String::new(),
                            confidence: 0.0,
                            first_step: step,
                            last_step: step,
                        },
                        0,
                    )
                });
                w.text.push_str(c);
                w.confidence += probability;
                w.last_step = step;
                *count += 1;
            }
            None => {
                out.text.push(' ');
                out.words.extend(finished(word.take()));
            }
        }
    }
    out.words.extend(finished(word.take()));
    if read > 0 {
        out.confidence = sum / read as f32;
    }
    out
}

/// A word with its probabilities' sum made their mean.
fn finished(word: Option<(Spoken, usize)>) -> Option<Spoken> {
    word.map(|(mut w, count)| {
        w.confidence /= count.max(1) as f32;
        w
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dictionary() -> Vec<String> {
        ["a", "b", "c", "搜", "\u{3000}"].map(String::from).to_vec()
    }

    /// Rows of 7 classes (blank, a, b, c, 搜, ideographic space, space), each with `p` on
    /// its class.
    fn rows(classes: &[(usize, f32)]) -> Vec<f32> {
        classes
            .iter()
            .flat_map(|&(class, p)| {
                let mut row = vec![(1.0 - p) / 6.0; 7];
                row[class] = p;
                row
            })
            .collect()
    }

    #[test]
    fn repeats_collapse_blanks_separate_and_spaces_split_words() {
        // a a _ a b space c c
        let p = rows(&[
            (1, 0.9),
            (1, 0.9),
            (0, 0.9),
            (1, 0.8),
            (2, 0.7),
            (6, 0.9),
            (3, 0.6),
            (3, 0.6),
        ]);
        let d = decode(&p, 8, 7, &dictionary());
        assert_eq!(d.text, "aab c");
        assert_eq!(d.words.len(), 2);
        assert_eq!(d.words[0].text, "aab");
        assert_eq!((d.words[0].first_step, d.words[0].last_step), (0, 4));
        assert!((d.words[0].confidence - 0.8).abs() < 1e-6);
        assert_eq!(d.words[1].text, "c");
        assert_eq!((d.words[1].first_step, d.words[1].last_step), (6, 6));
        // Five characters read (a, a, b, space, c): the mean of their probabilities.
        assert!((d.confidence - (0.9 + 0.8 + 0.7 + 0.9 + 0.6) / 5.0).abs() < 1e-6);
    }

    #[test]
    fn an_ideographic_space_parts_words_and_nothing_read_is_empty() {
        let d = decode(
            &rows(&[(4, 0.99), (5, 0.9), (1, 0.97)]),
            3,
            7,
            &dictionary(),
        );
        assert_eq!(d.text, "搜 a");
        assert_eq!(d.words.len(), 2);
        let blank = decode(&rows(&[(0, 0.9), (0, 0.9)]), 2, 7, &dictionary());
        assert_eq!((blank.text.as_str(), blank.confidence), ("", 0.0));
        assert!(blank.words.is_empty());
        // Output of the wrong shape is nothing, not a panic.
        assert_eq!(decode(&[0.5; 5], 2, 7, &dictionary()).text, "");
        assert_eq!(decode(&[], 0, 0, &dictionary()).text, "");
    }
}

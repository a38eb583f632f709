//! Where the recording a run is compared with is: the one named on the command line
//! (`tapscope open RUN --against ORIGINAL`), else the one the run's header says it replays,
//! looked for from the current folder, then from the folder the run is in.

use std::path::{Path, PathBuf};

use crate::gui::error::CompareError;
use crate::gui::recording::{Recording, is_recording};

/// The original of `run`: `against` when given, else its header's `replay_of`; `None`
/// when the run names none and none was given.
pub fn original_path(
    run: &Recording,
    against: Option<&Path>,
) -> Option<Result<PathBuf, CompareError>> {
    let (named, tried) = match against {
        Some(path) => (path.display().to_string(), vec![path.to_path_buf()]),
        None => {
            let named = run.recording.header.replay_of.clone()?;
            let mut tried = vec![PathBuf::from(&named)];
            if let Some(parent) = run.recording.dir.parent() {
                let beside = parent.join(&named);
                if !tried.contains(&beside) {
                    tried.push(beside);
                }
            }
            (named, tried)
        }
    };
    Some(match tried.iter().find(|path| is_recording(path)) {
        Some(found) => Ok(found.clone()),
        None => Err(CompareError::NotFound {
            run: run.name.clone(),
            named,
            tried,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{Fixture, Made};
    use super::*;

    #[test]
    fn the_original_is_found_beside_the_run_its_header_names_it_from() {
        let fixture = Fixture::new();
        fixture.write("original", None, &[Made::Ok("a")]);
        let run = fixture.write("run", Some("original"), &[Made::Ok("a")]);
        let found = original_path(&run, None).expect("named").expect("found");
        assert_eq!(found, fixture.path("original"));
        // Named on the command line, the header is not read.
        let other = fixture.path("run");
        let given = original_path(&run, Some(&other))
            .expect("given")
            .expect("found");
        assert_eq!(given, other);
    }

    #[test]
    fn a_run_naming_no_original_is_a_recording_and_a_missing_one_says_where_it_looked() {
        let fixture = Fixture::new();
        let alone = fixture.write("alone", None, &[Made::Ok("a")]);
        assert!(original_path(&alone, None).is_none());
        let run = fixture.write("run", Some("gone"), &[Made::Ok("a")]);
        let error = original_path(&run, None)
            .expect("named")
            .expect_err("missing");
        let CompareError::NotFound { tried, .. } = &error else {
            panic!("{error}");
        };
        assert_eq!(tried, &[PathBuf::from("gone"), fixture.path("gone")]);
        let said = error.to_string();
        assert!(said.starts_with("run replays gone, which is not a recording at gone or "));
        assert!(said.ends_with("; the run opens alone"), "{said}");
    }
}

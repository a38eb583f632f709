//! The live session's recording, read again whenever it grows, so that the person's and
//! agents' steps show on the timeline as they happen; the live screen's timeline is that
//! recording's.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tapscope_core::recording::SESSION_FILE;

use crate::gui::document::Document;
use crate::gui::recording::{self, RecordingInfo, StepInfo};
use crate::gui::selection::Selection;
use crate::gui::workbench::Workbench;

/// Where a live session is recorded: the folder the person named, else a new one under the
/// system's temporary folder (the timeline needs a recording).
pub fn record_dir(chosen: &str, device: &str) -> PathBuf {
    let chosen = chosen.trim();
    if !chosen.is_empty() {
        return PathBuf::from(chosen);
    }
    let device: String = device
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    std::env::temp_dir()
        .join("tapscope-live")
        .join(format!("{device}-{unix_ms}"))
}

/// A recording being written by the live session, and how much of its log was read.
#[derive(Debug)]
pub struct Follow {
    dir: PathBuf,
    /// The log's length when last read: it only grows, a step at a time.
    read: u64,
    /// The recording as last read, whose loaded screens the next reading keeps.
    earlier: Option<Arc<RecordingInfo>>,
}

impl Follow {
    /// Follows the recording just started in `dir` (its header written, no steps yet).
    pub fn new(dir: PathBuf) -> Self {
        let read = log_len(&dir).unwrap_or(0);
        Self {
            dir,
            read,
            earlier: None,
        }
    }

    /// The recording's documents, one per step, when steps were written since the last
    /// call; the reason when it could not be read.
    pub fn grown(&mut self) -> Option<Result<Vec<Document>, String>> {
        // A folder that went away: the journal says so when it next writes.
        let len = log_len(&self.dir)?;
        if len == self.read {
            return None;
        }
        self.read = len;
        let read = recording::reread(&self.dir, self.earlier.as_deref());
        if let Some(info) = read.as_ref().ok().and_then(|d| d.first()?.step.as_deref()) {
            self.earlier = Some(Arc::clone(&info.recording));
        }
        Some(read.map_err(|e| format!("the timeline could not read the recording: {e}")))
    }
}

fn log_len(dir: &Path) -> Option<u64> {
    Some(std::fs::metadata(dir.join(SESSION_FILE)).ok()?.len())
}

impl super::LiveState {
    /// The latest step of the live recording when `current` is the live screen: the
    /// timeline shows it under the live screen.
    pub fn latest_step<'a>(
        &self,
        documents: &'a [Document],
        current: usize,
    ) -> Option<&'a StepInfo> {
        let link = self.link.as_ref().filter(|l| l.document == Some(current))?;
        let steps = link.steps.as_ref()?;
        documents.get(steps.end.checked_sub(1)?)?.step.as_deref()
    }
}

impl Workbench {
    /// Puts the live recording's steps, read again, in place of the ones shown before.
    /// A person on its last step follows the new last one; one on an earlier step, or on
    /// another document, stays where they are.
    pub(super) fn show_steps(&mut self, steps: Vec<Document>) {
        let Some(link) = self.live.link.as_mut().filter(|_| !steps.is_empty()) else {
            return;
        };
        let old = link.steps.clone().unwrap_or_else(|| {
            let end = self.documents.len();
            end..end
        });
        let new = old.start..old.start + steps.len();
        let was_on = old
            .contains(&self.current)
            .then(|| self.current - old.start);
        let following = was_on.is_some() && self.current + 1 == old.end;
        self.documents.splice(old.clone(), steps);
        let shift = |at: usize| {
            if at >= old.end {
                at + new.len() - old.len()
            } else {
                at
            }
        };
        link.document = link.document.map(shift);
        link.steps = Some(new.clone());
        self.current = match was_on {
            Some(_) if following => new.end.saturating_sub(1).max(new.start),
            Some(offset) => new.start + offset.min(new.len().saturating_sub(1)),
            None => shift(self.current),
        };
        // A step stays the same once written, so only a move to the new last step makes
        // the selection another screen's (the analysis follows the document on its own).
        if following {
            self.selection = Selection::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::super::Link;
    use super::*;

    /// A workbench with documents `names`, the live screen at `live`, on document `current`.
    fn workbench(names: &[&str], live: usize, current: usize) -> Workbench {
        let mut workbench = Workbench::new();
        workbench.documents = names.iter().map(|n| document(n)).collect();
        workbench.current = current;
        let (commands, _) = channel();
        let (_, updates) = channel();
        let mut link = Link::new("sim".into(), commands, updates);
        link.document = Some(live);
        workbench.live.link = Some(link);
        workbench
    }

    fn document(name: &str) -> Document {
        Document::without_screen(name.to_owned())
    }

    fn steps(count: usize) -> Vec<Document> {
        (1..=count)
            .map(|k| document(&format!("step {k}")))
            .collect()
    }

    fn names(workbench: &Workbench) -> Vec<&str> {
        workbench
            .documents
            .iter()
            .map(|d| d.name.as_str())
            .collect()
    }

    fn link(workbench: &Workbench) -> &Link {
        workbench.live.link.as_ref().expect("a link")
    }

    #[test]
    fn the_first_steps_go_after_the_documents_and_the_live_screen_stays_on_show() {
        let mut workbench = workbench(&["dump", "live"], 1, 1);
        workbench.show_steps(steps(2));
        assert_eq!(names(&workbench), ["dump", "live", "step 1", "step 2"]);
        assert_eq!(link(&workbench).steps, Some(2..4));
        assert_eq!(workbench.current, 1);
    }

    #[test]
    fn a_person_on_the_last_step_follows_the_new_last_one() {
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_steps(steps(2));
        workbench.current = 2;
        workbench.show_steps(steps(4));
        assert_eq!(
            names(&workbench),
            ["live", "step 1", "step 2", "step 3", "step 4"]
        );
        assert_eq!(workbench.current, 4);
    }

    #[test]
    fn a_person_on_an_earlier_step_stays_on_it() {
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_steps(steps(3));
        workbench.current = 2;
        workbench.show_steps(steps(5));
        assert_eq!(workbench.documents[workbench.current].name, "step 2");
    }

    #[test]
    fn documents_after_the_steps_move_with_them() {
        // The live screen connected after the steps were shown, then a dump was opened.
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_steps(steps(1));
        workbench.documents.push(document("later"));
        workbench.documents.push(document("live again"));
        workbench.live.link.as_mut().expect("a link").document = Some(3);
        workbench.current = 2;
        workbench.show_steps(steps(3));
        assert_eq!(
            names(&workbench),
            ["live", "step 1", "step 2", "step 3", "later", "live again"]
        );
        assert_eq!(workbench.documents[workbench.current].name, "later");
        assert_eq!(link(&workbench).document, Some(5));
    }

    #[test]
    fn no_steps_change_nothing() {
        let mut workbench = workbench(&["live"], 0, 0);
        workbench.show_steps(Vec::new());
        assert_eq!(names(&workbench), ["live"]);
        assert_eq!(link(&workbench).steps, None);
    }

    #[test]
    fn a_chosen_folder_is_kept_and_an_empty_one_is_a_new_temporary_folder() {
        assert_eq!(record_dir(" runs/a ", "sim"), PathBuf::from("runs/a"));
        let made = record_dir("", "10.0.0.5:5555");
        assert!(made.starts_with(std::env::temp_dir().join("tapscope-live")));
        let name = made.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(name.starts_with("10-0-0-5-5555-"), "{name}");
    }
}

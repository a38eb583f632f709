//! Reading a pruned tree's text as a scripted agent does: its version and its handles.
//! Every handle read out of tree text in the tests is read here.

use tapscope_core::render::line_handle;

/// The version of the last tree in `text` (an act's result holds the tree it left).
pub fn version(text: &str) -> Option<&str> {
    text.lines().filter_map(version_line).next_back()
}

/// Every handle (`{version}_{i}`) in a tree's text, in line order; none when the text has
/// no version line.
pub fn handles(tree: &str) -> Vec<String> {
    numbered(tree).map(|(handle, _)| handle).collect()
}

/// The handle of the first line with an `i` that `wanted` accepts.
pub fn handle_where(tree: &str, wanted: impl Fn(&str) -> bool) -> Option<String> {
    numbered(tree)
        .find(|(_, line)| wanted(line))
        .map(|(handle, _)| handle)
}

/// The line of `tree` that `handle` names.
pub fn line_of<'t>(tree: &'t str, handle: &str) -> Option<&'t str> {
    numbered(tree).find_map(|(named, line)| (named == handle).then_some(line))
}

/// The lines of `tree` that carry a handle (`[12] …`), in whichever tree they are.
pub fn handled_lines(tree: &str) -> impl Iterator<Item = &str> {
    tree.lines().filter(|line| line_handle(line).is_some())
}

/// Whether a line with a handle quotes `label` whole: `"TapTube"`, not `"TapTube home"`
/// nor a `# acted on "TapTube"` comment.
pub fn acts_on(tree: &str, label: &str) -> bool {
    let quoted = format!("\"{label}\"");
    handled_lines(tree).any(|line| line.contains(&quoted))
}

/// The lines that carry an `i`, each with its handle: the version of the tree the line is
/// in, an underscore and the `i`. Lines above the first version line name no handle.
fn numbered(tree: &str) -> impl Iterator<Item = (String, &str)> {
    tree.lines()
        .scan(None, |version, line| {
            if let Some(found) = version_line(line) {
                *version = Some(found);
            }
            Some((*version, line))
        })
        .filter_map(|(version, line)| {
            let i = line_handle(line)?;
            Some((format!("{}_{i}", version?), line))
        })
}

/// The version a `version: "…"` line gives.
fn version_line(line: &str) -> Option<&str> {
    let version = line.trim().strip_prefix("version: ")?;
    Some(version.trim_matches('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TREE: &str =
        "version: \"0123456789ab\"\napp: a\n[1] \"Send\"\n\"text\"\n  [2] list #feed scroll\n";

    #[test]
    fn handles_are_the_version_and_each_i() {
        assert_eq!(handles(TREE), ["0123456789ab_1", "0123456789ab_2"]);
        assert!(handles("[1] \"Send\"").is_empty());
    }

    #[test]
    fn a_handle_is_found_by_its_line_and_a_line_by_its_handle() {
        let list = handle_where(TREE, |l| l.contains(" scroll"));
        assert_eq!(list.as_deref(), Some("0123456789ab_2"));
        assert_eq!(handle_where(TREE, |l| l.contains("nothing")), None);
        assert_eq!(line_of(TREE, "0123456789ab_1"), Some("[1] \"Send\""));
        assert_eq!(line_of(TREE, "ba9876543210_1"), None);
    }

    #[test]
    fn each_line_takes_the_version_of_its_own_tree() {
        let two = format!("{TREE}version: \"ba9876543210\"\n[1] \"Again\"\n");
        assert_eq!(version(&two), Some("ba9876543210"));
        assert_eq!(
            handle_where(&two, |l| l.contains("Again")).as_deref(),
            Some("ba9876543210_1")
        );
        assert_eq!(handles(&two)[0], "0123456789ab_1");
    }

    #[test]
    fn a_label_is_acted_on_only_on_a_line_with_a_handle() {
        let tree = "# acted on \"Gone\" (i 4)\n[1] \"Send\" long\n\"Sent\"\n  [2] \"Send later\"\n";
        assert_eq!(
            handled_lines(tree).collect::<Vec<_>>(),
            ["[1] \"Send\" long", "  [2] \"Send later\""]
        );
        assert!(acts_on(tree, "Send"));
        assert!(acts_on(tree, "Send later"));
        assert!(!acts_on(tree, "Sent"));
        assert!(!acts_on(tree, "Gone"));
        assert!(!acts_on(tree, "Send l"));
    }
}

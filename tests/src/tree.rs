//! Reading a pruned tree's text as a scripted agent does: its version and its handles.

/// Every handle (`{version}_{i}`) in a tree's text, in line order; none when the text has
/// no version line.
pub fn handles(tree: &str) -> Vec<String> {
    let Some(version) = tree
        .lines()
        .find_map(|l| l.trim().strip_prefix("version: \""))
        .map(|v| v.trim_end_matches('"'))
    else {
        return Vec::new();
    };
    tree.lines()
        .filter_map(|l| l.split("i: ").nth(1)?.split_whitespace().next())
        .map(|i| format!("{version}_{i}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_the_version_and_each_i() {
        let tree = "version: \"0123456789ab\"\napp: a\n- i: 1 \"Send\"\n- \"text\"\n  - i: 2 list #feed scroll\n";
        assert_eq!(handles(tree), ["0123456789ab_1", "0123456789ab_2"]);
        assert!(handles("- i: 1 \"Send\"").is_empty());
    }
}

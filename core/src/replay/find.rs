//! A recorded handle's node found again on today's screen by what it is — its id, role,
//! text and place among its siblings and ancestors, as `tree_diff` matches nodes — never by
//! its version or `i`.

use crate::inspect::tree_diff::counterparts;
use crate::model::Tree;
use crate::prune::{Pruned, id_name};

use super::Ignore;

/// One screen: its dump and how it was pruned.
#[derive(Clone, Copy, Debug)]
pub struct Screen<'a> {
    pub tree: &'a Tree,
    pub pruned: &'a Pruned,
}

/// `screen` as a replay compares it: labels masked by `ignore`, and every node known by its
/// resource id where the dump gives it one (the printed tree leaves the id out of nodes
/// that have text, but a renamed button keeps its id).
pub fn comparable(screen: Screen<'_>, ignore: &Ignore) -> Pruned {
    let mut copy = ignore.masked(screen.pruned);
    for node in &mut copy.nodes {
        if node.id.is_empty()
            && let Some(id) = screen
                .tree
                .nodes
                .get(node.raw)
                .and_then(|raw| id_name(&raw.resource_id))
        {
            node.id = id.to_owned();
        }
    }
    copy
}

/// Where the node a handle named is on today's screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Today's node, with its `i` and how it reads.
    At { i: usize, label: String },
    /// Today's counterpart is printed without an `i`.
    NotActionable { label: String },
    /// No node of today's screen is that node.
    Gone,
}

/// Finds the node with handle index `i` on `then` among the nodes of `now`, both made
/// [`comparable`] first (a counter in a label does not make it another node, a renamed
/// node with its id is the same); [`Found::Gone`] also when `then` has no node `i`.
pub fn find_again(then: Screen<'_>, i: usize, now: Screen<'_>, ignore: &Ignore) -> Found {
    let Some(&at) = i.checked_sub(1).and_then(|k| then.pruned.handles.get(k)) else {
        return Found::Gone;
    };
    let (old, new) = (comparable(then, ignore), comparable(now, ignore));
    let pairs = counterparts(&old, &new);
    let meant = &old.nodes[at];
    // Matched by place or by a cut-short label, a node with another id is another element.
    let same_element = |&n: &usize| {
        meant.id.is_empty() || new.nodes[n].id.is_empty() || meant.id == new.nodes[n].id
    };
    match pairs
        .get(at)
        .copied()
        .flatten()
        .filter(same_element)
        .map(|n| &now.pruned.nodes[n])
    {
        Some(node) => match node.i {
            Some(i) => Found::At {
                i,
                label: node.name().to_string(),
            },
            None => Found::NotActionable {
                label: node.name().to_string(),
            },
        },
        None => Found::Gone,
    }
}

/// `arguments` with every string equal to `old` (the recorded handle) replaced by `new`.
pub fn with_handle(arguments: &serde_json::Value, old: &str, new: &str) -> serde_json::Value {
    use serde_json::Value;
    match arguments {
        Value::String(s) if s == old => Value::String(new.to_owned()),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| with_handle(v, old, new)).collect())
        }
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), with_handle(v, old, new)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune_with_version};

    fn screen(body: &str, version: &str) -> (Tree, Pruned) {
        let xml = format!(
            r#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">{body}</node></hierarchy>"#
        );
        let tree = parse_str(&xml).unwrap();
        let pruned = prune_with_version(&tree, &PruneRules::default(), version.into());
        (tree, pruned)
    }

    fn find(then: &(Tree, Pruned), i: usize, now: &(Tree, Pruned)) -> Found {
        find_again(
            Screen {
                tree: &then.0,
                pruned: &then.1,
            },
            i,
            Screen {
                tree: &now.0,
                pruned: &now.1,
            },
            &Ignore::default(),
        )
    }

    fn button(text: &str, id: &str, bounds: &str) -> String {
        format!(
            r#"<node text="{text}" resource-id="app:id/{id}" class="android.widget.Button" clickable="true" package="app" bounds="{bounds}"/>"#
        )
    }

    #[test]
    fn a_renamed_and_moved_button_is_found_by_its_id_under_its_new_i() {
        let then = screen(
            &[
                button("Send", "send", "[0,0][200,100]"),
                button("Cancel", "cancel", "[0,200][200,300]"),
            ]
            .concat(),
            "aaaaaaaaaaaa",
        );
        let now = screen(
            &[
                button("Back", "back", "[0,0][200,100]"),
                button("Cancel", "cancel", "[0,200][200,300]"),
                button("Send now", "send", "[600,900][900,1000]"),
            ]
            .concat(),
            "bbbbbbbbbbbb",
        );
        let send_then = then
            .1
            .nodes
            .iter()
            .find(|n| n.label == "Send")
            .unwrap()
            .i
            .unwrap();
        let Found::At { i, label } = find(&then, send_then, &now) else {
            panic!("found");
        };
        assert_eq!(now.1.resolve(i).unwrap().label, "Send now");
        assert!(label.contains("Send now"), "{label}");
    }

    #[test]
    fn a_node_that_is_gone_or_a_handle_past_the_end_is_gone() {
        let then = screen(&button("Send", "send", "[0,0][200,100]"), "aaaaaaaaaaaa");
        let now = screen(
            &button("Cancel", "cancel", "[0,0][200,100]"),
            "bbbbbbbbbbbb",
        );
        // Same place and role, other id: another element, not this one renamed.
        assert_eq!(find(&then, 1, &now), Found::Gone);
        assert_eq!(find(&then, 99, &then), Found::Gone);
    }

    #[test]
    fn a_counter_in_a_label_does_not_make_it_another_node() {
        let row = |n: &str| {
            format!(
                r#"<node text="Live: {n} watching" class="android.widget.TextView" clickable="true" package="app" bounds="[0,0][500,100]"/>"#
            )
        };
        let (then, now) = (
            screen(&row("12"), "aaaaaaaaaaaa"),
            screen(&row("4096"), "bbbbbbbbbbbb"),
        );
        assert!(matches!(find(&then, 1, &now), Found::At { i: 1, .. }));
    }

    #[test]
    fn only_the_recorded_handle_is_replaced_in_the_arguments() {
        let args = serde_json::json!({"target": "aaaaaaaaaaaa_3", "direction": "down", "n": [1]});
        let replaced = with_handle(&args, "aaaaaaaaaaaa_3", "bbbbbbbbbbbb_5");
        assert_eq!(
            replaced,
            serde_json::json!({"target": "bbbbbbbbbbbb_5", "direction": "down", "n": [1]})
        );
    }
}

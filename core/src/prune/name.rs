//! One name for a node, in words, wherever tapscope names one: what an action acted on,
//! the line a recall problem points at, a line of a structural diff, the node a stale
//! action meant, a lost node. One rule picks what names it (its text, else its
//! description, else its id name, else its class) and cuts it to [`NAME_CHARS`]; the forms
//! differ only in what they put around it.
//!
//! ```
//! use tapscope_core::{parse, prune::{NodeName, PruneRules, prune}};
//! let xml = r#"<hierarchy><node text="Send" class="android.widget.Switch" package="app"
//!   clickable="true" bounds="[0,0][200,100]"/></hierarchy>"#;
//! let pruned = prune(&parse::parse_str(xml).unwrap(), &PruneRules::default());
//! let name = NodeName::of(&pruned.nodes[0]);
//! assert_eq!(name.to_string(), r#"switch "Send""#);
//! assert_eq!(name.acted_on(), r#""Send" (i 1)"#);
//! assert_eq!(name.reference(), "i 1");
//! assert_eq!(NodeName::raw("android.widget.Button", "", "Back").plain(), "Back (Button)");
//! ```

use std::fmt;

use super::{PrunedNode, one_line, quote, truncate};

/// The most characters of text a name shows; longer texts end in `…`.
pub const NAME_CHARS: usize = 40;

/// What names a node.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shows {
    /// Its text, else its description: on one line, cut to [`NAME_CHARS`].
    Text(String),
    /// The readable name of its resource id.
    Id(String),
    /// The short class name of an empty shell printed as one.
    Class(String),
    /// Nothing a person could read.
    Nothing,
}

/// A node's name: its role word, what it shows, its class when it has no line (a raw
/// node), and its handle index. `Display` is the form that lists nodes: `button "Send"`,
/// `list #feed`, `image`, `"9:45 · Restoring a rusted hand plane · 8…"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeName {
    role: Option<&'static str>,
    /// The short class of a raw node, which has no role word of its own.
    class: Option<String>,
    shows: Shows,
    i: Option<usize>,
}

impl NodeName {
    /// The name of a printed node.
    pub fn of(node: &PrunedNode) -> Self {
        let shows = if !node.label.is_empty() {
            Shows::Text(truncate(&node.label, NAME_CHARS))
        } else if !node.desc.is_empty() {
            Shows::Text(truncate(&node.desc, NAME_CHARS))
        } else if !node.id.is_empty() {
            Shows::Id(node.id.clone())
        } else if !node.shell_class.is_empty() {
            Shows::Class(node.shell_class.clone())
        } else {
            Shows::Nothing
        };
        Self {
            role: node.role,
            class: None,
            shows,
            i: node.i,
        }
    }

    /// The name of a raw node by its class, text and description: a node with no line of
    /// its own (one the recall check found lost) has no role word or id name to add.
    pub fn raw(class: &str, text: &str, desc: &str) -> Self {
        let short = class.rsplit('.').next().unwrap_or(class);
        let shows = [text, desc]
            .into_iter()
            .map(one_line)
            .find(|t| !t.is_empty())
            .map_or(Shows::Nothing, |t| Shows::Text(truncate(&t, NAME_CHARS)));
        Self {
            role: None,
            class: (!short.is_empty()).then(|| short.to_owned()),
            shows,
            i: None,
        }
    }

    pub fn role(&self) -> Option<&'static str> {
        self.role
    }

    pub fn shows(&self) -> &Shows {
        &self.shows
    }

    pub fn i(&self) -> Option<usize> {
        self.i
    }

    /// What an action acted on: what the node shows, else its role word, and its handle
    /// index: `"Send" (i 5)`, `#feed (i 3)`, `image (i 2)`.
    pub fn acted_on(&self) -> String {
        let what = self
            .subject()
            .or_else(|| self.role.map(str::to_owned))
            .unwrap_or_else(|| "element".to_owned());
        match self.i {
            Some(i) => format!("{what} (i {i})"),
            None => what,
        }
    }

    /// The shortest way to find the node's line: `i 5`, or the listing form when the line
    /// has no handle.
    pub fn reference(&self) -> String {
        match self.i {
            Some(i) => format!("i {i}"),
            None => self.to_string(),
        }
    }

    /// Without quotes, the kind in parentheses: `Back (Button)`, `Button`, `#feed (list)`;
    /// for labels of controls, where quotes would be noise.
    pub fn plain(&self) -> String {
        let kind = self.role.or(self.class.as_deref());
        let what = match &self.shows {
            Shows::Text(text) => Some(text.as_str()),
            Shows::Id(id) => return with_kind(&format!("#{id}"), kind),
            Shows::Class(class) => Some(class.as_str()),
            Shows::Nothing => None,
        };
        match (what, kind) {
            (Some(what), kind) => with_kind(what, kind),
            (None, Some(kind)) => kind.to_owned(),
            (None, None) => "unlabelled node".to_owned(),
        }
    }

    /// What the node shows as a line prints it: `"Send"`, `#feed`, `(FrameLayout)`.
    fn subject(&self) -> Option<String> {
        match &self.shows {
            Shows::Text(text) => Some(quote(text)),
            Shows::Id(id) => Some(format!("#{id}")),
            Shows::Class(class) => Some(format!("({class})")),
            Shows::Nothing => None,
        }
    }
}

fn with_kind(what: &str, kind: Option<&str>) -> String {
    match kind {
        Some(kind) => format!("{what} ({kind})"),
        None => what.to_owned(),
    }
}

impl fmt::Display for NodeName {
    /// The role word, then what the node shows (its class after a raw node's text):
    /// `button "Send"`, `list #feed`, `image`, `"Back" (Button)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = self.subject();
        let class = self.class.as_deref().filter(|_| self.role.is_none());
        match (self.role, subject) {
            (Some(role), Some(subject)) => write!(f, "{role} {subject}"),
            (Some(role), None) => f.write_str(role),
            (None, Some(subject)) => match class {
                Some(class) => write!(f, "{subject} ({class})"),
                None => f.write_str(&subject),
            },
            (None, None) => match class {
                Some(class) => write!(f, "({class})"),
                None => f.write_str("unlabelled node"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_str;
    use crate::prune::{PruneRules, prune};

    fn names(xml: &str) -> Vec<NodeName> {
        let tree = parse_str(xml).unwrap();
        let pruned = prune(&tree, &PruneRules::default());
        pruned.nodes.iter().map(NodeName::of).collect()
    }

    #[test]
    fn text_is_quoted_escaped_and_cut() {
        let long = "a".repeat(NAME_CHARS + 5);
        let xml = format!(
            r#"<hierarchy><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
  <node text="Say &quot;hi&quot;" class="android.widget.Button" package="app" clickable="true" bounds="[0,0][200,100]"/>
  <node text="{long}" class="android.widget.TextView" package="app" bounds="[0,200][1080,300]"/>
</node></hierarchy>"#
        );
        let names = names(&xml);
        assert_eq!(names[0].to_string(), r#""Say \"hi\"""#);
        assert_eq!(names[0].acted_on(), r#""Say \"hi\"" (i 1)"#);
        let cut = format!("\"{}…\"", "a".repeat(NAME_CHARS));
        assert_eq!(names[1].to_string(), cut);
        assert_eq!(
            names[1].reference(),
            cut,
            "a line without i is named by its text"
        );
        assert_eq!(names[1].acted_on(), cut);
    }

    #[test]
    fn ids_roles_and_nothing() {
        let xml = r#"<hierarchy><node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
  <node resource-id="app:id/feed" class="androidx.recyclerview.widget.RecyclerView" package="app" scrollable="true" bounds="[0,0][1080,2000]">
    <node text="Item" class="android.widget.TextView" package="app" bounds="[0,0][1080,200]"/>
  </node>
  <node class="android.widget.ImageView" package="app" clickable="true" bounds="[0,2000][200,2200]"/>
</node></hierarchy>"#;
        let names = names(xml);
        let feed = names.iter().find(|n| n.shows == Shows::Id("feed".into()));
        let feed = feed.expect("the list is named by its id");
        assert_eq!(feed.to_string(), "list #feed");
        assert!(feed.acted_on().starts_with("#feed (i "));
        assert_eq!(feed.plain(), "#feed (list)");
        let image = names.iter().find(|n| n.shows == Shows::Nothing).unwrap();
        assert_eq!(image.to_string(), "image");
        assert!(image.acted_on().starts_with("image (i "));
    }

    #[test]
    fn raw_nodes_are_named_by_text_then_description_then_class() {
        let back = NodeName::raw("android.widget.Button", " ", "Back\nnow");
        assert_eq!(back.plain(), "Back now (Button)");
        assert_eq!(back.to_string(), r#""Back now" (Button)"#);
        let bare = NodeName::raw("android.widget.Button", "", "");
        assert_eq!(bare.plain(), "Button");
        assert_eq!(bare.to_string(), "(Button)");
        assert_eq!(NodeName::raw("", "", "").plain(), "unlabelled node");
    }
}

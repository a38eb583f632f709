//! uiautomator2's `Selector` (a JSON object: the `mask` bits say which fields count) and
//! the two ways its server searches with one (openatx/android-uiautomator-server,
//! `stub/Selector.java`):
//!
//! - as a `BySelector` (`toBySelector`), when the selector has no `index`, `instance`,
//!   child or sibling: every window, matching case-sensitively (`By.textContains` is a
//!   pattern), a class starting with `.` read as `android.widget.…`;
//! - as a `UiSelector` (`toUiSelector`) otherwise: the active window only (androidx's
//!   `QueryController` searches `getRootInActiveWindow()`), `…Contains` and
//!   `…StartsWith` ignoring case, `index` (the place among siblings) and `instance` (the
//!   n-th match in document order) counted, and each `child` step searching under the
//!   nodes found so far, each `sibling` step under their parents.

use serde_json::Value;

use crate::model::Flags;

use super::pattern::{Pattern, PatternError};
use super::rpc::RpcError;
use super::tree::{Node, Screen};

/// The deepest chain of `child` and `sibling` selectors read.
const MAX_CHAIN: usize = 16;

const TEXT: u64 = 0x01;
const TEXT_CONTAINS: u64 = 0x02;
const TEXT_MATCHES: u64 = 0x04;
const TEXT_STARTS_WITH: u64 = 0x08;
const CLASS_NAME: u64 = 0x10;
const CLASS_NAME_MATCHES: u64 = 0x20;
const DESCRIPTION: u64 = 0x40;
const DESCRIPTION_CONTAINS: u64 = 0x80;
const DESCRIPTION_MATCHES: u64 = 0x0100;
const DESCRIPTION_STARTS_WITH: u64 = 0x0200;
const CHECKABLE: u64 = 0x0400;
const CHECKED: u64 = 0x0800;
const CLICKABLE: u64 = 0x1000;
const LONG_CLICKABLE: u64 = 0x2000;
const SCROLLABLE: u64 = 0x4000;
const ENABLED: u64 = 0x8000;
const FOCUSABLE: u64 = 0x01_0000;
const FOCUSED: u64 = 0x02_0000;
const SELECTED: u64 = 0x04_0000;
const PACKAGE_NAME: u64 = 0x08_0000;
const PACKAGE_NAME_MATCHES: u64 = 0x10_0000;
const RESOURCE_ID: u64 = 0x20_0000;
const RESOURCE_ID_MATCHES: u64 = 0x40_0000;
const INDEX: u64 = 0x80_0000;
const INSTANCE: u64 = 0x0100_0000;

/// The fields a `BySelector` can express.
const BY_FIELDS: u64 = INDEX - 1;

/// Which text of a node a criterion reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Text,
    Class,
    Desc,
    Package,
    Resource,
}

impl Field {
    fn of(self, node: &Node) -> &str {
        match self {
            Field::Text => &node.text,
            Field::Class => &node.class,
            Field::Desc => &node.desc,
            Field::Package => &node.package,
            Field::Resource => &node.resource_id,
        }
    }
}

#[derive(Clone, Debug)]
enum Test {
    Equals(String),
    Contains(String),
    StartsWith(String),
    Matches(Pattern),
}

/// One criterion, with the mask bit that set it.
#[derive(Clone, Debug)]
struct Criterion {
    bit: u64,
    field: Field,
    test: Test,
}

/// A selector as the server reads it.
#[derive(Clone, Debug, Default)]
pub(super) struct Selector {
    mask: u64,
    texts: Vec<Criterion>,
    flags: Vec<(u64, Flags, bool)>,
    index: i64,
    instance: i64,
    /// `child` (true) or `sibling` steps, each with its selector.
    chain: Vec<(bool, Selector)>,
}

/// A field with the wrong type: Jackson refuses the whole request (`JSON parse error`).
fn bad(key: &str, value: &Value) -> RpcError {
    RpcError::Parse(format!("Selector.{key} cannot be read from {value}"))
}

fn string(key: &str, value: &Value) -> Result<Option<String>, RpcError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        _ => Err(bad(key, value)),
    }
}

fn boolean(key: &str, value: &Value) -> Result<bool, RpcError> {
    match value {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(*b),
        Value::Number(n) => Ok(n.as_f64().is_some_and(|n| n != 0.0)),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(bad(key, value)),
    }
}

fn integer(key: &str, value: &Value) -> Result<i64, RpcError> {
    super::rpc::integer(value).ok_or_else(|| bad(key, value))
}

impl Selector {
    /// The selector a JSON-RPC parameter holds.
    pub(super) fn read(value: &Value) -> Result<Self, RpcError> {
        Self::read_nested(value, 0)
    }

    fn read_nested(value: &Value, depth: usize) -> Result<Self, RpcError> {
        let Value::Object(fields) = value else {
            return Err(RpcError::Parse(format!(
                "a Selector is a JSON object, not {value}"
            )));
        };
        if depth > MAX_CHAIN {
            return Err(RpcError::Parse(format!(
                "selectors nested deeper than {MAX_CHAIN} child or sibling steps"
            )));
        }
        let mut strings: Vec<(u64, Field, &str, String)> = Vec::new();
        let mut selector = Selector::default();
        let (mut relations, mut subs) = (Vec::new(), Vec::new());
        for (key, value) in fields {
            let text = |bit, field| -> Result<Option<(u64, Field, &str, String)>, RpcError> {
                Ok(string(key, value)?.map(|s| (bit, field, key.as_str(), s)))
            };
            let found = match key.as_str() {
                "text" => text(TEXT, Field::Text)?,
                "textContains" => text(TEXT_CONTAINS, Field::Text)?,
                "textMatches" => text(TEXT_MATCHES, Field::Text)?,
                "textStartsWith" => text(TEXT_STARTS_WITH, Field::Text)?,
                "className" => text(CLASS_NAME, Field::Class)?,
                "classNameMatches" => text(CLASS_NAME_MATCHES, Field::Class)?,
                "description" => text(DESCRIPTION, Field::Desc)?,
                "descriptionContains" => text(DESCRIPTION_CONTAINS, Field::Desc)?,
                "descriptionMatches" => text(DESCRIPTION_MATCHES, Field::Desc)?,
                "descriptionStartsWith" => text(DESCRIPTION_STARTS_WITH, Field::Desc)?,
                "packageName" => text(PACKAGE_NAME, Field::Package)?,
                "packageNameMatches" => text(PACKAGE_NAME_MATCHES, Field::Package)?,
                "resourceId" => text(RESOURCE_ID, Field::Resource)?,
                "resourceIdMatches" => text(RESOURCE_ID_MATCHES, Field::Resource)?,
                "checkable" | "checked" | "clickable" | "longClickable" | "scrollable"
                | "enabled" | "focusable" | "focused" | "selected" => {
                    let (bit, flag) = flag_of(key);
                    selector.flags.push((bit, flag, boolean(key, value)?));
                    None
                }
                "index" => {
                    selector.index = integer(key, value)?;
                    None
                }
                "instance" => {
                    selector.instance = integer(key, value)?;
                    None
                }
                "mask" => {
                    selector.mask = u64::try_from(integer(key, value)?).unwrap_or(0);
                    None
                }
                "childOrSibling" => {
                    relations = match value {
                        Value::Null => Vec::new(),
                        Value::Array(items) => items
                            .iter()
                            .map(|v| string(key, v).map(Option::unwrap_or_default))
                            .collect::<Result<_, _>>()?,
                        other => return Err(bad(key, other)),
                    };
                    None
                }
                "childOrSiblingSelector" => {
                    subs = match value {
                        Value::Null => Vec::new(),
                        Value::Array(items) => items
                            .iter()
                            .map(|v| Self::read_nested(v, depth + 1))
                            .collect::<Result<_, _>>()?,
                        other => return Err(bad(key, other)),
                    };
                    None
                }
                _ => {
                    return Err(RpcError::Parse(format!(
                        "Unrecognized field \"{key}\" (class com.wetest.uia2.stub.Selector)"
                    )));
                }
            };
            if let Some(found) = found {
                strings.push(found);
            }
        }
        if subs.len() > MAX_CHAIN {
            return Err(RpcError::Parse(format!(
                "more than {MAX_CHAIN} child or sibling steps"
            )));
        }
        selector
            .flags
            .retain(|&(bit, _, _)| selector.mask & bit != 0);
        for (bit, field, _, value) in strings {
            if selector.mask & bit == 0 {
                continue;
            }
            let test = match bit {
                TEXT | CLASS_NAME | DESCRIPTION | PACKAGE_NAME | RESOURCE_ID => Test::Equals(value),
                TEXT_CONTAINS | DESCRIPTION_CONTAINS => Test::Contains(value),
                TEXT_STARTS_WITH | DESCRIPTION_STARTS_WITH => Test::StartsWith(value),
                _ => Test::Matches(Pattern::new(&value).map_err(pattern_error)?),
            };
            selector.texts.push(Criterion { bit, field, test });
        }
        selector.texts.sort_by_key(|c| c.bit);
        // Pairs the server reads: a relation without a selector (or the reverse) is dropped.
        selector.chain = relations
            .into_iter()
            .zip(subs)
            .filter_map(
                |(relation, sub)| match relation.to_ascii_lowercase().as_str() {
                    "child" => Some((true, sub)),
                    "sibling" => Some((false, sub)),
                    _ => None,
                },
            )
            .collect();
        Ok(selector)
    }

    /// Whether `waitForExists` and `waitUntilGone` search as a `BySelector`: no chain, then
    /// `checkBySelectorNull` false (no `index` or `instance`, and `toBySelector` gives one).
    pub(super) fn searches_by(&self) -> Result<bool, RpcError> {
        Ok(self.chain.is_empty() && self.mask & (INDEX | INSTANCE) == 0 && self.by_able()?)
    }

    /// Whether `objInfo` and `getText` look through `toUiObject2` first: as
    /// [`Selector::searches_by`], `toBySelector` asked before the chain is.
    pub(super) fn object2_by(&self) -> Result<bool, RpcError> {
        Ok(self.mask & (INDEX | INSTANCE) == 0 && self.by_able()? && self.chain.is_empty())
    }

    /// Whether `exist` searches as a `BySelector`: it ignores `index` and `instance`.
    pub(super) fn exists_by(&self) -> Result<bool, RpcError> {
        Ok(self.chain.is_empty() && self.by_able()?)
    }

    /// Whether `toBySelector` gives a selector at all, or the exception it throws: a
    /// `BySelector` takes one text criterion, one class, one description, one package,
    /// one resource id; and the server sets `checked` as `checkable` when both are asked.
    fn by_able(&self) -> Result<bool, RpcError> {
        for field in [
            Field::Text,
            Field::Class,
            Field::Desc,
            Field::Package,
            Field::Resource,
        ] {
            if self.texts.iter().filter(|c| c.field == field).count() > 1 {
                return Err(already_defined(match field {
                    Field::Text => "Text",
                    Field::Class => "Class",
                    Field::Desc => "Description",
                    Field::Package => "Package",
                    Field::Resource => "Resource name",
                }));
            }
        }
        if self.mask & (CHECKABLE | CHECKED) == CHECKABLE | CHECKED {
            return Err(already_defined("Checkable"));
        }
        Ok(self.mask & BY_FIELDS != 0)
    }

    /// Whether `node` meets the criteria, searched as a `BySelector` or a `UiSelector`.
    fn meets(&self, node: &Node, by: bool) -> bool {
        let texts = self.texts.iter().all(|c| {
            let value = c.field.of(node);
            match &c.test {
                Test::Equals(want) if by && c.field == Field::Class => {
                    match want.strip_prefix('.') {
                        Some(short) => value.strip_prefix("android.widget.") == Some(short),
                        None => value == want,
                    }
                }
                Test::Equals(want) => value == want,
                Test::Contains(want) if by => value.contains(want.as_str()),
                Test::Contains(want) => value.to_lowercase().contains(&want.to_lowercase()),
                Test::StartsWith(want) if by => value.starts_with(want.as_str()),
                Test::StartsWith(want) => value.to_lowercase().starts_with(&want.to_lowercase()),
                Test::Matches(pattern) => pattern.matches(value),
            }
        });
        let flags = self
            .flags
            .iter()
            .all(|&(_, flag, want)| node.flags.contains(flag) == want);
        let index = by
            || self.mask & INDEX == 0
            || i64::try_from(node.index).is_ok_and(|i| i == self.index);
        texts && flags && index
    }

    /// The first node found as a `BySelector`: every window, in document order.
    pub(super) fn find_by(&self, screen: &Screen) -> Option<usize> {
        (0..screen.nodes.len()).find(|&k| self.meets(&screen.nodes[k], true))
    }

    /// The nodes a `UiSelector` finds, in document order: each step's matches, narrowed
    /// to one where that step has an `instance`.
    pub(super) fn find_ui(&self, screen: &Screen) -> Vec<usize> {
        let mut found: Vec<usize> = (0..screen.nodes.len())
            .filter(|&k| screen.in_active_window(k) && self.meets(&screen.nodes[k], false))
            .collect();
        self.narrow(&mut found);
        for (child, step) in &self.chain {
            let mut next: Vec<usize> = Vec::new();
            for &at in &found {
                let within = if *child {
                    Some(at)
                } else {
                    screen.nodes[at].parent
                };
                let Some(within) = within else { continue };
                for k in screen.descendants(within) {
                    if step.meets(&screen.nodes[k], false) && !next.contains(&k) {
                        next.push(k);
                    }
                }
            }
            next.sort_unstable();
            step.narrow(&mut next);
            found = next;
        }
        found
    }

    fn narrow(&self, found: &mut Vec<usize>) {
        if self.mask & INSTANCE != 0 {
            let kept = usize::try_from(self.instance)
                .ok()
                .and_then(|i| found.get(i).copied());
            found.clear();
            found.extend(kept);
        }
    }

    /// Whether the deepest step (the last of the chain, else this one) has an `instance`.
    pub(super) fn deepest_has_instance(&self) -> bool {
        self.chain.last().map_or(self, |(_, step)| step).mask & INSTANCE != 0
    }

    pub(super) fn has_instance(&self) -> bool {
        self.mask & INSTANCE != 0
    }

    /// This selector with its own `instance` set to `n` (`UiSelector.instance(n)`).
    pub(super) fn with_instance(&self, n: usize) -> Self {
        let mut copy = self.clone();
        copy.mask |= INSTANCE;
        copy.instance = i64::try_from(n).unwrap_or(i64::MAX);
        copy
    }

    /// `UiSelector.toString()`: what a `UiObjectNotFoundException` says. Each step of
    /// the chain is set on the one before it, as `CHILD=` or `PARENT=`.
    pub(super) fn describe(&self) -> String {
        self.describe_with(&self.chain)
    }

    fn describe_with(&self, chain: &[(bool, Selector)]) -> String {
        let mut parts: Vec<(u32, String)> = Vec::new();
        for c in &self.texts {
            let (order, name) = ui_name(c.bit);
            let value = match &c.test {
                Test::Equals(s) | Test::Contains(s) | Test::StartsWith(s) => s.as_str(),
                Test::Matches(p) => p.source(),
            };
            parts.push((order, format!("{name}={value}")));
        }
        for &(bit, _, value) in &self.flags {
            let (order, name) = ui_name(bit);
            parts.push((order, format!("{name}={value}")));
        }
        if self.mask & INDEX != 0 {
            parts.push((8, format!("INDEX={}", self.index)));
        }
        if self.mask & INSTANCE != 0 {
            parts.push((9, format!("INSTANCE={}", self.instance)));
        }
        if let Some(((child, step), rest)) = chain.split_first() {
            let (order, name) = if *child {
                (19, "CHILD")
            } else {
                (22, "PARENT")
            };
            parts.push((order, format!("{name}={}", step.describe_with(rest))));
        }
        parts.sort_by_key(|(order, _)| *order);
        let parts: Vec<String> = parts.into_iter().map(|(_, p)| p).collect();
        format!("UiSelector[{}]", parts.join(", "))
    }
}

fn flag_of(key: &str) -> (u64, Flags) {
    match key {
        "checkable" => (CHECKABLE, Flags::CHECKABLE),
        "checked" => (CHECKED, Flags::CHECKED),
        "clickable" => (CLICKABLE, Flags::CLICKABLE),
        "longClickable" => (LONG_CLICKABLE, Flags::LONG_CLICKABLE),
        "scrollable" => (SCROLLABLE, Flags::SCROLLABLE),
        "enabled" => (ENABLED, Flags::ENABLED),
        "focusable" => (FOCUSABLE, Flags::FOCUSABLE),
        "focused" => (FOCUSED, Flags::FOCUSED),
        _ => (SELECTED, Flags::SELECTED),
    }
}

/// `UiSelector`'s criterion number (the order `toString` lists them in) and name.
fn ui_name(bit: u64) -> (u32, &'static str) {
    match bit {
        TEXT => (1, "TEXT"),
        TEXT_STARTS_WITH => (2, "START_TEXT"),
        TEXT_CONTAINS => (3, "CONTAINS_TEXT"),
        CLASS_NAME => (4, "CLASS"),
        DESCRIPTION => (5, "DESCRIPTION"),
        DESCRIPTION_STARTS_WITH => (6, "START_DESCRIPTION"),
        DESCRIPTION_CONTAINS => (7, "CONTAINS_DESCRIPTION"),
        ENABLED => (10, "ENABLED"),
        FOCUSED => (11, "FOCUSED"),
        FOCUSABLE => (12, "FOCUSABLE"),
        SCROLLABLE => (13, "SCROLLABLE"),
        CLICKABLE => (14, "CLICKABLE"),
        CHECKED => (15, "CHECKED"),
        SELECTED => (16, "SELECTED"),
        PACKAGE_NAME => (18, "PACKAGE NAME"),
        LONG_CLICKABLE => (24, "LONG_CLICKABLE"),
        TEXT_MATCHES => (25, "TEXT_REGEX"),
        CLASS_NAME_MATCHES => (26, "CLASS_REGEX"),
        DESCRIPTION_MATCHES => (27, "DESCRIPTION_REGEX"),
        PACKAGE_NAME_MATCHES => (28, "PACKAGE_NAME_REGEX"),
        RESOURCE_ID => (29, "RESOURCE_ID"),
        CHECKABLE => (30, "CHECKABLE"),
        _ => (31, "RESOURCE_ID_REGEX"),
    }
}

fn already_defined(what: &str) -> RpcError {
    RpcError::Thrown {
        exception: "java.lang.IllegalStateException",
        data: format!("{what} selector is already defined"),
    }
}

fn pattern_error(error: PatternError) -> RpcError {
    match error {
        PatternError::Syntax { .. } => RpcError::Thrown {
            exception: "java.util.regex.PatternSyntaxException",
            data: error.to_string(),
        },
        PatternError::Unsupported(_) => RpcError::Thrown {
            exception: "java.lang.UnsupportedOperationException",
            data: error.to_string(),
        },
    }
}

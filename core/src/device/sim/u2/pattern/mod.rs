//! Java's regular expressions as selectors use them (`textMatches`, `classNameMatches`,
//! `descriptionMatches`, `packageNameMatches`, `resourceIdMatches`), matched whole as
//! `Matcher.matches()` does. The core crate cannot depend on the `regex` crate with only
//! its `device` feature, and Java's dialect differs from it anyway, so this is a subset
//! of `java.util.regex.Pattern`, run as a Thompson automaton (time linear in the text):
//!
//! - literals and escapes (`\t \n \r \f \a \e \0oct \xhh \x{h…} \uhhhh \cX`, `\Q…\E`),
//!   `.`, classes `[a-z_]`, `[^…]` with `\d \w \s` and their negations inside;
//! - `\d \D \w \W \s \S` (ASCII, as Java's defaults), `^ $ \A \z \Z \b \B`;
//! - groups `(…)`, `(?:…)`, `(?<name>…)`, alternation `|`;
//! - `* + ? {n} {n,} {n,m}` (counts up to 1000), greedy or reluctant (`?` after);
//! - flags `(?i)` (ASCII case, as Java without `u`), `(?s)`, `(?m)`, `(?-…)` and `(?i:…)`.
//!
//! What Java accepts beyond that — back references, look-around, atomic groups,
//! possessive quantifiers, `\p{…}` classes, class intersections — is refused as
//! [`PatternError::Unsupported`], never matched differently.

mod parse;

use parse::Parser;

/// The longest pattern compiled.
const MAX_SOURCE: usize = 4096;
/// The deepest nesting of groups.
const MAX_NESTING: usize = 64;
/// The largest count of a repetition.
const MAX_COUNT: u32 = 1000;
/// The largest automaton built.
const MAX_PROGRAM: usize = 50_000;

/// Why a pattern was not compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum PatternError {
    /// Java refuses it too (`PatternSyntaxException`): what is wrong, near which character.
    Syntax { problem: String, at: usize },
    /// Valid Java, but beyond what the simulated server matches.
    Unsupported(String),
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatternError::Syntax { problem, at } => write!(f, "{problem} near index {at}"),
            PatternError::Unsupported(what) => write!(
                f,
                "{what} is valid Java but the simulated phone's uiautomator2 server does not \
                 match it: use literals, classes, groups, alternation and quantifiers"
            ),
        }
    }
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(super) struct Pattern {
    source: String,
    program: Vec<Inst>,
    classes: Vec<Class>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Assert {
    /// `^`: the start, or after a line break when multiline.
    Start { multiline: bool },
    /// `$`: the end, or before a final line break (any line break when multiline).
    End { multiline: bool },
    /// `\z`.
    EndOfInput,
    /// `\b` (true) or `\B` (false).
    Boundary(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Predefined {
    Digit,
    Word,
    Space,
}

impl Predefined {
    fn has(self, c: char) -> bool {
        match self {
            Predefined::Digit => c.is_ascii_digit(),
            Predefined::Word => c.is_ascii_alphanumeric() || c == '_',
            Predefined::Space => matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r'),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Range(char, char),
    Set { set: Predefined, negated: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Class {
    negated: bool,
    fold: bool,
    items: Vec<Item>,
}

impl Class {
    fn single(set: Predefined, negated: bool) -> Self {
        Self {
            negated: false,
            fold: false,
            items: vec![Item::Set { set, negated }],
        }
    }

    fn has(&self, c: char) -> bool {
        let inside = |c: char| {
            self.items.iter().any(|item| match *item {
                Item::Range(low, high) => low <= c && c <= high,
                Item::Set { set, negated } => set.has(c) != negated,
            })
        };
        let found = inside(c) || (self.fold && (inside(flip_case(c))));
        found != self.negated
    }
}

fn flip_case(c: char) -> char {
    if c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c.to_ascii_lowercase()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Ast {
    Empty,
    Char {
        c: char,
        fold: bool,
    },
    Any {
        dotall: bool,
    },
    /// Index into the parser's classes.
    Class(usize),
    Assert(Assert),
    Concat(Vec<Ast>),
    Alternate(Vec<Ast>),
    Repeat {
        inner: Box<Ast>,
        min: u32,
        max: Option<u32>,
    },
}

#[derive(Clone, Copy, Debug)]
enum Inst {
    Char { c: char, fold: bool },
    Any { dotall: bool },
    Class(usize),
    Assert(Assert),
    Split(usize, usize),
    Jmp(usize),
    Match,
}

#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    fold: bool,
    dotall: bool,
    multiline: bool,
}

impl Pattern {
    pub(super) fn new(source: &str) -> Result<Self, PatternError> {
        if source.chars().count() > MAX_SOURCE {
            return Err(PatternError::Unsupported(format!(
                "a pattern longer than {MAX_SOURCE} characters"
            )));
        }
        let mut parser = Parser {
            chars: source.chars().collect(),
            at: 0,
            depth: 0,
            classes: Vec::new(),
        };
        let ast = parser.alternation(&mut Flags::default())?;
        if parser.at < parser.chars.len() {
            return Err(parser.syntax("Unmatched closing ')'"));
        }
        let mut program = Vec::new();
        compile(&ast, &mut program)?;
        program.push(Inst::Match);
        Ok(Self {
            source: source.to_owned(),
            program,
            classes: parser.classes,
        })
    }

    /// The pattern as written (what `Pattern.toString()` gives).
    pub(super) fn source(&self) -> &str {
        &self.source
    }

    /// Whether the whole of `text` matches.
    pub(super) fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let mut current = Threads::new(self.program.len());
        let mut next = Threads::new(self.program.len());
        self.add(&mut current, 0, &chars, 0);
        for (pos, &c) in chars.iter().enumerate() {
            if current.list.is_empty() {
                return false;
            }
            next.clear();
            for k in 0..current.list.len() {
                let pc = current.list[k];
                let taken = match self.program[pc] {
                    Inst::Char { c: want, fold } => {
                        want == c || (fold && want.eq_ignore_ascii_case(&c))
                    }
                    Inst::Any { dotall } => dotall || !is_line_break(c),
                    Inst::Class(at) => self.classes[at].has(c),
                    _ => false,
                };
                if taken {
                    self.add(&mut next, pc + 1, &chars, pos + 1);
                }
            }
            std::mem::swap(&mut current, &mut next);
        }
        current
            .list
            .iter()
            .any(|&pc| matches!(self.program[pc], Inst::Match))
    }

    /// Adds the thread at `pc` and every thread it reaches without reading, at `pos`.
    fn add(&self, threads: &mut Threads, pc: usize, chars: &[char], pos: usize) {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if !threads.mark(pc) {
                continue;
            }
            match self.program[pc] {
                Inst::Jmp(to) => stack.push(to),
                Inst::Split(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
                Inst::Assert(assert) => {
                    if holds(assert, chars, pos) {
                        stack.push(pc + 1);
                    }
                }
                _ => threads.list.push(pc),
            }
        }
    }
}

/// Java's line terminators (without `UNIX_LINES`).
fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn holds(assert: Assert, chars: &[char], pos: usize) -> bool {
    let before = pos.checked_sub(1).and_then(|p| chars.get(p)).copied();
    let rest = &chars[pos.min(chars.len())..];
    let final_break = match rest {
        [] => true,
        ['\r', '\n'] => true,
        [c] => is_line_break(*c),
        _ => false,
    };
    match assert {
        Assert::Start { multiline } => {
            pos == 0 || (multiline && before.is_some_and(is_line_break) && !rest.is_empty())
        }
        Assert::End { multiline } => {
            final_break || (multiline && rest.first().copied().is_some_and(is_line_break))
        }
        Assert::EndOfInput => rest.is_empty(),
        Assert::Boundary(wanted) => {
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            (word(before) != word(rest.first().copied())) == wanted
        }
    }
}

/// A set of threads, each program counter once.
struct Threads {
    list: Vec<usize>,
    seen: Vec<bool>,
}

impl Threads {
    fn new(size: usize) -> Self {
        Self {
            list: Vec::new(),
            seen: vec![false; size],
        }
    }

    fn clear(&mut self) {
        self.seen.fill(false);
        self.list.clear();
    }

    /// Marks `pc`; false if it was marked already.
    fn mark(&mut self, pc: usize) -> bool {
        !std::mem::replace(&mut self.seen[pc], true)
    }
}

fn compile(ast: &Ast, program: &mut Vec<Inst>) -> Result<(), PatternError> {
    if program.len() > MAX_PROGRAM {
        return Err(PatternError::Unsupported(
            "a pattern this large once its repetitions are counted out".into(),
        ));
    }
    match ast {
        Ast::Empty => {}
        Ast::Char { c, fold } => program.push(Inst::Char { c: *c, fold: *fold }),
        Ast::Any { dotall } => program.push(Inst::Any { dotall: *dotall }),
        Ast::Class(at) => program.push(Inst::Class(*at)),
        Ast::Assert(assert) => program.push(Inst::Assert(*assert)),
        Ast::Concat(parts) => {
            for part in parts {
                compile(part, program)?;
            }
        }
        Ast::Alternate(choices) => {
            let mut jumps = Vec::new();
            for (k, choice) in choices.iter().enumerate() {
                if k + 1 < choices.len() {
                    let split = program.len();
                    program.push(Inst::Split(split + 1, 0));
                    compile(choice, program)?;
                    jumps.push(program.len());
                    program.push(Inst::Jmp(0));
                    let after = program.len();
                    program[split] = Inst::Split(split + 1, after);
                } else {
                    compile(choice, program)?;
                }
            }
            let end = program.len();
            for jump in jumps {
                program[jump] = Inst::Jmp(end);
            }
        }
        Ast::Repeat { inner, min, max } => {
            for _ in 0..*min {
                compile(inner, program)?;
            }
            match max {
                None => {
                    let split = program.len();
                    program.push(Inst::Split(split + 1, 0));
                    compile(inner, program)?;
                    program.push(Inst::Jmp(split));
                    let after = program.len();
                    program[split] = Inst::Split(split + 1, after);
                }
                Some(max) => {
                    let mut splits = Vec::new();
                    for _ in *min..*max {
                        splits.push(program.len());
                        program.push(Inst::Split(0, 0));
                        compile(inner, program)?;
                    }
                    let end = program.len();
                    for split in splits {
                        program[split] = Inst::Split(split + 1, end);
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

//! The parser of the Java regex subset (see the parent module): a pattern's text into
//! its syntax tree, with Java's own messages for what Java refuses.

use super::{Assert, Ast, Class, Flags, Item, MAX_COUNT, MAX_NESTING, PatternError, Predefined};

pub(super) struct Parser {
    pub(super) chars: Vec<char>,
    pub(super) at: usize,
    pub(super) depth: usize,
    pub(super) classes: Vec<Class>,
}

impl Parser {
    pub(super) fn syntax(&self, problem: &str) -> PatternError {
        PatternError::Syntax {
            problem: problem.to_owned(),
            at: self.at,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    fn class_node(&mut self, class: Class) -> Ast {
        self.classes.push(class);
        Ast::Class(self.classes.len() - 1)
    }

    /// `a|b|…` up to a `)` or the end; flags set inside stay inside.
    pub(super) fn alternation(&mut self, outer: &mut Flags) -> Result<Ast, PatternError> {
        let mut flags = *outer;
        let mut choices = vec![self.concat(&mut flags)?];
        while self.eat('|') {
            choices.push(self.concat(&mut flags)?);
        }
        Ok(if choices.len() == 1 {
            choices.pop().unwrap_or(Ast::Empty)
        } else {
            Ast::Alternate(choices)
        })
    }

    fn concat(&mut self, flags: &mut Flags) -> Result<Ast, PatternError> {
        let mut parts = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            if let Some(atom) = self.atom(flags)? {
                let atom = self.quantified(atom)?;
                parts.push(atom);
            }
        }
        Ok(Ast::Concat(parts))
    }

    fn quantified(&mut self, atom: Ast) -> Result<Ast, PatternError> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                return self.counted(atom);
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        self.mode()?;
        Ok(repeat(atom, min, max))
    }

    /// After a quantifier: `?` (reluctant, the same for a whole match) or `+`.
    fn mode(&mut self) -> Result<(), PatternError> {
        if self.eat('+') {
            return Err(PatternError::Unsupported("a possessive quantifier".into()));
        }
        self.eat('?');
        Ok(())
    }

    fn counted(&mut self, atom: Ast) -> Result<Ast, PatternError> {
        let min = self
            .number()
            .ok_or_else(|| self.syntax("Illegal repetition"))?;
        let max = if self.eat(',') {
            if self.peek() == Some('}') {
                None
            } else {
                Some(
                    self.number()
                        .ok_or_else(|| self.syntax("Illegal repetition"))?,
                )
            }
        } else {
            Some(min)
        };
        if !self.eat('}') {
            return Err(self.syntax("Unclosed counted closure"));
        }
        if max.is_some_and(|max| max < min) {
            return Err(self.syntax("Illegal repetition range"));
        }
        if min > MAX_COUNT || max.is_some_and(|max| max > MAX_COUNT) {
            return Err(PatternError::Unsupported(format!(
                "a repetition counted beyond {MAX_COUNT}"
            )));
        }
        self.mode()?;
        Ok(repeat(atom, min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        if digits.is_empty() {
            return None;
        }
        // A count too large for Java's int is an error there too; here, unsupported.
        Some(digits.parse().unwrap_or(u32::MAX))
    }

    /// One atom; `None` for what matches nothing itself (a flag group).
    fn atom(&mut self, flags: &mut Flags) -> Result<Option<Ast>, PatternError> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        self.at += 1;
        let atom = match c {
            '(' => return self.group(flags),
            '[' => {
                let class = self.class(*flags)?;
                self.class_node(class)
            }
            '.' => Ast::Any {
                dotall: flags.dotall,
            },
            '^' => Ast::Assert(Assert::Start {
                multiline: flags.multiline,
            }),
            '$' => Ast::Assert(Assert::End {
                multiline: flags.multiline,
            }),
            '\\' => return self.escape(*flags).map(Some),
            '*' | '+' | '?' => {
                self.at -= 1;
                return Err(self.syntax(&format!("Dangling meta character '{c}'")));
            }
            '{' => {
                self.at -= 1;
                return Err(self.syntax("Illegal repetition"));
            }
            c => Ast::Char {
                c,
                fold: flags.fold,
            },
        };
        Ok(Some(atom))
    }

    fn group(&mut self, flags: &mut Flags) -> Result<Option<Ast>, PatternError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(PatternError::Unsupported(format!(
                "groups nested deeper than {MAX_NESTING}"
            )));
        }
        let mut inner = *flags;
        if self.eat('?') {
            match self.peek() {
                Some(':') => self.at += 1,
                Some('=' | '!') => {
                    return Err(PatternError::Unsupported("a look-ahead".into()));
                }
                Some('>') => return Err(PatternError::Unsupported("an atomic group".into())),
                Some('<') => {
                    self.at += 1;
                    if matches!(self.peek(), Some('=' | '!')) {
                        return Err(PatternError::Unsupported("a look-behind".into()));
                    }
                    while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.at += 1;
                    }
                    if !self.eat('>') {
                        return Err(self.syntax("named capturing group is missing trailing '>'"));
                    }
                }
                _ => {
                    let scoped = self.flags(&mut inner)?;
                    if !scoped {
                        // `(?i)`: for the rest of the enclosing group.
                        *flags = inner;
                        self.depth -= 1;
                        return Ok(None);
                    }
                }
            }
        }
        let ast = self.alternation(&mut inner)?;
        if !self.eat(')') {
            return Err(self.syntax("Unclosed group"));
        }
        self.depth -= 1;
        Ok(Some(ast))
    }

    /// Flags after `(?`, up to `)` (false) or `:` (true: a group follows).
    fn flags(&mut self, flags: &mut Flags) -> Result<bool, PatternError> {
        let mut on = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.syntax("Unknown inline modifier"));
            };
            self.at += 1;
            match c {
                ')' => return Ok(false),
                ':' => return Ok(true),
                '-' => on = false,
                'i' => flags.fold = on,
                's' => flags.dotall = on,
                'm' => flags.multiline = on,
                'u' | 'x' | 'd' | 'U' => {
                    return Err(PatternError::Unsupported(format!("the inline flag '{c}'")));
                }
                _ => return Err(self.syntax("Unknown inline modifier")),
            }
        }
    }

    fn escape(&mut self, flags: Flags) -> Result<Ast, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("Unexpected internal error"));
        };
        self.at += 1;
        let set = |set, negated| Class::single(set, negated);
        Ok(match c {
            'd' => self.class_node(set(Predefined::Digit, false)),
            'D' => self.class_node(set(Predefined::Digit, true)),
            'w' => self.class_node(set(Predefined::Word, false)),
            'W' => self.class_node(set(Predefined::Word, true)),
            's' => self.class_node(set(Predefined::Space, false)),
            'S' => self.class_node(set(Predefined::Space, true)),
            'b' => Ast::Assert(Assert::Boundary(true)),
            'B' => Ast::Assert(Assert::Boundary(false)),
            'A' => Ast::Assert(Assert::Start { multiline: false }),
            'z' => Ast::Assert(Assert::EndOfInput),
            'Z' => Ast::Assert(Assert::End { multiline: false }),
            'Q' => {
                let mut parts = Vec::new();
                while self.at < self.chars.len() {
                    if self.chars[self.at] == '\\' && self.chars.get(self.at + 1) == Some(&'E') {
                        self.at += 2;
                        break;
                    }
                    parts.push(Ast::Char {
                        c: self.chars[self.at],
                        fold: flags.fold,
                    });
                    self.at += 1;
                }
                Ast::Concat(parts)
            }
            'E' => Ast::Empty,
            _ => Ast::Char {
                c: self.escaped_char(c)?,
                fold: flags.fold,
            },
        })
    }

    /// The character an escape other than a class or an assertion stands for.
    fn escaped_char(&mut self, c: char) -> Result<char, PatternError> {
        Ok(match c {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'f' => '\u{c}',
            'a' => '\u{7}',
            'e' => '\u{1b}',
            '0' => {
                let mut value = 0u32;
                let mut digits = 0;
                while digits < 3 && self.peek().is_some_and(|d| ('0'..='7').contains(&d)) {
                    let d = self.peek().and_then(|d| d.to_digit(8)).unwrap_or(0);
                    if value * 8 + d > 0o377 {
                        break;
                    }
                    value = value * 8 + d;
                    self.at += 1;
                    digits += 1;
                }
                if digits == 0 {
                    return Err(self.syntax("Illegal octal escape sequence"));
                }
                char::from_u32(value).unwrap_or('\0')
            }
            'x' => {
                let value = if self.eat('{') {
                    let value = self.hex(8)?;
                    if !self.eat('}') {
                        return Err(self.syntax("Unclosed hexadecimal escape sequence"));
                    }
                    value
                } else {
                    self.hex_exactly(2)?
                };
                char::from_u32(value)
                    .ok_or_else(|| self.syntax("Hexadecimal codepoint is too big"))?
            }
            'u' => {
                let value = self.hex_exactly(4)?;
                char::from_u32(value)
                    .ok_or_else(|| PatternError::Unsupported("a surrogate written as \\u".into()))?
            }
            'c' => {
                let Some(x) = self.peek() else {
                    return Err(self.syntax("Illegal control escape sequence"));
                };
                self.at += 1;
                char::from_u32(u32::from(x) ^ 64).unwrap_or('\0')
            }
            '1'..='9' | 'k' => return Err(PatternError::Unsupported("a back reference".into())),
            'p' | 'P' => return Err(PatternError::Unsupported("a \\p{…} class".into())),
            'G' | 'R' | 'X' | 'h' | 'H' | 'v' | 'V' | 'N' => {
                return Err(PatternError::Unsupported(format!("the escape \\{c}")));
            }
            c if c.is_ascii_alphabetic() => {
                return Err(self.syntax("Illegal/unsupported escape sequence"));
            }
            c => c,
        })
    }

    fn hex_exactly(&mut self, count: usize) -> Result<u32, PatternError> {
        let start = self.at;
        let value = self.hex(count)?;
        if self.at - start != count {
            return Err(self.syntax("Illegal hexadecimal escape sequence"));
        }
        Ok(value)
    }

    fn hex(&mut self, most: usize) -> Result<u32, PatternError> {
        let mut value = 0u32;
        let mut digits = 0;
        while digits < most
            && let Some(d) = self.peek().and_then(|c| c.to_digit(16))
        {
            value = value * 16 + d;
            self.at += 1;
            digits += 1;
        }
        if digits == 0 {
            return Err(self.syntax("Illegal hexadecimal escape sequence"));
        }
        Ok(value)
    }

    /// A class after its `[`.
    fn class(&mut self, flags: Flags) -> Result<Class, PatternError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.syntax("Unclosed character class"));
            };
            self.at += 1;
            let low = match c {
                ']' if !first => break,
                '[' => return Err(PatternError::Unsupported("a class inside a class".into())),
                '&' if self.peek() == Some('&') => {
                    return Err(PatternError::Unsupported("a class intersection".into()));
                }
                '\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.syntax("Unclosed character class"));
                    };
                    self.at += 1;
                    let set = match e {
                        'd' | 'D' => Some(Predefined::Digit),
                        'w' | 'W' => Some(Predefined::Word),
                        's' | 'S' => Some(Predefined::Space),
                        _ => None,
                    };
                    if let Some(set) = set {
                        items.push(Item::Set {
                            set,
                            negated: e.is_ascii_uppercase(),
                        });
                        first = false;
                        continue;
                    }
                    if e == 'Q' || e == 'E' || e == 'b' {
                        return Err(PatternError::Unsupported(format!("\\{e} inside a class")));
                    }
                    self.escaped_char(e)?
                }
                c => c,
            };
            first = false;
            let ranged = self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']');
            if ranged && self.chars.get(self.at + 1).is_some() {
                self.at += 1;
                let high = match self.peek() {
                    Some('\\') => {
                        self.at += 1;
                        let e = self
                            .peek()
                            .ok_or_else(|| self.syntax("Illegal character range"))?;
                        self.at += 1;
                        self.escaped_char(e)?
                    }
                    Some('[') => {
                        return Err(PatternError::Unsupported("a class inside a class".into()));
                    }
                    Some(h) => {
                        self.at += 1;
                        h
                    }
                    None => return Err(self.syntax("Unclosed character class")),
                };
                if high < low {
                    return Err(self.syntax("Illegal character range"));
                }
                items.push(Item::Range(low, high));
            } else {
                items.push(Item::Range(low, low));
            }
        }
        Ok(Class {
            negated,
            fold: flags.fold,
            items,
        })
    }
}

fn repeat(atom: Ast, min: u32, max: Option<u32>) -> Ast {
    Ast::Repeat {
        inner: Box::new(atom),
        min,
        max,
    }
}

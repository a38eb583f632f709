//! The part of a phone's shell (mksh) that agent frameworks' command lines use: words
//! with quotes and backslashes, `NAME=value` assignments before a command (its
//! environment alone), `;`, `&&` and `||`, pipes, and the redirections `>`, `>>`, `2>`
//! and `2>&1`. Two expansions are made, at run time, unquoted or inside double quotes:
//! `$?` (also `${?}`), the exit status of the pipeline before ([`Part::Status`]), and
//! `$NAME` or `${NAME}`, a shell variable, empty when unset ([`Part::Var`]); unquoted, a
//! variable's value is split into fields at blanks and an empty one is no field at all.
//! Any other `$` (`$1`, `$$`, `${X:-y}`, `$(…)`), globs and substitutions stay as
//! written. The sim's shell runs what it parses; the proxy reads what an agent's commands
//! mean.

use std::collections::BTreeMap;

/// The shell's variables by name, as expansions read them.
pub type Vars = BTreeMap<String, String>;

/// How a pipeline is joined to the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// The first, or after `;`: always runs.
    Always,
    /// After `&&`: runs when the one before succeeded.
    IfOk,
    /// After `||`: runs when the one before failed.
    IfFailed,
}

/// Where a stream goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// To the command's caller (the adb stream), or to the next command in the pipe.
    Inherit,
    /// Thrown away (`/dev/null`).
    Discard,
    File {
        path: String,
        append: bool,
    },
    /// `2>&1`: with stdout, wherever that goes.
    Stdout,
}

/// One word as written: its literal text and the expansions in it, in order. Quotes are
/// gone; what they kept literal is text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub parts: Vec<Part>,
}

/// A piece of a [`Word`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Text(String),
    /// `$?`: the exit status of the pipeline that ran before this one (0 at first).
    Status,
    /// `$NAME` or `${NAME}`: a variable's value, empty when unset. `quoted` when inside
    /// double quotes: kept as one piece, never split.
    Var {
        name: String,
        quoted: bool,
    },
}

impl Word {
    /// A word of plain text.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            parts: vec![Part::Text(text.into())],
        }
    }

    /// The word with its expansions made as one string, `$?` being `status` (what an
    /// assignment's value becomes: never split).
    pub fn expand(&self, status: u8, vars: &Vars) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Status => out.push_str(&status.to_string()),
                Part::Var { name, .. } => out.push_str(vars.get(name).map_or("", String::as_str)),
            }
        }
        out
    }

    /// The fields the word becomes as a command's word: unquoted variables split at
    /// blanks (space, tab, newline), and none at all when all it holds is unquoted
    /// variables that are empty.
    pub fn fields(&self, status: u8, vars: &Vars) -> Vec<String> {
        let mut fields = Vec::new();
        let mut current = String::new();
        // Whether `current` is a field, however empty (`''` is one).
        let mut present = self.parts.is_empty();
        for part in &self.parts {
            match part {
                Part::Text(text) => current.push_str(text),
                Part::Status => current.push_str(&status.to_string()),
                Part::Var { name, quoted: true } => {
                    current.push_str(vars.get(name).map_or("", String::as_str));
                }
                Part::Var {
                    name,
                    quoted: false,
                } => {
                    for c in vars.get(name).map_or("", String::as_str).chars() {
                        if matches!(c, ' ' | '\t' | '\n') {
                            if present {
                                fields.push(std::mem::take(&mut current));
                                present = false;
                            }
                        } else {
                            current.push(c);
                            present = true;
                        }
                    }
                    continue;
                }
            }
            present = true;
        }
        if present {
            fields.push(current);
        }
        fields
    }

    /// Its text when nothing in it expands: what it means without running anything.
    pub fn literal(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [] => Some(""),
            [Part::Text(text)] => Some(text),
            _ => None,
        }
    }

    fn push_text(&mut self, c: char) {
        match self.parts.last_mut() {
            Some(Part::Text(text)) => text.push(c),
            _ => self.parts.push(Part::Text(c.to_string())),
        }
    }

    /// `NAME=value` as the one word it is after a command's first word.
    fn assignment(name: &str, value: Word) -> Self {
        let mut word = Word::text(format!("{name}="));
        for part in value.parts {
            match (word.parts.last_mut(), part) {
                (Some(Part::Text(text)), Part::Text(more)) => text.push_str(&more),
                (_, part) => word.parts.push(part),
            }
        }
        word
    }

    /// A quote opens: the word is there even if all it holds expands to nothing
    /// (`""$UNSET` is one empty field), so it gets a text part, however empty.
    fn open_quote(&mut self) {
        if !matches!(self.parts.last(), Some(Part::Text(_))) {
            self.parts.push(Part::Text(String::new()));
        }
    }
}

/// Where a command reads its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Its caller's input (the adb stream), or the pipe before it.
    Inherit,
    /// `< /dev/null`: nothing.
    Empty,
    /// `< FILE`.
    File(String),
}

/// One command of a pipeline: its environment, its words, where its input comes from and
/// where its output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The `NAME=value` assignments before its first word, set for it alone
    /// (`CLASSPATH=/data/local/tmp/u2.jar app_process …`). With no words, they set
    /// nothing that lasts.
    pub env: Vec<(String, Word)>,
    pub words: Vec<Word>,
    pub stdin: Source,
    pub stdout: Target,
    pub stderr: Target,
}

impl Command {
    fn new() -> Self {
        Self {
            env: Vec::new(),
            words: Vec::new(),
            stdin: Source::Inherit,
            stdout: Target::Inherit,
            stderr: Target::Inherit,
        }
    }

    /// Neither an assignment nor a word: nothing to run, so `|`, `;` or the end there is
    /// a syntax error.
    fn is_empty(&self) -> bool {
        self.env.is_empty() && self.words.is_empty()
    }
}

/// Commands joined by `|`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub joined: Joined,
    pub commands: Vec<Command>,
}

/// Splits a command line into pipelines, or says what is wrong with it as the shell would.
pub fn parse(line: &str) -> Result<Vec<Pipeline>, String> {
    let tokens = tokenize(line)?;
    let mut pipelines = Vec::new();
    let mut joined = Joined::Always;
    let mut commands = Vec::new();
    let mut current = Command::new();
    let mut tokens = tokens.into_iter();
    while let Some(token) = tokens.next() {
        match token {
            // After the first word, `NAME=value` is an argument like any other.
            Token::Assign(name, value) if current.words.is_empty() => {
                current.env.push((name, value));
            }
            Token::Assign(name, value) => current.words.push(Word::assignment(&name, value)),
            Token::Word(word) => current.words.push(word),
            Token::Input => {
                let path = match tokens.next() {
                    Some(Token::Word(path)) => path,
                    _ => return Err("syntax error: a redirection needs a file".into()),
                };
                current.stdin = match path.literal() {
                    Some("/dev/null") => Source::Empty,
                    Some(path) => Source::File(path.to_owned()),
                    None => {
                        return Err(
                            "a file named by an expansion (`$?`, `$X`) is not supported here"
                                .into(),
                        );
                    }
                };
            }
            Token::Redirect { fd, append } => {
                let path = match tokens.next() {
                    Some(Token::Word(path)) => path,
                    Some(Token::Assign(name, value)) => Word::assignment(&name, value),
                    _ => return Err("syntax error: a redirection needs a file".into()),
                };
                let Some(path) = path.literal() else {
                    return Err(
                        "a file named by an expansion (`$?`, `$X`) is not supported here".into(),
                    );
                };
                let target = match path {
                    "/dev/null" => Target::Discard,
                    "&1" if fd == 2 => Target::Stdout,
                    _ => Target::File {
                        path: path.to_owned(),
                        append,
                    },
                };
                if fd == 2 {
                    current.stderr = target;
                } else {
                    current.stdout = target;
                }
            }
            Token::Pipe | Token::Separator(_) => {
                if current.is_empty() {
                    return Err(format!("syntax error: '{}' unexpected", token.text()));
                }
                commands.push(std::mem::replace(&mut current, Command::new()));
                if let Token::Separator(next) = token {
                    pipelines.push(Pipeline {
                        joined,
                        commands: std::mem::take(&mut commands),
                    });
                    joined = next;
                }
            }
        }
    }
    if current.is_empty() {
        if !commands.is_empty() || joined != Joined::Always {
            return Err("syntax error: unexpected end of line".into());
        }
    } else {
        commands.push(current);
    }
    if !commands.is_empty() {
        pipelines.push(Pipeline { joined, commands });
    }
    Ok(pipelines)
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Word(Word),
    /// `NAME=value`: an assignment when it comes before a command's first word.
    Assign(String, Word),
    Pipe,
    Separator(Joined),
    Redirect {
        fd: u8,
        append: bool,
    },
    /// `<`.
    Input,
}

impl Token {
    fn text(&self) -> &'static str {
        match self {
            Token::Pipe => "|",
            Token::Separator(Joined::Always) => ";",
            Token::Separator(Joined::IfOk) => "&&",
            Token::Separator(Joined::IfFailed) => "||",
            Token::Word(_) | Token::Assign(..) | Token::Redirect { .. } | Token::Input => "",
        }
    }
}

/// The word being read.
#[derive(Default)]
struct Building {
    word: Word,
    /// A quote or a backslash was read: `"A"=1` is no assignment, `'2'>` no `2>`.
    quoted: bool,
    /// The name of `NAME=`, once its unquoted `=` was read; `word` is then the value.
    assigns: Option<String>,
}

impl Building {
    /// Whether the word so far is `text`, written without quotes or expansions.
    fn is_plain(&self, text: &str) -> bool {
        !self.quoted && self.assigns.is_none() && self.word.literal() == Some(text)
    }

    /// An unquoted `=`: the end of an assignment's name, or a character of the word.
    fn equals(&mut self) {
        let name = self.word.literal().filter(|name| is_name(name));
        match name {
            Some(name) if !self.quoted && self.assigns.is_none() => {
                self.assigns = Some(name.to_owned());
                self.word = Word::default();
            }
            _ => self.word.push_text('='),
        }
    }

    fn token(self) -> Token {
        match self.assigns {
            Some(name) => Token::Assign(name, self.word),
            None => Token::Word(self.word),
        }
    }
}

/// A shell variable's name: a letter or `_`, then letters, digits and `_`.
pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// After a `$` (unquoted, or in double quotes when `quoted`): `?` or `{?}` is the status,
/// `NAME` or `{NAME}` a variable; anything else leaves the `$` as written.
fn dollar(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, word: &mut Word, quoted: bool) {
    let name_char = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
    let mut ahead = chars.clone();
    match ahead.next() {
        Some('?') => {
            chars.next();
            word.parts.push(Part::Status);
        }
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            let mut name = String::new();
            while let Some(c) = chars.next_if(name_char) {
                name.push(c);
            }
            word.parts.push(Part::Var { name, quoted });
        }
        Some('{') => {
            let mut inner = String::new();
            let mut closed = false;
            for c in ahead {
                if c == '}' {
                    closed = true;
                    break;
                }
                inner.push(c);
            }
            let part = match inner.as_str() {
                "?" => Some(Part::Status),
                name if is_name(name) => Some(Part::Var {
                    name: name.to_owned(),
                    quoted,
                }),
                _ => None,
            };
            match part {
                Some(part) if closed => {
                    chars.nth(inner.chars().count() + 1);
                    word.parts.push(part);
                }
                _ => word.push_text('$'),
            }
        }
        _ => word.push_text('$'),
    }
}

fn tokenize(line: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut word: Option<Building> = None;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut Option<Building>, tokens: &mut Vec<Token>| {
        if let Some(w) = word.take() {
            tokens.push(w.token());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => end_word(&mut word, &mut tokens),
            '\'' => {
                let w = word.get_or_insert_with(Building::default);
                // `''` is a word of its own, however empty.
                w.quoted = true;
                w.word.open_quote();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.word.push_text(c),
                        None => return Err("syntax error: unterminated '".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(Building::default);
                w.quoted = true;
                w.word.open_quote();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            if let Some(c) = chars.next() {
                                w.word.push_text(c);
                            }
                        }
                        Some('$') => dollar(&mut chars, &mut w.word, true),
                        Some(c) => w.word.push_text(c),
                        None => return Err("syntax error: unterminated \"".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(c) => {
                    let w = word.get_or_insert_with(Building::default);
                    w.quoted = true;
                    w.word.push_text(c);
                }
            },
            '$' => dollar(
                &mut chars,
                &mut word.get_or_insert_with(Building::default).word,
                false,
            ),
            '=' => word.get_or_insert_with(Building::default).equals(),
            ';' | '|' | '&' => {
                end_word(&mut word, &mut tokens);
                let doubled = chars.peek() == Some(&c);
                if doubled {
                    chars.next();
                }
                tokens.push(match (c, doubled) {
                    (';', _) => Token::Separator(Joined::Always),
                    ('|', false) => Token::Pipe,
                    ('|', true) => Token::Separator(Joined::IfFailed),
                    ('&', true) => Token::Separator(Joined::IfOk),
                    _ => return Err("background jobs (&) are not supported here".into()),
                });
            }
            '>' => {
                // `2>` when the word so far is exactly the digit 2.
                let fd = if word.as_ref().is_some_and(|w| w.is_plain("2")) {
                    word = None;
                    2
                } else {
                    end_word(&mut word, &mut tokens);
                    1
                };
                let append = chars.peek() == Some(&'>');
                if append {
                    chars.next();
                }
                tokens.push(Token::Redirect { fd, append });
                // `2>&1` reads as one word after the `>`.
                if chars.peek() == Some(&'&') {
                    chars.next();
                    let mut target = String::from("&");
                    while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                        target.push(d);
                        chars.next();
                    }
                    tokens.push(Token::Word(Word::text(target)));
                }
            }
            '<' => {
                end_word(&mut word, &mut tokens);
                tokens.push(Token::Input);
            }
            c => word.get_or_insert_with(Building::default).word.push_text(c),
        }
    }
    end_word(&mut word, &mut tokens);
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `X` is `5`, `TWO` is ` a  b `, `EMPTY` is empty; nothing else is set.
    fn vars() -> Vars {
        [("X", "5"), ("TWO", " a  b "), ("EMPTY", "")]
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect()
    }

    /// Each command's fields with `$?` as 7 and [`vars`], by pipeline.
    fn words(line: &str) -> Vec<Vec<Vec<String>>> {
        parse(line)
            .unwrap()
            .into_iter()
            .map(|p| {
                p.commands
                    .into_iter()
                    .map(|c| c.words.iter().flat_map(|w| w.fields(7, &vars())).collect())
                    .collect()
            })
            .collect()
    }

    fn first(line: &str) -> Command {
        parse(line).unwrap().remove(0).commands.remove(0)
    }

    #[test]
    fn quotes_and_escapes_make_single_words() {
        assert_eq!(
            words(r#"input text 'it'\''s%shere'"#),
            [[["input", "text", "it's%shere"]]]
        );
        assert_eq!(
            words(r#"echo "a \"b\" c" d\ e"#),
            [[["echo", "a \"b\" c", "d e"]]]
        );
        assert_eq!(words("  "), Vec::<Vec<Vec<String>>>::new());
        assert_eq!(words("echo '' \"\""), [[["echo", "", ""]]]);
    }

    #[test]
    fn the_status_expands_unquoted_and_in_double_quotes_only() {
        // adbutils' shell2 appends exactly this.
        let command = first("echo X4EXIT:$?");
        assert_eq!(
            command.words[1].parts,
            [Part::Text("X4EXIT:".into()), Part::Status]
        );
        assert_eq!(command.words[1].expand(1, &Vars::new()), "X4EXIT:1");
        assert_eq!(command.words[1].literal(), None);
        assert_eq!(
            words(r#"echo "[$?]" ${?} '$?' \$? $"#),
            [[["echo", "[7]", "7", "$?", "$?", "$"]]]
        );
        assert_eq!(first("echo $").words[1].literal(), Some("$"));
    }

    #[test]
    fn variables_expand_unquoted_and_in_double_quotes_only() {
        assert_eq!(
            first("echo $X").words[1].parts,
            [Part::Var {
                name: "X".into(),
                quoted: false
            }]
        );
        assert_eq!(first("echo $X").words[1].literal(), None);
        assert_eq!(
            words(r#"echo $X "$X" '$X' \$X "\$X" ${X}y $Xy "${X}" $X.$?"#),
            [[["echo", "5", "5", "$X", "$X", "$X", "5y", "5", "5.7"]]]
        );
        // `$1`, `$$`, the forms with operators and an unclosed brace stay as written.
        assert_eq!(
            words(r#"echo $1 $$ ${X:-y} ${X "${""#),
            [[["echo", "$1", "$$", "${X:-y}", "${X", "${"]]]
        );
        // Unset is empty; unquoted, an empty value is no field, a blank one splits.
        assert_eq!(
            words(r#"echo $NOPE "$NOPE" $EMPTY ""$EMPTY '' [$NOPE]"#),
            [[["echo", "", "", "", "[]"]]]
        );
        assert_eq!(
            words(r#"echo $TWO "$TWO" x$TWO"y""#),
            [[["echo", "a", "b", " a  b ", "x", "a", "b", "y"]]]
        );
        assert!(words("$EMPTY").iter().flatten().all(Vec::is_empty));
        // An assignment's value is one string, never split.
        let assigned = first("A=$TWO");
        assert_eq!(assigned.env[0].1.expand(0, &vars()), " a  b ");
        // Not an assignment when a variable comes first; not a `2>` when it is `$X`.
        assert_eq!(words("echo $X=1")[0][0], ["echo", "5=1"]);
        assert!(first("$X=1 echo").env.is_empty());
        assert!(parse("echo > $X").unwrap_err().contains("not supported"));
    }

    #[test]
    fn what_adb_and_agents_send_with_variables_parses() {
        // What `adb logcat` sends.
        let pipelines = parse(r#"export ANDROID_LOG_TAGS="''"; exec logcat '-d'"#).unwrap();
        assert_eq!(pipelines.len(), 2);
        let export: Vec<_> = pipelines[0].commands[0]
            .words
            .iter()
            .map(|w| w.literal())
            .collect();
        assert_eq!(export, [Some("export"), Some("ANDROID_LOG_TAGS=''")]);
        let exec: Vec<_> = pipelines[1].commands[0]
            .words
            .iter()
            .map(|w| w.literal())
            .collect();
        assert_eq!(exec, [Some("exec"), Some("logcat"), Some("-d")]);
        // `sh -c` takes its line as one word, variables and all, unexpanded.
        assert_eq!(
            words(r#"sh -c 'echo $X; echo "$?"'"#),
            [[["sh", "-c", r#"echo $X; echo "$?""#]]]
        );
    }

    #[test]
    fn assignments_before_a_command_are_its_environment() {
        // What uiautomator2 3.7 starts its server with.
        let command =
            first("CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008");
        assert_eq!(
            command.env,
            [("CLASSPATH".into(), Word::text("/data/local/tmp/u2.jar"))]
        );
        let args: Vec<_> = command
            .words
            .iter()
            .map(|w| w.expand(0, &Vars::new()))
            .collect();
        assert_eq!(
            args,
            ["app_process", "/", "com.wetest.uia2.Main", "-p", "9008"]
        );

        let two = first(r#"A="x y" B=$? C= env"#);
        let env: Vec<(&str, String)> = two
            .env
            .iter()
            .map(|(name, value)| (name.as_str(), value.expand(3, &Vars::new())))
            .collect();
        assert_eq!(
            env,
            [("A", "x y".into()), ("B", "3".into()), ("C", String::new())]
        );
        // After the first word, or quoted, or not a name: just a word.
        assert_eq!(
            words(r#"echo A=1 "B"=2 1x=3 a.b=4 =5 C=6=7"#),
            [[["echo", "A=1", "B=2", "1x=3", "a.b=4", "=5", "C=6=7"]]]
        );
        assert!(first("echo A=1").env.is_empty());
        // Assignments alone are a command with nothing to run.
        let alone = parse("A=1; echo $?").unwrap();
        assert_eq!(alone.len(), 2);
        assert!(alone[0].commands[0].words.is_empty());
        assert_eq!(alone[0].commands[0].env.len(), 1);
        assert!(parse("A=1 | grep x").is_ok());
    }

    #[test]
    fn what_agent_frameworks_send_parses() {
        // tapscope's own file dump, and the pipes of the display size and rotation.
        let line = "rm -f /sdcard/window_dump.xml; uiautomator dump /sdcard/window_dump.xml; cat /sdcard/window_dump.xml";
        let pipelines = parse(line).unwrap();
        assert_eq!(pipelines.len(), 3);
        assert!(pipelines.iter().all(|p| p.joined == Joined::Always));
        let piped = parse("dumpsys input | grep SurfaceOrientation").unwrap();
        assert_eq!(piped.len(), 1);
        assert_eq!(piped[0].commands.len(), 2);
        let chained = parse("uiautomator dump && cat /sdcard/window_dump.xml || echo no").unwrap();
        let joins: Vec<Joined> = chained.iter().map(|p| p.joined).collect();
        assert_eq!(joins, [Joined::Always, Joined::IfOk, Joined::IfFailed]);
    }

    #[test]
    fn redirections_name_their_targets() {
        let command = first("uiautomator dump /sdcard/x.xml > /dev/null 2>&1");
        assert_eq!(
            words("uiautomator dump /sdcard/x.xml > /dev/null 2>&1")[0][0],
            ["uiautomator", "dump", "/sdcard/x.xml"]
        );
        assert_eq!(command.stdout, Target::Discard);
        assert_eq!(command.stderr, Target::Stdout);
        let appended = first("echo hi >> /sdcard/log 2>/dev/null");
        assert_eq!(
            appended.stdout,
            Target::File {
                path: "/sdcard/log".into(),
                append: true
            }
        );
        assert_eq!(appended.stderr, Target::Discard);
        // A quoted 2 is an argument, its `>` stdout's.
        let quoted = first("echo '2'>/sdcard/two");
        assert_eq!(quoted.words[1].literal(), Some("2"));
        assert_eq!(quoted.stderr, Target::Inherit);
        assert!(parse("echo > x$?").unwrap_err().contains("not supported"));
    }

    #[test]
    fn broken_lines_say_what_is_wrong() {
        assert!(parse("echo 'open").unwrap_err().contains("unterminated"));
        assert!(parse("echo \"$?").unwrap_err().contains("unterminated"));
        assert!(parse("| grep x").unwrap_err().contains("'|' unexpected"));
        assert!(parse("echo a &&").unwrap_err().contains("end of line"));
        assert!(parse("echo >").unwrap_err().contains("needs a file"));
        assert!(parse("sleep 9 &").unwrap_err().contains("background"));
        assert!(parse("cat <").unwrap_err().contains("needs a file"));
        assert!(parse("cat < $X").unwrap_err().contains("not supported"));
    }

    #[test]
    fn input_is_read_from_a_file_or_from_nothing() {
        assert_eq!(
            first("grep x </sdcard/in").stdin,
            Source::File("/sdcard/in".into())
        );
        let command = first("rm -f '/data/local/tmp/a.apk' </dev/null");
        assert_eq!(command.stdin, Source::Empty);
        assert_eq!(command.words.len(), 3);
        assert_eq!(first("cat").stdin, Source::Inherit);
    }

    mod fuzz {
        //! The parser on lines nobody wrote: any text is parsed or refused, never a panic
        //! or a hang, and every word it makes expands; what tapscope's ADB client quotes
        //! comes back as the very arguments it quoted.

        use proptest::prelude::*;

        use super::*;
        use crate::device::adb::text::shell_quote;

        /// Text drawn mostly from what the shell treats specially.
        fn shellish() -> impl Strategy<Value = String> {
            let piece = prop_oneof![
                4 => prop::sample::select(vec![
                    " ", "'", "\"", "\\", "$", "$?", "${", "}", "$X", "${TWO}", "|", "||",
                    "&&", "&", ";", "<", ">", ">>", "2>&1", "=", "X=", "\n", "\t", "#",
                    "a", "echo", "/dev/null",
                ])
                .prop_map(str::to_owned),
                1 => any::<String>(),
            ];
            prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
        }

        proptest! {
            #[test]
            fn any_line_parses_or_is_refused_and_its_words_expand(line in shellish()) {
                if let Ok(pipelines) = parse(&line) {
                    for command in pipelines.iter().flat_map(|p| &p.commands) {
                        let words = command.words.iter().chain(command.env.iter().map(|(_, w)| w));
                        for word in words {
                            let _ = word.fields(3, &vars());
                            let _ = word.expand(3, &vars());
                        }
                    }
                }
            }

            #[test]
            fn quoted_arguments_come_back_whole(args in prop::collection::vec(any::<String>(), 1..6)) {
                // A shell line cannot hold NUL, so no client sends one.
                let args: Vec<String> = args.into_iter().map(|a| a.replace('\0', "")).collect();
                let line: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
                let pipelines = parse(&line.join(" ")).expect("a quoted line parses");
                prop_assert_eq!(pipelines.len(), 1);
                prop_assert_eq!(pipelines[0].commands.len(), 1);
                let command = &pipelines[0].commands[0];
                let fields: Vec<String> =
                    command.words.iter().flat_map(|w| w.fields(0, &vars())).collect();
                prop_assert_eq!(fields, args);
            }
        }
    }
}

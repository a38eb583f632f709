//! The part of a phone's shell (mksh) that agent frameworks' command lines use: words
//! with quotes and backslashes, `;`, `&&` and `||`, pipes, and the redirections `>`,
//! `>>`, `2>` and `2>&1`. Nothing is expanded: no variables, globs or substitutions.
//! The sim's shell runs what it parses; the proxy reads what an agent's commands mean.

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

/// One command of a pipeline: its words and where its output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub words: Vec<String>,
    pub stdout: Target,
    pub stderr: Target,
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
    let mut current = Command {
        words: Vec::new(),
        stdout: Target::Inherit,
        stderr: Target::Inherit,
    };
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            Token::Word(word) => current.words.push(word),
            Token::Redirect { fd, append } => {
                let Some(Token::Word(path)) = tokens.next() else {
                    return Err("syntax error: a redirection needs a file".into());
                };
                let target = match path.as_str() {
                    "/dev/null" => Target::Discard,
                    "&1" if fd == 2 => Target::Stdout,
                    _ => Target::File { path, append },
                };
                if fd == 2 {
                    current.stderr = target;
                } else {
                    current.stdout = target;
                }
            }
            Token::Pipe | Token::Separator(_) => {
                if current.words.is_empty() {
                    return Err(format!("syntax error: '{}' unexpected", token.text()));
                }
                commands.push(std::mem::replace(
                    &mut current,
                    Command {
                        words: Vec::new(),
                        stdout: Target::Inherit,
                        stderr: Target::Inherit,
                    },
                ));
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
    if current.words.is_empty() {
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
    Word(String),
    Pipe,
    Separator(Joined),
    Redirect { fd: u8, append: bool },
}

impl Token {
    fn text(&self) -> &'static str {
        match self {
            Token::Pipe => "|",
            Token::Separator(Joined::Always) => ";",
            Token::Separator(Joined::IfOk) => "&&",
            Token::Separator(Joined::IfFailed) => "||",
            Token::Word(_) | Token::Redirect { .. } => "",
        }
    }
}

fn tokenize(line: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    let end_word = |word: &mut Option<String>, tokens: &mut Vec<Token>| {
        if let Some(w) = word.take() {
            tokens.push(Token::Word(w));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => end_word(&mut word, &mut tokens),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("syntax error: unterminated '".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            w.extend(chars.next());
                        }
                        Some(c) => w.push(c),
                        None => return Err("syntax error: unterminated \"".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(c) => word.get_or_insert_with(String::new).push(c),
            },
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
                let fd = if word.as_deref() == Some("2") {
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
                    tokens.push(Token::Word(target));
                }
            }
            '<' => return Err("input redirection (<) is not supported here".into()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    end_word(&mut word, &mut tokens);
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Vec<Vec<String>>> {
        parse(line)
            .unwrap()
            .into_iter()
            .map(|p| p.commands.into_iter().map(|c| c.words).collect())
            .collect()
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
        let pipeline = parse("uiautomator dump /sdcard/x.xml > /dev/null 2>&1").unwrap();
        let command = &pipeline[0].commands[0];
        assert_eq!(command.words, ["uiautomator", "dump", "/sdcard/x.xml"]);
        assert_eq!(command.stdout, Target::Discard);
        assert_eq!(command.stderr, Target::Stdout);
        let appended = &parse("echo hi >> /sdcard/log 2>/dev/null").unwrap()[0].commands[0];
        assert_eq!(
            appended.stdout,
            Target::File {
                path: "/sdcard/log".into(),
                append: true
            }
        );
        assert_eq!(appended.stderr, Target::Discard);
    }

    #[test]
    fn broken_lines_say_what_is_wrong() {
        assert!(parse("echo 'open").unwrap_err().contains("unterminated"));
        assert!(parse("| grep x").unwrap_err().contains("'|' unexpected"));
        assert!(parse("echo a &&").unwrap_err().contains("end of line"));
        assert!(parse("echo >").unwrap_err().contains("needs a file"));
        assert!(parse("sleep 9 &").unwrap_err().contains("background"));
        assert!(parse("cat < /x").unwrap_err().contains("not supported"));
    }
}

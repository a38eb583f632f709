//! `logcat`'s options as Android 14's reads them (getopt_long, permuting, `:` first in
//! its option string so it reports errors itself), its filterspecs as liblog's
//! `android_log_addFilterString` reads them, and the environment it falls back on.

use std::time::Duration;

use super::super::Io;
use crate::device::sim::log::{Buffer, Format, parse_wall_time};
use crate::logcat::Filters;

/// What logcat splits `-b`, `-v` and `ANDROID_PRINTF_LOG` lists at.
const DELIMITERS: &[char] = &[',', ':', ';', ' ', '\t', '\n', '\r', '\u{c}'];
/// `-v` adverbs: accepted, and printed as without them.
const ADVERBS: &str = "color colour descriptive epoch monotonic printable uid usec UTC year zone";
/// Buffers logd has and the sim's phone writes nothing to.
const EMPTY_BUFFERS: [&str; 4] = ["radio", "stats", "security", "kernel"];

fn is_adverb(word: &str) -> bool {
    ADVERBS.split(' ').any(|adverb| adverb == word)
}

/// Where the print starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tail {
    Everything,
    Lines(usize),
    Since(Duration),
}

/// What the command does once its options are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    Print,
    Clear,
    Sizes,
    Help,
}

#[derive(Debug)]
pub(super) struct Options {
    pub(super) action: Action,
    /// `-d`, `-t`: exit once what is there is printed.
    pub(super) dump: bool,
    pub(super) buffers: Vec<Buffer>,
    pub(super) format: Format,
    pub(super) tail: Tail,
    pub(super) pid: Option<u32>,
    pub(super) max: Option<usize>,
    pub(super) pattern: Option<Pattern>,
    /// `--print`: every line, while `-m` counts the matching ones.
    pub(super) print_all: bool,
    pub(super) dividers: bool,
    pub(super) filters: Filters,
}

#[cfg(feature = "replay")]
pub(super) type Pattern = regex::Regex;
#[cfg(not(feature = "replay"))]
pub(super) type Pattern = String;

/// Why the options stop the command: logcat's error line, or a status already reported.
pub(super) enum Stop {
    Error(String),
    Status(u8),
}

/// The options `-X` that take an argument, and those that take none.
const WITH_ARGUMENT: &str = "tTfrnvbPmeG";
const WITHOUT_ARGUMENT: &str = "cdDhLsQBSgp";
/// Long options: their short letter (`\0` for long-only) and whether they take an argument.
const LONG: [(&str, char, bool); 23] = [
    ("binary", 'B', false),
    ("buffer", 'b', true),
    ("buffer-size", 'g', false),
    ("clear", 'c', false),
    ("debug", '\0', false),
    ("dividers", 'D', false),
    ("file", 'f', true),
    ("format", 'v', true),
    ("grep", 'e', true),
    ("head", 'm', true),
    ("help", 'h', false),
    ("id", '\0', true),
    ("last", 'L', false),
    ("max-count", 'm', true),
    ("pid", '\0', true),
    ("print", '\0', false),
    ("prune", 'p', false),
    ("regex", 'e', true),
    ("rotate-count", 'n', true),
    ("rotate-kbytes", 'r', true),
    ("statistics", 'S', false),
    ("tail", 't', true),
    ("wrap", '\0', false),
];

/// Options by name with their arguments, and the filterspecs.
type Parsed<'a> = (Vec<(String, Option<&'a str>)>, Vec<&'a str>);

/// The options as getopt_long gives them: `(name, argument)`, the name a short letter or
/// a long option's; the rest are filterspecs.
fn getopt<'a>(args: &[&'a str]) -> Result<Parsed<'a>, Stop> {
    let (mut options, mut specs) = (Vec::new(), Vec::new());
    let mut words = args.iter().copied();
    while let Some(word) = words.next() {
        if word == "--" {
            specs.extend(words.by_ref());
        } else if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let exact = LONG.iter().find(|(n, _, _)| *n == name);
            let prefixed: Vec<_> = LONG
                .iter()
                .filter(|(n, _, _)| n.starts_with(name))
                .collect();
            let Some(&(full, short, takes)) = exact.or(match prefixed.as_slice() {
                [one] => Some(*one),
                _ => None,
            }) else {
                return Err(Stop::Error(format!("Unknown option '{word}'.")));
            };
            let value = match (takes, inline) {
                (true, Some(value)) => Some(value),
                (true, None) => Some(words.next().ok_or_else(|| needs(word))?),
                (false, _) => None,
            };
            let name = if short == '\0' {
                full.to_owned()
            } else {
                short.to_string()
            };
            options.push((name, value));
        } else if let Some(cluster) = word.strip_prefix('-').filter(|c| !c.is_empty()) {
            for (at, letter) in cluster.char_indices() {
                if WITHOUT_ARGUMENT.contains(letter) {
                    options.push((letter.to_string(), None));
                } else if WITH_ARGUMENT.contains(letter) {
                    let rest = &cluster[at + letter.len_utf8()..];
                    let value = if rest.is_empty() {
                        words.next().ok_or_else(|| needs(word))?
                    } else {
                        rest
                    };
                    options.push((letter.to_string(), Some(value)));
                    break;
                } else {
                    return Err(Stop::Error(format!("Unknown option '{word}'.")));
                }
            }
        } else {
            specs.push(word);
        }
    }
    Ok((options, specs))
}

fn needs(word: &str) -> Stop {
    Stop::Error(format!("Option '{word}' needs an argument."))
}

pub(super) fn parse(
    args: &[&str],
    env: &[(String, String)],
    io: &mut Io<'_>,
) -> Result<Options, Stop> {
    let var = |name: &str| env.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
    let mut o = Options {
        action: Action::Print,
        dump: false,
        buffers: Vec::new(),
        format: Format::ThreadTime,
        tail: Tail::Everything,
        pid: None,
        max: None,
        pattern: None,
        print_all: false,
        dividers: false,
        filters: Filters::default(),
    };
    if args == ["--help"] {
        o.action = Action::Help;
        return Ok(o);
    }
    let (options, specs) = getopt(args)?;
    let (mut got_t, mut format_set) = (false, false);
    for (name, value) in options {
        let value = value.unwrap_or("");
        match name.as_str() {
            "c" => o.action = Action::Clear,
            "g" if o.action != Action::Clear => o.action = Action::Sizes,
            "g" | "wrap" | "debug" => {}
            "d" => o.dump = true,
            "D" => o.dividers = true,
            "h" => {
                o.action = Action::Help;
                return Ok(o);
            }
            "s" => o.filters.silence(),
            "print" => o.print_all = true,
            // Only on an emulator, which the sim is not: quietly nothing.
            "Q" => return Err(Stop::Status(0)),
            "t" | "T" => {
                got_t |= name == "t";
                o.dump |= name == "t";
                o.tail = tail(&name, value, io)?;
            }
            "pid" => {
                if o.pid.is_some() {
                    return Err(Stop::Error(
                        "Only one --pid argument can be provided.".into(),
                    ));
                }
                let pid = value.parse().ok().filter(|p| *p >= 1);
                o.pid = Some(pid.ok_or_else(|| Stop::Error(format!("pid {value} out of range.")))?);
            }
            "m" => {
                let max = value.parse().ok().filter(|m| *m >= 1);
                o.max = Some(max.ok_or_else(|| {
                    Stop::Error(format!("-m '{value}' isn't an integer greater than zero."))
                })?);
            }
            "e" => o.pattern = Some(pattern(value, io)?),
            "b" => buffers(&mut o.buffers, value)?,
            "v" if value == "help" || value == "--help" => {
                o.action = Action::Help;
                return Ok(o);
            }
            "v" => {
                for verb in value.split(DELIMITERS).filter(|v| !v.is_empty()) {
                    if let Some(format) = Format::from_name(verb) {
                        (o.format, format_set) = (format, true);
                    } else if !is_adverb(verb) {
                        return Err(Stop::Error(format!("Invalid parameter '{verb}' to -v.")));
                    }
                }
            }
            other => {
                let shown = if other.len() == 1 {
                    format!("-{other}")
                } else {
                    format!("--{other}")
                };
                return Err(Stop::Error(format!(
                    "option '{shown}' is not supported by the simulated phone."
                )));
            }
        }
    }
    if o.max.is_some() && got_t {
        return Err(Stop::Error(
            "Cannot use -m (--max-count) and -t together.".into(),
        ));
    }
    if o.print_all && (o.pattern.is_none() || o.max.is_none()) {
        io.complain(
            "WARNING: --print ignored, to be used in combination with\n         \
             --regex <expr> and --max-count <N>\n",
        );
        o.print_all = false;
    }
    if o.buffers.is_empty() {
        o.buffers = Buffer::DEFAULT.to_vec();
    }
    if let Some(formats) = var("ANDROID_PRINTF_LOG").filter(|_| !format_set) {
        for verb in formats.split(DELIMITERS).filter(|v| !v.is_empty()) {
            match Format::from_name(verb) {
                Some(format) => o.format = format,
                None if is_adverb(verb) => {}
                None => io.complain(&format!("invalid format in ANDROID_PRINTF_LOG '{verb}'\n")),
            }
        }
    }
    if specs.is_empty()
        && let Some(tags) = var("ANDROID_LOG_TAGS")
    {
        o.filters
            .add_all(tags)
            .map_err(|_| Stop::Error("Invalid filter expression in ANDROID_LOG_TAGS.".into()))?;
    }
    for spec in specs {
        o.filters
            .add_all(spec)
            .map_err(|_| Stop::Error(format!("Invalid filter expression '{spec}'.")))?;
    }
    Ok(o)
}

/// `-t`/`-T`: a count of lines (a bad one warned about and taken as 1) or a time.
fn tail(name: &str, value: &str, io: &mut Io<'_>) -> Result<Tail, Stop> {
    if value.chars().all(|c| c.is_ascii_digit()) {
        let lines = value.parse().ok().filter(|n| *n >= 1).unwrap_or_else(|| {
            io.complain(&format!("WARNING: -{name} {value} invalid, setting to 1\n"));
            1
        });
        return Ok(Tail::Lines(lines));
    }
    parse_wall_time(value)
        .map(Tail::Since)
        .ok_or_else(|| Stop::Error(format!("-{name} '{value}' not in time format.")))
}

fn buffers(into: &mut Vec<Buffer>, value: &str) -> Result<(), Stop> {
    for name in value.split(DELIMITERS).filter(|n| !n.is_empty()) {
        let named: &[Buffer] = match name {
            "default" => &Buffer::DEFAULT,
            "all" => &Buffer::ALL,
            _ if EMPTY_BUFFERS.contains(&name) => &[],
            _ => match Buffer::ALL.iter().position(|b| b.name() == name) {
                Some(at) => &Buffer::ALL[at..=at],
                None => {
                    return Err(Stop::Error(format!(
                        "Unknown buffer '{name}' listed for -b."
                    )));
                }
            },
        };
        let new: Vec<Buffer> = named
            .iter()
            .copied()
            .filter(|b| !into.contains(b))
            .collect();
        into.extend(new);
    }
    Ok(())
}

#[cfg(feature = "replay")]
fn pattern(text: &str, io: &mut Io<'_>) -> Result<Pattern, Stop> {
    regex::Regex::new(text).map_err(|error| {
        // std::regex throws, and nothing catches it: the runtime aborts.
        let why = error.to_string();
        let why = why.lines().last().unwrap_or_default().trim().to_owned();
        io.complain(&format!(
            "libc++abi: terminating due to uncaught exception of type std::__1::regex_error: {why}\nAborted\n"
        ));
        Stop::Status(134)
    })
}

#[cfg(not(feature = "replay"))]
fn pattern(_: &str, _: &mut Io<'_>) -> Result<Pattern, Stop> {
    Err(Stop::Error(
        "option '-e' is not supported by the simulated phone.".into(),
    ))
}

#[cfg(feature = "replay")]
pub(super) fn matches(pattern: &Pattern, message: &str) -> bool {
    pattern.is_match(message)
}

#[cfg(not(feature = "replay"))]
pub(super) fn matches(pattern: &Pattern, message: &str) -> bool {
    message.contains(pattern.as_str())
}

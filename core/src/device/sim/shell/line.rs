//! One command line run as mksh runs it: its pipelines in order, `$?` and the shell's
//! variables expanded, and the builtins that act on the shell itself — assignments alone
//! (`X=5`, for the rest of the line), `export`, `exec` (the rest of the line is not run)
//! and `sh -c LINE` (a new shell: the environment only, `$?` back at 0). Each adb shell
//! command line is its own shell process, so nothing here outlives the line.

use std::collections::BTreeSet;

use super::{Io, Ran, Refused, SimShell, commands};
use crate::device::adbd::CommandOutput;
use crate::device::shell_line::{self, Joined, Source, Vars, Word, is_name};
use crate::stability::Clock;

/// What adbd's shell starts with as the `shell` user (uid 2000): init's environment (the
/// `ANDROID_*` roots, `EXTERNAL_STORAGE`, `PATH`), then the account's `HOME`, `LOGNAME`,
/// `SHELL`, `TMPDIR` and `USER`.
const PHONE_ENV: [(&str, &str); 14] = [
    ("ANDROID_ART_ROOT", "/apex/com.android.art"),
    ("ANDROID_ASSETS", "/system/app"),
    ("ANDROID_DATA", "/data"),
    ("ANDROID_I18N_ROOT", "/apex/com.android.i18n"),
    ("ANDROID_ROOT", "/system"),
    ("ANDROID_STORAGE", "/storage"),
    ("ANDROID_TZDATA_ROOT", "/apex/com.android.tzdata"),
    ("EXTERNAL_STORAGE", "/sdcard"),
    ("HOME", "/"),
    ("LOGNAME", "shell"),
    (
        "PATH",
        "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:\
         /system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    ),
    ("SHELL", "/bin/sh"),
    ("TMPDIR", "/data/local/tmp"),
    ("USER", "shell"),
];

/// A shell's variables and which of them its commands' environment holds.
#[derive(Clone, Debug, Default)]
pub(super) struct Shell {
    vars: Vars,
    exported: BTreeSet<String>,
}

impl Shell {
    /// The shell adbd starts for a command line.
    pub(super) fn phone() -> Self {
        Self::inheriting(
            PHONE_ENV
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned())),
        )
    }

    /// A shell started with `env` as its environment: every variable exported.
    fn inheriting(env: impl IntoIterator<Item = (String, String)>) -> Self {
        let vars: Vars = env.into_iter().collect();
        let exported = vars.keys().cloned().collect();
        Self { vars, exported }
    }

    fn set(&mut self, name: &str, value: String) {
        self.vars.insert(name.to_owned(), value);
    }

    /// The environment a command gets: the exported variables, then its own assignments.
    fn environment(&self, own: Vec<(String, String)>) -> Vec<(String, String)> {
        let mut env: Vars = self
            .vars
            .iter()
            .filter(|(name, _)| self.exported.contains(*name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        env.extend(own);
        env.into_iter().collect()
    }
}

/// Runs the pipelines of one command line in order, in `shell`; the line's status.
pub(super) fn run<C: Clock + Clone + Send>(
    sim: &SimShell<C>,
    shell: &mut Shell,
    line: &str,
    out: &mut dyn CommandOutput,
) -> u8 {
    let pipelines = match shell_line::parse(line) {
        Ok(pipelines) => pipelines,
        Err(why) => {
            let _ = out.stderr(format!("/system/bin/sh: {why}\n").as_bytes());
            return 1;
        }
    };
    let mut status = 0;
    for pipeline in pipelines {
        let skip = match pipeline.joined {
            Joined::Always => false,
            Joined::IfOk => status != 0,
            Joined::IfFailed => status == 0,
        };
        if skip {
            continue;
        }
        // Every command of a pipe starts at once: each sees the status before it. Each
        // but a lone command is a subshell of its own: what it sets does not last.
        let before = status;
        let alone = pipeline.commands.len() == 1;
        let mut stdin = Vec::new();
        let last = pipeline.commands.len().saturating_sub(1);
        for (k, command) in pipeline.commands.iter().enumerate() {
            let mut subshell;
            let shell: &mut Shell = if alone {
                &mut *shell
            } else {
                subshell = shell.clone();
                &mut subshell
            };
            let words = fields(&command.words, before, &shell.vars);
            let own: Vec<(String, String)> = command
                .env
                .iter()
                .map(|(name, value)| (name.clone(), value.expand(before, &shell.vars)))
                .collect();
            let piped = std::mem::take(&mut stdin);
            let (input, stdin_from_caller) = match &command.stdin {
                Source::Inherit => (piped, k == 0),
                Source::Empty => (Vec::new(), false),
                Source::File(path) => match sim.read_file(path) {
                    Some(bytes) => (bytes, false),
                    None => {
                        let said = format!(
                            "/system/bin/sh: can't open {path}: No such file or directory\n"
                        );
                        let _ = out.stderr(said.as_bytes());
                        status = 1;
                        continue;
                    }
                },
            };
            let mut io = Io {
                caller: &mut *out,
                stdin: input,
                stdin_from_caller,
                piped: k < last,
                stdout: command.stdout.clone(),
                stderr: command.stderr.clone(),
                pipe: Vec::new(),
                files: Vec::new(),
                room: sim.room(),
                limits: sim.file_limits,
                refused: None,
            };
            let ran = if words.is_empty() {
                // Assignments alone (or words that all expanded to nothing) set variables.
                for (name, value) in own {
                    shell.set(&name, value);
                }
                Ran::Status(0)
            } else {
                builtin(sim, shell, &words, own, &mut io, alone)
            };
            sim.flush(&mut io);
            status = match ran {
                Ran::Status(status) => status,
                Ran::Exit(status) => return status,
            };
            if let Some(why) = io.refused.take() {
                status = refused(sim, &mut io, &words, why).unwrap_or(status);
            }
            stdin = io.pipe;
            if out.closed() {
                return status;
            }
        }
        if out.closed() {
            break;
        }
    }
    status
}

/// Says once why a command's writes were refused; its status then, `None` when its
/// caller hung up (nobody reads a status).
fn refused<C: Clock + Clone + Send>(
    sim: &SimShell<C>,
    io: &mut Io<'_>,
    words: &[String],
    why: Refused,
) -> Option<u8> {
    if why == Refused::HungUp {
        return None;
    }
    let name = words.first().map_or("sh", String::as_str);
    io.complain(&format!(
        "{name}: write error: {}\n",
        std::io::Error::from(why)
    ));
    // The complaint may itself go to a file.
    sim.flush(io);
    io.refused = None;
    Some(1)
}

/// A command's words as fields; after `export`, its `NAME=value`s are not split.
fn fields(words: &[Word], status: u8, vars: &Vars) -> Vec<String> {
    let declares = words.first().and_then(Word::literal) == Some("export");
    words
        .iter()
        .flat_map(|word| {
            if declares && word.literal() != Some("export") {
                vec![word.expand(status, vars)]
            } else {
                word.fields(status, vars)
            }
        })
        .collect()
}

/// The builtins that act on the shell, else the command `words` name.
fn builtin<C: Clock + Clone + Send>(
    sim: &SimShell<C>,
    shell: &mut Shell,
    words: &[String],
    own: Vec<(String, String)>,
    io: &mut Io<'_>,
    alone: bool,
) -> Ran {
    let args = &words[1..];
    match words[0].as_str() {
        "export" => Ran::Status(export(shell, args, io)),
        // Without a command, `exec` changes nothing here (no redirection of the shell's own).
        "exec" if args.is_empty() => Ran::Status(0),
        "exec" => match builtin(sim, shell, args, own, io, alone) {
            Ran::Status(status) | Ran::Exit(status) if alone => Ran::Exit(status),
            ran => ran,
        },
        "sh" | "/system/bin/sh" => Ran::Status(sh(sim, shell, args, own, io)),
        _ => commands::run(sim, words, &shell.environment(own), io),
    }
}

/// `export NAME=value…` or `export NAME…`: into the environment, for the rest of the line.
fn export(shell: &mut Shell, args: &[String], io: &mut Io<'_>) -> u8 {
    match args {
        // As mksh: the names alone, or `-p` commands to set them again.
        [] => {
            for name in &shell.exported {
                io.say(&format!("{name}\n"));
            }
            return 0;
        }
        [flag] if flag == "-p" => {
            for name in &shell.exported {
                let value = shell.vars.get(name).map_or("", String::as_str);
                io.say(&format!("export {name}={}\n", quoted(value)));
            }
            return 0;
        }
        _ => {}
    }
    let mut status = 0;
    for arg in args {
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg.as_str(), None),
        };
        if !is_name(name) {
            io.complain(&format!(
                "/system/bin/sh: export: {name}: is not an identifier\n"
            ));
            status = 1;
            continue;
        }
        if let Some(value) = value {
            shell.set(name, value.to_owned());
        }
        shell.exported.insert(name.to_owned());
    }
    status
}

/// A value as mksh prints it back: bare when it is plain, else in single quotes.
fn quoted(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_/.:,+-=@%".contains(c));
    if plain {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    }
}

/// `sh -c LINE [NAME [ARG…]]`: LINE run by a new shell started with this command's
/// environment; `sh` alone runs what its pipe gave it.
fn sh<C: Clock + Clone + Send>(
    sim: &SimShell<C>,
    shell: &Shell,
    args: &[String],
    own: Vec<(String, String)>,
    io: &mut Io<'_>,
) -> u8 {
    let line = match args {
        [flag, line, ..] if flag == "-c" => line.clone(),
        [] => String::from_utf8_lossy(&std::mem::take(&mut io.stdin)).into_owned(),
        [flag] if flag == "-c" => {
            io.complain("/system/bin/sh: -c: option requires an argument\n");
            return 1;
        }
        _ => {
            io.complain("/system/bin/sh: only `sh -c LINE` and `sh` reading a pipe run here\n");
            return 127;
        }
    };
    let mut child = Shell::inheriting(shell.environment(own));
    run(sim, &mut child, &line, io)
}

/// What a shell run by `sh` prints goes where that command's output goes.
impl CommandOutput for Io<'_> {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.out(bytes)
    }

    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.err(bytes)
    }

    fn closed(&self) -> bool {
        Io::closed(self)
    }

    fn stdin(&mut self) -> Option<Vec<u8>> {
        if self.stdin_from_caller {
            return self.caller.stdin();
        }
        let piped = std::mem::take(&mut self.stdin);
        (!piped.is_empty()).then_some(piped)
    }
}

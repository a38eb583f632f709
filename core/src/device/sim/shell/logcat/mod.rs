//! `logcat` as Android 14's (AOSP `system/logging/logcat/logcat.cpp`) reads the sim's
//! log: `-d` dumps and exits, else new lines stream until the host hangs up or `pkill`
//! ends it; `-c` clears, `-g` prints the buffers' sizes; `-b` picks buffers, `-v` the
//! format (threadtime by default, or `ANDROID_PRINTF_LOG`), `-t`/`-T` the tail by count
//! or time, `--pid`, `-e` (a regex), `-m` and filterspecs (`TAG:P`, `*:S`, `-s`, else
//! `ANDROID_LOG_TAGS`). Options may come after filterspecs (getopt permutes); errors are
//! logcat's own `logcat: …` lines, exit 1.

use std::collections::BTreeSet;
use std::time::Duration;

use super::{Io, SimShell};
use crate::device::sim::log::{Buffer, Mark, Record};
use crate::stability::Clock;
use options::{Action, Options, Stop, Tail, matches, parse};

/// How often a streaming logcat looks for new lines (and whether it should stop).
const WATCH: Duration = Duration::from_millis(100);
/// 128 + SIGTERM: `pkill`.
const TERMINATED: u8 = 143;
/// 128 + SIGHUP: the adb stream it ran in was closed.
const HUNG_UP: u8 = 129;
/// logd's `LOGGER_ENTRY_MAX_LEN` and `LOGGER_ENTRY_MAX_PAYLOAD`, which `-g` prints.
const MAX_ENTRY: usize = 5 * 1024;
const MAX_PAYLOAD: usize = 4068;

/// What `--help` prints: logcat's own, for the options the sim takes.
const USAGE: &str = "Usage: logcat [options] [filterspecs]\n\n\
General options:\n  -b, --buffer=<buffer>       Request alternate ring buffer(s):\n                                main system radio events crash default all\n  -c, --clear                 Clear (flush) the entire log and exit.\n  -d                          Dump the log and then exit (don't block).\n  --pid=<pid>                 Only print logs from the given pid.\n\n\
Formatting:\n  -v, --format=<format>       Sets log print format verb and adverbs, where <format> is one of:\n                                brief help long process raw tag thread threadtime time\n  -D, --dividers              Print dividers between each log buffer.\n\n\
Logd control:\n  -g, --buffer-size           Get the size of the ring buffers within logd.\n\n\
Filtering:\n  -s                          Set default filter to silent. Equivalent to filterspec '*:S'\n  -e, --regex=<expr>          Only print lines where the log message matches <expr>\n  -m, --max-count=<count>     Quit after printing <count> lines.\n  -t <count>                  Print only the most recent <count> lines (implies -d).\n  -t '<time>'                 Print the lines since specified time (implies -d).\n  -T <count>                  Print only the most recent <count> lines (does not imply -d).\n  -T '<time>'                 Print the lines since specified time (not imply -d).\n                              count is pure numerical, time is 'MM-DD hh:mm:ss.mmm...'\n\n\
filterspecs are a series of \n  <tag>[:priority]\n\n\
where <tag> is a log component tag (or * for all) and priority is:\n  V    Verbose (default for <tag>)\n  D    Debug (default for '*')\n  I    Info\n  W    Warn\n  E    Error\n  F    Fatal\n  S    Silent (suppress all output)\n\n";

mod options;

/// What has been printed: the dividers' state and the matches `-m` counts.
struct Printer<'o> {
    options: &'o Options,
    last: Option<Buffer>,
    begun: BTreeSet<Buffer>,
    count: usize,
}

impl Printer<'_> {
    fn done(&self) -> bool {
        self.options.max.is_some_and(|max| self.count >= max)
    }

    /// Prints what of `records` the filters let through, until `-m` is reached; `Err`
    /// when the caller is gone.
    fn print(&mut self, records: &[Record], io: &mut Io<'_>) -> std::io::Result<()> {
        let o = self.options;
        for record in records {
            if self.done() {
                break;
            }
            // Dividers come with every entry read, printed or filtered out.
            if self.last != Some(record.buffer) {
                let begun = !self.begun.insert(record.buffer);
                if !begun || o.dividers {
                    let verb = if begun { "switch to" } else { "beginning of" };
                    io.out(format!("--------- {verb} {}\n", record.buffer.name()).as_bytes())?;
                }
                self.last = Some(record.buffer);
            }
            let entry = &record.entry;
            if !o.filters.passes(&entry.tag, entry.priority) {
                continue;
            }
            let matched = o
                .pattern
                .as_ref()
                .is_none_or(|p| matches(p, &entry.message));
            self.count += usize::from(matched);
            if matched || o.print_all {
                io.out(o.format.print(entry).as_bytes())?;
            }
        }
        Ok(())
    }
}

/// `logcat [options] [filterspecs]`, its environment giving `ANDROID_LOG_TAGS` and
/// `ANDROID_PRINTF_LOG`.
pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    env: &[(String, String)],
    io: &mut Io<'_>,
) -> u8 {
    let o = match parse(args, env, io) {
        Ok(options) => options,
        Err(Stop::Error(why)) => {
            io.complain(&format!("logcat: {why}\n"));
            return 1;
        }
        Err(Stop::Status(status)) => return status,
    };
    let mut printer = Printer {
        options: &o,
        last: None,
        begun: BTreeSet::new(),
        count: 0,
    };
    let after = match o.tail {
        Tail::Since(at) => Mark::since(at),
        _ => Mark::START,
    };
    // The command's start; then what is there, read at once.
    let (first, mut cursor) = shell.phone.native(|sim| match o.action {
        Action::Help => {
            io.complain(USAGE);
            (Vec::new(), Mark::START)
        }
        Action::Clear => {
            o.buffers.iter().for_each(|&b| sim.clear_log(b));
            (Vec::new(), Mark::START)
        }
        Action::Sizes => {
            for &buffer in &o.buffers {
                let (size, used) = (sim.log().limits().bytes, sim.log().used(buffer));
                let (size, unit) = in_units(size);
                let (used, used_unit) = in_units(used);
                io.say(&format!(
                    "{}: ring buffer is {size} {unit}B ({used} {used_unit}B consumed), max entry \
                     is {MAX_ENTRY} B, max payload is {MAX_PAYLOAD} B\n",
                    buffer.name()
                ));
            }
            (Vec::new(), Mark::START)
        }
        Action::Print => sim.read_log(&o.buffers, after, o.pid),
    });
    if o.action != Action::Print {
        return 0;
    }
    let first = match o.tail {
        Tail::Lines(n) => &first[first.len().saturating_sub(n)..],
        _ => &first[..],
    };
    if printer.print(first, io).is_err() || o.dump || printer.done() {
        return 0;
    }
    let job = shell.start_job(format!("logcat {}", args.join(" ")));
    let mut clock = shell.phone.clock();
    while !job.killed() && !io.closed() {
        clock.sleep(WATCH);
        let (new, end) = shell.phone.sim().read_log(&o.buffers, cursor, o.pid);
        cursor = end;
        if printer.print(&new, io).is_err() {
            break;
        }
        if printer.done() {
            return 0;
        }
    }
    if job.killed() { TERMINATED } else { HUNG_UP }
}

/// `format_of_size`: the value in the largest of B, KiB, MiB, GiB it reaches.
fn in_units(mut value: usize) -> (usize, &'static str) {
    let mut units = ["", "Ki", "Mi", "Gi"].into_iter().peekable();
    let mut unit = "";
    while let Some(next) = units.next() {
        unit = next;
        if value < 1024 || units.peek().is_none() {
            break;
        }
        value /= 1024;
    }
    (value, unit)
}

#[cfg(test)]
mod tests;

//! `settings get|put|delete|list system|secure|global …` (`cmd settings`), and the settings
//! provider `content` reaches (`content insert --uri content://settings/system --bind
//! name:s:user_rotation --bind value:i:1`, as mobile-mcp turns the screen), as Android 14's
//! `SettingsService` and `SettingsProvider` answer them: a value, or `null` for a key never
//! set; nothing printed for a `put`; `Deleted N rows`. The values a user changed are kept
//! in the sim's files under `/data/system/users/0/`, where a phone keeps them, the rest are
//! a stock phone's defaults. The display's rotation is read from them: `user_rotation`
//! while auto-rotate (`accelerometer_rotation`) is off; with it on, the sim's phone stands
//! upright, so the display does too.

use super::super::{Io, SimShell};
use crate::stability::Clock;

/// A settings table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Table {
    System,
    Secure,
    Global,
}

impl Table {
    pub(super) fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "system" => Some(Table::System),
            "secure" => Some(Table::Secure),
            "global" => Some(Table::Global),
            _ => None,
        }
    }

    /// Where a phone keeps the table (its own format there is binary XML; the sim's is
    /// `name=value` lines).
    fn file(self) -> &'static str {
        match self {
            Table::System => "/data/system/users/0/settings_system.xml",
            Table::Secure => "/data/system/users/0/settings_secure.xml",
            Table::Global => "/data/system/users/0/settings_global.xml",
        }
    }

    /// A stock Pixel's values for the keys tools read.
    fn defaults(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Table::System => &[
                ("accelerometer_rotation", "0"),
                ("dim_screen", "1"),
                ("font_scale", "1.0"),
                ("haptic_feedback_enabled", "1"),
                ("pointer_location", "0"),
                ("screen_brightness", "102"),
                ("screen_brightness_mode", "1"),
                ("screen_off_timeout", "30000"),
                ("show_touches", "0"),
                ("sound_effects_enabled", "1"),
                ("time_12_24", "12"),
                ("user_rotation", "0"),
                ("vibrate_when_ringing", "0"),
            ],
            Table::Secure => &[
                ("accessibility_enabled", "0"),
                ("android_id", "5a3c9e01d27b4f68"),
                (
                    "default_input_method",
                    "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
                ),
                (
                    "enabled_input_methods",
                    "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
                ),
                ("location_mode", "3"),
                ("navigation_mode", "2"),
                ("show_ime_with_hard_keyboard", "0"),
                ("user_setup_complete", "1"),
            ],
            Table::Global => &[
                ("adb_enabled", "1"),
                ("airplane_mode_on", "0"),
                ("animator_duration_scale", "1.0"),
                ("auto_time", "1"),
                ("auto_time_zone", "1"),
                ("bluetooth_on", "1"),
                ("development_settings_enabled", "1"),
                ("device_name", "tapscope sim"),
                ("device_provisioned", "1"),
                ("mobile_data", "1"),
                ("stay_on_while_plugged_in", "0"),
                ("transition_animation_scale", "1.0"),
                ("wifi_on", "1"),
                ("window_animation_scale", "1.0"),
            ],
        }
    }
}

/// The display's rotation, in quarter turns counter-clockwise from its natural portrait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Rotation {
    #[default]
    R0,
    R90,
    R180,
    R270,
}

impl Rotation {
    fn from_quarter_turns(turns: u8) -> Option<Self> {
        match turns {
            0 => Some(Rotation::R0),
            1 => Some(Rotation::R90),
            2 => Some(Rotation::R180),
            3 => Some(Rotation::R270),
            _ => None,
        }
    }

    /// `Surface.ROTATION_*` as a number: what `orientation=` and `SurfaceOrientation:` print.
    pub fn quarter_turns(self) -> u8 {
        self as u8
    }

    /// `Surface.rotationToString`: `ROTATION_90`.
    pub fn name(self) -> &'static str {
        match self {
            Rotation::R0 => "ROTATION_0",
            Rotation::R90 => "ROTATION_90",
            Rotation::R180 => "ROTATION_180",
            Rotation::R270 => "ROTATION_270",
        }
    }

    /// Whether the display lies on its side: width and height swap.
    pub fn sideways(self) -> bool {
        matches!(self, Rotation::R90 | Rotation::R270)
    }
}

impl<C: Clock + Clone + Send> SimShell<C> {
    /// A setting's value; `None` when it was never set (`settings get` prints `null`).
    pub(super) fn setting(&self, table: Table, key: &str) -> Option<String> {
        let stored = self.with_file(table.file(), |bytes| {
            let text = String::from_utf8_lossy(bytes);
            stored_value(&text, key)
        });
        match stored {
            Some(Some(value)) => value,
            _ => table
                .defaults()
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (*v).to_owned()),
        }
    }

    /// Every setting of `table` with its value, by key (deleted ones left out).
    pub(super) fn settings_of(&self, table: Table) -> Vec<(String, String)> {
        let mut all: Vec<(String, Option<String>)> = table
            .defaults()
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Some((*v).to_owned())))
            .collect();
        let text = self
            .with_file(table.file(), |b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        for line in text.lines() {
            let (key, value) = parse_line(line);
            all.retain(|(k, _)| *k != key);
            all.push((key.to_owned(), value.map(str::to_owned)));
        }
        let mut set: Vec<(String, String)> =
            all.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
        set.sort();
        set
    }

    /// Sets (`Some`) or deletes (`None`) a setting; whether there was a value to delete.
    pub(super) fn store_setting(&self, table: Table, key: &str, value: Option<&str>) -> bool {
        let had = self.setting(table, key).is_some();
        let text = self
            .with_file(table.file(), |b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let mut lines: Vec<String> = text
            .lines()
            .filter(|line| parse_line(line).0 != key)
            .map(str::to_owned)
            .collect();
        // A deleted default stays deleted: recorded as a key without `=`.
        lines.push(value.map_or_else(|| key.to_owned(), |v| format!("{key}={v}")));
        let mut bytes = lines.join("\n").into_bytes();
        bytes.push(b'\n');
        self.write_own_file(table.file(), &bytes);
        had
    }

    /// Whether auto-rotate is on: the display then follows the phone, which stands upright.
    pub(super) fn auto_rotate(&self) -> bool {
        self.setting(Table::System, "accelerometer_rotation")
            .as_deref()
            == Some("1")
    }

    /// The display's rotation now.
    pub(in crate::device::sim::shell) fn rotation(&self) -> Rotation {
        if self.auto_rotate() {
            return Rotation::R0;
        }
        self.setting(Table::System, "user_rotation")
            .and_then(|v| v.trim().parse::<u8>().ok())
            .and_then(Rotation::from_quarter_turns)
            .unwrap_or_default()
    }
}

/// A stored line: `key=value`, or `key` alone for a deleted one.
fn parse_line(line: &str) -> (&str, Option<&str>) {
    match line.split_once('=') {
        Some((key, value)) => (key, Some(value)),
        None => (line, None),
    }
}

/// What the stored lines say of `key`: `Some(None)` when it was deleted.
fn stored_value(text: &str, key: &str) -> Option<Option<String>> {
    text.lines()
        .rev()
        .map(parse_line)
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.map(str::to_owned))
}

/// `SettingsProvider`'s validators for the keys the sim acts on; others take any value.
fn invalid(table: Table, key: &str, value: &str) -> bool {
    let allowed: &[&str] = match (table, key) {
        (Table::System, "user_rotation") => &["0", "1", "2", "3"],
        (Table::System, "accelerometer_rotation" | "show_touches" | "pointer_location") => {
            &["0", "1"]
        }
        _ => return false,
    };
    !allowed.contains(&value)
}

/// `SettingsService`'s help, as `settings` without a command prints it.
const USAGE: &str = "Settings provider (settings) commands:\n  help\n      Print this help text.\n  \
    get [--user <USER_ID> | current] NAMESPACE KEY\n      Retrieve the current value of KEY.\n  \
    put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n      Change the \
    contents of KEY to VALUE.\n  delete [--user <USER_ID> | current] NAMESPACE KEY\n      Delete \
    the entry for KEY.\n  list [--user <USER_ID> | current] NAMESPACE\n      Print all defined \
    keys.\n\n  NAMESPACE is one of {system, secure, global}, case-insensitive\n";

/// What a `settings` command asks.
enum Verb {
    Get,
    Put,
    Delete,
    List,
}

/// `settings …`: `SettingsService.MyShellCommand.onCommand`'s parse, then its answer.
pub(super) fn run<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    args: &[&str],
    io: &mut Io<'_>,
) -> u8 {
    // `--user N` may come anywhere before the key; the sim has user 0 only.
    let mut words: Vec<&str> = Vec::new();
    let mut rest = args.iter();
    while let Some(&word) = rest.next() {
        if word == "--user" {
            rest.next();
        } else {
            words.push(word);
        }
    }
    let verb = match words.first().copied() {
        None | Some("help" | "-h") => {
            io.say(USAGE);
            return 255;
        }
        Some(word) => match word.to_ascii_lowercase().as_str() {
            "get" => Verb::Get,
            "put" => Verb::Put,
            "delete" => Verb::Delete,
            "list" => Verb::List,
            _ => {
                io.complain(&format!("Invalid command: {word}\n"));
                return 255;
            }
        },
    };
    let Some(&namespace) = words.get(1) else {
        io.complain("Bad arguments\n");
        return 255;
    };
    let Some(table) = Table::parse(namespace) else {
        io.complain(&format!("Invalid namespace '{namespace}'\n"));
        return 255;
    };
    match (verb, &words[2..]) {
        (Verb::List, _) => {
            for (key, value) in shell.settings_of(table) {
                io.say(&format!("{key}={value}\n"));
            }
        }
        (Verb::Get, [key]) => {
            let value = shell.setting(table, key);
            io.say(&format!("{}\n", value.as_deref().unwrap_or("null")));
        }
        (Verb::Delete, [key]) => {
            let deleted = shell.store_setting(table, key, None);
            io.say(&format!("Deleted {} rows\n", u8::from(deleted)));
        }
        // A tag and `default` may follow the value; the sim keeps the value alone.
        (Verb::Put, [key, value, ..]) => return put(shell, table, key, value, "put", io),
        (Verb::Get | Verb::Delete, [_, _, ..]) => {
            io.complain("Too many arguments\n");
            return 255;
        }
        _ => {
            io.complain("Bad arguments\n");
            return 255;
        }
    }
    0
}

/// Sets a value, as `SettingsProvider` does: a value its validator refuses throws.
pub(super) fn put<C: Clock + Clone + Send>(
    shell: &SimShell<C>,
    table: Table,
    key: &str,
    value: &str,
    command: &str,
    io: &mut Io<'_>,
) -> u8 {
    if invalid(table, key, value) {
        io.complain(&format!(
            "\nException occurred while executing '{command}':\n\
             java.lang.IllegalArgumentException: Invalid value: {value} for setting: {key}\n\
             \tat com.android.providers.settings.SettingsProvider.validateSystemSettingValue(SettingsProvider.java:2295)\n"
        ));
        return 255;
    }
    shell.store_setting(table, key, Some(value));
    0
}

//! Intents as `am` and `cmd package` read them from a command line
//! (`Intent.parseCommandArgs`), as `Intent.toString()` prints them, and which of the sim's
//! activities one resolves to: a launcher activity answers `MAIN` with `LAUNCHER` (or no
//! category), the home app `MAIN` with `HOME`; no activity of the sim takes data (a
//! `VIEW` of a web address finds none: the sim has no browser).

use super::apps::{App, Component};

pub(super) const ACTION_MAIN: &str = "android.intent.action.MAIN";
pub(super) const CATEGORY_LAUNCHER: &str = "android.intent.category.LAUNCHER";
pub(super) const CATEGORY_HOME: &str = "android.intent.category.HOME";
pub(super) const CATEGORY_DEFAULT: &str = "android.intent.category.DEFAULT";
/// `FLAG_ACTIVITY_NEW_TASK`, which `am start` adds.
pub(super) const NEW_TASK: u32 = 0x1000_0000;

/// An intent as given on a command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Intent {
    pub action: Option<String>,
    pub categories: Vec<String>,
    pub data: Option<String>,
    pub mime: Option<String>,
    pub flags: u32,
    pub package: Option<String>,
    /// `-n` as given: a class the sim may not have.
    pub component: Option<Component>,
    /// Extras were given (`--es`, `--ei`, …): printed as `(has extras)`.
    pub extras: bool,
}

/// Options of `Intent.parseCommandArgs` followed by one value, and by two (an extra).
const ONE_VALUE: [&str; 9] = ["-a", "-d", "-t", "-c", "-n", "-p", "-f", "-i", "--selector"];
const EXTRA_OPTIONS: [&str; 14] = [
    "-e", "--es", "--esn", "--ei", "--eu", "--ecn", "--eia", "--eial", "--el", "--ela", "--ef",
    "--ez", "--esa", "--ed",
];

impl Intent {
    /// Parses intent options; `own` takes the caller's own options (`-W`, `--brief`) and
    /// says how many words it used (0: not its option). Anything else is refused with
    /// `Intent`'s message.
    pub fn parse(
        args: &[&str],
        mut own: impl FnMut(&str, Option<&str>) -> usize,
    ) -> Result<Intent, String> {
        let mut intent = Intent::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let next = args.get(i + 1).copied();
            let used = own(word, next);
            if used > 0 {
                i += used;
                continue;
            }
            if EXTRA_OPTIONS.contains(&word) {
                if word == "--esn" {
                    i += 2;
                } else {
                    i += 3;
                }
                intent.extras = true;
                continue;
            }
            if ONE_VALUE.contains(&word) {
                let value = next.ok_or_else(|| format!("Argument expected after \"{word}\""))?;
                match word {
                    "-a" => intent.action = Some(value.to_owned()),
                    "-d" => intent.data = Some(value.to_owned()),
                    "-t" => intent.mime = Some(value.to_owned()),
                    "-c" => intent.categories.push(value.to_owned()),
                    "-p" => intent.package = Some(value.to_owned()),
                    "-f" => intent.flags |= parse_flags(value)?,
                    "-n" => {
                        let component = Component::parse(value)
                            .ok_or_else(|| format!("Bad component name: {value}"))?;
                        intent.component = Some(component);
                    }
                    _ => {}
                }
                i += 2;
                continue;
            }
            if word.starts_with("--activity-") || word.starts_with("--grant-") {
                i += 1;
                continue;
            }
            if word.starts_with('-') {
                return Err(format!("Unknown option: {word}"));
            }
            // A last word: a URI with `:`, a component with `/`, else a package.
            if word.contains(':') {
                intent.data = Some(word.to_owned());
            } else if word.contains('/') {
                intent.component = Some(
                    Component::parse(word).ok_or_else(|| format!("Bad component name: {word}"))?,
                );
            } else {
                intent.package = Some(word.to_owned());
            }
            i += 1;
        }
        Ok(intent)
    }

    /// `Intent.toString()`: `Intent { act=… cat=[…] dat=… flg=0x… pkg=… cmp=… }`, the data
    /// as `Uri.toSafeString()` hides it.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(action) = &self.action {
            parts.push(format!("act={action}"));
        }
        if !self.categories.is_empty() {
            parts.push(format!("cat=[{}]", self.categories.join(",")));
        }
        if let Some(data) = &self.data {
            parts.push(format!("dat={}", safe_uri(data)));
        }
        if let Some(mime) = &self.mime {
            parts.push(format!("typ={mime}"));
        }
        if self.flags != 0 {
            parts.push(format!("flg=0x{:x}", self.flags));
        }
        if let Some(package) = &self.package {
            parts.push(format!("pkg={package}"));
        }
        if let Some(component) = &self.component {
            parts.push(format!("cmp={}", component.short()));
        }
        if self.extras {
            parts.push("(has extras)".to_owned());
        }
        format!("Intent {{ {} }}", parts.join(" "))
    }

    /// The activities of `apps` this intent matches, with whether each one's filter
    /// is a default one (`HOME`'s is).
    pub fn resolve<'a>(&self, apps: &'a [App]) -> Vec<(&'a App, Component, bool)> {
        let mut found = Vec::new();
        for app in apps {
            if self.package.as_ref().is_some_and(|p| *p != app.package) {
                continue;
            }
            if let Some(component) = &self.component {
                // An explicit intent names its activity: only a launcher activity is
                // exported from the sim's apps.
                let home = app.home.as_ref() == Some(component);
                if home || app.launcher.as_ref() == Some(component) {
                    found.push((app, component.clone(), home));
                }
                continue;
            }
            if self.data.is_some() || self.mime.is_some() {
                continue;
            }
            let main = self.action.as_deref().is_none_or(|a| a == ACTION_MAIN);
            let takes =
                |filter: &[&str]| self.categories.iter().all(|c| filter.contains(&c.as_str()));
            if let Some(launcher) = &app.launcher
                && main
                && takes(&[CATEGORY_LAUNCHER])
            {
                found.push((app, launcher.clone(), false));
            }
            if let Some(home) = &app.home
                && main
                && takes(&[CATEGORY_HOME, CATEGORY_DEFAULT])
            {
                found.push((app, home.clone(), true));
            }
        }
        found
    }
}

/// `-f FLAGS`: decimal or `0x` hex, as `Integer.decode` reads it.
fn parse_flags(text: &str) -> Result<u32, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("For input string: \"{text}\""))
}

/// `Uri.toSafeString()`: a web address keeps its host only (`https://example.com/...`).
fn safe_uri(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once(':') else {
        return uri.to_owned();
    };
    let lower = scheme.to_ascii_lowercase();
    if ["http", "https", "ftp", "rtsp"].contains(&lower.as_str()) {
        let authority = rest
            .strip_prefix("//")
            .unwrap_or(rest)
            .split(['/', '?', '#'])
            .next()
            .unwrap_or("");
        let host = authority.rsplit('@').next().unwrap_or(authority);
        return format!("{scheme}://{host}/...");
    }
    if ["tel", "sip", "sms", "smsto", "mailto", "nfc"].contains(&lower.as_str()) {
        let masked: String = rest
            .chars()
            .map(|c| if matches!(c, '-' | '@' | '.') { c } else { 'x' })
            .collect();
        return format!("{scheme}:{masked}");
    }
    // Other schemes keep their scheme-specific part, not the fragment.
    let ssp = rest.split('#').next().unwrap_or(rest);
    format!("{scheme}:{ssp}")
}

//! `PruneRules`: every pruning rule's switch and parameters, read from and written to a TOML rules file.

use std::fs::FileType;
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, line_column};

/// Rules files larger than this are refused; the shipped defaults are under 3 KB.
pub const MAX_RULES_BYTES: u64 = 64 * 1024;

/// A TOML error longer than this (its line quoted whole) is cut to its position and message.
const MAX_SHOWN_ERROR: usize = 600;

/// What a path that is not a regular file is, in words.
pub(crate) fn file_kind(kind: FileType) -> &'static str {
    if kind.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// How an on-screen keyboard window is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyboardMode {
    /// Every key is a node with its own `i` (nothing on screen is lost).
    #[default]
    Keys,
    /// Only `keyboard: open` in the header; type with text input instead of keys.
    Collapse,
}

/// What reads a self-drawn screen's pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OcrEngine {
    /// PP-OCR's models where they are installed and write every language the screen needs
    /// (their dictionary holds its script), else Tesseract.
    #[default]
    Auto,
    /// PP-OCR's detector and recognizer (`pip install --no-deps rapidocr-onnxruntime`).
    Ppocr,
    /// Tesseract alone.
    Tesseract,
}

impl OcrEngine {
    /// `auto`, `ppocr` or `tesseract`, as the rules file and `--ocr-engine` take them.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text.trim() {
            "auto" => Ok(Self::Auto),
            "ppocr" => Ok(Self::Ppocr),
            "tesseract" => Ok(Self::Tesseract),
            other => Err(format!(
                "`{other}` is not an OCR engine: say `auto`, `ppocr` or `tesseract`"
            )),
        }
    }
}

impl std::fmt::Display for OcrEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OcrEngine::Auto => "auto",
            OcrEngine::Ppocr => "ppocr",
            OcrEngine::Tesseract => "tesseract",
        })
    }
}

/// Which languages read a self-drawn screen's pixels.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum OcrLanguages {
    /// English, and each installed language whose script the dump's own texts are written
    /// in (a Chinese app's status bar and notifications name `chi_sim`).
    #[default]
    Auto,
    /// These, in Tesseract's names; `eng` is always read too.
    Named(Vec<String>),
}

impl OcrLanguages {
    /// `auto`, or names joined by `+` (`eng+chi_sim`), as the rules file and `--ocr-lang`
    /// take them.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text == "auto" {
            return Ok(Self::Auto);
        }
        let names: Vec<String> = text.split('+').map(|n| n.trim().to_owned()).collect();
        let fits = |name: &String| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if names.iter().all(fits) {
            Ok(Self::Named(names))
        } else {
            Err(format!(
                "`{text}` is not `auto` or language names joined by `+` (such as `eng+chi_sim`, \
                 as `tesseract --list-langs` names them)"
            ))
        }
    }
}

impl TryFrom<String> for OcrLanguages {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        Self::parse(&text)
    }
}

impl From<OcrLanguages> for String {
    fn from(languages: OcrLanguages) -> String {
        languages.to_string()
    }
}

impl std::fmt::Display for OcrLanguages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OcrLanguages::Auto => f.write_str("auto"),
            OcrLanguages::Named(names) => f.write_str(&names.join("+")),
        }
    }
}

/// All pruning rules; `Default` is what `assets/rules/default.toml` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PruneRules {
    /// Drop nodes with no text, description, action or kept id; their children move up.
    pub flatten_shells: bool,
    /// A clickable node whose only content is text absorbs that text into its own line.
    pub merge_clickable_text: bool,
    /// At most this many text nodes merge into one clickable line.
    pub max_merged_texts: usize,
    /// Print containers that have nothing but a readable resource id.
    pub keep_id_containers: bool,
    /// Print only true flags as bare words (`long`; `click` only where a handle does not
    /// already say it), and `disabled` for enabled=false.
    pub omit_false_flags: bool,
    /// Give every printed node an `i`, not only those an agent can act on.
    pub index_all: bool,
    /// Print `pos:`, the 3×3 cell of the node's visible centre, on every node with a
    /// handle; off, only where two sibling lines would otherwise read the same.
    pub anchors: bool,
    /// Summarise off-viewport children of scrollables as `more: [N below: …]`.
    pub more_summaries: bool,
    /// How many first words of off-viewport items a `more:` line quotes, per direction.
    pub more_samples: usize,
    /// Words quoted from each off-viewport item.
    pub more_words: usize,
    /// Longer text is cut to this many characters and ends with `…`.
    pub max_text_chars: usize,
    /// Print `#id` (the resource id's name) for actionable nodes that have no text.
    pub ids: bool,
    /// Print the `version:` header line.
    pub version_header: bool,
    pub keyboard: KeyboardMode,
    /// On a self-drawn screen (the screenshot fallback), read its text in the screenshot's
    /// pixels and list each line as an `ocr` node with a handle.
    pub ocr: bool,
    /// Words read in pixels with a lower confidence (0–100) are dropped.
    pub ocr_min_confidence: u8,
    /// The languages the pixels are read in.
    pub ocr_languages: OcrLanguages,
    /// What reads them.
    pub ocr_engine: OcrEngine,
}

impl Default for PruneRules {
    fn default() -> Self {
        Self {
            flatten_shells: true,
            merge_clickable_text: true,
            max_merged_texts: 6,
            keep_id_containers: false,
            omit_false_flags: true,
            index_all: false,
            anchors: false,
            more_summaries: true,
            more_samples: 2,
            more_words: 4,
            max_text_chars: 100,
            ids: true,
            version_header: true,
            keyboard: KeyboardMode::Keys,
            ocr: true,
            ocr_min_confidence: 60,
            ocr_languages: OcrLanguages::Auto,
            ocr_engine: OcrEngine::Auto,
        }
    }
}

impl PruneRules {
    /// Every rule switched off: the tree as close to raw as the format allows.
    pub fn all_off() -> Self {
        Self {
            flatten_shells: false,
            merge_clickable_text: false,
            keep_id_containers: true,
            omit_false_flags: false,
            index_all: true,
            anchors: false,
            more_summaries: false,
            ids: true,
            version_header: true,
            ..Self::default()
        }
    }

    /// Reads a rules file; missing keys keep their defaults, unknown keys are an error.
    /// Folders, FIFOs and devices are refused before they are opened (a FIFO would wait for
    /// a writer), and so are files over [`MAX_RULES_BYTES`].
    pub fn load(path: &Path) -> Result<Self> {
        let io = |reason| Error::Io {
            path: path.into(),
            reason,
        };
        let rules_error = |message| Error::Rules {
            path: path.into(),
            message,
        };
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if !kind.is_file() {
            return Err(Error::NotAFile {
                path: path.into(),
                found: file_kind(kind),
                wanted: "a rules file (TOML, like assets/rules/default.toml)",
            });
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        let mut bytes = Vec::new();
        // Read one byte past the limit, in case the file grew since it was measured.
        file.take(MAX_RULES_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        let size = size.max(bytes.len() as u64);
        if size > MAX_RULES_BYTES {
            return Err(rules_error(format!(
                "the file is {size} bytes, over the {MAX_RULES_BYTES}-byte limit for rules; \
                 the shipped assets/rules/default.toml is under 3 KB: check that this is a rules file"
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            rules_error(format!(
                "not UTF-8 text (at byte {}); write rules as TOML text",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Self::from_toml(&text).map_err(rules_error)
    }

    /// Parses rules from TOML text; the error names the offending key and line, and shows
    /// the line itself only when it is short.
    pub fn from_toml(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| {
            let shown = e.to_string();
            if shown.len() <= MAX_SHOWN_ERROR {
                return shown.trim_end().to_owned();
            }
            let (line, column) = line_column(text, e.span().map_or(0, |span| span.start));
            let message: String = e.message().chars().take(MAX_SHOWN_ERROR).collect();
            format!("TOML parse error at line {line}, column {column}: {message}")
        })
    }

    /// The rules as a TOML document, exactly what [`PruneRules::load`] reads back.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| unreachable!("PruneRules always serialises: {e}"))
    }

    /// Writes the rules file.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_toml()).map_err(|reason| Error::Io {
            path: path.into(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ocr_languages_are_auto_or_names_joined_by_plus() {
        assert_eq!(OcrLanguages::parse("auto"), Ok(OcrLanguages::Auto));
        let named = OcrLanguages::parse("eng+chi_sim").unwrap();
        assert_eq!(
            named,
            OcrLanguages::Named(vec!["eng".into(), "chi_sim".into()])
        );
        assert_eq!(named.to_string(), "eng+chi_sim");
        let err = OcrLanguages::parse("eng,chi").unwrap_err();
        assert!(err.contains("joined by `+`"), "{err}");
        assert!(OcrLanguages::parse("eng++deu").is_err());
        let rules = PruneRules::from_toml("ocr_languages = \"jpn\"\n").unwrap();
        assert_eq!(rules.ocr_languages, OcrLanguages::Named(vec!["jpn".into()]));
        let err = PruneRules::from_toml("ocr_languages = \"a b\"\n").unwrap_err();
        assert!(err.contains("is not `auto`"), "{err}");
    }

    #[test]
    fn the_ocr_engine_is_auto_ppocr_or_tesseract() {
        for engine in [OcrEngine::Auto, OcrEngine::Ppocr, OcrEngine::Tesseract] {
            assert_eq!(OcrEngine::parse(&engine.to_string()), Ok(engine));
            let rules = PruneRules::from_toml(&format!("ocr_engine = \"{engine}\"\n")).unwrap();
            assert_eq!(rules.ocr_engine, engine);
        }
        let err = OcrEngine::parse("easyocr").unwrap_err();
        assert!(err.contains("`auto`, `ppocr` or `tesseract`"), "{err}");
        assert!(PruneRules::from_toml("ocr_engine = \"paddle\"\n").is_err());
    }

    #[test]
    fn toml_round_trip_keeps_every_rule() {
        let rules = PruneRules {
            anchors: false,
            ocr_languages: OcrLanguages::Named(vec!["eng".into(), "kor".into()]),
            ocr_engine: OcrEngine::Tesseract,
            max_text_chars: 7,
            keyboard: KeyboardMode::Collapse,
            ..PruneRules::default()
        };
        assert_eq!(PruneRules::from_toml(&rules.to_toml()).unwrap(), rules);
        assert_eq!(
            PruneRules::from_toml(&PruneRules::all_off().to_toml()).unwrap(),
            PruneRules::all_off()
        );
    }

    #[test]
    fn partial_files_keep_defaults_and_typos_are_named() {
        let rules = PruneRules::from_toml("anchors = false\n").unwrap();
        assert_eq!(
            rules,
            PruneRules {
                anchors: false,
                ..PruneRules::default()
            }
        );
        let err = PruneRules::from_toml("anchor = false\n").unwrap_err();
        assert!(err.contains("unknown field `anchor`"), "{err}");
        let err = PruneRules::from_toml("max_text_chars = \"ten\"\n").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
    }

    #[test]
    fn shipped_default_file_is_the_default() {
        let shipped = include_str!("../../../assets/rules/default.toml");
        assert_eq!(
            PruneRules::from_toml(shipped).unwrap(),
            PruneRules::default()
        );
    }
}

//! Where PP-OCR's models are. tapscope downloads nothing: the models come from a package
//! the user installs, PyPI's `rapidocr-onnxruntime` (its wheel carries PP-OCRv4's ONNX
//! detector and recognizer, the recognizer's dictionary in its metadata), or from a folder
//! named by `TAPSCOPE_OCR_MODELS`.
//!
//! The package is found by asking Python where it is (`importlib.util.find_spec`, which
//! locates a package without importing it, so its own dependencies need not be installed:
//! `pip install --no-deps` is enough).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::ocr::OcrError;
use crate::ocr::process;

/// The detector's file name (DB, PP-OCRv4 mobile).
pub const DETECTOR: &str = "ch_PP-OCRv4_det_infer.onnx";
/// The recognizer's file name (SVTR-LCNet, PP-OCRv4 mobile: Chinese and Latin).
pub const RECOGNIZER: &str = "ch_PP-OCRv4_rec_infer.onnx";
/// The environment variable naming a folder that holds both.
pub const MODELS_VARIABLE: &str = "TAPSCOPE_OCR_MODELS";
/// How to install them.
pub const INSTALL: &str = "pip install --no-deps rapidocr-onnxruntime==1.4.4";
/// The Python package that ships them, in its `models` folder.
const PACKAGE: &str = "rapidocr_onnxruntime";

/// The two model files, both present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelFiles {
    pub detector: PathBuf,
    pub recognizer: PathBuf,
}

impl ModelFiles {
    /// [`DETECTOR`] and [`RECOGNIZER`] in `dir`, or what is missing there.
    pub fn in_dir(dir: &Path) -> Result<Self, OcrError> {
        let detector = dir.join(DETECTOR);
        let recognizer = dir.join(RECOGNIZER);
        let missing: Vec<&str> = [(&detector, DETECTOR), (&recognizer, RECOGNIZER)]
            .into_iter()
            .filter(|(path, _)| !path.is_file())
            .map(|(_, name)| name)
            .collect();
        if missing.is_empty() {
            return Ok(Self {
                detector,
                recognizer,
            });
        }
        Err(not_found(format!(
            "{} has no {}",
            dir.display(),
            missing.join(" nor ")
        )))
    }

    /// The folder `TAPSCOPE_OCR_MODELS` names when it is set (and only it), else the
    /// `models` folder of the installed `rapidocr_onnxruntime` package.
    pub fn find() -> Result<Self, OcrError> {
        if let Some(dir) = std::env::var_os(MODELS_VARIABLE).filter(|d| !d.is_empty()) {
            return Self::in_dir(Path::new(&dir)).map_err(|e| match e {
                OcrError::ModelsNotFound { looked, .. } => {
                    not_found(format!("{MODELS_VARIABLE} is set: {looked}"))
                }
                other => other,
            });
        }
        let package = python_package(PACKAGE).map_err(|why| {
            not_found(format!(
                "{MODELS_VARIABLE} is not set, and Python's {PACKAGE} package {why}"
            ))
        })?;
        Self::in_dir(&package.join("models"))
    }
}

fn not_found(looked: String) -> OcrError {
    OcrError::ModelsNotFound {
        looked,
        install: INSTALL,
        detector: DETECTOR,
        recognizer: RECOGNIZER,
    }
}

/// The folder of the Python package `name`, as `python3` finds it; why not, as the end of
/// a sentence.
fn python_package(name: &str) -> Result<PathBuf, String> {
    let script = format!(
        "import importlib.util as u\ns = u.find_spec('{name}')\n\
         print(s.submodule_search_locations[0] if s and s.submodule_search_locations else '')"
    );
    let mut command = Command::new("python3");
    command.arg("-c").arg(script);
    let done = process::run(command, Vec::new(), Duration::from_secs(10))
        .map_err(|e| format!("could not be looked for ({})", describe(&e)))?;
    let found = String::from_utf8_lossy(&done.stdout).trim().to_string();
    if !done.status.success() {
        return Err(format!(
            "could not be looked for (python3 failed: {})",
            String::from_utf8_lossy(&done.stderr).trim()
        ));
    }
    if found.is_empty() {
        return Err("is not installed".into());
    }
    Ok(PathBuf::from(found))
}

fn describe(e: &process::RunError) -> String {
    match e {
        process::RunError::Spawn(e) => format!("python3 could not be run: {e}"),
        process::RunError::TimedOut => "python3 took over 10 s".into(),
        process::RunError::Io(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_the_models_says_which_are_missing_and_how_to_install_them() {
        let dir = tempfile::tempdir().unwrap();
        let message = ModelFiles::in_dir(dir.path()).unwrap_err().to_string();
        assert!(
            message.contains(DETECTOR) && message.contains(RECOGNIZER),
            "{message}"
        );
        assert!(message.contains(INSTALL), "{message}");
        std::fs::write(dir.path().join(DETECTOR), b"").unwrap();
        let message = ModelFiles::in_dir(dir.path()).unwrap_err().to_string();
        assert!(
            message.contains(&format!("has no {RECOGNIZER}")),
            "{message}"
        );
        std::fs::write(dir.path().join(RECOGNIZER), b"").unwrap();
        let found = ModelFiles::in_dir(dir.path()).unwrap();
        assert_eq!(found.recognizer, dir.path().join(RECOGNIZER));
    }
}

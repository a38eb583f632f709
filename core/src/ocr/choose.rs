//! Which reader reads a screen (rule `ocr_engine`): by default PP-OCR where its models are
//! installed and its dictionary writes every language the screen needs, else Tesseract in
//! those languages; `ppocr` or `tesseract` chooses one. Both are looked for once. Models
//! that are installed but cannot be loaded are an error, not a quiet fall back to
//! Tesseract: the sentence says how to reinstall them.
//!
//! PP-OCR is preferred because it finds text before reading it (docs/ocr.md, "Real
//! screenshots": more of the dump's texts recalled, far fewer lines that are not text);
//! Tesseract has trained data for scripts PP-OCR's Chinese and Latin dictionary lacks
//! (Hangul, Cyrillic, Arabic, …).

use std::sync::OnceLock;

use super::languages;
#[cfg(feature = "ppocr")]
use super::languages::{sample, written_in};
use super::{OcrError, Tesseract, TextReader};
use crate::model::Tree;
use crate::prune::{OcrEngine, OcrLanguages};

#[cfg(feature = "ppocr")]
use super::ppocr::PpOcr;

/// The readers found on this machine, or why each is not.
#[derive(Debug)]
pub struct Engines {
    /// Looked for when first needed: a screen PP-OCR reads spends nothing on it.
    tesseract: OnceLock<Result<Tesseract, OcrError>>,
    #[cfg(feature = "ppocr")]
    ppocr: Result<PpOcr, OcrError>,
}

impl Engines {
    /// Looks for both: `tesseract` on `PATH`, PP-OCR's models where
    /// [`super::ppocr::models::ModelFiles::find`] looks.
    pub fn find() -> Self {
        Self {
            tesseract: OnceLock::new(),
            #[cfg(feature = "ppocr")]
            ppocr: PpOcr::find(),
        }
    }

    /// These readers, or why each is missing.
    #[cfg(feature = "ppocr")]
    pub fn new(tesseract: Result<Tesseract, OcrError>, ppocr: Result<PpOcr, OcrError>) -> Self {
        Self {
            tesseract: OnceLock::from(tesseract),
            ppocr,
        }
    }

    pub fn tesseract(&self) -> Result<&Tesseract, &OcrError> {
        self.tesseract.get_or_init(Tesseract::find).as_ref()
    }

    #[cfg(feature = "ppocr")]
    pub fn ppocr(&self) -> Result<&PpOcr, &OcrError> {
        self.ppocr.as_ref()
    }

    /// The reader for a screen whose dump is `tree`, under the rules' `engine` and
    /// `languages`; what is missing is the error.
    pub fn reader_for(
        &self,
        engine: OcrEngine,
        asked: &OcrLanguages,
        tree: &Tree,
    ) -> Result<Box<dyn TextReader>, OcrError> {
        match engine {
            OcrEngine::Tesseract => self.tesseract_in(asked, tree),
            #[cfg(feature = "ppocr")]
            OcrEngine::Ppocr => match &self.ppocr {
                Ok(ppocr) => Ok(Box::new(ppocr.clone())),
                Err(e) => Err(e.clone()),
            },
            #[cfg(not(feature = "ppocr"))]
            OcrEngine::Ppocr => Err(OcrError::NotBuilt {
                reader: "PP-OCR",
                feature: "ppocr",
            }),
            OcrEngine::Auto => self.auto(asked, tree),
        }
    }

    #[cfg(feature = "ppocr")]
    fn auto(&self, asked: &OcrLanguages, tree: &Tree) -> Result<Box<dyn TextReader>, OcrError> {
        let ppocr = match &self.ppocr {
            Ok(ppocr) => ppocr,
            // Models that are there but broken are said, not passed over for Tesseract.
            Err(broken @ OcrError::BadModel { .. }) => return Err(broken.clone()),
            Err(models) => {
                return self.tesseract_in(asked, tree).map_err(|e| match e {
                    OcrError::NotInstalled { .. } | OcrError::TooOld { .. } => OcrError::NoEngine {
                        models: models.to_string(),
                        tesseract: e.to_string(),
                    },
                    other => other,
                });
            }
        };
        let needed = match asked {
            OcrLanguages::Auto => written_in(tree),
            OcrLanguages::Named(names) => names.clone(),
        };
        if needed.iter().all(|l| ppocr.can_write(sample(l))) {
            return Ok(Box::new(ppocr.clone()));
        }
        // A script PP-OCR does not write: Tesseract's data for it, else PP-OCR reads what
        // it can (the Latin and Chinese around it) rather than nothing.
        self.tesseract_in(asked, tree)
            .or_else(|_| Ok(Box::new(ppocr.clone())))
    }

    #[cfg(not(feature = "ppocr"))]
    fn auto(&self, asked: &OcrLanguages, tree: &Tree) -> Result<Box<dyn TextReader>, OcrError> {
        self.tesseract_in(asked, tree)
    }

    /// Tesseract in the languages `asked` names, or those `tree`'s texts are written in.
    fn tesseract_in(
        &self,
        asked: &OcrLanguages,
        tree: &Tree,
    ) -> Result<Box<dyn TextReader>, OcrError> {
        let found = self.tesseract().map_err(Clone::clone)?;
        let wanted = languages::chosen(asked, found.installed(), tree);
        let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
        Ok(Box::new(found.clone().with_languages(&wanted)?))
    }
}

#[cfg(test)]
#[cfg(feature = "ppocr")]
mod tests {
    use super::*;
    use crate::ocr::ppocr::models::{INSTALL, ModelFiles};
    use crate::parse::parse_str;

    fn missing() -> Engines {
        let models = ModelFiles::in_dir(std::path::Path::new("/nonexistent")).unwrap_err();
        let tesseract = Tesseract::find_at("/nonexistent/tesseract").unwrap_err();
        Engines::new(Err(tesseract), Err(models))
    }

    fn tree() -> Tree {
        parse_str(
            r#"<hierarchy rotation="0"><node text="" bounds="[0,0][1080,2400]"/></hierarchy>"#,
        )
        .unwrap()
    }

    #[test]
    fn with_neither_reader_auto_says_how_to_install_each() {
        let err = missing()
            .reader_for(OcrEngine::Auto, &OcrLanguages::Auto, &tree())
            .unwrap_err();
        let message = err.to_string();
        assert!(matches!(err, OcrError::NoEngine { .. }), "{message}");
        assert!(message.contains(INSTALL), "{message}");
        assert!(
            message.contains("apt-get install tesseract-ocr"),
            "{message}"
        );
    }

    #[test]
    fn a_chosen_reader_that_is_missing_is_the_error() {
        let engines = missing();
        let ppocr = engines.reader_for(OcrEngine::Ppocr, &OcrLanguages::Auto, &tree());
        assert!(matches!(ppocr, Err(OcrError::ModelsNotFound { .. })));
        let tesseract = engines.reader_for(OcrEngine::Tesseract, &OcrLanguages::Auto, &tree());
        assert!(matches!(tesseract, Err(OcrError::NotInstalled { .. })));
    }
}

//! Which model is loaded: its name, version and the SHA-256 of its weights, so that
//! `/readyz`, logs and bug reports can say exactly what is detecting.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::NerError;

/// A loaded model's identity.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelIdentity {
    /// `config.json`'s `anonymizer.name`, else the model directory's name.
    pub name: String,
    /// `config.json`'s `anonymizer.version`, when the model declares one.
    pub version: Option<String>,
    /// Lower-case hex SHA-256 of the `.onnx` file.
    pub sha256: String,
}

impl ModelIdentity {
    /// Reads the identity of the model in `dir` whose weights are `onnx`.
    ///
    /// # Errors
    /// The weights cannot be read (a malformed `config.json` only loses name/version:
    /// the tag scheme's parser reports it).
    pub fn read(dir: &Path, config_json: &str, onnx: &Path) -> Result<ModelIdentity, NerError> {
        #[derive(serde::Deserialize, Default)]
        struct Raw {
            #[serde(default)]
            anonymizer: Declared,
        }
        #[derive(serde::Deserialize, Default)]
        struct Declared {
            name: Option<String>,
            version: Option<String>,
        }
        let declared = serde_json::from_str::<Raw>(config_json)
            .unwrap_or_default()
            .anonymizer;
        let weights = std::fs::read(onnx)
            .map_err(|e| NerError::runtime(format!("reading {}: {e}", onnx.display())))?;
        let mut sha256 = String::with_capacity(64);
        for byte in Sha256::digest(&weights) {
            let _ = write!(sha256, "{byte:02x}");
        }
        let name = declared.name.unwrap_or_else(|| {
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        Ok(ModelIdentity {
            name,
            version: declared.version,
            sha256,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_name_and_version_win_and_the_checksum_is_of_the_weights() {
        let dir = std::env::temp_dir().join(format!("anonymizer-identity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let onnx = dir.join("model.onnx");
        std::fs::write(&onnx, b"abc").unwrap();
        let declared = r#"{"anonymizer": {"name": "anonymizer-ner", "version": "1.2.0"}}"#;
        let id = ModelIdentity::read(&dir, declared, &onnx).unwrap();
        assert_eq!(id.name, "anonymizer-ner");
        assert_eq!(id.version.as_deref(), Some("1.2.0"));
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            id.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let undeclared = ModelIdentity::read(&dir, "{}", &onnx).unwrap();
        assert_eq!(undeclared.name, dir.file_name().unwrap().to_string_lossy());
        assert_eq!(undeclared.version, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

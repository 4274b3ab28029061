//! The ONNX side of the NER tier: the process-wide ONNX Runtime environment, one
//! session per worker, the model's tag scheme (from `config.json`) and one batched
//! forward pass from token ids to per-token (class, probability) pairs.
//!
//! Knows nothing about text, offsets or our labels: ids in, classes out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ort::environment::Environment;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::TensorRef;

use super::NerError;

/// File names inside a model directory.
pub const CONFIG_FILE: &str = "config.json";
pub const TOKENIZER_FILE: &str = "tokenizer.json";
/// Tried in order: quantised Rampart layout first, then the plain exports.
pub const ONNX_FILES: &[&str] = &["onnx/model_q4.onnx", "onnx/model.onnx", "model.onnx"];

/// A BIO prefix of one model class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bio {
    Outside,
    Begin,
    Inside,
}

/// The model's classes: `tags[class] = (Bio, index into entity_types)`.
#[derive(Debug, Clone)]
pub struct TagScheme {
    pub classes: Vec<(Bio, usize)>,
    /// Entity type names without the `B-`/`I-` prefix, e.g. `GIVEN_NAME`.
    pub entity_types: Vec<String>,
    /// `max_position_embeddings` of the model (defaults to 512).
    pub max_positions: usize,
    /// What the model was trained to read in `token_type_ids`.
    pub token_types: TokenTypes,
    /// What one tag covers: a pre-tokenizer word, or each sub-word token.
    pub words: Words,
}

/// What the model tags, from `config.json`'s `"anonymizer": {"words": "tokens"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Words {
    /// Words as the tokenizer's pre-tokenizer splits them (at whitespace and
    /// punctuation); a word takes its first sub-word's tag, as Hugging Face's `first`
    /// aggregation does.
    #[default]
    PreTokenizer,
    /// Every sub-word token is tagged on its own: for scripts written without spaces,
    /// where a pre-tokenizer word can be a whole sentence.
    Tokens,
}

/// How `token_type_ids` are filled, from `config.json`'s
/// `"anonymizer": {"token_type_ids": "casing"}` (absent: zeros, as for any BERT model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenTypes {
    #[default]
    Zeros,
    /// 1 for the tokens of a word that starts with an upper-case letter: the casing an
    /// uncased encoder's tokenizer throws away (`training/bio.py` `casing_type_ids`).
    Casing,
}

impl TagScheme {
    /// Reads `id2label` (BIO tags, `O` for outside) and `max_position_embeddings`.
    ///
    /// # Errors
    /// Missing or non-contiguous ids, or a tag that is neither `O` nor `B-`/`I-`-prefixed.
    pub fn from_config_json(text: &str) -> Result<TagScheme, String> {
        #[derive(serde::Deserialize)]
        struct Raw {
            id2label: BTreeMap<String, String>,
            max_position_embeddings: Option<usize>,
            #[serde(default)]
            anonymizer: Extra,
        }
        #[derive(serde::Deserialize, Default)]
        struct Extra {
            token_type_ids: Option<String>,
            words: Option<String>,
        }
        let raw: Raw = serde_json::from_str(text).map_err(|e| format!("config.json: {e}"))?;
        let mut by_id = BTreeMap::new();
        for (id, tag) in raw.id2label {
            let id: usize = id
                .parse()
                .map_err(|_| "config.json: id2label keys must be integers".to_owned())?;
            by_id.insert(id, tag);
        }
        if by_id.is_empty() || by_id.keys().copied().ne(0..by_id.len()) {
            return Err("config.json: id2label must number its classes 0..n".into());
        }
        let mut entity_types: Vec<String> = Vec::new();
        let mut classes = Vec::with_capacity(by_id.len());
        for tag in by_id.values() {
            let (bio, name) = if tag == "O" {
                classes.push((Bio::Outside, 0));
                continue;
            } else if let Some(name) = tag.strip_prefix("B-") {
                (Bio::Begin, name)
            } else if let Some(name) = tag.strip_prefix("I-") {
                (Bio::Inside, name)
            } else {
                return Err(format!(
                    "config.json: tag {tag:?} is neither O nor B-/I- prefixed"
                ));
            };
            let index = match entity_types.iter().position(|t| t == name) {
                Some(i) => i,
                None => {
                    entity_types.push(name.to_owned());
                    entity_types.len() - 1
                }
            };
            classes.push((bio, index));
        }
        let token_types = match raw.anonymizer.token_type_ids.as_deref() {
            None | Some("zeros") => TokenTypes::Zeros,
            Some("casing") => TokenTypes::Casing,
            Some(other) => {
                return Err(format!(
                    "config.json: anonymizer.token_type_ids {other:?} is neither \"zeros\" nor \"casing\""
                ))
            }
        };
        let words = match raw.anonymizer.words.as_deref() {
            None | Some("pre_tokenizer") => Words::PreTokenizer,
            Some("tokens") => Words::Tokens,
            Some(other) => {
                return Err(format!(
                    "config.json: anonymizer.words {other:?} is neither \"pre_tokenizer\" nor \"tokens\""
                ))
            }
        };
        Ok(TagScheme {
            classes,
            entity_types,
            max_positions: raw.max_position_embeddings.unwrap_or(512),
            token_types,
            words,
        })
    }
}

/// The one ONNX Runtime environment of the process (`ort` allows only one). Created by
/// the first model load; later loads reuse it, whatever library path they name.
static ENVIRONMENT: Mutex<Option<Environment>> = Mutex::new(None);

fn environment(library: &Path) -> Result<Environment, NerError> {
    let mut slot = ENVIRONMENT
        .lock()
        .map_err(|_| NerError::runtime("environment lock poisoned"))?;
    if let Some(env) = slot.as_ref() {
        return Ok(env.clone());
    }
    if !library.is_file() {
        return Err(NerError::missing(library));
    }
    let env = ort::init_from(library)
        .map_err(|e| NerError::runtime(format!("loading {}: {e}", library.display())))?
        .with_name("anonymizer")
        .build()
        .map_err(|e| NerError::runtime(format!("creating the environment: {e}")))?;
    *slot = Some(env.clone());
    Ok(env)
}

/// Input tensors the model may declare; anything else is an error at load.
const INPUT_IDS: &str = "input_ids";
const ATTENTION_MASK: &str = "attention_mask";
const TOKEN_TYPE_IDS: &str = "token_type_ids";

/// One loaded ONNX session and what it needs to be fed.
pub struct Model {
    session: Session,
    token_type_ids: bool,
    classes: usize,
}

/// Per-token result: the arg-max class and its softmax probability.
pub type TokenClass = (u16, f32);

impl Model {
    /// Finds the ONNX file of a model directory.
    ///
    /// # Errors
    /// None of [`ONNX_FILES`] exists.
    pub fn onnx_file(dir: &Path) -> Result<PathBuf, NerError> {
        ONNX_FILES
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| NerError::missing(&dir.join(ONNX_FILES[0])))
    }

    /// Loads a session with `intra_threads` threads for one operator, which spin between
    /// a run's operators with `spinning` (and sleep once it ended).
    ///
    /// # Errors
    /// The runtime library or model file cannot be loaded, or the model's inputs are not
    /// those of a BERT-style token classifier.
    pub fn load(
        library: &Path,
        onnx: &Path,
        intra_threads: usize,
        spinning: bool,
        classes: usize,
    ) -> Result<Model, NerError> {
        let env = environment(library)?;
        let builder_error = |e: ort::Error<ort::session::builder::SessionBuilder>| {
            NerError::runtime(format!("session options: {e}"))
        };
        let session = Session::builder(&env)
            .map_err(|e| NerError::runtime(format!("session builder: {e}")))?
            .with_optimization_level(GraphOptimizationLevel::All)
            .map_err(builder_error)?
            .with_intra_threads(intra_threads)
            .map_err(builder_error)?
            .with_inter_threads(1)
            .map_err(builder_error)?
            .with_intra_op_spinning(spinning)
            .map_err(builder_error)?
            // With `spinning`, spinning after a run would burn the cores the pattern tier
            // and the proxy need between passes (without it, there is nothing to stop).
            .with_config_entry("session.force_spinning_stop", "1")
            .map_err(builder_error)?
            .commit_from_file(onnx)
            .map_err(|e| NerError::runtime(format!("loading {}: {e}", onnx.display())))?;
        let mut token_type_ids = false;
        let mut has_ids = false;
        for input in session.inputs() {
            match input.name() {
                INPUT_IDS => has_ids = true,
                ATTENTION_MASK => {}
                TOKEN_TYPE_IDS => token_type_ids = true,
                other => {
                    return Err(NerError::runtime(format!(
                    "model input {other:?} is not one of input_ids, attention_mask, token_type_ids"
                )))
                }
            }
        }
        if !has_ids {
            return Err(NerError::runtime("model has no input_ids input"));
        }
        Ok(Model {
            session,
            token_type_ids,
            classes,
        })
    }

    /// Runs one padded batch: `ids` and `types` are `rows × width` (row-major, padded)
    /// and `lengths[r]` the real length of row `r`. Returns each row's first `lengths[r]`
    /// token classes. `types` is ignored by models without a `token_type_ids` input.
    ///
    /// # Errors
    /// ONNX Runtime fails or the output is not `[rows, width, classes]` logits.
    pub fn run(
        &mut self,
        ids: &[i64],
        types: &[i64],
        lengths: &[usize],
        width: usize,
    ) -> Result<Vec<Vec<TokenClass>>, NerError> {
        let rows = lengths.len();
        if ids.len() != rows * width || types.len() != ids.len() {
            return Err(NerError::runtime(
                "input ids and types do not fit the batch",
            ));
        }
        let mut mask = vec![0i64; ids.len()];
        for (row, &len) in lengths.iter().enumerate() {
            mask[row * width..row * width + len].fill(1);
        }
        let shape = [rows, width];
        fn tensor(shape: [usize; 2], data: &[i64]) -> Result<TensorRef<'_, i64>, NerError> {
            TensorRef::from_array_view((shape, data))
                .map_err(|e| NerError::runtime(format!("input tensor: {e}")))
        }
        let mut inputs = vec![
            (INPUT_IDS, tensor(shape, ids)?),
            (ATTENTION_MASK, tensor(shape, &mask)?),
        ];
        if self.token_type_ids {
            inputs.push((TOKEN_TYPE_IDS, tensor(shape, types)?));
        }
        let outputs = self
            .session
            .run(inputs)
            .map_err(|e| NerError::runtime(format!("inference: {e}")))?;
        let (shape, logits) = outputs[0]
            .try_extract_tensor::<f32>()
            .map_err(|e| NerError::runtime(format!("output tensor: {e}")))?;
        let classes = self.classes;
        let want = [rows as i64, width as i64, classes as i64];
        if shape.len() != 3 || shape.iter().ne(want.iter()) {
            return Err(NerError::runtime(format!(
                "model output has shape {shape:?}, expected {want:?}"
            )));
        }
        let mut out = Vec::with_capacity(rows);
        for (row, &len) in lengths.iter().enumerate() {
            let start = row * width * classes;
            out.push(
                logits[start..start + len * classes]
                    .chunks_exact(classes)
                    .map(arg_max_probability)
                    .collect(),
            );
        }
        Ok(out)
    }
}

/// Arg-max class of one token's logits and its softmax probability
/// (`1 / Σ exp(l - max)`, so only one pass of `exp`).
fn arg_max_probability(logits: &[f32]) -> TokenClass {
    let mut best = 0usize;
    for (i, &l) in logits.iter().enumerate() {
        if l > logits[best] || logits[best].is_nan() {
            best = i;
        }
    }
    let max = logits[best];
    let sum: f32 = logits.iter().map(|&l| (l - max).exp()).sum();
    let p = if sum.is_finite() && sum > 0.0 {
        1.0 / sum
    } else {
        0.0
    };
    (best as u16, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_bio_tags_from_config_json() {
        let json = r#"{"id2label": {"0": "O", "1": "B-PER", "2": "I-PER", "3": "B-LOC"},
                      "max_position_embeddings": 128}"#;
        let scheme = TagScheme::from_config_json(json).unwrap();
        assert_eq!(scheme.entity_types, ["PER", "LOC"]);
        assert_eq!(
            scheme.classes,
            [
                (Bio::Outside, 0),
                (Bio::Begin, 0),
                (Bio::Inside, 0),
                (Bio::Begin, 1)
            ]
        );
        assert_eq!(scheme.max_positions, 128);
        assert_eq!(scheme.token_types, TokenTypes::Zeros);
    }

    #[test]
    fn reads_the_token_type_convention() {
        let casing = r#"{"id2label": {"0": "O"}, "anonymizer": {"token_type_ids": "casing"}}"#;
        let scheme = TagScheme::from_config_json(casing).unwrap();
        assert_eq!(scheme.token_types, TokenTypes::Casing);
        let unknown = r#"{"id2label": {"0": "O"}, "anonymizer": {"token_type_ids": "shape"}}"#;
        assert!(TagScheme::from_config_json(unknown).is_err());
    }

    #[test]
    fn rejects_gaps_and_unprefixed_tags() {
        assert!(TagScheme::from_config_json(r#"{"id2label": {"0": "O", "2": "B-X"}}"#).is_err());
        assert!(TagScheme::from_config_json(r#"{"id2label": {"0": "O", "1": "PER"}}"#).is_err());
        assert!(TagScheme::from_config_json("{}").is_err());
    }

    #[test]
    fn softmax_probability_of_the_arg_max() {
        let (class, p) = arg_max_probability(&[0.0, 2.0, 0.0]);
        assert_eq!(class, 1);
        let want = 2f32.exp() / (2.0 + 2f32.exp());
        assert!((p - want).abs() < 1e-6);
        assert_eq!(arg_max_probability(&[f32::NAN, 1.0]).0, 1);
    }
}

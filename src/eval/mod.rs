//! `anonymizer eval`: scores the engine against annotated JSONL corpora.

/// Runs the eval command with its arguments (after `eval`).
///
/// # Errors
/// A message for the user; `main` prints it and exits 2.
pub fn main(_args: &[String]) -> Result<(), String> {
    Err("eval is not implemented yet".into())
}

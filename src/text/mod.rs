//! Plain-text vocabulary shared by every layer: entity labels, span offsets and the
//! replacement-token grammar.
//! Knows nothing about detection, HTTP or anonymization.

pub mod intern;
pub mod label;
pub mod language;
pub mod span;
pub mod token;

pub use label::{Label, LabelSet};
pub use language::{is_han, Language, LanguageScope};
pub use span::{ByteSpan, CharIndex, CharSpan};

//! Plain-text vocabulary shared by every layer: entity labels and span offsets.
//! Knows nothing about detection, HTTP or anonymization.

pub mod label;
pub mod span;

pub use label::{Label, LabelSet};
pub use span::{ByteSpan, CharIndex, CharSpan};

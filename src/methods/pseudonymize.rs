//! `PSEUDONYMIZE`: a realistic fake of the same kind (see `fake/`), unique within the
//! request (or session) and never found in the input, so restoring by map is exact.

use super::fake;
use super::memory::Memory;
use crate::text::Label;

/// Attempts at a fake from the label's own faker before falling back to the generic
/// shape, and then to a numbered placeholder (unmeasured; collisions are rare).
const LABEL_ATTEMPTS: usize = 32;
const GENERIC_ATTEMPTS: usize = 64;

/// A fresh fake for `original`, or `None` when every attempt clashed.
pub fn fresh(
    memory: &mut Memory,
    label: Label,
    original: &str,
    inputs: &[String],
) -> Option<String> {
    first_free(memory, inputs, |memory, attempt| {
        let offset = memory.date_offset_days;
        if attempt < LABEL_ATTEMPTS {
            fake::candidate(label, original, &mut memory.rng, offset)
        } else {
            fake::keep_case(original, fake::generic::shape(original, &mut memory.rng))
        }
    })
}

/// A fresh fake of the IP address `original` (detected as `label`) that is itself an
/// address of the same family (a schema-typed field must stay valid), or `None` when
/// every attempt clashed.
pub fn fresh_ip(
    memory: &mut Memory,
    label: Label,
    original: &str,
    inputs: &[String],
) -> Option<String> {
    first_free(memory, inputs, |memory, attempt| {
        if attempt < LABEL_ATTEMPTS {
            fake::candidate(label, original, &mut memory.rng, 0)
        } else {
            fake::reserved_ip(original, &mut memory.rng)
        }
    })
}

/// The first candidate `draw(memory, attempt)` makes that clashes with nothing.
fn first_free(
    memory: &mut Memory,
    inputs: &[String],
    mut draw: impl FnMut(&mut Memory, usize) -> String,
) -> Option<String> {
    (0..LABEL_ATTEMPTS + GENERIC_ATTEMPTS).find_map(|attempt| {
        let candidate = draw(memory, attempt);
        (!clashes(&candidate, inputs, memory)).then_some(candidate)
    })
}

/// Whether `candidate` clashes with `inputs` or with what `memory` already handed out:
/// equal to, inside, or containing another replacement would make restoring ambiguous.
pub fn clashes(candidate: &str, inputs: &[String], memory: &Memory) -> bool {
    candidate.is_empty()
        || inputs.iter().any(|t| t.contains(candidate))
        || memory.clashes_with_replacement(candidate)
}

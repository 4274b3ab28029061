//! Payment and banking identifiers.

use crate::engine::validators::luhn;
use crate::engine::PatternSpec;

/// 13–19 digits in groups, Luhn-checked; issuer prefixes 2-6 (Mastercard, Visa, Amex, Discover, …).
pub(super) const CREDIT_CARD: PatternSpec = PatternSpec {
    name: "credit_card",
    label: "CREDIT_CARD",
    regex: r"\b[2-6]\d{3}(?:[ \-]?\d{2,4}){3,4}\b",
    group: 0,
    score: 0.9,
    validate: Some(luhn::credit_card),
    context: &["card", "visa", "mastercard", "amex", "credit", "debit"],
    examples: &[
        ("card 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
        ("amex 378282246310005.", "378282246310005"),
    ],
    counter_examples: &["order 4111 1111 1111 1112", "id 1234567890123456"],
};

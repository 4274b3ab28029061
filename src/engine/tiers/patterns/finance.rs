//! Payment, banking and crypto identifiers.

use crate::engine::validators::{aba, base58check, bech32, eip55, luhn, mod97, structure};
use crate::engine::{PatternSpec, Proof};
use crate::text::ByteSpan;

/// 13–19 digits in groups, Luhn-checked, with a known issuer prefix (Visa, Mastercard,
/// Amex, Discover, JCB, Diners, UnionPay, Maestro). Groups are apart by spaces or dashes,
/// or by dots in four groups of four, as cards are printed in some countries' forms.
pub(super) const CREDIT_CARD: PatternSpec = PatternSpec {
    name: "credit_card",
    label: "CREDIT_CARD",
    regex: r"\b[2-6]\d{3}(?:(?:[ \-]?\d{2,4}){3,4}|(?:\.\d{4}){3})\b",
    score: 0.9,
    validate: Some(luhn::credit_card),
    surroundings: Some(stands_alone),
    proof: Proof::Checksum,
    context: &[
        "card",
        "visa",
        "mastercard",
        "amex",
        "credit",
        "debit",
        "cc",
        "expires",
    ],
    examples: &[
        ("card 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
        ("amex 378282246310005.", "378282246310005"),
        ("mc 5500-0000-0000-0004", "5500-0000-0000-0004"),
        ("Karte 4111.1111.1111.1111", "4111.1111.1111.1111"),
    ],
    counter_examples: &[
        "order 4111 1111 1111 1112",
        "build 4111.1111.1111.1112",
        "4111.1111.111.1111",
        "id 1234567890123456",
        "request aa000000-3874-9094-4999-0aa0000a00aa done",
        "tracking PKG-4111-1111-1111-1111-B2",
    ],
    ..PatternSpec::BASE
};

/// Whether a card number stands alone: one whose digits go on across a hyphen or an
/// underscore into more letters or digits is a group of a longer code (a UUID, a tracking
/// or order number), which a card number never is part of.
fn stands_alone(text: &str, span: ByteSpan) -> bool {
    let before = &text.as_bytes()[..span.start];
    let after = &text.as_bytes()[span.end..];
    let glued_before = matches!(before, [.., b, b'-' | b'_'] if b.is_ascii_alphanumeric());
    let glued_after = matches!(after, [b'-' | b'_', b, ..] if b.is_ascii_alphanumeric());
    !(glued_before || glued_after)
}

/// A card's security code after its cue (`CVV 123`, `cvc2: 4821`, `card verification
/// value 123`): three or four digits that, with the card number, pay. Only the cue tells
/// (the regex requires it), and it fixes the span (`Grammar`). "CID" and "CSC" are left
/// out: they are customer and case ids as often.
pub(super) const CARD_SECURITY_CODE: PatternSpec = PatternSpec {
    name: "card_security_code",
    label: "CARD_SECURITY_CODE",
    regex: r"(?ix)
        \b(?: cvv2? | cvc2? | cvn | card\s+(?:security|verification)\s+(?:code|value|number) )
        \s*(?:code|no\.?|number|\#)?\s*[:=\#]?\s*
        (\d{3,4})\b",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("card 4111 1111 1111 1111 exp 09/27 cvv 123", "123"),
        ("CVC2: 4821", "4821"),
        ("card verification value 123.", "123"),
    ],
    counter_examples: &["CVV required", "cvv 12345", "cvc2 pending", "CID 4821"],
    ..PatternSpec::BASE
};

/// A card's expiry after its cue: `exp 09/27`, `Expiry: 11/2026`, `valid thru 03/28`. Card
/// data as much as the number is (PCI DSS keeps them together), so a masked number does
/// not leave its expiry beside it. A month and a year after the cue only: "exp 3" or an
/// experiment's "exp 12/45" stay.
pub(super) const CARD_EXPIRY: PatternSpec = PatternSpec {
    name: "card_expiry",
    label: "DATE_TIME",
    regex: r"(?ix)
        \b(?: exp(?:iry|iration|ires)?(?:\s+date)? | valid\s+(?:thru|through|until) | good\s+thru )
        \.?\s*[:=]?\s*
        ((?:0[1-9]|1[0-2])\s?/\s?(?:2\d|20[2-9]\d))\b",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("card 4111 1111 1111 1111 exp 09/27 cvv 123", "09/27"),
        ("Expiry: 11/2026", "11/2026"),
        ("VALID THRU 03/28", "03/28"),
        ("expiration date 12 / 29", "12 / 29"),
    ],
    counter_examples: &[
        "exp 3",
        "exp 13/27",
        "exp 12/45",
        "expires soon",
        "exp 09/1999",
    ],
    ..PatternSpec::BASE
};

/// IBANs, compact or in groups of four; mod-97 and the country's registry length.
pub(super) const IBAN: PatternSpec = PatternSpec {
    name: "iban",
    label: "IBAN_CODE",
    regex: r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b",
    score: 0.95,
    validate: Some(mod97::iban),
    proof: Proof::Checksum,
    context: &["iban", "account", "bank", "transfer"],
    negative_context: &[],
    examples: &[
        (
            "IBAN GB82 WEST 1234 5698 7654 32 please",
            "GB82 WEST 1234 5698 7654 32",
        ),
        ("to DE89370400440532013000.", "DE89370400440532013000"),
    ],
    counter_examples: &["GB82 WEST 1234 5698 7654 33", "AB12 CDEF GHIJ"],
    ..PatternSpec::BASE
};

/// SWIFT/BIC with a digit in the location code (`NWBKGB2L`): rare in words.
pub(super) const SWIFT_BIC_DIGIT: PatternSpec = PatternSpec {
    name: "swift_bic_digit",
    label: "SWIFT_BIC",
    regex: r"\b[A-Z]{6}(?:\d[A-Z0-9]|[A-Z]\d)(?:[A-Z0-9]{3})?\b",
    score: 0.6,
    validate: Some(mod97::swift_bic),
    context: &["swift", "bic", "bank", "iban", "swift code", "sort code"],
    negative_context: &[],
    examples: &[("SWIFT NWBKGB2L", "NWBKGB2L")],
    counter_examples: &["ABCDZZ1X"],
    ..PatternSpec::BASE
};

/// All-letter SWIFT/BIC (`DEUTDEFF`) looks like any capitalised 8-letter word
/// ("STANDARD" = STAN·DA·RD), so it needs context.
pub(super) const SWIFT_BIC: PatternSpec = PatternSpec {
    name: "swift_bic",
    label: "SWIFT_BIC",
    regex: r"\b[A-Z]{8}(?:[A-Z0-9]{3})?\b",
    score: 0.3,
    validate: Some(mod97::swift_bic),
    context: &["swift", "bic", "swift code", "swift/bic", "bank code"],
    negative_context: &[],
    examples: &[("BIC: DEUTDEFF", "DEUTDEFF")],
    counter_examples: &["THE STANDARD RULES APPLY"],
    ..PatternSpec::BASE
};

/// ABA routing numbers: nine digits with the 3-7-1 checksum, bare or as `XXXX-YYYY-C`
/// (routing symbol, institution, check digit); still one in ~30 random 9-digit numbers
/// passes, so context decides.
pub(super) const US_BANK_ROUTING: PatternSpec = PatternSpec {
    name: "us_bank_routing",
    label: "US_BANK_ROUTING",
    regex: r"\b\d{4}(?:-\d{4}-|\d{4})\d\b",
    score: 0.4,
    validate: Some(aba::routing),
    proof: Proof::Checksum,
    context: &["routing", "aba", "rtn", "transit", "routing number", "bank"],
    examples: &[
        ("routing number 021000021", "021000021"),
        ("ABA 0210-0002-1", "0210-0002-1"),
    ],
    counter_examples: &["id 021000021", "routing 021000022", "routing 0210-00021"],
    ..PatternSpec::BASE
};

/// US bank account numbers: 8–17 digits, only with account context.
pub(super) const US_BANK_NUMBER: PatternSpec = PatternSpec {
    name: "us_bank_number",
    label: "US_BANK_NUMBER",
    regex: r"\b\d{8,17}\b",
    score: 0.2,
    validate: Some(structure::phone_like_not_repeated),
    context: &[
        "account",
        "acct",
        "account number",
        "bank account",
        "checking",
        "savings",
        "account no",
        "a/c",
    ],
    examples: &[("checking account 12345678901", "12345678901")],
    counter_examples: &["we shipped 12345678901 units", "account 00000000"],
    ..PatternSpec::BASE
};

/// Bitcoin legacy/P2SH addresses (Base58Check, version byte 0x00/0x05).
pub(super) const BTC_BASE58: PatternSpec = PatternSpec {
    name: "btc_base58",
    label: "CRYPTO_WALLET",
    regex: r"\b[13][a-km-zA-HJ-NP-Z1-9]{25,34}\b",
    score: 0.95,
    validate: Some(base58check::bitcoin),
    proof: Proof::Checksum,
    negative_context: &[],
    examples: &[(
        "send to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa now",
        "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    )],
    counter_examples: &["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"],
    ..PatternSpec::BASE
};

/// Bitcoin SegWit addresses (`bc1…`, Bech32/Bech32m).
pub(super) const BTC_BECH32: PatternSpec = PatternSpec {
    name: "btc_bech32",
    label: "CRYPTO_WALLET",
    regex: r"\b(?:bc1|BC1)[a-zA-HJ-NP-Z02-9]{11,71}\b",
    score: 0.95,
    validate: Some(bech32::segwit),
    proof: Proof::Checksum,
    negative_context: &[],
    examples: &[(
        "wallet bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4 ok",
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    )],
    counter_examples: &["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"],
    ..PatternSpec::BASE
};

/// Ethereum addresses with an EIP-55 checksum (mixed case).
pub(super) const ETH_CHECKSUMMED: PatternSpec = PatternSpec {
    name: "eth_address_checksummed",
    label: "CRYPTO_WALLET",
    regex: r"\b0x[0-9a-fA-F]{40}\b",
    score: 0.85,
    validate: Some(eip55::checksummed),
    proof: Proof::Checksum,
    negative_context: &[],
    examples: &[(
        "send to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed today",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    )],
    // One letter's case flipped: a typo or not an address.
    counter_examples: &["send to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD today"],
    ..PatternSpec::BASE
};

/// Ethereum addresses in one case (`0x` + 40 hex), which carry no checksum.
pub(super) const ETH: PatternSpec = PatternSpec {
    name: "eth_address",
    label: "CRYPTO_WALLET",
    regex: r"\b0x[0-9a-fA-F]{40}\b",
    score: 0.85,
    validate: Some(eip55::single_case),
    negative_context: &[],
    examples: &[(
        "eth 0x52908400098527886E0F7030069857D2E4169EE7",
        "0x52908400098527886E0F7030069857D2E4169EE7",
    )],
    counter_examples: &["0x0000000000000000000000000000000000000000", "0x1234"],
    ..PatternSpec::BASE
};

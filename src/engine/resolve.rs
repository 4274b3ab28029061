//! Overlap resolution: one result per region of text.
//!
//! Candidates at or above the threshold compete in two rounds.
//!
//! 1. **Exact spans** ([`Proof::is_exact`]: a checksum, a grammar, the deny list) compete
//!    among themselves: the better proof, then the longer, then the more confident wins.
//! 2. **Every other candidate** (model spans, name rules, word lists, loose patterns)
//!    gives up the characters of the exact winners it overlaps, then competes as
//!    before: the longer, then the more confident wins. What it keeps of itself
//!    (see [`outside_exact`]):
//!
//!    ```text
//!    model EMAIL  "jane.doe@example.com today"  over exact EMAIL "jane.doe@example.com"
//!                 → dropped: same label, so it is that entity with a wrong end
//!    model EMAIL  "他的电子邮箱是test@test.com"    over exact EMAIL "test@test.com" → dropped
//!    model PERSON "Ana Ruiz, ana@example.com"    over exact EMAIL "ana@example.com"
//!                 → PERSON "Ana Ruiz": another label, cut at a word break
//!    PHONE "4111111111111111 12"                 over exact CREDIT_CARD "4111111111111111"
//!                 → dropped: what is left, "12", has no letter
//!    model LOCATION "IBAN CH93 0076 …"           over exact IBAN_CODE "CH93 0076 …"
//!                 → dropped: what is left, "IBAN", only names the IBAN
//!    ```
//!
//! A guessed winner widens over a losing guess of its kind that sticks out of it (model
//! LOCATION "4, 22 Baker Street, …" and pattern ADDRESS "flat 4, 22 Baker Street" →
//! "flat 4, 22 Baker Street, …"). A losing candidate with a different label becomes the
//! winner's alternative. Adjacent parts of one thing merge afterwards, by the merge rules
//! of `engine::refine`.

use std::collections::BTreeMap;

use super::tiers::fields::{role, Role};
use super::{Candidate, Detection, Proof};
use crate::text::{ByteSpan, Label};

/// The non-overlapping winners of `candidates` (spans into `text`) at or above
/// `threshold`, sorted by start; see the module docs.
pub fn resolve(text: &str, candidates: Vec<Candidate>, threshold: f32) -> Vec<Detection> {
    let (exact, guesses): (Vec<&Candidate>, Vec<&Candidate>) = candidates
        .iter()
        .filter(|c| c.score >= threshold && !c.span.is_empty())
        .partition(|c| c.proof.is_exact());
    // Winners never overlap each other, so keyed by start they are also sorted by end:
    // the winners overlapping [s, e) are the ones just before `e`, walking back while
    // their end is past `s`. That keeps resolution O(n log n) on texts with thousands of
    // candidates.
    let mut winners: BTreeMap<usize, Detection> = BTreeMap::new();
    place(&mut winners, exact);
    let pieces: Vec<Candidate> = guesses
        .into_iter()
        .flat_map(|c| outside_exact(text, c, &winners))
        .collect();
    place(&mut winners, pieces.iter().collect());
    widen(&mut winners, &pieces);
    for candidate in &candidates {
        let span = candidate.span;
        for (_, winner) in winners.range_mut(..span.end.max(span.start + 1)).rev() {
            if winner.span.end <= span.start {
                break;
            }
            if winner.label != candidate.label {
                let better = winner
                    .alternative
                    .is_none_or(|(_, score)| candidate.score > score);
                if better {
                    winner.alternative = Some((candidate.label, candidate.score));
                }
            }
        }
    }
    winners.into_values().collect()
}

/// Adds the best of `candidates` that overlap no winner (nor each other) to `winners`.
fn place(winners: &mut BTreeMap<usize, Detection>, mut candidates: Vec<&Candidate>) {
    // Highest priority first: better proof, longer, more confident, then leftmost for
    // determinism.
    candidates.sort_by(|a, b| {
        b.proof
            .rank()
            .cmp(&a.proof.rank())
            .then(b.span.len().cmp(&a.span.len()))
            .then(b.score.total_cmp(&a.score))
            .then(a.span.start.cmp(&b.span.start))
            .then(a.label.cmp(&b.label))
    });
    for candidate in candidates {
        let span = candidate.span;
        if overlapping(winners, span).next().is_some() {
            continue;
        }
        winners.insert(
            span.start,
            Detection {
                span,
                label: candidate.label,
                score: candidate.score,
                alternative: None,
                proof: candidate.proof,
                trace: candidate.trace.clone(),
            },
        );
    }
}

/// Widens a guessed winner over a losing guess of its kind that overlaps it alone and
/// sticks out of it: the model's "4, 22 Baker Street, London NW1 6XE" and the address
/// pattern's "flat 4, 22 Baker Street, London" are one address, and what only the loser
/// covered ("flat") would otherwise stay in the clear. The union overlaps no other
/// winner, as neither part does.
fn widen(winners: &mut BTreeMap<usize, Detection>, guesses: &[Candidate]) {
    for guess in guesses {
        let Some((start, union)) = widened(winners, guess) else {
            continue;
        };
        let mut winner = winners.remove(&start).expect("the winner is in the map");
        winner.span = union;
        winners.insert(union.start, winner);
    }
}

/// The start of the one winner `guess` overlaps and their union, when the guess sticks
/// out of that winner and is of its kind.
fn widened(winners: &BTreeMap<usize, Detection>, guess: &Candidate) -> Option<(usize, ByteSpan)> {
    let mut over = overlapping(winners, guess.span);
    let (Some(winner), None) = (over.next(), over.next()) else {
        return None;
    };
    let union = ByteSpan::new(
        winner.span.start.min(guess.span.start),
        winner.span.end.max(guess.span.end),
    );
    (union != winner.span && !winner.proof.is_exact() && same_kind(winner.label, guess.label))
        .then_some((winner.span.start, union))
}

/// Whether two labels name the same kind of thing for [`widen`]: a place and an address
/// are one.
fn same_kind(a: Label, b: Label) -> bool {
    let place = |l: Label| matches!(l.as_str(), "ADDRESS" | "LOCATION");
    a == b || (place(a) && place(b))
}

/// The winners overlapping `span`, last first.
fn overlapping(
    winners: &BTreeMap<usize, Detection>,
    span: ByteSpan,
) -> impl Iterator<Item = &Detection> {
    winners
        .range(..span.end)
        .rev()
        .map(|(_, w)| w)
        .take_while(move |w| w.span.end > span.start)
}

/// What is left of `candidate` outside the exact spans in `exact`, which it must not
/// overlap: itself when it overlaps none; nothing when one of them has its label (it is
/// that entity with wrong ends: a model's `jane.doe@example.com today`); otherwise the
/// parts before, between and after them that are cut at a word break, hold a letter and
/// are not just the name of an exact span's type, without the spaces and punctuation at
/// the cut (`Ana Ruiz, ana@example.com` → `Ana Ruiz`).
///
/// Why cut rather than drop: a model span over a name and an address next to it would
/// otherwise lose the name. Why only at word breaks: the rest of a word the exact span
/// cuts into is no entity of its own. Why a letter: a part made of digits is the rest
/// of a number the exact span is (a phone guess over a card), not a name.
fn outside_exact(
    text: &str,
    candidate: &Candidate,
    exact: &BTreeMap<usize, Detection>,
) -> Vec<Candidate> {
    let winners: Vec<&Detection> = overlapping(exact, candidate.span).collect();
    if winners.is_empty() {
        return vec![candidate.clone()];
    }
    if winners.iter().any(|w| w.label == candidate.label) {
        return Vec::new();
    }
    let cuts: Vec<ByteSpan> = winners.iter().rev().map(|w| w.span).collect();
    let mut parts = Vec::new();
    let mut start = candidate.span.start;
    for cut in cuts.iter().copied().chain(std::iter::once(ByteSpan::new(
        candidate.span.end,
        candidate.span.end,
    ))) {
        if cut.start > start {
            // `start` is a cut unless it is the candidate's own start; so is `cut.start`
            // unless it is the candidate's own end.
            let cut_left = start != candidate.span.start;
            let cut_right = cut.start != candidate.span.end;
            let kept = part(text, ByteSpan::new(start, cut.start), cut_left, cut_right);
            if let Some(span) = kept.filter(|&span| !names_a_winner(text, span, &winners)) {
                parts.push(Candidate {
                    span,
                    proof: Proof::None,
                    ..candidate.clone()
                });
            }
        }
        start = start.max(cut.end);
    }
    parts
}

/// Whether `span`, a part of a candidate beside the exact `winners`, is only the name of
/// what one of them is: the model's "IBAN CH93 0076 …" leaves "IBAN" beside the IBAN, and
/// a field name is no entity (`fields::role`).
fn names_a_winner(text: &str, span: ByteSpan, winners: &[&Detection]) -> bool {
    // One word: "Ana Ruiz email" beside an e-mail address keeps the name.
    let word = text
        .get(span.start..span.end)
        .filter(|w| !w.contains(char::is_whitespace));
    let Some(Role::Personal(label)) = word.and_then(role) else {
        return false;
    };
    winners.iter().any(|w| w.label.as_str() == label)
}

/// `span` of a candidate, cut on the left and/or right by an exact span: `None` unless
/// every cut is at a word break; trimmed of what is not a letter or digit at the cuts.
fn part(text: &str, span: ByteSpan, cut_left: bool, cut_right: bool) -> Option<ByteSpan> {
    if (cut_left && !word_break(text, span.start)) || (cut_right && !word_break(text, span.end)) {
        return None;
    }
    let inner = text.get(span.start..span.end)?;
    let mut start = span.start;
    let mut end = span.end;
    if cut_left {
        start += inner.len()
            - inner
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .len();
    }
    if cut_right {
        end -= inner.len() - inner.trim_end_matches(|c: char| !c.is_alphanumeric()).len();
    }
    let kept = text.get(start..end)?;
    kept.chars()
        .any(char::is_alphabetic)
        .then(|| ByteSpan::new(start, end))
}

/// Whether byte offset `at` of `text` falls between two words: it is not between two
/// letters or digits, unless one of them belongs to a script written without spaces
/// (`邮箱是|test`, `电|子`), where any two letters may be two words.
fn word_break(text: &str, at: usize) -> bool {
    let before = text.get(..at).and_then(|t| t.chars().next_back());
    let after = text.get(at..).and_then(|t| t.chars().next());
    match (before, after) {
        (Some(b), Some(a)) if b.is_alphanumeric() && a.is_alphanumeric() => {
            written_without_spaces(b) || written_without_spaces(a)
        }
        _ => true,
    }
}

/// Han, kana, Hangul, Thai, Lao, Khmer, Myanmar (by block; the same scripts the e-mail
/// pattern treats as glued).
fn written_without_spaces(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF       // Thai, Lao
        | 0x1000..=0x109F     // Myanmar
        | 0x1780..=0x17FF     // Khmer
        | 0x1100..=0x11FF     // Hangul Jamo
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3130..=0x318F     // Hangul compatibility Jamo
        | 0x3400..=0x4DBF     // CJK extension A
        | 0x4E00..=0x9FFF     // CJK unified ideographs
        | 0xAC00..=0xD7AF     // Hangul syllables
        | 0xF900..=0xFAFF     // CJK compatibility ideographs
        | 0x20000..=0x3FFFF   // CJK extensions B–H
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Adjacent parts merged by every merge rule, as the engine runs them.
    fn merged(text: &str, found: Vec<Detection>) -> Vec<Detection> {
        let switches = crate::engine::refine::Switches::default();
        crate::engine::refine::merge::merge_adjacent(text, found, &switches)
    }
    use crate::text::{ByteSpan, Label};

    fn cand(start: usize, end: usize, label: &str, score: f32, proof: Proof) -> Candidate {
        Candidate {
            span: ByteSpan::new(start, end),
            label: Label::builtin(label),
            score,
            proof,
            trace: crate::engine::Trace::default(),
        }
    }

    /// Spans of `text` with their labels.
    fn found<'t>(text: &'t str, out: &[Detection]) -> Vec<(&'t str, &'static str)> {
        out.iter()
            .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
            .collect()
    }

    /// What resolving and merging `candidates` at threshold 0.5 leaves of `text`.
    fn settled(text: &str, candidates: Vec<Candidate>) -> Vec<(&str, &'static str)> {
        found(text, &merged(text, resolve(text, candidates, 0.5)))
    }

    /// A candidate for the first `part` of `text`.
    fn at(text: &str, part: &str, label: &str, score: f32, proof: Proof) -> Candidate {
        let start = text.find(part).expect("in text");
        cand(start, start + part.len(), label, score, proof)
    }

    #[test]
    fn a_name_in_capitals_surname_first_is_one_but_a_list_of_names_is_not() {
        let text = "PT JOHNSON, MARY MRN 1; Smith, Mary and John; KOWALSKI, ACME";
        assert_eq!(
            settled(
                text,
                vec![
                    at(text, "JOHNSON", "PERSON", 0.9, Proof::None),
                    at(text, "MARY", "PERSON", 0.9, Proof::None),
                    at(text, "Smith", "PERSON", 0.9, Proof::None),
                    at(text, "Mary", "PERSON", 0.9, Proof::None),
                    at(text, "KOWALSKI", "PERSON", 0.9, Proof::None),
                    at(text, "ACME", "PERSON", 0.9, Proof::None),
                ],
            ),
            [
                ("JOHNSON, MARY", "PERSON"),
                ("Smith", "PERSON"),
                ("Mary", "PERSON"),
                ("KOWALSKI", "PERSON"),
                ("ACME", "PERSON")
            ]
        );
    }

    #[test]
    fn an_institution_takes_its_place_after_of_but_a_company_does_not() {
        let text = "at Children's Hospital of Denver; Kia Motor Corp of South Korea";
        assert_eq!(
            settled(
                text,
                vec![
                    at(
                        text,
                        "Children's Hospital",
                        "ORGANIZATION",
                        0.9,
                        Proof::None,
                    ),
                    at(text, "Denver", "LOCATION", 0.9, Proof::None),
                    at(text, "Kia Motor Corp", "ORGANIZATION", 0.9, Proof::None),
                    at(text, "South Korea", "LOCATION", 0.9, Proof::None),
                ],
            ),
            [
                ("Children's Hospital of Denver", "ORGANIZATION"),
                ("Kia Motor Corp", "ORGANIZATION"),
                ("South Korea", "LOCATION")
            ]
        );
    }

    #[test]
    fn a_degree_after_a_name_is_no_place_but_a_state_after_a_city_stays() {
        let text = "Ian Vance, MD and Ana Ruiz, M.D.; Baltimore, MD; Yolanda Ulmer MD";
        assert_eq!(
            settled(
                text,
                vec![
                    at(text, "Ian Vance", "PERSON", 0.9, Proof::None),
                    at(text, "MD", "LOCATION", 0.6, Proof::None),
                    at(text, "Ana Ruiz", "PERSON", 0.9, Proof::None),
                    at(text, "M.D.", "ORGANIZATION", 0.6, Proof::None),
                    at(text, "Baltimore", "LOCATION", 0.9, Proof::None),
                    cand(45, 47, "LOCATION", 0.6, Proof::None),
                    at(text, "Yolanda Ulmer", "PERSON", 0.9, Proof::None),
                    cand(63, 65, "LOCATION", 0.6, Proof::None),
                ],
            ),
            [
                ("Ian Vance", "PERSON"),
                ("Ana Ruiz", "PERSON"),
                ("Baltimore", "LOCATION"),
                ("MD", "LOCATION"),
                ("Yolanda Ulmer", "PERSON")
            ]
        );
    }

    #[test]
    fn a_checksum_beats_longer_and_loser_becomes_alternative() {
        let out = resolve(
            "4111111111111111 12",
            vec![
                cand(0, 19, "PHONE_NUMBER", 0.6, Proof::None),
                cand(0, 16, "CREDIT_CARD", 0.9, Proof::Checksum),
            ],
            0.5,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].label, Label::builtin("CREDIT_CARD"));
        assert_eq!(
            out[0].alternative,
            Some((Label::builtin("PHONE_NUMBER"), 0.6))
        );
    }

    #[test]
    fn a_winner_widens_over_a_guess_of_its_kind_that_sticks_out() {
        let text = "write to flat 4, 22 Baker Street, London NW1 6XE; Ana Ruiz Bank; Dr Bo Li";
        assert_eq!(
            settled(
                text,
                vec![
                    at(
                        text,
                        "4, 22 Baker Street, London NW1 6XE",
                        "LOCATION",
                        0.99,
                        Proof::None
                    ),
                    at(
                        text,
                        "flat 4, 22 Baker Street, London",
                        "ADDRESS",
                        0.8,
                        Proof::None
                    ),
                    // another kind: the person stays as it is
                    at(text, "Ana Ruiz Bank", "ORGANIZATION", 0.9, Proof::None),
                    at(text, "Ana Ruiz", "PERSON", 0.9, Proof::None),
                    // a person's title only one guess took
                    at(text, "Dr Bo", "PERSON", 0.9, Proof::None),
                    at(text, "Bo Li", "PERSON", 0.95, Proof::None),
                ],
            ),
            [
                ("flat 4, 22 Baker Street, London NW1 6XE", "LOCATION"),
                ("Ana Ruiz Bank", "ORGANIZATION"),
                ("Dr Bo Li", "PERSON"),
            ]
        );
    }

    #[test]
    fn longer_beats_contained_and_confidence_breaks_ties() {
        let out = resolve(
            &"x".repeat(40),
            vec![
                cand(0, 6, "LOCATION", 0.9, Proof::None),
                cand(0, 20, "ORGANIZATION", 0.75, Proof::None),
                cand(30, 35, "PERSON", 0.6, Proof::None),
                cand(30, 35, "LOCATION", 0.7, Proof::None),
            ],
            0.5,
        );
        let labels: Vec<&str> = out.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(labels, ["ORGANIZATION", "LOCATION"]);
        assert_eq!(out[1].alternative, Some((Label::builtin("PERSON"), 0.6)));
    }

    #[test]
    fn below_threshold_is_dropped_and_output_is_sorted() {
        let out = resolve(
            &"x".repeat(30),
            vec![
                cand(10, 12, "URL", 0.9, Proof::None),
                cand(0, 5, "URL", 0.9, Proof::None),
                cand(20, 25, "US_SSN", 0.3, Proof::None),
            ],
            0.5,
        );
        let starts: Vec<usize> = out.iter().map(|d| d.span.start).collect();
        assert_eq!(starts, vec![0, 10]);
    }

    #[test]
    fn adjacent_parts_merge() {
        let text =
            "Ana Ruiz lives at 10 Downing Street, London SW1A 2AA since 3 March 2024 at 14:05";
        let at = |s: &str| text.find(s).expect("in text");
        let span = |s: &str, label: &str| cand(at(s), at(s) + s.len(), label, 0.8, Proof::None);
        let out = merged(
            text,
            resolve(
                text,
                vec![
                    span("Ana", "PERSON"),
                    span("Ruiz", "PERSON"),
                    span("10 Downing Street", "ADDRESS"),
                    span("London", "LOCATION"),
                    span("SW1A 2AA", "UK_POSTCODE"),
                    span("3 March 2024", "DATE_TIME"),
                    span("14:05", "DATE_TIME"),
                ],
                0.5,
            ),
        );
        let got: Vec<(&str, &str)> = out
            .iter()
            .map(|d| (&text[d.span.start..d.span.end], d.label.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Ana Ruiz", "PERSON"),
                ("10 Downing Street, London SW1A 2AA", "ADDRESS"),
                ("3 March 2024 at 14:05", "DATE_TIME"),
            ]
        );
        let text = "This is Diah Diah";
        let twice = merged(
            text,
            resolve(
                text,
                vec![
                    cand(8, 12, "PERSON", 0.8, Proof::None),
                    cand(13, 17, "PERSON", 0.8, Proof::None),
                ],
                0.5,
            ),
        );
        assert_eq!(twice.len(), 2, "one name written twice is two mentions");
    }

    #[test]
    fn an_exact_span_keeps_its_bounds_against_a_longer_model_span_of_its_label() {
        for (text, email) in [
            (
                "Write to jane.doe@example.com today.",
                "jane.doe@example.com",
            ),
            ("他的电子邮箱是test@test.com", "test@test.com"),
            ("test@test.com으로 보내세요", "test@test.com"),
        ] {
            let model = cand(0, text.len(), "EMAIL_ADDRESS", 0.99, Proof::None);
            let exact = at(text, email, "EMAIL_ADDRESS", 0.6, Proof::Grammar);
            let out = merged(text, resolve(text, vec![model, exact], 0.5));
            assert_eq!(found(text, &out), [(email, "EMAIL_ADDRESS")], "{text}");
            assert_eq!(out[0].proof, Proof::Grammar);
        }
    }

    #[test]
    fn a_model_span_of_another_label_keeps_its_word_bounded_letters() {
        let text = "From Ana Ruiz, ana@example.com, and 4111111111111111 12.";
        let out = resolve(
            text,
            vec![
                at(
                    text,
                    "Ana Ruiz, ana@example.com",
                    "PERSON",
                    0.9,
                    Proof::None,
                ),
                at(
                    text,
                    "ana@example.com",
                    "EMAIL_ADDRESS",
                    0.95,
                    Proof::Grammar,
                ),
                at(
                    text,
                    "4111111111111111 12",
                    "PHONE_NUMBER",
                    0.7,
                    Proof::None,
                ),
                at(
                    text,
                    "4111111111111111",
                    "CREDIT_CARD",
                    1.0,
                    Proof::Checksum,
                ),
            ],
            0.5,
        );
        assert_eq!(
            found(text, &out),
            [
                ("Ana Ruiz", "PERSON"),
                ("ana@example.com", "EMAIL_ADDRESS"),
                ("4111111111111111", "CREDIT_CARD")
            ]
        );
        // The cut-away candidates of other labels are the exact spans' alternatives.
        assert_eq!(out[1].alternative, Some((Label::builtin("PERSON"), 0.9)));
        assert_eq!(
            out[2].alternative,
            Some((Label::builtin("PHONE_NUMBER"), 0.7))
        );
    }

    #[test]
    fn a_part_that_only_names_the_exact_span_beside_it_is_dropped() {
        let email = |text: &str| {
            at(
                text,
                "ana@example.com",
                "EMAIL_ADDRESS",
                0.95,
                Proof::Grammar,
            )
        };
        let model = |text: &str, part: &str, label: &str| at(text, part, label, 0.9, Proof::None);
        let text = "IBAN CH93 0076 2011 6238 5295 7, Ana Ruiz email ana@example.com";
        let iban = at(
            text,
            "CH93 0076 2011 6238 5295 7",
            "IBAN_CODE",
            1.0,
            Proof::Checksum,
        );
        let out = resolve(
            text,
            vec![
                model(text, "IBAN CH93 0076 2011 6238 5295 7", "LOCATION"),
                iban,
                model(text, "Ana Ruiz email ana@example.com", "PERSON"),
                email(text),
            ],
            0.5,
        );
        assert_eq!(
            found(text, &out),
            [
                ("CH93 0076 2011 6238 5295 7", "IBAN_CODE"),
                ("Ana Ruiz email", "PERSON"),
                ("ana@example.com", "EMAIL_ADDRESS")
            ]
        );
        // A field name beside another type's value stays what the model said.
        let text = "IBAN ana@example.com";
        let out = resolve(
            text,
            vec![model(text, "IBAN ana@example.com", "LOCATION"), email(text)],
            0.5,
        );
        assert_eq!(
            found(text, &out),
            [("IBAN", "LOCATION"), ("ana@example.com", "EMAIL_ADDRESS")]
        );
    }

    #[test]
    fn a_part_cut_inside_a_word_is_dropped_and_cjk_letters_are_words() {
        // Grammars take whole words, so this exact span inside a word is made up.
        let text = "Marianne";
        let out = resolve(
            text,
            vec![
                cand(0, 8, "PERSON", 0.9, Proof::None),
                cand(5, 8, "URL", 0.9, Proof::Grammar),
            ],
            0.5,
        );
        assert_eq!(found(text, &out), [("nne", "URL")]);
        let text = "王小明test@test.com";
        let out = resolve(
            text,
            vec![
                cand(0, text.len(), "PERSON", 0.9, Proof::None),
                at(text, "test@test.com", "EMAIL_ADDRESS", 0.9, Proof::Grammar),
            ],
            0.5,
        );
        assert_eq!(
            found(text, &out),
            [("王小明", "PERSON"), ("test@test.com", "EMAIL_ADDRESS")]
        );
    }

    #[test]
    fn an_exact_span_below_the_threshold_blocks_nothing() {
        let text = "Write to jane.doe@example.com today.";
        let out = resolve(
            text,
            vec![
                at(
                    text,
                    "jane.doe@example.com today",
                    "EMAIL_ADDRESS",
                    0.9,
                    Proof::None,
                ),
                at(
                    text,
                    "jane.doe@example.com",
                    "EMAIL_ADDRESS",
                    0.3,
                    Proof::Grammar,
                ),
            ],
            0.5,
        );
        assert_eq!(
            found(text, &out),
            [("jane.doe@example.com today", "EMAIL_ADDRESS")]
        );
    }

    #[test]
    fn exact_spans_are_never_merged_with_neighbours() {
        let text = "Ana Ruiz ana@example.com";
        let out = merged(
            text,
            resolve(
                text,
                vec![
                    at(text, "Ana Ruiz", "PERSON", 0.9, Proof::None),
                    at(text, "ana@example.com", "PERSON", 0.9, Proof::Grammar),
                ],
                0.5,
            ),
        );
        assert_eq!(
            found(text, &out),
            [("Ana Ruiz", "PERSON"), ("ana@example.com", "PERSON")]
        );
    }
}

//! The rules that correct a model's spans ([`SPLIT`], [`SHAPE`], [`RELABEL`]): the span
//! conventions of names, and what a model does now and then that no name does. A model's
//! tags are per token; these rules fix what tokens cannot say (a dot the tokenizer split
//! off, a bracket left open), what no name does (a common noun or a month at an
//! organisation's edge, two people joined by "&" as one, "lol" in a name, clinical
//! shorthand or a drug before its dose as a name, a blood pressure as a date), and the
//! parts of a name a model leaves out (initials, a stage name's "Lil", the kind word of
//! "Trump Tower").

use super::{ex, Action, Rule};
use crate::engine::lexicon::words::{
    ends_cue, is_chatter, is_clinical_measure, is_clinical_shorthand, is_credential_word, is_drug,
    is_given_name, is_institution_ending, is_legal_form, is_listed_word, is_monarch,
    is_month_any_case, is_office, title_case, DOTTED_COMPANY_WORDS, MONTHS, PARTICLES,
};
use crate::engine::regions;
use crate::engine::tiers::dictionary;
use crate::engine::tiers::names::after_employment_cue;
use crate::engine::validators::structure;
use crate::text::{ByteSpan, Label};

const NAMED: &[&str] = &["PERSON", "ORGANIZATION", "LOCATION"];
const PLACES_AND_BODIES: &[&str] = &["ORGANIZATION", "LOCATION"];

/// Split rules; the first that applies cuts the span.
pub(super) const SPLIT: &[Rule] = &[
    Rule {
        name: "name_written_twice",
        labels: &["PERSON"],
        reason: "one name written twice is two mentions, each its own entity",
        action: Action::Split(written_twice),
        examples: &[ex(
            "This is Diah Diah",
            "Diah Diah",
            "PERSON",
            "Diah | Diah",
        )],
        counter_examples: &[ex("met Ana Ruiz", "Ana Ruiz", "PERSON", "Ana Ruiz")],
    },
    Rule {
        name: "pair_of_names",
        labels: &["PERSON", "LOCATION"],
        reason: "a model tags two people or places joined by & or / as one entity",
        action: Action::Split(pair),
        examples: &[
            ex(
                "with Jason & Michelle",
                "Jason & Michelle",
                "PERSON",
                "Jason | Michelle",
            ),
            ex(
                "in Gardena/Compton",
                "Gardena/Compton",
                "LOCATION",
                "Gardena | Compton",
            ),
        ],
        counter_examples: &[ex("at Unit 4/12", "Unit 4/12", "LOCATION", "Unit 4/12")],
    },
];

/// Shape rules, in the order they run on one span.
pub(super) const SHAPE: &[Rule] = &[
    Rule::new(
        "loose_punctuation",
        &[],
        "a model tags stray punctuation at an edge now and then; no entity starts or ends with it",
        Action::Reshape(|t, s, _| trim_loose_punctuation(t, s)),
        &[
            ex("Lear Corp . said", "Lear Corp .", "ORGANIZATION", "Lear Corp"),
            ex("( KDP", "( KDP", "ORGANIZATION", "KDP"),
            ex("a . b", ".", "PERSON", ""),
        ],
        &[ex("U.S. troops", "U.S.", "LOCATION", "U.S.")],
    ),
    Rule::new(
        "open_bracket",
        &[],
        "trimming loose punctuation cuts a closing bracket, and half a bracket is no name",
        Action::Reshape(|t, s, _| Some(close_bracket(t, s))),
        &[ex("Mladost ( BJ ) 2", "Mladost ( BJ", "ORGANIZATION", "Mladost ( BJ )")],
        &[ex("Mladost ( BJ ) 2", "Mladost", "ORGANIZATION", "Mladost")],
    ),
    Rule::new(
        "lower_case_god",
        &["PERSON"],
        "lower-case \"god\" is the noun; tweets in training data tag it a person",
        Action::Reject(|t, s, _| matches!(&t[s.start..s.end], "god" | "gods")),
        &[ex("I believe in god", "god", "PERSON", "")],
        &[ex("God bless", "God", "PERSON", "God")],
    ),
    Rule::new(
        "clock_time_after_name",
        PLACES_AND_BODIES,
        "a model runs on from an airport or station into its time; no name ends in one",
        Action::Reshape(|t, s, _| Some(without_clock_time(t, s))),
        &[ex("LHR 14:25 dep", "LHR 14:25", "LOCATION", "LHR")],
        &[ex("at 14:25", "14:25", "LOCATION", "14:25")],
    ),
    Rule::new(
        "common_words_at_edges",
        PLACES_AND_BODIES,
        "no organisation or place with a capital ends in a lower-case word or opens with a month",
        Action::Reshape(|t, s, _| Some(trim_common_edges(t, s))),
        &[
            ex("the Pamir mountains", "Pamir mountains", "LOCATION", "Pamir"),
            ex("the NLD party", "NLD party", "ORGANIZATION", "NLD"),
            ex("June Comelf said", "June Comelf", "ORGANIZATION", "Comelf"),
        ],
        &[
            ex("de Gaulle airport", "de Gaulle", "LOCATION", "de Gaulle"),
            ex("in east portland", "east portland", "LOCATION", "east portland"),
        ],
    ),
    Rule::new(
        "article_before_place",
        &["LOCATION"],
        "a model takes the sentence's article into a place in German and Romance text",
        Action::Reshape(|t, s, _| Some(without_article(t, s))),
        &[ex(
            "in der Hauptstraße 5, 10115 Berlin",
            "der Hauptstraße 5, 10115 Berlin",
            "LOCATION",
            "Hauptstraße 5, 10115 Berlin",
        )],
        &[ex("in Den Haag", "Den Haag", "LOCATION", "Den Haag")],
    ),
    Rule::new(
        "region_code_after_city",
        &["LOCATION"],
        "the state's or province's code after a city's comma still says where",
        Action::Reshape(|t, s, _| Some(with_region_code(t, s))),
        &[ex("lives in Ipswich, QLD now", "Ipswich", "LOCATION", "Ipswich, QLD")],
        &[ex("in Paris, OK?", "Paris", "LOCATION", "Paris")],
    ),
    Rule::new(
        "date_clause",
        &["DATE_TIME"],
        "a model runs a date on into the lab values of its line; no date has a clause break",
        Action::Reshape(|t, s, _| Some(one_clause(t, s))),
        &[ex("10/21: Cr 1.4, K 4.2", "10/21: Cr 1.4", "DATE_TIME", "10/21")],
        &[ex("at 10:30 today", "10:30", "DATE_TIME", "10:30")],
    ),
    Rule::new(
        "person_before_possessive",
        &["PERSON"],
        "no person's name goes on past a possessive",
        Action::Reshape(|t, s, _| Some(before_possessive(t, s))),
        &[ex("Dr. Fitzgerald's office", "Fitzgerald's office", "PERSON", "Fitzgerald")],
        &[ex("Ana Ruiz said", "Ana Ruiz", "PERSON", "Ana Ruiz")],
    ),
    Rule::new(
        "chatter_at_person_edges",
        &["PERSON"],
        "a model takes chat words and note shorthand into a name in informal text",
        Action::Reshape(|t, s, _| without_chatter(t, s)),
        &[
            ex("martin lmao", "martin lmao", "PERSON", "martin"),
            ex("PT JOHNSON seen", "PT JOHNSON", "PERSON", "JOHNSON"),
            ex("Hallo zusammen", "Hallo", "PERSON", ""),
        ],
        &[ex("Cath Jones", "Cath Jones", "PERSON", "Cath Jones")],
    ),
    Rule::new(
        "credential_after_person",
        &["PERSON"],
        "a model runs on into the degree after a name in capitals",
        Action::Reshape(|t, s, _| Some(without_credential(t, s))),
        &[ex("KOWALCZYK, ANNA M.D", "KOWALCZYK, ANNA M.D", "PERSON", "KOWALCZYK, ANNA")],
        &[ex("Ana Mendes", "Ana Mendes", "PERSON", "Ana Mendes")],
    ),
    Rule::new(
        "rank_before_person",
        &["PERSON"],
        "an office or role opening a name is no part of it, as the name rules read it",
        Action::Reshape(|t, s, _| Some(without_rank(t, s))),
        &[ex("Bishop Desmond Tutu", "Bishop Desmond Tutu", "PERSON", "Desmond Tutu")],
        &[ex("Mr Desmond Tutu", "Mr Desmond Tutu", "PERSON", "Mr Desmond Tutu")],
    ),
    Rule::new(
        "hyphen_joined_names",
        &["PERSON"],
        "a model ends a double-barrelled surname at its hyphen; half a surname gives the person away",
        Action::Reshape(|t, s, _| Some(with_joined_names(t, s))),
        &[ex(
            "Hans-Peter Müller-Lüdenscheidt leitet",
            "Hans-Peter Müller",
            "PERSON",
            "Hans-Peter Müller-Lüdenscheidt",
        )],
        &[ex("Ana Müller-based", "Ana Müller", "PERSON", "Ana Müller")],
    ),
    Rule::new(
        "regnal_number",
        &["PERSON"],
        "a monarch's regnal number is part of the name",
        Action::Reshape(|t, s, _| Some(with_regnal_number(t, s))),
        &[ex("King Baudouin I.", "Baudouin", "PERSON", "Baudouin I")],
        &[ex("when Pedro I said", "Pedro", "PERSON", "Pedro")],
    ),
    Rule::new(
        "stage_name_prefix",
        &["PERSON"],
        "a model reads the \"Lil\" of a stage name as the slang word",
        Action::Reshape(|t, s, _| Some(with_stage_prefix(t, s))),
        &[ex("love Lil Nas X", "Nas X", "PERSON", "Lil Nas X")],
        &[ex("Brazil Nas", "Nas", "PERSON", "Nas")],
    ),
    Rule::new(
        "whole_ascii_words",
        &[],
        "a span that cuts a word would leave digits or letters of the entity in the clear",
        Action::Reshape(|t, s, _| Some(whole_ascii_words(t, s))),
        &[ex("on 7/22 at", "/22", "DATE_TIME", "7/22")],
        &[ex("東京都に", "東京", "LOCATION", "東京")],
    ),
    Rule::new(
        "whole_query_value",
        NAMED,
        "a model reads + and %27 of a URL-encoded name as breaks",
        Action::Reshape(|t, s, _| Some(whole_query_value(t, s))),
        &[ex("/s?q=Siobhan+O%27Reilly&x=1", "Siobhan", "PERSON", "Siobhan+O%27Reilly")],
        &[ex("Siobhan O'Reilly", "Siobhan", "PERSON", "Siobhan")],
    ),
    Rule::new(
        "cut_clinical_shorthand",
        NAMED,
        "a model tags one side of slashed clinical shorthand, which then reads as part of the name",
        Action::Reshape(|t, s, _| without_cut_shorthand(t, s)),
        &[ex(
            "BIBA from Sunrise Manor s/p fall",
            "Sunrise Manor s",
            "ORGANIZATION",
            "Sunrise Manor",
        )],
        &[ex("met Ana Ruiz/Bo Chen", "Ana Ruiz", "PERSON", "Ana Ruiz")],
    ),
    Rule::new(
        "kind_word_after_name",
        NAMED,
        "a model ends a name before the word that says its kind (Tower, Airport, Channel, Band)",
        Action::Reshape(with_kind_word_rule),
        &[
            ex("at Trump Tower today", "Trump", "LOCATION", "Trump Tower"),
            ex("watch Discovery Channel", "Discovery", "ORGANIZATION", "Discovery Channel"),
        ],
        &[ex("the UMass band", "UMass", "ORGANIZATION", "UMass")],
    ),
    Rule::new(
        "legal_form_alone",
        &["ORGANIZATION"],
        "a company form alone (GmbH, Inc) names no company",
        Action::Reject(|t, s, _| is_legal_form(&t[s.start..s.end])),
        &[ex("a GmbH", "GmbH", "ORGANIZATION", "")],
        &[ex("Acme GmbH", "Acme GmbH", "ORGANIZATION", "Acme GmbH")],
    ),
    Rule::new(
        "credential_alone",
        &["PERSON", "ORGANIZATION"],
        "a degree alone (M.D., PA-C) names no one",
        Action::Reject(|t, s, _| is_credential(t, s)),
        &[ex("Vance, M.D.", "M.D.", "PERSON", "")],
        &[ex("MD 20814", "MD", "LOCATION", "MD")],
    ),
    Rule::new(
        "clinical_shorthand_alone",
        NAMED,
        "clinical shorthand or a measurement with its value names no one",
        Action::Reject(|t, s, _| is_clinical_shorthand_only(t, s)),
        &[ex("BP 142/88 today", "BP 142/88", "ORGANIZATION", "")],
        &[ex("Ana Ruiz", "Ana Ruiz", "PERSON", "Ana Ruiz")],
    ),
    Rule::new(
        "impossible_slash_date",
        &["DATE_TIME"],
        "numbers with slashes that no calendar reads (a blood pressure) are no date",
        Action::Reject(|t, s, _| is_impossible_slash_date(t, s)),
        &[ex("BP was 142/88", "142/88", "DATE_TIME", "")],
        &[ex("on 7/22", "7/22", "DATE_TIME", "7/22")],
    ),
    Rule::new(
        "clinical_measure_value",
        &["DATE_TIME"],
        "the value of a vital sign or lab is no date",
        Action::Reject(|t, s, _| follows_clinical_measure(t, s)),
        &[ex("INR 1.1 today", "1.1", "DATE_TIME", "")],
        &[ex("on 1.1.2024", "1.1.2024", "DATE_TIME", "1.1.2024")],
    ),
    Rule::new(
        "year_inside_code",
        &["DATE_TIME"],
        "a year glued to a code with letters is an invoice, ticket or build number",
        Action::Reject(|t, s, _| inside_code(t, s)),
        &[ex("ref INV-2024-0042", "2024", "DATE_TIME", "")],
        &[ex("in mid-2024", "2024", "DATE_TIME", "2024")],
    ),
    Rule::new(
        "age_and_sex",
        &["DATE_TIME"],
        "a note's age and sex (45M) is no date",
        Action::Reject(|t, s, _| is_age_and_sex(&t[s.start..s.end])),
        &[ex("Pt 45M with", "45M", "DATE_TIME", "")],
        &[ex("in 2045", "2045", "DATE_TIME", "2045")],
    ),
    Rule::new(
        "company_abbreviation_dot",
        &["ORGANIZATION"],
        "the tokenizer splits off the dot of a closing company abbreviation",
        Action::Reshape(|t, s, _| Some(with_abbreviation_dot(t, s))),
        &[ex("First Albany Corp. said", "First Albany Corp", "ORGANIZATION", "First Albany Corp.")],
        &[ex("Albany Group. It", "Albany Group", "ORGANIZATION", "Albany Group")],
    ),
];

/// Relabel rules; the first that applies names the label.
pub(super) const RELABEL: &[Rule] = &[
    Rule::new(
        "executive_title",
        &["ORGANIZATION", "PERSON"],
        "an executive's title alone is an occupation",
        Action::Relabel(|t, s, _| {
            EXECUTIVE_TITLES
                .contains(&&t[s.start..s.end])
                .then(|| Label::builtin("OCCUPATION"))
        }),
        &[ex(
            "Dmitri Volkov, CTO at Helix",
            "CTO",
            "ORGANIZATION",
            "OCCUPATION",
        )],
        &[ex("at Helix", "Helix", "ORGANIZATION", "ORGANIZATION")],
    ),
    Rule::new(
        "peoples_word_alone",
        NAMED,
        "a people's word alone is a people (NRP), not a place, team or person",
        Action::Relabel(peoples_word),
        &[ex("the Panamanian said", "Panamanian", "LOCATION", "NRP")],
        &[ex("Christian said", "Christian", "PERSON", "PERSON")],
    ),
    Rule::new(
        "given_name_read_as_place",
        &["LOCATION"],
        "a given name alone is a person where a model reads a place",
        Action::Relabel(given_name_alone),
        &[ex("more soda than to diego", "diego", "LOCATION", "PERSON")],
        &[ex("flew to Paris", "Paris", "LOCATION", "LOCATION")],
    ),
    Rule::new(
        "institution_read_as_person",
        &["PERSON"],
        "a \"person\" ending on Hospital or Inc is an organisation",
        Action::Relabel(|t, s, _| {
            last_word(&t[s.start..s.end])
                .is_some_and(|w| is_institution_ending(w.trim_end_matches([',', ';', ':'])))
                .then(|| Label::builtin("ORGANIZATION"))
        }),
        &[ex(
            "at Mercy Hospital",
            "Mercy Hospital",
            "PERSON",
            "ORGANIZATION",
        )],
        &[ex("Ana Mercy", "Ana Mercy", "PERSON", "PERSON")],
    ),
    Rule::new(
        "place_kind_word",
        NAMED,
        "a name ending on a place's kind word is a place",
        Action::Relabel(|t, s, _| {
            last_word(&t[s.start..s.end])
                .is_some_and(|w| PLACE_KINDS.contains(&w))
                .then(|| Label::builtin("LOCATION"))
        }),
        &[ex("at Trump Tower", "Trump Tower", "PERSON", "LOCATION")],
        &[ex("Ana Towers", "Ana", "PERSON", "PERSON")],
    ),
    Rule::new(
        "group_kind_word",
        &["PERSON", "ORGANIZATION"],
        "a name ending on Channel, Studios, Records or Band is an organisation",
        Action::Relabel(|t, s, _| {
            last_word(&t[s.start..s.end])
                .is_some_and(|w| GROUP_KINDS.contains(&w))
                .then(|| Label::builtin("ORGANIZATION"))
        }),
        &[ex(
            "Zac Brown Band",
            "Zac Brown Band",
            "PERSON",
            "ORGANIZATION",
        )],
        &[ex("Zac Brown", "Zac Brown", "PERSON", "PERSON")],
    ),
    Rule::new(
        "employer_read_as_place",
        &["LOCATION"],
        "where someone works is an employer, whatever a model read",
        Action::Relabel(|t, s, _| {
            (after_employment_cue(t, s.start)
                && !t[s.start..s.end].split_whitespace().any(is_listed_word))
            .then(|| Label::builtin("ORGANIZATION"))
        }),
        &[ex(
            "she works at Zalando now",
            "Zalando",
            "LOCATION",
            "ORGANIZATION",
        )],
        &[ex(
            "she works at London Bridge",
            "London Bridge",
            "LOCATION",
            "LOCATION",
        )],
    ),
    Rule::new(
        "numbered_person",
        &["PERSON"],
        "a name has no house number or postcode: a numbered \"person\" is a street",
        Action::Relabel(|t, s, _| {
            numbered_name(&t[s.start..s.end]).then(|| Label::builtin("ADDRESS"))
        }),
        &[ex(
            "bor på Storgatan 3, 114 55 Stockholm",
            "Storgatan 3",
            "PERSON",
            "ADDRESS",
        )],
        &[ex("Ana Ruiz", "Ana Ruiz", "PERSON", "PERSON")],
    ),
];

/// The last word of a name of more than one.
fn last_word(inner: &str) -> Option<&str> {
    inner
        .contains(' ')
        .then(|| inner.split_whitespace().next_back())
        .flatten()
}

/// A people's word alone ("the Panamanian", "elderly Tajik", "watch singaporeans");
/// given names stay persons ("Christian").
fn peoples_word(text: &str, span: ByteSpan, label: Label) -> Option<Label> {
    let inner = &text[span.start..span.end];
    let given_person = label.as_str() == "PERSON" && is_given_name(inner);
    (!inner.contains(' ') && dictionary::is_nationality(inner) && !given_person)
        .then(|| Label::builtin("NRP"))
}

/// A given name alone read as a place ("more soda than to diego"); the given-name list
/// leaves out names that are also places ("Paris").
fn given_name_alone(text: &str, span: ByteSpan, _: Label) -> Option<Label> {
    let inner = &text[span.start..span.end];
    (!inner.contains(' ') && is_given_name(&title_case(inner)) && !dictionary::is_place(inner))
        .then(|| Label::builtin("PERSON"))
}

/// Whether a capitalised name has a word of digits (a house number, a postcode).
fn numbered_name(inner: &str) -> bool {
    inner.starts_with(char::is_uppercase)
        && inner.split_whitespace().any(|w| {
            let w = w.trim_end_matches([',', ';']);
            !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
        })
}

fn with_kind_word_rule(text: &str, span: ByteSpan, label: Label) -> Option<ByteSpan> {
    Some(with_kind_word(text, span, label))
}

/// Executive titles a model tags as an organisation now and then ("CTO at Helix").
#[rustfmt::skip]
const EXECUTIVE_TITLES: &[&str] = &[
    "CEO", "CTO", "CFO", "COO", "CIO", "CISO", "CMO", "CPO", "CRO", "CDO", "SVP", "EVP",
];

/// Articles that open a phrase, not a place's name: German, French, Spanish and Italian
/// ("in der Hauptstraße 5", "en la Calle Mayor"). Particles that are part of names
/// ("de", "van", "von") are not among them.
#[rustfmt::skip]
const ARTICLES: &[&str] = &[
    "der", "die", "das", "dem", "den", "des", "la", "le", "les", "el", "los", "las", "il",
    "lo", "gli",
];

/// A place's span without the lower-case article that opens it ("der Hauptstraße 5,
/// 10115 Berlin" → "Hauptstraße 5, 10115 Berlin"): a model takes the article of the
/// sentence into the place in German and Romance text.
fn without_article(text: &str, span: ByteSpan) -> ByteSpan {
    let inner = &text[span.start..span.end];
    match inner.split_once(' ') {
        Some((first, rest))
            if ARTICLES.contains(&first) && rest.starts_with(char::is_uppercase) =>
        {
            ByteSpan::new(span.end - rest.len(), span.end)
        }
        _ => span,
    }
}

/// A place's span with the state's or province's code after its comma ("Ipswich, QLD",
/// "Toronto, ON."): a model tags the city and leaves the code, which still says where.
/// A question's or exclamation's capitals stay out ("in Paris, OK?").
fn with_region_code(text: &str, span: ByteSpan) -> ByteSpan {
    // Tokenised text puts a space before the comma ("Ipswich , QLD").
    let rest = &text[span.end..];
    let Some(after) = rest.strip_prefix(", ").or_else(|| rest.strip_prefix(" , ")) else {
        return span;
    };
    let len = after
        .find(|c: char| !c.is_ascii_uppercase())
        .unwrap_or(after.len());
    let ends = after[len..]
        .chars()
        .next()
        .is_none_or(|c| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':' | ')'));
    if ends && regions::is_region(&after[..len]) {
        ByteSpan::new(span.start, text.len() - after.len() + len)
    } else {
        span
    }
}

/// One name written twice ("This is Diah Diah"): two mentions, each its own.
fn written_twice(text: &str, span: ByteSpan) -> Option<Vec<ByteSpan>> {
    let inner = text.get(span.start..span.end)?;
    let (first, second) = inner.split_once(' ')?;
    (first == second && first.chars().all(char::is_alphabetic)).then(|| {
        vec![
            ByteSpan::new(span.start, span.start + first.len()),
            ByteSpan::new(span.end - second.len(), span.end),
        ]
    })
}

/// The parts of a pair joined by "&" or "/" between letters ("Jason & Michelle",
/// "Gardena/Compton"), each its own entity so that "Jason" alone elsewhere gets the same
/// placeholder. Organisations stay whole ("Marks & Spencer", "AT&T": the rule is not
/// theirs), and so does a slash that is not between letters ("Unit 4/12").
fn pair(text: &str, span: ByteSpan) -> Option<Vec<ByteSpan>> {
    let inner = text.get(span.start..span.end)?;
    let letter_before = |at: usize| inner[..at].trim_end().ends_with(char::is_alphabetic);
    let letter_after = |at: usize| {
        inner[at + 1..]
            .trim_start()
            .starts_with(char::is_alphabetic)
    };
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in inner.match_indices(['&', '/']) {
        if letter_before(at) && letter_after(at) {
            out.push(ByteSpan::new(span.start + start, span.start + at));
            start = at + 1;
        }
    }
    if out.is_empty() {
        return None;
    }
    out.push(ByteSpan::new(span.start + start, span.end));
    Some(out)
}

/// Drops whitespace-separated runs without a letter or digit from both ends of a span
/// ("Lear Corp ." → "Lear Corp", "( KDP" → "KDP"); `None` when nothing is left ("."). A
/// model tags such stray punctuation now and then; no entity starts or ends with it.
/// Punctuation glued to a word ("Corp.", "U.S.") stays, but for a closing comma, colon
/// or semicolon, which ends a clause and no name or date ("Labs from 10/21: Cr 1.4").
fn trim_loose_punctuation(text: &str, span: ByteSpan) -> Option<ByteSpan> {
    let inner = text.get(span.start..span.end)?;
    // Byte ranges, inside the span, of its whitespace-separated words with a letter or digit.
    let mut kept = inner
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(|w| {
            let at = w.as_ptr() as usize - inner.as_ptr() as usize;
            (at, at + w.len())
        });
    let (start, first_end) = kept.next()?;
    let end = kept.next_back().map_or(first_end, |(_, end)| end);
    let kept = inner[start..end].trim_end_matches([',', ':', ';']);
    Some(ByteSpan::new(
        span.start + start,
        span.start + start + kept.len(),
    ))
}

/// A span of two or more words without the piece of slashed clinical shorthand at either
/// edge ("Sunrise Manor s" of "s/p fall", "W FAMILY" of "D/W FAMILY"): a model tags one
/// side of the slash now and then, and the cut shorthand reads as part of the name.
/// `None` when nothing is left.
fn without_cut_shorthand(text: &str, span: ByteSpan) -> Option<ByteSpan> {
    let inner = text.get(span.start..span.end)?;
    let (mut start, mut end) = (span.start, span.end);
    let tokens = between_spaces(text, span)?;
    if let Some(last_space) = inner.rfind(' ') {
        let token = text[span.start + last_space + 1..tokens.end]
            .trim_end_matches([',', '.', ';', ':', ')']);
        if tokens.end > span.end && token.contains('/') && is_clinical_shorthand(token) {
            end = span.start + last_space;
        }
    }
    if let Some(first_space) = inner.find(' ') {
        let token = text[tokens.start..span.start + first_space].trim_start_matches('(');
        if tokens.start < span.start && token.contains('/') && is_clinical_shorthand(token) {
            start = span.start + first_space + 1;
        }
    }
    if (start, end) == (span.start, span.end) {
        return Some(span);
    }
    trim_loose_punctuation(text, ByteSpan::new(start, end.max(start)))
}

/// Whether `span` is a credential alone ("M.D.", "PA-C"): a model tags one as a
/// person or an organisation now and then; it names no one. Only such spans are checked:
/// "MD" read as a US state stays a place.
fn is_credential(text: &str, span: ByteSpan) -> bool {
    // The whole dotted word: a model tags the "D" of "M.D." now and then.
    let dotted = dotted_word(text, span);
    text.get(dotted.start..dotted.end)
        .is_some_and(is_credential_word)
}

/// A person's span without the degree that closes it ("KOWALCZYK, ANNA M.D" →
/// "KOWALCZYK, ANNA"): a model runs on into the credential after a name in capitals now and
/// then, and the reader should still see that a physician signed. A credential alone is
/// dropped by [`is_credential`].
fn without_credential(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let Some(at) = inner.rfind([' ', ',']) else {
        return span;
    };
    let last = dotted_word(text, ByteSpan::new(span.start + at + 1, span.end));
    if last.start != span.start + at + 1
        || !text
            .get(last.start..last.end)
            .is_some_and(is_credential_word)
    {
        return span;
    }
    let rest = inner[..at].trim_end_matches([' ', ',']);
    if !rest.chars().any(char::is_alphabetic) {
        return span;
    }
    ByteSpan::new(span.start, span.start + rest.len())
}

/// A place's or organisation's span without the clock time that closes it ("LHR 14:25" →
/// "LHR"): a model runs on from an airport or station into its time in timetables and
/// tickets now and then; the time is a date of its own, and no name ends in one.
fn without_clock_time(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let Some((rest, last)) = inner.rsplit_once(' ') else {
        return span;
    };
    let clock = last.contains(':')
        && last
            .split(':')
            .all(|part| (1..=2).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit()));
    let rest = rest.trim_end();
    if !clock || rest.is_empty() {
        return span;
    }
    ByteSpan::new(span.start, span.start + rest.len())
}

/// Whether `span` is clinical shorthand, or a measurement with its value ("PT", "Y.O.",
/// "RA.", "HbA1c 7.2", "BP 142/88"): a model tags such words in notes as a name now and
/// then; they name no one.
fn is_clinical_shorthand_only(text: &str, span: ByteSpan) -> bool {
    // The whole words the span touches: a dot splits "Y.O." into tokens.
    let Some(words) = between_spaces(text, span) else {
        return false;
    };
    let inner = &text[words.start..words.end];
    let (mut shorthand, mut measure, mut value) = (false, false, false);
    for word in inner.split_whitespace() {
        let word = word.trim_matches(['(', ')', ',', ';', ':']);
        if is_clinical_shorthand(word) || is_drug(word.trim_end_matches('.')) {
            shorthand = true;
        } else if is_clinical_measure(word) {
            measure = true;
        } else if word
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '%' | '/' | '.'))
        {
            value = true;
        } else {
            return false;
        }
    }
    shorthand || (measure && value)
}

/// Whether `span` is the value of a vital sign or lab ("INR 1.1", "BP 12/8"): a model
/// reads a short number with a dot or slash as a date now and then.
fn follows_clinical_measure(text: &str, span: ByteSpan) -> bool {
    text.get(..span.start)
        .and_then(|before| before.split_whitespace().next_back())
        .is_some_and(|word| is_clinical_measure(word.trim_end_matches(':')))
}

/// The part of a date that a colon or semicolon and a space cut off ("10/21: Cr 1.4, K
/// 4.2" → "10/21", "Date: 10/21" → "10/21"): a model runs a date on into the lab values
/// of its line now and then, and no date has a clause break inside (a time's colon has
/// no space after it). The first part with a digit is the date.
fn one_clause(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let mut start = 0;
    for (at, _) in inner
        .match_indices([':', ';'])
        .filter(|(at, _)| inner[at + 1..].starts_with(' '))
    {
        if inner[start..at].bytes().any(|b| b.is_ascii_digit()) {
            return ByteSpan::new(span.start + start, span.start + at);
        }
        start = at + 2;
    }
    ByteSpan::new(span.start + start, span.end)
}

/// Whether `span` is numbers joined by slashes that no calendar reads as a date
/// ("142/88", a blood pressure): a model tags one after a date-like note header now and
/// then. A date is what the date patterns' checks accept ("7/22", "3/2019", "06/12/88").
fn is_impossible_slash_date(text: &str, span: ByteSpan) -> bool {
    let Some(inner) = text.get(span.start..span.end) else {
        return false;
    };
    let parts = inner.split('/').collect::<Vec<_>>();
    let numbers = parts
        .iter()
        .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()));
    match parts.len() {
        2 if numbers => !structure::short_numeric_date(inner),
        3 if numbers => !structure::numeric_date(inner),
        _ => false,
    }
}

/// Whether `span` is part of a code glued to it, with letters of its own ("2024" or
/// "INV-2024" of "INV-2024-0042", "BUILD_2024_07"): an invoice, ticket or build number,
/// not a date. A model tags such years as dates in running text now and then. Dates
/// written with a month's letters ("12-Mar-2024") or a modifier ("mid-2024") stay.
fn inside_code(text: &str, span: ByteSpan) -> bool {
    let code = widened(text, span, |b| {
        b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
    });
    let Some(token) = text.get(code.start..code.end) else {
        return false;
    };
    code != span
        && token
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|letters| letters.len() >= 2 && !is_date_word(letters))
}

/// Whether `inner` is a note's age and sex ("45M", "29F"), which a model reads as a date
/// now and then; no date is written so.
fn is_age_and_sex(inner: &str) -> bool {
    inner
        .strip_suffix(['M', 'F'])
        .is_some_and(|age| (1..=3).contains(&age.len()) && age.bytes().all(|b| b.is_ascii_digit()))
}

/// Letters a date written as one token has: a month or its abbreviation, an ordinal's
/// ending ("12th") or a modifier ("mid-2024"), any case.
fn is_date_word(letters: &str) -> bool {
    const OTHERS: &[&str] = &[
        "st", "nd", "rd", "th", "mid", "early", "late", "pre", "post", "end",
    ];
    is_month_any_case(letters) || OTHERS.iter().any(|w| w.eq_ignore_ascii_case(letters))
}

/// Takes the closing bracket after a span that opened one and left it open ("Mladost ( BJ"
/// → "Mladost ( BJ )"): trimming loose punctuation cut it, and half a bracket is no name.
fn close_bracket(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let open = inner.matches('(').count() > inner.matches(')').count();
    let rest = &text[span.end..];
    let after = rest.trim_start_matches([' ', '\t']);
    if open && after.starts_with(')') {
        return ByteSpan::new(span.start, span.end + (rest.len() - after.len()) + 1);
    }
    span
}

/// A person's span cut before a possessive and what follows it ("Dr. Fitzgerald's office"
/// → "Dr. Fitzgerald"): a model carries a name on across "'s" now and then, and no
/// person's name goes on past one. Organisations keep theirs ("St. Mary's Hospital").
fn before_possessive(text: &str, span: ByteSpan) -> ByteSpan {
    let inner = &text[span.start..span.end];
    let cut = ["'s ", "\u{2019}s "]
        .iter()
        .filter_map(|p| inner.find(p))
        .min();
    match cut.map(|at| inner[..at].trim_end().len()) {
        Some(end) if end > 0 => ByteSpan::new(span.start, span.start + end),
        _ => span,
    }
}

/// A person's span without the office or role that opens it ("Bishop Desmond Tutu" →
/// "Desmond Tutu"), as the name rules leave it out; an honorific that gives gender away
/// ("Mr", "Sir") stays. A span of the title alone is left as it is.
fn without_rank(text: &str, span: ByteSpan) -> ByteSpan {
    let Some((first, rest)) = text
        .get(span.start..span.end)
        .and_then(|s| s.split_once(' '))
    else {
        return span;
    };
    let rest = rest.trim_start_matches(' ');
    if is_office(first.trim_end_matches('.')) && rest.starts_with(char::is_uppercase) {
        return ByteSpan::new(span.end - rest.len(), span.end);
    }
    span
}

/// A person's span without the chat or clinical shorthand at its edges ("martin lmao" →
/// "martin", "Was mason" → "mason", "PT JOHNSON" → "JOHNSON"): a model takes such words
/// into a name in informal text and notes now and then. `None` when there is nothing but
/// chat ("Hallo", "Je"); shorthand alone is dropped later ([`is_clinical_shorthand_only`]).
fn without_chatter(text: &str, span: ByteSpan) -> Option<ByteSpan> {
    let Some(inner) = text.get(span.start..span.end) else {
        return Some(span);
    };
    let words: Vec<(usize, &str)> = inner
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - inner.as_ptr() as usize, w))
        .collect();
    let mut first = 0;
    let mut last = words.len();
    // Shorthand only as notes write it, in capitals or with its dot: "Cath" and "Ros"
    // open names too.
    let noted = |w: &str| w.ends_with('.') || !w.chars().any(char::is_lowercase);
    let edge = |w: &str| is_chatter(w) || (is_clinical_shorthand(w) && noted(w));
    // A cue's last word after chat the model took too ("Hallo, ich bin Jonas Becker" read
    // as "ich bin Jonas Becker": "ich" is chat, then "bin" ends the cue).
    let ends_cue_at = |i: usize| {
        let (at, word) = words[i];
        ends_cue(&text[..span.start + at], word)
    };
    while last - first > 1 && (edge(words[first].1) || ends_cue_at(first)) {
        first += 1;
    }
    while last - first > 1 && edge(words[last - 1].1) {
        last -= 1;
    }
    // Chat alone, or a cue's last word alone: a model tags "bin" of "ich bin" as a person
    // of its own now and then, which the name after it would then merge with.
    let cue_alone = words.len() == 1 && ends_cue_at(0);
    if cue_alone || words.iter().all(|(_, w)| is_chatter(w)) {
        return None;
    }
    if words.is_empty() || (first == 0 && last == words.len()) {
        return Some(span);
    }
    let (at, word) = words[last - 1];
    Some(ByteSpan::new(
        span.start + words[first].0,
        span.start + at + word.len(),
    ))
}

/// Regnal numbers that follow a name ("Elizabeth II", "Henry VIII"). A lone "I" counts only
/// before punctuation or the end of the line: "when Pedro I said" is the pronoun.
#[rustfmt::skip]
const REGNAL: &[&str] = &[
    "I", "II", "III", "IV", "VI", "VII", "VIII", "IX", "XI", "XII", "XIII", "XIV", "XV",
    "XVI",
];

/// A person's span with the regnal number after it ("Baudouin" → "Baudouin I").
fn with_regnal_number(text: &str, span: ByteSpan) -> ByteSpan {
    let rest = &text[span.end..];
    let Some(after) = rest.strip_prefix(' ') else {
        return span;
    };
    let len = after
        .find(|c: char| !c.is_ascii_uppercase())
        .unwrap_or(after.len());
    let (number, next) = after.split_at(len);
    let ends_clause = next
        .trim_start_matches(' ')
        .chars()
        .next()
        .is_none_or(|c| c.is_ascii_punctuation() || c == '\n');
    let monarch = text[..span.start]
        .trim_end_matches(' ')
        .rsplit(' ')
        .next()
        .is_some_and(is_monarch);
    let fits = REGNAL.contains(&number)
        && !next.starts_with(char::is_alphanumeric)
        && (number != "I" || ends_clause || monarch);
    if fits {
        return ByteSpan::new(span.start, span.end + 1 + len);
    }
    span
}

/// A person's span with the names joined to it by a hyphen ("Hans-Peter Müller" +
/// "-Lüdenscheidt"): a model ends a double-barrelled surname at its hyphen now and then,
/// most of all where a letter outside ASCII follows, and half a surname gives the person
/// away. Only capitalised names are taken ("Müller-based" stays out).
fn with_joined_names(text: &str, span: ByteSpan) -> ByteSpan {
    // A capital and lower-case letters: in capitals, "FOOTBALL-RANDALL CUNNINGHAM" is
    // a headline's topic before a name.
    let name_len = |s: &str| {
        let mut chars = s.chars();
        match chars.next() {
            Some(first) if first.is_uppercase() => {
                first.len_utf8()
                    + chars
                        .take_while(|c| c.is_lowercase())
                        .map(char::len_utf8)
                        .sum::<usize>()
            }
            _ => 0,
        }
    };
    let mut end = span.end;
    while let Some(after) = text.get(end..).and_then(|rest| rest.strip_prefix('-')) {
        let len = name_len(after);
        if len < 2 {
            break;
        }
        end += 1 + len;
    }
    let mut start = span.start;
    while let Some(before) = text.get(..start).and_then(|head| head.strip_suffix('-')) {
        let word_start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphabetic())
            .last()
            .map_or(before.len(), |(i, _)| i);
        let len = name_len(&before[word_start..]);
        if len < 2 || word_start + len != before.len() {
            break;
        }
        start = word_start;
    }
    ByteSpan::new(start, end)
}

/// A person's span with the "Lil" of a stage name before it ("lil wayne", "Lil Nas X"): a
/// model reads it as the slang word and leaves it out.
fn with_stage_prefix(text: &str, span: ByteSpan) -> ByteSpan {
    let before = &text[..span.start];
    match before.strip_suffix("Lil ").or(before.strip_suffix("lil ")) {
        Some(rest) if !rest.ends_with(|c: char| c.is_alphanumeric()) => {
            ByteSpan::new(rest.len(), span.end)
        }
        _ => span,
    }
}

/// Words that say what kind of place a name is when they follow it ("Trump Tower",
/// "Kennedy Airport"): the place's own name, which a model ends before now and then. Kinds
/// that are also surnames or common words at a sentence's start ("Park", "Castle", "Lake")
/// are not among them.
#[rustfmt::skip]
const PLACE_KINDS: &[&str] = &[
    "Tower", "Towers", "Island", "Airport", "Stadium", "Arena", "Mall",
];

/// Words that make a name a broadcaster's, a label's or a band's when they follow it
/// ("Discovery Channel", "Zac Brown Band"; lower-case "band" in chat).
const GROUP_KINDS: &[&str] = &["Channel", "Studios", "Records", "Band", "band"];

/// A name's span with the kind word that follows it ([`PLACE_KINDS`], [`GROUP_KINDS`]);
/// a relabel rule then names the whole by its kind. A lower-case "band" follows only a person's
/// name: a band is named for one ("the UMass band" is the university's).
fn with_kind_word(text: &str, span: ByteSpan, label: Label) -> ByteSpan {
    let Some(after) = text[span.end..].strip_prefix(' ') else {
        return span;
    };
    let word_len = after
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(after.len());
    let word = &after[..word_len];
    let kind = PLACE_KINDS.contains(&word)
        || (GROUP_KINDS.contains(&word) && (word != "band" || label.as_str() == "PERSON"));
    if kind {
        ByteSpan::new(span.start, span.end + 1 + word_len)
    } else {
        span
    }
}

/// An organisation's span with the dot of its closing abbreviation, which the tokenizer
/// splits off and the model leaves out.
fn with_abbreviation_dot(text: &str, span: ByteSpan) -> ByteSpan {
    let inner = &text[span.start..span.end];
    let last = inner.rsplit(' ').next().unwrap_or(inner);
    if DOTTED_COMPANY_WORDS.contains(&last) && text[span.end..].starts_with('.') {
        return ByteSpan::new(span.start, span.end + 1);
    }
    span
}

/// Drops from both ends of an organisation or place that has a capitalised word the
/// words no such name has there: all-lower-case words other than name particles
/// ("Pamir mountains" → "Pamir", "NLD party" → "NLD", "the Oval" → "Oval", but
/// "al-Aqsa", "de Gaulle" and the "s" of a split "McDonald ' s" stay) and a leading
/// month or year, a date of its own ("June Comelf" → "Comelf", "1979 Democracy Wall" →
/// "Democracy Wall"). A model runs on over such words in cased text; no gold organisation or place with a
/// capital in CoNLL-2003 dev ends in a lower-case word. All-lower-case spans ("east
/// portland") are left as they are: there case says nothing. Never empties a span.
fn trim_common_edges(text: &str, span: ByteSpan) -> ByteSpan {
    let Some(inner) = text.get(span.start..span.end) else {
        return span;
    };
    let words: Vec<(usize, &str)> = inner
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - inner.as_ptr() as usize, w))
        .collect();
    let capitalised = |w: &str| w.starts_with(char::is_uppercase);
    if !words.iter().any(|(_, w)| capitalised(w)) {
        return span;
    }
    let common = |w: &str| {
        w.chars().count() > 1 && w.chars().all(char::is_lowercase) && !PARTICLES.contains(&w)
    };
    let mut first = 0;
    while first < words.len() && common(words[first].1) {
        first += 1;
    }
    let year = |w: &str| {
        w.len() == 4
            && w.bytes().all(|b| b.is_ascii_digit())
            && (w.starts_with("19") || w.starts_with("20"))
    };
    // A month opens no organisation's or place's name ("August National Association of
    // …" is the month, then the association), but for "May" and "March", which open names
    // ("May Department Stores"); weekdays do too ("Sunday Telegraph").
    let month = |w: &str| MONTHS.contains(&w) && !matches!(w, "May" | "March");
    if first + 1 < words.len() && (month(words[first].1) || year(words[first].1)) {
        first += 1;
    }
    let mut last = words.len() - 1;
    while last > first && common(words[last].1) {
        last -= 1;
    }
    if first >= words.len() || !words[first..=last].iter().any(|(_, w)| capitalised(w)) {
        return span;
    }
    let (start, _) = words[first];
    let (at, word) = words[last];
    ByteSpan::new(span.start + start, span.start + at + word.len())
}

/// Widens a name inside a URL query value to the whole value when the value is
/// URL-encoded words (`?q=Siobhan+O%27Reilly`): `+` and `%27` are the space and the
/// apostrophe of one name, which the model reads as breaks ("Siobhan" alone).
fn whole_query_value(text: &str, span: ByteSpan) -> ByteSpan {
    let bytes = text.as_bytes();
    let stops =
        |b: u8| matches!(b, b'=' | b'&' | b'?' | b'#' | b'"' | b'\'') || b.is_ascii_whitespace();
    let mut start = span.start;
    while start > 0 && !stops(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = span.end;
    while end < bytes.len() && !stops(bytes[end]) {
        end += 1;
    }
    // `?key=` or `&key=` just before the value, the key read backwards from the `=`.
    let in_query = || {
        let key_byte = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-');
        let before_key = bytes[..start - 1].iter().rev().find(|b| !key_byte(b));
        bytes[start - 1] == b'=' && matches!(before_key, Some(b'?' | b'&'))
    };
    if start > 0 && text[start..end].contains(['+', '%']) && in_query() {
        ByteSpan::new(start, end)
    } else {
        span
    }
}

/// Widens a span that cuts an ASCII word to the whole word: a model tags "/22" of
/// "7/22" now and then (the tokenizer splits at the slash and the first piece came out
/// `O`), and a cut identifier or date would leave digits in the clear. Only ASCII
/// letters and digits are taken: scripts written without spaces have no word to widen to.
fn whole_ascii_words(text: &str, span: ByteSpan) -> ByteSpan {
    widened(text, span, |b| b.is_ascii_alphanumeric())
}

/// `span` widened to the whole dotted word it touches ("D" → "M.D.").
fn dotted_word(text: &str, span: ByteSpan) -> ByteSpan {
    widened(text, span, |b| b.is_ascii_alphanumeric() || b == b'.')
}

/// `span` widened to the whitespace around it: the whole tokens it touches; `None` when
/// `span` does not fall on character boundaries.
fn between_spaces(text: &str, span: ByteSpan) -> Option<ByteSpan> {
    let (before, after) = (text.get(..span.start)?, text.get(span.end..)?);
    let start = before
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(0, |(at, c)| at + c.len_utf8());
    let end = after
        .find(char::is_whitespace)
        .map_or(text.len(), |at| span.end + at);
    Some(ByteSpan::new(start, end))
}

/// `span` widened on both sides over the ASCII bytes that `keep` accepts (never into a
/// multi-byte character, whose bytes are no ASCII).
fn widened(text: &str, span: ByteSpan, keep: impl Fn(u8) -> bool) -> ByteSpan {
    let bytes = text.as_bytes();
    let mut start = span.start;
    while start > 0 && keep(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = span.end;
    while end < bytes.len() && keep(bytes[end]) {
        end += 1;
    }
    ByteSpan::new(start, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::refine::Switches;

    /// Every model-span rule, as the engine runs them.
    fn shape(text: &str, span: ByteSpan, label: Label) -> Option<ByteSpan> {
        super::super::shape(text, span, label, &Switches::default(), &mut Vec::new())
    }

    fn label(text: &str, span: ByteSpan, label: Label) -> Label {
        super::super::relabel(text, span, label, &Switches::default(), &mut Vec::new())
    }

    fn parts(text: &str, span: ByteSpan, label: Label) -> Vec<ByteSpan> {
        super::super::split(text, span, label, &Switches::default(), &mut Vec::new())
    }

    #[test]
    fn a_piece_of_clinical_shorthand_at_an_edge_is_cut() {
        let cut = |text: &'static str, part: &str| {
            let start = text.find(part).expect("part");
            without_cut_shorthand(text, ByteSpan::new(start, start + part.len()))
                .map(|s| &text[s.start..s.end])
        };
        let text = "BIBA from Sunrise Manor s/p fall";
        assert_eq!(cut(text, "Sunrise Manor s"), Some("Sunrise Manor"));
        assert_eq!(cut("PLAN D/W FAMILY TODAY", "W FAMILY"), Some("FAMILY"));
        assert_eq!(
            cut("seen at Mercy General today", "Mercy General"),
            Some("Mercy General")
        );
        assert_eq!(cut("met Ana Ruiz/Bo Chen", "Ana Ruiz"), Some("Ana Ruiz"));
        assert_eq!(cut("x s/p y", "s"), Some("s"));
        // a space that is no ASCII space before the shorthand (no slice inside it)
        assert_eq!(
            cut("PLAN\u{a0}D/W FAMILY TODAY", "W FAMILY"),
            Some("FAMILY")
        );
        // a span that closes its bracket keeps it
        assert_eq!(
            cut("Mladost ( BJ ) 2", "Mladost ( BJ )"),
            Some("Mladost ( BJ )")
        );
    }

    #[test]
    fn a_double_barrelled_name_is_taken_whole() {
        fn joined<'t>(text: &'t str, part: &str) -> &'t str {
            let start = text.find(part).expect("part");
            let span = with_joined_names(text, ByteSpan::new(start, start + part.len()));
            &text[span.start..span.end]
        }
        let text = "Prof. Dr. Hans-Peter Müller-Lüdenscheidt leitet";
        assert_eq!(
            joined(text, "Hans-Peter Müller"),
            "Hans-Peter Müller-Lüdenscheidt"
        );
        assert_eq!(joined(text, "Lüdenscheidt"), "Müller-Lüdenscheidt");
        assert_eq!(joined("Ana Müller-based", "Ana Müller"), "Ana Müller");
        assert_eq!(joined("Ana Ruiz- today", "Ana Ruiz"), "Ana Ruiz");
        assert_eq!(
            joined("FOOTBALL-RANDALL CUNNINGHAM", "RANDALL CUNNINGHAM"),
            "RANDALL CUNNINGHAM"
        );
    }

    #[test]
    fn loose_punctuation_is_trimmed_and_a_lone_dot_is_no_entity() {
        fn trim(text: &str) -> Option<&str> {
            trim_loose_punctuation(text, ByteSpan::new(0, text.len()))
                .map(|s| &text[s.start..s.end])
        }
        assert_eq!(trim("Lear Corp ."), Some("Lear Corp"));
        assert_eq!(trim("( KDP )"), Some("KDP"));
        assert_eq!(trim("The Oval ,"), Some("The Oval"));
        assert_eq!(trim("Lear Corp."), Some("Lear Corp."));
        assert_eq!(trim("U.S."), Some("U.S."));
        assert_eq!(trim("10/21:"), Some("10/21"));
        assert_eq!(trim("Ana Ruiz,"), Some("Ana Ruiz"));
        assert_eq!(trim("11/19/2091 08:14"), Some("11/19/2091 08:14"));
        assert_eq!(trim("Élodie - Paris"), Some("Élodie - Paris"));
        assert_eq!(trim("."), None);
        assert_eq!(trim(" - "), None);
    }

    #[test]
    fn organisations_and_places_lose_common_words_at_their_edges_in_cased_text() {
        let trim = |text: &str| {
            let s = trim_common_edges(text, ByteSpan::new(0, text.len()));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(trim("Pamir mountains"), "Pamir");
        assert_eq!(trim("First Union bank"), "First Union");
        assert_eq!(trim("the Oval"), "Oval");
        assert_eq!(trim("breakaway Chechnya republic"), "Chechnya");
        assert_eq!(trim("August National Association"), "National Association");
        // Particles, inner words, other scripts' case and lower-case text stay.
        assert_eq!(trim("al-Aqsa"), "al-Aqsa");
        assert_eq!(trim("de Gaulle Airport"), "de Gaulle Airport");
        assert_eq!(trim("Bank of England"), "Bank of England");
        assert_eq!(trim("east portland"), "east portland");
        assert_eq!(trim("May Department Stores"), "May Department Stores");
        assert_eq!(trim("Sunday Telegraph"), "Sunday Telegraph");
        assert_eq!(trim("McDonald ' s"), "McDonald ' s");
        assert_eq!(trim("August"), "August");
        assert_eq!(trim("1979 Democracy Wall movement"), "Democracy Wall");
        assert_eq!(trim("4 West"), "4 West");
    }

    #[test]
    fn brackets_company_abbreviations_regnal_numbers_and_ranks_follow_names() {
        let apply = |text: &str, f: fn(&str, ByteSpan) -> ByteSpan, part: &str| {
            let at = text.find(part).unwrap();
            let s = f(text, ByteSpan::new(at, at + part.len()));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(
            apply("Mladost ( BJ ) 2", close_bracket, "Mladost ( BJ"),
            "Mladost ( BJ )"
        );
        assert_eq!(
            apply("Mladost (BJ) 2", close_bracket, "Mladost (BJ"),
            "Mladost (BJ)"
        );
        assert_eq!(apply("Acme ) said", close_bracket, "Acme"), "Acme");
        let dot = with_abbreviation_dot;
        assert_eq!(
            apply("at First Albany Corp. said", dot, "First Albany Corp"),
            "First Albany Corp."
        );
        assert_eq!(apply("Acme Inc.", dot, "Acme Inc"), "Acme Inc.");
        assert_eq!(apply("Acme Inc .", dot, "Acme Inc"), "Acme Inc");
        assert_eq!(apply("Acme Tools.", dot, "Acme Tools"), "Acme Tools");
        let name = with_regnal_number;
        assert_eq!(
            apply("Queen Elizabeth II said", name, "Elizabeth"),
            "Elizabeth II"
        );
        assert_eq!(apply("Henry VIII's wives", name, "Henry"), "Henry VIII");
        assert_eq!(apply("Baudouin I , king", name, "Baudouin"), "Baudouin I");
        assert_eq!(apply("when Pedro I said", name, "Pedro"), "Pedro");
        assert_eq!(
            apply("1533 - Queen Elizabeth I born .", name, "Elizabeth"),
            "Elizabeth I"
        );
        assert_eq!(apply("Hi Anna I am here", name, "Anna"), "Anna");
        let rank = without_rank;
        assert_eq!(
            apply("said Bishop Desmond Tutu", rank, "Bishop Desmond Tutu"),
            "Desmond Tutu"
        );
        assert_eq!(apply("Prof. Ana Ruiz", rank, "Prof. Ana Ruiz"), "Ana Ruiz");
        assert_eq!(
            apply("Mr John Smith", rank, "Mr John Smith"),
            "Mr John Smith"
        );
        assert_eq!(apply("the Judge said", rank, "Judge"), "Judge");
        assert_eq!(apply("King of Spain", rank, "King of"), "King of");
        assert_eq!(apply("Ana IBM", name, "Ana"), "Ana");
        assert_eq!(apply("Ana IVa", name, "Ana"), "Ana");
    }

    #[test]
    fn a_stage_prefix_and_a_kind_word_join_the_name_and_a_legal_form_alone_is_none() {
        /// A name and its label.
        type Named = Option<(&'static str, &'static str)>;
        // (text, the model's span and label, what shaping makes of it)
        #[rustfmt::skip]
        let cases: &[(&str, &str, &str, Named)] = &[
            ("That moment lil wayne get on", "wayne", "PERSON", Some(("lil wayne", "PERSON"))),
            ("Lil Nas X sings", "Nas X", "PERSON", Some(("Lil Nas X", "PERSON"))),
            ("a lil Tom", "Tom", "PERSON", Some(("lil Tom", "PERSON"))),
            ("Brazil Tom", "Tom", "PERSON", Some(("Tom", "PERSON"))),
            ("The Trump Tower . Coming", "Trump", "LOCATION", Some(("Trump Tower", "LOCATION"))),
            ("into Kennedy Airport today", "Kennedy", "PERSON", Some(("Kennedy Airport", "LOCATION"))),
            ("a show on Discivery Channel !", "Discivery", "ORGANIZATION", Some(("Discivery Channel", "ORGANIZATION"))),
            ("thanks Zac brown band !", "Zac brown", "PERSON", Some(("Zac brown band", "ORGANIZATION"))),
            ("swam the English Channel", "English Channel", "LOCATION", Some(("English Channel", "LOCATION"))),
            ("the UMass band played", "UMass", "ORGANIZATION", Some(("UMass", "ORGANIZATION"))),
            ("Visit Jane Park soon", "Jane", "PERSON", Some(("Jane", "PERSON"))),
            ("from monster Inc : )", "Inc", "ORGANIZATION", None),
            ("Sachs and Co .\nInc .", "Inc", "ORGANIZATION", None),
            ("Acme Inc said", "Acme Inc", "ORGANIZATION", Some(("Acme Inc", "ORGANIZATION"))),
        ];
        for &(text, part, tagged, want) in cases {
            let at = text.find(part).unwrap();
            let tagged = Label::builtin(tagged);
            let got = shape(text, ByteSpan::new(at, at + part.len()), tagged).map(|span| {
                (
                    &text[span.start..span.end],
                    label(text, span, tagged).as_str(),
                )
            });
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn a_person_ending_on_hospital_is_an_organisation_numbered_an_address_and_an_employer_no_place()
    {
        let label_of = |text: &str, part: &str, tagged: &str| {
            let at = text.find(part).unwrap();
            label(
                text,
                ByteSpan::new(at, at + part.len()),
                Label::builtin(tagged),
            )
            .as_str()
        };
        assert_eq!(
            label_of("She works at Zalando in Berlin", "Zalando", "LOCATION"),
            "ORGANIZATION"
        );
        assert_eq!(
            label_of("I work at London Bridge", "London Bridge", "LOCATION"),
            "LOCATION"
        );
        assert_eq!(
            label_of("She lives at Zalando in Berlin", "Zalando", "LOCATION"),
            "LOCATION"
        );
        assert_eq!(label_of("Unit 4471", "4471", "LOCATION"), "LOCATION");
        assert_eq!(label_of("Route 66", "66", "LOCATION"), "LOCATION");
        assert_eq!(
            label_of(
                "BRIGHAM AND WOMEN'S HOSPITAL",
                "BRIGHAM AND WOMEN'S HOSPITAL",
                "PERSON"
            ),
            "ORGANIZATION"
        );
        assert_eq!(label_of("Acme Inc.", "Acme Inc.", "PERSON"), "ORGANIZATION");
        assert_eq!(label_of("Emily Post", "Emily Post", "PERSON"), "PERSON");
        assert_eq!(label_of("Ms. Bank", "Bank", "PERSON"), "PERSON");
        assert_eq!(label_of("1999", "1999", "DATE_TIME"), "DATE_TIME");
        let street = "bor på Storgatan 3, 114 55 Stockholm";
        assert_eq!(
            label_of(street, "Storgatan 3, 114 55 Stockholm", "PERSON"),
            "ADDRESS"
        );
        assert_eq!(label_of("smit 7 y", "smit 7 y", "PERSON"), "PERSON");
        assert_eq!(label_of("Agent R2D2", "Agent R2D2", "PERSON"), "PERSON");
    }

    #[test]
    fn a_peoples_word_alone_is_a_people_and_a_given_name_alone_a_person() {
        #[rustfmt::skip]
        let cases = [
            ("against the Panamanian", "Panamanian", "LOCATION", "NRP"),
            ("an elderly Tajik", "Tajik", "PERSON", "NRP"),
            ("watch singaporeans", "singaporeans", "LOCATION", "NRP"),
            ("Christian said", "Christian", "PERSON", "PERSON"),
            ("more soda than to diego", "diego", "LOCATION", "PERSON"),
            ("flew to Paris", "Paris", "LOCATION", "LOCATION"),
            ("Saudi Arabia", "Saudi Arabia", "LOCATION", "LOCATION"),
        ];
        for (text, part, tagged, want) in cases {
            let at = text.find(part).expect("part");
            let span = ByteSpan::new(at, at + part.len());
            assert_eq!(
                label(text, span, Label::builtin(tagged)).as_str(),
                want,
                "{text}"
            );
        }
    }

    #[test]
    fn people_and_places_joined_by_an_ampersand_or_a_slash_are_two_entities() {
        let split = |text: &str, label: &str| {
            parts(text, ByteSpan::new(0, text.len()), Label::builtin(label))
                .iter()
                .map(|s| text[s.start..s.end].trim().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(split("Jason & Michelle", "PERSON"), ["Jason", "Michelle"]);
        assert_eq!(split("Joan & K Choi", "PERSON"), ["Joan", "K Choi"]);
        assert_eq!(split("Gardena/Compton", "LOCATION"), ["Gardena", "Compton"]);
        assert_eq!(
            split("Leeds / York / Hull", "LOCATION"),
            ["Leeds", "York", "Hull"]
        );
        // Organisations, and slashes or ampersands without a letter on each side, stay.
        assert_eq!(
            split("Marks & Spencer", "ORGANIZATION"),
            ["Marks & Spencer"]
        );
        assert_eq!(split("Unit 4/12 Elm St", "LOCATION"), ["Unit 4/12 Elm St"]);
        assert_eq!(split("Ana Ruiz &", "PERSON"), ["Ana Ruiz &"]);
        assert_eq!(split("Diah Diah", "PERSON"), ["Diah", "Diah"]);
        assert_eq!(split("Diah Diah", "LOCATION"), ["Diah Diah"]);
        assert_eq!(split("Ana Ana Ruiz", "PERSON"), ["Ana Ana Ruiz"]);
    }

    #[test]
    fn lower_case_god_is_no_one() {
        let person =
            |text: &str| shape(text, ByteSpan::new(0, text.len()), Label::builtin("PERSON"));
        assert_eq!(person("god"), None);
        assert_eq!(person("God"), Some(ByteSpan::new(0, 3)));
        assert_eq!(person("godfrey"), Some(ByteSpan::new(0, 7)));
    }

    #[test]
    fn a_city_takes_the_state_code_after_its_comma() {
        fn place<'t>(text: &'t str, city: &str) -> Option<&'t str> {
            let start = text.find(city).expect("city");
            let span = ByteSpan::new(start, start + city.len());
            shape(text, span, Label::builtin("LOCATION")).map(|s| &text[s.start..s.end])
        }
        assert_eq!(
            place("moved from Ipswich, QLD to Leeds", "Ipswich"),
            Some("Ipswich, QLD")
        );
        assert_eq!(
            place("born in Toronto, ON.", "Toronto"),
            Some("Toronto, ON")
        );
        assert_eq!(place("Tulsa, OK", "Tulsa"), Some("Tulsa, OK"));
        assert_eq!(place("Ipswich , QLD", "Ipswich"), Some("Ipswich , QLD"));
        assert_eq!(place("in Paris, OK?", "Paris"), Some("Paris"));
        assert_eq!(place("in Paris, UK based", "Paris"), Some("Paris"));
        assert_eq!(place("in Paris, ONE day", "Paris"), Some("Paris"));
        assert_eq!(place("in Paris, ON-site", "Paris"), Some("Paris"));
    }

    #[test]
    fn a_place_loses_the_article_of_its_sentence_and_an_executive_title_is_an_occupation() {
        fn place(text: &str) -> Option<&str> {
            let span = ByteSpan::new(text.find("der ").unwrap_or(0), text.len());
            shape(text, span, Label::builtin("LOCATION")).map(|s| &text[s.start..s.end])
        }
        assert_eq!(
            place("wohne in der Hauptstraße 5, 10115 Berlin"),
            Some("Hauptstraße 5, 10115 Berlin")
        );
        assert_eq!(place("de Panne"), Some("de Panne"));
        let title = "Dmitri Volkov, CTO at Helix";
        let cto = ByteSpan::new(15, 18);
        assert_eq!(
            label(title, cto, Label::builtin("ORGANIZATION")).as_str(),
            "OCCUPATION"
        );
        let acme = ByteSpan::new(22, 27);
        assert_eq!(
            label(title, acme, Label::builtin("ORGANIZATION")).as_str(),
            "ORGANIZATION"
        );
    }

    #[test]
    fn a_person_ends_before_a_possessive() {
        fn shaped<'t>(text: &'t str, entity: &str, label: &str) -> Option<&'t str> {
            let start = text.find(entity).expect("entity in text");
            let span = ByteSpan::new(start, start + entity.len());
            shape(text, span, Label::builtin(label)).map(|s| &text[s.start..s.end])
        }
        let text = "Dr. Fitzgerald's office (tel 781.555.0122) will call.";
        assert_eq!(
            shaped(text, "Dr. Fitzgerald's office", "PERSON"),
            Some("Dr. Fitzgerald")
        );
        let curly = "Ana Ruiz\u{2019}s lawyer said";
        assert_eq!(
            shaped(curly, "Ana Ruiz\u{2019}s lawyer", "PERSON"),
            Some("Ana Ruiz")
        );
        assert_eq!(
            shaped("Bill Clinton 's aide", "Bill Clinton 's aide", "PERSON"),
            Some("Bill Clinton")
        );
        // Organisations keep theirs ("St. Mary's", "Macy's").
        let hospital = "seen at St. Mary's Hospital today";
        assert_eq!(
            shaped(hospital, "St. Mary's Hospital", "ORGANIZATION"),
            Some("St. Mary's Hospital")
        );
        assert_eq!(shaped("Macy's", "Macy's", "ORGANIZATION"), Some("Macy's"));
    }

    #[test]
    fn chat_at_the_edges_of_a_person_is_no_part_of_the_name() {
        let trim = |text: &str| {
            without_chatter(text, ByteSpan::new(0, text.len()))
                .map(|s| text[s.start..s.end].to_owned())
        };
        let kept = |text: &str| Some(text.to_owned());
        assert_eq!(trim("martin lmao"), kept("martin"));
        assert_eq!(trim("Was mason"), kept("mason"));
        assert_eq!(trim("OMG Ana Ruiz LOL"), kept("Ana Ruiz"));
        assert_eq!(trim("Hi Anna"), kept("Anna"));
        assert_eq!(trim("PT JOHNSON"), kept("JOHNSON"));
        assert_eq!(trim("Pt. Ana Ruiz"), kept("Ana Ruiz"));
        assert_eq!(trim("PT"), kept("PT"));
        assert_eq!(trim("Cath Kidston"), kept("Cath Kidston"));
        // Inside a name it stays; chat alone is no one.
        assert_eq!(trim("Ana and Ruiz"), kept("Ana and Ruiz"));
        assert_eq!(trim("Amy Isaacs"), kept("Amy Isaacs"));
        assert_eq!(trim("lol"), None);
        assert_eq!(trim("Hallo"), None);
        assert_eq!(trim("Je"), None);
        // Letter openings of the languages users write in.
        assert_eq!(trim("Liebe Frau Schneider"), kept("Frau Schneider"));
        assert_eq!(trim("Sehr"), None);
        assert_eq!(trim("Dear Anna"), kept("Anna"));
        // Self-introductions.
        assert_eq!(
            trim("meu nome é João Pedro Almeida"),
            kept("João Pedro Almeida")
        );
        assert_eq!(trim("Je m'appelle Jean"), kept("Jean"));
        assert_eq!(trim("jag heter Karin Berg"), kept("Karin Berg"));
        let text = "Guten Tag, ich bin Jonas Becker.";
        let at = text.find("bin").unwrap();
        let span = without_chatter(text, ByteSpan::new(at, text.len() - 1)).unwrap();
        assert_eq!(&text[span.start..span.end], "Jonas Becker");
        let text = "Hallo, ich bin Jonas Becker";
        let at = text.find("bin").unwrap();
        assert_eq!(without_chatter(text, ByteSpan::new(at, at + 3)), None);
        let at = text.find("ich").unwrap();
        let span = without_chatter(text, ByteSpan::new(at, text.len())).unwrap();
        assert_eq!(&text[span.start..span.end], "Jonas Becker");
        assert_eq!(trim("bin Laden"), kept("bin Laden"));
        assert_eq!(trim("bin"), kept("bin"));
        // "I live" is no one.
        assert_eq!(trim("moro"), None);
        assert_eq!(trim("bor på Storgatan"), kept("Storgatan"));
    }

    #[test]
    fn clinical_shorthand_and_measurements_name_no_one_but_a_lab_acronym_alone_may() {
        let text = "PT IS A 72 Y.O. ON RA. HbA1c 7.2. BP 142/88. WBC said. Pt Ana Ruiz";
        let at = |part: &str| {
            let s = text.find(part).unwrap();
            ByteSpan::new(s, s + part.len())
        };
        let person = Label::builtin("PERSON");
        let org = Label::builtin("ORGANIZATION");
        assert_eq!(shape(text, at("PT"), org), None);
        assert_eq!(shape(text, at("Y.O."), person), None);
        assert_eq!(shape(text, at("O."), person), None);
        assert_eq!(shape(text, at("/88"), Label::builtin("DATE_TIME")), None);
        assert_eq!(shape(text, at("7.2"), Label::builtin("DATE_TIME")), None);
        assert_eq!(
            shape(text, at("72"), Label::builtin("DATE_TIME")),
            Some(at("72"))
        );
        assert_eq!(shape(text, at("RA."), org), None);
        assert_eq!(
            shape(text, at("HbA1c 7.2"), Label::builtin("LOCATION")),
            None
        );
        assert_eq!(shape(text, at("BP 142/88"), org), None);
        assert_eq!(shape(text, at("WBC"), org), Some(at("WBC")));
        // "OB" alone stays: Odense Boldklub in CoNLL-2003.
        let meds = "Meds: Keppra 500 mg BID, Lasix 40mg daily. Ana Ruiz 5 stars, Ana Ruiz 5 g. \
                    STARTED ON PREDNISONE. SEEN BY SW (OB/GYN) TODAY";
        let found = |part: &str| {
            let s = meds.find(part).unwrap();
            shape(meds, ByteSpan::new(s, s + part.len()), person)
        };
        assert_eq!(found("Keppra"), None);
        assert_eq!(found("Lasix"), None);
        assert_eq!(found("PREDNISONE"), None);
        assert_eq!(found("SW"), None);
        assert_eq!(found("OB/GYN"), None);
        assert!(found("Ana Ruiz").is_some());
        // Shorthand at a name's edge goes when written as notes write it, in capitals or
        // with its dot; in Title Case it stays, as "Cath" and "Ros" must.
        assert_eq!(
            shape(text, at("Pt Ana Ruiz"), person),
            Some(at("Pt Ana Ruiz"))
        );
        let caps = "PT ANA RUIZ";
        assert_eq!(
            shape(caps, ByteSpan::new(0, caps.len()), person),
            Some(ByteSpan::new(3, caps.len()))
        );
    }

    #[test]
    fn a_name_in_an_encoded_query_value_takes_the_whole_value() {
        fn widened<'t>(text: &'t str, name: &str) -> &'t str {
            let at = text.find(name).unwrap();
            let s = whole_query_value(text, ByteSpan::new(at, at + name.len()));
            &text[s.start..s.end]
        }
        let url = "GET /search?q=Siobhan+O%27Reilly&dob=1988 HTTP/1.1";
        assert_eq!(widened(url, "Siobhan"), "Siobhan+O%27Reilly");
        assert_eq!(widened("/u?name=Ana+Ruiz", "Ruiz"), "Ana+Ruiz");
        // Not encoded, not a query, or a path.
        assert_eq!(widened("/u?name=Ana&x=1", "Ana"), "Ana");
        assert_eq!(widened("Siobhan+Ana went", "Siobhan"), "Siobhan");
        assert_eq!(widened("/users/Siobhan+O%27Reilly", "Siobhan"), "Siobhan");
        assert_eq!(widened("a=b c=Siobhan+Ana", "Siobhan"), "Siobhan");
    }

    #[test]
    fn a_date_ends_at_a_clause_break() {
        fn cut(text: &str) -> &str {
            let s = one_clause(text, ByteSpan::new(0, text.len()));
            &text[s.start..s.end]
        }
        assert_eq!(cut("10/21: Cr 1.4, K 4.2"), "10/21");
        assert_eq!(cut("Date: 10/21"), "10/21");
        assert_eq!(cut("Seen: today; 10/21"), "10/21");
        assert_eq!(cut("3 March 2024 at 14:05:30"), "3 March 2024 at 14:05:30");
        assert_eq!(cut("Tuesday, 4 March 2025"), "Tuesday, 4 March 2025");
    }

    #[test]
    fn a_year_inside_a_code_is_no_date() {
        let in_code = |text: &str, part: &str| {
            let start = text.find(part).unwrap();
            inside_code(text, ByteSpan::new(start, start + part.len()))
        };
        assert!(in_code("invoice INV-2024-0042;", "INV-2024"));
        assert!(in_code("invoice INV-2024-0042;", "2024"));
        assert!(in_code("build BUILD_2024_07 failed", "2024_07"));
        assert!(in_code("ticket ops2024 closed", "2024"));
        // Dates of one token, and a date that is the whole token.
        assert!(!in_code("due 12-Mar-2024.", "12-Mar-2024"));
        assert!(!in_code("due 12-Mar-2024.", "2024"));
        assert!(!in_code("by mid-2024 we", "2024"));
        assert!(!in_code("on 2024-05-01T12:00:03Z", "2024-05-01"));
        assert!(!in_code("on 2024-05-01T12:00:03Z", "2024-05-01T12"));
        assert!(!in_code("in Q3-2024 sales", "2024"));
        assert!(!in_code("since 2019 we", "2019"));
    }

    #[test]
    fn a_notes_age_and_sex_is_no_date() {
        assert!(is_age_and_sex("45M") && is_age_and_sex("7F"));
        assert!(!is_age_and_sex("M") && !is_age_and_sex("2024M") && !is_age_and_sex("45"));
        let text = "Patient JOHN SMITH, 45M, MRN 00482913";
        let at = text.find("45M").unwrap();
        let date = Label::builtin("DATE_TIME");
        assert_eq!(shape(text, ByteSpan::new(at, at + 3), date), None);
    }

    #[test]
    fn numbers_with_slashes_that_no_calendar_reads_are_no_date() {
        let impossible = |s: &str| is_impossible_slash_date(s, ByteSpan::new(0, s.len()));
        for blood_pressure in ["142/88", "120/80", "90/60", "12/45/2001"] {
            assert!(impossible(blood_pressure), "{blood_pressure}");
        }
        for date in [
            "7/22",
            "22/7",
            "3/2019",
            "06/12/88",
            "2019/3",
            "2019/03/14",
            "12/8",
            "7/22/24",
        ] {
            assert!(!impossible(date), "{date}");
        }
        // Not slash-separated numbers at all: another rule's business.
        for other in ["7/22 0800", "2019-03-14", "1/2/3/4", "a/b"] {
            assert!(!impossible(other), "{other}");
        }
    }

    #[test]
    fn a_degree_alone_is_no_person_or_organisation_but_a_state_stays() {
        let person = Label::builtin("PERSON");
        let place = Label::builtin("LOCATION");
        let text = "Omar Fitzgerald, M.D., and Ana Ruiz, PA-C, of Baltimore, MD";
        let at = |part: &str| {
            let s = text.rfind(part).unwrap();
            ByteSpan::new(s, s + part.len())
        };
        assert_eq!(shape(text, at("M.D."), person), None);
        assert_eq!(
            shape(text, at("PA-C"), Label::builtin("ORGANIZATION")),
            None
        );
        assert_eq!(shape(text, at("MD"), place), Some(at("MD")));
        assert_eq!(shape(text, at("Ana Ruiz"), person), Some(at("Ana Ruiz")));
    }

    #[test]
    fn a_degree_after_a_name_leaves_the_name_and_a_clock_time_is_no_part_of_one() {
        let text = "Attending: KOWALCZYK, ANNA M.D.  Seen by Ana Ruiz, PA-C in 2 wks; Dr. M. D. \
                    Shah; departs LHR 14:25, arrives JFK 17:40:00; Terminal 5; saw 3 Doors Down";
        let at = |part: &str| {
            let s = text.find(part).unwrap();
            ByteSpan::new(s, s + part.len())
        };
        let person = Label::builtin("PERSON");
        let org = Label::builtin("ORGANIZATION");
        let place = Label::builtin("LOCATION");
        let shaped = |part: &str, label| shape(text, at(part), label);
        assert_eq!(
            shaped("KOWALCZYK, ANNA M.D", person),
            Some(at("KOWALCZYK, ANNA"))
        );
        assert_eq!(shaped("Ana Ruiz, PA-C", person), Some(at("Ana Ruiz")));
        // Initials that spell a degree inside a name stay: "M. D." is two words.
        assert_eq!(shaped("M. D. Shah", person), Some(at("M. D. Shah")));
        assert_eq!(shaped("LHR 14:25", place), Some(at("LHR")));
        assert_eq!(shaped("JFK 17:40:00", org), Some(at("JFK")));
        assert_eq!(shaped("Terminal 5", place), Some(at("Terminal 5")));
        // A number and a name is no time ("3 Doors Down").
        assert_eq!(shaped("3 Doors Down", org), Some(at("3 Doors Down")));
    }

    #[test]
    fn a_span_that_cuts_an_ascii_word_takes_the_whole_word_but_never_crosses_other_scripts() {
        let widen = |text: &str, start: usize, end: usize| {
            let s = whole_ascii_words(text, ByteSpan::new(start, end));
            text[s.start..s.end].to_owned()
        };
        assert_eq!(widen("7/22 0800 PT", 1, 4), "7/22");
        assert_eq!(widen("seen 7/22.", 6, 9), "7/22");
        assert_eq!(widen("JOHNSON, MARY", 0, 7), "JOHNSON");
        assert_eq!(widen("Smithson said", 0, 5), "Smithson");
        // Byte offsets after "他的" (6 bytes): nothing to widen into.
        assert_eq!(widen("他的Anna说", 6, 10), "Anna");
    }
}

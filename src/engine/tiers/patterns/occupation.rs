//! A person's occupation, where the sentence says it is theirs: "she is a primary school
//! teacher", "worked as a lorry driver", "Mr K., a retired non-commissioned officer",
//! `Occupation: electrician`. Court judgments (TAB's `DEM`) and clinical de-identification
//! (i2b2's `PROFESSION`) both count it as identifying: with a town and an age it often
//! names one person.
//!
//! A job word alone says nothing about anyone ("ask a lawyer", "how to become a nurse"),
//! so the regex requires a cue that ties it to a person: a copula with an article, `as`
//! after a verb of working, an apposition, "retired" or "former", or a form field. "You are a translator" is a
//! role given to a model, not a fact about a person: `are` is no cue.

use super::phrase::{ends_before, next_word};
use crate::engine::PatternSpec;
use crate::text::ByteSpan;

/// The job words that end an occupation (up to three words before one describe it:
/// "retired", "school bus", "local authority housing"); a longer form comes before the
/// form it extends. A macro, so that the regex is one literal. Left out: words that are mostly something else after "is a"
/// ("pilot" project, "major" problem, "general" rule, chemical "agent", "principal"
/// reason) and public offices (minister, prosecutor), which name a post, not a person's
/// trade.
macro_rules! occupation_words {
    () => {
        r"schoolteacher|headteacher|teacher|headmaster|headmistress|professor|lecturer|tutor
        |librarian|lawyer|advocate|solicitor|barrister|attorney|notary|paralegal|bailiff|judge
        |magistrate|(?:medical|general|nurse)\s+practitioner|physician|doctor|surgeon|nurse
        |midwife|dentist|pharmacist|psychiatrist|psychologist|psychotherapist|physiotherapist
        |therapist|paramedic|veterinarian|radiographer|optician|anaesthetist|anesthesiologist
        |cardiologist|oncologist|paediatrician|pediatrician|radiologist|neurologist
        |gynaecologist|gynecologist|dermatologist|carer|programmer|developer|engineer
        |technician|electrician|plumber|carpenter|mechanic|machinist|bricklayer|builder|welder
        |plasterer|roofer|architect|surveyor|accountant|bookkeeper|auditor|actuary|economist
        |analyst|banker|stockbroker|broker|underwriter|(?:insurance|estate|travel)\s+agent
        |chief\s+executive(?:\s+officer)?|director|manager|supervisor|foreman|administrator
        |coordinator|businessman|businesswoman|entrepreneur|shopkeeper|salesman|saleswoman
        |sales\s+representative|cashier|teller|clerk|secretary|receptionist|consultant|trader
        |merchant|(?:civil|public)\s+servant|policeman|policewoman|detective|inspector
        |(?:security|prison|border)\s+guard|warder|watchman|firefighter|fireman|soldier
        |conscript|sergeant|corporal|captain|lieutenant|colonel|officer|journalist|reporter
        |editor[\-‑]in[\-‑]chief|editor|publisher|writer|author|novelist|poet|dancer|artist
        |painter|sculptor|musician|singer|composer|actor|actress|photographer|spokesman
        |spokeswoman|spokesperson|translator|interpreter|farmer|fisherman|shepherd|forester
        |gardener|miner|labourer|laborer|worker|driver|sailor|seaman|flight\s+attendant
        |stewardess|chef|cook|waiter|waitress|bartender|cleaner|housekeeper|caretaker|janitor
        |nanny|childminder|hairdresser|hairstylist|beautician|barber|tailor|seamstress
        |dressmaker|custodian|landscaper|realtor|baker|butcher|postman|courier|student
        |pupil|researcher|scientist|chemist|biologist|physicist|mathematician|priest|imam
        |rabbi|pastor|vicar|monk|nun|diplomat|ambassador|councillor|politician|athlete
        |footballer|housewife|homemaker|pensioner|breadwinner|longshoreman|dockworker
        |stevedore|(?:crane|machine|forklift|equipment|switchboard|radio)\s+operator|violinist
        |violist|cellist|pianist|organist|guitarist|bassist|drummer|flautist|saxophonist
        |(?:shop|research|nursing|teaching|dental|medical|personal|legal|administrative)\s+assistant"
    };
}

/// An age between the article and the occupation: "a 56 year old", "a 92 y.o.", "a
/// 34-year-old". It stays out of the span (`AGE` finds the number).
macro_rules! aged {
    () => {
        r"\d{1,3}[\s\-]*(?:(?:years?|yrs?)[\s\-]*old|y\.?\s?o\.?)\s+"
    };
}

/// Occupations after a cue that ties them to a person. The span is the occupation with
/// its modifiers ("retired non-commissioned officer", "local authority housing officer"),
/// not the article, so "she was a [OCCUPATION_1]" still reads. The cue is strong evidence,
/// so the score (as `AGE`'s) beats a model's less sure "person" on the same word ("a
/// widower, retired machinist").
pub(super) const OCCUPATION: PatternSpec = PatternSpec {
    name: "occupation",
    label: "OCCUPATION",
    regex: concat!(
        r"(?ix)
        (?: \b(?: is | was | been | became | i['’]m | i\s+am | (?:he|she)['’]s )
              \s+ (?:also\s+|now\s+|still\s+)? (?:an?|the) \s+ (?:",
        aged!(),
        r")?
          | \b(?: works? | worked | working | employed | hired | trained | qualified | served
              | serves | serving | job | career | retired | practi[sc]ed | practi[sc]ing )
              \s+ as \s+ (?:an?\s+)?
          | \b(?: post | position | job ) \s+ of \s+ an? \s+
          | ,\s+ an? \s+ (?:",
        aged!(),
        r")?
          | \b(?: retired | former ) \s+
          | \b(?: occupation | profession | job\s+title ) \s* [:\-] \s* (?:an?\s+)? )
        # up to three words before the job word: retired, school bus, local authority housing
        ( (?: [a-z][a-z\-‑]* \s+ ){0,3}
          (?:",
        occupation_words!(),
        r")(?:e?s)? )\b"
    ),
    group: 1,
    score: 0.85,
    validate: Some(no_function_word),
    surroundings: Some(ends_the_phrase),
    negative_context: &[],
    examples: &[
        (
            "the applicant, a primary school teacher, was",
            "primary school teacher",
        ),
        (
            "At the relevant time he was a Lance Corporal in",
            "Lance Corporal",
        ),
        (
            "Mrs W. had been employed as a local authority housing officer.",
            "local authority housing officer",
        ),
        (
            "he was also the Chief Executive Officer",
            "Chief Executive Officer",
        ),
        ("she was the primary breadwinner", "primary breadwinner"),
        (
            "sat an exam for the post of a private security guard",
            "private security guard",
        ),
        (
            "the applicant is a retired non-commissioned officer",
            "retired non-commissioned officer",
        ),
        ("I'm a software engineer at a bank", "software engineer"),
        ("Occupation: retired electrician", "retired electrician"),
        ("He works as a lorry driver.", "lorry driver"),
        ("He used to work as a crane operator.", "crane operator"),
        (
            "She is a 66-year-old left-handed violinist.",
            "left-handed violinist",
        ),
        (
            "SOCIAL HISTORY: PATIENT IS A RETIRED FIREFIGHTER",
            "RETIRED FIREFIGHTER",
        ),
        ("Jane Roe, an analyst at a bank, said", "analyst"),
        (
            "a 93 year old widower, retired machinist at a plant",
            "machinist",
        ),
        (
            "The patient is a 45 year old retired firefighter.",
            "retired firefighter",
        ),
        (
            "Mr. Nakamura, a 56 year old software engineer at Amazon",
            "software engineer",
        ),
        (
            "Ms. Quinones is a 92 y.o. retired seamstress from Barre",
            "retired seamstress",
        ),
    ],
    counter_examples: &[
        "the plus sign is a binary operator",
        "You are a translator. Translate the text below.",
        "Act as a senior software engineer and review this.",
        "how to become a nurse in Canada",
        "this is a job for a few doctors",
        "he is a member of the teachers union",
        "It is a problem for the doctor",
        "ask a lawyer before you sign",
        "this is a pilot project",
        "it is a major problem",
        "the doctor said so",
        "she is an advocate of free trade",
        "it returns a manager object, a driver handle and a client",
        "Our product is a developer tool for data scientists.",
        "bring a pen, a teacher's guide and a ruler",
        "The assistant is a helpful tutor for students.",
        "This bot is a travel agent.",
    ],
    ..PatternSpec::BASE
};

/// Words that, before a job word, say it is no one's job: "a few doctors", "a fan of the
/// nurses", "a member of the teachers' union".
#[rustfmt::skip]
const NOT_MODIFIERS: &[&str] = &[
    "a", "an", "the", "of", "and", "or", "to", "in", "for", "with", "on", "at", "by", "from",
    "as", "my", "his", "her", "their", "our", "your", "its", "this", "that", "who", "not",
    "no", "very", "few", "couple", "lot", "lots", "number", "group", "team", "bunch", "fan",
    "member", "friend", "kind", "sort", "type", "like", "than", "is", "was",
];

/// Words that can follow a person's job: "a nurse at", "a teacher who", "a driver since".
#[rustfmt::skip]
const FOLLOWERS: &[&str] = &[
    "at", "in", "for", "with", "and", "or", "of", "from", "who", "whose", "which", "that",
    "since", "by", "on", "to", "but", "when", "while", "where", "until", "before", "after",
    "during", "living", "based", "practising", "practicing", "working", "employed", "was",
    "is", "had", "has", "he", "she", "himself", "herself", "myself", "then", "now", "so",
    "as", "named", "called", "there", "here", "too", "also", "originally", "currently",
    "formerly", "previously", "recently", "again",
];

/// Subjects that are a model or a bot, not a person: "the assistant is a helpful tutor",
/// "this bot is a travel agent" set a role, as "You are a translator" does.
#[rustfmt::skip]
const MODEL_SUBJECTS: &[&str] = &[
    "assistant", "bot", "chatbot", "model", "ai", "gpt", "llm", "agent", "persona", "claude",
    "chatgpt",
];

/// The words before the job word must describe it (no word of `NOT_MODIFIERS`).
fn no_function_word(phrase: &str) -> bool {
    phrase
        .split_whitespace()
        .all(|w| !NOT_MODIFIERS.iter().any(|n| n.eq_ignore_ascii_case(w)))
}

/// Keeps an occupation only where it is a person's and the phrase ends at it. The next
/// word must be one that can follow a person's job (`FOLLOWERS`), punctuation, a line
/// end or a capitalised word: a job word before a noun is that noun's modifier, not
/// anyone's trade ("a driver handle", "a developer tool", "a teacher's guide"), and a
/// supporter is no advocate ("an advocate of free trade"). The words just before the cue
/// must not make it a model's role (`MODEL_SUBJECTS`).
fn ends_the_phrase(text: &str, span: ByteSpan) -> bool {
    let after = &text[span.end..];
    let word = &text[span.start..span.end];
    if word.eq_ignore_ascii_case("advocate") && next_word(after).eq_ignore_ascii_case("of") {
        return false;
    }
    ends_before(after, FOLLOWERS) && !a_models_role(&text[..span.start])
}

/// Whether one of the four words before the occupation is a model or bot (`MODEL_SUBJECTS`).
fn a_models_role(before: &str) -> bool {
    before
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .rev()
        .take(4)
        .any(|w| MODEL_SUBJECTS.iter().any(|m| m.eq_ignore_ascii_case(w)))
}

//! A person's health: an illness, a fracture, a disability or an operation, where the text
//! ties it to someone ("diagnosed with paranoid schizophrenia", "he had ‑6,25 of myopia
//! (nearsightedness)", "a woman with a disability", "There is arthrosis of the whole
//! spinal column" in a report on "the subject"). Health data is a special category
//! of personal data (GDPR art. 9); court judgments (TAB's `DEM`) mask it, and it singles
//! out a person as well as an occupation does.
//!
//! A condition word alone is about no one ("what are the symptoms of asthma", "cancer
//! research"), so a match counts only where its sentence has a cue that something
//! happened to someone (`had`, `suffering from`, `diagnosed with`, `there is`) and a
//! person is named nearby (a pronoun, "the applicant", "the patient", a name before the
//! cue), and where the phrase ends at the condition rather than modifying a noun after
//! it ("disability pension"). Clinical de-identification (HIPAA) keeps diagnoses, since
//! they are the data: `detection.excluded_entities: [MEDICAL_CONDITION]` there.

use super::phrase::{ends_before, next_word};
use crate::engine::PatternSpec;
use crate::text::ByteSpan;

/// Conditions that need no modifier: named illnesses and their endings, Greek medicine's
/// (-itis, -osis, -opathy, -algia, -plegia, -opia, -phrenia, -trophy, tumours' -oma,
/// operations' -ectomy, -otomy, -plasty); the words that share an ending with ordinary
/// English (diagnosis, empathy, nostalgia, Ethiopia, academia) are `NOT_CONDITIONS`. A
/// macro, so that the regex is one literal.
macro_rules! condition_words {
    () => {
        concat!(
        r"[a-z]{2,}(?:itis|osis|opathy|algia|plegia|opia|phrenia|trophy|aemia|emia)
        |[a-z]{3,}(?:ectomy|otomy|ostomy|plasty)
        |[a-z]*(?:carcin|melan|sarc|lymph|haemat|hemat|aden|myel|gli|fibr|lip|mesotheli|blast)oma
        |astigmatism|glaucoma|cataracts?|asthma|diabetes(?:\s+(?:mellitus|insipidus))?|epilepsy|dementia|cancer|tumou?rs?
        |(?-i:HIV|AIDS)|sciatica|paralysis|blindness|deafness|autism|adhd|ptsd|depression|anorexia
        |bulimia|obesity|pneumonia|influenza|covid(?:[\-‑]19)?|concussion|hernia|stroke
        |disabilit(?:y|ies)|invalidity|hypertension|infertility|miscarriage
        |(?:",
        eponyms!(),
        r")['’]?s?\s+(?:disease|syndrome)
        |(?:",
        injuries!(),
        r")\s+of\s+(?:the|his|her|a)\s+(?:[a-z0-9]+\s+){0,3}?",
        body_parts!(),
        r"|loss\s+of\s+(?:sight|vision|hearing|memory)"
        )
    };
}

/// The people diseases and syndromes are named after ("Crohn's disease", "Down syndrome").
macro_rules! eponyms {
    () => {
        r"alzheimer|parkinson|crohn|huntington|hodgkin|lyme|graves|addison|cushing|asperger
        |tourette|down"
    };
}

/// What happens to a bone or limb, before "of the …": "fracture of the left kneecap".
macro_rules! injuries {
    () => {
        r"fractures?|calcification|dislocation|rupture|amputation"
    };
}

/// Heads that are a condition only with a modifier before them: "myopic degeneration",
/// "psychotic illness", "bipolar disorder", "heart failure", "reconstructive operations".
macro_rules! modified_heads {
    () => {
        r"degeneration|illness|disease|disorder|syndrome|insufficiency|failure|deficiency
        |impairment|palsy|sclerosis|surger(?:y|ies)|operations?|attack|infection|neuralgia"
    };
}

/// Words that describe a condition before it: its degree and course ("strong", "chronic"),
/// its kind ("paranoid", "psychotic", "degenerative") and the organ it sits in ("heart",
/// "macular"). A closed list, so that a phrase starts at its first describing word and not
/// at a verb before it ("diagnosed with", "suffering from").
macro_rules! modifiers {
    () => {
        r"severe|strong|mild|moderate|acute|chronic|progressive|degenerative|calcifying|paranoid
        |total|partial|permanent|bilateral|lateral|congenital|hereditary|terminal|advanced
        |malignant|benign|post[\-‑]traumatic|traumatic|mental|psychotic|psychiatric|myopic
        |macular|reconstructive|plastic|cosmetic|corrective|cervico[\-‑]brachial|cervical
        |lumbar|spinal|heart|kidney|renal|liver|hepatic|lung|pulmonary|cardiac|coronary
        |respiratory|bipolar|personality|anxiety|eating|panic|obsessive[\-‑]compulsive
        |autoimmune|visual|hearing|cognitive|learning|intellectual|physical|neurological
        |multiple|cerebral|type\s?[12]|stage\s?[1-4]|breast|prostate|colon|skin|bowel|brain
        |bacterial|viral|infectious|rheumatoid|ischaemic|ischemic|diabetic|pancreatic|ovarian
        |thyroid|bladder|stomach|bone|testicular|colorectal|gastric|blood
        |episodic|recurrent|hypertensive|sexually\s+transmitted"
    };
}

/// Where on the body: "in his left eye", "of the lower right tibia".
macro_rules! body_parts {
    () => {
        r"(?:eyes?|ears?|knees?|kneecaps?|patella|tibia|fibula|femur|vertebrae?|skull|jaw|nose
        |ribs?|arms?|legs?|wrists?|ankles?|hips?|pelvis|spine|spinal\s+column|shoulders?
        |elbows?|hands?|fingers?|thumbs?|toes?|foot|feet|back|neck|head|brain|lungs?|heart
        |liver|kidneys?|sacrum|radius|ulna|humerus|clavicle|collarbone|sternum)"
    };
}

/// The span: a measure ("‑ 6, 25 of", "37 % of"), up to three modifiers, the condition
/// (two in a row: "anisometropia amblyopia"), a gloss in brackets ("(nearsightedness)")
/// and where on the body. The measure and the gloss say as much as the word does.
pub(super) const MEDICAL_CONDITION: PatternSpec = PatternSpec {
    name: "medical_condition",
    label: "MEDICAL_CONDITION",
    regex: concat!(
        r"(?ix)
        (?: [+\-–‑−]\s?\d{1,2}(?:[.,]\s?\d{1,2})?(?:\s?(?:dioptres?|diopters?|degrees?))?\s+of\s+
          | \b\d{1,3}(?:[.,]\d{1,2})?\s?%\s+(?:of\s+)? | \b )
        (?: (?:",
        modifiers!(),
        r") \s+ ){0,3}
        (?: (?:",
        condition_words!(),
        r")(?:\s+(?:",
        condition_words!(),
        r"))? | (?:",
        modified_heads!(),
        r") )\b
        (?: \s* \( [^()\n]{1,200} \) )?
        (?: \s+ (?:in|on|of|to) \s+ (?:his|her|their|my|the) \s+ (?:(?:left|right|lower|upper)\s+){0,2}",
        body_parts!(),
        r"\b )?"
    ),
    score: 0.85,
    // Every match holds a head; the whole regex (modifiers, measure, gloss) in the set would
    // make its DFA give up.
    prefilter: Some(concat!(
        r"(?ix)",
        condition_words!(),
        r"|",
        modified_heads!()
    )),
    validate: Some(a_condition),
    surroundings: Some(tied_to_a_person),
    negative_context: &[],
    examples: &[
        (
            "On 22 December 2007 he was admitted to a psychiatric hospital and diagnosed with paranoid schizophrenia.",
            "paranoid schizophrenia",
        ),
        (
            "His medical report stated that he had ‑ 6, 25 of myopia (nearsightedness), and more",
            "‑ 6, 25 of myopia (nearsightedness)",
        ),
        (
            "the applicant had strong myopic degeneration (-8 degrees) in his left eye amounting to 37 % of loss of sight.",
            "strong myopic degeneration (-8 degrees) in his left eye",
        ),
        (
            "she had been discriminated against as a black woman with a disability, inter alia",
            "disability",
        ),
        (
            "The subject shows signs of preexisting injuries: fracture of the left kneecap that was pinned",
            "fracture of the left kneecap",
        ),
        (
            "he could not have been held responsible as he had been suffering from paranoid schizophrenia.",
            "paranoid schizophrenia",
        ),
        ("My son has asthma and hay fever.", "asthma"),
        (
            "Maria was diagnosed with type 2 diabetes last year.",
            "type 2 diabetes",
        ),
        (
            "the doctors had not acted diligently during the numerous reconstructive operations she had undergone",
            "reconstructive operations",
        ),
        (
            "The accident resulted in the applicant’s loss of vision in his left eye.",
            "loss of vision in his left eye",
        ),
        ("PT HAS CHRONIC BRONCHITIS SINCE 2019", "CHRONIC BRONCHITIS"),
        ("She underwent a mastectomy in 2019.", "mastectomy"),
        ("Dx: acute appendicitis.", "acute appendicitis"),
        (
            "She takes 20 mg of Prozac daily for her depression.",
            "depression",
        ),
        ("My HIV status is positive.", "HIV"),
        ("Seen today. s/p appendectomy 7/22.", "appendectomy"),
        (
            "a history of diabetes mellitus, on insulin since he was 40",
            "diabetes mellitus",
        ),
        (
            "In the subject's left knee there is lateral calcification of the patella.",
            "lateral calcification of the patella",
        ),
        ("Mike broke his arm: fracture of the left radius", "fracture of the left radius"),
    ],
    counter_examples: &[
        "What are the symptoms of asthma?",
        "How do doctors treat diabetes in children?",
        "He was granted a disability pension.",
        "The foundation funds cancer research.",
        "She has a diploma in nursing and an interest in Ethiopia.",
        "He had a stroke of luck.",
        "I have a diagnosis of the problem: the cache is stale.",
        "He has empathy for the victims.",
        "the team had a lot of nostalgia for the old stadium",
        "The committee has a disorder in its files.",
        "The military operations had ended.",
        "He had a heart of gold.",
        "Write a poem about asthma for my class.",
        "Can you summarize this article about Parkinson's disease?",
        "The economy was in a depression in 1930.",
        "ERROR disk failure on node-3, user bob has no access",
        "She sees a false dichotomy in his argument.",
        "he showed his mixture of gamesmanship and fluent stroke-making",
    ],
    ..PatternSpec::BASE
};

/// Words that end like a condition but are none.
#[rustfmt::skip]
const NOT_CONDITIONS: &[&str] = &[
    "diagnosis", "prognosis", "hypnosis", "osmosis", "symbiosis", "metamorphosis", "mitosis",
    "meiosis", "apotheosis", "empathy", "apathy", "sympathy", "telepathy", "antipathy",
    "homeopathy", "osteopathy", "naturopathy", "allopathy", "nostalgia", "utopia", "dystopia",
    "cornucopia", "ethiopia", "academia", "bohemia", "trophy", "diploma", "aroma", "stoma",
    "oklahoma", "tacoma", "sonoma", "dichotomy",
];

/// Drops phrases with a word that only looks like a condition (`NOT_CONDITIONS`), and a
/// head that needs a modifier (`illness`, `operations`) without one.
fn a_condition(phrase: &str) -> bool {
    let before_gloss = phrase.split('(').next().unwrap_or(phrase);
    let words: Vec<&str> = words_of(before_gloss)
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    if words
        .iter()
        .any(|w| NOT_CONDITIONS.iter().any(|n| n.eq_ignore_ascii_case(w)))
    {
        return false;
    }
    match words.iter().position(|w| is_condition_word(w)) {
        Some(head) => head > 0 || !modified_head_only(words[head]),
        None => false,
    }
}

/// The words of `s`, apostrophes kept ("applicant’s", "Alzheimer's").
fn words_of(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
}

/// Whether a word is a condition's head (its own regex, anchored).
fn is_condition_word(word: &str) -> bool {
    static HEAD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(concat!(
            r"(?ix)^(?:",
            condition_words!(),
            r"|",
            modified_heads!(),
            r"|",
            injuries!(),
            r"|loss|(?:",
            eponyms!(),
            r")['’]?s?)$"
        ))
        .expect("condition head regex")
    });
    HEAD.is_match(word)
}

/// Whether a head needs a modifier to be a condition.
fn modified_head_only(word: &str) -> bool {
    static MODIFIED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(concat!(r"(?ix)^(?:", modified_heads!(), r")$"))
            .expect("modified head regex")
    });
    MODIFIED.is_match(word)
}

/// Cues, in the condition's sentence before it, that something happened to someone.
#[rustfmt::skip]
const CUES: &[&str] = &[
    "had", "has", "have", "having", "suffer", "suffers", "suffered", "suffering", "diagnosed",
    "diagnosis", "developed", "develops", "contracted", "treated", "died", "history",
    "living", "with", "resulted", "signs", "onsets", "onset", "shows", "showed", "there",
    "undergone", "underwent", "complained", "complains", "admitted", "sustained", "caused",
    "amounting", "causing", "is", "was", "applies", "broke", "broken", "injured", "hurt",
    "sprained", "tore", "torn", "tested", "positive",
];

/// A possessive just before a condition names whose it is: "for her depression".
const POSSESSIVES: &[&str] = &["his", "her", "my", "their", "your", "our"];

/// Cues that are a record's own about its subject, so no person need be named: "Dx: acute
/// appendicitis", "PMH: asthma" (and "s/p appendectomy", checked on the sentence).
const RECORD_CUES: &[&str] = &["dx", "hx", "pmh", "ddx"];

/// Words that name the person a condition is someone's: pronouns and the roles judgments
/// and notes use.
#[rustfmt::skip]
const PERSONS: &[&str] = &[
    "he", "she", "his", "her", "him", "himself", "herself", "i", "my", "me", "i'm", "we",
    "our", "they", "their", "applicant", "applicant's", "applicant’s", "patient", "pt",
    "subject", "subject's", "subject’s", "client", "claimant", "victim", "deceased", "son",
    "daughter", "wife", "husband", "mother", "father", "child", "baby", "boy", "girl", "man",
    "woman", "mr", "mrs", "ms", "brother", "sister", "mom", "mum", "dad", "grandmother",
    "grandfather", "friend",
];

/// Words that can follow a person's condition: "arthrosis of the spine", "sciatica and",
/// "operations she had undergone".
#[rustfmt::skip]
const FOLLOWERS: &[&str] = &[
    "at", "in", "of", "and", "or", "with", "since", "by", "on", "to", "but", "when", "while",
    "which", "that", "who", "was", "is", "were", "are", "had", "has", "he", "she", "they",
    "from", "for", "after", "before", "during", "following", "due", "caused", "resulting",
    "requiring", "as", "inter", "not", "so", "then", "there", "last",
    "this", "these", "amounting", "affecting", "diagnosed", "i", "we", "you", "status",
];

/// Keeps a condition whose sentence ties it to a person (a `CUES` word before it in its
/// sentence, and a capitalised name before a cue, or a `PERSONS` word in the 400
/// characters before it or in the rest of its sentence; or a possessive just before it, or
/// a record's `RECORD_CUES`), and whose phrase ends at it.
fn tied_to_a_person(text: &str, span: ByteSpan) -> bool {
    ends_the_phrase(text, span) && cued(text, span)
}

fn ends_the_phrase(text: &str, span: ByteSpan) -> bool {
    let after = &text[span.end..];
    let last = text[..span.end]
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    if next_word(after).eq_ignore_ascii_case("of")
        && NO_OF.iter().any(|w| w.eq_ignore_ascii_case(last))
    {
        return false;
    }
    ends_before(after, FOLLOWERS)
}

/// Heads that "of" turns into something else: "a stroke of luck", "the failure of the
/// talks", "an attack of nerves", "operations of the army".
#[rustfmt::skip]
const NO_OF: &[&str] = &[
    "stroke", "depression", "failure", "attack", "disorder", "operation", "operations",
    "surgery", "deficiency",
];

/// What ends a sentence for the cue and the person: a stop, a line, a semicolon (a colon
/// does not: "signs of injuries: fracture of …").
const SENTENCE_ENDS: [char; 5] = ['.', '?', '!', '\n', ';'];

fn cued(text: &str, span: ByteSpan) -> bool {
    let window_start = text[..span.start]
        .char_indices()
        .rev()
        .nth(400)
        .map_or(0, |(i, _)| i);
    let before = &text[window_start..span.start];
    let sentence = &before[before.rfind(SENTENCE_ENDS).map_or(0, |i| i + 1)..];
    let words: Vec<&str> = words_of(sentence).collect();
    let owner = words
        .last()
        .is_some_and(|w| POSSESSIVES.iter().any(|p| p.eq_ignore_ascii_case(w)));
    if owner {
        return true;
    }
    let status_post = sentence
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"s/p "));
    if status_post
        || words
            .iter()
            .any(|w| RECORD_CUES.iter().any(|c| c.eq_ignore_ascii_case(w)))
    {
        return true;
    }
    let is_cue = |w: &&str| CUES.iter().any(|c| c.eq_ignore_ascii_case(w));
    if !words.iter().any(is_cue) {
        return false;
    }
    let named_before_cue = words.windows(2).any(|pair| {
        let name = pair[0];
        is_cue(&pair[1])
            && name.starts_with(char::is_uppercase)
            && name.chars().skip(1).all(char::is_lowercase)
            && !matches!(
                name,
                "There" | "It" | "This" | "That" | "The" | "What" | "How"
            )
    });
    let after = &text[span.end..];
    let rest_of_sentence = &after[..after.find(SENTENCE_ENDS).unwrap_or(after.len())];
    named_before_cue
        || words_of(before)
            .chain(words_of(rest_of_sentence))
            .any(|w| PERSONS.iter().any(|p| p.eq_ignore_ascii_case(w)))
}

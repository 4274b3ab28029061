//! Capitalisation and cue rules for PERSON and ORGANIZATION, the part of names that needs
//! no model:
//!
//! - an honorific and the capitalised words after it: `Mr C. Whomersley`, `Dr Ana Ruiz`;
//! - a known given name and a capitalised word after it: `Phil Simmons`;
//! - a cue phrase: `my name is Ana Ruiz`, `Dear Ana`, `Name: Ana Ruiz`;
//! - a surname already found in the same text, met again alone: `… Simmons took four`;
//! - capitalised words ending in an organisation suffix (`Strix Television AB`,
//!   `Pierce Glynn Solicitors`) or following an organisation head (`University of Leeds`,
//!   `Ministry of Justice`).
//!
//! Rules stay cautious: all-capital words are not names (headlines), and a list of
//! capitalised function words (`The`, `In`, months, days) never joins a name.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::{Candidate, Proof, Recognizer};
use crate::text::{ByteSpan, Label, LabelSet};

/// Honorifics that are part of the name span (`Mr Robert Murray`).
#[rustfmt::skip]
const HONORIFICS: &[&str] = &[
    "Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Prof", "Professor", "Sir", "Dame", "Lord", "Lady",
    "Madam", "Mme", "Mlle", "Herr", "Frau", "Sr", "Sra", "Srta", "Rev", "Judge", "Justice",
];

/// Roles before a name; the role word is not part of the span (`President [Ana Ruiz]`).
#[rustfmt::skip]
const ROLES: &[&str] = &[
    "President", "Senator", "Governor", "Minister", "Chancellor", "Ambassador", "Captain",
    "Colonel", "General", "Inspector", "Detective", "Sergeant", "Officer", "Bishop", "Pope",
    "King", "Queen", "Prince", "Princess", "Sheikh", "Mayor", "Coach", "Chairman", "Premier",
];

/// Name particles allowed inside a name (`Ludwig van Beethoven`, `Osama bin Laden`).
#[rustfmt::skip]
const PARTICLES: &[&str] = &[
    "van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le", "bin", "al",
    "el", "ibn", "dos", "das", "ter", "ten",
];

/// Capitalised words that never start or join a name.
#[rustfmt::skip]
const STOP: &[&str] = &[
    "The", "A", "An", "In", "On", "At", "For", "But", "And", "Or", "Of", "To", "From", "With",
    "By", "As", "If", "When", "While", "After", "Before", "Since", "Until", "This", "That",
    "These", "Those", "His", "Her", "Their", "Our", "My", "Your", "Its", "He", "She", "It",
    "They", "We", "You", "I", "Yesterday", "Today", "Tomorrow", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March",
    "April", "May", "June", "July", "August", "September", "October", "November", "December",
    "There", "Here", "What", "Who", "Why", "How", "Where", "Which", "Not", "No", "Yes", "All",
    "Some", "Any", "Many", "Mr", "Mrs", "Ms", "Dr", "Article", "Section", "Chapter", "Court",
    "Government", "State", "Convention", "Protocol", "Law", "Act", "Code", "Republic", "Street",
    "Road", "Avenue", "University", "Ministry", "Department", "Council",
    "Although", "However", "Moreover", "Furthermore", "Thus", "Therefore", "Also", "Then",
    "According", "Under", "Following", "During", "Between", "Against", "Despite", "Unlike",
    "Like", "Both", "Each", "Every", "Such", "Other", "Another", "First", "Second", "Third",
    "Finally", "Meanwhile", "Nevertheless", "Instead", "Whereas", "Because", "Once", "Upon",
];

/// Last words that make the capitalised run before them an organisation.
#[rustfmt::skip]
const ORG_SUFFIXES: &[&str] = &[
    "Inc", "Inc.", "Ltd", "Ltd.", "Limited", "LLC", "LLP", "GmbH", "AG", "SA", "S.A.", "AB",
    "NV", "BV", "plc", "PLC", "Corp", "Corp.", "Corporation", "Co.", "Company", "Group",
    "Holdings", "Bank", "Airlines", "Airways", "Technologies", "Solicitors", "Partners",
    "Associates", "University", "College", "Institute", "Foundation", "Association", "Council",
    "Agency", "Ministry", "Office", "Department", "Commission", "Committee", "Party", "Union",
    "Federation", "Club", "Hospital", "School", "Court", "Police", "Army", "Government",
    "Television", "Broadcasting", "Network", "Systems", "Motors", "Trust", "Authority",
    "Tribunal", "Service", "Services", "Board", "Organisation", "Organization", "Society",
    "Fund", "Press", "Times", "Post", "News", "Industries", "Enterprises", "Labs",
];

/// Legal forms: they end a company name.
#[rustfmt::skip]
const LEGAL_FORMS: &[&str] = &[
    "Inc", "Inc.", "Ltd", "Ltd.", "Limited", "LLC", "LLP", "GmbH", "AG", "SA", "S.A.", "AB",
    "NV", "BV", "plc", "PLC", "Corp", "Corp.", "Co.",
];

/// Heads followed by `of …` that make an organisation (`University of Leeds`).
#[rustfmt::skip]
const ORG_HEADS: &[&str] = &[
    "University", "Ministry", "Bank", "Department", "Institute", "College", "Council", "Court",
    "Office", "Academy", "Board", "Chamber", "Federation", "Association", "Church", "Museum",
    "Society", "Commission", "Borough", "Prosecutor", "Prosecutor's",
];

/// Cue phrases (lower-case) after which capitalised words are a name.
#[rustfmt::skip]
const CUES: &[&str] = &[
    "my name is", "name is", "name:", "dear", "named", "called", "signed", "regards,",
    "sincerely,", "patient:", "applicant:", "contact:", "attn:", "attention:",
];

/// Capitalised words of titles, laws and institutions: a run of capitalised words that
/// contains one is not guessed to be a person ("Human Rights", "Civil Procedure Rule").
#[rustfmt::skip]
const GENERIC: &[&str] = &[
    "Human", "Rights", "Fundamental", "Freedoms", "Criminal", "Civil", "Social", "Security",
    "Directorate", "Parent", "Way", "Relations", "Benefit", "Benefits", "Order", "Registration",
    "Support", "Credit", "Officer", "Officers", "Procedure", "Rule", "Rules", "Child", "Family",
    "Income", "Land", "National", "International", "European", "Federal", "Public", "Royal",
    "Supreme", "High", "District", "Regional", "Administrative", "Constitutional", "General",
    "Secretary", "Prosecutor", "Chief", "Executive", "Director", "Manager", "Health", "Care",
    "Education", "Justice", "Affairs", "Foreign", "Home", "Interior", "Defence", "Defense",
    "Finance", "Treasury", "Tax", "Revenue", "Customs", "Police", "Prison", "Service",
    "Services", "Centre", "Center", "House", "Hall", "Park", "Square", "Bridge", "Station",
    "Airport", "Road", "Street", "Avenue", "Lane", "North", "South", "East", "West", "New",
    "Old", "Great", "Grand", "Saint", "St", "Day", "Week", "Year", "Cup", "League", "Championship",
    "Open", "World", "Games", "Olympic", "Premier", "Division", "Conference", "Summit",
    "Agreement", "Treaty", "Declaration", "Charter", "Regulation", "Regulations", "Directive",
    "Bill", "Amendment", "Allowance", "Pension", "Insurance", "Tribunal", "Appeal", "Appeals",
    "Chamber", "Grand", "Court", "Courts", "Commission", "Committee", "Party", "Group",
    "Company", "Bank", "Council", "Government", "Ministry", "Department", "Office", "Agency",
    "Authority", "Board", "Institute", "University", "College", "School", "Hospital",
    "Internet", "Email", "Phone", "Please", "Thanks", "Thank", "Dear", "Hello", "Best",
    "Regards", "Note", "Notes", "Summary", "Introduction", "Conclusion", "Facts", "Law",
    // Products, software and business words that prompts and tickets capitalise.
    "Studio", "Visual", "Code", "Chrome", "Cloud", "Windows", "Excel", "Word", "Teams",
    "Drive", "Docs", "Sheets", "Server", "Data", "Machine", "Learning", "Neural", "Network",
    "Python", "Java", "Script", "Linux", "Android", "App", "Store", "Pro", "Max", "Mini",
    "Plus", "Edition", "Version", "Update", "Release", "Beta", "Alpha", "Model", "Engine",
    "Framework", "Platform", "Project", "Product", "Team", "Engineer", "Developer",
    "Customer", "User", "Account", "Sales", "Marketing", "Legal", "Policy", "Terms",
    "Privacy", "Settings", "Dashboard", "Report", "Plan", "Budget", "Meeting", "Review",
    "Manager", "Assistant", "Intelligence", "Artificial", "Quarterly", "Annual", "Monthly",
    "Weekly", "Daily", "Product", "Design", "Web", "Mobile", "Desktop", "Online", "Digital",
];

/// Score of an acronym in running text taken for an organisation.
const ACRONYM: f32 = 0.5;

/// Acronyms that are not organisations.
#[rustfmt::skip]
const ACRONYM_STOP: &[&str] = &[
    "I", "A", "OK", "TV", "CEO", "CFO", "CTO", "PM", "AM", "ID", "US", "UK", "EU", "UN", "USA",
    "USD", "GBP", "EUR", "TRY", "TRL", "SEK", "CHF", "JPY", "DNA", "HIV", "AIDS", "GDP", "IT",
    "PC", "PhD", "MP", "MPs", "VAT", "FAQ", "PDF", "URL", "API", "HTTP", "HTML", "JSON", "SMS",
    "GMT", "UTC", "BST", "CET", "EST", "PST", "NB", "PS", "RE", "FW", "FWD", "LOL", "OMG",
    "BTW", "IMO", "ASAP", "RIP", "MVP", "NO", "ON", "IN", "AT", "TO", "OF", "THE", "AND", "OR",
    "IS", "BE", "MY", "WE", "HE", "ME", "SO", "DO", "GO", "UP", "VS", "MR", "MRS", "MS", "DR",
    "NEW", "YORK", "ECHR", "PLC", "LTD", "INC", "LLC", "AG", "AB", "SA", "NV", "BV",
    // Log levels and the names of identifiers, protocols and job words.
    "INFO", "WARN", "WARNING", "ERROR", "DEBUG", "TRACE", "FATAL", "CRIT", "NOTICE", "SSN",
    "DPO", "NHS", "DOB", "PIN", "IBAN", "BIC", "SWIFT", "TIN", "NPI", "NINO", "PAN", "TFN",
    "SIN", "VIN", "IP", "MAC", "UUID", "PII", "GDPR", "CCPA", "HIPAA", "KYC", "AML", "CVV",
    "CVC", "OTP", "SSO", "MFA", "DNS", "TCP", "UDP", "TLS", "SSL", "SSH", "CPU", "GPU",
    "RAM", "SQL", "CSV", "XML", "YAML", "REST", "CRUD", "UI", "UX", "QA", "HR", "PR", "KPI",
    "OKR", "ROI", "SLA", "ETA", "FYI", "TBD", "TODO", "EOD", "AI", "ML", "LLM", "NLP",
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "UTF", "ASCII", "USB", "PDF",
    "JPG", "PNG", "GIF", "MP", "AM", "PM", "BC", "AD", "CE", "BCE", "ISO", "EN", "FR", "DE",
];

/// Score of an uncued run of capitalised words ("Olubukunola Obasa", but also "Grace Road").
const GUESS: f32 = 0.5;

/// The word lists, built once.
struct Lists {
    given: HashSet<&'static str>,
    /// Single words of the location, nationality and organisation lists ("Turkish",
    /// "London", "Google").
    places: HashSet<&'static str>,
    /// Frequent English words, lower-case.
    common: HashSet<&'static str>,
}

fn lists() -> &'static Lists {
    static LISTS: OnceLock<Lists> = OnceLock::new();
    LISTS.get_or_init(|| Lists {
        given: super::dictionary::entries(include_str!("lists/given_names.txt")).collect(),
        places: super::dictionary::entries(include_str!("lists/locations.txt"))
            .chain(super::dictionary::entries(include_str!(
                "lists/nationalities.txt"
            )))
            .chain(super::dictionary::entries(include_str!(
                "lists/organizations.txt"
            )))
            .flat_map(str::split_whitespace)
            .collect(),
        common: super::dictionary::entries(include_str!("lists/common_words.txt"))
            .flat_map(str::split_whitespace)
            .collect(),
    })
}

#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// Words: runs of letters/digits with inner `'`, `’`, `-`, `.` (initials, `S.A.`);
/// a trailing `.` is kept for single-letter initials and known abbreviations.
fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() {
                end = i + c.len_utf8();
                chars.next();
            } else if matches!(c, '\'' | '’' | '-' | '.' | '&') {
                // Inner joiner only if a letter/digit follows.
                let next = text[i + c.len_utf8()..].chars().next();
                if next.is_some_and(char::is_alphanumeric) {
                    end = i + c.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        // A possessive is not part of the name: "Willis's" → "Willis".
        for s in ["'s", "’s"] {
            if text[start..end].ends_with(s) && end - s.len() > start {
                end -= s.len();
            }
        }
        // Keep the dot of an initial ("C.", "N.Ö.") or an abbreviation ("Inc.", "Dr.").
        let word = &text[start..end];
        if text[end..].starts_with('.')
            && (word.chars().count() == 1
                || is_initials(word)
                || ORG_SUFFIXES.contains(&&text[start..end + 1])
                || HONORIFICS.contains(&word))
        {
            end += 1;
        }
        tokens.push(Token {
            start,
            end,
            text: &text[start..end],
        });
    }
    tokens
}

/// `C.A`, `N.Ö`: single capitals joined by dots.
fn is_initials(word: &str) -> bool {
    word.split('.')
        .all(|part| part.chars().count() == 1 && part.chars().all(char::is_uppercase))
}

/// `Simmons`, `O'Brien`, `Taylor-Sabori`, `Gölcüklü`, or an initial `C.`.
fn is_name_word(t: &Token<'_>) -> bool {
    let mut chars = t.text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !first.is_uppercase() || STOP.contains(&t.text) {
        return false;
    }
    // Contractions of "I" ("I'm", "I’ll") are not names; "O'Brien" is.
    if t.text.starts_with("I'") || t.text.starts_with("I’") {
        return false;
    }
    let rest: Vec<char> = chars.collect();
    if rest == ['.'] || (t.text.ends_with('.') && is_initials(t.text.trim_end_matches('.'))) {
        return true; // initial
    }
    rest.iter().any(|c| c.is_lowercase()) && !rest.iter().any(char::is_ascii_digit)
}

fn is_particle(t: &Token<'_>) -> bool {
    PARTICLES.contains(&t.text)
}

/// True when only spaces (or one newline-free run of spaces) separate two tokens.
fn adjacent(text: &str, a: &Token<'_>, b: &Token<'_>) -> bool {
    let gap = &text[a.end..b.start];
    !gap.is_empty() && gap.len() <= 3 && gap.chars().all(|c| c == ' ' || c == '\u{a0}')
}

/// Extends a name over name words (and particles between them) from token `i`;
/// returns the index of the last name word, if any.
fn name_run(text: &str, tokens: &[Token<'_>], i: usize, max: usize) -> Option<usize> {
    let mut last = None;
    let mut j = i;
    let mut words = 0;
    while j < tokens.len() && words < max {
        if j > i && !adjacent(text, &tokens[j - 1], &tokens[j]) {
            break;
        }
        if is_name_word(&tokens[j]) {
            last = Some(j);
            words += 1;
        } else if !(is_particle(&tokens[j]) && last.is_some()) {
            break;
        }
        j += 1;
    }
    // A name does not end on an initial alone ("Mr C." is fine only with a surname).
    last.filter(|l| !(tokens[*l].text.ends_with('.') && *l == i && words == 1 && max > 1))
}

/// Extends an organisation name over a following gloss in brackets, the original-language
/// name or the acronym: `Supreme Court (Högsta domstolen)`, `… Union (ECJ)`.
fn with_gloss(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let Some(inner) = rest.strip_prefix(" (") else {
        return end;
    };
    // A defined term ("(“the Commission”)", "(hereinafter …)") is not part of the name.
    if !inner.chars().next().is_some_and(char::is_uppercase) || inner.starts_with("The ") {
        return end;
    }
    match inner.find(')') {
        Some(close) if close <= 48 && !inner[..close].contains(['(', '\n', ';']) => {
            end + 2 + close + 1
        }
        _ => end,
    }
}

/// The rules recognizer.
pub struct NameRecognizer {
    labels: Vec<Label>,
    person: Label,
    organization: Label,
    /// Beside a NER model, whose names and acronyms are better than capitalisation
    /// guesses (measured on the dev sets): only cue-anchored person rules (honorifics,
    /// "my name is") and the organisation suffix/head rules run.
    beside_model: bool,
}

impl Default for NameRecognizer {
    fn default() -> Self {
        Self::new()
    }
}

impl NameRecognizer {
    pub fn new() -> Self {
        let person = Label::builtin("PERSON");
        let organization = Label::builtin("ORGANIZATION");
        Self {
            labels: vec![person, organization],
            person,
            organization,
            beside_model: false,
        }
    }

    /// The rules to run beside a NER model tier: organisation rules, and only the person
    /// rules anchored on a cue. The honorific rule stays because its span includes the
    /// title ("Mr Robert Murray"), which the model leaves out and which gives gender away.
    pub fn beside_model() -> Self {
        Self {
            beside_model: true,
            ..Self::new()
        }
    }

    fn persons(&self, text: &str, tokens: &[Token<'_>], out: &mut Vec<Candidate>) {
        let given = &lists().given;
        let lower = text.to_lowercase();
        let mut found: Vec<(usize, usize, f32)> = Vec::new(); // token range, score
                                                              // In Title Case Text (headlines, many social posts) capitals say nothing.
        let words = tokens.iter().filter(|t| t.text.chars().count() > 3);
        let (capitalised, total) = words.fold((0usize, 0usize), |(c, n), t| {
            (
                c + usize::from(t.text.starts_with(char::is_uppercase)),
                n + 1,
            )
        });
        let guesses = capitalised * 100 <= total * 75;
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i];
            let bare = t.text.trim_end_matches('.');
            let next_adjacent = i + 1 < tokens.len() && adjacent(text, &t, &tokens[i + 1]);
            if HONORIFICS.contains(&bare) && next_adjacent {
                if let Some(last) = name_run(text, tokens, i + 1, 4) {
                    found.push((i, last, 0.85));
                    i = last + 1;
                    continue;
                }
            }
            if self.beside_model {
                i += 1;
                continue;
            }
            if ROLES.contains(&t.text) && next_adjacent {
                if let Some(last) = name_run(text, tokens, i + 1, 3) {
                    // A single capitalised word after a role is often a place ("King Street").
                    if last > i + 1 {
                        found.push((i + 1, last, 0.75));
                        i = last + 1;
                        continue;
                    }
                }
            }
            if given.contains(t.text) && next_adjacent && is_name_word(&tokens[i + 1]) {
                if let Some(last) = name_run(text, tokens, i, 4) {
                    if last > i {
                        found.push((i, last, 0.75));
                        i = last + 1;
                        continue;
                    }
                }
            }
            // Two or three capitalised words with no cue at all: a guess, kept at the
            // threshold so that dictionaries and organisation rules win over it.
            // … and not the tail of a longer capitalised phrase ("Great [Barrier Reef]").
            let after_capital = i > 0
                && adjacent(text, &tokens[i - 1], &t)
                && tokens[i - 1].text.starts_with(char::is_uppercase);
            if guesses
                && next_adjacent
                && !after_capital
                && is_name_word(&t)
                && !t.text.ends_with('.')
            {
                if let Some(last) = name_run(text, tokens, i, 3) {
                    let places = &lists().places;
                    let common = &lists().common;
                    let cue_word = tokens[i..=last].iter().any(|w| {
                        GENERIC.contains(&w.text)
                            || common.contains(w.text.to_lowercase().as_str())
                            || places.contains(w.text)
                            || ORG_SUFFIXES.contains(&w.text)
                            || ORG_HEADS.contains(&w.text)
                            || ROLES.contains(&w.text)
                            || HONORIFICS.contains(&w.text.trim_end_matches('.'))
                    });
                    if last > i && !cue_word {
                        found.push((i, last, GUESS));
                        i = last + 1;
                        continue;
                    }
                }
            }
            i += 1;
        }
        // Cue phrases: the name is the capitalised run right after the cue.
        for cue in CUES {
            for (at, _) in lower.match_indices(cue) {
                // `to_lowercase` can change byte lengths outside ASCII; only trust
                // positions that still line up with the original text.
                let end = at + cue.len();
                if !text.is_char_boundary(at)
                    || !text.is_char_boundary(end.min(text.len()))
                    || !text[at..end.min(text.len())].eq_ignore_ascii_case(cue)
                {
                    continue;
                }
                if !super::dictionary::whole_word(
                    text,
                    ByteSpan::new(at, at + cue.trim_end_matches([':', ',']).len()),
                ) {
                    continue;
                }
                let first = tokens.partition_point(|t| t.start < end);
                if first < tokens.len() {
                    let gap = &text[end..tokens[first].start];
                    if gap.len() <= 2 && !gap.contains('\n') {
                        if let Some(last) = name_run(text, tokens, first, 3) {
                            found.push((first, last, 0.8));
                        }
                    }
                }
            }
        }
        // Surnames found so far, met again alone in the same text.
        let mut surnames: Vec<&str> = found
            .iter()
            .filter(|(_, _, score)| *score > GUESS && !self.beside_model)
            .filter(|(first, last, _)| last > first || !HONORIFICS.contains(&tokens[*first].text))
            .map(|(_, last, _)| tokens[*last].text)
            .filter(|s| s.chars().count() >= 3 && !s.ends_with('.') && !given.contains(s))
            .collect();
        surnames.sort_unstable();
        surnames.dedup();
        if !surnames.is_empty() {
            let mut covered = vec![false; tokens.len()];
            for (a, b, _) in &found {
                for flag in &mut covered[*a..=*b] {
                    *flag = true;
                }
            }
            for (k, t) in tokens.iter().enumerate() {
                if !covered[k] && surnames.binary_search(&t.text).is_ok() {
                    found.push((k, k, 0.65));
                }
            }
        }
        for (first, last, score) in found {
            out.push(Candidate {
                span: ByteSpan::new(tokens[first].start, tokens[last].end),
                label: self.person,
                score,
                proof: Proof::None,
            });
        }
    }

    /// Acronyms in running text (`LIFFE`, `ECJ`) are mostly organisations; in an
    /// all-capitals line (a headline) they say nothing.
    fn acronyms(&self, tokens: &[Token<'_>], out: &mut Vec<Candidate>) {
        for (k, t) in tokens.iter().enumerate() {
            let len = t.text.len();
            let acronym = (2..=6).contains(&len)
                && t.text.bytes().all(|b| b.is_ascii_uppercase())
                && !ACRONYM_STOP.contains(&t.text)
                && !lists().common.contains(t.text.to_lowercase().as_str());
            if !acronym {
                continue;
            }
            let lower_near = tokens[k.saturating_sub(3)..(k + 4).min(tokens.len())]
                .iter()
                .filter(|w| w.text.chars().any(char::is_lowercase))
                .count();
            let shouting = |w: Option<&Token<'_>>| {
                w.is_some_and(|w| {
                    w.text.len() >= 2 && w.text.bytes().all(|b| b.is_ascii_uppercase())
                })
            };
            let neighbours_shout =
                shouting(k.checked_sub(1).map(|i| &tokens[i])) || shouting(tokens.get(k + 1));
            if lower_near >= 3 && !neighbours_shout {
                out.push(Candidate {
                    span: ByteSpan::new(t.start, t.end),
                    label: self.organization,
                    score: ACRONYM,
                    proof: Proof::None,
                });
            }
        }
    }

    fn organizations(&self, text: &str, tokens: &[Token<'_>], out: &mut Vec<Candidate>) {
        for (k, t) in tokens.iter().enumerate() {
            // "… Suffix": walk back over capitalised words (and "&", "and", "of").
            if ORG_SUFFIXES.contains(&t.text) && k > 0 {
                let mut first = k;
                let mut j = k;
                while j > 0 && adjacent(text, &tokens[j - 1], &tokens[j]) && k - j < 6 {
                    let prev = &tokens[j - 1];
                    // Another company's legal form or "X-based" ends this name
                    // ("Johnson Controls Inc and Lear Corp" is two).
                    if LEGAL_FORMS.contains(&prev.text) || prev.text.ends_with("-based") {
                        break;
                    }
                    // Institution words are stop words for person names, not here
                    // ("Ege University Hospital").
                    let institution =
                        ORG_SUFFIXES.contains(&prev.text) || ORG_HEADS.contains(&prev.text);
                    let capital = prev.text.chars().next().is_some_and(char::is_uppercase)
                        && (institution || !STOP.contains(&prev.text));
                    // Not "of": "Rules of Court", "Convention of … Court" are no names.
                    let joiner = matches!(prev.text, "&" | "and" | "for");
                    if capital {
                        first = j - 1;
                    } else if !joiner {
                        break;
                    }
                    j -= 1;
                }
                if first < k {
                    out.push(Candidate {
                        span: ByteSpan::new(tokens[first].start, with_gloss(text, t.end)),
                        label: self.organization,
                        score: 0.75,
                        proof: Proof::None,
                    });
                }
            }
            // "Head of [the] Capitalised…".
            if ORG_HEADS.contains(&t.text)
                && t.text.chars().next().is_some_and(char::is_uppercase)
                && tokens.get(k + 1).is_some_and(|n| n.text == "of")
            {
                let mut j = k + 2;
                if tokens.get(j).is_some_and(|n| n.text == "the") {
                    j += 1;
                }
                let mut last = None;
                while j < tokens.len()
                    && adjacent(text, &tokens[j - 1], &tokens[j])
                    && (tokens[j]
                        .text
                        .chars()
                        .next()
                        .is_some_and(char::is_uppercase)
                        || matches!(tokens[j].text, "and" | "of"))
                {
                    if tokens[j]
                        .text
                        .chars()
                        .next()
                        .is_some_and(char::is_uppercase)
                    {
                        last = Some(j);
                    }
                    j += 1;
                }
                if let Some(last) = last {
                    // Include capitalised words right before the head ("London Borough of …").
                    let mut first = k;
                    while first > 0
                        && adjacent(text, &tokens[first - 1], &tokens[first])
                        && is_name_word(&tokens[first - 1])
                        && k - first < 3
                    {
                        first -= 1;
                    }
                    out.push(Candidate {
                        span: ByteSpan::new(
                            tokens[first].start,
                            with_gloss(text, tokens[last].end),
                        ),
                        label: self.organization,
                        score: 0.75,
                        proof: Proof::None,
                    });
                }
            }
        }
    }
}

impl Recognizer for NameRecognizer {
    fn labels(&self) -> &[Label] {
        &self.labels
    }

    fn tier(&self) -> &'static str {
        "dictionary"
    }

    fn recognize(&self, text: &str, wanted: &LabelSet, out: &mut Vec<Candidate>) {
        // Every rule needs a capital letter (logs and lower-case chat have none).
        if !text.chars().any(char::is_uppercase) {
            return;
        }
        let tokens = tokenize(text);
        if wanted.contains(self.person) {
            self.persons(text, &tokens, out);
        }
        if wanted.contains(self.organization) {
            if !self.beside_model {
                self.acronyms(&tokens, out);
            }
            self.organizations(text, &tokens, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, &'static str)> {
        found_by(&NameRecognizer::new(), text)
    }

    fn found_by(rules: &NameRecognizer, text: &str) -> Vec<(String, &'static str)> {
        let mut out = Vec::new();
        rules.recognize(text, &LabelSet::all(), &mut out);
        crate::engine::resolve::resolve(text, out, 0.0)
            .iter()
            .map(|d| (text[d.span.start..d.span.end].to_owned(), d.label.as_str()))
            .collect()
    }

    #[test]
    fn beside_a_model_only_cued_person_rules_and_organisation_rules_run() {
        let beside = NameRecognizer::beside_model();
        let text = "all-rounder Phil Simmons took four for LIFFE. Simmons then left.";
        assert_eq!(found_by(&beside, text), vec![]);
        assert_eq!(
            found(text),
            vec![
                ("Phil Simmons".into(), "PERSON"),
                ("LIFFE".into(), "ORGANIZATION"),
                ("Simmons".into(), "PERSON")
            ]
        );
        assert_eq!(
            found_by(
                &beside,
                "Mr Robert Murray works at Pierce Glynn Solicitors. My name is Ana Ruiz."
            ),
            vec![
                ("Mr Robert Murray".into(), "PERSON"),
                ("Pierce Glynn Solicitors".into(), "ORGANIZATION"),
                ("Ana Ruiz".into(), "PERSON")
            ]
        );
    }

    #[test]
    fn honorifics_take_the_name_after_them() {
        assert_eq!(
            found("represented by Mr C. Whomersley of the Office"),
            vec![("Mr C. Whomersley".into(), "PERSON")]
        );
        assert_eq!(
            found("Dr. Ana de la Cruz said"),
            vec![("Dr. Ana de la Cruz".into(), "PERSON")]
        );
    }

    #[test]
    fn given_names_and_cues_and_repeated_surnames() {
        assert_eq!(
            found("all-rounder Phil Simmons took four. Simmons then left."),
            vec![
                ("Phil Simmons".into(), "PERSON"),
                ("Simmons".into(), "PERSON")
            ]
        );
        assert_eq!(
            found("Hi, my name is Zoltan Kovacs."),
            vec![("Zoltan Kovacs".into(), "PERSON")]
        );
        assert_eq!(found("Dear Priyanka,"), vec![("Priyanka".into(), "PERSON")]);
    }

    #[test]
    fn organisations_by_suffix_and_head() {
        assert_eq!(
            found("broadcast by Strix Television AB in Sweden"),
            vec![("Strix Television AB".into(), "ORGANIZATION")]
        );
        assert_eq!(
            found("the London Borough of Southwark said"),
            vec![("London Borough of Southwark".into(), "ORGANIZATION")]
        );
        assert_eq!(
            found("studied at the University of Leeds"),
            vec![("University of Leeds".into(), "ORGANIZATION")]
        );
    }

    #[test]
    fn uncued_capitalised_pairs_are_a_threshold_guess() {
        assert_eq!(
            found("the applicant, Olubukunola Obasa, appealed"),
            vec![("Olubukunola Obasa".into(), "PERSON")]
        );
        assert!(
            found("the European Convention on Human Rights and Fundamental Freedoms").is_empty()
        );
        assert!(found("a Turkish Criminal Code provision").is_empty());
        assert!(found("off the Great Barrier Reef today").is_empty());
        assert!(found("I use Visual Studio Code and Google Chrome daily")
            .iter()
            .all(|(_, label)| *label != "PERSON"));
    }

    #[test]
    fn acronyms_in_running_text_are_organisations() {
        assert_eq!(
            found("traders on the LIFFE floor said prices fell"),
            vec![("LIFFE".into(), "ORGANIZATION")]
        );
        assert!(found("ST LOUIS 1996-08-28").is_empty());
        assert!(found("we watched TV and it was OK really").is_empty());
    }

    #[test]
    fn is_cautious() {
        assert!(found("The Court held that Article 8 applied.").is_empty());
        assert!(found("LEICESTERSHIRE TAKE OVER AT TOP").is_empty());
        assert!(found("Will you call me tomorrow?").is_empty());
        assert!(found("Mr").is_empty());
    }
}

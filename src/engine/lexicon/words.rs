//! The word lists the name rules read: cue words, stop words, organisation words, and
//! the given-name, place and common-word lists compiled in from `lists/`.

use std::collections::HashSet;
use std::sync::{LazyLock, OnceLock};

/// Honorifics that are part of the name span (`Mr Robert Murray`): most give gender
/// away, and court judgments (TAB) annotate them with the name.
#[rustfmt::skip]
pub(crate) const HONORIFICS: &[&str] = &[
    "Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Sir", "Dame", "Lord", "Lady", "Madam", "Mme",
    "Mlle", "Herr", "Frau", "Sr", "Sra", "Srta",
];

/// Offices before a name that say nothing of gender: like a role, not part of the span,
/// but one name word after them is enough (`Judge [Smith]`, `Professor [David McLeod]`;
/// news corpora annotate the name alone).
#[rustfmt::skip]
pub(crate) const RANKS: &[&str] = &[
    "Prof", "Professor", "Judge", "Justice", "Rev", "Cardinal",
];

/// Roles before a name; the role word is not part of the span (`President [Ana Ruiz]`).
#[rustfmt::skip]
pub(crate) const ROLES: &[&str] = &[
    "President", "Senator", "Governor", "Minister", "Chancellor", "Ambassador", "Captain",
    "Colonel", "General", "Inspector", "Detective", "Sergeant", "Officer", "Bishop", "Pope",
    "King", "Queen", "Prince", "Princess", "Sheikh", "Mayor", "Coach", "Chairman", "Premier",
];

/// Whether `word` (without its dot) is a title a name follows: an honorific or a rank.
pub(crate) fn is_title(word: &str) -> bool {
    HONORIFICS.contains(&word) || RANKS.contains(&word)
}

/// Whether `word` (without its dot) opens a name but is no part of its span: a rank or
/// a role (`Bishop [Desmond Tutu]`).
pub(crate) fn is_office(word: &str) -> bool {
    RANKS.contains(&word) || ROLES.contains(&word)
}

/// Titles that make a lone "I" after the name a regnal number, not the pronoun
/// ("Queen Elizabeth I born", where "Anna I saw" is the pronoun).
const MONARCHS: &[&str] = &[
    "King", "Queen", "Emperor", "Empress", "Pope", "Tsar", "Czar", "Sultan", "Kaiser", "Shah",
];

/// Whether `word` is a monarch's title.
pub(crate) fn is_monarch(word: &str) -> bool {
    MONARCHS.contains(&word)
}

/// Whether `word` is one of the common given names of `lists/given_names.txt`.
pub(crate) fn is_given_name(word: &str) -> bool {
    lists().given.contains(word)
}

/// Degrees and licences written after a name ("Omar Fitzgerald, M.D.", "Ana Ruiz, PA-C").
const CREDENTIALS: &[&str] = &[
    "MD", "DO", "PhD", "RN", "NP", "PA", "PAC", "DDS", "DMD", "MBBS", "MBChB", "FRCP", "FRCS",
    "FACS", "FACP", "MPH", "LPN", "CNP", "APRN", "DNP", "PharmD", "MSN", "BSN", "CRNA", "LCSW",
];

/// Whether `word`, its dots and hyphens left out ("M.D.", "PA-C"), is a degree or licence.
pub(crate) fn is_credential_word(word: &str) -> bool {
    let bare = || word.chars().filter(|c| !matches!(c, '.' | '-'));
    CREDENTIALS.iter().any(|c| bare().eq(c.chars()))
}

/// Words of chat that a model takes into a person's span, or for a person, now and then in
/// informal text ("martin lmao", "Was mason", "Hallo, ich bin …", "Je m'appelle …"):
/// chat acronyms, auxiliaries, conjunctions, greetings, letter openings and the pronoun
/// "I" of the languages users write in, which never open or close a name. Compared
/// without case.
#[rustfmt::skip]
const CHATTER: &[&str] = &[
    "lol", "lmao", "lmfao", "rofl", "omg", "omfg", "smh", "tbh", "imo", "imho", "idk", "wtf",
    "btw", "fyi", "ikr", "haha", "hahaha", "hehe", "xd", "ugh", "yay", "pls", "plz", "thx",
    "heh", "ohh", "ooh", "ahh", "hmm", "umm", "uhh", "meh", "yall",
    "was", "is", "am", "are", "were", "and", "or", "but", "hi", "hey", "hello", "hallo",
    // ("moin" is left out: it also opens names, Moin Khan)
    "hola", "bonjour", "salut", "ciao", "hej", "servus", "ich", "je", "moi",
    // letter openings: "Sehr geehrte Frau …", "Liebe Frau …", "Chère Madame …"
    "dear", "sehr", "geehrte", "geehrter", "liebe", "lieber", "chère", "cher", "estimado",
    "estimada", "querido", "querida", "gentile", "gentili", "geachte",
    // self-introductions: "meu nome é …", "me llamo …", "je m'appelle …", "ich heiße …"
    "meu", "minha", "mon", "mein", "meine", "mijn", "mio", "nome", "nombre", "nom", "naam",
    "é", "è", "es", "est", "ist", "llamo", "chamo", "chiamo", "m'appelle", "appelle",
    "heiße", "heisse", "heet", "soy", "sono", "sou", "ik", "eu", "io",
    // … and in Swedish, Danish, Norwegian and Polish: "jag heter …", "nazywam się …"
    "jag", "heter", "är", "jeg", "hedder", "er", "nazywam", "się", "jestem",
    // … and Turkish: "benim adım …"
    "benim", "adım",
    // "I live …", a verb a model reads as a name ("Eu moro em Lisboa")
    "moro", "vivo", "abito", "habite", "woon", "wohne", "bor", "mieszkam", "på",
];

/// Whether `word` is chat that is never the edge of a name.
pub(crate) fn is_chatter(word: &str) -> bool {
    CHATTER.iter().any(|c| c.eq_ignore_ascii_case(word))
}

/// Whether `word` (any case) is a frequent English word, chat, a function word or a form
/// of address: no name, however it is written ("thanks guys!", "rick lol").
pub(crate) fn is_frequent_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    lists().common.contains(lower.as_str())
        || is_chatter(&lower)
        || FORMS_OF_ADDRESS.contains(&lower.as_str())
        || is_stop(&title_case(&lower))
}

/// Account names that are no one's, and outcomes written where a user name would be.
#[rustfmt::skip]
const NO_ONES_ACCOUNTS: &[&str] = &[
    "root", "admin", "administrator", "guest", "anonymous", "nobody", "system", "daemon",
    "www-data", "postgres", "ubuntu", "ec2-user", "test", "user", "users", "null", "none",
    "unknown", "success", "successful", "failed", "failure", "true", "false", "yes", "no",
    "ok", "error", "pending", "service", "default", "required", "invalid", "app", "api",
    "web", "www", "bot", "cron",
    // service accounts, which scanners try on every host ("Invalid user oracle from …")
    "oracle", "mysql", "ftp", "ftpuser", "git", "pi", "deploy", "jenkins", "tomcat", "apache",
    "nginx", "hadoop", "ansible", "vagrant", "centos", "debian", "azureuser", "support",
    "operator", "backup", "postfix", "redis", "elastic", "zabbix", "nagios", "sshd", "bin",
];

/// Whether `word` (any case) is a system or service account, or an outcome written where
/// an account would be (`USER=root`, `user: failed`): no one's.
pub(crate) fn is_no_ones_account(word: &str) -> bool {
    NO_ONES_ACCOUNTS
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Whether `word` (lower-case) is in SCOWL's English word list (`lists/english_words.txt`,
/// 64,000 words with their inflections). Built on first use.
pub(crate) fn is_english_word(word: &str) -> bool {
    static WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    WORDS
        .get_or_init(|| super::entries(super::lists::ENGLISH_WORDS).collect())
        .contains(word)
}

/// Endings of abstract nouns, which name no one ("Goodbye monetization!").
pub(crate) const ABSTRACT_NOUN_ENDINGS: &[&str] = &["tion", "sion", "ment", "ness", "ism"];

/// `word` with its first letter upper-case and the rest lower-case, as the lists spell
/// names and places.
pub(crate) fn title_case(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for (k, c) in word.chars().enumerate() {
        if k == 0 {
            out.extend(c.to_uppercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// Whether `word` is the last word of a name cue or self-introduction whose other words
/// end `before` ("ich" + "bin"): a model that starts a person there has taken the cue's
/// tail, not a name ("bin" also opens Arabic names, "bin Laden").
pub(crate) fn ends_cue(before: &str, word: &str) -> bool {
    let before = before.trim_end();
    CUES.iter().chain(INTRODUCTIONS).any(|phrase| {
        let Some((head, last)) = phrase.rsplit_once(' ') else {
            return false;
        };
        let Some(at) = before.len().checked_sub(head.len()) else {
            return false;
        };
        last.eq_ignore_ascii_case(word)
            && before.is_char_boundary(at)
            && before[at..].eq_ignore_ascii_case(head)
            && !before[..at].ends_with(char::is_alphanumeric)
    })
}

/// Clinical shorthand a model tags as a name now and then in notes ("PT IS A 72 Y.O.",
/// "SpO2 97% on RA.", "CHF"): patient, age, history, dosing and diagnosis words, never a
/// person, place or organisation. Units and wards ("MICU") are not here: they say where
/// a patient was, nor are words that are also given names ("Tia", "Uri", "Gerd", "Aki").
/// Compared without case and dots.
#[rustfmt::skip]
const CLINICAL_SHORTHAND: &[&str] = &[
    "pt", "pts", "yo", "yrs", "s/p", "h/o", "c/o", "f/u", "d/w", "a/p", "w/", "ra", "prn",
    "npo", "bid", "tid", "qid", "qhs", "chf", "copd", "htn", "ckd", "cabg", "nsr", "dm2", "hpi",
    "pmh", "psh", "ros", "rtc", "hcp", "rhm", "lhm", "rhf", "lhf", "hx", "dx", "rx", "tx", "sx",
    "pcp", "pt/ot", "cath", "stemi", "nstemi", "pci", "ekg", "ecg", "cxr", "lvh", "tte", "tee",
    "cad", "dvt", "uti", "afib", "esrd", "sw", "ob/gyn", "sob", "cva", "t2dm", "iddm", "niddm",
    "hfref", "hfpef", "tavr", "tavi", "ercp", "egd", "turp", "orif", "lvad", "picc", "ards",
    "ecmo", "cpap", "bipap", "bph", "bmp", "cmp", "lft", "lfts", "abg", "vbg", "mri", "mra",
    "eeg", "emg", "ivf", "sqh", "gi", "ent", "ega", "nst", "hgb", "hct", "biba", "bibems",
];

/// Drugs that notes name most, a name to a model in capitals ("STARTED ON PREDNISONE"):
/// a span that is one of them alone names no one. Brand and generic names; compared
/// without case.
#[rustfmt::skip]
const DRUGS: &[&str] = &[
    "prednisone", "lasix", "furosemide", "coumadin", "warfarin", "heparin", "insulin",
    "metformin", "lisinopril", "atorvastatin", "lipitor", "simvastatin", "metoprolol",
    "lopressor", "toprol", "amiodarone", "digoxin", "plavix", "clopidogrel", "aspirin",
    "vancomycin", "zosyn", "ceftriaxone", "levofloxacin", "amoxicillin", "augmentin",
    "albuterol", "morphine", "dilaudid", "oxycodone", "percocet", "tylenol", "acetaminophen",
    "motrin", "ibuprofen", "ativan", "lorazepam", "haldol", "zofran", "protonix", "norvasc",
    "amlodipine", "keppra", "dilantin", "synthroid", "levothyroxine", "gabapentin",
    "neurontin", "seroquel", "solumedrol", "decadron", "flagyl", "bactrim", "cipro",
    "lovenox", "eliquis", "xarelto", "nitroglycerin", "spiriva", "advair", "zoloft",
    "prozac", "xanax", "ambien",
];

/// Whether `word`, in any case, is a drug of [`DRUGS`].
pub(crate) fn is_drug(word: &str) -> bool {
    DRUGS.iter().any(|d| word.eq_ignore_ascii_case(d))
}

/// Vitals, labs and findings, a name only alone: "HbA1c 7.2" or "WBC 11.2" is a
/// measurement, but "WBC" (the World Boxing Council) and "BNP" (the bank) are
/// organisations in news. Compared without case and dots.
#[rustfmt::skip]
const CLINICAL_MEASURES: &[&str] = &[
    "bp", "hr", "rr", "spo2", "o2", "temp", "inr", "wbc", "plt", "bun", "cr",
    "hba1c", "a1c", "ldl", "hdl", "tsh", "alt", "ast", "bnp", "crp", "esr", "ekg", "ecg", "cxr",
    "ef", "qtc",
];

/// Whether `word`, in any case and with any dots ("Y.O.", "RA."), is clinical shorthand.
pub(crate) fn is_clinical_shorthand(word: &str) -> bool {
    CLINICAL_SHORTHAND
        .iter()
        .any(|c| same_without_dots(word, c))
}

/// Whether `word`, in any case and with any dots, names a vital sign, lab or finding.
pub(crate) fn is_clinical_measure(word: &str) -> bool {
    CLINICAL_MEASURES.iter().any(|c| same_without_dots(word, c))
}

/// `word` equals the lower-case `entry` once its dots are gone and its case ignored.
fn same_without_dots(word: &str, entry: &str) -> bool {
    word.chars()
        .filter(|&c| c != '.')
        .map(|c| c.to_ascii_lowercase())
        .eq(entry.chars())
}

/// Name particles allowed inside a name (`Ludwig van Beethoven`, `Osama bin Laden`, `Ana
/// do Carmo`, `Siti binti Ahmad`), lower-case as written.
#[rustfmt::skip]
pub(crate) const PARTICLES: &[&str] = &[
    "van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le", "bin",
    "binti", "al", "el", "ibn", "do", "dos", "das", "ter", "ten",
];

/// The "and" of Spanish and Portuguese double surnames (`Ortega y Gasset`, `Sousa e
/// Silva`): part of a name only where the text says a name follows (a field's value); in
/// prose it joins two people ("Ana y Juan").
pub(crate) const SURNAME_JOINERS: &[&str] = &["y", "e"];

/// Capitalised words that never start or join a name, besides the weekdays and months
/// ([`is_stop`]).
#[rustfmt::skip]
pub(crate) const STOP: &[&str] = &[
    "The", "A", "An", "In", "On", "At", "For", "But", "And", "Or", "Of", "To", "From", "With",
    "By", "As", "If", "When", "While", "After", "Before", "Since", "Until", "This", "That",
    "These", "Those", "His", "Her", "Their", "Our", "My", "Your", "Its", "He", "She", "It",
    "They", "We", "You", "I", "Yesterday", "Today", "Tomorrow", "There", "Here", "What", "Who", "Why", "How", "Where", "Which", "Not", "No", "Yes", "All",
    "Some", "Any", "Many", "Mr", "Mrs", "Ms", "Dr", "Article", "Section", "Chapter", "Court",
    "Government", "State", "Convention", "Protocol", "Law", "Act", "Code", "Republic", "Street",
    "Road", "Avenue", "University", "Ministry", "Department", "Council",
    "Although", "However", "Moreover", "Furthermore", "Thus", "Therefore", "Also", "Then",
    "According", "Under", "Following", "During", "Between", "Against", "Despite", "Unlike",
    "Like", "Both", "Each", "Every", "Such", "Other", "Another", "First", "Second", "Third",
    "Finally", "Meanwhile", "Nevertheless", "Instead", "Whereas", "Because", "Once", "Upon",
];

/// Whether `word`, as written, is a stop word, a weekday or a month.
pub(crate) fn is_stop(word: &str) -> bool {
    // Asked of most capitalised words of a text: one hash, not 135 comparisons.
    static SET: LazyLock<HashSet<&str>> = LazyLock::new(|| {
        STOP.iter()
            .chain(&WEEKDAYS)
            .chain(&MONTHS)
            .copied()
            .collect()
    });
    SET.contains(word)
}

/// Whether `word`, in any case, is a stop word, a weekday or a month.
pub(crate) fn is_stop_any_case(word: &str) -> bool {
    [STOP, &WEEKDAYS, &MONTHS]
        .iter()
        .any(|list| list.iter().any(|w| w.eq_ignore_ascii_case(word)))
}

/// The weekdays in English, as written.
pub(crate) const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The months in English, as written.
#[rustfmt::skip]
pub(crate) const MONTHS: [&str; 12] = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
];

/// Their abbreviations, lower-case ("may" is its own).
#[rustfmt::skip]
pub(crate) const MONTH_ABBREVIATIONS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// Whether `word`, in any case, is a month or a month's abbreviation.
pub(crate) fn is_month_any_case(word: &str) -> bool {
    MONTHS
        .iter()
        .chain(&MONTH_ABBREVIATIONS)
        .any(|m| m.eq_ignore_ascii_case(word))
}

/// Last words that make the capitalised run before them an organisation, besides the
/// company forms ([`is_org_suffix`]).
#[rustfmt::skip]
const ORG_ENDINGS: &[&str] = &[
    "Corporation", "Company", "Group",
    "Holdings", "Bank", "Airlines", "Airways", "Technologies", "Solicitors", "Partners",
    "Associates", "University", "College", "Institute", "Foundation", "Association", "Council",
    "Agency", "Ministry", "Office", "Department", "Commission", "Committee", "Party", "Union",
    "Federation", "Club", "Hospital", "School", "Court", "Police", "Army", "Government",
    "Television", "Broadcasting", "Network", "Systems", "Motors", "Trust", "Authority",
    "Tribunal", "Service", "Services", "Board", "Organisation", "Organization", "Society",
    "Fund", "Press", "Times", "Post", "News", "Industries", "Enterprises", "Labs",
];

/// Whether `word`, as written, ends an organisation's name: a company form or an
/// organisation's kind ("Bank", "University").
pub(crate) fn is_org_suffix(word: &str) -> bool {
    // Every ending is capitalised: most words need no comparison.
    is_legal_form(word)
        || (word.starts_with(|c: char| c.is_ascii_uppercase()) && ORG_ENDINGS.contains(&word))
}

/// Last words of an institution's name that no person's name ends on, compared without
/// case: a model reads "BRIGHAM AND WOMEN'S HOSPITAL" as a person now and then. Heads
/// first, which may take their place after "of" ("Children's Hospital of Denver"), then
/// company forms, after which "of" tells where the company is ("Kia Motor Corp of South
/// Korea").
#[rustfmt::skip]
const INSTITUTION_HEADS: &[&str] = &[
    "hospital", "clinic", "center", "centre", "infirmary", "university", "college", "school",
    "institute", "academy", "foundation", "association", "ministry", "department", "bank",
];
/// Whether `word` ends an institution's name, never a person's.
pub(crate) fn is_institution_ending(word: &str) -> bool {
    is_institution_head(word)
        || ["corporation", "company"]
            .iter()
            .chain(&COMPANY_FORMS_WITHOUT_DOTS)
            .any(|e| same_without_dots(word, e))
}

/// Whether `word` ends an institution's name that may go on with "of" and its place.
pub(crate) fn is_institution_head(word: &str) -> bool {
    INSTITUTION_HEADS.iter().any(|e| same_without_dots(word, e))
}

/// Company forms, as written: they end a company's name. The one list of them.
#[rustfmt::skip]
pub(crate) const LEGAL_FORMS: &[&str] = &[
    "Inc", "Inc.", "Ltd", "Ltd.", "Limited", "LLC", "LLP", "GmbH", "AG", "SA", "S.A.", "AB",
    "NV", "BV", "plc", "PLC", "Corp", "Corp.", "Co.",
];

/// The company forms an institution's name may end on, compared without case or dots
/// ("KIA MOTOR CORP."): those of [`LEGAL_FORMS`] that are no common word or initials in
/// any case ("AB", "SA", "Co" are).
const COMPANY_FORMS_WITHOUT_DOTS: [&str; 5] = ["inc", "ltd", "llc", "gmbh", "corp"];

/// Abbreviations that end a company's name with their dot ("First Albany Corp.",
/// "Warner Bros."): the company forms of [`LEGAL_FORMS`] written with one, and the
/// abbreviated kinds of company.
pub(crate) const DOTTED_COMPANY_WORDS: &[&str] =
    &["Corp", "Inc", "Ltd", "Co", "Cos", "Bros", "Assn"];

/// Whether `word` is a legal form alone ("Inc", "Ltd."): the end of a company's name, never
/// a name by itself.
pub(crate) fn is_legal_form(word: &str) -> bool {
    LEGAL_FORMS.contains(&word)
}

/// Heads followed by `of …` that make an organisation (`University of Leeds`).
#[rustfmt::skip]
pub(crate) const ORG_HEADS: &[&str] = &[
    "University", "Ministry", "Bank", "Department", "Institute", "College", "Council", "Court",
    "Office", "Academy", "Board", "Chamber", "Federation", "Association", "Church", "Museum",
    "Society", "Commission", "Borough", "Prosecutor", "Prosecutor's",
];

/// Words that open a post or a department, not a name, after a cue: "attn: Chief of
/// Staff", "Attention: Head of Procurement", "Dear Hiring Manager", "attn: Accounts
/// Payable". Not "Dean": "Dear Dean," is someone.
#[rustfmt::skip]
pub(crate) const POSTS: &[&str] = &[
    "Head", "Chief", "Director", "Manager", "Secretary", "Clerk", "Registrar", "Treasurer",
    "Editor", "Hiring", "Accounts", "Admissions", "Billing", "Customer", "Human",
];

/// Cue phrases (lower-case) after which capitalised words are a name.
#[rustfmt::skip]
pub(crate) const CUES: &[&str] = &[
    "my name is", "name is", "name:", "dear", "named", "called", "signed", "regards,",
    "sincerely,", "patient:", "applicant:", "contact:", "attn:", "attention:",
    // "my name is" in the languages users write in
    "me llamo", "mi nombre es", "je m'appelle", "mon nom est", "ich heiße", "ich heisse",
    "mein name ist", "mi chiamo", "il mio nome è", "meu nome é", "me chamo", "ik heet",
    "mijn naam is", "jag heter", "mitt namn är", "nazywam się", "je m’appelle", "chamo-me",
    "jmenuji se", "меня зовут", "мене звати", "benim adım", "mit navn er", "jeg hedder",
    "jeg heter", "minun nimeni on", "mă numesc", "a nevem",
];

/// Greetings, thanks and praise (lower-case) that open a clause and may be followed by the
/// name of whoever they are for: "hey tanner,", "thanks Kishan!" (`person::vocative`).
/// No cue that is also a word of prose ("morning coffee!", "sorry bout that").
#[rustfmt::skip]
pub(crate) const VOCATIVE_CUES: &[&str] = &[
    "hey", "hi", "hello", "hiya", "howdy", "thanks", "thank you", "thx", "ty", "cheers",
    "bye", "goodbye", "good morning", "good night", "goodnight", "congrats",
    "congratulations", "happy birthday", "love you", "miss you", "well done", "good job",
    "great job", "nice job", "great work", "good work", "nice work", "good luck",
    "welcome back",
    // … in the other languages users write in
    "hola", "ciao", "hallo", "salut", "bonjour", "hej", "merci", "danke", "gracias", "grazie",
    "obrigado", "obrigada",
];

/// Words besides chat that may stand before a greeting in its clause ("ok thanks Kishan"),
/// lower-case.
pub(crate) const BEFORE_A_GREETING: &[&str] = &["ok", "okay", "oh", "so", "yeah", "well"];

/// Words a greeting or thanks calls people by that are no name ("thanks guys!", "love you
/// mom!", "hi there!"), and the words that end such a clause ("thanks anyway!"),
/// lower-case. Frequent words, chat and function words are already out (`common`,
/// [`CHATTER`], [`STOP`]).
#[rustfmt::skip]
pub(crate) const FORMS_OF_ADDRESS: &[&str] = &[
    "all", "everyone", "everybody", "y'all", "yall", "ya'll", "folks", "peeps", "fam", "gang",
    "crew", "squad", "bro", "bros", "bruh", "bruv", "dude", "dudes", "mate", "mates", "buddy",
    "bud", "pal", "homie", "homies", "fellas", "lads", "lad", "gents", "gentlemen", "ladies",
    "sir", "sirs", "madam", "ma'am", "maam", "mister", "boss", "chief", "captain", "doc",
    "doctor", "nurse", "officer", "coach", "teacher", "prof", "professor", "mom", "mum",
    "mommy", "mummy", "mama", "momma", "ma", "daddy", "papa", "pa", "pops", "grandma",
    "grandpa", "granny", "nana", "gran", "auntie", "aunty", "aunt", "uncle", "sis", "sister",
    "cuz", "cousin", "son", "kiddo", "boys", "girls", "babe", "bae", "honey", "hun", "hon",
    "sweetie", "sweetheart", "darling", "luv", "sunshine", "king", "queen", "legend",
    "legends", "champ", "ya", "yourself", "anyway", "already", "alot", "lots", "tons",
    "heaps", "loads", "bunches", "kindly", "sm", "tysm", "fr", "again", "tho",
    "xx", "xxx", "xoxo", "chatgpt", "gpt", "bot", "ai", "assistant", "copilot", "internet",
    // … and in the other languages of the cues: "hola a todos", "grazie mille", "danke
    // schön", "merci beaucoup", "bonjour madame"
    "todos", "todas", "amigo", "amiga", "amigos", "amigas", "chicos", "chicas", "mundo",
    "tutti", "ragazzi", "amici", "mille", "tante", "molto", "bella", "bello", "cara", "caro",
    "mondo", "alle", "zusammen", "leute", "schön", "schon", "sehr", "vielmals", "welt",
    "tous", "toi", "vous", "monde", "beaucoup", "bien", "madame", "monsieur", "mademoiselle",
    "señor", "señora", "signora", "signore", "mucho", "muchas", "muchísimas", "querida",
    "querido", "tudo", "todo", "pessoal", "gente", "allihop", "alla", "så", "mycket",
];

/// Self-introductions (lower-case) that also say what someone is ("ich bin Deutscher",
/// "je suis médecin"): a name follows only as `person::introduction` checks.
#[rustfmt::skip]
pub(crate) const INTRODUCTIONS: &[&str] = &[
    "ik ben", "ich bin", "je suis", "soy", "sono", "eu sou", "jag är", "jeg er", "jestem",
];

/// Capitalised words of titles, laws and institutions: a run of capitalised words that
/// contains one is not guessed to be a person ("Human Rights", "Civil Procedure Rule").
#[rustfmt::skip]
pub(crate) const GENERIC: &[&str] = &[
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

/// Acronyms that are not organisations.
#[rustfmt::skip]
pub(crate) const ACRONYM_STOP: &[&str] = &[
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

/// The word lists, built once.
pub(crate) struct Lists {
    pub given: HashSet<&'static str>,
    /// Single words of the location, nationality and organisation lists ("Turkish",
    /// "London", "Google").
    pub places: HashSet<&'static str>,
    /// Frequent English words, lower-case.
    pub common: HashSet<&'static str>,
}

/// Whether `word` is a single word of the location, nationality or organisation lists
/// ("London", "Turkish", "Google").
pub(crate) fn is_listed_word(word: &str) -> bool {
    lists().places.contains(word)
}

pub(crate) fn lists() -> &'static Lists {
    static LISTS: OnceLock<Lists> = OnceLock::new();
    LISTS.get_or_init(|| Lists {
        given: super::entries(super::lists::GIVEN_NAMES).collect(),
        places: super::entries(super::lists::LOCATIONS)
            .chain(super::entries(super::lists::NATIONALITIES))
            .chain(super::entries(super::lists::ORGANIZATIONS))
            .flat_map(str::split_whitespace)
            .collect(),
        common: super::entries(super::lists::COMMON_WORDS)
            .flat_map(str::split_whitespace)
            .collect(),
    })
}

/// The letters and the most frequent function words of the Latin-script languages a
/// model is chosen for, by ISO 639-1 code: letter statistics alone call a table of names
/// and scores "Spanish" with full confidence, while text in a language uses its own
/// letters or function words (`engine/language.rs`).
#[rustfmt::skip]
pub(crate) const LANGUAGE_MARKS: &[(&str, &str, &[&str])] = &[
    ("de", "ßäöü", &["der", "die", "das", "und", "ist", "nicht", "ich", "sie", "mit", "den", "ein", "eine", "zu", "auf", "für", "von", "wir", "bitte", "ihre", "im", "dem", "es", "sich", "auch", "vielen"]),
    ("fr", "éèêàçœùûîôëï", &["le", "la", "les", "de", "des", "et", "est", "un", "une", "je", "vous", "pour", "pas", "que", "qui", "dans", "du", "au", "sur", "avec", "nous", "merci", "il", "elle", "ce"]),
    ("es", "ñáéíóú¿¡", &["el", "la", "los", "las", "de", "del", "que", "y", "en", "es", "un", "una", "por", "para", "con", "no", "se", "su", "al", "lo", "como", "mi", "gracias", "pero", "está"]),
    ("it", "àèéìòù", &["il", "la", "le", "di", "del", "della", "che", "e", "è", "un", "una", "per", "non", "con", "sono", "mi", "ho", "si", "da", "al", "nel", "alla", "grazie", "lo", "gli"]),
    ("nl", "ëï", &["de", "het", "een", "en", "van", "is", "niet", "ik", "je", "u", "op", "dat", "met", "voor", "zijn", "we", "er", "te", "naar", "bij", "ook", "maar", "graag", "wij", "uw"]),
    ("pt", "ãõçáéíóúâêôà", &["o", "a", "os", "as", "de", "do", "da", "dos", "das", "que", "e", "é", "um", "uma", "para", "com", "não", "em", "no", "na", "por", "se", "obrigado", "obrigada", "você"]),
    ("pl", "ąćęłńóśźż", &["i", "w", "z", "na", "się", "nie", "do", "że", "jest", "to", "o", "od", "po", "jak", "ale", "dla", "pan", "pani", "proszę", "dziękuję", "czy", "jestem", "mam", "już", "przez"]),
    ("sv", "åäö", &["och", "att", "det", "i", "en", "ett", "är", "som", "på", "för", "med", "inte", "jag", "du", "vi", "har", "till", "av", "om", "den", "kan", "tack", "hej", "mvh", "ni"]),
    ("tr", "çğıİöşü", &["ve", "bir", "bu", "da", "de", "için", "ile", "ben", "sen", "biz", "çok", "ne", "mi", "var", "yok", "olarak", "gibi", "ama", "daha", "teşekkürler", "merhaba", "lütfen", "olan", "sayın", "rica"]),
];

/// The letters and function words of the language of ISO 639-1 `code`, when listed.
pub(crate) fn language_marks(code: &str) -> Option<(&'static str, &'static [&'static str])> {
    LANGUAGE_MARKS
        .iter()
        .find(|(c, ..)| *c == code)
        .map(|&(_, letters, words)| (letters, words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_company_forms_read_in_other_ways_are_forms_of_the_one_list() {
        let bare = |f: &str| f.replace('.', "").to_lowercase();
        for form in COMPANY_FORMS_WITHOUT_DOTS {
            assert!(LEGAL_FORMS.iter().any(|f| bare(f) == form), "{form}");
        }
        for form in LEGAL_FORMS.iter().filter_map(|f| f.strip_suffix('.')) {
            assert!(
                form.contains('.') || DOTTED_COMPANY_WORDS.contains(&form),
                "{form}"
            );
        }
        assert!(is_org_suffix("GmbH") && is_org_suffix("University") && !is_org_suffix("Ana"));
        assert!(is_stop("May") && is_stop("Sunday") && is_stop_any_case("SUNDAY"));
        assert!(is_month_any_case("sept") && is_month_any_case("MAY") && !is_month_any_case("mid"));
    }

    #[test]
    fn no_clinical_shorthand_is_a_given_name() {
        let capitalised = |w: &str| w[..1].to_uppercase() + &w[1..];
        let clash: Vec<_> = CLINICAL_SHORTHAND
            .iter()
            .filter(|w| is_given_name(&capitalised(w)))
            .collect();
        assert!(clash.is_empty(), "{clash:?}");
    }
}

//! Contact details, network identifiers, dates, ages, addresses: types not tied to a
//! country or an industry.

use crate::engine::lexicon::words::{is_given_name, is_no_ones_account, title_case};
use crate::engine::validators::{ip, structure};
use crate::engine::{PatternSpec, Proof};
use crate::text::ByteSpan;

/// Letters of the scripts written without spaces between words (Han, kana, Thai, Lao,
/// Khmer, Myanmar) and Hangul, whose particles glue to the word before them: the body of
/// a character class, for `concat!` (consts cannot be concatenated). Next to these
/// letters an address or URL in another script starts or ends where the script changes.
macro_rules! glued_scripts {
    () => {
        r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}"
    };
}

/// CJK and fullwidth punctuation (`。`, `，`, `「`, `！`, …): the body of a character class.
/// No URL or address runs on over it.
macro_rules! cjk_punctuation {
    () => {
        r"\x{3001}-\x{303F}\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF20}\x{FF3B}-\x{FF40}\x{FF5B}-\x{FF65}"
    };
}

/// Emoji and flags: the body of a character class. Chat puts them right after a link.
macro_rules! emoji {
    () => {
        r"\p{Extended_Pictographic}\p{Regional_Indicator}"
    };
}

/// RFC 5322 "dot-atom" addresses, the form people actually write. A grammar: the match
/// is exactly the address, so it keeps its span against any model span.
pub(super) const EMAIL: PatternSpec = PatternSpec {
    name: "email",
    label: "EMAIL_ADDRESS",
    // Unicode letters are allowed in both parts (RFC 6531 internationalised addresses);
    // the set looks for the `@` only.
    prefilter: Some("@"),
    regex: concat!(
        r"(?x)
        # The local part is in one family of scripts, so leftmost matching starts it where
        # its family starts: in 他的电子邮箱是test@test.com, at `t`. No `\b`: between two
        # letters of different families there is none.
        (?: [[\p{L}\p{N}]--[",
        glued_scripts!(),
        r"]] [[\p{L}\p{N}._%+\-]--[",
        glued_scripts!(),
        r"]]*
          | [",
        glued_scripts!(),
        r"]+ )
        @@?     # a typo's doubled `@`, as validation errors echo it, still names its owner
        [\p{L}\p{N}](?:[\p{L}\p{N}\-]*[\p{L}\p{N}])?          # first domain label
        (?:\.[\p{L}\p{N}](?:[\p{L}\p{N}\-]*[\p{L}\p{N}])?)*   # more labels
        # The top-level domain is in one family too: test@test.com今天 ends at `com`.
        \.(?: [\p{L}--[",
        glued_scripts!(),
        r"]]{2,24} | [",
        glued_scripts!(),
        r"]{1,24} )"
    ),
    score: 0.95,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "write to jane.doe+x@mail.example.org today",
            "jane.doe+x@mail.example.org",
        ),
        ("écrire à émile@exemple.fr.", "émile@exemple.fr"),
        ("jane@example.com", "jane@example.com"),
        ("他的电子邮箱是test@test.com", "test@test.com"),
        ("test@test.com으로 보내세요", "test@test.com"),
        ("a@example.com,b@example.org", "b@example.org"),
        ("用户@例子.广告", "用户@例子.广告"),
        (
            "Invalid email address: bob.smith@@example.com at",
            "bob.smith@@example.com",
        ),
    ],
    counter_examples: &["an @ sign alone", "user@localhost", "x@example.c"],
    ..PatternSpec::BASE
};

/// Social-media and chat handles: `@johnny_b`, `@maria.lopez88`, `@ana-ruiz`. A handle
/// names its owner as a name does, so it is a PERSON (as the `user` fields of logs are),
/// whole with its `@`, exact by its grammar. It must start with a letter or `_` ("@5pm" is
/// a time) and follow no word character (`jane@example.com` is an e-mail). What is not a
/// handle: Slack's `@here` and `@channel`, doc tags (`@param`), CSS at-rules (`@media`),
/// and, by [`handle_surroundings`], a decorator or annotation alone on its line above
/// code (`@Override`) or called (`@app.route(`), an npm scope (`@types/node`) and a JSON
/// or logfmt key (`"@timestamp":`, `@version=`).
pub(super) const SOCIAL_HANDLE: PatternSpec = PatternSpec {
    name: "social_handle",
    label: "PERSON",
    regex: r"(?m)(?:^|[^\w@./\-])(@[A-Za-z_](?:[A-Za-z0-9_.\-]{0,38}[A-Za-z0-9_])?)",
    group: 1,
    score: 0.8,
    prefilter: Some("@"),
    validate: Some(handle),
    surroundings: Some(handle_surroundings),
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("Thanks @johnny_b for the help!", "@johnny_b"),
        ("@MariaLopez88 can you look at this?", "@MariaLopez88"),
        ("follow me on insta (@maria.lopez88).", "@maria.lopez88"),
        ("cc @ana-ruiz, @bo", "@bo"),
        ("Contacts:\n@johnny_b\nthanks", "@johnny_b"),
        (
            r#"{"twitter": "@janedoe", "@timestamp": "2024-03-14"}"#,
            "@janedoe",
        ),
    ],
    counter_examples: &[
        "write to jane@example.com",
        "meet @5pm",
        "@here the build is green",
        "    @Override\n    public String toString()",
        "@dataclass\n@total_ordering\nclass Point:",
        "@app.route('/users')",
        "npm i @types/node",
        r#"{"@timestamp": "2024-03-14T09:30:00Z", "@version": "1"}"#,
        "@media (max-width: 600px)",
        " * @param name the user",
        "2 @ $5",
    ],
    ..PatternSpec::BASE
};

/// A user name as systems allow it, captured: letters, digits, `_`, `.` and `-`.
macro_rules! user_name_capture {
    () => {
        r"([A-Za-z0-9_][A-Za-z0-9_.\-]{1,31}[A-Za-z0-9_])"
    };
}

/// The words that name a user name: `user`, `username`, `login`, `screen name`, `nick`.
macro_rules! user_name_cue {
    () => {
        r"(?: user(?:[\ _\-]?name)? | login | screen[\ _\-]?name | nick(?:name)? )"
    };
}

/// A user name after its cue in prose, forms and auth logs: `Username: mlopez`,
/// `login = k_mensah`, a messenger's account (`WeChat: zhangwei_88`, `Skype ID: …`),
/// sshd's `Failed password for invalid user jdoe42 from …` and `Accepted publickey for
/// jdoe from …`, MySQL's `user 'jdoe'@'10.0.0.1'`, sudo's `sudo:  jdoe : TTY=…` and PAM's
/// `… by jdoe(uid=1000)`. It names
/// its owner as a handle does, so it is a PERSON. Without a colon or `=`, only in the
/// phrasings of auth logs ("invalid user X", "for user X from" an address). Not
/// `Proof::Grammar`: in `User: Ana Ruiz` the model's longer "Ana Ruiz" should win over the
/// first word. System accounts and outcomes (`root`, `admin`, `login: failed`) are no one.
pub(super) const CUED_USERNAME: PatternSpec = PatternSpec {
    name: "cued_username",
    label: "PERSON",
    regex: concat!(
        r"(?ix)\b(?:",
        user_name_cue!(),
        // the messengers whose accounts are names: WeChat: zhangwei_88, Skype ID: …
        r"| wechat(?:[\ _\-]?id)? | weixin | skype(?:[\ _\-]?id)? | telegram | discord
          | kakao(?:talk)?(?:[\ _\-]?id)? | line[\ _\-]id | snapchat )",
        r#"\s*[:=]\s*["']?"#,
        user_name_capture!(),
        r"| \b(?:invalid|illegal)\s+user\s+",
        user_name_capture!(),
        // "for user X from" an address, and sshd's logins of valid users
        r"| \b(?:for\s+user|(?:password|publickey|keyboard-interactive(?:/pam)?|hostbased)\s+for)\s+",
        user_name_capture!(),
        r"\s+from\s+[0-9a-fA-F:.]*[0-9]
        # MySQL's account notation: Access denied for user 'jdoe'@'10.0.0.1'
        | \buser\s+'",
        user_name_capture!(),
        r"'@
        # sudo's invoking user: sudo:   jdoe : TTY=pts/0 ; PWD=… ; USER=root ; COMMAND=…
        | \bsudo(?:\[\d+\])?:\s+",
        user_name_capture!(),
        r"\s+:\s
        # PAM's session lines name who opened it: … for user root by jdoe(uid=1000)
        | \bby\s+",
        user_name_capture!(),
        r"\(uid="
    ),
    group: 1,
    score: 0.8,
    // The cue words alone: the whole alternation would overflow the set's lazy DFA.
    prefilter: Some(
        r"(?i)user|login|screen|nick|wechat|weixin|skype|telegram|discord|kakao|line|snapchat|for|sudo|uid=",
    ),
    validate: Some(user_name),
    negative_context: &[],
    examples: &[
        ("Username: mlopez\nEmail: m@example.com", "mlopez"),
        ("user: mlopez, password: hunter2", "mlopez"),
        (
            "sshd[812]: Failed password for invalid user jdoe42 from 10.0.0.4",
            "jdoe42",
        ),
        ("Login = k_mensah", "k_mensah"),
        ("Zhang Wei (张伟), WeChat: zhangwei_88, QQ", "zhangwei_88"),
        ("Login failed for user mlopez from 10.1.2.3", "mlopez"),
        ("sshd[9]: Invalid user oracle2 from 10.0.0.9", "oracle2"),
        (
            "sshd[123]: Accepted publickey for jdoe from 10.0.0.1 port 22 ssh2",
            "jdoe",
        ),
        (
            "Access denied for user 'jdoe'@'10.0.0.1' (using password: YES)",
            "jdoe",
        ),
        (
            "web01 sudo:   mgarcia : TTY=pts/0 ; PWD=/srv ; USER=root ; COMMAND=/bin/ls",
            "mgarcia",
        ),
        (
            "su: pam_unix(su:session): session opened for user root by mgarcia(uid=1000)",
            "mgarcia",
        ),
    ],
    counter_examples: &[
        "Failed password for root from 10.0.0.4",
        "Accepted publickey for root from 10.0.0.4 port 22",
        "Access denied for user 'root'@'localhost'",
        "web01 sudo:   root : TTY=pts/0 ; PWD=/srv ; USER=root ; COMMAND=/bin/ls",
        "session opened for user jdoe by (uid=0)",
        "sshd[2231]: Failed password for invalid user oracle from 198.51.100.23 port 52814",
        "login: failed",
        "user: admin",
        "sshd[9]: Invalid user app from 10.0.0.9",
        "the user interface is slow",
        "support for user feedback from customers",
        "built for user input",
        "username and password",
    ],
    ..PatternSpec::BASE
};

/// The account in a home directory's path: `/home/mgarcia/.ssh`, `/Users/annakowalski/dev`,
/// `C:\Users\JSmith\Documents` (its backslashes doubled in JSON), `~jdoe/`. An account names
/// its owner, and stack traces, shell prompts and logs carry such paths. The path's
/// grammar fixes the span; system accounts and the shared folders (`/home/ubuntu`,
/// `C:\Users\Public`) are no one.
pub(super) const HOME_DIRECTORY_USER: PatternSpec = PatternSpec {
    name: "home_directory_user",
    label: "PERSON",
    regex: r#"(?x)
        (?: (?:^|[^A-Za-z0-9_.\-/]) (?: /home | /Users ) /
          | \b[A-Za-z]: (?: \\{1,2} | / ) Users (?: \\{1,2} | / )
          | (?:^|[\s"'=(]) ~ )
        ([A-Za-z0-9_][A-Za-z0-9_.\-]{0,31}[A-Za-z0-9_]) (?: [/\\"'\s:;,)] | $ )"#,
    group: 1,
    score: 0.8,
    prefilter: Some(r"(?i)/home/|/users/|\\users|~"),
    validate: Some(home_directory_user),
    proof: Proof::Grammar,
    examples: &[
        ("cp /home/mgarcia/.ssh/id_rsa /tmp/", "mgarcia"),
        (
            "File \"/Users/annakowalski/dev/app.py\", line 3",
            "annakowalski",
        ),
        (
            "Saved to C:\\Users\\JSmith\\Documents\\report.docx",
            "JSmith",
        ),
        (
            r#"{"path": "C:\\Users\\k.tanaka\\AppData\\x.log"}"#,
            "k.tanaka",
        ),
        ("cwd=/home/jdoe level=info", "jdoe"),
        ("ls ~jdoe/notes", "jdoe"),
    ],
    counter_examples: &[
        "open /home/ubuntu/app/config.yml: no such file",
        "C:\\Users\\Public\\Desktop",
        "C:\\Users\\All Users\\Start Menu",
        "/Users/Shared/data",
        "mount /srv/home/data",
        "see ~/notes and ~ 40 files",
        "/usr/share/dict/words",
    ],
    ..PatternSpec::BASE
};

/// Folders under `/home`, `/Users` or `C:\Users` that are no one's (the first word of
/// `Default User` and `All Users` too).
#[rustfmt::skip]
const SHARED_HOME_FOLDERS: &[&str] = &[
    "public", "shared", "default", "all", "guest", "localservice", "networkservice",
    "systemprofile",
];

fn home_directory_user(s: &str) -> bool {
    user_name(s)
        && !SHARED_HOME_FOLDERS
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
}

/// Whether `span` directly follows a home directory's folder (`/home/`, `/Users/`,
/// `\Users\`, doubled backslashes included), as [`HOME_DIRECTORY_USER`]'s spans do.
pub fn after_home_directory(text: &str, span: ByteSpan) -> bool {
    let Some(before) = text.get(..span.start) else {
        return false;
    };
    let folder = before.trim_end_matches(['/', '\\']);
    folder.len() < before.len() && (folder.ends_with("/home") || folder.ends_with("Users"))
}

/// A user name told in prose: "my login is maria.s", "her username is kate_m", "user
/// jdoe42 cannot log in". Only values shaped like an account (a digit, dot, underscore
/// or hyphen in them), and no version ("user v2.0"): after "my login is" a plain word is
/// as often how it is ("broken", "locked"), and a plain name is the model's to find.
pub(super) const CUED_USERNAME_PROSE: PatternSpec = PatternSpec {
    name: "cued_username_prose",
    label: "PERSON",
    regex: concat!(
        r"(?ix)\b(?: my | your | his | her | their | our )\s+(?:",
        user_name_cue!(),
        r#" | handle )\s+is\s+["'“]?"#,
        user_name_capture!(),
        r#"| \b(?: user(?:[\ _\-]?name)? | login )\s+["'“]?"#,
        user_name_capture!()
    ),
    group: 1,
    score: 0.8,
    validate: Some(account_shaped_user_name),
    negative_context: &[],
    examples: &[
        ("my login is maria.s and my pin is 4821", "maria.s"),
        ("Her username is kate_m.", "kate_m"),
        ("my user name is \"jdoe42\"", "jdoe42"),
        ("Ticket #48213: user jdoe42 cannot log in", "jdoe42"),
        ("sign in with username \"k.tanaka\" and", "k.tanaka"),
    ],
    counter_examples: &[
        "my login is broken since Monday",
        "my username is the same as before",
        "the login is maria.s",
        "upgrade user v2.0 accounts",
        "the user 42 left",
        "every user sees it",
    ],
    ..PatternSpec::BASE
};

/// Who is to act on a to-do in code, as Google's style names them: `// TODO(alice.wong):
/// …`, `# FIXME(jdoe42)`. An account names its owner as a handle does, so it is a PERSON.
/// Only an account-shaped value or a common given name: `TODO(perf)`, `TODO(cleanup)` and
/// `TODO(b/1234)` name a topic or a bug.
pub(super) const TODO_OWNER: PatternSpec = PatternSpec {
    name: "todo_owner",
    label: "PERSON",
    prefilter: Some(r"(?:TODO|FIXME|XXX|HACK)\("),
    regex: concat!(r"\b(?:TODO|FIXME|XXX|HACK)\(", user_name_capture!(), r"\)"),
    group: 1,
    score: 0.8,
    validate: Some(to_do_owner),
    negative_context: &[],
    examples: &[
        (
            "// TODO(alice.wong): remove the hard-coded key",
            "alice.wong",
        ),
        ("# FIXME(jdoe42) flaky on CI", "jdoe42"),
        ("/* TODO(priya): ask legal */", "priya"),
    ],
    counter_examples: &[
        "// TODO(perf): cache this",
        "// TODO(b/1234): drop after the migration",
        "# TODO(v2.0) remove",
        "// TODO(root)",
        "TODO(cleanup)",
    ],
    ..PatternSpec::BASE
};

fn to_do_owner(s: &str) -> bool {
    account_shaped_user_name(s) || is_given_name(&title_case(s))
}

fn account_shaped_user_name(s: &str) -> bool {
    let version = s
        .strip_prefix(['v', 'V'])
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    user_name(s)
        && !version
        && s.contains(|c: char| c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
}

fn user_name(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_alphabetic()) && !is_no_ones_account(s)
}

/// Words after `@` that are no one's handle: chat broadcasts, doc tags, CSS at-rules.
#[rustfmt::skip]
const NOT_HANDLES: &[&str] = &[
    "here", "channel", "everyone", "all", "param", "return", "returns", "throws", "see",
    "since", "deprecated", "author", "version", "todo", "media", "import", "keyframes",
    "font-face", "charset", "supports", "page", "namespace", "apply", "tailwind", "layer",
    "mixin", "include", "extend", "use", "forward", "each", "if", "else", "function",
];

fn handle(s: &str) -> bool {
    let name = s.trim_start_matches('@');
    !NOT_HANDLES.iter().any(|w| name.eq_ignore_ascii_case(w))
}

/// Words that open the line of code under a decorator or annotation.
#[rustfmt::skip]
const DECLARATIONS: &[&str] = &[
    "def", "async", "class", "public", "private", "protected", "internal", "static", "final",
    "abstract", "override", "fun", "func", "function", "export", "void", "var", "val", "let",
    "const", "suspend", "open", "interface", "enum", "struct", "record",
];

/// A handle is no decorator or annotation (alone on its line, above a declaration or
/// another one; or called), no npm scope, no key.
fn handle_surroundings(text: &str, span: ByteSpan) -> bool {
    let after = &text[span.end..];
    let line_before = text[..span.start].rsplit('\n').next().unwrap_or("");
    let mut lines_after = after.split('\n');
    let alone_on_line = line_before.trim().is_empty()
        && lines_after
            .next()
            .is_some_and(|rest| rest.trim().is_empty());
    let above_code = lines_after.next().map(str::trim_start).is_some_and(|next| {
        next.starts_with('@')
            || next
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .is_some_and(|word| DECLARATIONS.contains(&word))
    });
    // `"@timestamp":` in JSON, `@version=` in logfmt; "@john: please look" is chat.
    let key = after.starts_with('=')
        || after
            .strip_prefix('"')
            .is_some_and(|rest| rest.trim_start().starts_with(':'));
    !((alone_on_line && above_code) || after.starts_with(['(', '/']) || key)
}

/// A word an address spells out instead of its sign, bracketed or between spaces:
/// `[dot]`, `(at)`, `{dot}`, ` at `. A macro, so that the regex is one literal.
macro_rules! spelt {
    ($word:literal) => {
        concat!(
            r"(?:\s*[\[\(\{<]\s*",
            $word,
            r"\s*[\]\)\}>]\s*|\s+",
            $word,
            r"\s+)"
        )
    };
}

/// Obfuscated addresses: `john [at] example [dot] com`, `jane(at)mail.org`,
/// `bob at example dot com`, `dan dot miller at gmail dot com`. The validator wants at
/// least one bracketed or spelled-out `dot`, so "meet at home" stays clean.
pub(super) const EMAIL_OBFUSCATED: PatternSpec = PatternSpec {
    name: "email_obfuscated",
    label: "EMAIL_ADDRESS",
    regex: concat!(
        r"(?ix)
        \b[a-z0-9][a-z0-9._%+\-]*                       # local part, its dots spelt too
        (?:",
        spelt!("dot"),
        r"[a-z0-9][a-z0-9._%+\-]*)*",
        spelt!("at"),
        r"[a-z0-9][a-z0-9\-]*                             # first domain label
        (?:(?:",
        spelt!("dot"),
        r"|\.)[a-z0-9\-]+)*
        (?:",
        spelt!("dot"),
        r"|\.)
        (?:com|org|net|edu|gov|io|co|uk|de|fr|in|ca|au|br|info|biz|me|us|eu|nl|es|it|ch|se|jp)\b"
    ),
    score: 0.8,
    validate: Some(obfuscated_email),
    negative_context: &[],
    examples: &[
        (
            "mail john [at] example [dot] com now",
            "john [at] example [dot] com",
        ),
        ("contact: jane(at)mail.org", "jane(at)mail.org"),
        ("bob at example dot com", "bob at example dot com"),
        // the local part's dots spelt too: "dan" had stayed
        (
            "it's dan dot miller at gmail dot com",
            "dan dot miller at gmail dot com",
        ),
        (
            "jane [dot] doe [at] corp [dot] io",
            "jane [dot] doe [at] corp [dot] io",
        ),
    ],
    counter_examples: &["we met at home. com was down", "look at example.com"],
    ..PatternSpec::BASE
};

fn obfuscated_email(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    lower.contains("[at]")
        || lower.contains("(at)")
        || lower.contains("{at}")
        || lower.contains("<at>")
        || lower.contains(" dot ")
        || lower.contains("[dot]")
        || lower.contains("(dot)")
}

/// http(s) and www. URLs up to the first space or closing bracket/quote; trailing
/// sentence punctuation is left out. A grammar: the span is exact.
pub(super) const URL: PatternSpec = PatternSpec {
    name: "url",
    label: "URL",
    prefilter: Some(r"(?i)\b(?:https?://|www\.)"),
    regex: concat!(
        r#"(?xi)
        (?-u:\b)(?:https?://|www\.)
        # Host and port: no letter of a script written without spaces, so
        # 请访问https://example.com今天 ends at `com` …
        [^\s/?\#<>"'\])"#,
        glued_scripts!(),
        cjk_punctuation!(),
        emoji!(),
        r#"]* [^\s/?\#<>"'\]).,;:!?\\"#,
        glued_scripts!(),
        cjk_punctuation!(),
        emoji!(),
        r#"]
        # … while a path may be in any script (https://zh.wikipedia.org/wiki/北京); a
        # query or fragment needs more than its `?` or `#` ("see https://x.org?"). No
        # URL ends on a backslash: it escapes the quote after it (err="Post "http://…"").
        (?: / (?: [^\s<>"'\])"#,
        cjk_punctuation!(),
        emoji!(),
        r#"]* [^\s<>"'\]).,;:!?\\"#,
        cjk_punctuation!(),
        emoji!(),
        r#"] )?
          | [?\#] [^\s<>"'\])"#,
        cjk_punctuation!(),
        emoji!(),
        r#"]* [^\s<>"'\]).,;:!?\\"#,
        cjk_punctuation!(),
        emoji!(),
        r#"] )?"#
    ),
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "see https://example.com/a?b=1. ok",
            "https://example.com/a?b=1",
        ),
        ("请访问https://example.com今天", "https://example.com"),
        (
            "见https://zh.wikipedia.org/wiki/北京。",
            "https://zh.wikipedia.org/wiki/北京",
        ),
        ("(www.example.org/)", "www.example.org/"),
        ("see https://example.org? yes", "https://example.org"),
        ("https://example.org😀", "https://example.org"),
        (
            r#"err="Post \"http://alertmanager:9093/api/v2/alerts\": dial""#,
            "http://alertmanager:9093/api/v2/alerts",
        ),
    ],
    counter_examples: &["http is a protocol"],
    ..PatternSpec::BASE
};

/// A Git remote over SSH: scp-like `git@github.com:jdoe42/tool.git` and
/// `ssh://git@host:2222/owner/repo.git` (pip's `git+ssh://…`). Its path names the
/// repository's owner as an https link does, so it is a `URL` whole, as that link is; the
/// `user@host` in it is no e-mail. A login alone (`ssh git@github.com`) stays an e-mail.
pub(super) const GIT_REMOTE: PatternSpec = PatternSpec {
    name: "git_remote",
    label: "URL",
    prefilter: Some("@"),
    // Not inside another URL's authority: `redis://:pass@cache:6379/0` is a connection
    // string's.
    regex: r#"(?x)
        (?: ^ | [\s"'=(<] )
        ( (?: (?:git\+)? ssh:// )?
        [A-Za-z0-9._\-]+ @ [A-Za-z0-9\-]+ (?: \.[A-Za-z0-9\-]+ )+
        (?: : | (?-u:\b)(?: :\d{1,5} )? / )
        [A-Za-z0-9_~\-] (?: [A-Za-z0-9_.~\-]* [A-Za-z0-9_~\-] )?
        (?: / [A-Za-z0-9_~\-] (?: [A-Za-z0-9_.~\-]* [A-Za-z0-9_~\-] )? )+ )"#,
    group: 1,
    score: 0.9,
    proof: Proof::Grammar,
    examples: &[
        (
            "git clone git@github.com:jdoe42/private-repo.git fails",
            "git@github.com:jdoe42/private-repo.git",
        ),
        (
            "pip install git+ssh://git@github.com/jdoe42/tool.git.",
            "git+ssh://git@github.com/jdoe42/tool.git",
        ),
        (
            "remote: ssh://git@git.acme.io:2222/ana.ruiz/notes.git",
            "ssh://git@git.acme.io:2222/ana.ruiz/notes.git",
        ),
    ],
    counter_examples: &[
        "ssh git@github.com",
        "mail bob@example.com: thanks",
        "redis://:s3cr3tp4ss@cache.internal:6379/0",
        "postgres://app@db.internal:5432/crm",
    ],
    ..PatternSpec::BASE
};

/// A profile link written without its scheme (`instagram.com/maria.lopez88`,
/// `linkedin.com/in/ana-ruiz`, `github.com/jdoe42`): it names its owner as a handle does,
/// and [`URL`] wants `https://` or `www.` first. Only hosts whose paths are people.
pub(super) const SOCIAL_PROFILE_URL: PatternSpec = PatternSpec {
    name: "social_profile_url",
    label: "URL",
    regex: r"(?i)(?:^|[^\w./@\-])((?:twitter\.com|x\.com|instagram\.com|facebook\.com|fb\.com|linkedin\.com/in|github\.com|gitlab\.com|tiktok\.com|youtube\.com|reddit\.com/u(?:ser)?|medium\.com|threads\.net|bsky\.app/profile|t\.me)/@?[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_])?)",
    group: 1,
    score: 0.85,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        (
            "or instagram.com/maria.lopez88.",
            "instagram.com/maria.lopez88",
        ),
        ("see linkedin.com/in/ana-ruiz", "linkedin.com/in/ana-ruiz"),
        ("code at github.com/jdoe42 today", "github.com/jdoe42"),
        ("tiktok.com/@jdoe", "tiktok.com/@jdoe"),
    ],
    counter_examples: &["instagram.com is down", "box.com/jane", "visit x.com today"],
    ..PatternSpec::BASE
};

/// Words that make four dotted numbers a version, not an address. Only these: an
/// address beside a ticket, an order or an invoice is still the caller's address.
const NOT_AN_ADDRESS: &[&str] = &["version", "ver.", "build", "release", "firmware"];

pub(super) const IPV4: PatternSpec = PatternSpec {
    name: "ipv4",
    label: "IP_ADDRESS",
    regex: r"\b(?:\d{1,3}\.){3}\d{1,3}\b",
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(ip::ipv4),
    context: &["ip", "address", "host", "client", "server"],
    negative_context: NOT_AN_ADDRESS,
    examples: &[
        ("from 192.168.10.254 at noon", "192.168.10.254"),
        ("Ticket #48213: cannot log in from 10.0.4.17.", "10.0.4.17"),
    ],
    counter_examples: &[
        "version 999.1.2.3 released",
        "version 1.2.3.4 released",
        "firmware 2.1.0.7 installed",
    ],
    ..PatternSpec::BASE
};

/// Full and `::`-compressed IPv6; the validator rejects what the loose regex over-matches.
pub(super) const IPV6: PatternSpec = PatternSpec {
    name: "ipv6",
    label: "IP_ADDRESS",
    regex: r"(?i)(?:\b[0-9a-f]{1,4}|:)(?::[0-9a-f]{0,4}){1,7}(?:\b|:)",
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(ipv6),
    context: &["ip", "address", "host"],
    negative_context: NOT_AN_ADDRESS,
    examples: &[
        ("host 2001:db8::8a2e:370:7334 up", "2001:db8::8a2e:370:7334"),
        (
            "order #1182 placed from fe80::1c2a:7ff:fe3b:9a01",
            "fe80::1c2a:7ff:fe3b:9a01",
        ),
        ("loopback ::1 only", "::1"),
    ],
    counter_examples: &["at 12:30:45 we met", "ratio 10:20"],
    ..PatternSpec::BASE
};

/// A parseable IPv6 address that is not just a clock time (`12:30:45` parses as hex).
fn ipv6(s: &str) -> bool {
    ip::ipv6(s) && (s.contains("::") || s.matches(':').count() >= 4)
}

/// MAC-48: six hex pairs with `:` or `-`, or Cisco's `xxxx.xxxx.xxxx`.
pub(super) const MAC: PatternSpec = PatternSpec {
    name: "mac_address",
    label: "MAC_ADDRESS",
    regex: r"(?ix)
        \b[0-9a-f]{2}(?::[0-9a-f]{2}){5}\b
      | \b[0-9a-f]{2}(?:-[0-9a-f]{2}){5}\b
      | \b[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}\b",
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(mac),
    context: &["mac", "hardware", "ethernet", "wifi", "device", "adapter"],
    examples: &[
        ("device 00:1A:2B:3C:4D:5E joined", "00:1A:2B:3C:4D:5E"),
        ("mac 0a-1b-2c-3d-4e-5f", "0a-1b-2c-3d-4e-5f"),
    ],
    counter_examples: &["00:00:00:00:00:00 is the null address", "time 12:30"],
    ..PatternSpec::BASE
};

fn mac(s: &str) -> bool {
    let hex: Vec<u8> = s.bytes().filter(u8::is_ascii_hexdigit).collect();
    hex.iter().any(|c| *c != hex[0])
}

const DATE_NEGATIVE: &[&str] = &["version", "ver.", "release", "build"];

/// ISO 8601 dates and date-times: `2024-03-14`, `2024-03-14T09:30:00Z`.
pub(super) const DATE_ISO: PatternSpec = PatternSpec {
    name: "date_iso",
    label: "DATE_TIME",
    regex: r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+\-]\d{2}:?\d{2})?)?\b",
    score: 0.85,
    validate: Some(iso_date),
    negative_context: DATE_NEGATIVE,
    examples: &[
        ("born 1984-07-02 in Leeds", "1984-07-02"),
        ("at 2024-03-14T09:30:00Z", "2024-03-14T09:30:00Z"),
    ],
    counter_examples: &["part 2024-13-45"],
    ..PatternSpec::BASE
};

fn iso_date(s: &str) -> bool {
    structure::numeric_date(s.get(..10).unwrap_or(s))
}

/// US and European numeric dates: `03/14/2024`, `14.03.2024`, `3-4-24`, `03/04/24`.
pub(super) const DATE_NUMERIC: PatternSpec = PatternSpec {
    name: "date_numeric",
    label: "DATE_TIME",
    regex: r"\b\d{1,2}(?:/\d{1,2}/|\.\d{1,2}\.|-\d{1,2}-)(?:\d{4}|\d{2})\b",
    score: 0.7,
    validate: Some(structure::numeric_date),
    context: &[
        "dob", "date", "born", "birth", "on", "since", "until", "due",
    ],
    negative_context: DATE_NEGATIVE,
    examples: &[
        ("DOB: 03/14/1984", "03/14/1984"),
        ("am 14.03.2024 um", "14.03.2024"),
        ("signed 03/04/24", "03/04/24"),
    ],
    counter_examples: &["ratio 45/67/89", "version 1.2.34"],
    ..PatternSpec::BASE
};

/// Written dates: `3 March 2024`, `3rd of March, 2024`, `March 3rd, 2024`, `Mar. 3 2024`,
/// `July 2000`, `12 November`, `03-Jan-2091`, `2091-Jan-03`.
pub(super) const DATE_WRITTEN: PatternSpec = PatternSpec {
    name: "date_written",
    label: "DATE_TIME",
    // Built with the month list by hand: consts cannot be concatenated into a &str.
    regex: r"(?x)
        \b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?
           (?:January|February|March|April|May|June|July|August|September|October|November|December|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?
           (?:,?\s+\d{4})?
         | (?:January|February|March|April|May|June|July|August|September|October|November|December|JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?
           (?:\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|,?\s+\d{4})
         # dashed, as charts and forms print them: 03-Jan-2091, 14-MAR-24, 2091-Jan-03
         | \d{1,2}-(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-(?:\d{4}|\d{2})
         | \d{4}-(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)-\d{1,2}
        )\b",
    score: 0.8,
    validate: Some(written_date),
    // A date in words is unambiguous: "the 1994 version … On 30 January 1997" is a date.
    negative_context: &[],
    examples: &[
        ("on 3 March 2024 we", "3 March 2024"),
        ("on March 3rd, 2024 we", "March 3rd, 2024"),
        ("in July 2000 he", "July 2000"),
        ("the 3rd of March, 2024", "3rd of March, 2024"),
        ("On 12 November the Court", "12 November"),
        ("Seen on 03-Jan-2091 in clinic", "03-Jan-2091"),
        ("ADMITTED 14-MAR-24", "14-MAR-24"),
        ("born 03-Jan-91", "03-Jan-91"),
        ("Seen on 2091-Jan-03.", "2091-Jan-03"),
    ],
    counter_examples: &[
        "you may 2 go",
        "a march of 3000 people",
        "March 45 things",
        "sku 40-DEC-77",
    ],
    ..PatternSpec::BASE
};

fn written_date(s: &str) -> bool {
    // Day, if any, in 1..=31; a year, if any, in 1000..=2199; the dashed form's last part
    // may be a two-digit year (03-Jan-91).
    let parts: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .collect();
    let two_digit_year =
        s.contains('-') && parts.len() == 2 && parts[0].len() <= 2 && parts[1].len() == 2;
    parts
        .iter()
        .enumerate()
        .all(|(i, p)| match (p.len(), p.parse::<u32>()) {
            (2, Ok(_)) if two_digit_year && i == 1 => true,
            (1 | 2, Ok(d)) => (1..=31).contains(&d),
            (4, Ok(y)) => (1000..=2199).contains(&y),
            _ => false,
        })
}

/// A weekday in the European languages served, for the date and time patterns (`concat!`).
/// The set's `\b` is ASCII: none before a weekday that opens outside it (środa, çarşamba).
macro_rules! eu_weekday {
    () => {
        r"(?:\b(?i:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche
            |montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag
            |lunes|martes|miércoles|jueves|viernes|sábado|domingo
            |lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica
            |segunda(?:-feira)?|terça(?:-feira)?|quarta(?:-feira)?|quinta(?:-feira)?|sexta(?:-feira)?
            |maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag
            |poniedziałek|wtorek|czwartek|piątek|sobota|niedziela
            |måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag
            |pazartesi|salı|perşembe|cuma|cumartesi|pazar)
          | (?i:środa|çarşamba) )"
    };
}

/// The words before a time of day in the European languages served ("at": um, à, a las,
/// alle, om, às, o godz., kl., saat), for `concat!` inside a case-insensitive group. The
/// patterns put a space or a mark before them, not `\b`: the set's `\b` is ASCII, and
/// à, às and dès open outside it.
macro_rules! eu_at {
    () => {
        r"um|gegen|ab|à|às|dès|vers|a\s+las|a\s+la|alle|ore|om|o\s+godz\.|godz\.|kl\.?|klockan|saat"
    };
}

/// A time of day in digits as these languages write it: the hour with its minutes or its
/// unit (`17 Uhr`, `16 h 45`, `14h`, `16:30`, `10.00 uur`), for `concat!`.
macro_rules! eu_time {
    () => {
        r"(?:[01]?\d|2[0-3])(?:\s?[h:.]\s?[0-5]\d(?:\s?(?i:uhr|uur|h)\b)? | \s?(?i:uhr|uur|h)\b)"
    };
}

/// Dates in words in the European languages served, with the day and the month's name
/// (`3 avril 1985`, `3. März 1985`, `3 de abril de 1985`, `3 aprile 1985`, `1 października
/// 2024 r.`, `7 oktober 2025`, `12 Temmuz 2025`), and the weekday before them or the time
/// after them when written (`jeudi 17 avril à 16 h 45`, `Mittwoch, 14. Mai`, `28. Mai um
/// 17 Uhr`, `tisdag 7 oktober kl. 13.30`, `lunes 3 de marzo a las 12:00`). Without a year,
/// a weekday or a time the match is refused: some month names are words of other
/// languages ("3 mars", "4 mai", "2 mart"), and with one of them it is a date.
pub(super) const DATE_WRITTEN_EUROPEAN: PatternSpec = PatternSpec {
    name: "date_written_european",
    label: "DATE_TIME",
    regex: concat!(
        r"(?x)
        (?:",
        eu_weekday!(),
        r",?\s+(?:(?:le|el|den|il|o)\s+)?)?
        \b\d{1,2}(?:er|\.|º|°)?\s+(?:de\s+)?
        (?i:janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre
          |novembre|décembre|decembre
          |januar|jänner|februar|märz|maerz|april|juni|juli|august|september|oktober
          |dezember
          |enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre
          |noviembre|diciembre
          |gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre
          |janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro
          |januari|februari|maart|mei|augustus
          |maj|augusti|november|december
          |stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października
          |listopada|grudnia
          |ocak|şubat|mart|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|kasım|aralık)\b
        (?:\s+(?:de\s+|del\s+)?\d{4}\b(?:\s?r\.)?)?
        (?:,?\s+(?i:",
        eu_at!(),
        r")\s+(?:[01]?\d|2[0-3])(?:\s?[h:.]\s?[0-5]\d)?(?:\s?(?i:uhr|uur|h)\b)?)?"
    ),
    score: 0.8,
    validate: Some(european_date),
    negative_context: &[],
    examples: &[
        ("né le 3 avril 1985 à Lyon", "3 avril 1985"),
        ("geboren am 3. März 1985 in", "3. März 1985"),
        ("nació el 3 de abril de 1985", "3 de abril de 1985"),
        ("nata il 12 dicembre 1990", "12 dicembre 1990"),
        ("geboren op 1 mei 1979", "1 mei 1979"),
        ("le 1er août 2024", "1er août 2024"),
        (
            "rendez-vous jeudi 9 octobre à 9 h 30 au",
            "jeudi 9 octobre à 9 h 30",
        ),
        ("am Mittwoch, 4. Juni fahren wir", "Mittwoch, 4. Juni"),
        ("Übergabe am 12. Mai um 17 Uhr", "12. Mai um 17 Uhr"),
        (
            "umowa z dnia 3 października 2024 r. o godz. 9:00.",
            "3 października 2024 r. o godz. 9:00",
        ),
        (
            "Ankomst: lördag 6 december 2025, avresa",
            "lördag 6 december 2025",
        ),
        ("Giriş: 4 Ağustos 2025 / Çıkış", "4 Ağustos 2025"),
        (
            "zebranie w środę? nie: środa, 4 czerwca 2025",
            "środa, 4 czerwca 2025",
        ),
        (
            "el viernes 6 de junio a las 18:30 en",
            "viernes 6 de junio a las 18:30",
        ),
    ],
    counter_examples: &[
        "3 mars bars",
        "page 3 avril",
        "45 mai 2020",
        "2 mart",
        "vers 3 mai",
    ],
    ..PatternSpec::BASE
};

/// The day in 1..=31, the year, if any, in 1000..=2199, and a weekday, a year or a time
/// with it (the regex has checked the time's hours and minutes).
fn european_date(s: &str) -> bool {
    let weekday = s.starts_with(char::is_alphabetic);
    let mut numbers = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty());
    let day_ok = numbers
        .next()
        .and_then(|d| d.parse::<u32>().ok())
        .is_some_and(|d| (1..=31).contains(&d));
    let rest: Vec<&str> = numbers.collect();
    let year = rest.first().filter(|p| p.len() == 4);
    let year_ok = year.is_none_or(|y| y.parse::<u32>().is_ok_and(|y| (1000..=2199).contains(&y)));
    let time = rest.len() > usize::from(year.is_some());
    day_ok && year_ok && (weekday || year.is_some() || time)
}

/// A bare year (1800–2099) is a date only with support: "born in 1949", "since 2001".
pub(super) const DATE_YEAR: PatternSpec = PatternSpec {
    name: "date_year",
    label: "DATE_TIME",
    regex: r"\b(?:18|19|20)\d{2}\b",
    score: 0.3,
    context: &[
        "born", "birth", "in", "since", "until", "till", "year", "dob", "died", "during", "from",
        "between", "early", "late", "mid", "summer", "winter", "spring", "autumn", "by", "before",
        "after",
    ],
    negative_context: &[
        "version", "room", "bytes", "mb", "kb", "page", "pp.", "no.", "number",
    ],
    examples: &[("The applicant was born in 1949 and lives", "1949")],
    counter_examples: &["It costs 1949 dollars", "room 2001"],
    ..PatternSpec::BASE
};

/// Times of day: `14:05`, `9:30:59`, `9:30 pm`, `5pm`, `11 a.m.`.
pub(super) const TIME: PatternSpec = PatternSpec {
    name: "time",
    label: "DATE_TIME",
    regex: r"(?x)
        \b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s?(?:[AaPp]\.[Mm]\.|[AaPp]\.?[Mm]\b))?
      | \b(?:1[0-2]|0?[1-9])\s?(?:am|pm|AM|PM|a\.m\.|p\.m\.)",
    score: 0.6,
    validate: Some(time),
    negative_context: &["ratio", "score", "verse", "odds"],
    examples: &[
        ("meet at 14:05 sharp", "14:05"),
        ("at 9:30 pm today", "9:30 pm"),
        ("around 5pm", "5pm"),
        ("at 10:30 a.m. sharp", "10:30 a.m."),
        // A sentence's full stop after "AM" is no part of the time.
        ("on 08/01 at 10:30 AM. Phone", "10:30 AM"),
    ],
    counter_examples: &["the odds are 10:30 against", "25:61"],
    ..PatternSpec::BASE
};

/// A time of day as the European languages served write it after their "at" (`um 17
/// Uhr`, `à 16 h 45`, `vers 8 h 10`, `às 14h`, `alle 16:30`, `om 10.00 uur`, `kl. 13.30`,
/// `o godz. 8:20`, `saat 10:30`): the hour with its minutes or its unit. The word before
/// it says it is a time, not a count or a score; the span is the time itself.
pub(super) const TIME_EUROPEAN: PatternSpec = PatternSpec {
    name: "time_european",
    label: "DATE_TIME",
    regex: concat!(
        r"(?x)(?:^|[\s(,;])(?i:",
        eu_at!(),
        r")\s+(",
        eu_time!(),
        r")"
    ),
    group: 1,
    score: 0.6,
    negative_context: &["ratio", "score"],
    examples: &[
        ("am 11.02.2025 um 07:52 Uhr in", "07:52 Uhr"),
        ("survenu le 14/01/2025 vers 8 h 10, au", "8 h 10"),
        ("no dia 12/06, às 14h. O técnico", "14h"),
        ("dnia 05.06.2025 o godz. 8:20.", "8:20"),
        ("afspraak om 10.00 uur", "10.00 uur"),
        ("Incheckning från kl. 13.30", "13.30"),
    ],
    counter_examples: &["um 17 Minuten", "à 18 ans", "alle 3 del pomeriggio"],
    ..PatternSpec::BASE
};

/// A weekday or a day said in words with a time after its "at", as chats and reminders
/// write an appointment (`samedi soir vers 20h`, `Freitag um 9 Uhr`, `mañana a las
/// 10:30`, `w piątek o 19:00`, `sexta às 21h`, `imorgon kl. 13.30`): the whole of it is the
/// date and time, over the [`TIME_EUROPEAN`] inside it.
pub(super) const DAY_TIME_EUROPEAN: PatternSpec = PatternSpec {
    name: "day_time_european",
    label: "DATE_TIME",
    regex: concat!(
        r"(?x)(?:",
        eu_weekday!(),
        r"| \b(?i:heute|morgen|übermorgen|demain|après-demain|hoy|mañana|pasado\s+mañana|oggi
            |domani|dopodomani|vandaag|overmorgen|hoje|amanhã|dzisiaj|dziś|jutro|pojutrze
            |idag|imorgon|i\s+morgon|i\s+övermorgon|bugün|yarın) )
        (?:\s+(?i:soir|matin|après-midi|abend|früh|nachmittag|vormittag|por\s+la\s+(?:tarde|mañana|noche)
            |sera|mattina|pomeriggio|avond|ochtend|middag|à\s+noite|de\s+manhã|à\s+tarde
            |wieczorem|rano|po\s+południu|kväll|eftermiddag|förmiddag|akşam|sabah|öğleden\s+sonra))?
        ,?\s+(?i:",
        eu_at!(),
        r")\s+",
        eu_time!()
    ),
    score: 0.65,
    negative_context: &[],
    examples: &[
        (
            "on se fait un resto samedi soir vers 20h ?",
            "samedi soir vers 20h",
        ),
        ("Wir sehen uns Freitag um 9 Uhr im Büro", "Freitag um 9 Uhr"),
        ("te llamo mañana a las 10:30", "mañana a las 10:30"),
        ("a festa vai ser sexta às 21h!", "sexta às 21h"),
        ("Mötet är imorgon kl. 13.30.", "imorgon kl. 13.30"),
    ],
    counter_examples: &[
        "Freitag um die Ecke",
        "mañana a las tantas",
        "morgen um 12 Minuten",
    ],
    ..PatternSpec::BASE
};

fn time(s: &str) -> bool {
    !s.contains(':') || structure::time_of_day(s)
}

/// A number in words up to ninety-nine (`seventy-two`, `sixty three`, `nineteen`), for
/// ages and sums; a macro, so that each pattern can splice it into its one literal.
macro_rules! number_word {
    () => {
        r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)
          (?:[\s\-](?:one|two|three|four|five|six|seven|eight|nine))?
        | ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen
        | one|two|three|four|five|six|seven|eight|nine"
    };
}

/// An age's number, in digits or in words up to ninety-nine (a macro, so that both of
/// `AGE`'s forms can splice it into one literal).
macro_rules! age_number {
    () => {
        concat!(r"\d{1,3} | ", number_word!())
    };
}

/// Ages: `aged 42`, `age: 42`, `age of 42`, `Age 42y`, `his age is 42`, `42-year-old`,
/// `42 years old`, `42 yr old`, `7 mos old`, `42 yo`, and the same with the number in
/// words (`aged sixty three`, `a seventy-two-year-old man`), which judgments and dictated
/// notes use. Only the number is the entity, so "aged [AGE_1]" still reads.
pub(super) const AGE: PatternSpec = PatternSpec {
    name: "age",
    label: "AGE",
    regex: concat!(
        r"(?ix)
        \b(?:aged|age(?:\s+of)?|age:|age\s+(?:is|was))\s*(",
        age_number!(),
        r")(?:\s?(?:y|yrs?)\b|\b)
      | \b(",
        age_number!(),
        r")(?:[\s\-](?:years?|yrs?\.?|months?|mos?\.?)[\s\-]old|\s?yo\b|\s?y/o\b|\s?y\.o\.)
      # clinical shorthand: (29F), (81 M), a 45F, an 81M, 28M with; in capitals only,
      # since a 45 m drop is a length (a size such as 64M with a clinical word after it
      # would still read as an age)
      | \((\d{1,3})\s?[MF]\)
      | \ban?\s+(\d{1,3})\s?(?-i:[MF])\b
      | \b(\d{1,3})\s?(?-i:[MF])\s+(?:with|who|presenting|presents|admitted|s/p|w/|h/o|c/o)\b
      # and between commas after a name: Patient JOHN SMITH, 45M, MRN …
      | ,\ (\d{1,3})(?-i:[MF]),
      # an age by its decade, as notes and judgments give it: in her 80s, in his early
      # seventies, in their mid-30s (not in the 80s, a period)
      | \bin\s+(?:his|her|their|my|your)\s+(?:(?:early|mid|late)[\s\-])?
        (\d0s|\d0's|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties)\b
      # a relative's age as parents write it, and one's own: my daughter emma is 14, my
      # son turned 3, (he's 7), I'm 34; only where the number ends the thought (not my
      # son is 5 minutes away, she's 5 feet tall, I'm 2 hours late)
      | \b(?:(?:son|daughter|kid|child|boy|girl|brother|sister|baby|grandson|granddaughter
          |nephew|niece|mom|mum|mother|dad|father|grandma|grandmother|grandpa|grandfather
          |wife|husband)(?:\s+[a-z]+)?\s+(?:is|turns|turned|was|just\s+turned)
          | (?:he|she)(?:['’]s|\s+is|\s+was|\s+turns|\s+turned|\s+just\s+turned)
          | i(?:['’]m|\s+am|\s+turned|\s+just\s+turned))\s+(\d{1,2})
          (?:\s*(?:years?|yrs?|yo)\b|\s*[.,!?;:)]|\s+(?:and|but|now|today|so|with|in|on|this|next|last)\b|\s*$)"
    ),
    group: 1,
    score: 0.85,
    validate: Some(age),
    negative_context: &[],
    examples: &[
        ("a woman aged 42 said", "42"),
        ("the 42-year-old driver", "42"),
        ("Age: 42", "42"),
        ("he is 7 years old", "7"),
        ("Ms. Adeyemi (29F) doing well", "29"),
        ("Ms. Brown is a 45F with CAD", "45"),
        ("AN 81 M ADMITTED FOR SYNCOPE", "81"),
        ("Assessment: 28M with exertional syncope", "28"),
        ("Patient JOHN SMITH, 45M, MRN 00482913", "45"),
        ("81 Y/O M TRANSFERRED", "81"),
        ("Fifth, that his age is 49, he is of good character", "49"),
        ("The applicant, aged sixty three, would not", "sixty three"),
        ("A SEVENTY-TWO-YEAR-OLD MAN PRESENTED", "SEVENTY-TWO"),
        ("her son, aged nineteen, said", "nineteen"),
        ("my daughter emma is 14 and was diagnosed last year", "14"),
        ("My son just turned 3.", "3"),
        ("My son Jayden (he's 7) has asthma", "7"),
        ("I'm 34, married to Priya", "34"),
        ("I just turned 40 and", "40"),
        ("She turns 90 on March 3rd", "90"),
        ("my grandma turns 90 on Sunday", "90"),
        ("She is 42, and she lives alone", "42"),
        ("She is in her 80s and lives alone", "80s"),
        ("He is 65 yr old.", "65"),
        ("She is 7 mos old.", "7"),
        ("Age 65y. Sex M", "65"),
        ("a man in his early seventies", "seventies"),
        ("PT IS IN HER MID-40S", "40S"),
    ],
    counter_examples: &[
        "page 42",
        "the age of reason",
        "aged 400",
        "heated to 98F",
        "a 45 m drop",
        "a 400M budget",
        "heap 512M with 2 threads",
        "revenue rose to 45M, a record",
        "the age is unknown",
        "aged cheese",
        "a seventy-page report",
        "my son is 5 minutes away",
        "my mother was 3rd in line",
        "she's 5 feet tall",
        "I'm 5 minutes away",
        "I am 2 hours late",
        "I'm 50% sure",
        "he was 3rd in the race",
        "he is 2 hours late",
        "my daughter is 2nd in her class",
        "music in the 80s",
        "a 5 yr plan",
        "page 65y",
        "in her 85s",
    ],
    ..PatternSpec::BASE
};

/// A number in digits must be a human age (a decade's "s" aside); the regex admits only
/// number words up to 99.
fn age(s: &str) -> bool {
    let number = s.trim_end_matches(['s', 'S', '\'']);
    !s.starts_with(|c: char| c.is_ascii_digit()) || number.parse::<u32>().is_ok_and(|a| a <= 125)
}

/// English-speaking street addresses: an optional unit before (`Flat 4, 22 …`, `Unit
/// 12/45 …`, the Australian unit/number), number, capitalised street words, a street
/// type and direction, an optional unit after, city, state or province and ZIP or
/// postcode (US, Canadian, or Australian after its state: `Sydney NSW 2000`).
pub(super) const STREET_ADDRESS: PatternSpec = PatternSpec {
    name: "street_address",
    label: "ADDRESS",
    regex: r"(?x)
        \b(?:(?i:unit|apt|apartment|flat|suite|shop|level)\.?\s*\d{1,5}[A-Za-z]?
            (?:,\s*|\s*/\s*|\s+))?                              # unit before
        (?:\d{1,5}[A-Za-z]?/)?\d{1,6}[A-Za-z]?\s+               # (unit/) building number
        (?:(?:[NSEW]\.?|North|South|East|West)\s+)?
        (?:[A-Z][a-z]+\.?\s+){1,4}                              # street name words
        (?:(?:Street|Avenue|Road|Boulevard|Lane|Drive|Court|Place|Way|Terrace|Circle
          |Parkway|Highway|Square|Crescent|Close|Gardens|Grove|Mews|Row|Walk|Hill)\b
          |(?:St|Ave|Rd|Blvd|Ln|Dr|Ct|Pl|Ter|Cir|Pkwy|Hwy|Sq)\b\.?)  # a full stop only abbreviates
        (?:\s(?:NE|NW|SE|SW|N|S|E|W)\b)?                        # direction
        (?:,?\s+(?:Apt|Apartment|Suite|Ste|Unit|Flat|\#)\.?\s*[A-Za-z0-9\-]+)?  # unit
        (?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)?                 # city
        (?:,?\s+(?:(?:NSW|VIC|QLD|TAS|ACT|SA|WA|NT)\s\d{4}\b|[A-Z]{2}\b))?  # state
        (?:,?\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)\b)?  # ZIP, Canadian code",
    score: 0.8,
    negative_context: &[
        "chapter", "page", "section", "step", "part", "volume", "top",
    ],
    examples: &[
        (
            "ship to 1600 Pennsylvania Avenue, Washington, DC 20500 please",
            "1600 Pennsylvania Avenue, Washington, DC 20500",
        ),
        (
            "lives at 221B Baker Street, London",
            "221B Baker Street, London",
        ),
        ("at 42 Oak St. Apt 5 now", "42 Oak St. Apt 5"),
        (
            "My flat is at 221 Baker Street. It is nice.",
            "221 Baker Street",
        ),
        (
            "send it to Flat 4, 22 Baker Street, London",
            "Flat 4, 22 Baker Street, London",
        ),
        (
            "Unit 12/45 George St, Sydney NSW 2000 is mine",
            "Unit 12/45 George St, Sydney NSW 2000",
        ),
        (
            "at 3/17 Smith Street, Fitzroy VIC 3065.",
            "3/17 Smith Street, Fitzroy VIC 3065",
        ),
        (
            "to 123 Queen St W, Toronto, ON M5V 2T6 by",
            "123 Queen St W, Toronto, ON M5V 2T6",
        ),
        (
            "1200 Pine St, Seattle, WA 98101",
            "1200 Pine St, Seattle, WA 98101",
        ),
    ],
    counter_examples: &[
        "Top 10 Things To Do",
        "see chapter 3 Main Road ahead",
        "Unit 3 of the course",
    ],
    ..PatternSpec::BASE
};

/// None: orders and tickets say where they go ("order #88231 never arrived at ul.
/// Marszałkowska 84"), so the default negative words are no evidence against a street
/// with its type word and number.
const CONTINENTAL_ADDRESS_NEGATIVE_CONTEXT: &[&str] = &[];

/// A postcode and town after a continental street, optional: `, 75002 Paris`,
/// `, D-10115 Berlin`, `, 1010 Wien`, `, 00-514 Warszawa`, `, 1100-053 Lisboa`,
/// `, 114 55 Stockholm`. A town's words stay on its line: the next line's first word is
/// a speaker or a field ("Paris\nAgent: …").
macro_rules! eu_postcode_town {
    () => {
        r"(?:,?\s+(?:(?:[A-Z]{1,2}-)?\d{4,5}|\d{2}-\d{3}|\d{4}-\d{3}|\d{3}\s\d{2})\s+\p{Lu}[\p{L}'’\-]*(?:[\x20\-]\p{Lu}[\p{L}'’\-]*){0,2})?"
    };
}

/// Street types, each list the one home of both its pattern and that pattern's prefilter
/// (the patterns' letter classes would overflow the pattern set's lazy DFA, so the set
/// looks for the street type alone).
macro_rules! fr_street_types {
    () => {
        r"(?i:rue|avenue|av\.|boulevard|bd|place|chemin|allée|impasse|quai|route|cours|square)"
    };
}
macro_rules! south_street_types {
    () => {
        r"(?:Calle|C/|Avenida|Avda\.|Plaza|Paseo|Camino|Carrer|Via|Viale|Piazza|Corso|Largo|Rua|Travessa|Praça|ul\.|[Uu]lica|[Aa]leja|[Pp]lac)"
    };
}
/// German, Dutch and Nordic ones, lower-case: they end a street's one word
/// (`Hauptstraße`).
macro_rules! north_street_types {
    () => {
        r"(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer|chaussee|straat|laan|gracht|plein|kade|vej|gatan|gata|vägen|veien)"
    };
}

/// French and Belgian streets, number first: `12 rue de la Paix, 75002 Paris`, `3 bis
/// avenue Foch`, `8, place d'Italie`. Before, the model took "de la Paix, 75002 Paris"
/// and left the house number in the clear.
pub(super) const STREET_ADDRESS_FR: PatternSpec = PatternSpec {
    name: "street_address_fr",
    label: "ADDRESS",
    prefilter: Some(concat!(fr_street_types!(), r"\s")),
    regex: concat!(
        r"\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+",
        fr_street_types!(),
        r"\s+",
        r"(?:(?:de|du|des|la|le|les)\s+|[ld]['’])*\p{Lu}[\p{L}'’\-]*",
        r"(?:[\x20\t]+(?:(?:de|du|des|la|le|les|et)\s+|[ld]['’])*\p{Lu}[\p{L}'’\-]*){0,3}",
        eu_postcode_town!()
    ),
    score: 0.75,
    negative_context: CONTINENTAL_ADDRESS_NEGATIVE_CONTEXT,
    examples: &[
        (
            "j'habite 12 rue de la Paix, 75002 Paris.",
            "12 rue de la Paix, 75002 Paris",
        ),
        ("au 3 bis avenue Foch", "3 bis avenue Foch"),
        ("8, place d'Italie", "8, place d'Italie"),
        (
            "im at 22 rue des Lilas, 75011 Paris\nAgent: Sorry",
            "22 rue des Lilas, 75011 Paris",
        ),
        ("au 4 rue Lepic\nMerci", "4 rue Lepic"),
    ],
    counter_examples: &["la rue est calme", "12 rue", "3 places left"],
    ..PatternSpec::BASE
};

/// Spanish, Italian, Portuguese and Polish streets, number after the name: `Calle Mayor
/// 3, 28013 Madrid`, `Via Roma 10`, `Rua das Flores, 25`, `ul. Marszałkowska 84/92`. The
/// street word is capitalised but for Polish `ul.`: "via" in English is a preposition.
/// Polish `al.` is left out ("et al. Nature 2019").
pub(super) const STREET_ADDRESS_SOUTH: PatternSpec = PatternSpec {
    name: "street_address_south",
    label: "ADDRESS",
    prefilter: Some(concat!(south_street_types!(), r"\s")),
    regex: concat!(
        r"\b",
        south_street_types!(),
        r"\s+",
        r"(?:(?:de|del|la|las|los|di|della|delle|dei|do|da|dos|das)\s+)*\p{Lu}[\p{L}'’\-]*",
        r"(?:[\x20\t]+(?:(?:de|del|la|las|los|di|della|do|da|dos|das)\s+)*\p{Lu}[\p{L}'’\-]*){0,3}",
        r",?\s+(?:n[º°o]\.?\s*)?\d{1,4}[A-Za-z]?(?:/\d{1,4}[A-Za-z]?)?\b",
        // a Spanish floor and door: 3º B, 2º izq., 1º 2ª
        r"(?:,?\s+\d{1,2}[º°ª]\s?(?:[A-Z]\b|\d{1,2}[ºª]|izq(?:uierda|\.)?|dcha\.?|derecha)?)?",
        eu_postcode_town!()
    ),
    score: 0.75,
    negative_context: CONTINENTAL_ADDRESS_NEGATIVE_CONTEXT,
    examples: &[
        (
            "vivo en Calle Mayor 3, 28013 Madrid.",
            "Calle Mayor 3, 28013 Madrid",
        ),
        (
            "vivo en la Calle Mayor 15, 3º B, 28013 Madrid.",
            "Calle Mayor 15, 3º B, 28013 Madrid",
        ),
        (
            "Avenida de la Paz 7, 2º izq.",
            "Avenida de la Paz 7, 2º izq.",
        ),
        ("abito in Via Roma 10", "Via Roma 10"),
        (
            "Via Roma 10, 00184 Roma\nCliente: grazie",
            "Via Roma 10, 00184 Roma",
        ),
        ("Rua das Flores, 25", "Rua das Flores, 25"),
        (
            "moro na Rua Augusta 20, 1100-053 Lisboa.",
            "Rua Augusta 20, 1100-053 Lisboa",
        ),
        (
            "order #88231 never arrived at ul. Marszałkowska 84/92, 00-514 Warszawa.",
            "ul. Marszałkowska 84/92, 00-514 Warszawa",
        ),
    ],
    counter_examples: &[
        "sent via Slack 2 times",
        "Plaza 2",
        "Jones et al. Nature 2019",
    ],
    ..PatternSpec::BASE
};

/// German, Dutch and Nordic streets, one word ending in its street type, number after:
/// `Hauptstraße 5, 10115 Berlin`, `Kerkstraat 12`, `Berliner Allee 7a`, `Storgatan 3`.
/// Types that end English words ("ring": "Spring 2024", "gade": "Brigade 5") are left out.
pub(super) const STREET_ADDRESS_NORTH: PatternSpec = PatternSpec {
    name: "street_address_north",
    label: "ADDRESS",
    prefilter: Some(concat!("(?i)", north_street_types!(), r"\s+\d")),
    regex: concat!(
        r"(?:\p{Lu}[\p{L}\-]*",
        north_street_types!(),
        r"|\p{Lu}[\p{L}\-]*[\s\-](?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee|Damm|Ufer))",
        r"\s+\d{1,4}[a-zA-Z]?\b",
        eu_postcode_town!()
    ),
    score: 0.75,
    negative_context: CONTINENTAL_ADDRESS_NEGATIVE_CONTEXT,
    examples: &[
        (
            "wohne in der Hauptstraße 5, 10115 Berlin.",
            "Hauptstraße 5, 10115 Berlin",
        ),
        ("Kerkstraat 12", "Kerkstraat 12"),
        ("an der Berliner Allee 7a", "Berliner Allee 7a"),
        (
            "Storgatan 3, 111 22 Stockholm",
            "Storgatan 3, 111 22 Stockholm",
        ),
    ],
    counter_examples: &["Spring 2024", "the Brigade 5", "weg 5"],
    ..PatternSpec::BASE
};

/// Turkish streets with their door number: `Bağdat Caddesi No:45`, `Atatürk Bulvarı No. 12/3`,
/// `Gül Sokak No:7 D:5`. The number is required: a street's name alone is also a famous
/// place ("Bağdat Caddesi" is a shopping street).
pub(super) const STREET_ADDRESS_TR: PatternSpec = PatternSpec {
    name: "street_address_tr",
    label: "ADDRESS",
    prefilter: Some(r"(?i)(?:caddesi|cad\.|sokak|sokağı|sok\.|sk\.|bulvarı|blv\.)\s*,?\s*no"),
    regex: r"(?x)
        \p{Lu}\p{L}*(?:\s\p{Lu}\p{L}*)?\s
        (?:Caddesi|Cad\.|Sokak|Sokağı|Sok\.|Sk\.|Bulvarı|Blv\.)
        \s*,?\s*No\s*[:.]?\s*\d{1,4}[A-Za-z]?(?:/\d{1,3})?\b
        (?:\s*(?:D|Daire)\s*[:.]?\s*\d{1,3}\b)?",
    score: 0.8,
    negative_context: &[],
    examples: &[
        (
            "adresim Bağdat Caddesi No:45 Kadıköy",
            "Bağdat Caddesi No:45",
        ),
        (
            "Atatürk Bulvarı No. 12/3 önünde",
            "Atatürk Bulvarı No. 12/3",
        ),
        ("Gül Sokak No:7 D:5", "Gül Sokak No:7 D:5"),
    ],
    counter_examples: &["Bağdat Caddesi çok kalabalık", "Sokak No"],
    ..PatternSpec::BASE
};

/// Post-office boxes: `PO Box 123`, `P.O. Box 4471`, `Post Office Box 9`, `Postfach 10 20 30`,
/// with the city, state and ZIP that follow in the US form. A box number is where
/// someone's mail goes, as a street address is.
pub(super) const PO_BOX: PatternSpec = PatternSpec {
    name: "po_box",
    label: "ADDRESS",
    regex: r"(?x)
        \b(?:P\.?\s?O\.?\s?Box|Post\s+Office\s+Box|Postfach)\s+\d{1,6}(?:\s\d{2}){0,2}\b
        (?:,\s*[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)?                 # city
        (?:,?\s+[A-Z]{2}\b)?                                    # state
        (?:,?\s+\d{5}(?:-\d{4})?\b)?                            # ZIP",
    score: 0.8,
    negative_context: &[],
    examples: &[
        (
            "or PO Box 123, Springfield, IL 62704.",
            "PO Box 123, Springfield, IL 62704",
        ),
        ("write to P.O. Box 4471 today", "P.O. Box 4471"),
        ("an die Postfach 10 20 30 in Berlin", "Postfach 10 20 30"),
    ],
    counter_examples: &["a box of 12 apples", "the PO was 123 units"],
    ..PatternSpec::BASE
};

/// A US city, state and ZIP code (`Springfield, IL 62704`, `Austin, TX 78701-1234`):
/// the tail of an address whose street the text does not give, or gives in a form the
/// street pattern does not know. The state's postal code is checked against `engine::regions`.
pub(super) const US_CITY_STATE_ZIP: PatternSpec = PatternSpec {
    name: "us_city_state_zip",
    label: "ADDRESS",
    regex: r"(?x)
        \b[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2},\s[A-Z]{2}\s\d{5}(?:-\d{4})?\b",
    score: 0.75,
    validate: Some(us_state_before_zip),
    negative_context: &[],
    examples: &[
        ("Springfield, IL 62704", "Springfield, IL 62704"),
        (
            "lives in Austin, TX 78701-1234 now",
            "Austin, TX 78701-1234",
        ),
    ],
    counter_examples: &["Version, AB 12345", "Totals, OK 1234", "Reading, UK 12345"],
    ..PatternSpec::BASE
};

/// Whether the two capitals before a city-state-ZIP's code are a US state's.
fn us_state_before_zip(found: &str) -> bool {
    found
        .split_whitespace()
        .nth_back(1)
        .is_some_and(crate::engine::regions::is_us_state)
}

/// A postal code after its cue, of any country (`my zip is 94107`, `ZIP code:
/// 94107-1234`, `postal code K1A 0B1`, `código postal 28013`, `CAP 20121`, `postnummer
/// 114 55`): alone a postcode still narrows down where someone lives (HIPAA Safe Harbor
/// lists ZIP codes), and four or five digits alone are anything, so the cue is required
/// and fixes the span. A bare "zip" needs "is" or a colon ("zip 1000 files"); Italy's
/// CAP is written in capitals ("a cap of 2000"). German PLZ are `DE_PLZ`'s.
pub(super) const CUED_POSTAL_CODE: PatternSpec = PatternSpec {
    name: "cued_postal_code",
    label: "ADDRESS",
    regex: concat!(
        r"(?ix)
        (?: \b(?: zip\s*code | postal\s*code | post\s*code | postcode | code\s+postal
              | c[óo]digo\s+postal | codice\s+postale | (?-i:CAP) | postnummer | postinumero
              | kod\s+pocztowy )",
        copula!(),
        r"
          | \bzip(?:\s+is|\s*:) )
        \s*[:\#]?\s*
        ( \d{4}\s?(?-i:[A-Z]{2})                 # Netherlands: 1012 AB
        | (?-i:[A-Z]\d[A-Z])\s?\d(?-i:[A-Z])\d   # Canada: K1A 0B1
        | \d{2,6}(?:[\s\-]\d{2,4})? )\b          # 94107, 94107-1234, 114 55, 00-950"
    ),
    group: 1,
    score: 0.8,
    proof: Proof::Grammar,
    validate: Some(postal_code),
    negative_context: &[],
    examples: &[
        ("Customer: sure, and my zip is 94107", "94107"),
        ("ZIP code: 94107-1234", "94107-1234"),
        ("postal code K1A 0B1, Ottawa", "K1A 0B1"),
        ("código postal 28013", "28013"),
        ("CAP 20121 Milano", "20121"),
        ("postnummer 114 55", "114 55"),
        ("postcode 1012 AB", "1012 AB"),
    ],
    counter_examples: &["zip 1000 files", "a cap of 2000", "zip code 12", "zip: v2"],
    ..PatternSpec::BASE
};

/// Four to nine digits: no country's postal code has fewer or more.
fn postal_code(s: &str) -> bool {
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    s.bytes().any(|b| b.is_ascii_alphabetic()) || (4..=9).contains(&digits)
}

/// UK postcodes (BS 7666): `SW1A 2AA`, `M1 1AE`, `EC1A 1BB`.
pub(super) const UK_POSTCODE: PatternSpec = PatternSpec {
    name: "uk_postcode",
    label: "UK_POSTCODE",
    regex: r"\b(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?|GIR)\s?\d[ABD-HJLNP-UW-Z]{2}\b",
    score: 0.65,
    context: &["postcode", "post code", "address", "london", "uk"],
    negative_context: &[],
    examples: &[
        ("postcode SW1A 2AA, UK", "SW1A 2AA"),
        ("send it to M1 1AE today", "M1 1AE"),
    ],
    counter_examples: &["B2B SaaS", "A4 paper", "model X5 2CV"],
    ..PatternSpec::BASE
};

/// RFC 4122 UUIDs (off by default: usually machine ids, not personal).
pub(super) const UUID: PatternSpec = PatternSpec {
    name: "uuid",
    label: "UUID",
    regex: r"(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    score: 0.9,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[(
        "id 123e4567-e89b-12d3-a456-426614174000 ok",
        "123e4567-e89b-12d3-a456-426614174000",
    )],
    counter_examples: &["123e4567-e89b-12d3-a456"],
    ..PatternSpec::BASE
};

/// Court, application and file numbers: `no. 28045/02`, `Case 1520/06`. Bare
/// `digits/yy` is too common (fractions, dates), so it needs context.
pub(super) const CASE_NUMBER: PatternSpec = PatternSpec {
    name: "case_number",
    label: "CASE_NUMBER",
    regex: r"\b\d{1,6}/\d{2}(?:\d{2})?\b",
    score: 0.3,
    context: &[
        "no.",
        "nos.",
        "no",
        "application",
        "applications",
        "case",
        "cases",
        "file",
        "docket",
        "ref.",
        "reference",
        "judgment",
        "appeal",
        "and",
    ],
    negative_context: &["page", "ratio"],
    examples: &[("an application (no. 28045/02) against", "28045/02")],
    counter_examples: &["a ratio of 3/4", "scored 45/50 points"],
    ..PatternSpec::BASE
};

/// Vehicle identification numbers (ISO 3779), check digit enforced for North America.
pub(super) const VIN: PatternSpec = PatternSpec {
    name: "vin",
    label: "VIN",
    regex: r"\b[A-HJ-NPR-Z0-9]{17}\b",
    score: 0.6,
    validate: Some(crate::engine::validators::vin::vin),
    proof: Proof::Checksum,
    context: &["vin", "vehicle", "chassis", "car", "registration"],
    examples: &[("VIN 1M8GDM9AXKP042788", "1M8GDM9AXKP042788")],
    counter_examples: &["1M8GDM9A1KP042788", "ABCDEFGHJKLMNPRST"],
    ..PatternSpec::BASE
};

/// Durations: `14 years`, `three months`, `42 days`. Quasi-identifiers in judgments and
/// medical notes ("sentenced to ten years"), noise elsewhere, so they need context; an
/// age ("42 years old") is not a duration.
pub(super) const DURATION: PatternSpec = PatternSpec {
    name: "duration",
    label: "DATE_TIME",
    regex: r"(?x)
        \b(?:\d{1,3}|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve
          |fifteen|eighteen|twenty|thirty|forty|fifty|sixty|several))
        [\s\-](?:years?|months?|weeks?|days?|hours?)\b",
    score: 0.35,
    context: &[
        "for",
        "after",
        "within",
        "period",
        "sentenced",
        "sentence",
        "lasted",
        "ago",
        "spent",
        "served",
        "during",
        "detention",
        "prison",
        "imprisonment",
        "over",
        "lasting",
    ],
    negative_context: &["old", "aged", "age", "per", "every"],
    examples: &[
        ("he was sentenced to ten years in prison", "ten years"),
        ("detained for 42 days", "42 days"),
    ],
    counter_examples: &["the 14 years old boy", "some days are good"],
    ..PatternSpec::BASE
};

/// Currency names after an amount, with up to two words naming the country or issue
/// before them (`Swedish kronor`, `New Turkish liras`, `GDR marks`), a spelled currency
/// code, or both (`pounds sterling (GBP)`). A macro, so that the amounts in digits and in
/// words can splice it.
macro_rules! currency_after {
    () => {
        r"(?:(?:[A-Z][a-z]+\s){0,2}(?i:pounds?|euros?|dollars?|francs?|kronor|kroner|krona
            |liras?|lire|rupees?|yen|roubles?|rubles?|zlotys?|schillings?|forints?|korunas?
            |lei|leva|hryvnias?|dinars?|pesos?|shekels?|drachmas?|escudos?|pesetas?
            |guilders?|deutsche?\s?marks?)(?:\ssterling)?
            |[A-Z][A-Za-z]+\s[Mm]arks?
            |GBP|USD|EUR|CHF|SEK|TRY|TRL|YTL|PLN|ATS|DEM
            |€|£|zł|Kč)
          (?:\s\([A-Z]{3}\))?"
    };
}

/// An amount in Indian grouping (`18,50,000`: lakhs and crores), tried before the
/// thousands grouping, which would stop at `18,50`. A macro, so that both amount forms
/// of [`MONEY`] can splice it.
macro_rules! indian_grouping {
    () => {
        r"\d{1,2}(?:,\d{2})+,\d{3}"
    };
}

/// Sums of money with a currency: `GBP 268,000`, `€1,800`, `$12.50`, `292 euros`,
/// `250,000 Swedish kronor`, `4,393 pounds sterling (GBP)`, `five hundred euros`. On by
/// default: what someone earned, paid or was awarded is a fact about them (court
/// judgments mask it), and the proxy restores it in the answer, so a prompt loses little
/// by the placeholder.
pub(super) const MONEY: PatternSpec = PatternSpec {
    name: "money",
    label: "MONEY",
    regex: concat!(
        r"(?x)
        (?:\b(?:approximately|about|around|some|over)\s)?
        (?:\b(?:GBP|USD|EUR|CHF|SEK|NOK|DKK|ISK|TRY|TRL|YTL|JPY|CNY|INR|AUD|CAD|NZD|PLN|RUB|UAH
          |CZK|HUF|RON|BGN|HRK|ATS|DEM|FRF|ITL|ESP|NLG|BEF|FIM|GRD|IEP|PTE|ZAR|BRL|MXN|ILS)\s?
          |[$€£¥₹])
          (?:",
        indian_grouping!(),
        r"|\d{1,3}(?:[,.\s]\d{3})*)
          (?:[.,]\d{1,2})?(?:\s?(?:million|billion|m|bn|k|mln|MLN|bln|BLN|lakh|crore))?\b
      | (?:\b(?:approximately|about|around|some|over)\s)?
        \b(?:",
        indian_grouping!(),
        r"|\d{1,3}(?:[,.]\d{3})*)(?:[.,]\d{1,2})?
        (?:\s(?:million|billion|lakh|crore))?\s",
        currency_after!(),
        r"
      # in words, as judgments write sums: five hundred euros, twenty-five thousand kronor
      | \b(?i:a\s+hundred|a\s+thousand|",
        number_word!(),
        r")(?:(?:[\s\-]|\sand\s)(?i:hundred|thousand|million|billion|",
        number_word!(),
        r")){0,6}\s",
        currency_after!()
    ),
    score: 0.8,
    validate: Some(money),
    negative_context: &[],
    examples: &[
        ("awarded GBP 268,000 in damages", "GBP 268,000"),
        ("paid 250,000 Swedish kronor to", "250,000 Swedish kronor"),
        (
            "a fine of 4,393 pounds sterling (GBP) was",
            "4,393 pounds sterling (GBP)",
        ),
        ("it cost $12.50", "$12.50"),
        ("expects €65k, reachable at", "€65k"),
        ("Bitte überweisen Sie 1.250,00 € an", "1.250,00 €"),
        ("salary INR 18,50,000 a year", "INR 18,50,000"),
        ("a loan of ₹1,20,00,000", "₹1,20,00,000"),
        (
            "a fine of 1,500 Austrian schillings",
            "1,500 Austrian schillings",
        ),
        ("he received 588 GDR marks a month", "588 GDR marks"),
        ("costs of ATS 10,000 were", "ATS 10,000"),
        ("a loan of $1.5 million", "$1.5 million"),
        ("a deficit of 1.4 billion lei", "1.4 billion lei"),
        ("H1 PROFIT FIM 6.3 MLN VS 21.0 MLN", "FIM 6.3 MLN"),
        (
            "awarded 1,579 New Turkish liras (YTL) in damages",
            "1,579 New Turkish liras (YTL)",
        ),
        (
            "pay 33,658 Austrian Schillings (ATS)",
            "33,658 Austrian Schillings (ATS)",
        ),
        ("paid 2,000 Deutschmarks and", "2,000 Deutschmarks"),
        ("She claimed five hundred euros and", "five hundred euros"),
        (
            "twenty-five thousand Swedish kronor",
            "twenty-five thousand Swedish kronor",
        ),
    ],
    counter_examples: &[
        "we had 3 pounds of apples",
        "the US dollar fell",
        "she scored 80 marks",
        "page 3 Marks the spot",
        "Cr 1.2, INR 1.1. Hx of CHF",
        "two pounds of flour",
        "one of the euros",
        "five Swedish schools",
    ],
    ..PatternSpec::BASE
};

/// "3 pounds" is more often a weight: plain pounds need "sterling" or a currency code.
/// One decimal digit without a scale word is a measurement, not a sum ("INR 1.1", the
/// clotting ratio; sums are "$9.50" or "$1.5 million").
fn money(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let weight = lower.contains("pound") && !lower.contains("sterling") && !lower.contains("gbp");
    let scaled = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| matches!(w, "million" | "billion" | "bn" | "m" | "k" | "mln" | "bln"));
    let one_decimal = lower
        .split(|c: char| !c.is_ascii_digit() && c != '.' && c != ',')
        .filter(|n| n.chars().any(|c| c.is_ascii_digit()))
        .any(|n| {
            let n = n.trim_end_matches(['.', ',']);
            n.len() >= 2 && matches!(n.as_bytes()[n.len() - 2], b'.' | b',')
        });
    !weight && (scaled || !one_decimal)
}

/// Lists of three or more application numbers (`nos. 26480/95, 28291/95, 29280/95`): the
/// list is the context, however far the list runs from its "nos."; each number is its
/// own entity.
pub(super) const CASE_NUMBER_LIST: PatternSpec = PatternSpec {
    name: "case_number_list",
    label: "CASE_NUMBER",
    regex: r"\b\d{3,6}/\d{2}(?:,\s?\d{3,6}/\d{2}){2,}\b",
    items: Some(r"\d{3,6}/\d{2}"),
    score: 0.6,
    negative_context: &[],
    examples: &[
        (
            "applications nos. 26480/95, 28291/95, 29280/95 and",
            "26480/95",
        ),
        (
            "applications nos. 26480/95, 28291/95, 29280/95 and",
            "29280/95",
        ),
    ],
    counter_examples: &["ratios 1/2, 3/4, 5/6 apply", "two: 26480/95, 28291/95"],
    ..PatternSpec::BASE
};

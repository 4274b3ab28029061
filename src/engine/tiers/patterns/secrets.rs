//! Credentials: vendor API keys (by their documented prefixes), JWTs, PEM private keys,
//! password assignments and credentials in connection URLs. For assignments only the
//! value is the entity, so `password: [PASSWORD_1]` keeps its key.

use crate::engine::validators::structure;
use crate::engine::{PatternSpec, Proof};

/// Vendor keys with fixed prefixes: AWS access key ids, GitHub, GitLab, Slack, Stripe,
/// Google API keys, OpenAI and Anthropic keys.
pub(super) const API_KEY_VENDOR: PatternSpec = PatternSpec {
    name: "api_key_vendor",
    label: "API_KEY",
    regex: r"(?x)
        \b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b             # AWS access key id
      | \bgh[pousr]_[A-Za-z0-9]{36,255}\b                   # GitHub tokens
      | \bgithub_pat_[A-Za-z0-9_]{22,255}\b                 # GitHub fine-grained
      | \bglpat-[A-Za-z0-9_\-]{20,}                         # GitLab PAT
      | \bxox[abposr]-[A-Za-z0-9\-]{10,}                    # Slack
      | \b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b            # Stripe secret/restricted
      | \bAIza[0-9A-Za-z_\-]{35}                            # Google API key
      | \bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_\-]{20,}     # Anthropic
      | \bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}  # OpenAI",
    score: 0.95,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("key AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
        (
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ),
        (
            "GITLAB=glpat-abcdefghij0123456789",
            "glpat-abcdefghij0123456789",
        ),
        (
            "slack xoxb-1234567890-abcdefghij",
            "xoxb-1234567890-abcdefghij",
        ),
        (
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        ),
        (
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        ),
        (
            "OPENAI_API_KEY=sk-proj-abc123def456ghi789jkl012",
            "sk-proj-abc123def456ghi789jkl012",
        ),
        (
            "sk-ant-api03-abcdefghij0123456789XYZ",
            "sk-ant-api03-abcdefghij0123456789XYZ",
        ),
    ],
    counter_examples: &["AKIA is a prefix", "ask-me-anything", "the sk-short key"],
    ..PatternSpec::BASE
};

/// `api_key = "…"`, `aws_secret_access_key="…"`, `AWS_SECRET_ACCESS_KEY=…`,
/// `client_secret: …`, `"token": "…"`, `Bearer …` with a high-entropy value. The key is
/// a whole identifier with a secret word anywhere in it (`aws_` before, `_access_key`
/// after), so the value starts after the separator and is found whole, `/`, `+`, `=` and
/// `~` (Azure's client secrets) included.
pub(super) const API_KEY_ASSIGNMENT: PatternSpec = PatternSpec {
    name: "api_key_assignment",
    label: "API_KEY",
    regex: r#"(?ix)
        \b[a-z0-9_.\-]*?                                      # identifier before the word
        (?:api[_\-]?key|apikey|access[_\-]?key(?:[_\-]?id)?|secret[_\-]?key|client[_\-]?secret
          |auth[_\-]?token|access[_\-]?token|refresh[_\-]?token|private[_\-]?key|signing[_\-]?key
          |encryption[_\-]?key|bearer|token|secret)
        [a-z0-9_.\-]*                                         # rest of the identifier
        (?:["']?\s*(?:[:=]|=>)\s*["']?|\s+)                   # separator, quotes
        ([A-Za-z0-9_\-+/=.~]{16,256})                         # the value"#,
    group: 1,
    // The set scans from a secret word on: the identifier class before it is live in
    // every word, and in the set's DFA it multiplied the states of the patterns sharing
    // its shard (code: new text scanned at half the speed), while every end of a long
    // value made a search back.
    prefilter: Some(
        r#"(?i)(?:key|token|secret|bearer)[a-z0-9_.\-]*(?:["']?\s*(?:[:=]|=>)\s*["']?|\s+)[A-Za-z0-9_\-+/=.~]{16}"#,
    ),
    score: 0.8,
    validate: Some(structure::high_entropy),
    negative_context: &[],
    examples: &[
        (
            "api_key = \"a8f5f167f44f4964e6c998dee827110c\"",
            "a8f5f167f44f4964e6c998dee827110c",
        ),
        (
            "Authorization: Bearer 9a8b7c6d5e4f3a2b1c0d",
            "9a8b7c6d5e4f3a2b1c0d",
        ),
        (
            "aws_secret_access_key=\"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        ),
        (
            "SECRET_ACCESS_KEY: 'q8Wm2+Rt5/Yx0Kd3Lp7Zn4Vb6Hc1Jf9Gs2Aa8Ee'",
            "q8Wm2+Rt5/Yx0Kd3Lp7Zn4Vb6Hc1Jf9Gs2Aa8Ee",
        ),
        (
            "aws:\n  secret_key: 3kF9sL2mQ8xR7tV1wY4zB6nC0",
            "3kF9sL2mQ8xR7tV1wY4zB6nC0",
        ),
        (
            "{\"client_secret\": \"GOCSPX-1a2B3c4D5e6F7g8H9i0J\"}",
            "GOCSPX-1a2B3c4D5e6F7g8H9i0J",
        ),
        (
            "STRIPE_API_KEY=rk9x2Lm4Qp7Wz1Ty5Uv8Rs3N",
            "rk9x2Lm4Qp7Wz1Ty5Uv8Rs3N",
        ),
        (
            "azure_client_secret: \"7Q~8Q~aBcDeFgHiJkLmNoPqRsTuVwXyZ012345\"",
            "7Q~8Q~aBcDeFgHiJkLmNoPqRsTuVwXyZ012345",
        ),
    ],
    counter_examples: &[
        "token = placeholder_value_here",
        "the secret is out",
        "secret_key_rotation_enabled: true",
    ],
    ..PatternSpec::BASE
};

/// JSON web tokens: three base64url parts, the first two JSON objects (`eyJ`).
pub(super) const JWT: PatternSpec = PatternSpec {
    name: "jwt",
    label: "JWT",
    regex: r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}",
    score: 0.95,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[(
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    )],
    counter_examples: &["eyJ alone.eyJ"],
    ..PatternSpec::BASE
};

/// PEM private key blocks (RSA, EC, OPENSSH, ENCRYPTED, PKCS#8), header to footer.
pub(super) const PRIVATE_KEY: PatternSpec = PatternSpec {
    name: "private_key",
    label: "PRIVATE_KEY",
    regex: r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s:,\-]|\\[nr])*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----",
    score: 0.99,
    proof: Proof::Grammar,
    negative_context: &[],
    examples: &[
    (
        "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----\n",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----",
    ),
    (
        "enc:\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\nMIIBOgIBAAJBAKj34GkxFhD9\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\nMIIBOgIBAAJBAKj34GkxFhD9\n-----END RSA PRIVATE KEY-----",
    ),
        // As a log line or a JSON string prints it, with its line breaks escaped.
        (
            r#"key="-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0\n-----END PRIVATE KEY-----\n""#,
            r"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0\n-----END PRIVATE KEY-----",
        ),
    ],
    counter_examples: &["-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"],
    ..PatternSpec::BASE
};

/// `password: …`, `pwd=…`, `"passwd": "…"`, "my password is …", "the pw was …",
/// `password "…"`: the value only. A sentence's full stop is no part of it.
pub(super) const PASSWORD: PatternSpec = PatternSpec {
    name: "password",
    label: "PASSWORD",
    regex: r#"(?ix)
        \b(?: (?:[a-z0-9]+[_.\-])*                # DB_PASS, spring.datasource.password
            (?:password|passwd|pwd|pw|passphrase|passcode|pass|kennwort|passwort
              |mot\ de\ passe|contraseña|senha)
            ["']?\s*(?:[:=]|=>|\bis\b|\bwas\b)\s*["']?([^\s"',;]*[^\s"',;.])
          # quoted right after the word; not after "pass" ("pass "hello" as an argument")
          | (?:password|passwd|pwd|pw|passphrase|passcode|kennwort|passwort|contraseña|senha)
            \s+["“']([^\s"'”]+)["”'] )"#,
    group: 1,
    score: 0.85,
    validate: Some(structure::password),
    negative_context: &[],
    examples: &[
        ("password: hunter2!x", "hunter2!x"),
        ("db pwd=S3cr3t_Pa55 host=x", "S3cr3t_Pa55"),
        ("\"passwd\": \"correct-horse\"", "correct-horse"),
        ("my password is Tr0ub4dor&3.", "Tr0ub4dor&3"),
        ("the pw is hunter2!", "hunter2!"),
        ("DB_PASS='hunter2' ./run.sh", "hunter2"),
        ("MYSQL_ROOT_PASSWORD: s3cr3t-Root", "s3cr3t-Root"),
        (
            "sign in with username \"k.tanaka\" and password \"Sakura#2024\"",
            "Sakura#2024",
        ),
    ],
    counter_examples: &[
        "password: ********",
        "password = ${DB_PASSWORD}",
        "the password field",
        "It says my password is incorrect.",
        "your password is expired",
        "the pass is available at the desk",
        "pass \"ownership\" to the caller",
        "bypass=enabled",
        "sudo: ana : TTY=pts/0 ; PWD=/home/ana/src ; USER=root",
    ],
    ..PatternSpec::BASE
};

/// The password of a command line's user or password option: `curl -u admin:S3cr3tP@ss`,
/// `--user 'bob:hunter2'`, `--password S3cret`, MySQL's `-pS3cret`, as prompts paste
/// commands to debug. Only the password is the entity;
/// the user name stays so the command still reads.
pub(super) const PASSWORD_USER_OPTION: PatternSpec = PatternSpec {
    name: "password_user_option",
    label: "PASSWORD",
    regex: r#"(?x)
        (?:^|\s)(?:-u|--user)[\s=]+["']?[^\s:"']+:([^\s"']{1,128})
        # --password S3cret (the "=" form is PASSWORD's)
      | (?:^|\s)--password\s+["']?([^\s"'\-][^\s"']*)
        # MySQL's and MariaDB's -pS3cret, glued to its flag
      | \b(?:mysql|mysqldump|mysqladmin|mariadb)\s(?:[^\n]*?\s)?-p([^\s"']+)"#,
    group: 1,
    score: 0.85,
    validate: Some(structure::password),
    negative_context: &[],
    examples: &[
        ("curl -u admin:S3cr3tP@ss https://api.acme.io", "S3cr3tP@ss"),
        ("curl --user 'bob:hunter2x' -X POST", "hunter2x"),
        ("mysql -u root -pS3cretPass prod_db", "S3cretPass"),
        ("pg_dump --password S3cr3t-9 -h db", "S3cr3t-9"),
    ],
    counter_examples: &[
        "curl -u admin https://x",
        "docker run -u 1000:1000 img",
        "ls -u a:b",
        "mysql -u root -p prod_db",
        "mkdir -p build",
    ],
    ..PatternSpec::BASE
};

/// HTTP Basic credentials: `Authorization: Basic am9objpzM2NyZXQ=` is `john:s3cret` in
/// base64, a password in the clear to anyone who decodes it. Only a value that decodes
/// to a user and a password (`user:password`) counts ("Basic plan" is no header).
pub(super) const BASIC_AUTH: PatternSpec = PatternSpec {
    name: "basic_auth",
    label: "PASSWORD",
    regex: r"\bBasic\s+([A-Za-z0-9+/]{4,}={0,2})",
    group: 1,
    score: 0.9,
    proof: Proof::Grammar,
    validate: Some(basic_credentials),
    negative_context: &[],
    examples: &[
        ("Authorization: Basic am9objpzM2NyZXQ=", "am9objpzM2NyZXQ="),
        (
            "-H 'Authorization: Basic YWRtaW46aHVudGVyMg==' https://x",
            "YWRtaW46aHVudGVyMg==",
        ),
    ],
    counter_examples: &["the Basic plan costs less", "Basic YWJjZGVm"],
    ..PatternSpec::BASE
};

fn basic_credentials(s: &str) -> bool {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .is_some_and(|decoded| {
            decoded
                .split_once(':')
                .is_some_and(|(_, pass)| !pass.is_empty())
                && !decoded.chars().any(char::is_control)
        })
}

/// A PIN after its cue: "my pin is 4821", "PIN: 0815", "SIM PIN 1234", "PIN-Nummer 5823".
/// A PIN code of six digits is left out: in India that is the postal code ("Pin code:
/// 110001"), which the address patterns own.
pub(super) const PIN: PatternSpec = PatternSpec {
    name: "pin",
    label: "PASSWORD",
    regex: r"(?ix)
        \bpin(?:[\ \-]?(?:number|nummer|no\.?))?\s*(?:[:=]|\s+is\b)\s*(\d{4,8})\b
        | \bpin[\ \-]?code\s*(?:[:=]|\s+is\b)?\s*(\d{4})\b
        | (?-i:\bPIN)\s+(\d{4,8})\b",
    group: 1,
    score: 0.85,
    negative_context: &[],
    examples: &[
        ("my login is maria.s and my pin is 4821", "4821"),
        ("PIN: 0815", "0815"),
        ("new SIM PIN 1234, PUK 12345678", "1234"),
        ("PIN-Nummer: 5823", "5823"),
        ("my pin code is 9031", "9031"),
    ],
    counter_examples: &[
        "Pin code: 110001, New Delhi",
        "connect pin 3 to ground",
        "pin 1234 to the board",
        "PIN 12",
    ],
    ..PatternSpec::BASE
};

/// Credentials inside URLs: `postgres://user:pass@host:5432/db` → `user:pass@host:5432`,
/// also without a user (`redis://:pass@host`, Redis's own form).
/// The host is kept in the entity so it also covers what looks like `pass@host` e-mail.
pub(super) const CONNECTION_STRING: PatternSpec = PatternSpec {
    name: "connection_string",
    label: "CONNECTION_STRING",
    regex: r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://([^\s:/@]{0,128}:[^\s@/]{1,256}@[^\s/?#]+)",
    group: 1,
    score: 0.9,
    // RFC 3986 userinfo and host: exact, and longer than the e-mail-like `pass@host`
    // inside it, which it must beat.
    proof: Proof::Grammar,
    validate: Some(credentials),
    negative_context: &[],
    examples: &[
        (
            "DATABASE_URL=postgres://admin:s3cret@db.internal:5432/app",
            "admin:s3cret@db.internal:5432",
        ),
        (
            "mongodb+srv://bob:pw12345@cluster0.example.net",
            "bob:pw12345@cluster0.example.net",
        ),
        (
            "redis://:s3cr3tp4ss@cache.internal:6379/0",
            ":s3cr3tp4ss@cache.internal:6379",
        ),
    ],
    counter_examples: &[
        "postgres://db.internal:5432/app",
        "https://user@example.com",
    ],
    ..PatternSpec::BASE
};

fn credentials(s: &str) -> bool {
    s.split_once('@')
        .and_then(|(creds, _)| creds.split_once(':'))
        .is_some_and(|(_, pass)| !pass.is_empty() && !pass.starts_with("${"))
}

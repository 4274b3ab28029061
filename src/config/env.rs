//! The environment: every `ANONYMIZER_*` variable the program reads, and `${VAR}`
//! interpolation of config text. The environment is read once, in `main`, through a
//! lookup function that tests replace with a map.

pub const LISTEN: &str = "ANONYMIZER_LISTEN";
pub const METRICS_LISTEN: &str = "ANONYMIZER_METRICS_LISTEN";
pub const API_KEYS: &str = "ANONYMIZER_API_KEYS";
pub const CONFIG: &str = "ANONYMIZER_CONFIG";
/// Master secret for `HASH` and `ENCRYPT` keys; overrides `secrets.master_secret`.
pub const SECRET: &str = "ANONYMIZER_SECRET";
/// Session store, `memory` or `redis`; overrides `sessions.store`.
pub const SESSION_STORE: &str = "ANONYMIZER_SESSION_STORE";
/// Redis URL of the shared session store (may hold a password); overrides
/// `sessions.redis.url`.
pub const REDIS_URL: &str = "ANONYMIZER_REDIS_URL";

/// Reads a variable from the process environment.
pub fn process_lookup(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Why interpolation failed. Names the variable, never its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterpolateError {
    pub line: usize,
    pub message: String,
}

/// Replaces `${VAR}` and `${VAR:-default}` in `text`; `$$` is a literal `$`.
///
/// # Errors
/// An unset variable without default, an unterminated `${`, or a value with a newline
/// (which could inject YAML).
pub fn interpolate(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, Vec<InterpolateError>> {
    let mut out = String::with_capacity(text.len());
    let mut errors = Vec::new();
    for (line_no, line) in text.split_inclusive('\n').enumerate() {
        let line_no = line_no + 1;
        // YAML comments are left alone so commented examples need no variables.
        if line.trim_start().starts_with('#') {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        while let Some(pos) = rest.find('$') {
            out.push_str(&rest[..pos]);
            let after = &rest[pos + 1..];
            if let Some(tail) = after.strip_prefix('$') {
                out.push('$');
                rest = tail;
            } else if let Some(body) = after.strip_prefix('{') {
                let Some(end) = body.find('}') else {
                    errors.push(InterpolateError {
                        line: line_no,
                        message: "unterminated ${".into(),
                    });
                    rest = "";
                    break;
                };
                let expr = &body[..end];
                let (name, default) = match expr.split_once(":-") {
                    Some((n, d)) => (n, Some(d)),
                    None => (expr, None),
                };
                let value = lookup(name)
                    .filter(|v| !v.is_empty() || default.is_none())
                    .or_else(|| default.map(str::to_owned));
                match value {
                    Some(v) if v.contains('\n') => errors.push(InterpolateError {
                        line: line_no,
                        message: format!("variable {name} contains a newline"),
                    }),
                    Some(v) => out.push_str(&v),
                    None => errors.push(InterpolateError {
                        line: line_no,
                        message: format!("variable {name} is not set and has no default"),
                    }),
                }
                rest = &body[end + 1..];
            } else {
                out.push('$');
                rest = after;
            }
        }
        out.push_str(rest);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "HOST" => Some("h:1".into()),
            "EMPTY" => Some(String::new()),
            "BAD" => Some("a\nb".into()),
            _ => None,
        }
    }

    #[test]
    fn replaces_variables_defaults_and_escapes() {
        assert_eq!(
            interpolate("a: ${HOST}\nb: ${NOPE:-x}\nc: $$5 ${EMPTY:-d}\n", &env).unwrap(),
            "a: h:1\nb: x\nc: $5 d\n"
        );
    }

    #[test]
    fn reports_unset_and_newline_values_by_name_and_line() {
        let errs = interpolate("a: 1\nb: ${NOPE}\nc: ${BAD}\n", &env).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].line, 2);
        assert!(errs[0].message.contains("NOPE"));
        assert!(errs[1].message.contains("BAD") && !errs[1].message.contains("a\nb"));
    }

    #[test]
    fn comments_are_not_interpolated() {
        assert_eq!(interpolate("# ${NOPE}\n", &env).unwrap(), "# ${NOPE}\n");
    }
}

//! Machinery recognised by shape rather than by key: the header of a log line (its
//! timestamp, level, logger, syslog host and tag) and, anywhere, the shapes only logs
//! write: nginx's `14/Mar/2024:09:30:00 +0000`, UUIDs and long hex ids. An ISO
//! date-time elsewhere in a text stays a date (it may be an appointment); in a payload
//! it is machinery by its key or its place at the head of a line.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;
use regex_automata::{meta, Anchored, Input};

use crate::text::ByteSpan;

/// A timestamp as loggers print it (ISO-8601 to the second, Python's `,123`, syslog's
/// `Mar 14 09:30:00` with its day padded or not (`May  1`, `May 01`, `May 1`), nginx's,
/// Tomcat's `14-Mar-2024 09:30:00.123`, log4j's `14 Mar 2024 09:30:00,123`, klog's
/// `I0314 09:30:00.123456`, Apache's error log's `Thu Mar 14 09:30:00.123456 2024`, epoch
/// seconds or milliseconds).
const TIMESTAMP: &str = r"(?:
    \d{4}-\d{2}-\d{2}[T\ ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+\-]\d{2}:?\d{2})?
  | \d{4}/\d{2}/\d{2}\ \d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?
  | (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\ (?:[\ 0-3]\d|[1-9])\ \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?
  | \d{2}/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/\d{4}:\d{2}:\d{2}:\d{2}(?:\ [+\-]\d{4})?
  | \d{2}[-\ ](?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[-\ ]\d{4}\ \d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?
  | [IWEF]\d{4}\ \d{2}:\d{2}:\d{2}\.\d{6}(?:\ +\d+\ [^\s:\]]+:\d+\])?
  | (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\ (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\ (?:[\ 0-3]\d|[1-9])\ \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?\ \d{4}
  | 1\d{9}(?:\d{3})?(?:\.\d{1,9})?
)";

/// A log level, as loggers print it (a macro, so that the constants below can splice it).
macro_rules! level {
    () => {
        r"(?i:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|CRIT|CRITICAL|FATAL|ALERT|EMERG|PANIC)"
    };
}

/// The level that opens a log line in some layouts (`WARN 2024-03-14 09:30:00,123 …`).
const LEVEL: &str = level!();

/// A token after the timestamp of a log line's header: a level, a bracketed logger or
/// thread, a UUID, a hex id, a Java logger (`c.e.s.UserController`, as Logback and Spring
/// Boot abbreviate it: its package letters read as initials), Spring Boot's pid and
/// `---`, a class named for what code does (`OrderController:`, which models read as a
/// firm), and the `-` or `:` before the message.
const HEADER_TOKEN: &str = concat!(
    r"(?:
    \[",
    level!(),
    r"\]:?
  | ",
    level!(),
    r"\b:?
  | \[[^\]\s]{1,64}\]:?
  | [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b
  | [0-9a-f]{8,64}\b
  | (?:[a-z][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*\b:?
  | (?:[A-Z][a-z0-9]+)+(?:Controller|Service|Handler|Manager|Repository|Listener|Filter
      |Worker|Job|Task|Client|Consumer|Producer|Processor|Scheduler|Resource|Endpoint
      |Gateway|Adapter|Factory|Provider|Impl|Middleware|Application)\b:?
  | \d{1,7}\ ---
  | ---
  | [\-:]
)"
);

/// A log line's header, from the line's start (searched anchored at each line start).
fn header_regex() -> String {
    format!(
        r"(?x)[\ \t]*(?:
            # RFC 5424: <PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD-ID
            <\d{{1,3}}>1\ \S+\ \S+\ \S+\ \S+\ \S+(?:\ \[[^\s\]=\x22]+)?
            # RFC 3164: <PRI>Mmm dd hh:mm:ss HOST TAG[PID]:
          | (?:<\d{{1,3}}>)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\ [\ 0-3]\d\ \d{{2}}:\d{{2}}:\d{{2}}\ \S+\ [^\s\[:]+(?:\[\d+\])?:
            # a text log line: TIMESTAMP (bracketed or not), or a level and then the
            # timestamp, then header tokens
          | (?:{LEVEL}[\ \t]+)?[\[(]?{TIMESTAMP}[\])]?:?(?:[\ \t]+{HEADER_TOKEN})*
            # Ruby's Logger (Rails): I, [TIMESTAMP #PID]  INFO -- progname:
          | [DIWEFA],\ \[{TIMESTAMP}\ \#\d+\]\s+[A-Z]+\ --\ [^:\n]{{0,64}}:
        )"
    )
}

/// Shapes that are machinery wherever they are (upper-case SQL keywords too).
const ANYWHERE: &str = r"(?x)
    \b\d{2}/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/\d{4}:\d{2}:\d{2}:\d{2}(?:\ [+\-]\d{4})?
  | \b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b
  | \b(?:[0-9a-f]{16,64}|[0-9A-F]{16,64})\b
  | \bINSERT\ INTO\b | \bVALUES\b   # SQL's own words (the acronym rule reads VALUES as a name)
    # a client and its version (curl/8.4.0, HTTP/1.1, python-requests/2.31.0), and a
    # browser's user agent: products and their (comments), which models read as firms
  | \bMozilla/\d\.\d\ \([^)\n]{1,200}\)(?:\ [A-Za-z]+/[A-Za-z0-9_.]+(?:\ \([^)\n]{1,100}\))?)*
  | \b[A-Za-z][A-Za-z0-9_.\-]*/\d+(?:\.\d+)+\b";

/// ASCII `\b` and `\d`: a Unicode word boundary makes the lazy DFA give up on the first
/// non-ASCII byte (see `recognizer.rs`), and log machinery is ASCII. The constants
/// above hold no escaped backslashes, so a plain replace is exact.
fn ascii(regex: &str) -> String {
    regex.replace(r"\b", r"(?-u:\b)").replace(r"\d", "[0-9]")
}

struct Shapes {
    header: meta::Regex,
    anywhere: Regex,
}

/// The compiled shapes; `None` only if a constant above stopped compiling, which the
/// tests catch (detection then goes on without them rather than panicking).
fn shapes() -> Option<&'static Shapes> {
    static SHAPES: OnceLock<Option<Shapes>> = OnceLock::new();
    SHAPES
        .get_or_init(|| {
            Some(Shapes {
                header: meta::Regex::new(&ascii(&header_regex())).ok()?,
                anywhere: Regex::new(&ascii(ANYWHERE)).ok()?,
            })
        })
        .as_ref()
}

/// The matches of `header` in `text`, each searched anchored at a line start: a search
/// reads a line's header, not the whole line as an unanchored search for `(?m)^…`
/// would, nor back from its end for its start.
fn headers<'t>(header: &'t meta::Regex, text: &'t str) -> impl Iterator<Item = Range<usize>> + 't {
    let mut line = Some(0);
    std::iter::from_fn(move || {
        while let Some(at) = line {
            let found = header.find(Input::new(text).range(at..).anchored(Anchored::Yes));
            // A header may run past its line (a blank after the Ruby logger's `]`): the
            // next search starts at the first line start after it.
            let past = found.map_or(at + 1, |m| m.end().max(at + 1));
            line = (text.as_bytes()[past - 1..].iter())
                .position(|&b| b == b'\n')
                .map(|i| past + i);
            if let Some(m) = found {
                return Some(m.range());
            }
        }
        None
    })
}

/// Appends the machinery spans found by shape in `text`.
pub fn machinery(text: &str, out: &mut Vec<ByteSpan>) {
    let Some(shapes) = shapes() else {
        return;
    };
    for m in headers(&shapes.header, text) {
        let found = &text[m.clone()];
        let s = found.trim();
        if !s.is_empty() {
            let start = m.start + (found.len() - found.trim_start().len());
            out.push(ByteSpan::new(start, start + s.len()));
        }
    }
    for m in shapes.anywhere.find_iter(text) {
        let s = m.as_str();
        // A hex id has digits and letters (a run of digits alone may be a card; letters
        // alone are a word) and is not a `0x…` literal (an Ethereum address).
        let hex_only = s.bytes().all(|b| b.is_ascii_hexdigit());
        if hex_only
            && (!s.bytes().any(|b| b.is_ascii_digit())
                || !s.bytes().any(|b| b.is_ascii_alphabetic())
                || text[..m.start()].ends_with("0x"))
        {
            continue;
        }
        out.push(ByteSpan::new(m.start(), m.end()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut spans = Vec::new();
        machinery(text, &mut spans);
        spans.iter().map(|s| &text[s.start..s.end]).collect()
    }

    #[test]
    fn the_shapes_compile() {
        assert!(shapes().is_some());
    }

    #[test]
    fn headers_searched_at_each_line_start_are_those_a_multi_line_search_finds() {
        let multi_line = Regex::new(&ascii(&format!("(?m)^{}", header_regex()))).unwrap();
        let header = &shapes().unwrap().header;
        for text in [
            "",
            "\n\n",
            "2024-03-14 09:30:00,123 INFO [billing] Card declined\n2024-03-14 09:30:01 WARN x",
            "no header here\n  2024-03-14T09:30:00Z ERROR [a] b\r\nI, [2024-03-14T09:30:00.123456 #1234]  INFO -- : ok",
            "I, [2024-03-14T09:30:00.123456 #1234]\n\n  INFO -- : x\n<34>Oct  1 22:14:15 web-01 su[123]: é",
            "é 2024-03-14 09:30:00\n2024-03-14 09:30:00 é\n2024-03-14 09:30:00",
        ] {
            let anchored: Vec<_> = headers(header, text).collect();
            let everywhere: Vec<_> = multi_line.find_iter(text).map(|m| m.range()).collect();
            assert_eq!(anchored, everywhere, "{text:?}");
        }
    }

    #[test]
    fn a_text_log_header_is_machinery_up_to_the_message() {
        assert_eq!(
            found("2024-03-14 09:30:00,123 INFO [billing] Card declined for Ana"),
            ["2024-03-14 09:30:00,123 INFO [billing]"]
        );
        assert_eq!(
            found("[14/Mar/2024:09:30:00 +0000] WARN 4bf92f3577b34da6 retry"),
            [
                "[14/Mar/2024:09:30:00 +0000] WARN 4bf92f3577b34da6",
                "14/Mar/2024:09:30:00 +0000",
                "4bf92f3577b34da6"
            ]
        );
    }

    #[test]
    fn a_class_named_for_its_job_clients_and_user_agents_are_machinery() {
        assert_eq!(
            found("2024-05-02T10:15:22.481Z INFO  [order-service] OrderController: Order placed by Ana"),
            ["2024-05-02T10:15:22.481Z INFO  [order-service] OrderController:"]
        );
        let access = r#"10.0.4.17 - - "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36" Ana"#;
        assert_eq!(
            found(access),
            [
                "HTTP/1.1",
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
            ]
        );
        assert_eq!(
            found("curl/8.4.0 and python-requests/2.31.0"),
            ["curl/8.4.0", "python-requests/2.31.0"]
        );
        // A person at the head of a message, and dates with slashes, are not.
        assert!(found("INFO McDonald: paid\nborn May/1988, seen 03/12.5").is_empty());
    }

    #[test]
    fn java_ruby_apache_and_kubernetes_log_headers_are_machinery() {
        assert_eq!(
            found("14-Mar-2024 09:30:00.123 INFO [main] Server startup for Ana"),
            ["14-Mar-2024 09:30:00.123 INFO [main]"]
        );
        assert_eq!(
            found("14 Mar 2024 09:30:00,123 ERROR Ana"),
            ["14 Mar 2024 09:30:00,123 ERROR"]
        );
        assert_eq!(
            found("I0314 09:30:00.123456       1 controller.go:123] synced Ana"),
            ["I0314 09:30:00.123456       1 controller.go:123]"]
        );
        assert_eq!(
            found("I, [2024-03-14T09:30:00.123456 #1234]  INFO -- : Started GET for Ana"),
            ["I, [2024-03-14T09:30:00.123456 #1234]  INFO -- :"]
        );
        assert_eq!(
            found("WARN 2024-03-14 09:30:00,123 [http-nio-8080-exec-3] c.e.s.UserController - Reset for Ana"),
            ["WARN 2024-03-14 09:30:00,123 [http-nio-8080-exec-3] c.e.s.UserController -"]
        );
        assert_eq!(
            found("2024-03-14 09:30:00.123  WARN 12345 --- [nio-8080-exec-3] c.e.demo.UserController : Reset for Ana"),
            ["2024-03-14 09:30:00.123  WARN 12345 --- [nio-8080-exec-3] c.e.demo.UserController :"]
        );
        assert_eq!(
            found("[Thu Mar 14 09:30:00.123456 2024] [core:error] [pid 1234] Ana"),
            ["[Thu Mar 14 09:30:00.123456 2024] [core:error]"]
        );
    }

    #[test]
    fn syslog_headers_keep_host_and_tag() {
        assert_eq!(
            found("<34>Oct  1 22:14:15 web-01 su[123]: Ana failed"),
            ["<34>Oct  1 22:14:15 web-01 su[123]:"]
        );
        assert_eq!(
            found("<165>1 2024-03-14T09:30:00.003Z host app 1234 ID47 [meta@32473 a=\"b\"] Ana"),
            ["<165>1 2024-03-14T09:30:00.003Z host app 1234 ID47 [meta@32473"]
        );
    }

    #[test]
    fn prose_dates_words_digit_runs_and_eth_addresses_are_not_machinery() {
        assert!(found("LONDON 1996-08-30\nborn on 2 March 1984 at 09:30").is_empty());
        assert!(found("the call at 2024-03-14T09:30:00Z was late").is_empty());
        assert!(found("card 4111111111111111 and deadbeefdeadbeef words").is_empty());
        assert!(found("0x52908400098527886E0F7030069857D2E4169EE7").is_empty());
        assert!(found("ERROR at start of a headline").is_empty());
    }
}

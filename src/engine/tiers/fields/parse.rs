//! Finds `(key, value)` pairs in serialized payloads, by byte span, without requiring
//! the payload to be valid: a log line is often JSON after a text prefix, logfmt with a
//! free-text tail, or a CSV block inside a larger text.
//!
//! Formats: JSON `"key": value` and Python's printed dicts (`'key': value`); logfmt and
//! key=value (`key=value`, `key="quoted"`, `key='quoted'`, SQL `col = 'v'`); SQL
//! `INSERT INTO t (cols) VALUES (…), (…)`; CSV (a header line of keys, then records);
//! Markdown tables (header, `|---|`, rows).
//! Quoted values are spans of their inside, escapes included (`O''Brien`, `\"Bob\"`):
//! replacing the raw span keeps the payload well-formed.
//!
//! Knows nothing about which keys matter (`keys.rs`) or what is done with the values.

use crate::engine::lexicon::words::{PARTICLES, SURNAME_JOINERS};
use crate::text::ByteSpan;

/// One key and its value, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub key: ByteSpan,
    pub value: ByteSpan,
    /// An unquoted key=value value outside a URL: it ends at the first space, but sloppy
    /// logs write `customer_name=Ana Ruiz, email=…`; see [`extend_words`].
    pub open: bool,
}

/// Most bytes of one value: past this, a "value" is a document, not a field.
const MAX_VALUE_BYTES: usize = 512;

/// Every field of every format found in `text`.
pub fn fields(text: &str) -> Vec<Field> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    if bytes.contains(&b'"') {
        json(text, &mut out);
    }
    if text.contains("':") {
        python_dicts(text, &mut out);
    }
    if bytes.contains(&b'=') {
        key_values(text, &mut out);
    }
    if bytes.contains(&b'(')
        && ["INSERT", "insert", "Insert"]
            .iter()
            .any(|w| text.contains(w))
    {
        sql_inserts(text, &mut out);
    }
    if bytes.contains(&b'\n') {
        csv(text, &mut out);
        if bytes.contains(&b'|') {
            markdown(text, &mut out);
        }
    }
    out.retain(|f| f.value.len() <= MAX_VALUE_BYTES && !f.value.is_empty());
    out
}

/// End of the string whose opening `quote` is at `open`: the index of the closing
/// quote, skipping backslash escapes (and doubled quotes when `doubled`).
fn closing_quote(bytes: &[u8], open: usize, quote: u8, doubled: bool) -> Option<usize> {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if quote != b'\'' || !doubled => return None,
            c if c == quote => {
                if doubled && bytes.get(i + 1) == Some(&quote) {
                    i += 2;
                } else {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// JSON members `"key": value` anywhere in the text; string values are spans of their
/// inside, scalars of their literal; objects and arrays are not values here (their
/// members are found on their own).
fn json(text: &str, out: &mut Vec<Field>) {
    members(text, b'"', out);
}

/// Python's printed dicts, as apps log them (`payload={'name': 'Lars', 'age': 42}`):
/// JSON with single quotes, and double quotes around a string that holds one
/// (`"O'Brien"`). An apostrophe in prose opens no key: a key is one key-shaped word.
fn python_dicts(text: &str, out: &mut Vec<Field>) {
    members(text, b'\'', out);
}

/// `key: value` members whose keys are quoted with `quote`.
fn members(text: &str, quote: u8, out: &mut Vec<Field>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == quote) {
        let open = i + offset;
        let Some(close) = closing_quote(bytes, open, quote, false) else {
            i = open + 1;
            continue;
        };
        if quote == b'\'' && !bytes[open + 1..close].iter().all(|&b| is_key_byte(b)) {
            // An apostrophe of a sentence ("User's") pairs with the next quote: no key.
            i = open + 1;
            continue;
        }
        i = close + 1;
        let colon = skip_spaces(bytes, close + 1);
        if bytes.get(colon) != Some(&b':') {
            continue;
        }
        let start = skip_spaces(bytes, colon + 1);
        let key = ByteSpan::new(open + 1, close);
        match bytes.get(start) {
            Some(&q) if q == b'"' || q == quote => {
                if let Some(end) = closing_quote(bytes, start, q, false) {
                    out.push(Field {
                        key,
                        value: ByteSpan::new(start + 1, end),
                        open: false,
                    });
                    i = end + 1;
                }
            }
            Some(b'{' | b'[') | None => {}
            Some(_) => {
                let end = bytes[start..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b'\n' | b'\r' | b' '))
                    .map_or(bytes.len(), |n| start + n);
                let literal = &text[start..end];
                if !matches!(
                    literal,
                    "null" | "true" | "false" | "None" | "True" | "False"
                ) {
                    out.push(Field {
                        key,
                        value: ByteSpan::new(start, end),
                        open: false,
                    });
                }
                i = end;
            }
        }
    }
}

fn is_key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'@')
}

/// `key=value` pairs (logfmt, key=value logs, URL queries, syslog structured data,
/// SQL `SET col = 'v'`).
fn key_values(text: &str, out: &mut Vec<Field>) {
    let bytes = text.as_bytes();
    for (eq, _) in text.match_indices('=') {
        // `==`, `!=`, `<=`, `>=` compare; they assign nothing.
        if eq == 0
            || matches!(bytes[eq - 1], b'=' | b'!' | b'<' | b'>')
            || bytes.get(eq + 1) == Some(&b'=')
        {
            continue;
        }
        let mut key_end = eq;
        while key_end > 0 && bytes[key_end - 1] == b' ' {
            key_end -= 1;
        }
        let spaced = key_end < eq;
        let mut key_start = key_end;
        while key_start > 0 && is_key_byte(bytes[key_start - 1]) {
            key_start -= 1;
        }
        if key_start == key_end
            || !(bytes[key_start].is_ascii_alphabetic() || matches!(bytes[key_start], b'_' | b'@'))
        {
            continue;
        }
        // The key must start a token: `a+b=c` is arithmetic, `x"y=z` is not a key.
        if key_start > 0
            && !matches!(
                bytes[key_start - 1],
                b' ' | b'\t'
                    | b'\n'
                    | b','
                    | b';'
                    | b'&'
                    | b'?'
                    | b'{'
                    | b'['
                    | b'('
                    | b'|'
                    | b'"'
                    | b'\''
            )
        {
            continue;
        }
        let key = ByteSpan::new(key_start, key_end);
        let after = if spaced {
            skip_spaces(bytes, eq + 1)
        } else {
            eq + 1
        };
        match bytes.get(after) {
            Some(&q @ (b'"' | b'\'')) => {
                if let Some(end) = closing_quote(bytes, after, q, q == b'\'') {
                    out.push(Field {
                        key,
                        value: ByteSpan::new(after + 1, end),
                        open: false,
                    });
                }
            }
            // `a = b` unquoted is prose or code, not a field.
            Some(_) if !spaced && after == eq + 1 => {
                // Capped: a value longer than that is dropped anyway, and `a=a=a=…`
                // must not rescan the rest of the text from every `=`.
                let window = &bytes[after..bytes.len().min(after + MAX_VALUE_BYTES + 1)];
                let mut end = after + unquoted_value_len(window);
                // A URL's query parameter (`?zip=94107 200 12ms`) ends at the space: a
                // URL holds none. Nor does it end in sentence punctuation (`?tel=5!`),
                // which ends the sentence around the URL, as the URL patterns read it.
                let query = key_start > 0 && matches!(bytes[key_start - 1], b'?' | b'&');
                if query {
                    while end > after && matches!(bytes[end - 1], b'.' | b'!' | b'?' | b':') {
                        end -= 1;
                    }
                }
                if end > after {
                    out.push(Field {
                        key,
                        value: ByteSpan::new(after, end),
                        open: !query,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The length of the unquoted value at the start of `window`: up to a space or a
/// delimiter, ASCII or not. An `&` ends it only where a `key=` follows (`a=1&b=2`);
/// otherwise it is part of the value (`password=Tr0ub4dor&3`).
fn unquoted_value_len(window: &[u8]) -> usize {
    let ascii = ascii_value_len(window);
    clause_end(&window[..ascii])
}

/// Where the first non-ASCII space, punctuation mark or symbol stands in `bytes` (their
/// length if none). A value written into CJK prose ends at `。` or `，` as one in English
/// ends at a space (`pin=0。` is `0`); letters of any script stay in it (`name=José`).
fn clause_end(bytes: &[u8]) -> usize {
    if bytes.is_ascii() {
        return bytes.len();
    }
    // Only the tail can be cut inside a character: the window starts after an `=`.
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    };
    text.char_indices()
        .find(|&(_, c)| !c.is_ascii() && ends_a_clause(c))
        .map_or(bytes.len(), |(i, _)| i)
}

/// Spaces, CJK and full-width punctuation, general punctuation (quotes, dashes, `…`),
/// arrows, symbols and emoji: none is part of a key=value token.
fn ends_a_clause(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c as u32,
            0x2000..=0x200F
                | 0x2012..=0x206F
                | 0x2190..=0x2BFF
                | 0x3000..=0x303F
                | 0xFE0F
                | 0xFF01..=0xFF0F
                | 0xFF1A..=0xFF20
                | 0xFF3B..=0xFF40
                | 0xFF5B..=0xFF65
                | 0x1F000..=0x1FAFF
        )
}

fn ascii_value_len(window: &[u8]) -> usize {
    let ends = |b: &u8| {
        b.is_ascii_whitespace()
            || matches!(
                b,
                b'&' | b'"' | b',' | b';' | b'|' | b')' | b']' | b'}' | b'\\'
            )
    };
    let mut end = 0;
    loop {
        end += window[end..]
            .iter()
            .position(ends)
            .unwrap_or(window.len() - end);
        if window.get(end) != Some(&b'&') {
            return end;
        }
        let next = &window[end + 1..];
        let token = next.iter().position(ends).unwrap_or(next.len());
        if token == 0 || next[..token].contains(&b'=') {
            return end;
        }
        end += 1;
    }
}

/// Most words an open value grows by (`Ana María de la Ruiz`, a street address).
const MAX_EXTRA_WORDS: usize = 8;

/// The end of an open value that runs on over further words: each must follow one
/// space (after an optional `,`), not be a `key=` of its own, and start with a capital
/// or a digit (optionally after a quote or bracket), or be a name particle; with
/// `any_case` (addresses, places, organisations: `12 Rue de la Paix`), any word that
/// starts with a letter or digit. `customer_name=Ana Ruiz, email=…` gives `Ana Ruiz`;
/// `user=jdoe logged in` stays `jdoe`.
pub fn extend_words(text: &str, mut end: usize, any_case: bool) -> usize {
    let bytes = text.as_bytes();
    for _ in 0..MAX_EXTRA_WORDS {
        let mut i = end;
        if matches!(bytes.get(i), Some(b',')) {
            i += 1;
        }
        if bytes.get(i) != Some(&b' ') {
            break;
        }
        i += 1;
        let word_end = bytes[i..]
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(bytes.len(), |n| i + n);
        let word = &text[i..word_end];
        let first = word.trim_start_matches(['"', '\'', '(']).chars().next();
        let fits = first.is_some_and(|c| {
            c.is_uppercase() || c.is_ascii_digit() || c == '+' || (any_case && c.is_alphanumeric())
        }) || PARTICLES.contains(&word)
            || SURNAME_JOINERS.contains(&word);
        if !fits || word.contains('=') {
            break;
        }
        end = i + word.trim_end_matches([',', ';', '.']).len();
    }
    end
}

/// Splits one line of `cells` at unescaped `sep` bytes; cell spans are trimmed of
/// spaces and, for CSV, of one pair of surrounding quotes.
fn split_cells(text: &str, line: ByteSpan, sep: u8, out: &mut Vec<ByteSpan>) {
    let bytes = &text.as_bytes()[..line.end];
    let mut start = line.start;
    let mut i = line.start;
    let mut quoted = false;
    while i < line.end {
        match bytes[i] {
            b'"' if sep != b'|' => quoted = !quoted,
            // `\|` is a pipe inside a Markdown cell.
            b'\\' if sep == b'|' => i += 1,
            b if b == sep && !quoted => {
                out.push(trim_cell(bytes, start, i));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(trim_cell(bytes, start.min(line.end), line.end));
}

fn trim_cell(bytes: &[u8], mut start: usize, mut end: usize) -> ByteSpan {
    while start < end && matches!(bytes[start], b' ' | b'\t' | b'\r') {
        start += 1;
    }
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    if end >= start + 2 && bytes[start] == b'"' && bytes[end - 1] == b'"' {
        (start, end) = (start + 1, end - 1);
    }
    ByteSpan::new(start, end)
}

/// Lines of `text` as spans, without their `\n`.
fn lines(text: &str) -> impl Iterator<Item = ByteSpan> + '_ {
    let mut start = 0;
    text.split('\n').map(move |line| {
        let span = ByteSpan::new(start, start + line.len());
        start += line.len() + 1;
        span
    })
}

/// A header cell that reads as a field name: `customer_name`, `"Email"`, `Customer Name`.
fn is_header_cell(text: &str, cell: ByteSpan) -> bool {
    let s = &text[cell.start..cell.end];
    !s.is_empty()
        && s.len() <= 64
        && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '@')
        && s.bytes().all(|b| is_key_byte(b) || b == b' ')
}

/// Header cells the key table knows: a header must name at least this many, so a
/// line of prose with commas is not taken for one.
const MIN_KNOWN_HEADERS: usize = 2;

fn known_headers(text: &str, cells: &[ByteSpan]) -> usize {
    cells
        .iter()
        .filter(|c| super::keys::role(&text[c.start..c.end]).is_some())
        .count()
}

/// CSV (`,`, `;` or tab): a header line of field names, then records with as many
/// cells, until one has another count. Quoted cells may hold the separator and `""`;
/// a quoted newline ends the table (the rows of log exports are single lines).
fn csv(text: &str, out: &mut Vec<Field>) {
    let all: Vec<ByteSpan> = lines(text).collect();
    let mut header = Vec::new();
    let mut row = Vec::new();
    let mut n = 0;
    while n < all.len() {
        let line = all[n];
        n += 1;
        let s = &text[line.start..line.end];
        let Some(sep) = [b',', b';', b'\t']
            .into_iter()
            .max_by_key(|sep| s.bytes().filter(|b| b == sep).count())
            .filter(|sep| s.as_bytes().contains(sep))
        else {
            continue;
        };
        header.clear();
        split_cells(text, line, sep, &mut header);
        if !header.iter().all(|c| is_header_cell(text, *c))
            || known_headers(text, &header) < MIN_KNOWN_HEADERS
        {
            continue;
        }
        while n < all.len() {
            row.clear();
            split_cells(text, all[n], sep, &mut row);
            if row.len() != header.len() {
                break;
            }
            n += 1;
            push_row(&header, &row, out);
        }
    }
}

/// One table row's cells as fields under the header's keys.
fn push_row(header: &[ByteSpan], row: &[ByteSpan], out: &mut Vec<Field>) {
    out.extend(header.iter().zip(row).map(|(key, value)| Field {
        key: *key,
        value: *value,
        open: false,
    }));
}

/// `| --- | :--: |` and friends.
fn is_separator_row(s: &str) -> bool {
    let s = s.trim();
    s.contains("---")
        && s.starts_with('|')
        && s.bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// Markdown tables: a `| header |` line, a separator line, then `|` rows. Cells split
/// at unescaped pipes (`\|` is a pipe inside a cell).
fn markdown(text: &str, out: &mut Vec<Field>) {
    let all: Vec<ByteSpan> = lines(text).collect();
    let mut header = Vec::new();
    let mut row = Vec::new();
    let mut n = 0;
    while n + 1 < all.len() {
        let line = all[n];
        n += 1;
        let s = &text[line.start..line.end];
        if !s.trim_start().starts_with('|') || !is_separator_row(&text[all[n].start..all[n].end]) {
            continue;
        }
        header.clear();
        split_cells(text, inner_row(text, line), b'|', &mut header);
        n += 1;
        while n < all.len() && text[all[n].start..all[n].end].trim_start().starts_with('|') {
            row.clear();
            split_cells(text, inner_row(text, all[n]), b'|', &mut row);
            n += 1;
            push_row(&header, &row, out);
        }
    }
}

/// A table row without its outer pipes.
fn inner_row(text: &str, line: ByteSpan) -> ByteSpan {
    let s = &text[line.start..line.end];
    let start = line.start + s.find('|').map_or(0, |i| i + 1);
    let trimmed = s.trim_end();
    let mut end = line.start + trimmed.len();
    if trimmed.ends_with('|') && !trimmed.ends_with("\\|") && end > start {
        end -= 1;
    }
    ByteSpan::new(start, end.max(start))
}

/// Most bytes between `INSERT INTO` and its column list's `)`: a table name and a
/// column list, not a document (and no rescans of the whole text per statement).
const MAX_SQL_HEAD_BYTES: usize = 4096;

/// `INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')`: each value under its column.
fn sql_inserts(text: &str, out: &mut Vec<Field>) {
    let bytes = text.as_bytes();
    let find = |from: usize, needle: u8| {
        let end = bytes.len().min(from + MAX_SQL_HEAD_BYTES);
        bytes[from..end]
            .iter()
            .position(|b| *b == needle)
            .map(|i| from + i)
    };
    let mut from = 0;
    while let Some(found) = bytes[from..]
        .windows(11)
        .position(|w| w.eq_ignore_ascii_case(b"insert into"))
    {
        let at = from + found;
        from = at + 11;
        let Some(open) = find(from, b'(') else {
            continue;
        };
        // The table name sits between; a `(` further away is not this statement's.
        if text[from..open].trim().contains(char::is_whitespace) {
            continue;
        }
        let Some(close) = find(open, b')') else {
            continue;
        };
        let mut columns = Vec::new();
        split_cells(text, ByteSpan::new(open + 1, close), b',', &mut columns);
        for c in &mut columns {
            let s = &text[c.start..c.end];
            let lead = s.len() - s.trim_start_matches(['`', '"', '[']).len();
            let inner = s.trim_matches(['`', '"', '[', ']']);
            *c = ByteSpan::new(c.start + lead, c.start + lead + inner.len());
        }
        let mut i = skip_ws(bytes, close + 1);
        if !bytes[i..]
            .get(..6)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"values"))
        {
            continue;
        }
        i = skip_ws(bytes, i + 6);
        while bytes.get(i) == Some(&b'(') {
            let Some(end) = sql_tuple(text, i + 1, &columns, out) else {
                break;
            };
            i = skip_ws(bytes, end + 1);
            if bytes.get(i) != Some(&b',') {
                break;
            }
            i = skip_ws(bytes, i + 1);
        }
        from = i.max(from);
    }
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// One `(…)` of values starting after its `(`; returns the index of its `)`.
fn sql_tuple(
    text: &str,
    mut i: usize,
    columns: &[ByteSpan],
    out: &mut Vec<Field>,
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut column = 0;
    loop {
        i = skip_ws(bytes, i);
        let value = if bytes.get(i) == Some(&b'\'') {
            let end = closing_quote(bytes, i, b'\'', true)?;
            let span = ByteSpan::new(i + 1, end);
            i = end + 1;
            Some(span)
        } else {
            // A number, NULL or a call such as NOW(): up to the next `,` or `)` outside
            // parentheses.
            let start = i;
            let mut depth = 0usize;
            while i < bytes.len() {
                match bytes[i] {
                    b'(' => depth += 1,
                    b')' if depth == 0 => break,
                    b')' => depth -= 1,
                    b',' if depth == 0 => break,
                    b'\'' => return None,
                    _ => {}
                }
                i += 1;
            }
            let span = trim_cell(bytes, start, i);
            let s = &text[span.start..span.end];
            (!s.eq_ignore_ascii_case("null") && !s.contains('(')).then_some(span)
        };
        if let (Some(value), Some(key)) = (value, columns.get(column)) {
            out.push(Field {
                key: *key,
                value,
                open: false,
            });
        }
        column += 1;
        i = skip_ws(bytes, i);
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b')') => return Some(i),
            _ => return None,
        }
    }
}

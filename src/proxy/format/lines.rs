//! Plain-text bodies of log lines (Splunk HEC `/services/collector/raw`): every line is
//! one text; line breaks (`\n` or `\r\n`) and empty lines are kept as they are.

use super::{FormatError, Segment};

pub(super) fn segments(body: &[u8]) -> Result<Vec<Segment<'_>>, FormatError> {
    let mut out = Vec::new();
    let mut rest = body;
    let mut part = 0;
    while !rest.is_empty() {
        let (line, brk) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let cr = usize::from(i > 0 && rest[i - 1] == b'\r');
                (&rest[..i - cr], &rest[i - cr..=i])
            }
            None => (rest, &rest[rest.len()..]),
        };
        // A line that is not text cannot be anonymized: refuse the body.
        let text = std::str::from_utf8(line).map_err(|_| FormatError::NotText { part })?;
        if text.is_empty() {
            out.push(Segment::Keep(line));
        } else {
            out.push(Segment::Text(text));
        }
        out.push(Segment::Keep(brk));
        rest = &rest[line.len() + brk.len()..];
        part += 1;
    }
    Ok(out)
}

//! Restoring a newline-delimited JSON stream as it arrives (Ollama streams every answer
//! so, `application/x-ndjson`, one object per line). Bytes arrive cut anywhere; every
//! complete line is restored and released at once, a partial one waits for its newline.
//! Fields are restored per line as SSE events are (see `doc_stream`), so a placeholder
//! split across lines comes out whole.

use super::doc_stream::{DocFault, DocRestorer, EventStream};
use super::sse::EventFault;

pub struct NdjsonRestorer {
    docs: DocRestorer,
    /// Bytes not processed yet: the incomplete last line, or lines after a failed one.
    buffer: Vec<u8>,
}

impl NdjsonRestorer {
    pub fn new(docs: DocRestorer) -> Self {
        Self {
            docs,
            buffer: Vec::new(),
        }
    }

    /// Restores one line into `out` (its documents, each with a newline).
    fn line(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<(), EventFault> {
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.iter().all(u8::is_ascii_whitespace) {
            // Blank lines carry nothing to restore: as they came.
            out.extend_from_slice(line);
            return Ok(());
        }
        let docs = self.docs.document(content);
        fault(docs, out, line)
    }
}

/// Writes documents as lines; a fault carries what went before and the line as it came.
fn fault(
    docs: Result<Vec<Vec<u8>>, DocFault>,
    out: &mut Vec<u8>,
    raw: &[u8],
) -> Result<(), EventFault> {
    let (docs, failed) = DocFault::settle(docs);
    for doc in docs {
        out.extend_from_slice(&doc);
        out.push(b'\n');
    }
    DocFault::into_event(failed, out, raw)
}

impl EventStream for NdjsonRestorer {
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(newline) = self.buffer.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buffer.drain(..=newline).collect();
            self.line(&line, &mut out)?;
        }
        Ok(out)
    }

    fn pending(&self) -> usize {
        self.buffer.len()
    }

    fn finish(&mut self) -> Result<Vec<u8>, EventFault> {
        // Complete lines left after a failed one, then a last line without its newline.
        let mut out = self.push(&[])?;
        let rest = std::mem::take(&mut self.buffer);
        if !rest.is_empty() {
            self.line(&rest, &mut out)?;
        }
        let held = self.docs.finish();
        fault(held, &mut out, b"")?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::doc_stream::tests::docs;

    fn line(content: &str, done: bool) -> String {
        format!(
            "{}\n",
            serde_json::json!({"model": "m", "message": {"role": "assistant", "content": content}, "done": done})
        )
    }

    fn text(out: &str) -> String {
        out.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["message"]["content"].as_str().map(str::to_owned))
            .collect()
    }

    #[test]
    fn placeholders_split_across_lines_and_bytes_come_out_whole() {
        let stream = [
            line("Hi [P", false),
            line("_1], and [P_1", false),
            line("] again", false),
            line("", true),
        ]
        .concat();
        let whole = {
            let mut r = NdjsonRestorer::new(docs("$.message.content"));
            let mut out = r.push(stream.as_bytes()).unwrap();
            out.extend(r.finish().unwrap());
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(&whole), "Hi Ann, and Ann again");
        assert_eq!(whole.lines().count(), 4, "{whole}");
        assert!(whole
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
        for cut in 1..stream.len() {
            let mut r = NdjsonRestorer::new(docs("$.message.content"));
            let mut out = r.push(&stream.as_bytes()[..cut]).unwrap();
            out.extend(r.push(&stream.as_bytes()[cut..]).unwrap());
            out.extend(r.finish().unwrap());
            assert_eq!(String::from_utf8(out).unwrap(), whole, "cut at {cut}");
        }
    }

    #[test]
    fn complete_lines_go_out_at_once_and_a_last_line_without_newline_at_the_end() {
        let mut r = NdjsonRestorer::new(docs("$.response"));
        let out = r
            .push(b"{\"response\":\"Hello\"}\n{\"response\":\"[P_1]\"}")
            .unwrap();
        assert_eq!(out, b"{\"response\":\"Hello\"}\n");
        assert_eq!(r.finish().unwrap(), b"{\"response\":\"Ann\"}\n");
    }

    #[test]
    fn a_line_that_fails_comes_back_as_it_came_and_the_stream_goes_on() {
        let mut r = NdjsonRestorer::new(docs("$.response"));
        let err = r
            .push(b"{\"response\":\"a\"}\n{\"response\":\"\xff\"}\n{\"response\":\"[P_1]\"}\n")
            .unwrap_err();
        assert_eq!(err.out, b"{\"response\":\"a\"}\n");
        assert_eq!(err.raw, b"{\"response\":\"\xff\"}\n");
        assert_eq!(r.push(&[]).unwrap(), b"{\"response\":\"Ann\"}\n");
    }
}

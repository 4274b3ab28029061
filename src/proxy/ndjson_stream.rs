//! Restoring a newline-delimited JSON stream as it arrives (Ollama streams every answer
//! so, `application/x-ndjson`, one object per line). Bytes arrive cut anywhere; every
//! complete line is restored and released at once, a partial one waits for its newline.
//! Fields are restored per line as SSE events are (see `doc_stream`), so a placeholder
//! split across lines comes out whole.

use super::doc_stream::DocRestorer;

pub struct NdjsonRestorer {
    docs: DocRestorer,
    /// The incomplete last line.
    buffer: Vec<u8>,
}

impl NdjsonRestorer {
    pub fn new(docs: DocRestorer) -> Self {
        Self {
            docs,
            buffer: Vec::new(),
        }
    }

    /// Feeds answer bytes; returns the bytes that can be sent now.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.buffer.extend_from_slice(bytes);
        let Some(last) = self.buffer.iter().rposition(|&b| b == b'\n') else {
            return Vec::new();
        };
        let complete: Vec<u8> = self.buffer.drain(..=last).collect();
        let mut out = Vec::with_capacity(complete.len());
        for line in complete.split_inclusive(|&b| b == b'\n') {
            self.line(line, &mut out);
        }
        out
    }

    /// Ends the stream: a last line without its newline and every held text go out.
    pub fn finish(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        let rest = std::mem::take(&mut self.buffer);
        if !rest.is_empty() {
            self.line(&rest, &mut out);
        }
        for doc in self.docs.finish() {
            out.extend_from_slice(&doc);
            out.push(b'\n');
        }
        out
    }

    fn line(&mut self, line: &[u8], out: &mut Vec<u8>) {
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content.iter().all(u8::is_ascii_whitespace) {
            // Blank lines carry nothing to restore: as they came.
            out.extend_from_slice(line);
            return;
        }
        for doc in self.docs.document(content) {
            out.extend_from_slice(&doc);
            out.push(b'\n');
        }
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
            let mut out = r.push(stream.as_bytes());
            out.extend(r.finish());
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(&whole), "Hi Ann, and Ann again");
        assert_eq!(whole.lines().count(), 4, "{whole}");
        assert!(whole
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
        for cut in 1..stream.len() {
            let mut r = NdjsonRestorer::new(docs("$.message.content"));
            let mut out = r.push(&stream.as_bytes()[..cut]);
            out.extend(r.push(&stream.as_bytes()[cut..]));
            out.extend(r.finish());
            assert_eq!(String::from_utf8(out).unwrap(), whole, "cut at {cut}");
        }
    }

    #[test]
    fn complete_lines_go_out_at_once_and_a_last_line_without_newline_at_the_end() {
        let mut r = NdjsonRestorer::new(docs("$.response"));
        let out = r.push(b"{\"response\":\"Hello\"}\n{\"response\":\"[P_1]\"}");
        assert_eq!(out, b"{\"response\":\"Hello\"}\n");
        assert_eq!(r.finish(), b"{\"response\":\"Ann\"}\n");
    }
}

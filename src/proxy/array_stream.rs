//! Restoring a streamed JSON array as it arrives: Gemini's `streamGenerateContent`
//! without `alt=sse` answers `[`, then one response object after another separated by
//! `,`, then `]`, cut into chunks anywhere (inside strings too). Every complete element is
//! restored and released at once; fields are restored per element as SSE events are (see
//! `doc_stream`), so a placeholder split across elements comes out whole.
//!
//! ```text
//! in:   [{"t":"Hi [P"}   |  ,{"t":"_1]!"}]          ([P_1] stands for Ann)
//! out:  [{"t":"Hi "}     |  ,\r\n{"t":"Ann!"}]
//! ```
//! Each element goes out on one line (line breaks between its tokens become spaces; an
//! element with something restored is written compact), `,\r\n` between elements; text
//! held back when the array closes goes out as copies before the `]`. Bytes that are not
//! an array go through untouched.

use super::doc_stream::{DocFault, DocRestorer, EventStream};
use super::sse::EventFault;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the opening `[`.
    Start,
    /// Between elements (after `[` or `,`).
    Between,
    /// Inside an element that began at the buffer's start.
    Element {
        depth: u32,
        in_string: bool,
        escaped: bool,
    },
    /// After the closing `]`, or not an array at all: bytes go through.
    Through,
}

pub struct ArrayRestorer {
    docs: DocRestorer,
    state: State,
    /// Bytes of the current element (from its first byte), not yet complete.
    buffer: Vec<u8>,
    /// How much of `buffer` has been scanned.
    scanned: usize,
    /// Input after an element that failed, taken up by the next call.
    pending: Vec<u8>,
    /// Whether an element was written (the next one needs a `,`).
    wrote: bool,
}

impl ArrayRestorer {
    pub fn new(docs: DocRestorer) -> Self {
        Self {
            docs,
            state: State::Start,
            buffer: Vec::new(),
            scanned: 0,
            pending: Vec::new(),
            wrote: false,
        }
    }
}

impl EventStream for ArrayRestorer {
    fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault> {
        let mut input = std::mem::take(&mut self.pending);
        input.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            match self.state {
                State::Through => {
                    out.extend_from_slice(&input[i..]);
                    return Ok(out);
                }
                State::Start => {
                    if !b.is_ascii_whitespace() {
                        if b == b'[' {
                            self.state = State::Between;
                        } else {
                            self.state = State::Through;
                            continue;
                        }
                    }
                    out.push(b);
                }
                State::Between => match b {
                    b',' => {}
                    b']' => {
                        self.flush(&mut out)?;
                        out.push(b);
                        self.state = State::Through;
                    }
                    _ if b.is_ascii_whitespace() => {}
                    _ => {
                        self.state = State::Element {
                            depth: 0,
                            in_string: false,
                            escaped: false,
                        };
                        // Re-read this byte as the element's first.
                        continue;
                    }
                },
                State::Element { .. } => {
                    // Scan the rest of the input for the element's end.
                    let start = self.buffer.len();
                    self.buffer.extend_from_slice(&input[i..]);
                    let Some(end) = self.scan() else {
                        return Ok(out);
                    };
                    let element: Vec<u8> = self.buffer.drain(..end).collect();
                    self.buffer.clear();
                    self.state = State::Between;
                    self.scanned = 0;
                    // Go on with what followed the element in the input.
                    i += end - start;
                    if let Err(mut fault) = self.write(&element, &mut out) {
                        self.pending = input[i..].to_vec();
                        fault.out = out;
                        return Err(fault);
                    }
                    continue;
                }
            }
            i += 1;
        }
        Ok(out)
    }

    fn pending(&self) -> usize {
        self.buffer.len()
    }

    fn finish(&mut self) -> Result<Vec<u8>, EventFault> {
        // Input left after a failed element, then held text and an unfinished element.
        let mut out = self.push(&[])?;
        if self.state != State::Through {
            self.flush(&mut out)?;
        }
        out.append(&mut self.buffer);
        Ok(out)
    }
}

impl ArrayRestorer {
    /// Scans `buffer` from `scanned` for the end of the element that starts at 0;
    /// returns the end (exclusive) once it is complete.
    fn scan(&mut self) -> Option<usize> {
        let State::Element {
            mut depth,
            mut in_string,
            mut escaped,
        } = self.state
        else {
            return None;
        };
        let mut found = None;
        for (k, &b) in self.buffer.iter().enumerate().skip(self.scanned) {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                    if depth == 0 {
                        found = Some(k + 1);
                        break;
                    }
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        found = Some(k + 1);
                        break;
                    }
                }
                // A scalar element ends before the separator that follows it.
                b',' | b']' if depth == 0 => {
                    found = Some(k);
                    break;
                }
                _ if depth == 0 && b.is_ascii_whitespace() && k > 0 => {
                    found = Some(k);
                    break;
                }
                _ => {}
            }
        }
        self.scanned = self.buffer.len();
        self.state = State::Element {
            depth,
            in_string,
            escaped,
        };
        found
    }

    /// Restores one element into `out`; a fault carries the element as it came (after
    /// its separator), which counts as written.
    fn write(&mut self, element: &[u8], out: &mut Vec<u8>) -> Result<(), EventFault> {
        let docs = self.docs.document(element);
        self.emit_all(docs, out).map_err(|fault| {
            let mut raw = Vec::new();
            self.emit(element, &mut raw);
            EventFault {
                fault,
                out: Vec::new(),
                raw,
            }
        })
    }

    /// Emits held text as copies, before the closing `]`.
    fn flush(&mut self, out: &mut Vec<u8>) -> Result<(), EventFault> {
        let docs = self.docs.finish();
        self.emit_all(docs, out).map_err(|fault| EventFault {
            fault,
            out: std::mem::take(out),
            raw: Vec::new(),
        })
    }

    fn emit_all(
        &mut self,
        docs: Result<Vec<Vec<u8>>, DocFault>,
        out: &mut Vec<u8>,
    ) -> Result<(), super::fault::Fault> {
        let (docs, failed) = DocFault::settle(docs);
        for doc in docs {
            self.emit(&doc, out);
        }
        failed.map_or(Ok(()), Err)
    }

    fn emit(&mut self, doc: &[u8], out: &mut Vec<u8>) {
        if self.wrote {
            out.extend_from_slice(b",\r\n");
        }
        out.extend_from_slice(doc);
        self.wrote = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::doc_stream::tests::docs;
    use serde_json::{json, Value};

    fn element(text: &str) -> String {
        // Pretty-printed, as Gemini sends it.
        serde_json::to_string_pretty(
            &json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}]}),
        )
        .unwrap()
    }

    fn restorer() -> ArrayRestorer {
        ArrayRestorer::new(docs("$.candidates[*].content.parts[*].text"))
    }

    fn texts(out: &str) -> String {
        let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
        v.as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["candidates"][0]["content"]["parts"][0]["text"].as_str())
            .collect()
    }

    #[test]
    fn placeholders_split_across_elements_and_bytes_come_out_whole() {
        let stream = format!(
            "[{}\n,\r\n{}\n,\r\n{}\n]",
            element("Hi [P"),
            element("_1] \"quoted\" {[,]} and [P_"),
            element("1]")
        );
        let whole = {
            let mut r = restorer();
            let mut out = r.push(stream.as_bytes()).unwrap();
            out.extend(r.finish().unwrap());
            String::from_utf8(out).unwrap()
        };
        assert_eq!(texts(&whole), "Hi Ann \"quoted\" {[,]} and Ann");
        for cut in 1..stream.len() {
            let mut r = restorer();
            let mut out = r.push(&stream.as_bytes()[..cut]).unwrap();
            out.extend(r.push(&stream.as_bytes()[cut..]).unwrap());
            out.extend(r.finish().unwrap());
            assert_eq!(String::from_utf8(out).unwrap(), whole, "cut at {cut}");
        }
        // Byte by byte.
        let mut r = restorer();
        let mut out = Vec::new();
        for b in stream.as_bytes() {
            out.extend(r.push(&[*b]).unwrap());
        }
        out.extend(r.finish().unwrap());
        assert_eq!(String::from_utf8(out).unwrap(), whole);
    }

    #[test]
    fn text_held_when_the_array_closes_goes_out_before_the_bracket() {
        let mut r = restorer();
        let mut out = r
            .push(format!("[{}]", element("bye [P_")).as_bytes())
            .unwrap();
        out.extend(r.finish().unwrap());
        assert_eq!(texts(&String::from_utf8(out).unwrap()), "bye [P_");
    }

    #[test]
    fn complete_elements_go_out_at_once_and_scalars_and_non_arrays_pass() {
        let mut r = restorer();
        let out = r
            .push(format!("[{},{{\"cand", element("Hello")).as_bytes())
            .unwrap();
        assert_eq!(
            texts(&format!("{}]", String::from_utf8(out).unwrap())),
            "Hello"
        );
        let mut r = restorer();
        let mut out = r.push(b"[1, \"[P_1]\" ,true]").unwrap();
        out.extend(r.finish().unwrap());
        // No path selects a scalar: it goes out as it came.
        assert_eq!(out, b"[1,\r\n\"[P_1]\",\r\ntrue]");
        let mut r = restorer();
        let mut out = r.push(b"{\"error\": \"[P_1]\"}").unwrap();
        out.extend(r.finish().unwrap());
        assert_eq!(out, b"{\"error\": \"[P_1]\"}");
    }

    #[test]
    fn an_element_that_fails_comes_back_as_it_came_and_the_array_goes_on() {
        let mut r = restorer();
        let err = r
            .push(b"[{\"a\":1},{\"b\":\"\xff\"},{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"[P_1]\"}]}}]}]")
            .unwrap_err();
        assert_eq!(err.out, b"[{\"a\":1}");
        assert_eq!(err.raw, b",\r\n{\"b\":\"\xff\"}");
        let mut out = r.push(&[]).unwrap();
        out.extend(r.finish().unwrap());
        assert_eq!(
            out,
            b",\r\n{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Ann\"}]}}]}]"
        );
    }
}

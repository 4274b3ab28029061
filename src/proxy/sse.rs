//! Restoring Server-Sent Events as they stream.
//!
//! Bytes arrive cut anywhere; complete events (ended by a blank line) are processed at
//! once and released. Inside each event's JSON `data`, the fields the route names
//! (e.g. `choices[*].delta.content`) are fed to one text stream per field location,
//! which holds back only a tail that could still begin a placeholder. So a placeholder
//! split across events — `"[PER"` in one, `"SON_1]"` in the next — comes out whole,
//! in the second event, while every other byte goes out immediately.
//!
//! Held-back text is flushed, as a copy of the last event of that field carrying only
//! the flushed text, before the first event that carries none of the selected fields
//! (OpenAI's `finish_reason` chunk, `data: [DONE]`, Anthropic's `content_block_stop`)
//! and at the end of the stream.

use std::collections::BTreeMap;

use serde_json::Value;

use super::jsonpath::JsonPath;

/// A streaming restorer of one text field.
pub trait TextStream: Send + Sync {
    /// Feeds text; returns what is final now.
    fn push(&mut self, chunk: &str) -> String;
    /// Ends the stream; returns everything still held.
    fn flush(&mut self) -> String;
    /// Restores a complete text at once (for data that is not JSON).
    fn restore_whole(&self, text: &str) -> String;
}

/// Makes a fresh [`TextStream`] per field location.
pub type StreamFactory = Box<dyn Fn() -> Box<dyn TextStream> + Send + Sync>;

struct Field {
    stream: Box<dyn TextStream>,
    /// The last event's parsed data in which this field appeared, and its location path.
    template: Value,
}

pub struct SseRestorer {
    paths: Vec<JsonPath>,
    factory: StreamFactory,
    buffer: Vec<u8>,
    fields: BTreeMap<String, Field>,
}

impl SseRestorer {
    pub fn new(paths: Vec<JsonPath>, factory: StreamFactory) -> Self {
        Self {
            paths,
            factory,
            buffer: Vec::new(),
            fields: BTreeMap::new(),
        }
    }

    /// Feeds response bytes; returns the bytes that can be sent now.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some((end, next)) = event_end(&self.buffer) {
            let event: Vec<u8> = self.buffer[..end].to_vec();
            self.buffer.drain(..next);
            self.event(&event, &mut out);
        }
        out
    }

    /// Bytes of an unfinished event held until its blank line arrives.
    pub fn pending(&self) -> usize {
        self.buffer.len()
    }

    /// Ends the stream: a trailing incomplete event and all held text go out.
    pub fn finish(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        if !self.buffer.is_empty() {
            let rest = std::mem::take(&mut self.buffer);
            self.event(&rest, &mut out);
        }
        self.flush_all(&mut out);
        out
    }

    fn event(&mut self, event: &[u8], out: &mut Vec<u8>) {
        let text = String::from_utf8_lossy(event);
        let mut other_lines = Vec::new();
        let mut data = Vec::new();
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if let Some(value) = line.strip_prefix("data:") {
                data.push(value.strip_prefix(' ').unwrap_or(value));
            } else {
                other_lines.push(line);
            }
        }
        if data.is_empty() {
            // Comments, keep-alives, `event:`-only blocks.
            out.extend_from_slice(event);
            out.extend_from_slice(b"\n\n");
            return;
        }
        let data = data.join("\n");
        let Ok(mut value) = serde_json::from_str::<Value>(&data) else {
            // `[DONE]` and other non-JSON data: flush first, then restore it whole.
            self.flush_all(out);
            let restored = (self.factory)().restore_whole(&data);
            write_event(out, &other_lines, &restored);
            return;
        };
        let mut seen = false;
        let mut updates: Vec<(String, Value)> = Vec::new();
        for path in &self.paths {
            let fields = &mut self.fields;
            let factory = &self.factory;
            let template = value.clone();
            path.visit_mut(&mut value, &mut |location, s| {
                seen = true;
                let field = fields.entry(location.to_owned()).or_insert_with(|| Field {
                    stream: factory(),
                    template: Value::Null,
                });
                *s = field.stream.push(s);
                updates.push((location.to_owned(), template.clone()));
            });
        }
        if !seen {
            self.flush_all(out);
        }
        for (location, template) in updates {
            if let Some(field) = self.fields.get_mut(&location) {
                field.template = template;
            }
        }
        let json = serde_json::to_string(&value).unwrap_or(data);
        write_event(out, &other_lines, &json);
    }

    /// Emits held text of every field as copies of their last events.
    fn flush_all(&mut self, out: &mut Vec<u8>) {
        let paths = &self.paths;
        for (location, field) in self.fields.iter_mut() {
            let held = field.stream.flush();
            if held.is_empty() {
                continue;
            }
            let mut copy = field.template.clone();
            for path in paths {
                path.visit_mut(&mut copy, &mut |loc, s| {
                    *s = if loc == location {
                        held.clone()
                    } else {
                        String::new()
                    };
                });
            }
            let json = serde_json::to_string(&copy).unwrap_or_default();
            write_event(out, &[], &json);
        }
    }
}

fn write_event(out: &mut Vec<u8>, other_lines: &[&str], data: &str) {
    for line in other_lines.iter().filter(|l| !l.is_empty()) {
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    for line in data.split('\n') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// End of the first complete event: (end of its content, start of the next event).
fn event_end(buffer: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i < buffer.len() {
        if buffer[i] == b'\n' {
            // "\n\n", or "\n\r\n" (CRLF line endings).
            if buffer.get(i + 1) == Some(&b'\n') {
                return Some((i, i + 2));
            }
            if buffer.get(i + 1) == Some(&b'\r') && buffer.get(i + 2) == Some(&b'\n') {
                return Some((i, i + 3));
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test stream that restores `[P_1]` → `Ann`, holding back any tail that is a
    /// prefix of it.
    struct Toy {
        pending: String,
    }

    impl TextStream for Toy {
        fn push(&mut self, chunk: &str) -> String {
            self.pending.push_str(chunk);
            let token = "[P_1]";
            let mut keep = 0;
            for k in (1..token.len()).rev() {
                if self.pending.ends_with(&token[..k]) {
                    keep = k;
                    break;
                }
            }
            let cut = self.pending.len() - keep;
            let out = self.pending[..cut].replace(token, "Ann");
            self.pending.drain(..cut);
            out
        }
        fn flush(&mut self) -> String {
            std::mem::take(&mut self.pending).replace("[P_1]", "Ann")
        }
        fn restore_whole(&self, text: &str) -> String {
            text.replace("[P_1]", "Ann")
        }
    }

    fn restorer() -> SseRestorer {
        SseRestorer::new(
            vec![JsonPath::parse("$.choices[*].delta.content").unwrap()],
            Box::new(|| {
                Box::new(Toy {
                    pending: String::new(),
                })
            }),
        )
    }

    fn chunk(content: &str) -> String {
        format!(
            "data: {}\n\n",
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": content}}]})
        )
    }

    fn contents(out: &str) -> String {
        out.split("\n\n")
            .filter_map(|e| e.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .filter_map(|v| {
                v["choices"][0]["delta"]["content"]
                    .as_str()
                    .map(str::to_owned)
            })
            .collect()
    }

    #[test]
    fn placeholders_split_across_events_and_bytes_come_out_whole() {
        let stream = format!(
            "{}{}{}data: [DONE]\n\n",
            chunk("Hi [P"),
            chunk("_1], bye [P_"),
            chunk("")
        );
        let whole = {
            let mut r = restorer();
            let mut out = r.push(stream.as_bytes());
            out.extend(r.finish());
            String::from_utf8(out).unwrap()
        };
        assert_eq!(contents(&whole), "Hi Ann, bye [P_");
        assert!(whole.ends_with("data: [DONE]\n\n"));
        // Every cut of the byte stream gives the same output.
        for cut in 1..stream.len() {
            let mut r = restorer();
            let mut out = r.push(&stream.as_bytes()[..cut]);
            out.extend(r.push(&stream.as_bytes()[cut..]));
            out.extend(r.finish());
            assert_eq!(String::from_utf8(out).unwrap(), whole, "cut at {cut}");
        }
    }

    #[test]
    fn complete_events_are_released_immediately() {
        let mut r = restorer();
        let out = String::from_utf8(r.push(chunk("Hello ").as_bytes())).unwrap();
        assert_eq!(contents(&out), "Hello ");
        assert!(r.push(b"data: {\"choi").is_empty());
    }
}

//! Restoring Server-Sent Events as they stream.
//!
//! Bytes arrive cut anywhere; complete events (ended by a blank line) are processed at
//! once and released. Inside each event's JSON `data` two kinds of fields are restored:
//!
//! - **fragments** (`restore_stream`: `choices[*].delta.content`, Anthropic's
//!   `delta.partial_json`, Responses' `response.output_text.delta`): pieces of a text the
//!   client concatenates. Each field location has one text stream, which holds back only
//!   a tail that could still begin a placeholder. So a placeholder split across events —
//!   `"[PER"` in one, `"SON_1]"` in the next — comes out whole, in the second event,
//!   while every other byte goes out immediately.
//! - **complete texts** (`restore_events`: `.done` events, `response.completed`'s whole
//!   response, Anthropic's `content_block_start`): restored at once inside their event.
//!
//! A fragment field that is a JSON document (`| json`: streamed tool-call arguments) is
//! restored with JSON-escaped originals, so the document the client assembles stays valid.
//!
//! A field's stream is keyed by its location, in which an array element that has an
//! `index` (streamed `choices`, `tool_calls`) is named by it: the choices of an `n > 1`
//! stream interleave, each event carrying one of them at position 0.
//!
//! Held-back text is flushed, as a copy of the last event of its field carrying only the
//! flushed text, before the first event that carries no fragment field at all (OpenAI's
//! `finish_reason` chunk, `data: [DONE]`, Anthropic's `content_block_stop`, Responses'
//! `.done` event) and at the end of the stream. Keep-alive events (one key with a plain
//! value, such as Anthropic's `{"type": "ping"}`) flush nothing. So a text's last held
//! tail may follow other fields' events (a chat answer's text before its tool calls);
//! clients accumulate each field on its own.
//!
//! An event in which nothing changed goes out byte for byte as it came (signed thinking
//! blocks and signatures among them).

use std::collections::BTreeMap;

use serde_json::Value;

use super::fault::Fault;
use super::jsonpath::{JsonPath, TextKind};

/// A streaming restorer of one text field.
pub trait TextStream: Send + Sync {
    /// Feeds text; returns what is final now.
    fn push(&mut self, chunk: &str) -> String;
    /// Ends the stream; returns everything still held.
    fn flush(&mut self) -> String;
}

/// What restores the fields of events.
pub trait FieldRestorer: Send + Sync {
    /// A fresh stream for one field's fragments.
    fn stream(&self, kind: TextKind) -> Box<dyn TextStream>;
    /// A complete text, restored at once (also data that is not JSON).
    fn whole(&self, text: &str, kind: TextKind) -> String;
}

/// Which paths of an event are restored how.
#[derive(Debug, Clone, Default)]
pub struct EventPaths {
    /// Fragments of a text (`restore_stream`).
    pub fragments: Vec<JsonPath>,
    /// Complete texts (`restore_events`).
    pub complete: Vec<JsonPath>,
}

struct Field {
    stream: Box<dyn TextStream>,
    /// The JSON data of the last event in which this field appeared.
    template: String,
}

/// A field's stream state is per location and kind.
type FieldKey = (String, TextKind);

pub struct SseRestorer {
    paths: EventPaths,
    restorer: Box<dyn FieldRestorer>,
    buffer: Vec<u8>,
    fields: BTreeMap<FieldKey, Field>,
}

impl SseRestorer {
    pub fn new(paths: EventPaths, restorer: Box<dyn FieldRestorer>) -> Self {
        Self {
            paths,
            restorer,
            buffer: Vec::new(),
            fields: BTreeMap::new(),
        }
    }

    /// Feeds response bytes; returns the bytes that can be sent now.
    ///
    /// # Errors
    /// An event that cannot be restored, with `out` holding what went before it; the
    /// event itself is in `raw`.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<u8>, EventFault> {
        self.buffer.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some((end, next)) = event_end(&self.buffer) {
            let event: Vec<u8> = self.buffer.drain(..next).collect();
            if let Err(fault) = self.event(&event[..end], &mut out) {
                return Err(EventFault {
                    fault,
                    out,
                    raw: event,
                });
            }
        }
        Ok(out)
    }

    /// Bytes of an unfinished event held until its blank line arrives.
    pub fn pending(&self) -> usize {
        self.buffer.len()
    }

    /// Ends the stream: a trailing incomplete event and all held text go out.
    ///
    /// # Errors
    /// As [`SseRestorer::push`].
    pub fn finish(&mut self) -> Result<Vec<u8>, EventFault> {
        let mut out = Vec::new();
        if !self.buffer.is_empty() {
            let rest = std::mem::take(&mut self.buffer);
            if let Err(fault) = self.event(&rest, &mut out) {
                return Err(EventFault {
                    fault,
                    out,
                    raw: rest,
                });
            }
        }
        self.flush_where(&mut out, |_| true);
        Ok(out)
    }

    fn event(&mut self, event: &[u8], out: &mut Vec<u8>) -> Result<(), Fault> {
        let text = std::str::from_utf8(event).map_err(|_| Fault::NotUtf8)?;
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
            write_raw(out, event);
            return Ok(());
        }
        let data = data.join("\n");
        let Ok(mut value) = serde_json::from_str::<Value>(&data) else {
            // `[DONE]` and other non-JSON data: flush first, then restore it whole.
            self.flush_where(out, |_| true);
            let restored = self.restorer.whole(&data, TextKind::Plain);
            if restored == data {
                write_raw(out, event);
            } else {
                write_event(out, &other_lines, &restored);
            }
            return Ok(());
        };
        // Whether this event carries any fragment field.
        let mut present = false;
        for path in &self.paths.fragments {
            path.visit_texts(&mut value, true, &mut |_, _, _| present = true);
        }
        if !present && !is_keep_alive(&value) {
            self.flush_where(out, |_| true);
        }
        let mut changed = false;
        // The event as it came: a flush writes a copy of it (parsed again only then).
        let template = present.then_some(data.as_str());
        let (fields, restorer) = (&mut self.fields, &self.restorer);
        for path in &self.paths.fragments {
            path.visit_texts(&mut value, true, &mut |loc, s, kind| {
                let field = fields
                    .entry((loc.to_owned(), kind))
                    .or_insert_with(|| Field {
                        stream: restorer.stream(kind),
                        template: String::new(),
                    });
                let restored = field.stream.push(s);
                changed |= restored != *s;
                *s = restored;
                if let Some(template) = template {
                    template.clone_into(&mut field.template);
                }
            });
        }
        for path in &self.paths.complete {
            path.visit_texts(&mut value, true, &mut |_, s, kind| {
                let restored = restorer.whole(s, kind);
                changed |= restored != *s;
                *s = restored;
            });
        }
        if changed {
            let json = serde_json::to_string(&value).unwrap_or(data);
            write_event(out, &other_lines, &json);
        } else {
            write_raw(out, event);
        }
        Ok(())
    }

    /// Emits the held text of the fields `which` selects, as copies of their last
    /// events, and forgets those fields.
    fn flush_where(&mut self, out: &mut Vec<u8>, which: impl Fn(&FieldKey) -> bool) {
        let keys: Vec<FieldKey> = self.fields.keys().filter(|k| which(k)).cloned().collect();
        for key in keys {
            let Some(mut field) = self.fields.remove(&key) else {
                continue;
            };
            let held = field.stream.flush();
            if held.is_empty() {
                continue;
            }
            let Ok(mut copy) = serde_json::from_str::<Value>(&field.template) else {
                continue;
            };
            for path in &self.paths.fragments {
                path.visit_texts(&mut copy, true, &mut |loc, s, kind| {
                    *s = if loc == key.0 && kind == key.1 {
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

/// A keep-alive event: one key with a plain value, such as Anthropic's
/// `{"type": "ping"}`, which may come between two fragments of one text.
fn is_keep_alive(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|o| o.len() <= 1 && o.values().all(|v| !(v.is_object() || v.is_array())))
}

/// An event that could not be restored.
#[derive(Debug)]
pub struct EventFault {
    pub fault: Fault,
    /// What can go out before the event.
    pub out: Vec<u8>,
    /// The event as it came, with its terminating blank line.
    pub raw: Vec<u8>,
}

fn write_raw(out: &mut Vec<u8>, event: &[u8]) {
    out.extend_from_slice(event);
    out.extend_from_slice(b"\n\n");
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
    }

    struct ToyRestorer;

    impl FieldRestorer for ToyRestorer {
        fn stream(&self, _: TextKind) -> Box<dyn TextStream> {
            Box::new(Toy {
                pending: String::new(),
            })
        }
        fn whole(&self, text: &str, _: TextKind) -> String {
            text.replace("[P_1]", "Ann")
        }
    }

    fn with_paths(fragments: &[&str], complete: &[&str]) -> SseRestorer {
        let parse = |p: &[&str]| p.iter().map(|p| JsonPath::parse(p).unwrap()).collect();
        SseRestorer::new(
            EventPaths {
                fragments: parse(fragments),
                complete: parse(complete),
            },
            Box::new(ToyRestorer),
        )
    }

    fn restorer() -> SseRestorer {
        with_paths(&["$.choices[*].delta.content"], &[])
    }

    fn run(r: &mut SseRestorer, pieces: &[&[u8]]) -> String {
        let mut out = Vec::new();
        for p in pieces {
            out.extend(r.push(p).unwrap());
        }
        out.extend(r.finish().unwrap());
        String::from_utf8(out).unwrap()
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
        let whole = run(&mut restorer(), &[stream.as_bytes()]);
        assert_eq!(contents(&whole), "Hi Ann, bye [P_");
        assert!(whole.ends_with("data: [DONE]\n\n"));
        // Every cut of the byte stream gives the same output.
        for cut in 1..stream.len() {
            let (a, b) = stream.as_bytes().split_at(cut);
            assert_eq!(run(&mut restorer(), &[a, b]), whole, "cut at {cut}");
        }
    }

    #[test]
    fn complete_events_are_released_immediately() {
        let mut r = restorer();
        let out = String::from_utf8(r.push(chunk("Hello ").as_bytes()).unwrap()).unwrap();
        assert_eq!(contents(&out), "Hello ");
        assert!(r.push(b"data: {\"choi").unwrap().is_empty());
    }

    #[test]
    fn unchanged_events_go_out_byte_for_byte() {
        // Odd spacing and key order that re-serializing would change.
        let signed = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\", \"delta\": {\"type\": \"signature_delta\", \"signature\": \"[P_1]\\u00e9\"}}\n\n";
        let mut r = with_paths(&["$.delta.text"], &[]);
        assert_eq!(run(&mut r, &[signed.as_bytes()]), signed);
    }

    #[test]
    fn held_text_is_flushed_before_an_event_without_fragments_but_not_on_a_ping() {
        let delta = |t: &str| {
            format!(
                "data: {}\n\n",
                serde_json::json!({"type": "d", "delta": {"text": t}})
            )
        };
        let stream = format!(
            "{}data: {{\"type\": \"ping\"}}\n\n{}{}data: {{\"type\": \"stop\", \"index\": 0}}\n\n",
            delta("Hi [P"),
            delta("_1] and [P_"),
            delta("1") // no closing bracket: held, then flushed before `stop`
        );
        let mut r = with_paths(&["$.delta.text"], &[]);
        let out = run(&mut r, &[stream.as_bytes()]);
        let texts: Vec<String> = out
            .split("\n\n")
            .filter_map(|e| e.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .map(|v| v["delta"]["text"].as_str().unwrap_or("-").to_owned())
            .collect();
        assert_eq!(texts, ["Hi ", "-", "Ann and ", "", "[P_1", "-"]);
    }

    #[test]
    fn interleaved_choices_and_tool_calls_keep_their_own_streams() {
        // Two choices (n = 2), each event carrying one of them at position 0.
        let event = |index: u64, c: &str| {
            format!(
                "data: {}\n\n",
                serde_json::json!({"choices": [{"index": index, "delta": {"content": c}}]})
            )
        };
        let stream = [
            event(0, "a [P"),
            event(1, "b [P_"),
            event(0, "_1]"),
            event(1, "1]"),
            "data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"stop\"}]}\n\n"
                .into(),
        ]
        .concat();
        let out = run(&mut restorer(), &[stream.as_bytes()]);
        let mut by_choice = [String::new(), String::new()];
        for data in out.split("\n\n").filter_map(|e| e.strip_prefix("data: ")) {
            let v: Value = serde_json::from_str(data).unwrap();
            let i = v["choices"][0]["index"].as_u64().unwrap() as usize;
            by_choice[i].push_str(v["choices"][0]["delta"]["content"].as_str().unwrap_or(""));
        }
        assert_eq!(by_choice, ["a Ann", "b Ann"], "{out}");
    }

    #[test]
    fn complete_texts_are_restored_inside_their_event_and_never_held() {
        let done = "data: {\"type\":\"response.output_text.done\",\"text\":\"bye [P_1]\"}\n\n";
        let mut r = with_paths(
            &["$[?@.type=='response.output_text.delta'].delta"],
            &["$[?@.type=='response.output_text.done'].text"],
        );
        assert_eq!(
            run(&mut r, &[done.as_bytes()]),
            "data: {\"type\":\"response.output_text.done\",\"text\":\"bye Ann\"}\n\n"
        );
    }

    #[test]
    fn an_event_that_is_not_utf8_is_a_fault_with_what_went_before() {
        let mut r = restorer();
        let mut bytes = chunk("ok").into_bytes();
        bytes.extend_from_slice(b"data: \xff\n\nrest");
        let fault = r.push(&bytes).unwrap_err();
        assert_eq!(fault.fault, Fault::NotUtf8);
        assert_eq!(contents(std::str::from_utf8(&fault.out).unwrap()), "ok");
        assert_eq!(fault.raw, b"data: \xff\n\n");
    }
}

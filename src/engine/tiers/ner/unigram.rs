//! A SentencePiece Unigram model that gives the `tokenizers` crate's answers in a
//! fraction of its memory.
//!
//! The crate's `Unigram` finds the pieces that start at a position through a trie of one
//! hash map per node: ~50 MB for the multilingual model's 92k pieces, a fifth of the
//! service's memory. Here the pieces are one string, and the trie one array of nodes,
//! each node's children side by side and sorted by their byte (a few MB in all).
//!
//! Decoding is the crate's `encode_optimized` (SentencePiece's best path): the same
//! scores added in the same order, the same tie-breaking (the first candidate of equal
//! score wins), unknown characters fused, byte fallback, so the tokens are the same; a
//! test compares both on every tokenizer we ship.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use tokenizers::models::unigram::UnigramTrainer;
use tokenizers::{Model, Token};

/// What SentencePiece subtracts from the lowest piece score for an unknown character.
const UNK_PENALTY: f64 = 10.0;

/// A Unigram model read from the `model` object of a `tokenizer.json`.
pub struct CompactUnigram {
    /// All pieces, concatenated; piece `id` is `text[starts[id]..starts[id + 1]]`.
    text: String,
    starts: Vec<u32>,
    scores: Vec<f64>,
    /// The trie of the pieces' bytes; node 0 is the root (the empty prefix).
    nodes: Vec<Node>,
    min_score: f64,
    unk_id: Option<u32>,
    byte_fallback: bool,
}

/// A prefix of some piece. Its children are `nodes[children..children + count]`.
#[derive(Clone, Copy)]
struct Node {
    /// The piece this prefix is, if any: of pieces written twice the last id, as the
    /// crate's map from piece to id keeps it.
    id: u32,
    children: u32,
    count: u16,
    /// The last byte of the prefix.
    byte: u8,
}

const NO_PIECE: u32 = u32::MAX;

#[derive(Deserialize)]
struct Serialized {
    #[serde(rename = "type")]
    kind: String,
    unk_id: Option<usize>,
    vocab: Vec<(String, f64)>,
    #[serde(default)]
    byte_fallback: bool,
}

impl<'de> Deserialize<'de> for CompactUnigram {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let model = Serialized::deserialize(deserializer)?;
        if model.kind != "Unigram" {
            return Err(D::Error::custom(format!(
                "model type {:?} is not Unigram",
                model.kind
            )));
        }
        CompactUnigram::new(&model.vocab, model.unk_id, model.byte_fallback)
            .map_err(D::Error::custom)
    }
}

impl CompactUnigram {
    /// # Errors
    /// The vocabulary is empty while an unknown id is named, the unknown id is outside
    /// it, or it does not fit in `u32` offsets.
    pub fn new(
        vocab: &[(String, f64)],
        unk_id: Option<usize>,
        byte_fallback: bool,
    ) -> Result<Self, String> {
        if let Some(unk) = unk_id {
            if unk >= vocab.len() {
                return Err("unk_id is not in the vocabulary".into());
            }
        }
        let total: usize = vocab.iter().map(|(p, _)| p.len()).sum();
        if total >= u32::MAX as usize || vocab.len() >= u32::MAX as usize {
            return Err("vocabulary too large".into());
        }
        let mut text = String::with_capacity(total);
        let mut starts = Vec::with_capacity(vocab.len() + 1);
        let mut scores = Vec::with_capacity(vocab.len());
        let mut min_score = f64::INFINITY;
        for (piece, score) in vocab {
            starts.push(text.len() as u32);
            text.push_str(piece);
            scores.push(*score);
            min_score = min_score.min(*score);
        }
        starts.push(text.len() as u32);
        let mut model = CompactUnigram {
            text,
            starts,
            scores,
            nodes: Vec::new(),
            min_score,
            unk_id: unk_id.map(|u| u as u32),
            byte_fallback,
        };
        model.nodes = model.trie();
        Ok(model)
    }

    /// Builds the trie breadth first from the pieces sorted by their bytes: the pieces
    /// under a prefix are a run of that order, split into child runs by the next byte.
    fn trie(&self) -> Vec<Node> {
        let mut sorted: Vec<u32> = (0..self.scores.len() as u32).collect();
        // Stable: equal pieces stay in id order, so the last of a run is the last id.
        sorted.sort_by(|&a, &b| self.piece(a).as_bytes().cmp(self.piece(b).as_bytes()));
        let mut nodes = vec![Node {
            id: NO_PIECE,
            children: 0,
            count: 0,
            byte: 0,
        }];
        // (node, run of `sorted` under its prefix, prefix length)
        let mut queue = std::collections::VecDeque::from([(0usize, 0usize, sorted.len(), 0usize)]);
        while let Some((node, mut lo, hi, depth)) = queue.pop_front() {
            // The pieces equal to the prefix sort first. (An empty piece is the root's:
            // a lookup finds it, a search never reports it.)
            while lo < hi && self.piece(sorted[lo]).len() == depth {
                nodes[node].id = sorted[lo];
                lo += 1;
            }
            nodes[node].children = nodes.len() as u32;
            while lo < hi {
                let byte = self.piece(sorted[lo]).as_bytes()[depth];
                let end = lo
                    + sorted[lo..hi]
                        .partition_point(|&id| self.piece(id).as_bytes()[depth] == byte);
                queue.push_back((nodes.len(), lo, end, depth + 1));
                nodes.push(Node {
                    id: NO_PIECE,
                    children: 0,
                    count: 0,
                    byte,
                });
                nodes[node].count += 1;
                lo = end;
            }
        }
        nodes.shrink_to_fit();
        nodes
    }

    fn piece(&self, id: u32) -> &str {
        let id = id as usize;
        &self.text[self.starts[id] as usize..self.starts[id + 1] as usize]
    }

    fn child(&self, node: &Node, byte: u8) -> Option<&Node> {
        let children = &self.nodes[node.children as usize..][..node.count as usize];
        children
            .binary_search_by_key(&byte, |c| c.byte)
            .ok()
            .map(|i| &children[i])
    }

    /// Calls `found(length, id)` for each piece that `rest` starts with, shortest first.
    fn prefixes(&self, rest: &[u8], mut found: impl FnMut(usize, u32)) {
        let mut node = &self.nodes[0];
        for (depth, &byte) in rest.iter().enumerate() {
            let Some(next) = self.child(node, byte) else {
                return;
            };
            node = next;
            if node.id != NO_PIECE {
                found(depth + 1, node.id);
            }
        }
    }

    fn id_of(&self, piece: &str) -> Option<u32> {
        let mut node = &self.nodes[0];
        for &byte in piece.as_bytes() {
            node = self.child(node, byte)?;
        }
        (node.id != NO_PIECE).then_some(node.id)
    }

    /// The best segmentation of `sentence` as byte ranges with their ids (unknown runs
    /// fused into one range with the unknown id).
    fn segment(&self, sentence: &str) -> Result<Vec<(usize, usize, u32)>, String> {
        /// The best path ending at a position: its last piece and where that starts.
        #[derive(Clone, Copy)]
        struct Best {
            id: u32,
            score: f64,
            from: Option<usize>,
        }
        impl Best {
            /// Takes the path through piece `id` from `from` if it scores higher; the
            /// first of equal scores stays, as in the crate.
            fn offer(&mut self, id: u32, score: f64, from: usize) {
                if self.from.is_none() || score > self.score {
                    *self = Best {
                        id,
                        score,
                        from: Some(from),
                    };
                }
            }
        }
        let size = sentence.len();
        let bytes = sentence.as_bytes();
        let unk_score = self.min_score - UNK_PENALTY;
        let mut best = vec![
            Best {
                id: 0,
                score: 0.0,
                from: None
            };
            size + 1
        ];
        let mut at = 0;
        while at < size {
            let so_far = best[at].score;
            let char_len = sentence[at..].chars().next().map_or(1, char::len_utf8);
            let mut single = false;
            self.prefixes(&bytes[at..], |len, id| {
                best[at + len].offer(id, self.scores[id as usize] + so_far, at);
                single |= len == char_len;
            });
            if !single {
                let unk = self.unk_id.ok_or("no unknown piece")?;
                best[at + char_len].offer(unk, unk_score + so_far, at);
            }
            at += char_len;
        }
        let mut pieces = Vec::new();
        let mut end = size;
        while end > 0 {
            let node = best[end];
            let start = node.from.ok_or("no path")?;
            match pieces.last_mut() {
                // Unknown characters in a row become one token.
                Some((s, _, id)) if Some(node.id) == self.unk_id && Some(*id) == self.unk_id => {
                    *s = start;
                }
                _ => pieces.push((start, end, node.id)),
            }
            end = start;
        }
        pieces.reverse();
        Ok(pieces)
    }
}

impl Model for CompactUnigram {
    type Trainer = UnigramTrainer;

    fn tokenize(&self, sentence: &str) -> tokenizers::Result<Vec<Token>> {
        let mut tokens = Vec::new();
        for (start, end, id) in self.segment(sentence)? {
            let value = &sentence[start..end];
            // As the crate: a fused run of unknown characters is a piece if the
            // vocabulary holds it, else its bytes if all are pieces, else unknown.
            let known = if Some(id) == self.unk_id {
                self.id_of(value)
            } else {
                Some(id)
            };
            if known.is_none() && self.byte_fallback {
                let bytes: Option<Vec<Token>> = value
                    .bytes()
                    .map(|b| {
                        let name = format!("<0x{b:02X}>");
                        self.id_of(&name)
                            .map(|id| Token::new(id, name, (start, end)))
                    })
                    .collect();
                if let Some(bytes) = bytes {
                    tokens.extend(bytes);
                    continue;
                }
            }
            tokens.push(Token::new(
                known.unwrap_or(id),
                value.to_owned(),
                (start, end),
            ));
        }
        Ok(tokens)
    }

    fn token_to_id(&self, token: &str) -> Option<u32> {
        self.id_of(token)
    }

    fn id_to_token(&self, id: u32) -> Option<String> {
        ((id as usize) < self.scores.len()).then(|| self.piece(id).to_owned())
    }

    fn get_vocab(&self) -> HashMap<String, u32> {
        // Later ids overwrite earlier ones of the same piece, as in the crate.
        (0..self.scores.len() as u32)
            .map(|id| (self.piece(id).to_owned(), id))
            .collect()
    }

    fn get_vocab_size(&self) -> usize {
        self.scores.len()
    }

    fn save(&self, _folder: &Path, _prefix: Option<&str>) -> tokenizers::Result<Vec<PathBuf>> {
        Err("the compact Unigram model is read-only".into())
    }

    fn get_trainer(&self) -> UnigramTrainer {
        UnigramTrainer::default()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::super::tokenize::Tokenizer;
    use super::*;
    use proptest::prelude::*;

    fn vocab(pieces: &[(&str, f64)]) -> Vec<(String, f64)> {
        pieces.iter().map(|(p, s)| ((*p).to_owned(), *s)).collect()
    }

    fn both(
        pieces: &[(&str, f64)],
        byte_fallback: bool,
    ) -> (CompactUnigram, tokenizers::models::unigram::Unigram) {
        let v = vocab(pieces);
        (
            CompactUnigram::new(&v, Some(0), byte_fallback).unwrap(),
            tokenizers::models::unigram::Unigram::from(v, Some(0), byte_fallback).unwrap(),
        )
    }

    fn tokens(model: &impl Model, text: &str) -> Vec<(u32, String, (usize, usize))> {
        model
            .tokenize(text)
            .unwrap()
            .into_iter()
            .map(|t| (t.id, t.value, t.offsets))
            .collect()
    }

    #[test]
    fn the_best_path_wins_and_unknown_characters_fuse() {
        let (ours, _) = both(
            &[
                ("<unk>", 0.0),
                ("a", 0.0),
                ("b", 0.0),
                ("c", 0.0),
                ("d", 0.0),
                ("cd", 1.0),
                ("ab", 2.0),
                ("abc", 5.0),
                ("abcd", 10.0),
            ],
            false,
        );
        let values: Vec<String> = tokens(&ours, "abcdacdxx")
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(values, ["abcd", "a", "cd", "xx"]);
        assert_eq!(tokens(&ours, "xx")[0], (0, "xx".to_owned(), (0, 2)));
    }

    #[test]
    fn a_piece_written_twice_answers_with_its_last_id_and_bytes_fall_back() {
        let pieces = [
            ("<unk>", 0.0),
            ("ab", -1.0),
            ("a", -2.0),
            ("ab", -1.5),
            ("<0xC3>", -3.0),
            ("<0xA9>", -3.0),
            ("", -1.0),
        ];
        let (ours, stock) = both(&pieces, true);
        for text in ["ab", "aab", "é", "éz", "abé", "zz"] {
            assert_eq!(tokens(&ours, text), tokens(&stock, text), "{text:?}");
        }
        assert_eq!(ours.token_to_id("ab"), Some(3));
        assert_eq!(ours.token_to_id(""), stock.token_to_id(""));
        assert_eq!(ours.id_to_token(1).as_deref(), Some("ab"));
        assert_eq!(ours.id_to_token(7), None);
    }

    type Shipped = (tokenizers::Tokenizer, Tokenizer);

    /// The tokenizer we ship with a Unigram model, read by the crate and by us.
    fn shipped() -> &'static Shipped {
        static LOADED: OnceLock<Shipped> = OnceLock::new();
        LOADED.get_or_init(|| {
            let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("models/anonymizer-ner-multilingual/tokenizer.json");
            (
                tokenizers::Tokenizer::from_file(&path).unwrap(),
                Tokenizer::load(&path).unwrap(),
            )
        })
    }

    fn same_encoding((stock, ours): &Shipped, text: &str) {
        let expected = stock.encode(text, false).unwrap();
        let got = ours.encoding(text).unwrap();
        assert_eq!(got.get_ids(), expected.get_ids(), "{text:?}");
        assert_eq!(got.get_offsets(), expected.get_offsets(), "{text:?}");
        assert_eq!(got.get_word_ids(), expected.get_word_ids(), "{text:?}");
    }

    #[test]
    fn the_shipped_unigram_tokenizer_reads_every_language_as_the_crate_does() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/multilingual");
        let mut lines = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            for line in text.lines() {
                same_encoding(shipped(), line);
                lines += 1;
            }
        }
        assert!(lines > 500, "{lines}");
        for odd in [
            "",
            " ",
            "<unk> <s></s><pad> <mask>",
            "ⵜⴰⵎⴰⵣⵉⵖⵜ 𐀀𐀁 ꦗꦮ",
            "e\u{301}te\u{301} ﬁ ① ＡＢＣ ｶﾀｶﾅ",
            "😀👩‍👩‍👧 \u{200b}\u{feff}\t\r\n\u{0}",
            "x".repeat(300).as_str(),
            "Straßenbahnhaltestellenüberdachungsreinigungsunternehmen",
        ] {
            same_encoding(shipped(), odd);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn any_text_is_read_as_the_crate_reads_it(text in "\\PC{0,60}") {
            same_encoding(shipped(), &text);
        }
    }
}

"""Fast standard-library tests for the data side of the training pipeline.

    python3 -m unittest discover training/tests
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import bio  # noqa: E402
import data  # noqa: E402
import metrics  # noqa: E402
import schedule  # noqa: E402
import synth  # noqa: E402
import transfer  # noqa: E402


def toy_tokens(text):
    """Whitespace/punctuation words, each word split into 3-char sub-words (like WordPiece)."""
    import re
    offsets, word_ids = [], []
    for w, m in enumerate(re.finditer(r"\w+|[^\w\s]", text)):
        for s in range(m.start(), m.end(), 3):
            offsets.append((s, min(s + 3, m.end())))
            word_ids.append(w)
    return offsets, word_ids


class TestBio(unittest.TestCase):
    def test_labels(self):
        self.assertEqual(bio.bio_labels(), ["O", "B-PER", "I-PER", "B-ORG", "I-ORG",
                                            "B-LOC", "I-LOC", "B-DATE", "I-DATE"])
        self.assertEqual(bio.label2id()["B-LOC"], 5)
        self.assertEqual(bio.id2label()[8], "I-DATE")

    def test_first_subword_labelling(self):
        text = "Anna Christou went to Nicosia"
        off, wid = toy_tokens(text)
        spans = [(0, 13, "PER"), (22, 29, "LOC")]
        labs = bio.token_label_ids(off, wid, spans)
        l = bio.id2label()
        named = [(text[s:e], l.get(x, "-")) for (s, e), x in zip(off, labs)]
        self.assertEqual(named[0], ("Ann", "B-PER"))
        self.assertEqual(named[1], ("a", "-"))
        self.assertEqual(named[2], ("Chr", "I-PER"))
        self.assertEqual(named[3][1], "-")
        self.assertIn(("wen", "O"), named)
        self.assertIn(("Nic", "B-LOC"), named)

    def test_adjacent_entities_get_new_B(self):
        text = "Paris London"
        off, wid = toy_tokens(text)
        labs = bio.token_label_ids(off, wid, [(0, 5, "LOC"), (6, 12, "LOC")])
        firsts = [labs[i] for i in range(len(wid)) if i == 0 or wid[i] != wid[i - 1]]
        self.assertEqual(firsts, [bio.label2id()["B-LOC"]] * 2)

    def test_ignore_ranges_and_specials(self):
        text = "Mr Robert Murray"
        off, wid = toy_tokens(text)
        off, wid = [(0, 0)] + off + [(0, 0)], [None] + wid + [None]
        labs = bio.token_label_ids(off, wid, [(3, 16, "PER")], ignore=[(0, 3)])
        self.assertEqual(labs[0], bio.IGNORE)
        self.assertEqual(labs[1], bio.IGNORE)            # "Mr" left out of the loss
        self.assertEqual(labs[2], bio.label2id()["B-PER"])
        self.assertEqual(labs[-1], bio.IGNORE)

    def test_decode(self):
        words = [(0, 4), (5, 13), (14, 18), (19, 21), (22, 29), (30, 35)]
        got = bio.decode_words(words, ["B-PER", "I-PER", "O", "I-LOC", "I-ORG", "O"])
        self.assertEqual(got, [(0, 13, "PER"), (19, 21, "LOC"), (22, 29, "ORG")])

    def test_roundtrip(self):
        text = "On 3 March 2024 Dr Wei Zhang of Acme Corp flew to New York ."
        spans = [(3, 15, "DATE"), (19, 28, "PER"), (32, 41, "ORG"), (50, 58, "LOC")]
        off, wid = toy_tokens(text)
        labs = bio.token_label_ids(off, wid, spans)
        l = bio.id2label()
        words = [(s, e) for _, s, e in bio.words_from_tokens(off, wid)]
        wl = [l[labs[t]] for t, _, _ in bio.words_from_tokens(off, wid)]
        self.assertEqual(bio.decode_words(words, wl), spans)

    def test_windows(self):
        starts = list(range(0, 300, 2))
        w = bio.windows(300, starts, 126)
        self.assertEqual(w[0][0], 0)
        self.assertEqual(w[-1][1], 300)
        for (a, b), (c, d) in zip(w, w[1:]):
            self.assertEqual(b, c)
            self.assertLessEqual(b - a, 126)
            self.assertEqual(b % 2, 0)     # cut at word starts only
        ov = bio.windows(300, starts, 126, stride=96)
        self.assertEqual(ov[-1][1], 300)
        self.assertTrue(all(b - a <= 126 for a, b in ov))
        self.assertTrue(all(ov[i + 1][0] < ov[i][1] for i in range(len(ov) - 1)))
        self.assertEqual(bio.windows(0, [], 126), [])


    def test_casing_type_ids(self):
        text = "ANNA met McDonald in paris"
        off, wid = toy_tokens(text)
        tt = bio.casing_type_ids(text, off, wid)
        shapes = [(text[s:e], t) for (s, e), t in zip(off, tt)]
        self.assertEqual(shapes, [("ANN", 1), ("A", 1), ("met", 0), ("McD", 1), ("ona", 1),
                                  ("ld", 1), ("in", 0), ("par", 0), ("is", 0)])
        self.assertEqual(bio.casing_type_ids("", [], []), [])


class TestData(unittest.TestCase):
    def test_label_maps(self):
        doc = {"text": "@bob loves Nike in Paris", "entities": [
            {"start": 1, "end": 4, "label": "person"}, {"start": 11, "end": 15, "label": "corporation"},
            {"start": 19, "end": 24, "label": "location"}]}
        d = data.convert(doc, "wnut17")
        self.assertEqual(d["spans"], [(1, 4, "PER"), (11, 15, "ORG"), (19, 24, "LOC")])
        doc = {"text": "EU rejects German call", "entities": [
            {"start": 0, "end": 2, "label": "ORG"}, {"start": 11, "end": 17, "label": "MISC"}]}
        self.assertEqual(data.convert(doc, "conll2003")["spans"], [(0, 2, "ORG")])

    def test_misc_is_a_type_of_its_own_only_when_asked(self):
        doc = {"text": "EU rejects German call", "entities": [
            {"start": 0, "end": 2, "label": "ORG"}, {"start": 11, "end": 17, "label": "MISC"}]}
        self.assertEqual(data.convert(doc, "conll2003", misc=True)["spans"],
                         [(0, 2, "ORG"), (11, 17, "MISC")])
        doc = {"text": "my Toyota plays Fargo at Nike", "entities": [
            {"start": 3, "end": 9, "label": "product"}, {"start": 16, "end": 21, "label": "creative-work"},
            {"start": 25, "end": 29, "label": "corporation"}]}
        self.assertEqual(data.convert(doc, "wnut17", misc=True)["spans"],
                         [(3, 9, "MISC"), (16, 21, "MISC"), (25, 29, "ORG")])
        types = bio.ENTITY_TYPES + ("MISC",)
        self.assertEqual(bio.bio_labels(types)[-2:], ["B-MISC", "I-MISC"])
        offsets, word_ids = toy_tokens(doc["text"])
        labels = bio.token_label_ids(offsets, word_ids, [(3, 9, "MISC")], (), types)
        self.assertEqual(labels[1], bio.label2id(types)["B-MISC"])

    def test_tab_titles_and_codes(self):
        text = "by Mrs Anna Christou on 31 May 1991 (no. 18403/91)"
        ents = [{"start": 3, "end": 20, "label": "PERSON", "identifier_type": "DIRECT"},
                {"start": 24, "end": 35, "label": "DATETIME", "identifier_type": "QUASI"},
                {"start": 41, "end": 49, "label": "CODE", "identifier_type": "DIRECT"}]
        doc = {"text": text, "entities": ents}
        d = data.convert(doc, "tab", tab_titles="ignore")
        self.assertEqual(d["spans"], [(7, 20, "PER"), (24, 35, "DATE")])
        self.assertEqual(d["ignore"], [(3, 7)])
        self.assertEqual(data.convert(doc, "tab", tab_titles="keep")["spans"][0], (3, 20, "PER"))
        self.assertEqual(data.mask_worthy(doc), [(3, 20), (24, 35), (41, 49)])
        self.assertEqual(data.gold_spans(doc, "tab"), [(3, 20, "PER"), (24, 35, "DATE")])

    def test_tab_maskworthy_policy(self):
        text = "Judge Ann Ray of the Supreme Court heard Acme Ltd v. Turkey"
        ents = [{"start": 6, "end": 13, "label": "PERSON", "identifier_type": "NO_MASK"},
                {"start": 21, "end": 34, "label": "ORG", "identifier_type": "NO_MASK"},
                {"start": 41, "end": 49, "label": "ORG", "identifier_type": "QUASI"},
                {"start": 53, "end": 59, "label": "LOC", "identifier_type": "NO_MASK"}]
        doc = {"text": text, "entities": ents}
        self.assertEqual(len(data.convert(doc, "tab")["spans"]), 4)
        self.assertEqual(data.convert(doc, "tab", tab_unmasked_o=("PER", "ORG", "LOC"))["spans"],
                         [(6, 13, "PER"), (41, 49, "ORG")])
        self.assertEqual(data.convert(doc, "tab", tab_unmasked_o=("ORG",))["spans"],
                         [(6, 13, "PER"), (41, 49, "ORG"), (53, 59, "LOC")])
        # "all" is the default
        self.assertEqual(data.convert(doc, "tab", tab_unmasked_o=())["spans"],
                         data.convert(doc, "tab")["spans"])

    def test_dates_on_news(self):
        text = "BRUSSELS 1996-08-22\nThe Commission said on Thursday that in 1995 , on 3 March 2024 and Aug 10 ."
        doc = {"text": text, "entities": [{"start": 0, "end": 8, "label": "LOC"}]}
        silver = data.convert(doc, "conll2003", date_mode="silver")
        got = [text[a:b] for a, b, t in silver["spans"] if t == "DATE"]
        self.assertEqual(got, ["1996-08-22", "Thursday", "1995", "3 March 2024", "Aug 10"])
        ign = data.convert(doc, "conll2003", date_mode="ignore")
        self.assertEqual(ign["spans"], [(0, 8, "LOC")])
        self.assertEqual(len(ign["ignore"]), 5)
        self.assertEqual(data.find_dates("You may go in March or May"), [])

    def test_load_jsonl_and_corpus_of(self):
        with tempfile.TemporaryDirectory() as t:
            p = os.path.join(t, "wnut17_train.jsonl")
            with open(p, "w") as f:
                f.write(json.dumps({"id": "a", "text": "hi Bob", "entities": [
                    {"start": 3, "end": 6, "label": "person"}]}) + "\n\n")
            self.assertEqual(data.corpus_of(p), "wnut17")
            self.assertEqual(data.load_corpus(p)[0]["spans"], [(3, 6, "PER")])
        with self.assertRaises(ValueError):
            data.corpus_of("other.jsonl")


class TestSynth(unittest.TestCase):
    def test_spans_are_valid_and_deterministic(self):
        a, b = synth.generate(300, seed=5), synth.generate(300, seed=5)
        self.assertEqual(a, b)
        labels = set()
        for d in a:
            last = 0
            for e in d["entities"]:
                s, t = e["start"], e["end"]
                self.assertLess(s, t)
                self.assertGreaterEqual(s, last)
                last = t
                span = d["text"][s:t]
                self.assertEqual(span, span.strip())
                self.assertFalse(span.lower().startswith("the "))
                labels.add(e["label"])
        self.assertEqual(labels, {"PER", "ORG", "LOC", "DATE"})

    def test_log_machinery_stays_outside_entities(self):
        # ISO timestamps with milliseconds and hex request ids are the log's own: never a span.
        import re
        docs = synth.generate(400, seed=3)
        machinery = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z|\b[0-9a-f]{16,32}\b", re.I)
        seen = 0
        for d in docs:
            for m in machinery.finditer(d["text"]):
                seen += 1
                for e in d["entities"]:
                    self.assertFalse(e["start"] < m.end() and m.start() < e["end"], (d["text"], e))
        self.assertGreater(seen, 50)

    def test_clinical_notes_have_short_dates_and_physicians(self):
        docs = synth.generate(400, seed=4)
        ents = [(d["text"][e["start"]:e["end"]], e["label"]) for d in docs for e in d["entities"]]
        self.assertTrue(any(l == "DATE" and len(t) <= 5 and "/" in t for t, l in ents))
        notes = [d["text"] for d in docs if "DISCHARGE SUMMARY" in d["text"].upper()]
        self.assertTrue(notes)

    def test_upper_copies_keep_spans(self):
        import random
        docs = [{"id": "a", "text": "Anna Schmidt lives in Berlin.", "spans": [(0, 12, "PER"), (22, 28, "LOC")], "ignore": []}]
        up = data.upper_copies(docs, 1.0, random.Random(1))
        self.assertEqual(up[0]["text"], "ANNA SCHMIDT LIVES IN BERLIN.")
        self.assertEqual(up[0]["spans"], docs[0]["spans"])
        self.assertEqual(data.upper_copies(docs, 0.0, random.Random(1)), [])

    def test_lower_copies_keep_spans(self):
        import random
        docs = [{"id": "a", "text": "Anna Schmidt lives in Berlin.", "spans": [(0, 12, "PER"), (22, 28, "LOC")], "ignore": []},
                # "İ" lower-cases to two characters: the offsets would move, so no copy
                {"id": "b", "text": "İstanbul", "spans": [(0, 8, "LOC")], "ignore": []}]
        low = data.lower_copies(docs, 1.0, random.Random(1))
        self.assertEqual([d["text"] for d in low], ["anna schmidt lives in berlin."])
        self.assertEqual(low[0]["spans"], docs[0]["spans"])
        self.assertEqual(low[0]["id"], "a-lower")
        self.assertEqual(data.lower_copies(docs, 0.0, random.Random(1)), [])

    def test_has_casing_variety(self):
        texts = [d["text"] for d in synth.generate(300, seed=1)]
        self.assertTrue(any(t == t.lower() for t in texts))
        self.assertTrue(any(t == t.upper() for t in texts))
        self.assertTrue(any(t != t.lower() and t != t.upper() for t in texts))


class TestTransfer(unittest.TestCase):
    DOCS = [
        {"text": "off to Paris with Anna tmrw", "entities": [
            {"start": 7, "end": 12, "label": "location"}, {"start": 18, "end": 22, "label": "person"}]},
        {"text": "new Nike shoes !! @bob", "entities": [{"start": 4, "end": 8, "label": "corporation"}]},
        {"text": "so bored", "entities": []},
    ]

    def test_swapped_entities_keep_exact_offsets_and_labels(self):
        docs = transfer.tweets(self.DOCS, 200, seed=2)
        self.assertEqual(docs, transfer.tweets(self.DOCS, 200, seed=2))
        pool = {k: {v.lower() for v in vs} for k, vs in transfer.entity_pool(self.DOCS).items()}
        joined = 0
        for d in docs:
            self.assertTrue(d["entities"])
            for e in d["entities"]:
                self.assertIn(d["text"][e["start"]:e["end"]].lower(), pool[e["label"]])
            joined += len(d["entities"]) > 2
        self.assertGreater(joined, 0)

    def test_swap_rewrites_every_entity(self):
        import random
        pool = {"location": ["New York"], "person": ["bo"]}
        text, ents = transfer.swapped(self.DOCS[0], pool, random.Random(0), lower_p=0.0)
        self.assertEqual(text, "off to New York with bo tmrw")
        self.assertEqual(ents, [{"start": 7, "end": 15, "label": "location"},
                                {"start": 21, "end": 23, "label": "person"}])

    def test_gold_labels_cover_the_swapped_entities(self):
        # --transfer-gold trains on data.convert of these documents
        for d in transfer.tweets(self.DOCS, 50, seed=3):
            spans = data.convert(d, "wnut17", date_mode="none")["spans"]
            want = [(e["start"], e["end"], {"location": "LOC", "person": "PER",
                                            "corporation": "ORG"}[e["label"]])
                    for e in d["entities"]]
            self.assertEqual([tuple(x) for x in spans], want)


class TestMetrics(unittest.TestCase):
    def test_strict(self):
        g = [[(0, 4, "PER"), (10, 15, "LOC")]]
        p = [[(0, 4, "PER"), (10, 14, "LOC"), (20, 25, "ORG")]]
        s = metrics.strict_span_scores(g, p, ("PER", "LOC", "ORG"))
        self.assertEqual(s["PER"][:3], (1.0, 1.0, 1.0))
        self.assertEqual(s["LOC"][2], 0.0)
        self.assertAlmostEqual(s["micro"][0], 1 / 3)
        self.assertAlmostEqual(s["micro"][1], 1 / 2)

    def test_char_coverage(self):
        texts = ["Anna Smith lives here"]
        r, p = metrics.char_coverage_text(texts, [[(0, 10)]], [[(5, 16)]])
        self.assertAlmostEqual(r, 5 / 9)     # "Smith" of "AnnaSmith"
        self.assertAlmostEqual(p, 5 / 10)    # "Smith" of "Smithlives"


class TestResume(unittest.TestCase):
    def test_a_resumed_run_sees_the_batches_and_rates_of_the_whole_run(self):
        import random
        ex = [([0] * (1 + (i * 7) % 50),) for i in range(203)]
        rng = random.Random(7)
        whole = [schedule.batches(ex, 8, rng) for _ in range(3)]
        rng = random.Random(7)
        schedule.skip_epochs(ex, 8, rng, schedule.resumed_epoch("/tmp/run/hf_epoch2/"))
        self.assertEqual(schedule.batches(ex, 8, rng), whole[2])
        self.assertNotEqual(whole[1], whole[2])
        self.assertEqual(sorted(i for b in whole[2] for i in b), list(range(203)))

    def test_learning_rate_warms_up_then_decays_to_zero(self):
        total = 100
        self.assertEqual(schedule.warmup_steps(total), 6)
        self.assertAlmostEqual(schedule.lr_factor(0, total), 1 / 6)
        self.assertAlmostEqual(schedule.lr_factor(5, total), 1.0)
        self.assertAlmostEqual(schedule.lr_factor(53, total), 47 / 94)
        self.assertEqual(schedule.lr_factor(100, total), 0.0)

    def test_resume_takes_only_epoch_folders(self):
        with self.assertRaises(ValueError):
            schedule.resumed_epoch("/tmp/run/hf")


if __name__ == "__main__":
    unittest.main()

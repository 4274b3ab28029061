"""Standard-library tests of the multilingual pipeline's data side: the templates of
every language, the labels of sub-word tokens, and the scripts the vocabulary keeps.

    python3 -m unittest discover training/tests
"""
import glob
import importlib.util
import os
import runpy
import string
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))  # training/data.py, which train.py reads


def module(name):
    """training/multilingual/NAME.py, apart from training/NAME.py."""
    path = os.path.join(HERE, "..", "multilingual", name + ".py")
    spec = importlib.util.spec_from_file_location("multilingual_" + name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


generate = module("generate")
prune = module("prune")
train = module("train")

SLOTS = set(generate.LABELS) | generate.UNLABELLED
DATE_FIELDS = {"d", "dd", "m", "mm", "month", "y", "yy"}


def fields(pattern):
    return {name for _, name, _, _ in string.Formatter().parse(pattern) if name is not None}


class Templates(unittest.TestCase):
    def test_every_language_declares_well_formed_templates(self):
        modules = sorted(glob.glob(os.path.join(HERE, "..", "multilingual", "lang", "*.py")))
        self.assertEqual([os.path.basename(m)[:-3] for m in modules],
                         sorted(["de", "fr", "es", "it", "nl", "pt", "pl", "sv", "tr", "zh", "ja", "ko"]))
        for path in modules:
            m = runpy.run_path(path)
            with self.subTest(path=path):
                self.assertEqual(len(m["MONTHS"]), 12)
                self.assertGreaterEqual(len(m["TEMPLATES"]), 150)
                self.assertGreaterEqual(len(m["NEGATIVES"]), 50)
                for t in m["TEMPLATES"] + m["ORGS"]:
                    self.assertLessEqual(fields(t), SLOTS, t)
                for n in m["NEGATIVES"]:
                    self.assertEqual(generate.SLOT.sub("", n.replace("{{", "").replace("}}", "")).count("{"), 0, n)
                for d in m["DATES"]:
                    self.assertLessEqual(fields(d), DATE_FIELDS, d)

    def test_literal_braces_survive_and_slots_are_labelled(self):
        class Fixed(generate.Filler):
            def __init__(self):
                self.code, self.spec = "de", {}

            def value(self, slot):
                return {"PER": "Anna Weber", "CITY": "Köln", "PHONE": "0221 123456"}[slot]

        text, ents = Fixed().fill('{{"msg":"{PER} aus {CITY}, Tel. {PHONE}"}}')
        self.assertEqual(text, '{"msg":"Anna Weber aus Köln, Tel. 0221 123456"}')
        self.assertEqual([(text[e["start"]:e["end"]], e["label"]) for e in ents],
                         [("Anna Weber", "PER"), ("Köln", "LOC")])


class TokenLabels(unittest.TestCase):
    def test_metaspace_tokens_start_at_their_word(self):
        text = "Frau  Müller"
        self.assertEqual(train.trimmed(text, [(0, 4), (4, 9), (9, 12)]), [(0, 4), (6, 9), (9, 12)])

    def test_every_sub_word_is_tagged_and_empty_tokens_are_not_scored(self):
        # 王 小 明 住 在 北京 市, with a lone metaspace token first
        offsets = [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 7), (7, 8)]
        spans = [(0, 3, "PER"), (5, 8, "LOC")]
        got = [train.ID2LABEL[i] if i >= 0 else None for i in train.token_labels(offsets, spans)]
        self.assertEqual(got, [None, "B-PER", "I-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"])

    def test_adjacent_entities_of_one_type_begin_anew(self):
        got = train.token_labels([(0, 2), (2, 4)], [(0, 2, "PER"), (2, 4, "PER")])
        self.assertEqual([train.ID2LABEL[i] for i in got], ["B-PER", "B-PER"])


class Vocabulary(unittest.TestCase):
    def test_the_scripts_we_serve_are_kept_and_others_are_not(self):
        for ch in "aßłışå中ひカ한Ω€😀▁":
            self.assertTrue(prune.served(ch), ch)
        for ch in "яع한"[:2] + "ก":
            self.assertFalse(prune.served(ch), ch)


if __name__ == "__main__":
    unittest.main()

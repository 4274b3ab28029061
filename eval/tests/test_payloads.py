"""Standard-library tests of the payload generator: `python3 -m unittest discover eval/tests`."""

import csv
import io
import json
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import payloads  # noqa: E402

DOC = {
    "text": 'Mail "Ann" O\'Brien | ok\nin Zoë\'s café 😀 Paris',
    "entities": [
        {"start": 6, "end": 9, "label": "x:PER"},
        {"start": 11, "end": 18, "label": "x:PER"},
        {"start": 27, "end": 30, "label": "x:PER"},
        {"start": 40, "end": 45, "label": "x:LOC", "identifier_type": "QUASI"},
    ],
}
# What each DOC entity reads as in a format's escaping.
RENDERED = {
    "json": ['Ann', "O'Brien", "Zoë", "Paris"],
    "sql": ["Ann", "O''Brien", "Zoë", "Paris"],
}


class RenderTest(unittest.TestCase):
    def test_every_format_keeps_every_entity_of_the_message_and_records_machinery(self):
        for fmt in payloads.FORMATS:
            for seed in range(30):
                text, entities, negatives = payloads.render(DOC, fmt, random.Random(seed))
                labels = [e["label"] for e in entities]
                self.assertEqual(labels.count("x:PER"), 3, fmt)
                self.assertEqual(labels.count("x:LOC"), 1, fmt)
                kinds = {n["kind"] for n in negatives}
                self.assertIn("ts", kinds, fmt)
                for span in entities + negatives:
                    self.assertLess(span["start"], span["end"])
                    self.assertLessEqual(span["end"], len(text))

    def test_json_lines_parse_and_their_message_is_the_document(self):
        for seed in range(50):
            text, entities, _ = payloads.render(DOC, "json", random.Random(seed))
            record = json.loads(text)
            message = next(v for k, v in record.items() if k in ("msg", "message", "note"))
            self.assertEqual(message, DOC["text"])
            ours = [e for e in entities if e["label"].startswith("x:")]
            got = [json.loads('"' + text[e["start"]:e["end"]] + '"') for e in ours]
            self.assertEqual(got, RENDERED["json"])

    def test_json_can_escape_non_ascii_as_u_escapes_with_surrogate_pairs(self):
        esc = payloads.json_escape(True)
        self.assertEqual(payloads.escape_all('é"😀\n', esc), '\\u00e9\\"\\ud83d\\ude00\\n')
        self.assertEqual(json.loads('"' + payloads.escape_all("Zoë 😀", esc) + '"'), "Zoë 😀")

    def test_sql_quotes_are_doubled_inside_the_span(self):
        for seed in range(20):
            text, entities, _ = payloads.render(DOC, "sql", random.Random(seed))
            ours = [text[e["start"]:e["end"]] for e in entities if e["label"].startswith("x:")]
            self.assertEqual(ours, RENDERED["sql"])
            self.assertTrue(text.startswith("INSERT INTO "))

    def test_csv_rows_read_back_with_the_csv_module(self):
        for seed in range(20):
            text, _, _ = payloads.render(DOC, "csv", random.Random(seed), [DOC])
            delim = next(d for d in (",", ";", "\t") if d in text.split("\n")[0])
            rows = list(csv.reader(io.StringIO(text), delimiter=delim))
            self.assertEqual(len(rows), 3)
            self.assertIn(DOC["text"], rows[1])
            self.assertTrue(all(len(r) == len(rows[0]) for r in rows))

    def test_markdown_escapes_pipes_and_breaks_lines(self):
        text, _, _ = payloads.render(DOC, "markdown", random.Random(1))
        self.assertIn("O'Brien \\| ok<br>in", text)
        lines = text.split("\n")
        self.assertEqual(len(lines), 3)
        self.assertTrue(lines[1].startswith("|---|"))

    def test_the_self_check_refuses_a_span_that_does_not_hold_its_value(self):
        with self.assertRaises(AssertionError):
            payloads.check("abc", [{"start": 0, "end": 2, "_value": "bc"}])

    def test_rendering_is_deterministic_for_a_seed(self):
        a = payloads.render(DOC, "logfmt", random.Random(3))
        b = payloads.render(DOC, "logfmt", random.Random(3))
        self.assertEqual(a, b)


class ValuesTest(unittest.TestCase):
    def test_cards_pass_luhn_and_ibans_pass_mod_97(self):
        rng = random.Random(5)
        for _ in range(50):
            digits = [int(c) for c in payloads.card(rng).replace(" ", "")]
            total = sum(d if i % 2 == 0 else (2 * d - 9 if d > 4 else 2 * d) for i, d in enumerate(reversed(digits)))
            self.assertEqual(total % 10, 0)
            value = payloads.iban(rng).replace(" ", "")
            numeric = "".join(str(int(c, 36)) for c in value[4:] + value[:4])
            self.assertEqual(int(numeric) % 97, 1)


class SourcesTest(unittest.TestCase):
    def test_sentences_never_cut_an_entity_and_keep_its_text(self):
        doc = {"text": "First line with Bob Smith here.\nSecond line, New\nYork stays whole.",
               "entities": [{"start": 16, "end": 25, "label": "PER"}, {"start": 45, "end": 53, "label": "LOC"}]}
        pieces = list(payloads.sentences("src", doc))
        found = [(p["text"][e["start"]:e["end"]], e["label"]) for p in pieces for e in p["entities"]]
        self.assertEqual(found, [("Bob Smith", "src:PER"), ("New\nYork", "src:LOC")])


if __name__ == "__main__":
    unittest.main()

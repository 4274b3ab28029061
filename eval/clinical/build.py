"""Turns eval/clinical/notes.txt (hand-written notes, {TYPE|text} marks gold spans) into the
corpora's JSONL format on stdout, offsets in code points (pure standard library).

    python3 eval/clinical/build.py > /tmp/clinical_notes.jsonl
    target/release/anonymizer eval --data /tmp/clinical_notes.jsonl --labels eval/labels/clinical.json
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import marked  # noqa: E402


def parse(src):
    return marked.parse(src, "clinical")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "notes.txt"), encoding="utf-8") as f:
        marked.write(parse(f.read()))


if __name__ == "__main__":
    main()

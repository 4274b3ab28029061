"""Turns eval/clinical/notes.txt (hand-written notes, {TYPE|text} marks gold spans) into the
corpora's JSONL format on stdout, offsets in code points (pure standard library).

    python3 eval/clinical/build.py > /tmp/clinical_notes.jsonl
    target/release/anonymizer eval --data /tmp/clinical_notes.jsonl --labels eval/labels/clinical.json
"""
import json
import os
import re
import sys

MARK = re.compile(r"\{([A-Z]+)\|([^}]*)\}")


def parse(src):
    docs = []
    for i, para in enumerate(src.split("\n\n")):
        para = "\n".join(l for l in para.split("\n") if not l.startswith("#")).strip("\n")
        if not para:
            continue
        text, ents, pos = "", [], 0
        for m in MARK.finditer(para):
            text += para[pos:m.start()]
            ents.append({"start": len(text), "end": len(text) + len(m.group(2)), "label": m.group(1)})
            text += m.group(2)
            pos = m.end()
        docs.append({"id": "clinical-%02d" % i, "text": text + para[pos:], "entities": ents})
    return docs


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "notes.txt"), encoding="utf-8") as f:
        for d in parse(f.read()):
            sys.stdout.write(json.dumps(d, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

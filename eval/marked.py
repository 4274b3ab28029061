"""Texts with inline gold marks, `{LABEL|text}`, as the corpora's JSONL format (offsets in
code points; pure standard library). One document per paragraph; lines starting with `#`
are comments.

    python3 eval/marked.py eval/probes/news.txt > /tmp/news.jsonl
"""
import json
import os
import re
import sys

MARK = re.compile(r"\{([A-Z_]+)\|([^}]*)\}")


def parse(src, prefix):
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
        docs.append({"id": "%s-%02d" % (prefix, i), "text": text + para[pos:], "entities": ents})
    return docs


def write(docs):
    for d in docs:
        sys.stdout.write(json.dumps(d, ensure_ascii=False) + "\n")


def main(paths):
    for path in paths:
        prefix = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            write(parse(f.read(), prefix))


if __name__ == "__main__":
    main(sys.argv[1:])

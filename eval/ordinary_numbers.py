"""Writes a JSONL corpus of ordinary numbers with no personal data (seeded, stdlib only).

Used to measure which context-free identifier patterns flag ordinary numbers:

    python3 eval/ordinary_numbers.py > /tmp/ordinary.jsonl
    target/release/anonymizer eval --data /tmp/ordinary.jsonl --labels eval/labels/ids.json

Every detection on it is a false positive. Lines carry no context words either way
("order", "invoice" would lower scores), so the count is each pattern's raw rate.
"""

import json
import random

rng = random.Random(11)


def digits(n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def kinds():
    """(name, value) pairs of the number shapes logs, code and prose are full of."""
    yield "unix_seconds", str(rng.randint(1_000_000_000, 1_900_000_000))
    yield "unix_millis", str(rng.randint(1_000_000_000_000, 1_900_000_000_000))
    yield "nanp_phone", f"{rng.randint(201, 989)}{rng.randint(200, 999)}{digits(4)}"
    yield "cn_mobile", f"1{rng.choice('3456789')}{digits(9)}"
    yield "intl_phone", f"{rng.choice(['44', '49', '33', '61', '91'])}{digits(9)}"
    yield "id_6_to_13", digits(rng.randint(6, 13)).lstrip("0") or "7"
    yield "spaced_3_3_3", f"{digits(3)} {digits(3)} {digits(3)}"
    yield "dashed_3_3_3", f"{digits(3)}-{digits(3)}-{digits(3)}"
    yield "dashed_6_4", f"{digits(6)}-{digits(4)}"
    yield "code_letter_digits", f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{digits(rng.randint(7, 9))}"
    yield "code_2letters_7digits", (
        f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{digits(7)}"
    )
    yield "isbn13", f"978{digits(10)}"


TEMPLATES = ["Value: {}", "ts={}", "{}", "see {} above", "id {} ok", "[{}]"]

for i in range(5000):
    parts = [rng.choice(TEMPLATES).format(v) for _, v in kinds()]
    print(json.dumps({"id": f"ordinary-{i}", "text": "\n".join(parts), "entities": []}))

"""Validated identifiers asked for by name: are valid numbers found without a context
word, in every layout their specification allows, and invalid ones (one check digit
off) not? Numbers are generated here from each format's published algorithm, written
independently of the server's validators, with a seeded generator.

    python benches/conformance/validated.py --url http://127.0.0.1:8080 --key KEY [--n 20]

Each case is one request `{"text": ["Reference: <number>."], "detection_config":
{"entities": [TYPE]}}`: a valid number counts as found when an entity of TYPE spans
exactly it; an invalid one as rejected when nothing of TYPE is found. Prints a markdown
table per type and the totals.
"""
import argparse
import http.client
import json
import random
import string
import sys
from urllib.parse import urlparse


def luhn_digit(payload):
    total = 0
    for i, d in enumerate(reversed(payload)):
        n = int(d)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return str((10 - total % 10) % 10)


def bump(digit):
    return str((int(digit) + 1 + random.randrange(8)) % 10)


def group(s, sizes, sep):
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    return sep.join(out)


# --- generators: each returns (valid, invalid) compact strings -----------------------

def card():
    p = random.choice(["4", "51", "37", "6011"])
    length = 15 if p == "37" else 16
    body = p + "".join(random.choices(string.digits, k=length - 1 - len(p)))
    v = body + luhn_digit(body)
    return v, v[:-1] + bump(v[-1])


def card_layouts(s):
    if len(s) == 15:
        # American Express prints 4-6-5, never with dots.
        return [s, group(s, [4, 6, 5], " "), group(s, [4, 6, 5], "-")]
    return [s, group(s, [4] * 4, " "), group(s, [4] * 4, "-"), group(s, [4] * 4, ".")]


def aba():
    while True:
        # Routing symbols 01-12, 21-32, 61-72 and 80 (the Federal Reserve's ranges).
        prefix = random.choice([*range(1, 13), *range(21, 33), *range(61, 73), 80])
        d = f"{prefix:02d}" + "".join(random.choices(string.digits, k=6))
        w = [3, 7, 1, 3, 7, 1, 3, 7]
        c = (10 - sum(int(x) * k for x, k in zip(d, w)) % 10) % 10
        v = d + str(c)
        return v, v[:-1] + bump(v[-1])


def npi():
    base = random.choice("12") + "".join(random.choices(string.digits, k=8))
    v = base + luhn_digit("80840" + base)
    return v, v[:-1] + bump(v[-1])


def nhs():
    while True:
        d = "".join(random.choices(string.digits, k=9))
        c = 11 - sum(int(x) * (10 - i) for i, x in enumerate(d)) % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        v = d + str(c)
        bad = v[:-1] + str((c + 1) % 10)
        return v, bad


def sin():
    base = random.choice("1234567") + "".join(random.choices(string.digits, k=7))
    v = base + luhn_digit(base)
    return v, v[:-1] + bump(v[-1])


VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
      [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
      [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]
VP1 = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]


def vp(i, n):
    for _ in range(i % 8):
        n = VP1[n]
    return n


def verhoeff_digit(payload):
    c = 0
    for i, d in enumerate(reversed(payload)):
        c = VD[c][vp(i + 1, int(d))]
    return str(VINV[c])


def aadhaar():
    base = random.choice("23456789") + "".join(random.choices(string.digits, k=10))
    v = base + verhoeff_digit(base)
    return v, v[:-1] + bump(v[-1])


def abn():
    while True:
        d = [random.randrange(1, 10)] + [random.randrange(10) for _ in range(10)]
        w = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]
        if sum((d[0] - 1) * w[0] + sum(x * k for x, k in zip(d[1:], w[1:])) for _ in [0]) % 89 == 0:
            v = "".join(map(str, d))
            return v, v[:-1] + bump(v[-1])


def tfn():
    while True:
        d = [random.randrange(10) for _ in range(9)]
        w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
        if sum(x * k for x, k in zip(d, w)) % 11 == 0:
            v = "".join(map(str, d))
            return v, v[:-1] + bump(v[-1])


def es_nif():
    n = random.randrange(10_000_000, 99_999_999)
    letters = "TRWAGMYFPDXBNJZSQVHLCKE"
    c = letters[n % 23]
    wrong = letters[(n + 1) % 23]
    return f"{n}{c}", f"{n}{wrong}"


def pesel():
    while True:
        y, m, dd = random.randrange(50, 99), random.randrange(1, 13), random.randrange(1, 28)
        d = f"{y:02d}{m:02d}{dd:02d}" + "".join(random.choices(string.digits, k=4))
        w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
        c = (10 - sum(int(x) * k for x, k in zip(d, w)) % 10) % 10
        v = d + str(c)
        return v, v[:-1] + bump(v[-1])


def nip():
    while True:
        d = "".join(random.choices(string.digits, k=9))
        if d[0] == "0":
            continue
        w = [6, 5, 7, 2, 3, 4, 5, 6, 7]
        c = sum(int(x) * k for x, k in zip(d, w)) % 11
        if c == 10:
            continue
        v = d + str(c)
        return v, v[:-1] + bump(v[-1])


def bsn():
    while True:
        d = "".join(random.choices(string.digits, k=8))
        if d[0] == "0":
            continue
        s = sum(int(x) * (9 - i) for i, x in enumerate(d))
        c = s % 11
        if c == 10:
            continue
        v = d + str(c)
        return v, v[:-1] + bump(v[-1])


def ahv():
    body = "756" + "".join(random.choices(string.digits, k=9))
    total = sum(int(x) * (3 if i % 2 else 1) for i, x in enumerate(body))
    v = body + str((10 - total % 10) % 10)
    return v, v[:-1] + bump(v[-1])


def cpf():
    while True:
        d = [random.randrange(10) for _ in range(9)]
        if len(set(d)) == 1:
            continue
        c1 = (sum(x * (10 - i) for i, x in enumerate(d)) * 10) % 11 % 10
        c2 = (sum(x * (11 - i) for i, x in enumerate(d + [c1])) * 10) % 11 % 10
        v = "".join(map(str, d + [c1, c2]))
        return v, v[:-1] + bump(v[-1])


def iban():
    country, length = random.choice([("DE", 18), ("GB", 18), ("FR", 23), ("NL", 14), ("ES", 20)])
    if country == "GB":
        bban = "".join(random.choices(string.ascii_uppercase, k=4)) + "".join(random.choices(string.digits, k=14))
    elif country == "NL":
        bban = "".join(random.choices(string.ascii_uppercase, k=4)) + "".join(random.choices(string.digits, k=10))
    else:
        bban = "".join(random.choices(string.digits, k=length))
    num = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    check = 98 - int(num) % 97
    v = f"{country}{check:02d}{bban}"
    bad = f"{country}{(check % 97) + 1:02d}{bban}" if check != 97 else f"{country}02{bban}"
    return v, bad


def iban_layouts(s):
    return [s, " ".join(s[i:i + 4] for i in range(0, len(s), 4))]


def ssn():
    area = random.choice([x for x in range(1, 900) if x != 666])
    v = f"{area:03d}{random.randrange(1, 100):02d}{random.randrange(1, 10000):04d}"
    return v, f"000{v[3:]}"


TYPES = {
    "CREDIT_CARD": (card, card_layouts),
    "IBAN_CODE": (iban, iban_layouts),
    "ABA_ROUTING_NUMBER": (aba, lambda s: [s, group(s, [4, 4, 1], "-")]),
    "US_NPI": (npi, lambda s: [s]),
    "UK_NHS": (nhs, lambda s: [s, group(s, [3, 3, 4], " "), group(s, [3, 3, 4], "-")]),
    "CA_SIN": (sin, lambda s: [s, group(s, [3, 3, 3], " "), group(s, [3, 3, 3], "-")]),
    "IN_AADHAAR": (aadhaar, lambda s: [s, group(s, [4, 4, 4], " "), group(s, [4, 4, 4], "-")]),
    "AU_ABN": (abn, lambda s: [s, group(s, [2, 3, 3, 3], " ")]),
    "AU_TFN": (tfn, lambda s: [s, group(s, [3, 3, 3], " ")]),
    "ES_NIF": (es_nif, lambda s: [s, s[:8] + "-" + s[8:]]),
    "PL_PESEL": (pesel, lambda s: [s]),
    "PL_NIP": (nip, lambda s: [s, group(s, [3, 3, 2, 2], "-"), group(s, [3, 2, 2, 3], "-")]),
    "NL_BSN": (bsn, lambda s: [s, group(s, [4, 2, 3], ".")]),
    "CH_AHV": (ahv, lambda s: [s, group(s, [3, 4, 4, 2], ".")]),
    "BR_CPF": (cpf, lambda s: [s, s[:3] + "." + s[3:6] + "." + s[6:9] + "-" + s[9:]]),
    "US_SSN": (ssn, lambda s: [group(s, [3, 2, 4], "-"), group(s, [3, 2, 4], " ")]),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    random.seed(a.seed)
    u = urlparse(a.url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)

    def found(label, number):
        text = f"Reference: {number}."
        body = json.dumps({"text": [text], "detection_config": {"entities": [label]}})
        conn.request("POST", "/v1/anonymize", body, {"Content-Type": "application/json", "X-API-Key": a.key})
        r = conn.getresponse()
        v = json.loads(r.read())
        if r.status != 200:
            sys.exit(f"{label}: status {r.status}: {v}")
        return [e["text"] for e in v["detected_entities"]]

    print("| type | valid found | invalid rejected | layouts missed (index) |")
    print("|---|---|---|---|")
    tot = [0, 0, 0, 0]
    for label, (gen, layouts) in TYPES.items():
        ok = n_ok = rej = n_rej = 0
        missed = set()
        for _ in range(a.n):
            valid, invalid = gen()
            for i, form in enumerate(layouts(valid)):
                n_ok += 1
                if found(label, form) == [form]:
                    ok += 1
                else:
                    missed.add(i)
            for form in layouts(invalid):
                n_rej += 1
                rej += found(label, form) == []
        tot = [tot[0] + ok, tot[1] + n_ok, tot[2] + rej, tot[3] + n_rej]
        shown = ", ".join(str(i) for i in sorted(missed)) or "—"
        print(f"| {label} | {ok}/{n_ok} | {rej}/{n_rej} | {shown} |")
    print(f"| **all** | {tot[0]}/{tot[1]} ({tot[0] / tot[1]:.3f}) | {tot[2]}/{tot[3]} ({tot[2] / tot[3]:.3f}) | |")


if __name__ == "__main__":
    main()

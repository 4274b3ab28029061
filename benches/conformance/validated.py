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


def de_tax_id():
    while True:
        digits = random.sample(range(10), 9)
        digits.insert(random.randrange(10), random.choice(digits))
        if digits[0] == 0:
            continue
        product = 10
        for d in digits:
            total = (d + product) % 10 or 10
            product = (total * 2) % 11
        c = (11 - product) % 10
        v = "".join(map(str, digits)) + str(c)
        return v, v[:-1] + bump(v[-1])


def birth(y0=1950, y1=2005):
    y, m, d = random.randrange(y0, y1), random.randrange(1, 13), random.randrange(1, 29)
    return y, m, d


def se_personnummer():
    y, m, d = birth()
    n = f"{y % 100:02d}{m:02d}{d:02d}{random.randrange(0, 1000):03d}"
    v = n + luhn_digit(n)
    return v, v[:-1] + bump(v[-1])


def fi_hetu():
    y, m, d = birth(1950, 1999)
    n = f"{d:02d}{m:02d}{y % 100:02d}"
    ind = f"{random.randrange(2, 900):03d}"
    chars = "0123456789ABCDEFHJKLMNPRSTUVWXY"
    r = int(n + ind) % 31
    return f"{n}-{ind}{chars[r]}", f"{n}-{ind}{chars[(r + 1) % 31]}"


def fr_nir():
    y, m, _ = birth()
    n = f"{random.choice('12')}{y % 100:02d}{m:02d}{random.randrange(1, 96):02d}{random.randrange(1, 990):03d}{random.randrange(1, 1000):03d}"
    key = 97 - int(n) % 97
    return f"{n}{key:02d}", f"{n}{(key % 97) + 1:02d}"


def cn_resident_id():
    y, m, d = birth()
    body = f"{random.choice(['110101', '310104', '440305', '510107'])}{y}{m:02d}{d:02d}{random.randrange(0, 1000):03d}"
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    checks = "10X98765432"
    r = sum(int(x) * k for x, k in zip(body, w)) % 11
    return body + checks[r], body + checks[(r + 1) % 11]


def no_birth_number():
    while True:
        y, m, d = birth()
        n = [int(x) for x in f"{d:02d}{m:02d}{y % 100:02d}{random.randrange(0, 500):03d}"]
        k1 = 11 - sum(a * b for a, b in zip(n, [3, 7, 6, 1, 8, 9, 4, 5, 2])) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        n.append(k1)
        k2 = 11 - sum(a * b for a, b in zip(n, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2])) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        v = "".join(map(str, n)) + str(k2)
        return v, v[:-1] + bump(v[-1])


def ie_ppsn():
    d = [random.randrange(10) for _ in range(7)]
    r = sum(x * (8 - i) for i, x in enumerate(d)) % 23
    letters = "WABCDEFGHIJKLMNOPQRSTUV"
    n = "".join(map(str, d))
    return n + letters[r], n + letters[(r + 1) % 23]


def pt_nif():
    d = [random.choice([1, 2, 3, 5, 6, 8, 9])] + [random.randrange(10) for _ in range(7)]
    r = sum(x * (9 - i) for i, x in enumerate(d)) % 11
    c = 0 if r < 2 else 11 - r
    v = "".join(map(str, d)) + str(c)
    return v, v[:-1] + bump(v[-1])


def za_id():
    y, m, d = birth()
    n = f"{y % 100:02d}{m:02d}{d:02d}{random.randrange(0, 10000):04d}{random.choice('01')}8"
    v = n + luhn_digit(n)
    return v, v[:-1] + bump(v[-1])


def sg_nric():
    prefix = random.choice("ST")
    d = [random.randrange(10) for _ in range(7)]
    total = sum(x * k for x, k in zip(d, [2, 7, 6, 5, 4, 3, 2])) + (4 if prefix == "T" else 0)
    letters = "JZIHGFEDCBA"
    n = prefix + "".join(map(str, d))
    return n + letters[total % 11], n + letters[(total + 1) % 11]


def au_acn():
    d = [random.randrange(10) for _ in range(8)]
    c = (10 - sum(x * (8 - i) for i, x in enumerate(d)) % 10) % 10
    v = "".join(map(str, d)) + str(c)
    return v, v[:-1] + bump(v[-1])


def itin():
    middle = random.choice([*range(50, 66), *range(70, 89), 90, 91, 92, *range(94, 100)])
    v = f"9{random.randrange(0, 100):02d}{middle}{random.randrange(0, 10000):04d}"
    return v, v[:3] + "01" + v[5:]


def nino():
    first = random.choice("ABCEGHJKLMNOPRSTWXYZ")
    second = random.choice("ABCEGHJKLMNPRSTWXYZ")
    if first + second in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"):
        first, second = "A", "B"
    digits = "".join(random.choices(string.digits, k=6))
    return f"{first}{second}{digits}{random.choice('ABCD')}", f"D{second}{digits}A"


def pan():
    letters = "".join(random.choices(string.ascii_uppercase, k=3))
    v = f"{letters}{random.choice('PCHFATBLJG')}{random.choice(string.ascii_uppercase)}{random.randrange(1, 10000):04d}{random.choice(string.ascii_uppercase)}"
    return v, v[:3] + "Q" + v[4:]


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
    "DE_TAX_ID": (de_tax_id, lambda s: [s, group(s, [2, 3, 3, 3], " ")]),
    "SE_PERSONNUMMER": (se_personnummer, lambda s: [s, s[:6] + "-" + s[6:]]),
    "FI_PERSONAL_IDENTITY_CODE": (fi_hetu, lambda s: [s]),
    "FR_NIR": (fr_nir, lambda s: [s, group(s, [1, 2, 2, 2, 3, 3, 2], " ")]),
    "CN_RESIDENT_ID": (cn_resident_id, lambda s: [s]),
    "NO_BIRTH_NUMBER": (no_birth_number, lambda s: [s, s[:6] + " " + s[6:]]),
    "IE_PPSN": (ie_ppsn, lambda s: [s]),
    "PT_NIF": (pt_nif, lambda s: [s, group(s, [3, 3, 3], " ")]),
    "ZA_ID_NUMBER": (za_id, lambda s: [s]),
    "SG_NRIC": (sg_nric, lambda s: [s]),
    "AU_ACN": (au_acn, lambda s: [s, group(s, [3, 3, 3], " ")]),
    "US_ITIN": (itin, lambda s: [group(s, [3, 2, 4], "-"), s]),
    "UK_NINO": (nino, lambda s: [s, f"{s[:2]} {s[2:4]} {s[4:6]} {s[6:8]} {s[8]}"]),
    "IN_PAN": (pan, lambda s: [s]),
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

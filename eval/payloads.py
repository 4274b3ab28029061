#!/usr/bin/env python3
"""Serialized-payload dev set: log lines and records built around the dev corpora.

Behind a log route the engine sees whole records: JSON log lines, logfmt, key=value
lines, syslog, CSV, SQL inserts and Markdown tables. This generator takes sentences
of `../shared/data/dev/` (CoNLL-2003, WNUT-17, TAB) as the free-text message of a
record, adds personal named fields with synthetic values (names, e-mails, phones,
dates of birth, addresses, IPs, user handles, cards, IBANs, ages, cities) and the
log's own machinery (timestamps in ISO-8601/epoch/syslog/nginx/Python forms,
request/trace/span ids in hex, UUIDs, durations, status codes, levels, service and
host names, methods, paths), and renders the record in one format, escaping as that
format does. Gold offsets are recomputed on the rendered text (code points).

Output, one JSON document a line (the corpus format of `../shared/data/README.md`):

    {"id", "format", "text",
     "entities":  [{"start", "end", "label", "identifier_type"?}],   # to flag
     "negatives": [{"start", "end", "kind"}]}                          # must not be flagged

Labels: named fields carry the service label (`EMAIL_ADDRESS`, `PERSON`, …); free-text
spans carry `<source>:<label>` (`conll2003:PER`, `wnut17:person`, `tab:PERSON`), so
`eval/labels/payload*.json` can score fields and free text apart. Negative kinds:
`ts`, `request_id`, `trace_id`, `span_id`, `uuid`, `duration`, `status`, `level`,
`service`, `host`, `method`, `path`, `pid`, `key` (field names).

Command (the data is read from ../shared/data/dev and never copied here):

    python3 eval/payloads.py --data ../shared/data/dev --out /tmp/payload_dev.jsonl

Library use (model training wraps its own documents):

    from payloads import render, FORMATS
    text, entities, negatives = render(doc, "json", random.Random(7))

`doc` is `{"text": str, "entities": [{"start", "end", "label", ...}]}`; the entities
come back re-offset inside the rendered message, extra keys kept.
"""

import argparse
import json
import random
import sys
import unicodedata

FORMATS = ("json", "logfmt", "kv", "syslog", "csv", "sql", "markdown")

SOURCES = (
    ("conll2003", "conll2003_dev.jsonl"),
    ("wnut17", "wnut17_dev.jsonl"),
    ("tab", "tab_dev.jsonl"),
)

# ---------------------------------------------------------------- synthetic values

FIRST = [
    "James", "Maria", "Aiko", "Oluwaseun", "Priya", "Liam", "Sofía", "Mohammed",
    "Chen", "Anna", "José", "Fatima", "Noah", "Olga", "Rahul", "Emma", "Kwame",
    "Zoë", "Hiroshi", "Ingrid", "Mateo", "Leila", "Dmitri", "Grace", "Sean",
    "Nguyễn Thị", "Björn", "Amara", "Yusuf", "Claire",
]
LAST = [
    "Smith", "García", "Tanaka", "Adeyemi", "Sharma", "O'Brien", "Müller", "Hassan",
    "Wang", "Kowalski", "Fernández", "Okafor", "Johnson", "Ivanova", "Patel",
    "Dubois", "Mensah", "Larsen", "Yamamoto", "Lindqvist", "Rossi", "Haddad",
    "Petrov", "Nakamura", "McCarthy", "Lan", "Øster", "Diallo", "Demir", "Moreau",
]
NICKNAMES = ['"Bobby"', '"Jo"', '"Kit"']
DOMAINS = ["example.com", "mail.example.org", "example.net", "corp.example.co.uk"]
STREETS = ["Baker Street", "Elm Road", "Rue de la Paix", "Hauptstraße", "Oak Avenue",
           "Calle Mayor", "King's Road", "Via Roma"]
CITIES = ["London", "Lyon", "Berlin", "Springfield", "Madrid", "Leeds", "Osaka",
          "Lagos", "Pune", "Kraków", "São Paulo", "Toronto"]
SERVICES = ["checkout-api", "billing-worker", "auth-service", "orders", "gateway",
            "notifier", "search-indexer", "payments-v2"]
HOSTS = ["web-01", "web-02.prod.internal", "ip-10-0-3-17.ec2.internal",
         "api-7f9c6d8b5-x2kqp", "worker-3", "db-replica-2"]
PATHS = ["/api/v1/orders", "/api/v1/customers/{n}", "/login", "/v2/payments/{n}/capture",
         "/healthz", "/api/v1/users/{n}/profile", "/static/app.js"]
LEVELS = ["INFO", "WARN", "ERROR", "DEBUG", "info", "warning", "error", "debug"]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTHS_LONG = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]


def ascii_fold(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isascii() and (c.isalnum() or c in ".-"))


def person_name(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    if rng.random() < 0.05:
        return f"{first} {rng.choice(NICKNAMES)} {last}"
    return f"{first} {last}"


def email_for(name, rng):
    parts = [ascii_fold(p).lower() for p in name.split() if not p.startswith('"')]
    parts = [p for p in parts if p]
    local = rng.choice([".".join(parts), parts[0][0] + parts[-1], parts[0] + str(rng.randint(1, 99))])
    return f"{local}@{rng.choice(DOMAINS)}"


def phone(rng):
    d = lambda n: "".join(str(rng.randint(0, 9)) for _ in range(n))  # noqa: E731
    return rng.choice([
        f"+1 415-555-0{d(3)}", f"(415) 555-0{d(3)}", f"+44 20 7946 0{d(3)}",
        f"07700 900{d(3)}", f"+49 30 {rng.randint(2, 9)}{d(7)}", f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}",
        f"+91 98765 {d(5)}",
    ])


def dob(rng):
    y, m, day = rng.randint(1940, 2005), rng.randint(1, 12), rng.randint(1, 28)
    return rng.choice([
        f"{y:04d}-{m:02d}-{day:02d}", f"{day:02d}/{m:02d}/{y:04d}", f"{m:02d}/{day:02d}/{y:04d}",
        f"{day} {MONTHS_LONG[m - 1]} {y}", f"{MONTHS_LONG[m - 1]} {day}, {y}",
    ])


def address(rng):
    n = rng.randint(1, 240)
    street, city = rng.choice(STREETS), rng.choice(CITIES)
    return rng.choice([
        f"{n} {street}, {city}",
        f"{n} {street}, {city} NW1 6XE",
        f"{street} {n}, 10115 {city}",
        f"{n} {street}, Apt {rng.randint(1, 40)}, {city}",
    ])


def ip(rng):
    return rng.choice([
        f"203.0.113.{rng.randint(1, 254)}", f"198.51.100.{rng.randint(1, 254)}",
        f"192.0.2.{rng.randint(1, 254)}", f"2001:db8::{rng.randint(1, 0xffff):x}:{rng.randint(1, 0xffff):x}",
    ])


def luhn_complete(digits):
    """`digits` plus its Luhn check digit."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        v = int(c)
        if i % 2 == 0:
            v *= 2
            v -= 9 if v > 9 else 0
        total += v
    return digits + str((10 - total % 10) % 10)


def card(rng):
    prefix = rng.choice(["4", "51", "55", "4000"])
    num = luhn_complete(prefix + "".join(str(rng.randint(0, 9)) for _ in range(15 - len(prefix))))
    if rng.random() < 0.5:
        return " ".join(num[i:i + 4] for i in range(0, 16, 4))
    return num


def iban(rng):
    country, bban = rng.choice([
        ("DE", "".join(str(rng.randint(0, 9)) for _ in range(18))),
        ("GB", "NWBK" + "".join(str(rng.randint(0, 9)) for _ in range(14))),
        ("FR", "".join(str(rng.randint(0, 9)) for _ in range(23))),
    ])
    rearranged = bban + country + "00"
    numeric = "".join(str(int(c, 36)) for c in rearranged)
    check = 98 - int(numeric) % 97
    value = f"{country}{check:02d}{bban}"
    if rng.random() < 0.4:
        return " ".join(value[i:i + 4] for i in range(0, len(value), 4))
    return value


def user_handle(rng):
    name = ascii_fold(rng.choice(FIRST)).lower()
    return rng.choice([f"{name[0]}{ascii_fold(rng.choice(LAST)).lower()}{rng.randint(1, 99)}", f"{name}_{rng.randint(10, 999)}"])


# (label, key spellings, value maker). Key spellings are the ones real loggers use.
PERSONAL = [
    ("PERSON", ["customer_name", "name", "fullName", "contact_name", "cardholder"], None),
    ("EMAIL_ADDRESS", ["email", "user_email", "customerEmail", "contact.email"], None),
    ("PHONE_NUMBER", ["phone", "phone_number", "mobile", "tel"], lambda rng, _: phone(rng)),
    ("DATE_TIME", ["dob", "date_of_birth", "birthDate"], lambda rng, _: dob(rng)),
    ("ADDRESS", ["address", "shipping_address", "billingAddress"], lambda rng, _: address(rng)),
    ("IP_ADDRESS", ["ip", "client_ip", "remote_addr"], lambda rng, _: ip(rng)),
    ("PERSON", ["user", "username", "login"], lambda rng, _: user_handle(rng)),
    ("CREDIT_CARD", ["card_number", "card", "cc"], lambda rng, _: card(rng)),
    ("IBAN_CODE", ["iban"], lambda rng, _: iban(rng)),
    ("LOCATION", ["city"], lambda rng, _: rng.choice(CITIES)),
    ("AGE", ["age"], lambda rng, _: str(rng.randint(18, 90))),
]

# ---------------------------------------------------------------- machinery values


def hexid(rng, n):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def uuid4(rng):
    h = hexid(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def moment(rng):
    return (2024 + rng.randint(0, 2), rng.randint(1, 12), rng.randint(1, 28),
            rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999))


def iso_ts(rng):
    y, mo, d, h, mi, s, ms = moment(rng)
    return rng.choice([
        f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
        f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{ms:03d}Z",
        f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{ms:03d}+02:00",
        f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}",
    ])


def python_ts(rng):
    y, mo, d, h, mi, s, ms = moment(rng)
    return f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d},{ms:03d}"


def syslog_ts(rng):
    _, mo, d, h, mi, s, _ = moment(rng)
    return f"{MONTHS[mo - 1]} {d:2d} {h:02d}:{mi:02d}:{s:02d}"


def nginx_ts(rng):
    y, mo, d, h, mi, s, _ = moment(rng)
    return f"{d:02d}/{MONTHS[mo - 1]}/{y}:{h:02d}:{mi:02d}:{s:02d} +0000"


def epoch(rng):
    secs = rng.randint(1_700_000_000, 1_790_000_000)
    return rng.choice([str(secs), str(secs * 1000 + rng.randint(0, 999)), f"{secs}.{rng.randint(0, 999999):06d}"])


def machinery(rng, ts=None):
    """The log's own fields: (key, value, kind, is_number)."""
    fields = [("ts" if rng.random() < 0.5 else rng.choice(["timestamp", "@timestamp", "time"]),
               ts or (epoch(rng) if rng.random() < 0.2 else iso_ts(rng)), "ts", False)]
    fields.append(("level", rng.choice(LEVELS), "level", False))
    fields.append(("service", rng.choice(SERVICES), "service", False))
    r = rng.random()
    if r < 0.4:
        fields.append(("request_id", rng.choice([hexid(rng, 32), hexid(rng, 16), uuid4(rng)]), "request_id", False))
    elif r < 0.8:
        fields.append(("trace_id", hexid(rng, 32), "trace_id", False))
        fields.append(("span_id", hexid(rng, 16), "span_id", False))
    else:
        fields.append(("event_id", uuid4(rng), "uuid", False))
    if rng.random() < 0.5:
        fields.append(("host", rng.choice(HOSTS), "host", False))
    if rng.random() < 0.5:
        fields.append(("method", rng.choice(METHODS), "method", False))
        fields.append(("path", rng.choice(PATHS).replace("{n}", str(rng.randint(1, 99999))), "path", False))
    if rng.random() < 0.6:
        key = rng.choice(["duration_ms", "latency_ms", "elapsed"])
        value = str(rng.randint(1, 5000)) if key != "elapsed" else f"{rng.randint(1, 900)}ms"
        fields.append((key, value, "duration", key != "elapsed"))
    if rng.random() < 0.6:
        fields.append(("status", str(rng.choice([200, 201, 204, 400, 401, 404, 409, 500, 503])), "status", True))
    return fields


def personal(rng, n):
    """n personal fields: (key, value, label)."""
    name = person_name(rng)
    out = []
    for label, keys, make in rng.sample(PERSONAL, n):
        if make is None:
            value = name if label == "PERSON" else email_for(name, rng)
        else:
            value = make(rng, name)
        out.append((rng.choice(keys), value, label))
    return out


# ---------------------------------------------------------------- escaping


def json_escape(ascii_only):
    def esc(c):
        if c == '"':
            return '\\"'
        if c == "\\":
            return "\\\\"
        if c == "\n":
            return "\\n"
        if c == "\t":
            return "\\t"
        if c == "\r":
            return "\\r"
        if ord(c) < 0x20 or (ascii_only and ord(c) > 0x7E):
            if ord(c) > 0xFFFF:
                v = ord(c) - 0x10000
                return f"\\u{0xD800 + (v >> 10):04x}\\u{0xDC00 + (v & 0x3FF):04x}"
            return f"\\u{ord(c):04x}"
        return c
    return esc


def logfmt_escape(c):
    return {'"': '\\"', "\\": "\\\\", "\n": "\\n"}.get(c, c)


def csv_escape(c):
    return '""' if c == '"' else c


def sql_escape(c):
    return "''" if c == "'" else c


def md_escape(c):
    return {"|": "\\|", "\n": "<br>"}.get(c, c)


def line_escape(c):
    return " " if c in "\n\r" else c


def escape_all(s, esc):
    return "".join(esc(c) for c in s)


# ---------------------------------------------------------------- rendering


class Out:
    """Rendered text plus the spans recorded while it was built."""

    def __init__(self):
        self.parts, self.length = [], 0
        self.entities, self.negatives = [], []

    def raw(self, s):
        self.parts.append(s)
        self.length += len(s)

    def value(self, text, esc, entities=(), label=None, kind=None):
        """Appends `text` escaped char by char; its entities are re-offset. Escaping is
        per code point, so escape(a + b) == escape(a) + escape(b) and every boundary
        maps to one output offset."""
        start = self.length
        cuts = sorted({0, len(text)} | {e["start"] for e in entities} | {e["end"] for e in entities})
        where = {}
        for a, b in zip(cuts, cuts[1:]):
            where[a] = self.length
            self.raw(escape_all(text[a:b], esc))
        where[len(text)] = self.length
        for e in entities:
            out = dict(e)
            out["start"], out["end"] = where[e["start"]], where[e["end"]]
            out["_value"] = escape_all(text[e["start"]:e["end"]], esc)
            self.entities.append(out)
        if label and text:
            self.entities.append({"start": start, "end": self.length, "label": label,
                                  "_value": escape_all(text, esc)})
        if kind and text:
            self.negatives.append({"start": start, "end": self.length, "kind": kind,
                                   "_value": escape_all(text, esc)})

    def key(self, k):
        self.value(k, lambda c: c, kind="key")

    def text(self):
        return "".join(self.parts)


def record(doc, rng, ts=None):
    """One record: machinery, personal fields and the message, in a plausible order."""
    fields = [(k, v, {"kind": kind}, num) for k, v, kind, num in machinery(rng, ts)]
    fields += [(k, v, {"label": label}, False) for k, v, label in personal(rng, rng.randint(2, 4))]
    head, rest = fields[:3], fields[3:]
    rng.shuffle(rest)
    msg_key = rng.choice(["msg", "message", "note"])
    rest.insert(rng.randint(0, len(rest)), (msg_key, doc, {}, False))
    return head + rest


def put(out, value, esc, meta):
    if isinstance(value, dict):
        out.value(value["text"], esc, value.get("entities", ()))
    else:
        out.value(value, esc, label=meta.get("label"), kind=meta.get("kind"))


def render_json(doc, rng):
    out = Out()
    esc = json_escape(rng.random() < 0.3)
    sep = rng.choice([",", ", "])
    colon = rng.choice([":", ": "])
    out.raw("{")
    for i, (k, v, meta, num) in enumerate(record(doc, rng)):
        if i:
            out.raw(sep)
        out.raw('"')
        out.key(k)
        out.raw('"' + colon)
        if num or (meta.get("kind") == "ts" and v.replace(".", "").isdigit()):
            put(out, v, esc, meta)
        else:
            out.raw('"')
            put(out, v, esc, meta)
            out.raw('"')
    out.raw("}")
    return out


def render_logfmt(doc, rng):
    out = Out()
    for i, (k, v, meta, _) in enumerate(record(doc, rng)):
        if i:
            out.raw(" ")
        out.key(k)
        out.raw("=")
        text = v["text"] if isinstance(v, dict) else v
        if not text or any(c in text for c in ' ="\n\\'):
            out.raw('"')
            put(out, v, logfmt_escape, meta)
            out.raw('"')
        else:
            put(out, v, logfmt_escape, meta)
    return out


def render_kv(doc, rng):
    """A text log line: `<ts> <LEVEL> [service] k=v, k=v - message`, values unquoted."""
    out = Out()
    ts = rng.choice([python_ts, iso_ts, lambda r: "[" + nginx_ts(r) + "]"])(rng)
    fields = record(doc, rng, ts=ts.strip("[]"))
    message = next(v for _, v, _, _ in fields if isinstance(v, dict))
    fields = [f for f in fields if not isinstance(f[1], dict)]
    by_kind = {m.get("kind"): v for _, v, m, _ in fields}
    if ts.startswith("["):
        out.raw("[")
        out.value(ts[1:-1], line_escape, kind="ts")
        out.raw("]")
    else:
        out.value(ts, line_escape, kind="ts")
    out.raw(" ")
    out.value(by_kind["level"].upper(), line_escape, kind="level")
    out.raw(" [")
    out.value(by_kind["service"], line_escape, kind="service")
    out.raw("] ")
    sep = rng.choice([", ", " "])
    rest = [f for f in fields if f[2].get("kind") not in ("ts", "level", "service")]
    for i, (k, v, meta, _) in enumerate(rest):
        if i:
            out.raw(sep)
        out.key(k)
        out.raw("=")
        put(out, v, line_escape, meta)
    out.raw(" - ")
    out.value(message["text"], line_escape, message.get("entities", ()))
    return out


def render_syslog(doc, rng):
    out = Out()
    fields = record(doc, rng)
    message = next(v for _, v, _, _ in fields if isinstance(v, dict))
    host = rng.choice(HOSTS)
    app = rng.choice(SERVICES)
    pid = str(rng.randint(100, 65000))
    kv = [f for f in fields if not isinstance(f[1], dict) and f[2].get("kind") not in ("ts", "level", "service")]
    out.raw(f"<{rng.randint(0, 191)}>")
    if rng.random() < 0.5:  # RFC 3164
        out.value(syslog_ts(rng), line_escape, kind="ts")
        out.raw(" ")
        out.value(host, line_escape, kind="host")
        out.raw(" ")
        out.value(app, line_escape, kind="service")
        out.raw("[")
        out.value(pid, line_escape, kind="pid")
        out.raw("]: ")
        out.value(message["text"], line_escape, message.get("entities", ()))
        for k, v, meta, _ in kv:
            out.raw(" ")
            out.key(k)
            out.raw("=")
            text = v
            if " " in text:
                out.raw('"')
                put(out, v, logfmt_escape, meta)
                out.raw('"')
            else:
                put(out, v, line_escape, meta)
    else:  # RFC 5424 with structured data
        out.raw("1 ")
        out.value(iso_ts(rng).replace(" ", "T"), line_escape, kind="ts")
        out.raw(" ")
        out.value(host, line_escape, kind="host")
        out.raw(" ")
        out.value(app, line_escape, kind="service")
        out.raw(" ")
        out.value(pid, line_escape, kind="pid")
        out.raw(" - [meta@32473")
        sd = lambda c: {'"': '\\"', "\\": "\\\\", "]": "\\]", "\n": " "}.get(c, c)  # noqa: E731
        for k, v, meta, _ in kv:
            out.raw(" ")
            out.key(k)
            out.raw('="')
            put(out, v, sd, meta)
            out.raw('"')
        out.raw("] ")
        out.value(message["text"], line_escape, message.get("entities", ()))
    return out


def table_rows(docs, rng):
    """Records sharing one column layout (a table): the first record's keys, fresh
    values for every further row."""
    first = record(docs[0], rng)
    layout = [(k, meta) for k, _, meta, _ in first]
    rows = [first]
    for doc in docs[1:]:
        row = []
        name = person_name(rng)
        for k, meta in layout:
            if "label" in meta:
                label = meta["label"]
                maker = next(m for lab, keys, m in PERSONAL if lab == label and k in keys)
                value = (name if label == "PERSON" else email_for(name, rng)) if maker is None else maker(rng, name)
            elif "kind" in meta:
                value = fresh_machinery(meta["kind"], rng)
            else:
                value = doc
            row.append((k, value, meta, False))
        rows.append(row)
    return layout, rows


def fresh_machinery(kind, rng):
    makers = {
        "ts": lambda: iso_ts(rng), "level": lambda: rng.choice(LEVELS),
        "service": lambda: rng.choice(SERVICES), "request_id": lambda: hexid(rng, 32),
        "trace_id": lambda: hexid(rng, 32), "span_id": lambda: hexid(rng, 16),
        "uuid": lambda: uuid4(rng), "host": lambda: rng.choice(HOSTS),
        "method": lambda: rng.choice(METHODS),
        "path": lambda: rng.choice(PATHS).replace("{n}", str(rng.randint(1, 99999))),
        "duration": lambda: str(rng.randint(1, 5000)), "status": lambda: str(rng.choice([200, 404, 500])),
    }
    return makers[kind]()


def cell_text(v):
    return v["text"] if isinstance(v, dict) else v


def render_csv(docs, rng):
    out = Out()
    delim = rng.choice([",", ",", ";", "\t"])
    layout, rows = table_rows(docs, rng)
    for i, (k, _) in enumerate(layout):
        if i:
            out.raw(delim)
        out.key(k)
    for row in rows:
        out.raw("\n")
        for i, (_, v, meta, _) in enumerate(row):
            if i:
                out.raw(delim)
            text = cell_text(v)
            if any(c in text for c in (delim, '"', "\n", "\r")) or text != text.strip():
                out.raw('"')
                put(out, v, csv_escape, meta)
                out.raw('"')
            else:
                put(out, v, csv_escape, meta)
    return out


def render_sql(docs, rng):
    out = Out()
    layout, rows = table_rows(docs, rng)
    table = rng.choice(["customers", "audit_log", "public.events", "`orders`"])
    out.raw(f"INSERT INTO {table} (")
    for i, (k, _) in enumerate(layout):
        if i:
            out.raw(", ")
        out.key(k.replace(".", "_").replace("@", ""))
    out.raw(") VALUES")
    for r, row in enumerate(rows):
        out.raw(",\n  (" if r else " (")
        for i, (_, v, meta, _) in enumerate(row):
            if i:
                out.raw(", ")
            text = cell_text(v)
            if meta.get("kind") in ("duration", "status") and text.isdigit():
                put(out, v, sql_escape, meta)
            else:
                out.raw("'")
                put(out, v, sql_escape, meta)
                out.raw("'")
        out.raw(")")
    out.raw(";")
    return out


def render_markdown(docs, rng):
    out = Out()
    layout, rows = table_rows(docs, rng)
    out.raw("|")
    for k, _ in layout:
        out.raw(" ")
        out.key(k)
        out.raw(" |")
    out.raw("\n|" + "---|" * len(layout))
    for row in rows:
        out.raw("\n|")
        for _, v, meta, _ in row:
            out.raw(" ")
            put(out, v, md_escape, meta)
            out.raw(" |")
    return out


RENDERERS = {
    "json": render_json, "logfmt": render_logfmt, "kv": render_kv, "syslog": render_syslog,
    "csv": render_csv, "sql": render_sql, "markdown": render_markdown,
}
TABLES = ("csv", "sql", "markdown")


def render(doc, fmt, rng, more=()):
    """Renders `doc` (and, for the table formats, the documents of `more` as further
    rows) in format `fmt` with synthetic fields drawn from `rng`.

    Returns (text, entities, negatives): gold entities (the doc's, re-offset, plus the
    personal fields) and machinery spans, all in code points of `text`."""
    if fmt not in RENDERERS:
        raise ValueError(f"unknown format {fmt}")
    out = RENDERERS[fmt]([doc, *more], rng) if fmt in TABLES else RENDERERS[fmt](doc, rng)
    text = out.text()
    check(text, out.entities + out.negatives)
    strip = lambda spans: [{k: v for k, v in s.items() if k != "_value"} for s in spans]  # noqa: E731
    return text, strip(out.entities), strip(out.negatives)


def check(text, spans):
    """Every span's text is its value as rendered; nothing starts or ends mid-escape."""
    for s in spans:
        got = text[s["start"]:s["end"]]
        if got != s["_value"]:
            raise AssertionError(f"span {s['start']}..{s['end']} is {got!r}, want {s['_value']!r}")


# ---------------------------------------------------------------- sources


def sentences(source, doc):
    """Lines (and, for TAB, sentences) of a document with the entities inside them,
    labelled `<source>:<label>`. No split point cuts an entity."""
    text, ents = doc["text"], sorted(doc["entities"], key=lambda e: e["start"])
    inside = set()
    for e in ents:
        inside.update(range(e["start"] + 1, e["end"]))
    cuts = [0]
    for i, c in enumerate(text):
        if c == "\n" and i not in inside and i + 1 not in inside:
            cuts.append(i + 1)
        elif source == "tab" and c == " " and text[i - 1:i] == "." and i not in inside and i - cuts[-1] > 60:
            cuts.append(i + 1)
    cuts.append(len(text))
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b].rstrip()
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        if not (15 <= len(piece) <= 400):
            continue
        start = a + lead
        inner = []
        for e in ents:
            if e["start"] >= start and e["end"] <= start + len(piece):
                g = {"start": e["start"] - start, "end": e["end"] - start, "label": f"{source}:{e['label']}"}
                if e.get("identifier_type"):
                    g["identifier_type"] = e["identifier_type"]
                inner.append(g)
        yield {"text": piece, "entities": inner}


def load(data_dir):
    pool = []
    for source, name in SOURCES:
        with open(f"{data_dir}/{name}", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    pool.extend(sentences(source, json.loads(line)))
    return pool


def generate(pool, n, seed):
    rng = random.Random(seed)
    for i in range(n):
        fmt = FORMATS[i % len(FORMATS)]
        doc = rng.choice(pool)
        more = [rng.choice(pool) for _ in range(rng.randint(1, 3))] if fmt in TABLES else []
        text, entities, negatives = render(doc, fmt, rng, more)
        yield {"id": f"payload-{i:04d}", "format": fmt, "text": text,
               "entities": entities, "negatives": negatives}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/data/dev", help="folder with the dev corpora")
    ap.add_argument("--out", default="/tmp/payload_dev.jsonl")
    ap.add_argument("-n", type=int, default=1400, help="documents (spread evenly over the formats)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    pool = load(args.data)
    with open(args.out, "w", encoding="utf-8") as f:
        for doc in generate(pool, args.n, args.seed):
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")
    print(f"wrote {args.n} documents to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

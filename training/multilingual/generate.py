"""Multilingual synthetic NER data: each language's hand-written templates
(`lang/<code>.py`: registers, honorifics, word order) filled with fake values from
Faker's locales, labelled PER, ORG, LOC and DATE like our English model.

    python training/multilingual/generate.py --per-lang 3000 --seed 1 --out /tmp/ml.jsonl

A module may list real organisations as they are written in its language (`KNOWN_ORGS`,
drawn for a share `KNOWN_ORG_SHARE` of the organisations, from the environment) and
bring its own place values where Faker's locale has none (`CITIES`, `COUNTRIES`,
`STREETS` with `ADDRESSES` and `ADDRESSES_STREET` patterns over `{street}`, `{n}`,
`{postcode}`, `{city}`).

Output lines are the corpora's format (`{"id", "lang", "text", "entities"}`, code-point
offsets). Slots the model must learn to leave alone (phones, e-mails, IBANs, products,
job titles) are filled but not labelled: the pattern tier owns them.
"""
import argparse
import glob
import json
import os
import random
import re
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
SLOT = re.compile(r"\{\{|\}\}|\{([A-Za-z_]+)\}")
LABELS = {"PER": "PER", "GIVEN": "PER", "SURNAME": "PER", "per": "PER", "given": "PER",
          "ORG": "ORG", "CITY": "LOC", "REGION": "LOC", "COUNTRY": "LOC", "ADDRESS": "LOC",
          "STREET": "LOC", "DATE": "DATE"}
UNLABELLED = {"PHONE", "EMAIL", "IBAN", "NUM", "AMOUNT", "TIME", "PRODUCT", "JOB"}
# The share of organisations drawn from a module's KNOWN_ORGS (real names); 0, as for
# the shipped model: runs with 0.1 and 0.3 found more organisations at lower precision
# (training/MODEL_CARD.md, "Experiments not shipped").
KNOWN_ORG_SHARE = float(os.environ.get("KNOWN_ORG_SHARE", "0"))
# Languages written without spaces between a name's parts.
GLUED = {"zh", "ja"}
PRODUCTS = ["iPhone 15", "Excel", "Outlook", "SAP", "Windows 11", "Teams", "Zoom", "Slack",
            "Jira", "Confluence", "Android", "PlayStation 5", "Galaxy S24", "ThinkPad X1",
            "Salesforce", "PostgreSQL", "Kubernetes", "WordPress", "Photoshop", "Netflix",
            "Spotify", "WhatsApp", "Gmail", "Google Drive", "OneDrive", "Dropbox", "Chrome",
            "Firefox", "Python", "Docker", "GitHub", "MacBook Air", "AirPods", "Kindle"]
FOREIGN = ["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "tr_TR", "pl_PL", "pt_BR",
           "nl_NL", "sv_SE", "ar_AA", "hi_IN", "vi_VN", "uk_UA"]


def languages(only=None):
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, "lang", "*.py"))):
        code = os.path.splitext(os.path.basename(path))[0]
        if only and code not in only:
            continue
        out[code] = runpy.run_path(path)
    return out


class Filler:
    def __init__(self, code, spec, rng):
        from faker import Faker

        self.code, self.spec, self.rng = code, spec, rng
        self.fakers = [Faker(loc) for loc in spec["LOCALES"]]
        self.foreign = {}
        for f in self.fakers:
            f.seed_instance(rng.randrange(1 << 30))

    def fake(self):
        # the main locale most of the time, the others now and then
        if len(self.fakers) > 1 and self.rng.random() < 0.3:
            return self.rng.choice(self.fakers[1:])
        return self.fakers[0]

    def foreign_faker(self):
        loc = self.rng.choice(FOREIGN)
        if loc not in self.foreign:
            from faker import Faker

            try:
                self.foreign[loc] = Faker(loc)
            except AttributeError:
                self.foreign[loc] = self.fakers[0]
            self.foreign[loc].seed_instance(self.rng.randrange(1 << 30))
        return self.foreign[loc]

    def name(self):
        f = self.fake()
        if self.rng.random() < 0.1 and self.code not in GLUED and self.code != "ko":
            f = self.foreign_faker()
        given, surname = f.first_name(), f.last_name()
        if self.code in GLUED:
            return surname + given
        if self.code == "ko":
            return surname + given if self.rng.random() < 0.85 else surname + " " + given
        if self.code in ("es", "pt") and self.rng.random() < 0.4:
            surname += " " + f.last_name()
        if self.rng.random() < 0.08:
            given += self.rng.choice([" ", "-"]) + f.first_name()
        return given + " " + surname

    def date(self):
        r = self.rng
        y, m, d = r.randrange(1940, 2031), r.randrange(1, 13), r.randrange(1, 29)
        fmt = r.choice(self.spec["DATES"])
        return fmt.format(d=d, dd="%02d" % d, m=m, mm="%02d" % m, y=y, yy="%02d" % (y % 100),
                          month=self.spec["MONTHS"][m - 1])

    def org(self):
        # real organisations of the language's countries where the module lists them
        r = self.rng.random()
        if r < KNOWN_ORG_SHARE and self.spec.get("KNOWN_ORGS"):
            return self.rng.choice(self.spec["KNOWN_ORGS"])
        if r < KNOWN_ORG_SHARE + 0.4:
            return self.fake().company()
        text, _ = self.fill(self.rng.choice(self.spec["ORGS"]), labelled=False)
        return text

    def value(self, slot):
        f, r = self.fake(), self.rng
        if slot == "PER":
            return self.name()
        if slot in ("GIVEN", "given"):
            v = f.first_name()
            return v.lower() if slot == "given" else v
        if slot == "per":
            return self.name().lower()
        if slot == "SURNAME":
            return f.last_name()
        if slot == "ORG":
            return self.org()
        if slot == "CITY":
            # a module's own list where Faker's locale has no real place names
            return r.choice(self.spec["CITIES"]) if "CITIES" in self.spec else f.city()
        if slot == "REGION":
            for attr in ("administrative_unit", "state", "prefecture", "province", "region"):
                if hasattr(f, attr):
                    try:
                        return getattr(f, attr)()
                    except (AttributeError, TypeError):
                        continue
            return f.city()
        if slot == "COUNTRY":
            return r.choice(self.spec["COUNTRIES"]) if "COUNTRIES" in self.spec else f.country()
        if slot == "ADDRESS" and "ADDRESSES" in self.spec:
            return self.address(r.choice(self.spec["ADDRESSES"]))
        if slot == "STREET" and "STREETS" in self.spec:
            return self.address(r.choice(self.spec["ADDRESSES_STREET"]))
        if slot == "ADDRESS":
            sep = "" if self.code in GLUED else ", "
            return re.sub(r"\s*\n\s*", sep, f.address()).strip()
        if slot == "STREET":
            return f.street_address()
        if slot == "DATE":
            return self.date()
        if slot == "PHONE":
            return f.phone_number()
        if slot == "EMAIL":
            return f.email()
        if slot == "IBAN":
            try:
                return f.iban()
            except AttributeError:
                return "DE%02d%018d" % (r.randrange(100), r.randrange(10 ** 18))
        if slot == "NUM":
            return str(r.choice([r.randrange(1, 100), r.randrange(100, 100000)]))
        if slot == "AMOUNT":
            return "%d,%02d" % (r.randrange(1, 5000), r.randrange(100))
        if slot == "TIME":
            return "%02d:%02d" % (r.randrange(7, 21), r.choice([0, 15, 30, 45]))
        if slot == "PRODUCT":
            return r.choice(PRODUCTS)
        if slot == "JOB":
            return f.job()
        raise KeyError(slot)

    def address(self, pattern):
        """A module's own address pattern: {street}, {n}, {postcode}, {city}."""
        r = self.rng
        return pattern.format(street=r.choice(self.spec["STREETS"]), n=r.randrange(1, 200),
                              postcode="%05d" % r.randrange(1000, 99999), city=r.choice(self.spec["CITIES"]))

    def fill(self, template, labelled=True):
        text, ents, pos = "", [], 0
        for m in SLOT.finditer(template):
            text += template[pos:m.start()]
            pos = m.end()
            if m.group(0) in ("{{", "}}"):
                text += m.group(0)[0]
                continue
            slot = m.group(1)
            v = self.value(slot).strip()
            if labelled and slot in LABELS and v:
                ents.append({"start": len(text), "end": len(text) + len(v), "label": LABELS[slot]})
            text += v
        return text + template[pos:], ents


def document(filler, lower_frac=0.0):
    spec, rng = filler.spec, filler.rng
    ents, text = [], ""
    for i in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.15:
            t, e = filler.fill(rng.choice(spec["NEGATIVES"]))
        else:
            t, e = filler.fill(rng.choice(spec["TEMPLATES"]))
        if text:
            text += rng.choice(["\n", " ", "\n\n"])
        ents += [{"start": x["start"] + len(text), "end": x["end"] + len(text), "label": x["label"]} for x in e]
        text += t
    # Chats are typed in lower case; the labels stay where they were.
    if rng.random() < lower_frac:
        text = text.lower() if len(text.lower()) == len(text) else text
    return text, ents


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-lang", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated language codes")
    ap.add_argument("--lower-frac", type=float, default=0.0,
                    help="share of documents written all in lower case, as chats are")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    langs = languages(set(a.only.split(",")) if a.only else None)
    with open(a.out, "w", encoding="utf-8") as out:
        for code, spec in langs.items():
            filler = Filler(code, spec, random.Random(rng.randrange(1 << 30)))
            for i in range(a.per_lang):
                text, ents = document(filler, a.lower_frac)
                out.write(json.dumps({"id": "%s-%05d" % (code, i), "lang": code, "text": text,
                                      "entities": ents}, ensure_ascii=False) + "\n")
    print("wrote %d languages to %s" % (len(langs), a.out))


if __name__ == "__main__":
    main()

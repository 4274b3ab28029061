"""A seeded generator of varied, realistic text with personal data sprinkled in, for the
served-path benchmark (benches/served/run.sh).

Every unit (a paragraph, a chat message, an e-mail, a log line, a code snippet) is drawn
afresh from Faker's locale word lists and our templates; nothing is repeated to reach a
size, because the regex engine's lazy DFA is fast on text it has seen and slow on new
text, and users send new text. Same seed, same Faker version: same corpus.

    python corpus.py [--kind mixed|prose|chat|email|json_log|logfmt|code|cjk]
                     [--n 20] [--min 100] [--max 100000] [--seed 1] > docs.jsonl
"""
import argparse
import base64
import json
import random
import string
from datetime import date, datetime, timedelta, timezone

from faker import Faker

KINDS = ["prose", "chat", "email", "json_log", "logfmt", "code", "cjk"]
# How often each kind is drawn for a mixed document.
MIX = [0.20, 0.15, 0.15, 0.15, 0.10, 0.10, 0.15]
LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "zh_CN", "ja_JP", "ko_KR"]
EPOCH = datetime(2026, 11, 1, tzinfo=timezone.utc)

PROSE = [
    "{name} moved to {city} in {year} and has worked as a {job} at {company} ever since.",
    "If anything changes, {first} can be reached at {email} or on {phone}.",
    "The parcel was addressed to {name}, {address}.",
    "On {date}, {name} signed the lease for the flat on {street}.",
    "According to the file, {first}'s date of birth is {dob} and the account is held with {company}.",
    "{name}, {age}, told the committee that the work in {city} was behind schedule.",
    "Payment was made with the card {card}, which expires in {expiry}.",
    "The refund goes to IBAN {iban} in the name of {name}.",
    "The server at {ip} kept rejecting {first}'s login all morning.",
    "Dr. {last} went through the results with {name} at {company} on {weekday}.",
    "{first} and {first2} met at a conference in {city} and later founded {company} together.",
    "Her social security number, {ssn}, was printed on the form by mistake.",
    "{name} from {company} forwarded the contract to {email2} on {date}.",
]
CHAT = [
    "hey {first}, can you send me the slides? my email is {email}",
    "call me on {phone} when you land",
    "lol yes", "ok", "brb", "sounds good 👍", "on my way", "can't today, sorry",
    "my new address is {address}",
    "I'll ping {first2} about it",
    "the VPN gives me {ip} again, weird",
    "meeting moved to {time} tomorrow",
    "did {name} ever reply?",
    "can you pay me back? IBAN {iban}",
    "{first2} said the wifi password is {password} lol",
    "just landed in {city}",
    "{sentence}", "{sentence}", "{sentence}",
]
EMAIL_BODY = [
    "My order number is {order} and it was supposed to go to {address}.",
    "You can reach me at {phone} between 9 and 5.",
    "I was charged twice on my card {card} on {date}.",
    "Please update my e-mail to {email2}; the old one no longer works.",
    "My account was opened under the name {name}, date of birth {dob}.",
    "Could you send the invoice to our accounts team at {email2} instead?",
    "I tried logging in from {ip} and got locked out.",
    "The technician, {first2}, said someone from {company} would call back.",
]
LOG_MSG = [
    "user {user} logged in from {ip}",
    "login failed for {email} from {ip}: invalid password",
    "{method} {path} {status} {ms}ms",
    "{method} {path} {status} {ms}ms",
    "payment declined for customer {cust} card ending {last4}",
    "sent password reset link to {email}",
    "cache miss for key {key}",
    "db query took {ms}ms rows={n}",
    "user {name} changed shipping address to {address}",
    "SMS verification code sent to {phone}",
    "upstream {host}:{port} timed out after {ms}ms",
    "retrying job {uuid} attempt {n}",
    "request from {ip} user-agent={ua}",
    "{sentence}",
    "{sentence}",
    "connection reset by peer {ip}:{port}",
    "order {order} shipped to {name}",
]
CJK = {
    "zh_CN": ["我叫{name}，手机号是{phone}。", "请把发票寄到{address}，收件人{name}。",
              "{name}的邮箱是{email}，有问题请联系。", "客户{name}在{company}办理了开户业务。",
              "身份证号{cn_id}已登记。"],
    "ja_JP": ["{name}さんの電話番号は{phone}です。", "住所：{address}",
              "担当者は{company}の{name}です。メールは{email}までお願いします。",
              "{name}様、ご注文ありがとうございました。"],
    "ko_KR": ["{name} 씨의 전화번호는 {phone}입니다.", "주소는 {address}입니다.",
              "{company}의 {name} 님께 연락 바랍니다. 이메일: {email}",
              "{name} 고객님, 주문하신 상품이 발송되었습니다."],
}
# ko_KR has no Faker word list: a small one of our own, drawn into sentences.
KO_WORDS = ("오늘 내일 회의 자료 고객 주문 배송 문의 확인 결제 계좌 서비스 프로젝트 일정 담당자 "
            "보고서 회사 사무실 문서 시스템 변경 요청 답변 메일 전화 예약 취소 환불 상품 가격 "
            "계약 지원 팀장 부서 출장 이번 지난 다음 주 월요일 금요일 오후 오전 빨리 다시 "
            "정말 조금 모든 새로운 중요한 간단한 필요한").split()
KO_ENDS = ["입니다.", "했습니다.", "할 예정입니다.", "해 주세요.", "가능할까요?", "되었습니다.", "했어요."]
# Fields whose values recur (see Corpus.slot).
REUSE = {"name", "first", "first2", "last", "city", "job", "company", "email", "email2", "phone",
         "address", "street", "iban", "card", "user", "host", "ua"}
SERVICES = ["checkout", "auth", "billing", "search", "gateway", "inventory", "notifier", "profile"]


class Slots(dict):
    """A template's fields, drawn on first use (drawing all of them for every line is slow)."""

    def __init__(self, corpus, loc, **given):
        super().__init__(given)
        self.corpus, self.loc = corpus, loc

    def __missing__(self, key):
        self[key] = self.corpus.slot(key, self.loc)
        return self[key]


class Corpus:
    def __init__(self, seed=1):
        self.rng = random.Random(seed)
        self.fake = {}
        for i, loc in enumerate(LOCALES):
            self.fake[loc] = Faker(loc)
            self.fake[loc].seed_instance(seed * 1000 + i)
        self.t = EPOCH + timedelta(seconds=self.rng.randrange(86400 * 20))
        # Faker's word lists, drawn from directly (its sentence() is slow); en_GB has none
        # of its own (English words, British names elsewhere), ko_KR none at all (ours).
        self.words = {loc: self.fake[loc].get_words_list() for loc in ("en_US", "de_DE", "fr_FR", "zh_CN", "ja_JP")}
        self.words.update(en_GB=self.words["en_US"], ko_KR=KO_WORDS)
        self.make = {loc: self.makers(loc) for loc in LOCALES}
        self.drawn = {}  # (field, locale) -> values drawn so far, for REUSE

    # -- building blocks ---------------------------------------------------------------
    def pick(self, xs):
        return self.rng.choice(xs)

    def hex(self, n):
        return "%0*x" % (n, self.rng.getrandbits(4 * n))

    def token(self, n, alphabet=string.ascii_letters + string.digits):
        return "".join(self.rng.choices(alphabet, k=n))

    def tick(self):
        """Log time: moves forward by a few milliseconds to seconds each line."""
        self.t += timedelta(milliseconds=self.rng.randrange(1, 3000))
        return self.t

    def slots(self, loc="en_US"):
        """Template fields in the locale's style, each drawn only when a template uses it."""
        return Slots(self, loc)

    def slot(self, key, loc):
        """One field's value. People and places recur, as they do in real traffic (and
        Faker is slow): a name, address, e-mail… is a fresh draw one time in four, else
        one drawn before for that field and locale."""
        if key not in REUSE:
            return self.make[loc][key]()
        seen = self.drawn.setdefault((key, loc), [])
        if seen and self.rng.random() < 0.75:
            return self.rng.choice(seen)
        seen.append(self.make[loc][key]())
        return seen[-1]

    def makers(self, loc):
        f, en, r = self.fake[loc], self.fake["en_US"], self.rng
        address = f.address
        return {
            "name": f.name, "first": f.first_name, "first2": f.first_name, "last": f.last_name,
            "city": f.city, "year": lambda: r.randrange(1990, 2026), "job": f.job, "company": f.company,
            "email": lambda: self.pick([f.email, en.free_email])(),
            "email2": lambda: self.pick([en.company_email, en.free_email])(),
            "phone": f.phone_number, "address": lambda: address().replace("\n", ", "),
            "street": f.street_address,
            # Fixed ranges, not relative to today: the same seed gives the same corpus any day.
            "date": lambda: f.date_between(date(2023, 1, 1), date(2026, 11, 1)).strftime(
                self.pick(["%B %d, %Y", "%d/%m/%Y", "%Y-%m-%d"])),
            "dob": lambda: f.date_between(date(1936, 1, 1), date(2008, 1, 1)).isoformat(),
            "age": lambda: r.randrange(19, 88), "card": en.credit_card_number,
            "expiry": lambda: "%02d/%02d" % (r.randrange(1, 13), r.randrange(27, 36)), "iban": lambda: self.pick([f, self.fake["de_DE"]]).iban(),
            "ip": lambda: self.pick([en.ipv4_public, en.ipv4_public, en.ipv6])(), "ssn": en.ssn,
            "weekday": en.day_of_week, "time": lambda: "%02d:%02d" % (r.randrange(24), r.randrange(60)),
            "password": en.password, "sentence": lambda: self.sentence(loc, 4, 16),
            "order": lambda: "%s-%d" % (self.token(2, string.ascii_uppercase), r.randrange(10**5, 10**7)),
            "user": en.user_name, "cust": lambda: "cus_" + self.token(14),
            "last4": lambda: r.randrange(1000, 10000),
            "key": lambda: "%s:%s:%d" % (self.pick(SERVICES), self.pick(self.words["en_US"]), r.randrange(10**6)),
            "ms": lambda: r.choice([3, 12, 48, 95, 230, 1200]) + r.randrange(10),
            "n": lambda: r.randrange(1, 500), "uuid": lambda: "%08x-%04x-4%03x-%04x-%012x" % (
                r.getrandbits(32), r.getrandbits(16), r.getrandbits(12), r.getrandbits(16), r.getrandbits(48)),
            "host": en.hostname,
            "port": lambda: self.pick([443, 5432, 6379, 8080, 9200, r.randrange(1024, 65535)]),
            "method": lambda: self.pick(["GET", "GET", "POST", "PUT", "DELETE"]), "ua": en.user_agent,
            "path": lambda: "/api/v%d/%s/%d" % (r.randrange(1, 4), self.pick(self.words["en_US"]), r.randrange(10**6)),
            "status": lambda: self.pick([200, 200, 200, 201, 204, 301, 400, 401, 403, 404, 500, 503]),
            "cn_id": self.fake["zh_CN"].ssn,
        }

    def fill(self, template, loc="en_US"):
        return template.format_map(self.slots(loc))

    def sentences(self, loc, lo, hi, templates, share):
        """lo..hi sentences: Faker's (locale word list) or, with probability share, a template."""
        out = []
        for _ in range(self.rng.randrange(lo, hi + 1)):
            if self.rng.random() < share:
                out.append(self.fill(self.pick(templates), loc))
            else:
                out.append(self.sentence(loc, 5, 22))
        return out

    def sentence(self, loc, lo, hi):
        """lo..hi-1 words of the locale's word list."""
        words = self.rng.choices(self.words[loc], k=self.rng.randrange(lo, hi))
        if loc in ("zh_CN", "ja_JP"):
            return "".join(words) + "。"
        if loc == "ko_KR":
            return " ".join(words) + self.pick(KO_ENDS)
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    # -- one unit of each kind ---------------------------------------------------------
    def prose(self):
        loc = self.pick(["en_US", "en_US", "en_GB"])
        return " ".join(self.sentences(loc, 3, 8, PROSE, 0.3))

    def chat(self):
        loc = self.pick(["en_US", "en_US", "en_GB", "de_DE", "fr_FR"])
        who = self.fake[loc].first_name()
        msg = self.fill(self.pick(CHAT), loc)
        if self.rng.random() < 0.3:
            msg = msg.lower().rstrip(".")
        stamp = self.tick()
        return self.pick(["[%s] %s: %s" % (stamp.strftime("%H:%M"), who, msg),
                          "%s <%s> %s" % (stamp.strftime("%Y-%m-%d %H:%M:%S"), who.lower(), msg),
                          "%s: %s" % (who, msg)])

    def email(self):
        loc = self.pick(["en_US", "en_US", "en_GB", "de_DE", "fr_FR"])
        body = "\n\n".join(" ".join(self.sentences(loc, 1, 4, EMAIL_BODY, 0.5))
                           for _ in range(self.rng.randrange(1, 4)))
        return ("From: {name} <{email}>\nTo: support@{dom}\nSubject: {subj}\nDate: {when}\n\n"
                "Hi {agent},\n\n{body}\n\n{bye},\n{name}\n{phone}\n").format_map(Slots(
                    self, loc, dom=self.fake["en_US"].domain_name(), subj=self.sentence(loc, 3, 8).rstrip(".?"),
                    when=self.tick().strftime("%a, %d %b %Y %H:%M:%S +0000"), agent=self.fake[loc].first_name(),
                    body=body, bye=self.pick(["Thanks", "Best regards", "Cheers", "Kind regards"])))

    def log_message(self):
        loc = self.pick(["en_US", "en_US", "en_US", "en_GB", "de_DE", "fr_FR"])
        return self.fill(self.pick(LOG_MSG), loc)

    def json_log(self):
        s = self.slots()
        rec = {"ts": self.tick().isoformat(timespec="milliseconds").replace("+00:00", "Z"),
               "level": self.pick(["info", "info", "info", "debug", "warn", "error"]),
               "service": self.pick(SERVICES), "trace_id": self.hex(32), "span_id": self.hex(16),
               "msg": self.log_message()}
        extra = self.rng.random()
        if extra < 0.2:
            rec["user"] = {"id": self.rng.randrange(10**6), "email": s["email"]}
        elif extra < 0.35:
            rec["client_ip"] = s["ip"]
        elif extra < 0.5:
            rec["http"] = {"method": s["method"], "path": s["path"], "status": s["status"]}
        if self.rng.random() < 0.4:
            rec["duration_ms"] = s["ms"]
        return json.dumps(rec, ensure_ascii=False)

    def logfmt(self):
        s = self.slots()
        parts = ["ts=" + self.tick().isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                 "level=" + self.pick(["info", "info", "debug", "warn", "error"]),
                 "caller=%s.go:%d" % (self.pick(self.words["en_US"]), self.rng.randrange(10, 900)),
                 "msg=" + json.dumps(self.log_message(), ensure_ascii=False),
                 "trace_id=" + self.hex(32)]
        extra = self.rng.random()
        if extra < 0.2:
            parts.append("user=" + s["user"])
        elif extra < 0.35:
            parts.append("remote_addr=" + s["ip"])
        elif extra < 0.45:
            parts.append("email=" + s["email"])
        parts.append("duration=%dms" % s["ms"])
        return " ".join(parts)

    def log_line(self):
        return self.json_log() if self.rng.random() < 0.6 else self.logfmt()

    def secret(self):
        """One credential in a provider's real layout."""
        up, b64 = string.ascii_uppercase + "234567", string.ascii_letters + string.digits + "/+"
        jwt = lambda: ".".join(base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=") for d in (
            {"alg": "HS256", "typ": "JWT"}, {"sub": str(self.rng.randrange(10**9)), "name": self.fake["en_US"].name()},
            {"s": self.token(24)}))
        return self.pick([
            lambda: "AKIA" + self.token(16, up), lambda: self.token(40, b64),
            lambda: "ghp_" + self.token(36), lambda: "sk_live_" + self.token(24),
            lambda: "xoxb-%d-%d-%s" % (self.rng.randrange(10**11), self.rng.randrange(10**12), self.token(24)),
            lambda: "AIza" + self.token(35, string.ascii_letters + string.digits + "-_"),
            lambda: "sk-proj-" + self.token(48), jwt])()

    def code(self):
        en, s = self.fake["en_US"], self.slots()
        word = lambda: self.pick(self.words["en_US"])
        var, db = word(), word() + "_" + self.pick(["prod", "staging", "db", "main"])
        pw = self.pick([en.password(), self.token(12), word() + str(self.rng.randrange(100, 9999)) + "!"])
        conn = self.pick(["postgres://{u}:{p}@{h}:5432/{d}", "mysql://{u}:{p}@{h}:3306/{d}",
                          "mongodb+srv://{u}:{p}@cluster0.{x}.mongodb.net/{d}", "redis://:{p}@{h}:6379/0"]
                         ).format(u=s["user"], p=pw, h=en.hostname(), d=db, x=self.token(5).lower())
        return self.pick([
            "# {c}\nAWS_ACCESS_KEY_ID=AKIA{k}\nAWS_SECRET_ACCESS_KEY={sec}\nDATABASE_URL={conn}\n"
            "LOG_LEVEL=info\n{V}_TIMEOUT={n}\n",
            "{var}:\n  host: {host}\n  port: {port}\n  user: {user}\n  password: \"{pw}\"\n"
            "  api_key: {tok}\n  retries: {n}\n",
            "def fetch_{var}(session, {var}_id):\n    # maintainer: {name} <{email}>\n"
            "    headers = {{\"Authorization\": \"Bearer {tok}\"}}\n"
            "    r = session.get(f\"https://{host}/v1/{var}/{{{var}_id}}\", headers=headers, timeout={n})\n"
            "    r.raise_for_status()\n    return r.json()\n",
            "const config = {{\n  {var}Url: '{conn}',\n  stripeKey: '{tok}',\n  adminEmail: '{email}',\n"
            "  maxRetries: {n},\n}};\nmodule.exports = config;\n",
            "spring.datasource.url=jdbc:postgresql://{host}:5432/{db}\nspring.datasource.username={user}\n"
            "spring.datasource.password={pw}\n{var}.client.secret={tok}\n",
            "$ curl -u {user}:{pw} https://{host}/api/{var} -H 'X-Api-Key: {tok}'\n"
            "$ export GITHUB_TOKEN=ghp_{gh}\n$ psql '{conn}' -c 'select count(*) from {var}'\n",
        ]).format(c=en.catch_phrase(), k=self.token(16, string.ascii_uppercase + "234567"),
                  sec=self.token(40, string.ascii_letters + string.digits + "/+"), conn=conn, var=var,
                  V=var.upper(), n=self.rng.randrange(1, 120), host=en.hostname(), port=s["port"],
                  user=s["user"], pw=pw, tok=self.secret(), name=s["name"], email=s["email"],
                  db=db, gh=self.token(36))

    def cjk(self):
        loc = self.pick(["zh_CN", "ja_JP", "ko_KR"])
        sep = " " if loc == "ko_KR" else ""
        return sep.join(self.sentences(loc, 2, 6, CJK[loc], 0.35))

    # -- documents ---------------------------------------------------------------------
    def unit(self, kind):
        return getattr(self, kind)()

    def document(self, kind, size):
        """Units of one kind joined until the text has about `size` UTF-8 bytes."""
        sep = "\n" if kind in ("chat", "json_log", "logfmt", "logs") else "\n\n"
        make = self.log_line if kind == "logs" else getattr(self, kind)
        parts, n = [], 0
        while n < size:
            parts.append(make())
            n += len(parts[-1].encode()) + len(sep)
        text = sep.join(parts).encode()[:size].decode("utf-8", "ignore")
        # Cut at a line or word end when one is near, not mid-word.
        cut = max(text.rfind("\n"), text.rfind(" ") if sep == "\n\n" else -1)
        return text[:cut] if cut > 0.8 * len(text) else text

    def mixed(self, n, lo, hi):
        """n documents of random kinds, sizes log-uniform in [lo, hi] bytes."""
        return [self.document(self.rng.choices(KINDS, MIX)[0], int(lo * (hi / lo) ** self.rng.random()))
                for _ in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", default="mixed", choices=["mixed", "logs"] + KINDS)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--min", type=int, default=100)
    ap.add_argument("--max", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    c = Corpus(a.seed)
    docs = c.mixed(a.n, a.min, a.max) if a.kind == "mixed" else \
        [c.document(a.kind, int(a.min * (a.max / a.min) ** c.rng.random())) for _ in range(a.n)]
    for d in docs:
        print(json.dumps({"text": d}, ensure_ascii=False))


if __name__ == "__main__":
    main()

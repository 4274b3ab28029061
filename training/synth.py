"""Synthetic training documents for what the public corpora lack (pure standard library).

Names in chat, e-mail, log-line and clinical-note styles; lower-case and ALL-CAPS text;
titles (left outside the PER span, as in CoNLL) and initials; "Surname, Given" order;
street addresses (tagged LOC as one span); dates and times in many formats (DATE);
e-mail addresses, phone numbers and IDs in context (left O: the pattern tier finds them).
Output uses the corpora's JSONL format with labels PER / ORG / LOC / DATE.

    python3 training/synth.py --n 2500 --seed 13 --out /tmp/synthetic_train.jsonl
"""
import argparse
import json
import random

FIRST = """James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard
Susan Joseph Jessica Thomas Sarah Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Sandra
Paul Ashley Steven Emily Andrew Donna Kevin Michelle Brian Carol George Amanda Edward Melissa Ronald
Deborah Timothy Stephanie Jason Rebecca Jeffrey Laura Ryan Helen Jacob Sharon Gary Cynthia Nicholas
Kathleen Eric Amy Jonathan Shirley Stephen Angela Larry Anna Justin Ruth Scott Brenda Brandon Pamela
Olivia Noah Emma Liam Ava Ethan Sophia Mason Isabella Lucas Mia Oliver Amelia Aiden Harper Elijah Evelyn
Mohammed Fatima Ahmed Aisha Omar Layla Yusuf Zainab Ali Mariam Hassan Noor Ibrahim Leila Karim Samira
Wei Li Jing Hui Xiaoming Mei Chen Lan Hiroshi Yuki Haruto Sakura Kenji Aiko Min-jun Ji-woo Seo-yeon
Priya Rahul Ananya Arjun Deepika Vikram Sanjay Kavya Rohan Neha Aarav Isha Raj Meera Amit Pooja
Jose Maria Juan Carmen Luis Ana Carlos Lucia Javier Sofia Miguel Valentina Diego Camila Alejandro Paula
Pierre Camille Louis Chloe Antoine Manon Hans Greta Klaus Ursula Lukas Lena Jonas Anja Matteo Giulia
Francesco Chiara Sven Ingrid Lars Astrid Piotr Agnieszka Tomasz Katarzyna Ivan Olga Dmitri Natasha
Kwame Ama Chinedu Ngozi Oluwaseun Adaeze Tendai Thandiwe Sipho Zanele Kofi Abena Jamal Keisha Tyrone
Aaliyah DeShawn Imani Sean Siobhan Niamh Ciaran Aoife Declan Eamon Bridget Connor Fiona Hamish Morag
Yerlan Aigerim Ozan Elif Mehmet Ayse Emre Zeynep Nikos Eleni Dimitris Sofia Andrei Ioana Bogdan Elena""".split()

LAST = """Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez
Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez
Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker
Hall Rivera Campbell Mitchell Carter Roberts Murray O'Brien McAllister O'Neill Fitzgerald MacDonald
Kowalski Nowak Wisniewski Muller Schmidt Schneider Fischer Weber Meyer Wagner Becker Hoffmann Dubois
Lefebvre Moreau Laurent Girard Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino
Ivanov Petrov Smirnov Volkov Popescu Ionescu Papadopoulos Yilmaz Kaya Demir Sahin Celik
Wang Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sato Suzuki Takahashi Tanaka Watanabe Kim Park Choi
Patel Sharma Singh Kumar Gupta Reddy Iyer Nair Mehta Chatterjee Banerjee Khan Ahmed Hussain Rahman
Okafor Okonkwo Adeyemi Mensah Boateng Nkosi Dlamini Mwangi Otieno Haddad Khalil Nasser Mansour
Silva Santos Oliveira Souza Pereira Costa Ferreira Almeida Jensen Nielsen Hansen Andersson Johansson
Larsen Virtanen Korhonen Novak Horvath Kovacs Garcia-Lopez Smith-Jones Van der Berg De Vries Evagorou""".split("\n")
LAST = [w for line in LAST for w in line.split() if w not in ("Van", "der", "Berg", "De", "Vries")] + [
    "van der Berg", "de Vries", "da Silva", "Al-Farsi", "bin Said"]

CITIES = """London Manchester Birmingham Leeds Glasgow Edinburgh Cardiff Belfast Dublin Cork Paris Lyon
Marseille Berlin Munich Hamburg Frankfurt Vienna Zurich Geneva Madrid Barcelona Lisbon Porto Rome Milan
Naples Amsterdam Rotterdam Brussels Antwerp Copenhagen Stockholm Oslo Helsinki Warsaw Krakow Prague
Budapest Bucharest Athens Istanbul Ankara Moscow Kyiv Cairo Lagos Nairobi Accra Johannesburg Cape_Town
Casablanca Dubai Riyadh Doha Tehran Karachi Lahore Mumbai Delhi Bangalore Chennai Kolkata Dhaka Bangkok
Singapore Jakarta Manila Hanoi Beijing Shanghai Shenzhen Hong_Kong Taipei Seoul Busan Tokyo Osaka Sydney
Melbourne Brisbane Perth Auckland Wellington Toronto Montreal Vancouver Calgary Ottawa New_York Boston
Chicago Houston Phoenix Philadelphia San_Antonio San_Diego Dallas Austin Seattle Denver Atlanta Miami
Detroit Portland Nashville Baltimore Mexico_City Guadalajara Bogota Lima Santiago Buenos_Aires Sao_Paulo
Rio_de_Janeiro Springfield Bristol Nottingham Sheffield Leicester Oxford Cambridge Aberdeen Nicosia
Limassol Strasbourg Ljubljana Zagreb Riga Vilnius Tallinn Sofia_City Izmir Diyarbakir""".split()
CITIES = [c.replace("_", " ") for c in CITIES]
COUNTRIES = """United_Kingdom France Germany Spain Portugal Italy Ireland Netherlands Belgium Denmark Sweden
Norway Finland Poland Czech_Republic Hungary Romania Greece Turkey Russia Ukraine Egypt Nigeria Kenya Ghana
South_Africa Morocco India Pakistan Bangladesh Thailand Vietnam China Japan South_Korea Australia
New_Zealand Canada United_States USA Mexico Brazil Argentina Chile Colombia Peru Cyprus Croatia Slovenia
Latvia Lithuania Estonia Switzerland Austria Scotland Wales""".split()
COUNTRIES = [c.replace("_", " ") for c in COUNTRIES]
REGIONS = ["California", "Texas", "Ohio", "Florida", "Bavaria", "Ontario", "Queensland", "Yorkshire",
           "Kent", "Catalonia", "Tuscany", "Normandy", "Kerala", "Punjab", "Quebec", "Oregon", "Virginia"]
STREETS = ["Baker", "High", "Church", "Station", "Victoria", "Park", "Mill", "Oak", "Maple", "Elm",
           "King", "Queen", "Green", "Market", "Bridge", "Chestnut", "Willow", "Main", "Washington",
           "Lincoln", "Cedar", "Pine", "Sunset", "Harbour", "Castle", "Rue de la Paix", "Hauptstrasse",
           "Calle Mayor", "Via Roma", "Lindenweg"]
STREET_TYPES = ["Street", "St", "St.", "Road", "Rd", "Avenue", "Ave", "Lane", "Drive", "Dr", "Close",
                "Way", "Boulevard", "Blvd", "Court", "Place", "Terrace", "Crescent"]
ORG_SUFFIX = ["Ltd", "Ltd.", "Limited", "Inc.", "Inc", "LLC", "GmbH", "plc", "PLC", "Corp.",
              "Corporation", "& Partners", "& Co.", "Group", "Holdings", "S.A.", "AG", "B.V."]
ORG_WORDS = ["Northwind", "Contoso", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Acme",
             "Blue Harbor", "Silverline", "Redwood", "Brightpath", "Ironbridge", "Nimbus", "Vertex",
             "Pinnacle", "Horizon", "Evergreen", "Quantum", "Summit", "Atlas", "Meridian", "Crescent",
             "Oakridge", "Falcon", "Sterling", "Apex", "Lighthouse", "Cobalt", "Zenith"]
ORG_KIND = ["Bank", "Insurance", "Logistics", "Software", "Pharma", "Energy", "Consulting", "Media",
            "Capital", "Telecom", "Motors", "Foods", "Airlines", "Health", "Systems", "Analytics"]
ORG_FIXED = ["Google", "Microsoft", "Amazon", "Apple", "IBM", "Siemens", "Deutsche Bank", "HSBC",
             "Barclays", "Vodafone", "Tesco", "Unilever", "Nestle", "Toyota", "Samsung", "Reuters",
             "the NHS", "the World Health Organization", "UNICEF", "the European Commission",
             "the Ministry of Justice", "the Home Office", "Interpol", "the Red Cross", "FIFA",
             "Oxfam", "the BBC", "the United Nations", "Greenpeace", "Pfizer"]
HOSPITAL = ["General Hospital", "Royal Infirmary", "Medical Center", "University Hospital",
            "Children's Hospital", "Memorial Hospital", "Clinic", "Hospital", "Medical Centre",
            "Regional Medical Center", "Community Hospital"]
CLINICS = ["Cardiology Clinic", "Oncology Center", "Dialysis Center", "Family Practice",
           "Rehabilitation Center", "Urgent Care", "Health Center", "Nursing Home"]
TITLES = ["Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Dr", "Dr.", "Prof.", "Professor", "Miss", "Sir",
          "Judge", "Nurse", "Officer", "Sgt."]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "example.co.uk"]


class Doc:
    def __init__(self):
        self.parts = []
        self.spans = []
        self.n = 0

    def add(self, s):
        self.parts.append(s)
        self.n += len(s)
        return self

    def ent(self, s, label):
        if s[:4].lower() == "the ":  # CoNLL convention: the article is outside the span
            self.add(s[:4])
            s = s[4:]
        if s:
            self.spans.append((self.n, self.n + len(s), label))
        return self.add(s)

    def text(self):
        return "".join(self.parts)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def c(self, xs):
        return self.r.choice(xs)

    def p(self, x):
        return self.r.random() < x

    # ---------- entity surface forms
    def person(self, style="any"):
        f, l = self.c(FIRST), self.c(LAST)
        k = self.r.random() if style == "any" else {"full": 0.0, "first": 0.5}.get(style, 0.0)
        if style == "first":
            return f
        if k < 0.45:
            return f + " " + l
        if k < 0.55:
            return f[0] + ". " + l
        if k < 0.62:
            return f[0] + "." + self.c(FIRST)[0] + ". " + l
        if k < 0.70:
            return f + " " + self.c(FIRST)[0] + ". " + l
        if k < 0.78:
            return l
        if k < 0.86:
            return f
        if k < 0.93:
            return f + " " + self.c(FIRST) + " " + l
        return l + ", " + f

    def org(self):
        k = self.r.random()
        if k < 0.3:
            return self.c(ORG_WORDS) + " " + self.c(ORG_KIND) + (" " + self.c(ORG_SUFFIX) if self.p(0.5) else "")
        if k < 0.45:
            return self.c(LAST) + " " + self.c(ORG_SUFFIX)
        if k < 0.55:
            return self.c(CITIES) + " " + self.c(HOSPITAL)
        if k < 0.62:
            return "University of " + self.c(CITIES)
        if k < 0.68:
            return self.c(LAST) + " & " + self.c(LAST) + (" LLP" if self.p(0.5) else "")
        return self.c(ORG_FIXED)

    def loc(self):
        k = self.r.random()
        if k < 0.55:
            return self.c(CITIES)
        if k < 0.85:
            return self.c(COUNTRIES)
        return self.c(REGIONS)

    def address(self):
        num = str(self.r.randint(1, 2500))
        street = self.c(STREETS)
        if " " in street and street.split()[0] in ("Rue", "Calle", "Via"):
            line = street + " " + num
        elif street in ("Hauptstrasse", "Lindenweg"):
            line = street + " " + num
        else:
            line = num + " " + street + " " + self.c(STREET_TYPES)
        if self.p(0.2):
            line = self.c(["Flat ", "Apt ", "Apt. ", "Unit ", "Suite "]) + str(self.r.randint(1, 40)) + ", " + line
        city = self.c(CITIES)
        k = self.r.random()
        if k < 0.3:
            pc = "%s%d %d%s" % ("".join(self.r.choice("ABCDEFGHJKLMNPRSTW") for _ in range(2)),
                                self.r.randint(1, 20), self.r.randint(1, 9),
                                "".join(self.r.choice("ABDEFGHJLNPQRSTUWXYZ") for _ in range(2)))
            return line + ", " + city + " " + pc
        if k < 0.6:
            return line + ", " + city + ", " + self.c(["CA", "NY", "TX", "WA", "IL", "MA"]) + " " + str(self.r.randint(10000, 99999))
        if k < 0.8:
            return line + ", " + str(self.r.randint(10000, 99999)) + " " + city
        return line + ", " + city

    def date(self):
        y = self.r.randint(1940, 2030)
        m = self.r.randint(1, 12)
        d = self.r.randint(1, 28)
        M = MONTHS[m - 1]
        suf = "th" if 4 <= d <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
        forms = [
            "%04d-%02d-%02d" % (y, m, d), "%02d/%02d/%04d" % (m, d, y), "%02d/%02d/%04d" % (d, m, y),
            "%d.%d.%04d" % (d, m, y), "%02d.%02d.%02d" % (d, m, y % 100), "%d/%d/%02d" % (m, d, y % 100),
            "%d %s %d" % (d, M, y), "%s %d, %d" % (M, d, y), "%s %d%s, %d" % (M, d, suf, y),
            "%d%s %s %d" % (d, suf, M, y), "%s %d" % (M, y), "%d %s" % (d, M[:3]), "%s %d" % (M[:3] + ".", d),
            "%d-%s-%d" % (d, M[:3], y), "%s" % y, "%s %d" % (self.c(WEEKDAYS), d) if False else self.c(WEEKDAYS),
            "the %d%s of %s %d" % (d, suf, M, y), "%s, %d %s %d" % (self.c(WEEKDAYS), d, M, y),
            "%04d-%02d-%02dT%02d:%02d:%02dZ" % (y, m, d, self.r.randint(0, 23), self.r.randint(0, 59), self.r.randint(0, 59)),
            "%d %s %d at %02d:%02d" % (d, M, y, self.r.randint(0, 23), self.r.randint(0, 59)),
        ]
        return self.c(forms)

    def email(self, name):
        base = name.lower().replace(" ", ".").replace(",", "").replace("'", "")
        return base + "@" + self.c(DOMAINS)

    def phone(self):
        return self.c(["+44 20 7946 %04d", "(555) 013-%04d", "+1 202 555 %04d", "07700 90%04d",
                       "+49 30 1234%04d", "+33 1 42 68 %04d"]) % self.r.randint(0, 9999)

    # ---------- document styles
    def chat(self):
        d = Doc()
        speakers = [self.person("first") for _ in range(2)]
        for _ in range(self.r.randint(2, 5)):
            sp = self.c(speakers)
            if self.p(0.5):
                d.add("[%02d:%02d] " % (self.r.randint(0, 23), self.r.randint(0, 59)))
            d.ent(sp, "PER").add(": ")
            k = self.r.randint(0, 9)
            if k == 0:
                d.add("hey ").ent(self.person("first"), "PER").add(", did ").ent(self.person(), "PER").add(" send the file?")
            elif k == 1:
                d.add("im in ").ent(self.loc(), "LOC").add(" till ").ent(self.date(), "DATE").add(" lol")
            elif k == 2:
                d.add("ask ").ent(self.person(), "PER").add(" at ").ent(self.org(), "ORG").add(", her number is ").add(self.phone())
            elif k == 3:
                d.add("meeting moved to ").ent(self.date(), "DATE").add(" at ").ent(self.org(), "ORG")
            elif k == 4:
                n = self.person("full")
                d.add("my new address is ").ent(self.address(), "LOC").add(" - tell ").ent(n, "PER")
            elif k == 5:
                d.add("thanks ").ent(self.person("first"), "PER").add("!! see you ").ent(self.c(WEEKDAYS), "DATE")
            elif k == 6:
                n = self.person("full")
                d.add("pls email ").ent(n, "PER").add(" at ").add(self.email(n)).add(" asap")
            elif k == 7:
                d.add("just landed in ").ent(self.c(CITIES), "LOC").add(", ").ent(self.person("first"), "PER").add(" picking me up")
            elif k == 8:
                d.add("ok")
            else:
                d.add("did you hear ").ent(self.person(), "PER").add(" left ").ent(self.org(), "ORG").add("?")
            d.add("\n")
        return d

    def email_doc(self):
        d = Doc()
        a, b = self.person("full"), self.person("full")
        d.add("From: ").ent(a, "PER").add(" <" + self.email(a) + ">\n")
        d.add("To: ").ent(b, "PER").add(" <" + self.email(b) + ">\n")
        d.add("Date: ").ent(self.date(), "DATE").add("\n")
        d.add("Subject: " + self.c(["Re: contract", "Invoice", "Meeting", "Your application", "Fwd: visit"]) + "\n\n")
        d.add(self.c(["Hi ", "Dear ", "Hello ", "Dear " + self.c(TITLES) + " "])).ent(b.split()[-1] if self.p(0.4) else b.split()[0], "PER").add(",\n\n")
        k = self.r.randint(0, 3)
        if k == 0:
            d.add("Please find attached the contract with ").ent(self.org(), "ORG").add(". It is due on ").ent(self.date(), "DATE").add(".\n")
        elif k == 1:
            d.add("I will be in ").ent(self.c(CITIES), "LOC").add(" from ").ent(self.date(), "DATE").add(" to ").ent(self.date(), "DATE")
            d.add(". You can reach me on ").add(self.phone()).add(".\n")
        elif k == 2:
            d.add("Could you send the parcel to ").ent(self.address(), "LOC").add("? ").ent(self.person(), "PER").add(" will sign for it.\n")
        else:
            d.add("As discussed with ").ent(self.person(), "PER").add(" of ").ent(self.org(), "ORG").add(", the audit starts ").ent(self.date(), "DATE").add(".\n")
        d.add("\n" + self.c(["Best,", "Regards,", "Thanks,", "Kind regards,", "Cheers,"]) + "\n").ent(a, "PER").add("\n")
        if self.p(0.6):
            d.ent(self.org(), "ORG").add("\n")
        return d

    def log(self):
        d = Doc()
        for _ in range(self.r.randint(2, 5)):
            ts = "%04d-%02d-%02dT%02d:%02d:%02dZ" % (self.r.randint(2015, 2026), self.r.randint(1, 12), self.r.randint(1, 28),
                                                    self.r.randint(0, 23), self.r.randint(0, 59), self.r.randint(0, 59))
            d.add(ts)  # the log's own time axis: not personal
            d.add(" " + self.c(["INFO", "WARN", "ERROR", "DEBUG"]) + " ")
            n = self.person("full")
            k = self.r.randint(0, 4)
            if k == 0:
                d.add('user_login name="').ent(n, "PER").add('" email=' + self.email(n) + " ip=10.%d.%d.%d" % (self.r.randint(0, 255), self.r.randint(0, 255), self.r.randint(0, 255)))
            elif k == 1:
                d.add("order %d shipped to " % self.r.randint(1000, 99999)).ent(n, "PER").add(", ").ent(self.address(), "LOC")
            elif k == 2:
                d.add("customer=").ent(n, "PER").add(" org=").ent(self.org(), "ORG").add(" status=active")
            elif k == 3:
                d.add("[auth] password reset requested for ").ent(n, "PER").add(" (" + self.email(n) + ")")
            else:
                d.add("payment failed: cardholder ").ent(n.upper() if self.p(0.5) else n, "PER").add(" city=").ent(self.c(CITIES), "LOC")
            d.add("\n")
        return d

    # ---------- clinical notes (capitals, short dates, units, record numbers)
    def short_date(self):
        """Dates as clinical notes write them: 7/22, 07/22/24, 7-22-2024, Jul 22."""
        m, d, y = self.r.randint(1, 12), self.r.randint(1, 28), self.r.randint(2010, 2026)
        return self.c(["%d/%d" % (m, d), "%02d/%02d" % (m, d), "%d/%d/%02d" % (m, d, y % 100),
                       "%02d/%02d/%04d" % (m, d, y), "%d-%d-%04d" % (m, d, y),
                       "%s %d" % (MONTHS[m - 1][:3], d), "%s %d" % (MONTHS[m - 1], d), self.date()])

    def physician(self):
        """A physician's name as it appears after or before its cue; the cue stays outside
        the span (CoNLL convention) and the engine's honorific rule adds it back."""
        f, l = self.c(FIRST), self.c(LAST)
        return self.c([l, l, f + " " + l, f[0] + ". " + l, f + " " + f[0] + ". " + l])

    def hospital(self):
        return self.c([self.c(CITIES) + " " + self.c(HOSPITAL), "St. " + self.c(FIRST) + "'s " + self.c(HOSPITAL),
                       self.c(LAST) + " " + self.c(HOSPITAL), self.c(CITIES) + " " + self.c(CLINICS),
                       self.c(LAST) + " " + self.c(CLINICS)])

    def unit(self):
        return self.c(["%d %s" % (self.r.randint(2, 9), self.c(["West", "East", "North", "South"])),
                       "Ward %d%s" % (self.r.randint(1, 12), self.c(["", "A", "B", "C"])),
                       self.c(LAST) + " Ward", self.c(LAST) + " Unit", self.c(LAST) + " Pavilion"])

    def clinical(self):
        d = Doc()
        k = self.r.randint(0, 3)
        f, l = self.c(FIRST), self.c(LAST)
        if k == 0:
            d.add("Patient: ").ent(l.upper() + ", " + f if self.p(0.5) else f + " " + l, "PER")
            d.add("   DOB: ").ent(self.date(), "DATE").add("   MRN: %07d\n" % self.r.randint(0, 9999999))
            d.add("Seen by ").add(self.c(["Dr. ", "Dr ", "Nurse ", ""])).ent(self.person(), "PER").add(" at ").ent(self.hospital(), "ORG")
            d.add(" on ").ent(self.date(), "DATE").add(".\n")
        elif k == 1:
            d.add(self.c(["DISCHARGE SUMMARY", "ADMISSION NOTE", "PROGRESS NOTE", "OPERATIVE REPORT"]) + "\n")
            d.add(self.c(["NAME: ", "PATIENT: ", "Name: "])).ent(l + ", " + f if self.p(0.6) else f + " " + l, "PER")
            d.add(self.c(["   MRN ", "  MR# ", "  Unit No: ", "  Acct: "]) + "%d" % self.r.randint(100000, 99999999))
            d.add(self.c(["\nADMIT DATE: ", "\nAdmitted: ", "\nDOA: "])).ent(self.short_date(), "DATE")
            d.add(self.c(["   DISCHARGE DATE: ", "   Discharged: ", "  DOD: "])).ent(self.short_date(), "DATE").add("\n")
            d.add(self.c(["ATTENDING: ", "Attending: ", "PCP: ", "Dictated by: "]))
            if self.p(0.5):
                d.add("Dr. ").ent(self.physician(), "PER")
            else:
                d.ent(self.physician(), "PER").add(self.c([", MD", ", M.D.", " MD", ", DO"]))
            d.add("\nSERVICE: " + self.c(["Medicine", "Cardiology", "Surgery", "Oncology", "Neurology"]) + "\n")
        elif k == 2:
            age = self.r.randint(18, 97)
            d.add("%d %s %s " % (age, self.c(["yo", "y/o", "year old", "-year-old", "YO"]), self.c(["M", "F", "man", "woman", "male", "female"])))
            d.add(self.c(["admitted ", "seen in ED ", "transferred ", "presented "])).ent(self.short_date(), "DATE")
            d.add(self.c([" to ", " from "])).ent(self.unit(), "ORG").add(self.c([" at ", " of "])).ent(self.hospital(), "ORG").add(". ")
            d.add(self.c(["Seen by ", "Discussed with ", "Consulted ", "Case reviewed with "])).add(self.c(["Dr. ", "Dr ", "DR. "])).ent(self.physician(), "PER").add(". ")
            d.add(self.c(["Wife ", "Husband ", "Daughter ", "Son ", "Mother ", "Sister "])).ent(self.person("first") if self.p(0.5) else self.person("full"), "PER")
            d.add(self.c([" at bedside. ", " updated by phone. ", " is HCP. "]))
            d.add(self.c(["F/u ", "Follow up ", "RTC "])).ent(self.short_date(), "DATE").add(" with ").add(self.c(["Dr. ", "Dr "])).ent(self.physician(), "PER")
            d.add(self.c([" in ", " at "])).ent(self.c([self.hospital(), self.c(CITIES) + " " + self.c(CLINICS)]), "ORG").add(".\n")
        else:
            d.add("Referred by ").ent(self.person(), "PER").add(" (GP, ").ent(self.c(CITIES), "LOC").add("). Next of kin: ").ent(self.person("full"), "PER").add(", tel ").add(self.phone()).add(".\n")
            d.add("%s-year-old presents with chest pain. Lives at " % self.r.randint(18, 95)).ent(self.address(), "LOC").add(" with daughter ").ent(self.person("first"), "PER").add(".\n")
            d.add("Discharged ").ent(self.date(), "DATE").add(". Follow-up with ").add(self.c(["Dr. ", "Prof. "])).ent(self.c(LAST), "PER").add(" in ").ent(self.c(CITIES), "LOC").add(".\n")
        return d

    # ---------- serialized payloads (log lines and records). The log's own
    # machinery (timestamps, ids, levels, durations) stays O; values under personal keys
    # and names in messages are entities.
    def machinery(self):
        ts = "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (self.r.randint(2019, 2026), self.r.randint(1, 12), self.r.randint(1, 28),
                                                     self.r.randint(0, 23), self.r.randint(0, 59), self.r.randint(0, 59), self.r.randint(0, 999))
        rid = "".join(self.r.choice("0123456789abcdef") for _ in range(self.c([16, 32])))
        uuid = "-".join("".join(self.r.choice("0123456789abcdef") for _ in range(n)) for n in (8, 4, 4, 4, 12))
        return ts, rid, uuid

    def message(self, d):
        """A log message with entities, appended to d; escaping is the caller's (all
        generated values are free of quotes and backslashes)."""
        n = self.person("full")
        k = self.r.randint(0, 4)
        if k == 0:
            d.add("password reset for ").ent(n, "PER")
        elif k == 1:
            d.add("order shipped to ").ent(n, "PER").add(" in ").ent(self.c(CITIES), "LOC")
        elif k == 2:
            d.add("user ").ent(n, "PER").add(" joined ").ent(self.org(), "ORG")
        elif k == 3:
            d.add("appointment booked with Dr. ").ent(self.physician(), "PER").add(" on ").ent(self.short_date(), "DATE")
        else:
            d.add("login ok")

    def payload(self):
        d = Doc()
        for _ in range(self.r.randint(1, 4)):
            ts, rid, uuid = self.machinery()
            n = self.person("full")
            lvl = self.c(["info", "INFO", "warn", "ERROR", "debug"])
            svc = self.c(["checkout", "auth-service", "api-gateway", "billing", "web"])
            k = self.r.randint(0, 4)
            if k == 0:  # JSON log line
                d.add('{"ts":"%s","level":"%s","service":"%s","request_id":"%s","msg":"' % (ts, lvl, svc, rid))
                self.message(d)
                d.add('","customer_name":"').ent(n, "PER").add('","email":"%s","dob":"' % self.email(n)).ent(self.date(), "DATE")
                d.add('","city":"').ent(self.c(CITIES), "LOC").add('","duration_ms":%d}' % self.r.randint(1, 5000))
            elif k == 1:  # logfmt
                d.add("time=%s level=%s svc=%s trace_id=%s msg=\"" % (ts, lvl, svc, rid))
                self.message(d)
                d.add('" customer_name="').ent(n, "PER").add('" user_id=%s status=%d' % (uuid, self.c([200, 201, 404, 500])))
            elif k == 2:  # CSV row
                d.add("%d," % self.r.randint(1, 99999)).ent(n, "PER").add(",%s," % self.email(n)).ent(self.date(), "DATE")
                d.add(",").ent(self.c(CITIES), "LOC").add(",%s" % ts)
            elif k == 3:  # SQL insert
                d.add("INSERT INTO customers (id, name, email, dob, city) VALUES (%d, '" % self.r.randint(1, 99999))
                d.ent(n, "PER").add("', '%s', '" % self.email(n)).ent(self.short_date(), "DATE").add("', '").ent(self.c(CITIES), "LOC").add("');")
            else:  # Markdown table row / syslog
                if self.p(0.5):
                    d.add("| ").ent(n, "PER").add(" | ").ent(self.org(), "ORG").add(" | %s | " % self.phone()).ent(self.c(CITIES), "LOC").add(" |")
                else:
                    d.add("<%d>1 %s %s %s %d - - " % (self.r.randint(1, 191), ts, svc + "-" + str(self.r.randint(1, 9)), svc, self.r.randint(100, 99999)))
                    self.message(d)
            d.add("\n")
        return d

    def formal(self):
        d = Doc()
        k = self.r.randint(0, 4)
        if k == 0:
            d.add("The applicant, " + self.c(TITLES) + " ").ent(self.person("full"), "PER").add(", was born in ").ent(self.c(["19%02d" % self.r.randint(30, 99), self.date()]), "DATE")
            d.add(" and lives in ").ent(self.c(CITIES), "LOC").add(".")
        elif k == 1:
            d.ent(self.person("full"), "PER").add(" joined ").ent(self.org(), "ORG").add(" in ").ent(self.c(CITIES), "LOC").add(" on ").ent(self.date(), "DATE").add(".")
        elif k == 2:
            d.add("On ").ent(self.date(), "DATE").add(", " + self.c(TITLES) + " ").ent(self.c(LAST), "PER").add(" told the ").ent(self.c(CITIES), "LOC").add(" court that ").ent(self.person(), "PER").add(" had visited ").ent(self.address(), "LOC").add(".")
        elif k == 3:
            d.add("Witness statement of ").ent(self.person("full"), "PER").add(", employee of ").ent(self.org(), "ORG").add(", dated ").ent(self.date(), "DATE").add(".")
        else:
            d.add("Send correspondence to ").ent(self.person("full"), "PER").add(", ").ent(self.org(), "ORG").add(", ").ent(self.address(), "LOC").add(".")
        return d

    def doc(self):
        style = self.r.random()
        upper = 0.12
        if style < 0.2:
            d = self.chat()
        elif style < 0.35:
            d = self.email_doc()
        elif style < 0.45:
            d = self.log()
        elif style < 0.7:
            d = self.clinical()
            upper = 0.35  # many clinical systems write notes in capitals
        elif style < 0.85:
            d = self.payload()
        else:
            d = self.formal()
        text = d.text()
        case = self.r.random()
        if case < 0.2:
            text = text.lower()
        elif case < 0.2 + upper:
            text = text.upper()
        # lower()/upper() can change lengths for a few characters; fall back if so
        if len(text) != len(d.text()):
            text = d.text()
        return text, d.spans


def generate(n, seed=13):
    g = Gen(seed)
    out = []
    for i in range(n):
        text, spans = g.doc()
        out.append({"id": "synthetic-%05d" % i, "text": text,
                    "entities": [{"start": s, "end": e, "label": t} for s, e, t in spans]})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2500)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with open(a.out, "w", encoding="utf-8") as f:
        for d in generate(a.n, a.seed):
            f.write(json.dumps(d, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

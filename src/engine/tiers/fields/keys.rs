//! The key table: which field names hold personal data (and of which label), and which
//! hold the log's own machinery. One declaration per key family, listed in [`ALL`];
//! the registry test in `tests.rs` checks every example and counter-example through
//! the whole engine, as the pattern registry does.
//!
//! Keys are compared normalised: split into words at separators and camelCase humps,
//! lower-cased and joined (`customer_name`, `customerName`, `Customer-Name` and
//! `customer.name` are all `customername`). A key matches a family by its whole
//! normalised form ([`KeyFamily::keys`]) or, failing every family, by its last word
//! ([`KeyFamily::last_words`]: `billing_email` ends in `email`).

use std::collections::HashMap;
use std::sync::OnceLock;

/// What a key says about its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Personal data of this label (a `text::label` name), whatever its shape.
    Personal(&'static str),
    /// The log's machinery (time axis, ids for joins, levels, services): nothing inside
    /// is flagged, except e-mail addresses and checksum-valid cards and IBANs, which
    /// are personal wherever they appear (a path can carry an e-mail).
    Machinery,
    /// Known, but the value's shape decides (national ids vary by country): the other
    /// tiers look at it as usual. Listed so the `id` last word does not claim them.
    Neutral,
}

/// One family of keys.
#[derive(Debug)]
pub struct KeyFamily {
    pub name: &'static str,
    pub role: Role,
    /// Whole normalised keys, separated by white space.
    pub keys: &'static str,
    /// Last words that alone place a key in this family, separated by white space.
    pub last_words: &'static str,
    /// `(payload, value)`: the value is flagged with the family's label (personal) or
    /// left alone although something would flag it without the key (machinery).
    pub examples: &'static [(&'static str, &'static str)],
    /// `(payload, value)` under a look-alike key that is not this family's: a personal
    /// family does not flag it; a machinery family does not shield it.
    pub counter_examples: &'static [(&'static str, &'static str)],
}

pub(super) const PERSON_NAME: KeyFamily = KeyFamily {
    name: "person_name",
    role: Role::Personal("PERSON"),
    keys: "\
        name fullname firstname lastname givenname familyname surname middlename \
        maidenname customername clientname contactname patientname employeename \
        membername guestname passengername applicantname displayname realname legalname \
        accountholder accountname cardholder cardholdername holdername sendername \
        recipientname ownername billingname shippingname buyername sellername personname \
        studentname drivername customer patient recipient sender author fullnames",
    last_words: "surname firstname lastname fullname cardholder",
    examples: &[
        (
            r#"{"customer_name": "Ana María Ruiz", "status": 200}"#,
            "Ana María Ruiz",
        ),
        (
            "ts=2024-03-14T09:30:00Z fullName=\"jo lindqvist\" level=info",
            "jo lindqvist",
        ),
        (
            "status=ok customer_name=Olga Petrova, email=olga@example.com",
            "Olga Petrova",
        ),
    ],
    counter_examples: &[
        (
            r#"{"file_name": "Quarterly Report", "table_name": "Orders"}"#,
            "Quarterly Report",
        ),
        (
            "service_name=Billing Gateway host_name=web",
            "Billing Gateway",
        ),
    ],
};

/// User handles identify a person as much as a name does; there is no separate label.
pub(super) const USER_HANDLE: KeyFamily = KeyFamily {
    name: "user_handle",
    role: Role::Personal("PERSON"),
    keys: "\
        user username login userlogin loginname screenname handle nickname remoteuser \
        owner assignee reporter",
    last_words: "username login",
    examples: &[
        ("level=info user=jdoe42 msg=\"logged in\"", "jdoe42"),
        (r#"{"username": "k_mensah", "ts": 1710408600}"#, "k_mensah"),
    ],
    counter_examples: &[
        ("user_agent=curl/8.5.0 status=200", "curl/8.5.0"),
        // a system account
        (
            "sudo: ana : TTY=pts/0 ; PWD=/srv ; USER=root ; COMMAND=/bin/ls",
            "root",
        ),
    ],
};

pub(super) const EMAIL: KeyFamily = KeyFamily {
    name: "email",
    role: Role::Personal("EMAIL_ADDRESS"),
    keys: "email mail emailaddress emailaddr emails replyto",
    last_words: "email mail emailaddress",
    examples: &[
        (
            r#"{"contact.email": "jane at example dot org"}"#,
            "jane at example dot org",
        ),
        (
            "user_email=jane.doe@example.com level=warn",
            "jane.doe@example.com",
        ),
    ],
    counter_examples: &[("mail_server=smtp1 status=sent", "smtp1")],
};

pub(super) const PHONE: KeyFamily = KeyFamily {
    name: "phone",
    role: Role::Personal("PHONE_NUMBER"),
    keys: "\
        phone phonenumber phoneno tel telephone mobile mobilenumber mobilephone cell \
        cellphone msisdn fax contactnumber homephone workphone",
    last_words: "phone telephone mobile msisdn fax",
    examples: &[
        (r#"{"phone": "555 0132", "level": "info"}"#, "555 0132"),
        ("mobile=+33 6 12 34 56 78 status=200", "+33 6 12 34 56 78"),
    ],
    counter_examples: &[("phone_model=Pixel 8 status=200", "Pixel 8")],
};

pub(super) const BIRTH_DATE: KeyFamily = KeyFamily {
    name: "birth_date",
    role: Role::Personal("DATE_TIME"),
    keys: "dob dateofbirth birthdate birthday birthdt bday born birthdatetime",
    last_words: "dob birthdate birthday",
    examples: &[
        (
            r#"{"ts": "2024-03-14T09:30:00Z", "dob": "1984-07-02"}"#,
            "1984-07-02",
        ),
        ("date_of_birth=2 July 1984 level=info", "2 July 1984"),
    ],
    counter_examples: &[("birth_count=3 status=200", "3")],
};

pub(super) const ADDRESS: KeyFamily = KeyFamily {
    name: "address",
    role: Role::Personal("ADDRESS"),
    keys: "\
        address addr streetaddress street homeaddress billingaddress shippingaddress \
        mailingaddress postaladdress residentialaddress deliveryaddress customeraddress \
        useraddress addressline addressline1 addressline2 postcode postalcode zip \
        zipcode",
    last_words: "",
    examples: &[
        (
            r#"{"shipping_address": "Flat 2, 7 Elm Road, Leeds"}"#,
            "Flat 2, 7 Elm Road, Leeds",
        ),
        (
            "billingAddress=12 Baker Street, London status=200",
            "12 Baker Street, London",
        ),
    ],
    counter_examples: &[("mac_address=gateway-eth0 status=200", "gateway-eth0")],
};

pub(super) const IP: KeyFamily = KeyFamily {
    name: "ip",
    role: Role::Personal("IP_ADDRESS"),
    keys: "\
        ip ipaddress ipaddr clientip remoteip remoteaddr remoteaddress sourceip srcip \
        userip xforwardedfor forwardedfor realip xrealip clientaddress clientaddr \
        peeraddr",
    last_words: "ip",
    examples: &[("remote_addr=10.1.2.3 status=200", "10.1.2.3")],
    counter_examples: &[
        ("zip=EC1A status=200", "EC1A"),
        ("GET /a?ip=0 status=200", "0"),
    ],
};

pub(super) const CARD: KeyFamily = KeyFamily {
    name: "card",
    role: Role::Personal("CREDIT_CARD"),
    keys: "\
        card cardnumber cardno cc ccnumber creditcard creditcardnumber pan debitcard",
    last_words: "",
    examples: &[(
        r#"{"card_number": "4111 1111 1111 1112"}"#,
        "4111 1111 1111 1112",
    )],
    counter_examples: &[("card_type=visa status=200", "visa")],
};

pub(super) const CARD_SECURITY_CODE: KeyFamily = KeyFamily {
    name: "card_security_code",
    role: Role::Personal("CARD_SECURITY_CODE"),
    keys:
        "cvv cvv2 cvc cvc2 cvn securitycode cardsecuritycode cardcvv cardcvc cardverificationvalue",
    last_words: "cvv cvc",
    examples: &[(r#"{"card_cvv": "987", "status": 200}"#, "987")],
    counter_examples: &[("cvv_required=true status=200", "true")],
};

pub(super) const BANK_ACCOUNT: KeyFamily = KeyFamily {
    name: "bank_account",
    role: Role::Personal("IBAN_CODE"),
    keys: "iban bankaccount ibancode",
    last_words: "iban",
    examples: &[("iban=DE00 1234 5678 status=200", "DE00 1234 5678")],
    counter_examples: &[("bank=Sparkasse status=200", "Sparkasse")],
};

pub(super) const SSN: KeyFamily = KeyFamily {
    name: "ssn",
    role: Role::Personal("US_SSN"),
    keys: "ssn socialsecuritynumber socialsecurity",
    last_words: "ssn",
    examples: &[(r#"{"ssn": "078-05-1120"}"#, "078-05-1120")],
    counter_examples: &[("session=abc status=200", "abc")],
};

pub(super) const AGE: KeyFamily = KeyFamily {
    name: "age",
    role: Role::Personal("AGE"),
    keys: "age ageyears patientage customerage",
    last_words: "",
    examples: &[(r#"{"age": 42, "status": 200}"#, "42")],
    counter_examples: &[("max_age=3600 status=200", "3600")],
};

pub(super) const OCCUPATION: KeyFamily = KeyFamily {
    name: "occupation",
    role: Role::Personal("OCCUPATION"),
    keys: "occupation profession jobtitle",
    last_words: "occupation profession",
    examples: &[(
        r#"{"job_title": "night nurse", "level": "info"}"#,
        "night nurse",
    )],
    counter_examples: &[("job_id=77 status=200", "77")],
};

pub(super) const HEALTH: KeyFamily = KeyFamily {
    name: "health",
    role: Role::Personal("MEDICAL_CONDITION"),
    keys: "diagnosis diagnoses medicalcondition healthcondition medicalhistory illness",
    last_words: "diagnosis diagnoses",
    examples: &[(
        r#"{"diagnosis": "type 2 diabetes", "level": "info"}"#,
        "type 2 diabetes",
    )],
    counter_examples: &[("condition=ok status=200", "ok")],
};

pub(super) const PLACE: KeyFamily = KeyFamily {
    name: "place",
    role: Role::Personal("LOCATION"),
    keys: "city town hometown birthplace placeofbirth village county",
    last_words: "",
    examples: &[("city=Kraków status=200", "Kraków")],
    counter_examples: &[("capacity=12 status=200", "12")],
};

pub(super) const COORDINATES: KeyFamily = KeyFamily {
    name: "coordinates",
    role: Role::Personal("COORDINATES"),
    keys: "lat lng lon latitude longitude latlng latlon latlong geolat geolng geolon \
        gpslat gpslng gpslon coordinates coords gpscoordinates geolocation geopoint",
    last_words: "latitude longitude coordinates",
    examples: &[
        (
            r#"{"user":"u_1","lat":48.858370,"lng":2.294481,"accuracy":12}"#,
            "48.858370",
        ),
        ("ts=1710408600 gps_lon=-0.127758 level=info", "-0.127758"),
    ],
    counter_examples: &[("latency=12 status=200", "12")],
};

pub(super) const EMPLOYER: KeyFamily = KeyFamily {
    name: "employer",
    role: Role::Personal("ORGANIZATION"),
    keys: "company companyname employer organization organisation school",
    last_words: "",
    examples: &[(
        r#"{"employer": "Acme Widgets", "level": "info"}"#,
        "Acme Widgets",
    )],
    counter_examples: &[("company_id=77 status=200", "77")],
};

pub(super) const PASSWORD: KeyFamily = KeyFamily {
    name: "password",
    role: Role::Personal("PASSWORD"),
    keys: "password passwd pwd pass passphrase secret clientsecret pin",
    last_words: "password passwd secret",
    examples: &[
        (r#"{"user": "x", "password": "hunter2"}"#, "hunter2"),
        ("level=info pwd=hunter2", "hunter2"),
    ],
    counter_examples: &[
        ("password_reset=true status=200", "true"),
        // sudo's working directory
        (
            "sudo: ana : TTY=pts/0 ; PWD=/home/ana ; USER=root ; COMMAND=/bin/ls",
            "/home/ana",
        ),
    ],
};

pub(super) const TOKEN: KeyFamily = KeyFamily {
    name: "token",
    role: Role::Personal("API_KEY"),
    keys: "\
        token accesstoken refreshtoken authtoken idtoken apikey sessiontoken \
        authorization bearer xapikey privatekey",
    last_words: "token apikey",
    examples: &[("api_key=abc123def456 status=200", "abc123def456")],
    counter_examples: &[("token_count=512 status=200", "512")],
};

/// National and tax ids: personal, but their shape (and the patterns) decide the label.
pub(super) const NATIONAL_ID: KeyFamily = KeyFamily {
    name: "national_id",
    role: Role::Neutral,
    keys: "\
        nationalid taxid passportid passport passportnumber licenseid driverlicense \
        licencenumber licensenumber nin nino personalid citizenid",
    last_words: "",
    examples: &[("tax_id=415-555-0132 status=200", "415-555-0132")],
    counter_examples: &[("request_id=415-555-0132 status=200", "415-555-0132")],
};

/// Free text: the message of a record. The tiers read it as prose; only its key is
/// shielded (a model may take `note` or `customer_note` for a name).
pub(super) const FREE_TEXT: KeyFamily = KeyFamily {
    name: "free_text",
    role: Role::Neutral,
    keys: "\
        msg message note notes text body log description comment comments details reason \
        error err exception summary subject content event query",
    last_words: "message msg note comment",
    examples: &[(
        "msg=\"Call Ana at 415-555-0132\" level=info",
        "415-555-0132",
    )],
    counter_examples: &[("trace_id=415-555-0132 level=info", "415-555-0132")],
};

// ----------------------------------------------------------------- machinery

pub(super) const TIME: KeyFamily = KeyFamily {
    name: "time",
    role: Role::Machinery,
    keys: "\
        ts time timestamp datetime date eventtime logtime timelocal timeiso8601 \
        createdat updatedat receivedat startedat endedat starttime endtime \
        observedtimestamp timeunixnano t",
    last_words: "timestamp ts time at",
    examples: &[
        (
            r#"{"@timestamp": "2024-03-14T09:30:00.123Z", "msg": "x"}"#,
            "2024-03-14T09:30:00.123Z",
        ),
        (
            "time=\"14/Mar/2024:09:30:00 +0000\" level=info",
            "14/Mar/2024:09:30:00 +0000",
        ),
        ("created_at=2024-03-14 status=200", "2024-03-14"),
    ],
    counter_examples: &[("dob=2024-03-14 status=200", "2024-03-14")],
};

pub(super) const IDS: KeyFamily = KeyFamily {
    name: "ids",
    role: Role::Machinery,
    keys: "\
        id uuid guid requestid reqid xrequestid traceid spanid parentid parentspanid \
        correlationid eventid messageid msgid transactionid txid sessionid orderid \
        userid customerid accountid tenantid deviceid jobid taskid runid buildid commit \
        sha etag traceflags rid",
    last_words: "id uuid guid ids",
    examples: &[
        ("request_id=415-555-0132 level=info", "415-555-0132"),
        (
            r#"{"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"}"#,
            "4bf92f3577b34da6a3ce929d0e0e4736",
        ),
    ],
    counter_examples: &[("order_id=jane@example.com status=200", "jane@example.com")],
};

pub(super) const DURATION: KeyFamily = KeyFamily {
    name: "duration",
    role: Role::Machinery,
    keys: "\
        duration durationms elapsed elapsedms latency latencyms took tookms responsetime \
        rt requesttime upstreamresponsetime ttfb timeout",
    last_words: "duration latency elapsed ms took seconds secs millis",
    examples: &[("latency_ms=1984 took=3 days level=info", "1984")],
    counter_examples: &[("age=42 status=200", "42")],
};

pub(super) const OUTCOME: KeyFamily = KeyFamily {
    name: "outcome",
    role: Role::Machinery,
    keys: "\
        status statuscode code httpstatus responsecode exitcode result outcome level lvl \
        severity loglevel levelname priority pri severitytext severitynumber",
    last_words: "status code level severity",
    examples: &[("status=1984 level=info", "1984")],
    counter_examples: &[("zip_code=90210 level=info", "90210")],
};

pub(super) const SOURCE: KeyFamily = KeyFamily {
    name: "source",
    role: Role::Machinery,
    keys: "\
        service servicename app application appname component module logger loggername \
        caller env environment version host hostname pod podname container containername \
        node nodename instance region zone cluster namespace thread threadname pid \
        process file filename line lineno func function source logsource tag channel \
        context class classname scope",
    last_words: "service host hostname logger thread pod version",
    examples: &[("service=Paris Gateway level=info", "Paris")],
    counter_examples: &[("city=Paris level=info", "Paris")],
};

pub(super) const HTTP: KeyFamily = KeyFamily {
    name: "http",
    role: Role::Machinery,
    keys: "\
        method verb path route endpoint uri requesturi protocol scheme bytes size \
        contentlength bytessent bodybytessent useragent ua contenttype port count \
        attempt retries",
    last_words: "path method bytes count size port",
    examples: &[(
        r#"{"path": "/v1/orders/2024-03-14", "method": "GET"}"#,
        "/v1/orders/2024-03-14",
    )],
    counter_examples: &[(
        "path=/users/jane@example.com status=200",
        "jane@example.com",
    )],
};

/// Every key family.
pub static ALL: &[&KeyFamily] = &[
    &PERSON_NAME,
    &USER_HANDLE,
    &EMAIL,
    &PHONE,
    &BIRTH_DATE,
    &ADDRESS,
    &IP,
    &CARD,
    &CARD_SECURITY_CODE,
    &BANK_ACCOUNT,
    &SSN,
    &AGE,
    &OCCUPATION,
    &HEALTH,
    &COORDINATES,
    &PLACE,
    &EMPLOYER,
    &PASSWORD,
    &TOKEN,
    &NATIONAL_ID,
    &FREE_TEXT,
    &TIME,
    &IDS,
    &DURATION,
    &OUTCOME,
    &SOURCE,
    &HTTP,
];

/// Keys longer than this are not looked up: field names are short, and a long run of
/// word characters before `=` is more likely data than a name.
const MAX_KEY_BYTES: usize = 64;

struct Table {
    whole: HashMap<&'static str, Role>,
    last: HashMap<&'static str, Role>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut whole = HashMap::new();
        let mut last = HashMap::new();
        for family in ALL {
            for key in family.keys.split_whitespace() {
                whole.insert(key, family.role);
            }
            for word in family.last_words.split_whitespace() {
                last.insert(word, family.role);
            }
        }
        Table { whole, last }
    })
}

/// The role of `key` (raw, as written), if the table knows it.
pub fn role(key: &str) -> Option<Role> {
    if key.len() > MAX_KEY_BYTES {
        return None;
    }
    let mut joined = String::with_capacity(key.len());
    let mut last_start = 0;
    let mut prev: Option<char> = None;
    for c in key.chars() {
        if c.is_alphanumeric() {
            // A word starts after a separator or at a camelCase hump (`billingEmail`).
            let hump =
                c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            if joined.is_empty() || hump || prev.is_some_and(|p| !p.is_alphanumeric()) {
                last_start = joined.len();
            }
            joined.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    let table = table();
    table
        .whole
        .get(joined.as_str())
        .or_else(|| table.last.get(&joined[last_start..]))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_normalised_across_cases_and_separators() {
        for key in [
            "customer_name",
            "customerName",
            "Customer-Name",
            "customer.name",
            "CUSTOMER_NAME",
        ] {
            assert_eq!(role(key), Some(Role::Personal("PERSON")), "{key}");
        }
        assert_eq!(role("@timestamp"), Some(Role::Machinery));
        assert_eq!(role("billingEmail"), Some(Role::Personal("EMAIL_ADDRESS")));
        assert_eq!(role("x-request-id"), Some(Role::Machinery));
        assert_eq!(role("http.request.method"), Some(Role::Machinery));
        assert_eq!(role("filename"), Some(Role::Machinery));
        assert_eq!(role("file_name"), Some(Role::Machinery));
        assert_eq!(role("message"), Some(Role::Neutral));
        assert_eq!(role("payload"), None);
        assert_eq!(role(&"a".repeat(65)), None);
    }

    #[test]
    fn whole_keys_beat_last_words() {
        // `email_address` ends in `address`, `zip_code` in `code`, `tax_id` in `id`.
        assert_eq!(role("email_address"), Some(Role::Personal("EMAIL_ADDRESS")));
        assert_eq!(role("zip_code"), Some(Role::Personal("ADDRESS")));
        assert_eq!(role("tax_id"), Some(Role::Neutral));
        assert_eq!(role("order_id"), Some(Role::Machinery));
    }

    #[test]
    fn no_key_is_declared_twice_and_every_label_exists() {
        let mut seen = std::collections::HashSet::new();
        for family in ALL {
            for key in family.keys.split_whitespace() {
                assert!(seen.insert(key), "{key} declared twice");
                assert_eq!(role(key), Some(family.role), "{key} is not normalised");
            }
            if let Role::Personal(label) = family.role {
                assert!(
                    crate::text::Label::parse(label).is_some_and(|l| l.as_str() == label),
                    "{}: unknown label {label}",
                    family.name
                );
            }
            assert!(
                !family.examples.is_empty() && !family.counter_examples.is_empty(),
                "{} lacks examples",
                family.name
            );
        }
        let mut words = std::collections::HashSet::new();
        for family in ALL {
            for word in family.last_words.split_whitespace() {
                assert!(words.insert(word), "last word {word} declared twice");
            }
        }
    }
}

//! Why an answer could not be restored: the `reason` label of
//! `anonymizer_proxy_restore_failures_total{route, reason}`. The route's
//! `restore_failure` decides what the client gets (an aborted answer, or the upstream's
//! bytes as they came); the request side never has this choice (it always fails closed).

/// A closed set; metric label values come from [`Fault::as_str`] only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The answer comes in a `Content-Encoding` we cannot decode.
    UnreadableEncoding,
    /// A JSON answer that does not parse (truncated, or not JSON despite its type).
    Malformed,
    /// A streamed event that is not UTF-8.
    NotUtf8,
    /// Answer scanning could not run (detection failed): the text was withheld.
    Unscanned,
}

impl Fault {
    pub const ALL: [Fault; 4] = [
        Fault::UnreadableEncoding,
        Fault::Malformed,
        Fault::NotUtf8,
        Fault::Unscanned,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            Fault::UnreadableEncoding => "unreadable_encoding",
            Fault::Malformed => "malformed",
            Fault::NotUtf8 => "not_utf8",
            Fault::Unscanned => "unscanned",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How many answers (or streamed events) failed to restore, per [`Fault`].
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Faults([u64; Fault::ALL.len()]);

impl Faults {
    pub fn add(&mut self, fault: Fault) {
        self.add_n(fault, 1);
    }

    pub fn add_n(&mut self, fault: Fault, n: u64) {
        self.0[fault.index()] += n;
    }

    pub fn get(&self, fault: Fault) -> u64 {
        self.0[fault.index()]
    }

    pub fn merge(&mut self, other: Faults) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

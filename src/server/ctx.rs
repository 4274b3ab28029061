//! Per-request state carried through pingora's phases, for the response and the log.

use std::collections::BTreeMap;
use std::time::Instant;

use super::router::Endpoint;
use crate::proxy::{Exchange, Reason};

pub struct RequestCtx {
    pub request_id: String,
    pub started: Instant,
    pub endpoint: Endpoint,
    pub tenant: Option<String>,
    /// Status we answered with (0 until a response is written).
    pub status: u16,
    pub texts: usize,
    pub chars: usize,
    pub entities: BTreeMap<&'static str, u64>,
    /// Entities a policy monitored or blocked, by (label, action).
    pub actions: BTreeMap<(&'static str, &'static str), u64>,
    /// Entities a proxied answer introduced (anonymized or monitored).
    pub answer_entities: u64,
    /// Proxy route name, for metrics and the log.
    pub route: Option<String>,
    /// Set when the request is forwarded to an upstream.
    pub exchange: Option<Box<Exchange>>,
    /// Why a proxied request was refused, for the refusals metric.
    pub refused: Option<Reason>,
}

impl RequestCtx {
    pub fn new() -> Self {
        Self {
            request_id: format!("{:016x}", rand::random::<u64>()),
            started: Instant::now(),
            endpoint: Endpoint::Other,
            tenant: None,
            status: 0,
            texts: 0,
            chars: 0,
            entities: BTreeMap::new(),
            actions: BTreeMap::new(),
            answer_entities: 0,
            route: None,
            exchange: None,
            refused: None,
        }
    }
}

impl Default for RequestCtx {
    fn default() -> Self {
        Self::new()
    }
}

//! Finding the primary through Sentinel, for every new connection.
//!
//! Why our own discovery rather than the `redis` crate's `sentinel` feature: its
//! blocking client connects to sentinels and to the primary without a timeout, and a
//! request must never wait past its deadline. Here each step stops at `timeout`.
//!
//! A new connection asks the sentinels in turn for the primary of the service
//! (`SENTINEL get-master-addr-by-name`), connects to it with the URL's credentials,
//! database and TLS, and checks with `ROLE` that it is a primary (a sentinel may not
//! have noticed a failover yet). The pool opens connections only at start and after
//! one failed, so a failover is followed on the next request after the old primary
//! stopped answering; a demoted primary's `READONLY` answer drops its connection too
//! ([`super::super::pool`]).

use std::time::{Duration, Instant};

use redis::{
    Client, Connection, ConnectionInfo, ErrorKind, RedisError, RedisResult, TlsCertificates, Value,
};

use super::client;

pub struct Sentinel {
    /// Where the sentinels listen (the URL's TLS, no credentials).
    sentinels: Vec<ConnectionInfo>,
    service: String,
    /// The URL's settings, pointed at whichever primary the sentinels name.
    primary: ConnectionInfo,
    certificates: Option<TlsCertificates>,
}

impl Sentinel {
    pub fn new(
        sentinels: Vec<ConnectionInfo>,
        service: String,
        primary: ConnectionInfo,
        certificates: Option<TlsCertificates>,
    ) -> Self {
        Self {
            sentinels,
            service,
            primary,
            certificates,
        }
    }

    /// A connection to the service's current primary, within `timeout`.
    ///
    /// # Errors
    /// No sentinel answered, none knows the service, or the node named is not a
    /// primary (yet).
    pub fn connect(&self, timeout: Duration) -> RedisResult<Connection> {
        let deadline = Instant::now() + timeout;
        let mut last = RedisError::from((ErrorKind::Io, "no sentinel answered"));
        for sentinel in &self.sentinels {
            let Some(left) = remaining(deadline) else {
                break;
            };
            let found = self.ask(sentinel, left);
            let (host, port) = match found {
                Ok(Some(address)) => address,
                Ok(None) => {
                    last =
                        RedisError::from((ErrorKind::Io, "a sentinel does not know the service"));
                    continue;
                }
                Err(error) => {
                    last = error;
                    continue;
                }
            };
            let Some(left) = remaining(deadline) else {
                break;
            };
            match self.primary_at(host, port, left) {
                Ok(con) => return Ok(con),
                Err(error) => last = error,
            }
        }
        Err(last)
    }

    /// The primary's `(host, port)` as `sentinel` knows it (`None`: it does not know
    /// the service).
    fn ask(
        &self,
        sentinel: &ConnectionInfo,
        timeout: Duration,
    ) -> RedisResult<Option<(String, u16)>> {
        let mut con = client(sentinel.clone(), self.certificates.clone())?
            .get_connection_with_timeout(timeout)?;
        con.set_read_timeout(Some(timeout))?;
        con.set_write_timeout(Some(timeout))?;
        redis::cmd("SENTINEL")
            .arg("get-master-addr-by-name")
            .arg(&self.service)
            .query(&mut con)
    }

    /// A connection to `host:port`, if it says it is a primary.
    fn primary_at(&self, host: String, port: u16, timeout: Duration) -> RedisResult<Connection> {
        let info = super::pointed_at(&self.primary, host, port);
        let client: Client = client(info, self.certificates.clone())?;
        let mut con = client.get_connection_with_timeout(timeout)?;
        con.set_read_timeout(Some(timeout))?;
        let role: Vec<Value> = redis::cmd("ROLE").query(&mut con)?;
        let is_primary = match role.first() {
            Some(Value::BulkString(kind)) => kind.as_slice() == b"master",
            Some(Value::SimpleString(kind)) => kind == "master",
            _ => false,
        };
        match is_primary {
            true => Ok(con),
            false => Err(RedisError::from((
                ErrorKind::Io,
                "the node a sentinel named is not a primary",
            ))),
        }
    }
}

fn remaining(deadline: Instant) -> Option<Duration> {
    let left = deadline.saturating_duration_since(Instant::now());
    (left >= Duration::from_millis(1)).then_some(left)
}

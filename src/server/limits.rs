//! Per-key rate limiting: a token bucket per configured key.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::auth::KeyId;
use crate::config::RateLimit;

struct Bucket {
    tokens: f64,
    last: Instant,
}

pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Vec<Mutex<Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit, keys: usize) -> Self {
        let burst = f64::from(limit.burst);
        let now = Instant::now();
        Self {
            rate: limit.requests_per_sec,
            burst,
            buckets: (0..keys)
                .map(|_| {
                    Mutex::new(Bucket {
                        tokens: burst,
                        last: now,
                    })
                })
                .collect(),
        }
    }

    /// Takes a token for `key`, or says how long until one is available.
    pub fn check(&self, key: KeyId, now: Instant) -> Result<(), Duration> {
        let Some(bucket) = self.buckets.get(key) else {
            return Ok(());
        };
        // A poisoned lock only means another request panicked mid-update; the bucket is still usable.
        let mut b = bucket.lock().unwrap_or_else(|e| e.into_inner());
        let elapsed = now.saturating_duration_since(b.last).as_secs_f64();
        b.tokens = (b.tokens + elapsed * self.rate).min(self.burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) / self.rate))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_a_burst_then_refills_at_the_rate() {
        let rl = RateLimiter::new(
            RateLimit {
                requests_per_sec: 2.0,
                burst: 2,
            },
            1,
        );
        let t0 = Instant::now();
        assert!(rl.check(0, t0).is_ok());
        assert!(rl.check(0, t0).is_ok());
        let wait = rl.check(0, t0).unwrap_err();
        assert!((wait.as_secs_f64() - 0.5).abs() < 1e-6);
        assert!(rl.check(0, t0 + Duration::from_millis(500)).is_ok());
    }
}

//! What a configuration reload replaces while the server runs: the proxy routes, the
//! API keys, and the rate limiter sized for them. Requests read them lock-free; one in
//! progress keeps the set it began with.

use std::sync::Arc;

use arc_swap::{ArcSwap, ArcSwapOption, Guard};

use super::auth::KeyRing;
use super::limits::RateLimiter;
use crate::proxy::route::Route;

pub struct Live {
    routes: ArcSwap<Vec<Arc<Route>>>,
    keys: ArcSwap<KeyRing>,
    limiter: ArcSwapOption<RateLimiter>,
}

impl Live {
    pub fn new(routes: Vec<Route>, keys: KeyRing, limiter: Option<RateLimiter>) -> Arc<Live> {
        let live = Live {
            routes: ArcSwap::default(),
            keys: ArcSwap::new(Arc::new(keys)),
            limiter: ArcSwapOption::empty(),
        };
        live.replace(routes, None, limiter);
        Arc::new(live)
    }

    /// Serves `routes`, `keys` (unless `None`: the ones in service stay) and `limiter`
    /// from the next request on.
    pub fn replace(&self, routes: Vec<Route>, keys: Option<KeyRing>, limiter: Option<RateLimiter>) {
        self.routes
            .store(Arc::new(routes.into_iter().map(Arc::new).collect()));
        if let Some(keys) = keys {
            self.keys.store(Arc::new(keys));
        }
        self.limiter.store(limiter.map(Arc::new));
    }

    pub fn routes(&self) -> Guard<Arc<Vec<Arc<Route>>>> {
        self.routes.load()
    }

    pub fn keys(&self) -> Guard<Arc<KeyRing>> {
        self.keys.load()
    }

    pub fn limiter(&self) -> Guard<Option<Arc<RateLimiter>>> {
        self.limiter.load()
    }
}

//! Bounded string interning: names that callers or operators choose (custom labels,
//! their recognizers' names) become `&'static str`, so labels and traces stay `Copy`.
//! Interned names live as long as the process, so each interner holds a bounded number.

use std::collections::HashSet;
use std::sync::{OnceLock, PoisonError, RwLock};

pub struct Interner {
    names: OnceLock<RwLock<HashSet<&'static str>>>,
    cap: usize,
}

impl Interner {
    pub const fn new(cap: usize) -> Self {
        Self {
            names: OnceLock::new(),
            cap,
        }
    }

    /// `name` if it was interned before.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        self.names
            .get()?
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(name)
            .copied()
    }

    /// `name`, interned; `None` when it is new and the interner is full.
    pub fn intern(&self, name: &str) -> Option<&'static str> {
        if let Some(known) = self.get(name) {
            return Some(known);
        }
        let mut names = self
            .names
            .get_or_init(Default::default)
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = names.get(name) {
            return Some(known);
        }
        if names.len() >= self.cap {
            return None;
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        names.insert(leaked);
        Some(leaked)
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    #[test]
    fn interns_up_to_its_cap() {
        let names = Interner::new(2);
        let a = names.intern("a").expect("room");
        assert!(std::ptr::eq(a, names.intern("a").expect("known")));
        assert!(names.intern("b").is_some());
        assert_eq!(names.intern("c"), None);
        assert_eq!(names.get("a"), Some("a"));
        assert_eq!(names.get("c"), None);
    }
}

//! IP address structure checks, by the standard library's parsers (RFC 791 / RFC 4291).

use std::net::{Ipv4Addr, Ipv6Addr};

pub fn ipv4(s: &str) -> bool {
    s.parse::<Ipv4Addr>().is_ok()
}

pub fn ipv6(s: &str) -> bool {
    s.parse::<Ipv6Addr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_addresses() {
        assert!(ipv4("192.168.0.1"));
        assert!(!ipv4("256.1.1.1"));
        assert!(ipv6("2001:db8::1"));
        assert!(ipv6("::1"));
        assert!(!ipv6("2001:db8:::1"));
    }
}

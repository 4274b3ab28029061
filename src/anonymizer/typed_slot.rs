//! Values a schema types, whose replacement must keep the type.
//!
//! A log store with a mapping (Elasticsearch's `ip` fields) rejects a whole document
//! whose address field holds anything but an address, placeholders included. So where
//! a route marks a value as typed and one IP address is the whole of it, the address is
//! replaced by a fake address whatever the method; anything else in such a value is
//! replaced as usual (the store may refuse that, as it would have refused the original).

use std::net::IpAddr;

use crate::text::{ByteSpan, Label};

/// What one input text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextType {
    /// Free text: replacements follow the method.
    #[default]
    Text,
    /// A value typed as an IP address.
    IpAddress,
}

/// Whether the entity `label` at `span` must be replaced by an address: it is an IP
/// address that makes up the whole of a text typed as one.
pub fn keeps_address(text: &str, span: ByteSpan, label: Label, typed: TextType) -> bool {
    typed == TextType::IpAddress
        && label.as_str() == "IP_ADDRESS"
        && text[..span.start].trim().is_empty()
        && text[span.end..].trim().is_empty()
        && text[span.start..span.end].parse::<IpAddr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keeps(text: &str, start: usize, end: usize, label: &str, typed: TextType) -> bool {
        keeps_address(
            text,
            ByteSpan::new(start, end),
            Label::builtin(label),
            typed,
        )
    }

    #[test]
    fn only_a_whole_typed_address_keeps_its_type() {
        let ip = TextType::IpAddress;
        assert!(keeps("203.0.113.9", 0, 11, "IP_ADDRESS", ip));
        assert!(keeps(" 2001:db8::1 ", 1, 12, "IP_ADDRESS", ip));
        assert!(!keeps("203.0.113.9", 0, 11, "IP_ADDRESS", TextType::Text));
        assert!(!keeps("from 203.0.113.9", 5, 16, "IP_ADDRESS", ip));
        assert!(!keeps("203.0.113.9, 10.0.0.1", 0, 11, "IP_ADDRESS", ip));
        assert!(!keeps("203.0.113.9", 0, 11, "PHONE_NUMBER", ip));
        // Detected as an address but not one `std::net` reads (a port, a zone).
        assert!(!keeps("203.0.113.9:443", 0, 15, "IP_ADDRESS", ip));
    }
}

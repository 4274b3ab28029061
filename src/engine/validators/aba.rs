//! ABA routing transit numbers: 9 digits, weights 3-7-1 summing to a multiple of 10
//! (ABA "Key to Routing Numbers"); the first two digits are a Federal Reserve prefix.

pub fn routing(s: &str) -> bool {
    let d = super::digits(s);
    if d.len() != 9 {
        return false;
    }
    let prefix = d[0] * 10 + d[1];
    // 00 (government), 01–12, 21–32 (thrift), 61–72 (electronic), 80 (traveller's cheques).
    if !matches!(prefix, 0..=12 | 21..=32 | 61..=72 | 80) || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
    sum % 10 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_routing_numbers() {
        assert!(routing("021000021"));
        assert!(routing("011401533"));
        assert!(routing("121000358"));
        assert!(!routing("021000022"));
        assert!(!routing("991000021"));
        assert!(!routing("000000000"));
        assert!(!routing("12345"));
    }
}

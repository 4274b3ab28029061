//! Bech32 / Bech32m checksums (BIP-173, BIP-350) for SegWit Bitcoin addresses (`bc1…`).

const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BECH32: u32 = 1;
const BECH32M: u32 = 0x2bc8_30a3;

fn polymod(values: &[u8]) -> u32 {
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(*v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// True when `s` is a mainnet SegWit address (`bc1…`, one case) with a valid Bech32
/// (witness v0) or Bech32m (v1+) checksum.
pub fn segwit(s: &str) -> bool {
    if s.len() < 14 || s.len() > 90 {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    if lower != s && s.to_ascii_uppercase() != s {
        return false;
    }
    let Some((hrp, data)) = lower.rsplit_once('1') else {
        return false;
    };
    if hrp != "bc" || data.len() < 7 {
        return false;
    }
    let mut values: Vec<u8> = hrp.bytes().map(|b| b >> 5).collect();
    values.push(0);
    values.extend(hrp.bytes().map(|b| b & 31));
    let mut decoded = Vec::with_capacity(data.len());
    for c in data.bytes() {
        match CHARSET.iter().position(|x| *x == c) {
            Some(p) => decoded.push(p as u8),
            None => return false,
        }
    }
    values.extend(&decoded);
    let want = if decoded[0] == 0 { BECH32 } else { BECH32M };
    polymod(&values) == want
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_segwit_addresses() {
        assert!(segwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"));
        assert!(segwit("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"));
        assert!(segwit(
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"
        ));
        assert!(!segwit("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"));
        assert!(!segwit("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"));
        assert!(!segwit("bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"));
    }
}

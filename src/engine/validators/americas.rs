//! Identifiers of the Americas outside the US and Canada: the Brazilian CPF (Receita
//! Federal: two mod-11 check digits, weights 10…2 and 11…2).

use super::digits;

/// Brazilian CPF: eleven digits, two check digits; a run of one digit (`111.111.111-11`,
/// valid by the arithmetic) is no one's.
pub fn br_cpf(s: &str) -> bool {
    let d = digits(s);
    if d.len() != 11 || d.iter().all(|x| *x == d[0]) {
        return false;
    }
    let check = |n: usize| {
        let sum: u32 = d[..n]
            .iter()
            .zip((2..=n as u32 + 1).rev())
            .map(|(x, w)| x * w)
            .sum();
        sum * 10 % 11 % 10
    };
    check(9) == d[9] && check(10) == d[10]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_cpfs() {
        assert!(br_cpf("529.982.247-25") && br_cpf("52998224725"));
        assert!(!br_cpf("529.982.247-26") && !br_cpf("111.111.111-11"));
        assert!(!br_cpf("5299822472"));
    }
}

//! `MASK`: code points of the entity become a masking character, so lengths are
//! preserved; by default all of them with `*`, or some from either end (a card's last
//! four digits kept: `chars_to_mask: 12`).

/// Which code points to mask, and with what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaskOptions {
    pub masking_char: char,
    /// How many code points to mask; `None`: all.
    pub chars_to_mask: Option<usize>,
    /// Mask the last `chars_to_mask` code points rather than the first.
    pub from_end: bool,
}

impl Default for MaskOptions {
    fn default() -> Self {
        Self {
            masking_char: '*',
            chars_to_mask: None,
            from_end: false,
        }
    }
}

pub fn mask(original: &str, options: &MaskOptions) -> String {
    let len = original.chars().count();
    let n = options.chars_to_mask.unwrap_or(len).min(len);
    let masked_from = if options.from_end { len - n } else { 0 };
    original
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if (masked_from..masked_from + n).contains(&i) {
                options.masking_char
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{mask, MaskOptions};

    #[test]
    fn keeps_code_point_length() {
        assert_eq!(mask("Zoë 😀", &MaskOptions::default()), "*****");
    }

    #[test]
    fn masks_some_code_points_from_either_end() {
        let first_twelve = MaskOptions {
            masking_char: '#',
            chars_to_mask: Some(12),
            from_end: false,
        };
        assert_eq!(mask("4111111111111111", &first_twelve), "############1111");
        let last_two = MaskOptions {
            masking_char: '•',
            chars_to_mask: Some(2),
            from_end: true,
        };
        assert_eq!(mask("Zoë", &last_two), "Z••");
        let too_many = MaskOptions {
            chars_to_mask: Some(99),
            ..MaskOptions::default()
        };
        assert_eq!(mask("abc", &too_many), "***");
    }
}

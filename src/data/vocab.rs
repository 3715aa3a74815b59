//! Character vocabulary: one token per distinct character.

use std::collections::HashMap;

/// Maps characters to token ids and back.
#[derive(Debug, Clone)]
pub struct Vocab {
    chars: Vec<char>,
    index: HashMap<char, u32>,
}

impl Vocab {
    /// A vocabulary of the given characters, deduplicated, in sorted order.
    pub fn from_chars(chars: impl IntoIterator<Item = char>) -> Self {
        let mut chars: Vec<char> = chars.into_iter().collect();
        chars.sort_unstable();
        chars.dedup();
        let index = chars
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u32))
            .collect();
        Self { chars, index }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// True when there is no token.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// Token of `c`, if it is in the vocabulary.
    pub fn encode_char(&self, c: char) -> Option<u32> {
        self.index.get(&c).copied()
    }

    /// Character of a token.
    pub fn decode(&self, token: u32) -> Option<char> {
        self.chars.get(token as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_are_sorted() {
        let v = Vocab::from_chars("banana".chars());
        assert_eq!(v.len(), 3);
        assert_eq!(v.encode_char('a'), Some(0));
        assert_eq!(v.decode(2), Some('n'));
        assert_eq!(v.encode_char('z'), None);
    }
}

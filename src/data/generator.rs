//! A deterministic generator of a small learnable language.
//!
//! Each line is one of three kinds, each with structure a model can learn and whose loss
//! visibly falls within a few dozen steps:
//! - arithmetic: `417+38=455`
//! - copying: `c:qzkv|qzkv` (the part after `|` repeats the part before it)
//! - brackets: `([]{()})` (always balanced)

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::config::Task;

/// Every character the generator can emit, in vocabulary order.
pub(super) const ALPHABET: &str = "\n()+0123456789:=[]abcdefghijklmnopqrstuvwxyz{|}";

/// Generates at least `chars` characters of `task`, ending at a line boundary, from `seed`.
/// The same arguments always give the same text.
pub fn generate(task: Task, chars: usize, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = String::with_capacity(chars + 32);
    while out.len() < chars {
        let kind = match task {
            Task::Mix => rng.random_range(0..3),
            Task::Arith => 0,
            Task::Copy => 1,
            Task::Brackets => 2,
        };
        match kind {
            0 => arith_line(&mut rng, &mut out),
            1 => copy_line(&mut rng, &mut out),
            _ => bracket_line(&mut rng, &mut out),
        }
        out.push('\n');
    }
    out
}

fn arith_line(rng: &mut ChaCha8Rng, out: &mut String) {
    let a: u32 = rng.random_range(0..1000);
    let b: u32 = rng.random_range(0..1000);
    out.push_str(&format!("{a}+{b}={}", a + b));
}

fn copy_line(rng: &mut ChaCha8Rng, out: &mut String) {
    let len = rng.random_range(3..9);
    let word: String = (0..len)
        .map(|_| char::from(b'a' + rng.random_range(0..26u8)))
        .collect();
    out.push_str("c:");
    out.push_str(&word);
    out.push('|');
    out.push_str(&word);
}

fn bracket_line(rng: &mut ChaCha8Rng, out: &mut String) {
    const PAIRS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('{', '}')];
    let pairs = rng.random_range(1..7);
    let mut stack = Vec::new();
    let mut opened = 0;
    while opened < pairs || !stack.is_empty() {
        let open = opened < pairs && (stack.is_empty() || rng.random_bool(0.5));
        if open {
            let (o, c) = PAIRS[rng.random_range(0..PAIRS.len())];
            out.push(o);
            stack.push(c);
            opened += 1;
        } else if let Some(c) = stack.pop() {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_text() {
        assert_eq!(generate(Task::Mix, 5000, 3), generate(Task::Mix, 5000, 3));
        assert_ne!(generate(Task::Mix, 5000, 3), generate(Task::Mix, 5000, 4));
    }

    #[test]
    fn the_checked_in_sample_is_what_the_generator_makes() {
        // datasets/mix-sample.txt was written by
        // `oomlab dataset --task mix --chars 4096 --seed 7`.
        let sample = include_str!("../../datasets/mix-sample.txt");
        assert_eq!(sample, generate(Task::Mix, 4096, 7));
    }

    #[test]
    fn sums_are_right_and_copies_repeat() {
        let text = generate(Task::Mix, 20_000, 11);
        let mut kinds = [0usize; 3];
        for line in text.lines() {
            if let Some((lhs, sum)) = line.split_once('=') {
                let (a, b) = lhs.split_once('+').unwrap();
                let (a, b, s): (u32, u32, u32) =
                    (a.parse().unwrap(), b.parse().unwrap(), sum.parse().unwrap());
                assert_eq!(a + b, s, "{line}");
                kinds[0] += 1;
            } else if let Some(rest) = line.strip_prefix("c:") {
                let (w, copy) = rest.split_once('|').unwrap();
                assert_eq!(w, copy);
                kinds[1] += 1;
            } else {
                let mut depth = 0i32;
                for ch in line.chars() {
                    depth += if "([{".contains(ch) { 1 } else { -1 };
                    assert!(depth >= 0, "{line}");
                }
                assert_eq!(depth, 0, "{line}");
                kinds[2] += 1;
            }
        }
        assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
    }

    #[test]
    fn every_generated_character_is_in_the_alphabet() {
        let text = generate(Task::Mix, 20_000, 1);
        assert!(text.chars().all(|c| ALPHABET.contains(c)));
    }
}

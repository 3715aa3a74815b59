//! A corpus: the whole training text as tokens, with its vocabulary.

use std::path::PathBuf;

use super::generator::{generate, ALPHABET};
use super::vocab::Vocab;
use crate::config::DataSource;

/// Why the training text could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// `--data FILE` could not be read.
    #[error(
        "cannot read data file {path}: {source} (check the path given to --data or data.file)"
    )]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The text is shorter than one training window.
    #[error("{origin} has {chars} characters, but one training sample needs model.seq_len + 1 = {needed}: use a longer text or a smaller --seq-len")]
    TooShort {
        /// The file or task.
        origin: String,
        /// Characters present.
        chars: usize,
        /// Characters needed.
        needed: usize,
    },
}

/// Tokens of the whole text plus the vocabulary that made them.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// Token ids, in text order.
    pub tokens: Vec<u32>,
    /// The vocabulary.
    pub vocab: Vocab,
    /// Where the text came from, for summaries.
    pub origin: String,
}

impl Corpus {
    /// Builds the corpus for `source`; `seq_len` is checked so that at least one window fits.
    pub fn load(source: &DataSource, seq_len: usize) -> Result<Self, DataError> {
        let (text, vocab, origin) = match source {
            DataSource::Generated { task, chars, seed } => (
                generate(*task, *chars, *seed),
                Vocab::from_chars(ALPHABET.chars()),
                format!(
                    "generated '{}' language, {chars} chars, seed {seed}",
                    serde_json::to_value(task)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                ),
            ),
            DataSource::File(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| DataError::Read {
                    path: path.clone(),
                    source,
                })?;
                let vocab = Vocab::from_chars(text.chars());
                (text, vocab, path.display().to_string())
            }
        };
        // Every character is in the vocabulary by construction.
        let tokens: Vec<u32> = text.chars().filter_map(|c| vocab.encode_char(c)).collect();
        if tokens.len() < seq_len + 1 {
            return Err(DataError::TooShort {
                origin,
                chars: tokens.len(),
                needed: seq_len + 1,
            });
        }
        Ok(Self {
            tokens,
            vocab,
            origin,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Task;

    #[test]
    fn a_text_shorter_than_a_window_says_what_to_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.txt");
        std::fs::write(&path, "hello").unwrap();
        let err = Corpus::load(&DataSource::File(path), 64).unwrap_err();
        assert!(err.to_string().contains("--seq-len"), "{err}");
    }

    #[test]
    fn seq_len_plus_one_characters_make_a_sample_and_one_fewer_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, "ab".repeat(4) + "a").unwrap();
        let c = Corpus::load(&DataSource::File(path.clone()), 8).unwrap();
        let b = super::super::BatchSampler::new(std::sync::Arc::new(c), 8, 1).batch(0, 2);
        assert_eq!(b.inputs.len(), 16);
        let err = Corpus::load(&DataSource::File(path), 9).unwrap_err();
        assert!(
            err.to_string().contains("has 9 characters") && err.to_string().contains("= 10"),
            "{err}"
        );
    }

    #[test]
    fn a_user_file_gets_its_own_vocabulary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, "héllo wörld ".repeat(20)).unwrap();
        let c = Corpus::load(&DataSource::File(path), 8).unwrap();
        assert_eq!(c.vocab.len(), 9);
        assert_eq!(c.tokens.len(), 12 * 20);
    }

    #[test]
    fn generated_text_uses_the_fixed_alphabet() {
        let src = DataSource::Generated {
            task: Task::Arith,
            chars: 1000,
            seed: 1,
        };
        let c = Corpus::load(&src, 16).unwrap();
        assert_eq!(c.vocab.len(), ALPHABET.chars().count());
    }
}

//! Deterministic batches: step `s` always gets the same windows of the corpus, whatever the
//! strategy, so a grad-accum run sees exactly the samples a baseline run sees.

use std::sync::Arc;

use burn::prelude::*;
use burn::tensor::TensorData;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::corpus::Corpus;

/// One optimizer step's samples on the host: `batch` windows of `seq_len` tokens and
/// their next-token targets.
#[derive(Debug, Clone, PartialEq)]
pub struct HostBatch {
    /// Row-major `[batch, seq_len]` input tokens.
    pub inputs: Vec<i32>,
    /// Row-major `[batch, seq_len]` targets (inputs shifted by one).
    pub targets: Vec<i32>,
    /// Rows.
    pub batch: usize,
    /// Columns.
    pub seq_len: usize,
}

/// A batch on the device.
#[derive(Debug, Clone)]
pub struct DeviceBatch<B: Backend> {
    /// `[batch, seq_len]`
    pub inputs: Tensor<B, 2, Int>,
    /// `[batch, seq_len]`
    pub targets: Tensor<B, 2, Int>,
}

impl HostBatch {
    /// Rows `start..start + len`, the micro-batch of a gradient-accumulation step.
    pub fn rows(&self, start: usize, len: usize) -> HostBatch {
        let t = self.seq_len;
        HostBatch {
            inputs: self.inputs[start * t..(start + len) * t].to_vec(),
            targets: self.targets[start * t..(start + len) * t].to_vec(),
            batch: len,
            seq_len: t,
        }
    }

    /// Copies the batch to `device`.
    pub fn to_device<B: Backend>(&self, device: &B::Device) -> DeviceBatch<B> {
        let shape = [self.batch, self.seq_len];
        DeviceBatch {
            inputs: Tensor::from_data(TensorData::new(self.inputs.clone(), shape), device),
            targets: Tensor::from_data(TensorData::new(self.targets.clone(), shape), device),
        }
    }
}

/// Draws the windows of each step from a seed and the step number.
#[derive(Debug, Clone)]
pub struct BatchSampler {
    corpus: Arc<Corpus>,
    seq_len: usize,
    seed: u64,
}

impl BatchSampler {
    /// A sampler over `corpus`. The corpus must hold at least `seq_len + 1` tokens
    /// ([`Corpus::load`] checks this).
    pub fn new(corpus: Arc<Corpus>, seq_len: usize, seed: u64) -> Self {
        Self {
            corpus,
            seq_len,
            seed,
        }
    }

    /// The `batch` samples of optimizer step `step`.
    pub fn batch(&self, step: usize, batch: usize) -> HostBatch {
        let t = self.seq_len;
        let tokens = &self.corpus.tokens;
        let max_start = tokens.len() - t - 1;
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let mut inputs = Vec::with_capacity(batch * t);
        let mut targets = Vec::with_capacity(batch * t);
        for _ in 0..batch {
            let s = rng.random_range(0..=max_start);
            inputs.extend(tokens[s..s + t].iter().map(|&x| x as i32));
            targets.extend(tokens[s + 1..s + t + 1].iter().map(|&x| x as i32));
        }
        HostBatch {
            inputs,
            targets,
            batch,
            seq_len: t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DataSource, Task};

    fn sampler() -> BatchSampler {
        let c = Corpus::load(
            &DataSource::Generated {
                task: Task::Mix,
                chars: 5000,
                seed: 1,
            },
            16,
        )
        .unwrap();
        BatchSampler::new(Arc::new(c), 16, 9)
    }

    #[test]
    fn each_step_gets_the_same_windows_every_time() {
        let s = sampler();
        assert_eq!(s.batch(3, 8), s.batch(3, 8));
        assert_ne!(s.batch(3, 8), s.batch(4, 8));
    }

    #[test]
    fn targets_are_inputs_shifted_by_one() {
        let b = sampler().batch(0, 4);
        for r in 0..4 {
            let i = &b.inputs[r * 16..(r + 1) * 16];
            let t = &b.targets[r * 16..(r + 1) * 16];
            assert_eq!(&i[1..], &t[..15]);
        }
    }

    #[test]
    fn micro_batches_partition_the_batch() {
        let b = sampler().batch(0, 8);
        let parts: Vec<i32> = (0..4).flat_map(|i| b.rows(i * 2, 2).inputs).collect();
        assert_eq!(parts, b.inputs);
    }
}

//! Whether burn's CPU backend (Flex) multiplies a step's matrices on several threads:
//! that decides how many of gemm's L2-sized packing buffers the heap holds
//! ([`super::measured::cpu_workspace`]).
//!
//! Read from burn-flex 0.21.0 (`src/ops/matmul.rs`): a product of one matrix pair runs on
//! all threads when m·n·k reaches 192³; a batched product splits its batch over the
//! threads when it has more than one matrix and all of them together reach 128³ (else it
//! runs each as one pair). Seen on the tiny config
//! (docs/results/2026-12-05-cpu-estimate-2d/README.md): with the 2-D linear layers at a
//! micro-batch of 2 no product reaches either bound, and the step starts with 4.2 MB less
//! heap than with burn's batched `Linear`, the two worker threads' buffers.

use crate::config::{ModelKind, ModelSpec};

/// m·n·k from which Flex runs one matrix product on all threads.
const PARALLEL_OPS: u64 = 192 * 192 * 192;
/// Total m·n·k over a batch from which Flex splits a batched product over the threads.
const BATCH_PARALLEL_OPS: u64 = 128 * 128 * 128;

/// Whether a product of `batch` matrix pairs of `ops` = m·n·k each runs on several threads.
fn threaded(batch: u64, ops: u64) -> bool {
    ops >= PARALLEL_OPS || (batch > 1 && batch * ops >= BATCH_PARALLEL_OPS)
}

/// Whether any matrix product of a training step at `micro` samples runs on several
/// threads: the linear layers' (one matrix per layer with the 2-D linear, `linear_2d`;
/// one per sample with burn's `Linear` on `[batch, seq, k]` inputs) and the attention's
/// (one pair per sample and head).
pub fn step_multiplies_in_parallel(
    model: &ModelSpec,
    vocab: usize,
    micro: usize,
    linear_2d: bool,
) -> bool {
    let (mb, t, d, ff, h) = (
        micro as u64,
        model.seq_len as u64,
        model.d_model as u64,
        model.d_ff as u64,
        model.n_heads.max(1) as u64,
    );
    let v = vocab as u64;
    match model.kind {
        ModelKind::Gpt => {
            // The largest layer's k·n; the forward product and both gradients' share it.
            let layer = d * ff.max(v).max(d);
            let linears = if linear_2d {
                threaded(1, mb * t * layer)
            } else {
                threaded(mb, t * layer)
            };
            linears || threaded(mb * h, t * t * (d / h))
        }
        // The MLP's layers see `[batch, features]` inputs: one matrix each.
        ModelKind::Mlp => {
            let layer = (t * d * ff).max(ff * ff).max(ff * v);
            threaded(1, mb * layer)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{load, ConfigSource};

    fn tiny() -> ModelSpec {
        load(&ConfigSource::Builtin("tiny".into()), &[])
            .unwrap()
            .1
            .model
    }

    #[test]
    fn the_tiny_configs_2d_products_go_parallel_from_seven_samples() {
        let m = tiny();
        // The FFN's first layer: 64 tokens x 64 x 256 = 2^20 per sample; 192³ needs 6.75.
        assert!(!step_multiplies_in_parallel(&m, 47, 6, true));
        assert!(step_multiplies_in_parallel(&m, 47, 7, true));
    }

    #[test]
    fn burns_batched_linear_splits_any_batch_of_two_or_more() {
        let m = tiny();
        assert!(!step_multiplies_in_parallel(&m, 47, 1, false));
        assert!(step_multiplies_in_parallel(&m, 47, 2, false));
    }

    #[test]
    fn the_thresholds_are_flexs() {
        assert!(threaded(1, 192 * 192 * 192));
        assert!(!threaded(1, 192 * 192 * 192 - 1));
        assert!(threaded(2, 128 * 128 * 64));
        assert!(!threaded(1, 128 * 128 * 128));
    }
}

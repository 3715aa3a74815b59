//! What a model's parameters really are: count, bytes and the dtype read back from the
//! tensors themselves (in burn 0.21 the backend's type parameter does not decide it).

use burn::module::{ModuleVisitor, Param};
use burn::prelude::*;
use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// Parameter count, storage and dtypes of a module.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamStats {
    /// Number of float parameters (elements).
    pub count: u64,
    /// Bytes those parameters take.
    pub bytes: Bytes,
    /// Distinct dtypes seen, e.g. `["f32"]`.
    pub dtypes: Vec<String>,
}

impl ParamStats {
    /// Reads the stats of `module`.
    pub fn of<B: Backend, M: Module<B>>(module: &M) -> Self {
        let mut v = StatsVisitor {
            stats: ParamStats {
                count: 0,
                bytes: Bytes(0),
                dtypes: Vec::new(),
            },
        };
        module.visit(&mut v);
        v.stats
    }
}

struct StatsVisitor {
    stats: ParamStats,
}

impl<B: Backend> ModuleVisitor<B> for StatsVisitor {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<B, D>>) {
        let t = param.val();
        let n = t.shape().num_elements() as u64;
        let dtype = t.dtype();
        self.stats.count += n;
        self.stats.bytes.0 += n * dtype.size() as u64;
        let name = dtype.name().to_string();
        if !self.stats.dtypes.contains(&name) {
            self.stats.dtypes.push(name);
        }
    }
}

/// Every float parameter of `module`, flattened in visiting order (for tests comparing
/// two models).
pub fn flat_params<B: Backend, M: Module<B>>(module: &M) -> Vec<f32> {
    struct Flat(Vec<f32>);
    impl<B: Backend> ModuleVisitor<B> for Flat {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<B, D>>) {
            self.0.extend(param.val().into_data().iter::<f32>());
        }
    }
    let mut f = Flat(Vec::new());
    module.visit(&mut f);
    f.0
}

/// The ids of every float parameter of `module`, in visiting order.
pub fn param_ids<B: Backend, M: Module<B>>(module: &M) -> Vec<burn::module::ParamId> {
    struct Ids(Vec<burn::module::ParamId>);
    impl<B: Backend> ModuleVisitor<B> for Ids {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<B, D>>) {
            self.0.push(param.id);
        }
    }
    let mut ids = Ids(Vec::new());
    module.visit(&mut ids);
    ids.0
}

/// A fingerprint of a model's weights, to tell from two summaries whether two runs ended
/// with the same parameters: a hash of every value's bits (equal only when bit for bit
/// equal) and two sums (close when the weights are close).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamFingerprint {
    /// FNV-1a (64 bit) over the f32 bits of every parameter, in visiting order, as hex.
    pub fnv1a64: String,
    /// Sum of all parameters.
    pub sum: f64,
    /// Sum of their squares.
    pub sum_sq: f64,
}

impl ParamFingerprint {
    /// Reads every parameter of `module` back to the host.
    pub fn of<B: Backend, M: Module<B>>(module: &M) -> Self {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
        for v in flat_params::<B, M>(module) {
            for byte in v.to_bits().to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
            sum += f64::from(v);
            sum_sq += f64::from(v) * f64::from(v);
        }
        Self {
            fnv1a64: format!("{hash:016x}"),
            sum,
            sum_sq,
        }
    }
}

/// Parameter count of the network `spec` would build, without building it (for the
/// preflight's memory estimate): the sum of [`param_tensor_sizes`]. Kept exact: a test
/// compares it with [`ParamStats`] of the built models.
pub fn param_count(spec: &crate::config::ModelSpec, vocab: usize) -> u64 {
    param_tensor_sizes(spec, vocab).iter().sum()
}

/// The element count of every parameter tensor `spec` would build, in no particular
/// order (for the estimate's allocator model and [`param_count`]).
pub fn param_tensor_sizes(spec: &crate::config::ModelSpec, vocab: usize) -> Vec<u64> {
    use crate::config::ModelKind;
    let (v, d, l, ff, t) = (
        vocab as u64,
        spec.d_model as u64,
        spec.n_layers as u64,
        spec.d_ff as u64,
        spec.seq_len as u64,
    );
    let mut out = Vec::new();
    match spec.kind {
        ModelKind::Gpt => {
            // Embeddings, the final norm's scale and shift, the head.
            out.extend([v * d, t * d, d, d, d * v, v]);
            for _ in 0..l {
                out.extend([d * d, d, d * d, d, d * d, d, d * d, d]);
                out.extend([d * ff, ff, ff * d, d]);
                out.extend([d, d, d, d]);
            }
        }
        ModelKind::Mlp => {
            out.extend([v * d, t * d * ff, ff]);
            for _ in 1..l {
                out.extend([ff * ff, ff]);
            }
            out.extend([ff * v, v]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::config::{load, ConfigSource};
    use crate::model::Net;

    #[test]
    fn the_parameter_formula_matches_the_built_models() {
        for kind in ["gpt", "mlp"] {
            let over = vec![("model.kind".to_string(), toml::Value::String(kind.into()))];
            let (_, cfg) = load(&ConfigSource::Builtin("tiny".into()), &over).unwrap();
            let net = Net::<CpuBackend>::init(&cfg.model, 47, &Default::default());
            assert_eq!(
                ParamStats::of(&net).count,
                param_count(&cfg.model, 47),
                "{kind}"
            );
            assert_eq!(
                param_tensor_sizes(&cfg.model, 47).iter().sum::<u64>(),
                param_count(&cfg.model, 47),
                "{kind}"
            );
        }
    }
}

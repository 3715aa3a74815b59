//! What a model's parameters really are: count, bytes and the dtype read back from the
//! tensors themselves (in burn 0.21 the backend's type parameter does not decide it).

use burn::module::{ModuleVisitor, Param};
use burn::prelude::*;
use serde::Serialize;

use crate::units::Bytes;

/// Parameter count, storage and dtypes of a module.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

//! The size of each parameter, in the model's visiting order (the same on every peer):
//! what the shard plan is made from and what buckets are packed by.

use burn::module::{Module, ModuleVisitor, Param};
use burn::prelude::*;

/// Elements of every parameter of `model`, in visiting order.
pub fn param_elements<B: Backend, M: Module<B>>(model: &M) -> Vec<usize> {
    struct Sizes(Vec<usize>);
    impl<B: Backend> ModuleVisitor<B> for Sizes {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<B, D>>) {
            self.0.push(p.shape().num_elements());
        }
    }
    let mut s = Sizes(Vec::new());
    model.visit(&mut s);
    s.0
}

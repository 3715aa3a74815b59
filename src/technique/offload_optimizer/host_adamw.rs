//! Optimizer-state offload (the `offload-optimizer` strategy): AdamW's two moments live in
//! host memory, not on the device. After the backward pass, each parameter's gradient and
//! weights are read back to the host, the update runs there on every core, and the new
//! weights go back to the device. The device then holds weights and gradients only: 8 bytes
//! a parameter fewer in f32, paid for with three copies of the weights over the bus a step
//! and the host's time for the update.
//!
//! The update is burn's `AdamW` (the same β₁, β₂, ε and decoupled weight decay as
//! [`crate::optim::FusedAdamW`]), the same operations in the same order in f32, element by element:
//! on the CPU backend a run with it and one with burn's `AdamW` give the same bits.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use burn::module::{AutodiffModule, ModuleMapper, Param};
use burn::optim::GradientsParams;
use burn::prelude::*;
use burn::tensor::backend::AutodiffBackend;
use burn::tensor::{TensorCreationOptions, TensorData};
use rayon::prelude::*;

use crate::optim::AdamWScalars;

/// Elements one host thread updates at a time.
const CHUNK: usize = 1 << 16;

/// The first bytes of an offloaded optimizer's record.
const MAGIC: &[u8] = b"oomlab offloaded AdamW 1\n";

/// One parameter's moments in host memory.
#[derive(Debug, Clone, PartialEq)]
struct HostMoments {
    /// Updates so far (1 after the first).
    time: usize,
    moment_1: Vec<f32>,
    moment_2: Vec<f32>,
}

/// AdamW whose moments stay in host memory. Cloning it is cheap (the moments are shared
/// until an update replaces them), so the trainer can keep the last good state beside a
/// step's new one, as it does for burn's optimizers.
#[derive(Debug, Clone)]
pub struct OffloadAdamW {
    weight_decay: f32,
    moments: HashMap<u64, Arc<HostMoments>>,
}

impl OffloadAdamW {
    /// With the decoupled weight decay `weight_decay`.
    pub fn new(weight_decay: f32) -> Self {
        OffloadAdamW {
            weight_decay,
            moments: HashMap::new(),
        }
    }

    /// Whether it holds state yet (made at the first update).
    pub fn holds_state(&self) -> bool {
        !self.moments.is_empty()
    }

    /// One update of `module` with `grads`: each parameter with a gradient is read back,
    /// updated on the host and placed on its device again, in its own float type.
    pub fn step<B: AutodiffBackend, M: AutodiffModule<B>>(
        &mut self,
        lr: f64,
        module: M,
        mut grads: GradientsParams,
    ) -> M {
        let mut mapper = HostUpdate::<B> {
            optim: self,
            grads: &mut grads,
            lr,
            backend: PhantomData,
        };
        module.map(&mut mapper)
    }

    /// The moments as bytes, for a checkpoint: the parameters' ids in order, each with its
    /// time and both moments (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut ids: Vec<&u64> = self.moments.keys().collect();
        ids.sort();
        let mut out = MAGIC.to_vec();
        out.extend((ids.len() as u64).to_le_bytes());
        for id in ids {
            let m = &self.moments[id];
            out.extend(id.to_le_bytes());
            out.extend((m.time as u64).to_le_bytes());
            out.extend((m.moment_1.len() as u64).to_le_bytes());
            for x in m.moment_1.iter().chain(&m.moment_2) {
                out.extend(x.to_le_bytes());
            }
        }
        out
    }

    /// This optimizer with the moments [`Self::to_bytes`] wrote.
    pub fn with_bytes(&self, bytes: &[u8]) -> Result<Self, OffloadRecordError> {
        let bad = || OffloadRecordError;
        let mut rest = bytes.strip_prefix(MAGIC).ok_or_else(bad)?;
        let mut next = |n: usize| -> Result<&[u8], OffloadRecordError> {
            if rest.len() < n {
                return Err(bad());
            }
            let (head, tail) = rest.split_at(n);
            rest = tail;
            Ok(head)
        };
        let word = |b: &[u8]| b.iter().rev().fold(0u64, |n, &x| n << 8 | u64::from(x));
        let count = word(next(8)?);
        let mut moments = HashMap::new();
        for _ in 0..count {
            let id = word(next(8)?);
            let time = word(next(8)?) as usize;
            let len = word(next(8)?) as usize;
            let floats = next(len.checked_mul(8).ok_or_else(bad)?)?;
            let all: Vec<f32> = floats
                .chunks_exact(4)
                .map(|b| f32::from_bits(b.iter().rev().fold(0u32, |n, &x| n << 8 | u32::from(x))))
                .collect();
            let (moment_1, moment_2) = all.split_at(len);
            moments.insert(
                id,
                Arc::new(HostMoments {
                    time,
                    moment_1: moment_1.to_vec(),
                    moment_2: moment_2.to_vec(),
                }),
            );
        }
        if !rest.is_empty() {
            return Err(bad());
        }
        Ok(OffloadAdamW {
            weight_decay: self.weight_decay,
            moments,
        })
    }
}

/// A checkpoint's optimizer record that is not an offloaded AdamW's (another optimizer's,
/// or damaged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the optimizer state is not an offloaded AdamW's")]
pub struct OffloadRecordError;

/// Visits the module's parameters and updates each on the host.
struct HostUpdate<'a, B: AutodiffBackend> {
    optim: &'a mut OffloadAdamW,
    grads: &'a mut GradientsParams,
    lr: f64,
    backend: PhantomData<B>,
}

impl<B: AutodiffBackend> ModuleMapper<B> for HostUpdate<'_, B> {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<B, D>>) -> Param<Tensor<B, D>> {
        let (id, tensor, mapper) = param.consume();
        let Some(grad) = self.grads.remove::<B::InnerBackend, D>(id) else {
            return Param::from_mapped_value(id, tensor, mapper);
        };
        let require_grad = tensor.is_require_grad();
        let inner = tensor.inner();
        let (device, dtype, shape) = (inner.device(), inner.dtype(), inner.shape());
        // f32 bytes become the vector without a copy; other float types convert.
        let to_host = |data: TensorData| -> Vec<f32> {
            let data = data.convert::<f32>();
            if data.as_slice::<f32>().is_ok() {
                data.into_vec::<f32>().unwrap_or_default()
            } else {
                data.iter::<f32>().collect()
            }
        };
        let weights = to_host(inner.into_data());
        let grad = to_host(grad.into_data());
        let old = self.optim.moments.get(&id.val()).cloned();
        let time = old.as_ref().map_or(0, |m| m.time) + 1;
        let scalars = AdamWScalars::with_defaults(self.optim.weight_decay, self.lr, time);
        let (weights, moments) = host_update(&weights, &grad, old.as_deref(), scalars);
        self.optim.moments.insert(id.val(), Arc::new(moments));
        let options = TensorCreationOptions::new(device).with_dtype(dtype);
        let updated = Tensor::<B::InnerBackend, D>::from_data(
            TensorData::new(weights, shape).convert_dtype(dtype),
            options,
        );
        let mut tensor = Tensor::from_inner(updated);
        if require_grad {
            tensor = tensor.require_grad();
        }
        Param::from_mapped_value(id, tensor, mapper)
    }
}

/// One AdamW update of a parameter on the host, as burn's `AdamW` computes it: the moments
/// (started from the gradient at the first update), their bias corrections, the decoupled
/// weight decay, the step. Runs on rayon's threads in chunks of [`CHUNK`] elements; each
/// element's result does not depend on the chunking.
fn host_update(
    weights: &[f32],
    grad: &[f32],
    old: Option<&HostMoments>,
    s: AdamWScalars,
) -> (Vec<f32>, HostMoments) {
    let n = weights.len();
    let (factor_1, factor_2) = s.factors();
    let (correction_1, correction_2) = s.corrections();
    let keep = s.keep().map(|k| k as f32);
    let lr = s.lr as f32;
    let mut new_weights = vec![0f32; n];
    let mut moment_1 = vec![0f32; n];
    let mut moment_2 = vec![0f32; n];
    let update = |start: usize, w: &mut [f32], m1: &mut [f32], m2: &mut [f32]| {
        for i in 0..w.len() {
            let (g, p) = (grad[start + i], weights[start + i]);
            let (a, b) = match old {
                Some(o) => (
                    o.moment_1[start + i] * s.beta_1 + g * factor_1,
                    o.moment_2[start + i] * s.beta_2 + (g * g) * factor_2,
                ),
                None => (g * factor_1, (g * g) * factor_2),
            };
            let delta = (a / correction_1) / ((b / correction_2).sqrt() + s.epsilon);
            let decayed = match keep {
                Some(k) => p * k,
                None => p,
            };
            w[i] = decayed - delta * lr;
            m1[i] = a;
            m2[i] = b;
        }
    };
    new_weights
        .par_chunks_mut(CHUNK)
        .zip(moment_1.par_chunks_mut(CHUNK))
        .zip(moment_2.par_chunks_mut(CHUNK))
        .enumerate()
        .for_each(|(c, ((w, m1), m2))| update(c * CHUNK, w, m1, m2));
    (
        new_weights,
        HostMoments {
            time: s.time,
            moment_1,
            moment_2,
        },
    )
}

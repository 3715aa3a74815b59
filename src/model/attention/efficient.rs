//! Memory-efficient causal attention as a custom autodiff operation (burn's
//! `Backward`/`Ops` API, as in burn's guide to custom kernels with autodiff).
//!
//! Forward (`kernels.attention_forward` chooses): where the backend's softmax kernels run (on CUDA for
//! f32 and bf16), the products and the softmax kernel a group of heads at a time
//! ([`written_forward`]); elsewhere the backend's fused attention with `is_causal` (no mask
//! tensor): on CUDA burn-cubecl autotunes between flash-attention kernels
//! (cubek-attention) and its written-out fallback, on the CPU Flex has its own naive and
//! tiled kernels. Whichever runs, only its output leaves the operation.
//!
//! Saved for backward: Q, K and V (not the output, not the scores).
//!
//! Backward ([`causal_attention_backward`]): for a few heads at a time, recompute
//! P = softmax(QKᵀ/√d) in f32 (crate::model's softmax module: one kernel on CUDA for f32)
//! and
//! - dV = Pᵀ·dO
//! - dP = dO·Vᵀ
//! - dS = P ⊙ (dP − rowsum(P ⊙ dP))
//! - dQ = dS·K/√d, dK = dSᵀ·Q/√d
//!
//! so the `[batch, heads, seq, seq]` tensors exist for one layer's backward pass only,
//! bounded by [`CHUNK_BYTES`] per tensor. The products go through
//! [`crate::model::batched`]: on CUDA cuBLAS's strided batched calls on the heads views as
//! they are, each group's heads read where they sit in Q, K, V and dO
//! ([`crate::model::Heads`]: no slice, which burn-cubecl would copy), each group's output,
//! dQ, dK and dV written into its heads of one `[batch, seq, heads, head_dim]` buffer
//! ([`crate::model::Joined`]; unless `kernels.attention_products=burn`); elsewhere burn's
//! matmul of the groups' slices, joined by burn's `cat`.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::Autodiff;
use burn::prelude::*;
use burn::tensor::activation::softmax;
use burn::tensor::ops::{AttentionModuleOptions, FloatTensor};
use burn::tensor::{DType, TensorPrimitive};

use super::{future_mask, scale};
use crate::model::{
    batched, causal_softmax, in_dtype, scaled_scores, softmax_grad, Heads, Joined, ProductBackend,
    Rows, SoftmaxBackend,
};

/// What `kernels.backward_probs` asks for (read once): `Some(true)` for `inputs`,
/// `Some(false)` for `f32`, `None` otherwise.
///
/// Why: in bf16 the cast is a kernel over each group's `[batch, group, seq, seq]`
/// probabilities, 256 MiB read and 128 MiB written a group in the `h200` config. On an
/// H100 that config's AMP bf16 profile had 301 `CastElement` launches, 23.6 ms a step
/// (docs/results/2026-12-06-h100-in-place-join, `h200-298fc73/profile.md`), of which
/// 128.2 a step took over 0.1 ms each, 19.58 ms together (`long-casts.md` there,
/// scripts/profile-long-launches.py): about as many as there are groups (8) in 16
/// layers. It changes bf16's rounding (P in bf16 inside dS), so it was judged on the
/// seed rule (scripts/seed-spread.py) before it became bf16's default on CUDA:
/// docs/results/2026-12-06-h100-probs-bf16.
fn backward_probs_setting() -> Option<bool> {
    oomlab_kernels::chosen().backward_probs
}

/// The dtype the backward pass recomputes P in for inputs of `inputs`
/// (`kernels.backward_probs`, else the backend's default).
fn backward_probs<B: SoftmaxBackend>(inputs: DType) -> DType {
    let in_inputs =
        backward_probs_setting().unwrap_or_else(|| B::probs_in_inputs_by_default(inputs));
    if in_inputs {
        inputs
    } else {
        DType::F32
    }
}

/// The most bytes one f32 `[batch, heads, seq, seq]` tensor of the backward pass may take:
/// heads are processed in groups small enough for that (at least one head at a time).
pub const CHUNK_BYTES: usize = 256 * 1024 * 1024;

/// A backend that can run [`causal_attention`]: every autodiff backend (the operation is
/// generic over the inner backend).
pub trait AttentionBackend: Backend {
    /// Causal attention whose backward pass recomputes the scores.
    ///
    /// # Shapes
    /// - q, k, v: `[batch, heads, seq_len, head_dim]`
    /// - output: `[batch, heads, seq_len, head_dim]`
    fn causal_attention(
        q: FloatTensor<Self>,
        k: FloatTensor<Self>,
        v: FloatTensor<Self>,
    ) -> FloatTensor<Self>;

    /// The same from Q, K and V side by side in one tensor (one product's output:
    /// super's `kernels.qkv=fused`); its gradient comes back as one tensor too, so the
    /// product's backward pass is one product again.
    ///
    /// # Shapes
    /// - qkv: `[batch, seq_len, 3·heads·head_dim]`
    /// - output: `[batch, heads, seq_len, head_dim]`
    fn causal_attention_packed(qkv: FloatTensor<Self>, heads: usize) -> FloatTensor<Self>;
}

/// Q, K and V of a packed `[batch, seq_len, 3·d_model]` tensor, each `[batch, heads,
/// seq_len, head_dim]` (views).
pub fn unpack<B: Backend>(
    qkv: Tensor<B, 3>,
    heads: usize,
) -> (Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) {
    let [batch, seq_len, width] = qkv.dims();
    let d_model = width / 3;
    let part = |i: usize| {
        qkv.clone()
            .narrow(2, i * d_model, d_model)
            .reshape([batch, seq_len, heads, d_model / heads.max(1)])
            .swap_dims(1, 2)
    };
    (part(0), part(1), part(2))
}

/// Memory-efficient causal attention (see the module documentation).
///
/// # Shapes
/// - q, k, v: `[batch, heads, seq_len, head_dim]`
/// - output: `[batch, heads, seq_len, head_dim]`
pub fn causal_attention<B: AttentionBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
) -> Tensor<B, 4> {
    Tensor::from_primitive(TensorPrimitive::Float(B::causal_attention(
        q.into_primitive().tensor(),
        k.into_primitive().tensor(),
        v.into_primitive().tensor(),
    )))
}

/// [`causal_attention`] from Q, K and V side by side in one tensor
/// ([`AttentionBackend::causal_attention_packed`]).
///
/// # Shapes
/// - qkv: `[batch, seq_len, 3·d_model]`
/// - output: `[batch, heads, seq_len, d_model / heads]`
pub fn causal_attention_packed<B: AttentionBackend>(
    qkv: Tensor<B, 3>,
    heads: usize,
) -> Tensor<B, 4> {
    Tensor::from_primitive(TensorPrimitive::Float(B::causal_attention_packed(
        qkv.into_primitive().tensor(),
        heads,
    )))
}

/// What `kernels.attention_forward` asks for (read once: a run's graph does not change
/// halfway): `Some(true)` for `written`, `Some(false)` for `fused`, `None` otherwise.
///
/// With burn's softmax (on an H100, docs/results/2026-12-05-h100-attention-forward-head, the
/// gpu config) `written` took the f32 step to 0.975x the fused one's (67.5 ms against 69.2,
/// 2 repeats whose ranges overlap), its final loss after 100 steps 2.6e-4 away; in AMP bf16
/// 0.954x, but the loss moved by 4.9e-3, over issue 29's 1e-3 (not traced to which
/// operation). With the softmax kernel (on the H200, docs/results/2026-12-06-h200-row-kernels)
/// the written forward and the kernels of the backward pass took f32's step to 0.795x
/// (45.1 ms against 56.7), the loss 9.1e-4 away; bf16 0.927x with the loss 3.9e-3 away in
/// that one run (seed 42). bf16 takes it by default with the softmax kernels since
/// docs/results/2026-12-06-h100-bf16-kernels judged them over five seeds.
fn forward_setting() -> Option<bool> {
    oomlab_kernels::chosen().attention_forward
}

/// The forward pass: [`written_forward`] or the backend's fused attention
/// ([`fused_forward`]), as `kernels.attention_forward` says.
fn forward<B: ProductBackend + SoftmaxBackend>(
    q: FloatTensor<B>,
    k: FloatTensor<B>,
    v: FloatTensor<B>,
) -> FloatTensor<B> {
    let dtype = burn::tensor::TensorMetadata::dtype(&q);
    if forward_setting().unwrap_or_else(|| B::softmax_on_kernels(dtype)) {
        let t = |p| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
        written_forward(t(q), t(k), t(v)).into_primitive().tensor()
    } else {
        fused_forward::<B>(q, k, v)
    }
}

/// softmax(QKᵀ/√d + causal mask)·V as tensor operations, a group of heads at a time (as
/// the backward pass, [`heads_per_chunk`]): on CUDA burn's fusion can then merge the
/// element-wise steps into fewer kernels, where burn-cubecl's attention, when its autotune
/// picks the written-out fallback, runs each step (scale, mask, max, subtract, exp, sum,
/// divide) as a kernel of its own over the `[batch, heads, seq, seq]` scores (the f32
/// profile of docs/results/2026-12-05-h200-step-levers). The scores and the softmax are in
/// f32, the products in the inputs' dtype, as in the backward pass.
///
/// # Shapes
/// - q, k, v: `[batch, heads, seq_len, head_dim]`
/// - output: `[batch, heads, seq_len, head_dim]`
pub fn written_forward<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
) -> Tensor<B, 4> {
    let [batch, heads, seq_len, _] = q.dims();
    forward_in_groups(q, k, v, heads_per_chunk(batch, heads, seq_len))
}

/// [`written_forward`], `group` heads at a time (public so that tests/gpu/batched.rs can ask
/// for several groups at shapes where [`heads_per_chunk`] gives one).
pub fn forward_in_groups<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    group: usize,
) -> Tensor<B, 4> {
    let heads = q.dims()[1];
    let dtype = q.dtype();
    let mut out = Joined::new(heads);
    for (start, n) in head_groups(heads, group) {
        let p = probabilities(Heads::of(&q, start, n), Heads::of(&k, start, n), dtype);
        out.product(p, Heads::of(&v, start, n), start);
    }
    out.finish()
}

/// The groups of at most `group` heads (at least one) that cover `heads`: (first, count).
fn head_groups(heads: usize, group: usize) -> impl Iterator<Item = (usize, usize)> {
    let group = group.clamp(1, heads.max(1));
    (0..heads)
        .step_by(group)
        .map(move |start| (start, group.min(heads - start)))
}

/// P = softmax(QKᵀ/√d + causal mask), computed in f32, stored in `out`: on the backend's
/// softmax kernel where [`SoftmaxBackend::softmax_on_kernels`] says so for the inputs'
/// dtype (it scales and casts as it reads the product), else as tensor operations.
///
/// # Shapes
/// - q, k: `[batch, heads, seq_len, head_dim]` (`heads` those taken: [`Heads`])
/// - output: `[batch, heads, seq_len, seq_len]`
fn probabilities<B: ProductBackend + SoftmaxBackend>(
    q: Heads<B>,
    k: Heads<B>,
    out: DType,
) -> Tensor<B, 4> {
    let [batch, heads, seq_len, head_dim] = q.dims();
    if B::softmax_on_kernels(q.dtype()) {
        let scores = batched(q, k.transposed(), Rows::Heads);
        return causal_softmax(scores, scale(head_dim), out);
    }
    let device = q.device();
    let scores = scaled_scores(q, k, scale(head_dim)).mask_fill(
        future_mask::<B>([batch, heads, seq_len], &device),
        f32::NEG_INFINITY,
    );
    in_dtype(softmax(scores, 3), out)
}

/// The backend's fused causal attention. A custom scale would send burn-cubecl to its
/// written-out fallback, so the default one (1/√head_dim) is used.
fn fused_forward<B: Backend>(
    q: FloatTensor<B>,
    k: FloatTensor<B>,
    v: FloatTensor<B>,
) -> FloatTensor<B> {
    B::attention(
        q,
        k,
        v,
        None,
        None,
        AttentionModuleOptions {
            scale: None,
            softcap: None,
            is_causal: true,
        },
    )
}

impl<B: ProductBackend + SoftmaxBackend, C: CheckpointStrategy> AttentionBackend
    for Autodiff<B, C>
{
    fn causal_attention(
        q: FloatTensor<Self>,
        k: FloatTensor<Self>,
        v: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        #[derive(Debug)]
        struct EfficientAttention;

        impl<B: ProductBackend + SoftmaxBackend> Backward<B, 3> for EfficientAttention {
            type State = (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>);

            fn backward(
                self,
                ops: Ops<Self::State, 3>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let [node_q, node_k, node_v] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let (q, k, v) = ops.state;
                let t = |p| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(p));
                let (dq, dk, dv) = causal_attention_backward(t(q), t(k), t(v), t(grad));
                for (node, g) in [(node_q, dq), (node_k, dk), (node_v, dv)] {
                    if let Some(node) = node {
                        grads.register::<B>(node.id, g.into_primitive().tensor());
                    }
                }
            }
        }

        match EfficientAttention
            .prepare::<C>([q.node.clone(), k.node.clone(), v.node.clone()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let out = forward::<B>(
                    q.primitive.clone(),
                    k.primitive.clone(),
                    v.primitive.clone(),
                );
                prep.finish((q.primitive, k.primitive, v.primitive), out)
            }
            OpsKind::UnTracked(prep) => {
                prep.finish(forward::<B>(q.primitive, k.primitive, v.primitive))
            }
        }
    }

    fn causal_attention_packed(qkv: FloatTensor<Self>, heads: usize) -> FloatTensor<Self> {
        /// The packed tensor is kept (as Q, K and V are by the unpacked operation).
        #[derive(Debug)]
        struct PackedAttention {
            heads: usize,
        }

        impl<B: ProductBackend + SoftmaxBackend> Backward<B, 1> for PackedAttention {
            type State = FloatTensor<B>;

            fn backward(
                self,
                ops: Ops<Self::State, 1>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let [node] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                let Some(node) = node else { return };
                let qkv = Tensor::<B, 3>::from_primitive(TensorPrimitive::Float(ops.state));
                let (q, k, v) = unpack(qkv, self.heads);
                let g = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(grad));
                let [batch, heads, seq_len, _] = q.dims();
                let group = heads_per_chunk(batch, heads, seq_len);
                let packed = backward_packed(q, k, v, g, group);
                grads.register::<B>(node.id, packed.into_primitive().tensor());
            }
        }

        let forward_packed = |qkv: FloatTensor<B>| {
            let (q, k, v) = unpack(
                Tensor::<B, 3>::from_primitive(TensorPrimitive::Float(qkv)),
                heads,
            );
            forward::<B>(
                q.into_primitive().tensor(),
                k.into_primitive().tensor(),
                v.into_primitive().tensor(),
            )
        };
        match (PackedAttention { heads })
            .prepare::<C>([qkv.node.clone()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let out = forward_packed(qkv.primitive.clone());
                prep.finish(qkv.primitive, out)
            }
            OpsKind::UnTracked(prep) => prep.finish(forward_packed(qkv.primitive)),
        }
    }
}

/// Heads per group so that one f32 `[batch, group, seq, seq]` tensor stays within
/// [`CHUNK_BYTES`] (at least one head).
pub fn heads_per_chunk(batch: usize, heads: usize, seq_len: usize) -> usize {
    let per_head = batch * seq_len * seq_len * 4;
    (CHUNK_BYTES / per_head.max(1)).clamp(1, heads.max(1))
}

/// Gradients of causal attention with respect to Q, K and V, recomputing the scores a
/// group of heads at a time. Scores, softmax and its gradient are computed in f32 (P is
/// stored in f32 too unless `kernels.backward_probs`, or the backend's default, says the
/// inputs' dtype); the products with Q, K, V and dO run in their dtype.
///
/// # Shapes
/// - q, k, v, grad_out: `[batch, heads, seq_len, head_dim]`
/// - output: (dQ, dK, dV), each `[batch, heads, seq_len, head_dim]`
pub fn causal_attention_backward<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    grad_out: Tensor<B, 4>,
) -> (Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) {
    let [batch, heads, seq_len, _] = q.dims();
    backward_in_groups(q, k, v, grad_out, heads_per_chunk(batch, heads, seq_len))
}

/// [`causal_attention_backward`], `group` heads at a time (public for the same tests as
/// [`forward_in_groups`]).
pub fn backward_in_groups<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    grad_out: Tensor<B, 4>,
    group: usize,
) -> (Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) {
    let heads = q.dims()[1];
    let targets = [(0, 0), (1, 0), (2, 0)];
    let [dq, dk, dv] = backward_joined([q, k, v, grad_out], group, heads, targets);
    (dq, dk, dv)
}

/// dQ, dK and dV side by side as the packed tensor's gradient, `[batch, seq_len,
/// 3·d_model]`, `group` heads at a time: the three are written as the heads of one
/// `[batch, seq_len, 3·heads, head_dim]` tensor ([`Joined`]), so on CUDA each group's
/// products land where the packed gradient keeps them and nothing is joined afterwards
/// (public so that tests/gpu/batched.rs can compare it with [`backward_in_groups`]).
pub fn backward_packed<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    grad_out: Tensor<B, 4>,
    group: usize,
) -> Tensor<B, 3> {
    let [batch, heads, seq_len, head_dim] = q.dims();
    let targets = [(0, 0), (0, heads), (0, 2 * heads)];
    let [grads] = backward_joined([q, k, v, grad_out], group, 3 * heads, targets);
    grads
        .swap_dims(1, 2)
        .reshape([batch, seq_len, 3 * heads * head_dim])
}

/// [`backward_into`] with P in the dtype [`backward_probs`] gives, into `J` joins
/// of `heads` heads each; the joined tensors.
fn backward_joined<B: ProductBackend + SoftmaxBackend, const J: usize>(
    inputs: [Tensor<B, 4>; 4],
    group: usize,
    heads: usize,
    targets: [(usize, usize); 3],
) -> [Tensor<B, 4>; J] {
    let probs = backward_probs::<B>(inputs[0].dtype());
    let mut joins = [0; J].map(|_| Joined::new(heads));
    backward_into(inputs, group, probs, &mut joins, targets);
    joins.map(Joined::finish)
}

/// The backward pass's products for Q, K, V and dO, `group` heads at a time, P recomputed
/// in `probs`; each of dQ, dK and dV (in that order in `targets`) written into `joins[i]`
/// from head `offset + ` its group's first, for its `(i, offset)`.
fn backward_into<B: ProductBackend + SoftmaxBackend>(
    [q, k, v, grad_out]: [Tensor<B, 4>; 4],
    group: usize,
    probs: DType,
    joins: &mut [Joined<B>],
    targets: [(usize, usize); 3],
) {
    let [_, heads, _, head_dim] = q.dims();
    let dtype = q.dtype();
    let s = scale(head_dim);
    let [(jq, oq), (jk, ok), (jv, ov)] = targets;
    for (start, n) in head_groups(heads, group) {
        let part = |t: &Tensor<B, 4>| Heads::of(t, start, n);
        let (qc, kc, vc, gc) = (part(&q), part(&k), part(&v), part(&grad_out));
        let p = probabilities(qc.clone(), kc.clone(), probs);
        // dV = Pᵀ·dO and dP = dO·Vᵀ, then dQ = dS·K and dK = dSᵀ·Q: two pairs of products
        // that do not depend on each other, each pair one operation where pairs are asked
        // for (crate::model's batched_pair module).
        let pt = in_dtype(p.clone(), dtype).swap_dims(2, 3);
        let dp = joins[jv].product_and(
            (pt, gc.clone(), ov + start),
            (gc, vc.transposed()),
            Rows::Heads,
        );
        let ds = softmax_grad(p, dp, s, dtype);
        let dq = (ds.clone(), kc, oq + start);
        let dk = (ds.swap_dims(2, 3), qc, ok + start);
        if jq == jk {
            joins[jq].products(dq, dk);
        } else {
            joins[jq].product(dq.0, dq.1, dq.2);
            joins[jk].product(dk.0, dk.1, dk.2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::model::attention::math_attention;
    use burn::tensor::Distribution;

    type B = CpuBackend;

    fn random(shape: [usize; 4], seed: u64) -> Tensor<B, 4> {
        B::seed(&Default::default(), seed);
        Tensor::random(shape, Distribution::Normal(0.0, 1.0), &Default::default())
    }

    /// ‖a − b‖ / ‖b‖
    fn relative<Bk: Backend>(a: Tensor<Bk, 4>, b: Tensor<Bk, 4>) -> f64 {
        let diff: f64 = (a - b.clone())
            .powi_scalar(2)
            .sum()
            .into_scalar()
            .elem::<f64>()
            .sqrt();
        let norm: f64 = b.powi_scalar(2).sum().into_scalar().elem::<f64>().sqrt();
        diff / norm
    }

    /// Output and dQ, dK, dV of `attend` for a loss of sum(out ⊙ w).
    fn run(
        attend: fn(Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) -> Tensor<B, 4>,
        [q, k, v, w]: [Tensor<B, 4>; 4],
    ) -> [Tensor<<B as burn::tensor::backend::AutodiffBackend>::InnerBackend, 4>; 4] {
        let (q, k, v) = (q.require_grad(), k.require_grad(), v.require_grad());
        let out = attend(q.clone(), k.clone(), v.clone());
        let grads = (out.clone() * w).sum().backward();
        [
            out.inner(),
            q.grad(&grads).expect("dQ"),
            k.grad(&grads).expect("dK"),
            v.grad(&grads).expect("dV"),
        ]
    }

    fn inputs(shape: [usize; 4], seed: u64) -> [Tensor<B, 4>; 4] {
        [0, 1, 2, 3].map(|i| random(shape, seed * 10 + i))
    }

    #[test]
    fn output_and_gradients_equal_the_written_out_attention() {
        for (i, shape) in [[1, 1, 5, 4], [2, 3, 17, 8], [2, 4, 64, 16], [1, 2, 130, 8]]
            .into_iter()
            .enumerate()
        {
            let x = inputs(shape, i as u64);
            let efficient = run(causal_attention, x.clone());
            let math = run(math_attention, x);
            for (name, (e, m)) in ["out", "dQ", "dK", "dV"]
                .iter()
                .zip(efficient.into_iter().zip(math))
            {
                let r = relative(e, m);
                assert!(r <= 1e-5, "{shape:?} {name}: relative difference {r:e}");
            }
        }
    }

    #[test]
    fn the_written_out_forward_equals_the_backends_attention() {
        for (i, shape) in [[1, 1, 5, 4], [2, 3, 17, 8], [1, 2, 130, 8]]
            .into_iter()
            .enumerate()
        {
            let [q, k, v, _] = inputs(shape, 20 + i as u64).map(|t| t.inner());
            type I = <B as burn::tensor::backend::AutodiffBackend>::InnerBackend;
            let fused = Tensor::<I, 4>::from_primitive(TensorPrimitive::Float(fused_forward::<I>(
                q.clone().into_primitive().tensor(),
                k.clone().into_primitive().tensor(),
                v.clone().into_primitive().tensor(),
            )));
            let heads = shape[1];
            for group in [heads, 1, 2] {
                let written = forward_in_groups(q.clone(), k.clone(), v.clone(), group);
                let r = relative(written, fused.clone());
                assert!(
                    r <= 1e-5,
                    "{shape:?}, {group} heads at a time: relative difference {r:e}"
                );
            }
        }
    }

    #[test]
    fn heads_in_groups_give_the_same_gradients_as_all_at_once() {
        let [q, k, v, g] = inputs([2, 4, 24, 8], 7).map(|t| t.inner());
        let all = backward_in_groups(q.clone(), k.clone(), v.clone(), g.clone(), 4);
        let one = backward_in_groups(q.clone(), k.clone(), v.clone(), g.clone(), 1);
        let three = backward_in_groups(q, k, v, g, 3);
        for (a, (b, c)) in [all.0, all.1, all.2].into_iter().zip(
            [one.0, one.1, one.2]
                .into_iter()
                .zip([three.0, three.1, three.2]),
        ) {
            assert!(relative(b, a.clone()) <= 1e-6);
            assert!(relative(c, a) <= 1e-6);
        }
    }

    #[test]
    fn the_packed_gradient_is_the_three_side_by_side() {
        let [q, k, v, g] = inputs([2, 4, 24, 8], 11).map(|t| t.inner());
        let (dq, dk, dv) = backward_in_groups(q.clone(), k.clone(), v.clone(), g.clone(), 4);
        // As the packed operation's gradient was made before 2026-12-06: each of dQ, dK
        // and dV as `[batch, seq, d_model]`, joined along the features.
        type I = <B as burn::tensor::backend::AutodiffBackend>::InnerBackend;
        let flat = |t: Tensor<I, 4>| t.swap_dims(1, 2).reshape([2, 24, 32]);
        let whole = Tensor::cat(vec![flat(dq), flat(dk), flat(dv)], 2);
        let want = whole.clone().into_data();
        for group in [4, 1, 3] {
            let packed = backward_packed(q.clone(), k.clone(), v.clone(), g.clone(), group);
            assert_eq!(packed.dims(), [2, 24, 96]);
            if group == 4 {
                // One group: the same operations, so the same bits.
                assert_eq!(packed.into_data(), want, "{group} heads at a time");
            } else {
                let four = |t: Tensor<I, 3>| t.reshape([2, 24, 12, 8]);
                let r = relative(four(packed), four(whole.clone()));
                assert!(
                    r <= 1e-6,
                    "{group} heads at a time: relative difference {r:e}"
                );
            }
        }
    }

    #[test]
    fn probabilities_in_the_inputs_dtype_give_gradients_close_to_f32_ones() {
        use burn::tensor::FloatDType;
        type I = <B as burn::tensor::backend::AutodiffBackend>::InnerBackend;
        let x = inputs([2, 4, 24, 8], 13).map(|t| t.inner());
        let grads = |x: &[Tensor<I, 4>; 4], probs| {
            let mut joins = [0; 3].map(|_| Joined::new(4));
            backward_into(x.clone(), 2, probs, &mut joins, [(0, 0), (1, 0), (2, 0)]);
            joins.map(Joined::finish)
        };
        let f32s = grads(&x, DType::F32);
        for dtype in [FloatDType::BF16, FloatDType::F16] {
            let half = x.clone().map(|t| t.cast(dtype));
            let in_f32 = grads(&half, DType::F32);
            let in_half = grads(&half, dtype.into());
            for (name, ((h, f), exact)) in ["dQ", "dK", "dV"]
                .iter()
                .zip(in_half.into_iter().zip(in_f32).zip(f32s.clone()))
            {
                assert_eq!(h.dtype(), dtype.into(), "{name}");
                let cast = |t: Tensor<I, 4>| t.cast(FloatDType::F32);
                // Against P in f32 for the same half inputs: dV the same (P in the half
                // dtype is the cast of P in f32), dQ and dK moved by P's rounding inside
                // dS; and both against f32's.
                let r = relative(cast(h.clone()), cast(f.clone()));
                if *name == "dV" {
                    assert_eq!(r, 0.0, "{dtype:?} dV");
                } else {
                    assert!(
                        r > 0.0 && r <= 2e-2,
                        "{dtype:?} {name}: {r:e} from P in f32"
                    );
                }
                let (rh, rf) = (relative(cast(h), exact.clone()), relative(cast(f), exact));
                assert!(
                    rh <= 3e-2 && rf <= 3e-2,
                    "{dtype:?} {name}: {rh:e}, {rf:e} from f32"
                );
            }
        }
    }

    #[test]
    fn a_position_never_sees_the_future() {
        let [q, k, v, _] = inputs([1, 2, 12, 4], 3);
        let before = causal_attention(q.clone(), k.clone(), v.clone());
        // Change keys and values from position 6 on: outputs 0..6 must not move.
        let noise = random([1, 2, 6, 4], 99);
        let k2 = k.slice_assign([0..1, 0..2, 6..12, 0..4], noise.clone());
        let v2 = v.slice_assign([0..1, 0..2, 6..12, 0..4], noise);
        let after = causal_attention(q, k2, v2);
        let head = |t: Tensor<B, 4>| t.slice([0..1, 0..2, 0..6, 0..4]).inner();
        assert!(relative(head(after.clone()), head(before.clone())) < 1e-7);
        let tail = |t: Tensor<B, 4>| t.slice([0..1, 0..2, 6..12, 0..4]).inner();
        assert!(relative(tail(after), tail(before)) > 1e-3);
    }

    #[test]
    fn chunks_are_bounded_and_never_empty() {
        // gpu config: 64 x 256 x 256 x 4 B = 16 MiB a head: all 8 heads at once.
        assert_eq!(heads_per_chunk(64, 8, 256), 8);
        // h200 config: 128 x 512 x 512 x 4 B = 128 MiB a head: two at a time.
        assert_eq!(heads_per_chunk(128, 16, 512), 2);
        // One head over the bound still runs, alone.
        assert_eq!(heads_per_chunk(1024, 16, 2048), 1);
    }

    #[test]
    fn half_inputs_give_half_gradients_close_to_f32() {
        use burn::tensor::FloatDType;
        for dtype in [FloatDType::BF16, FloatDType::F16] {
            let x = inputs([2, 2, 33, 8], 5);
            let reference = run(math_attention, x.clone());
            let half = x.map(|t| t.cast(dtype));
            let got = run(causal_attention, half);
            for (name, (g, r)) in ["out", "dQ", "dK", "dV"]
                .iter()
                .zip(got.into_iter().zip(reference))
            {
                assert_eq!(g.dtype(), burn::tensor::DType::from(dtype), "{name}");
                let r = relative(g.cast(FloatDType::F32), r);
                assert!(r <= 2e-2, "{dtype:?} {name}: relative difference {r:e}");
            }
        }
    }
}

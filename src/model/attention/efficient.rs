//! Memory-efficient causal attention as a custom autodiff operation (burn's
//! `Backward`/`Ops` API, as in burn's guide to custom kernels with autodiff).
//!
//! Forward ([`FORWARD_ENV`] chooses): where the backend's softmax kernels run (on CUDA for
//! f32 and bf16), the products and the softmax kernel a chunk of the scores at a time
//! ([`written_forward`]); elsewhere the backend's fused attention with `is_causal` (no mask
//! tensor): on CUDA burn-cubecl autotunes between flash-attention kernels
//! (cubek-attention) and its written-out fallback, on the CPU Flex has its own naive and
//! tiled kernels. Whichever runs, only its output leaves the operation.
//!
//! Saved for backward: Q, K and V (not the output, not the scores).
//!
//! Backward ([`causal_attention_backward`]): a chunk of the scores at a time ([`chunks`]:
//! a few batch entries with all their heads, or one entry's heads a few at a time),
//! recompute
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
//! they are, dQ, dK and dV written as `[batch, seq, heads, head_dim]` (unless
//! `OOMLAB_ATTENTION_PRODUCTS=burn`); elsewhere burn's matmul.

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
    batched, causal_softmax, in_dtype, scaled_scores, softmax_grad, ProductBackend, Rows,
    SoftmaxBackend,
};

/// The most bytes one f32 `[batch, heads, seq, seq]` tensor of the backward pass may take:
/// the scores are processed in chunks small enough for that ([`chunks`]; at least one
/// head of one batch entry at a time).
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
    /// super's `OOMLAB_QKV=fused`); its gradient comes back as one tensor too, so the
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

/// dQ, dK and dV (`[batch, heads, seq_len, head_dim]`) side by side as the packed
/// tensor's gradient, `[batch, seq_len, 3·d_model]`.
fn pack<B: Backend>(parts: [Tensor<B, 4>; 3]) -> Tensor<B, 3> {
    let merged = parts
        .into_iter()
        .map(|t| {
            let [batch, heads, seq_len, head_dim] = t.dims();
            t.swap_dims(1, 2)
                .reshape([batch, seq_len, heads * head_dim])
        })
        .collect();
    Tensor::cat(merged, 2)
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

/// The variable choosing the forward pass: `written` (tensor operations, [`written_forward`])
/// or `fused` (the backend's fused attention, `fused_forward`); unset or anything else,
/// written where the backend's softmax kernels run for the inputs' dtype
/// ([`SoftmaxBackend::softmax_on_kernels`]: on CUDA f32's and bf16's), else fused.
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
pub const FORWARD_ENV: &str = "OOMLAB_ATTENTION_FORWARD";

/// What `OOMLAB_ATTENTION_FORWARD` asks for (read once: a run's graph does not change
/// halfway): `Some(true)` for `written`, `Some(false)` for `fused`, `None` otherwise.
fn forward_setting() -> Option<bool> {
    static SETTING: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    crate::model::env_setting(&SETTING, FORWARD_ENV, "written", "fused")
}

/// The forward pass: [`written_forward`] or the backend's fused attention
/// ([`fused_forward`]), as [`FORWARD_ENV`] says.
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

/// softmax(QKᵀ/√d + causal mask)·V as tensor operations, a chunk of the scores at a time
/// (as the backward pass, [`chunks`]): on CUDA burn's fusion can then merge the
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
    forward_in_chunks(q, k, v, &chunks(batch, heads, seq_len))
}

/// [`written_forward`], a chunk of `plan` at a time.
fn forward_in_chunks<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    plan: &[Chunk],
) -> Tensor<B, 4> {
    let dtype = q.dtype();
    let outs = plan
        .iter()
        .map(|&c| {
            let p = probabilities(c.of(&q), c.of(&k), dtype);
            batched(p, c.of(&v), Rows::Tokens)
        })
        .collect();
    join(outs, plan)
}

/// A part of attention's `[batch, heads, ..]` tensors that one pass of the forward or
/// backward computation works on: each span is (first, count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    /// The batch entries.
    pub batches: (usize, usize),
    /// The heads of each of them.
    pub heads: (usize, usize),
}

impl Chunk {
    /// This chunk of `t` (`[batch, heads, ..]`): `t` itself when it is all of it, else a
    /// slice (a view where the slice's offsets are aligned as burn-cubecl's `slice` asks,
    /// otherwise a copy: [`chunks`] says why whole batch entries come first).
    fn of<B: Backend>(self, t: &Tensor<B, 4>) -> Tensor<B, 4> {
        let [batch, heads, _, _] = t.dims();
        let mut part = t.clone();
        if self.batches != (0, batch) {
            part = part.narrow(0, self.batches.0, self.batches.1);
        }
        if self.heads != (0, heads) {
            part = part.narrow(1, self.heads.0, self.heads.1);
        }
        part
    }
}

/// The variable choosing how the scores are chunked: `entries` (the default: [`chunks`])
/// or `heads` (every batch entry at once, the heads in groups small enough: the only way
/// before 2026-12-06, kept to measure against).
pub const CHUNKS_ENV: &str = "OOMLAB_ATTENTION_CHUNKS";

/// What `OOMLAB_ATTENTION_CHUNKS` asks for (read once): `Some(true)` for `entries`,
/// `Some(false)` for `heads`, `None` otherwise.
fn chunks_setting() -> Option<bool> {
    static SETTING: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    crate::model::env_setting(&SETTING, CHUNKS_ENV, "entries", "heads")
}

/// The chunks, in order, that cover `[batch, heads, seq_len, seq_len]` scores with one f32
/// tensor of each within [`CHUNK_BYTES`]: a few batch entries with all their heads where
/// one entry's scores fit, else one entry at a time, its heads in groups (at least one).
/// `OOMLAB_ATTENTION_CHUNKS=heads` ([`CHUNKS_ENV`]) takes every entry at once, the heads
/// in groups, as before.
///
/// Whole entries first because a slice along the batch is a view: its offsets are whole
/// entries of Q, K, V and dO, which meet the 512-byte alignment burn-cubecl's `slice`
/// needs to give a view (cubecl-cuda's memory alignment). A group of heads starts
/// `head·head_dim` elements into a row, which for bf16's 64-wide heads misses it, so each
/// group was copied: on an H100 the `h200` config's bf16 profile
/// (docs/results/2026-12-06-h100-bf16-kernels/profile-bf16) spent 49.6 ms of a 552 ms step
/// in 896 `SliceKernel` launches, 2 heads at a time, 8 groups in each of 16 layers.
pub fn chunks(batch: usize, heads: usize, seq_len: usize) -> Vec<Chunk> {
    chunks_by(batch, heads, seq_len, chunks_setting() != Some(false))
}

/// [`chunks`], by whole entries where they fit (`entries`) or by groups of heads.
fn chunks_by(batch: usize, heads: usize, seq_len: usize, entries: bool) -> Vec<Chunk> {
    if !entries {
        let per_head = (batch * seq_len * seq_len * 4).max(1);
        return tile(batch, batch, heads, CHUNK_BYTES / per_head);
    }
    let per_head = (seq_len * seq_len * 4).max(1);
    let per_entry = per_head * heads.max(1);
    let (rows, group) = if per_entry <= CHUNK_BYTES {
        (CHUNK_BYTES / per_entry, heads)
    } else {
        (1, CHUNK_BYTES / per_head)
    };
    tile(batch, rows, heads, group)
}

/// Chunks of at most `rows` batch entries and `group` heads (at least one of each) that
/// cover `[batch, heads, ..]`, entry after entry.
fn tile(batch: usize, rows: usize, heads: usize, group: usize) -> Vec<Chunk> {
    spans(batch, rows)
        .flat_map(|batches| spans(heads, group).map(move |heads| Chunk { batches, heads }))
        .collect()
}

/// Spans of at most `size` (at least one) that cover `0..len`: (first, count).
fn spans(len: usize, size: usize) -> impl Iterator<Item = (usize, usize)> + Clone {
    let size = size.clamp(1, len.max(1));
    (0..len)
        .step_by(size)
        .map(move |start| (start, size.min(len - start)))
}

/// The chunks' results (`[count, heads, seq, head_dim]` each, `plan`'s order) back in one
/// `[batch, heads, seq, head_dim]` tensor. Each is joined as its `[count, seq, heads,
/// head_dim]` view, so the result is stored as `[batch, seq, heads, head_dim]`, the
/// layout the model turns into `[batch, seq, d_model]` with no copy (the products write
/// their parts that way on CUDA: super::super's batched module, `Rows::Tokens`). One chunk
/// is returned as it is.
fn join<B: Backend>(parts: Vec<Tensor<B, 4>>, plan: &[Chunk]) -> Tensor<B, 4> {
    if parts.len() == 1 {
        return cat(parts, 0);
    }
    let (mut entries, mut heads) = (Vec::new(), Vec::new());
    for (i, (chunk, part)) in plan.iter().zip(parts).enumerate() {
        heads.push(part.swap_dims(1, 2));
        if plan
            .get(i + 1)
            .is_none_or(|next| next.batches != chunk.batches)
        {
            entries.push(cat(std::mem::take(&mut heads), 2));
        }
    }
    cat(entries, 0).swap_dims(1, 2)
}

/// `parts` joined along `dim` (the one part itself when there is one).
fn cat<B: Backend>(mut parts: Vec<Tensor<B, 4>>, dim: usize) -> Tensor<B, 4> {
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        Tensor::cat(parts, dim)
    }
}

/// P = softmax(QKᵀ/√d + causal mask), computed in f32, stored in `out`: on the backend's
/// softmax kernel where [`SoftmaxBackend::softmax_on_kernels`] says so for the inputs'
/// dtype (it scales and casts as it reads the product), else as tensor operations.
///
/// # Shapes
/// - q, k: `[batch, heads, seq_len, head_dim]`
/// - output: `[batch, heads, seq_len, seq_len]`
fn probabilities<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    out: DType,
) -> Tensor<B, 4> {
    let [batch, heads, seq_len, head_dim] = q.dims();
    if B::softmax_on_kernels(q.dtype()) {
        let scores = batched(q, k.swap_dims(2, 3), Rows::Heads);
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
                let (dq, dk, dv) = causal_attention_backward(q, k, v, g);
                grads.register::<B>(node.id, pack([dq, dk, dv]).into_primitive().tensor());
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

/// Gradients of causal attention with respect to Q, K and V, recomputing the scores a
/// chunk at a time ([`chunks`]). Scores, softmax and its gradient are in f32; the products
/// with Q, K, V and dO run in their dtype.
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
    backward_in_chunks(q, k, v, grad_out, &chunks(batch, heads, seq_len))
}

/// [`causal_attention_backward`], a chunk of `plan` at a time.
fn backward_in_chunks<B: ProductBackend + SoftmaxBackend>(
    q: Tensor<B, 4>,
    k: Tensor<B, 4>,
    v: Tensor<B, 4>,
    grad_out: Tensor<B, 4>,
    plan: &[Chunk],
) -> (Tensor<B, 4>, Tensor<B, 4>, Tensor<B, 4>) {
    let head_dim = q.dims()[3];
    let dtype = q.dtype();
    let s = scale(head_dim);
    let (mut dqs, mut dks, mut dvs) = (Vec::new(), Vec::new(), Vec::new());
    for &c in plan {
        let (qc, kc, vc, gc) = (c.of(&q), c.of(&k), c.of(&v), c.of(&grad_out));
        let p = probabilities(qc.clone(), kc.clone(), DType::F32);
        dvs.push(batched(
            in_dtype(p.clone(), dtype).swap_dims(2, 3),
            gc.clone(),
            Rows::Tokens,
        ));
        let dp = batched(gc, vc.swap_dims(2, 3), Rows::Heads);
        let ds = softmax_grad(p, dp, s, dtype);
        dqs.push(batched(ds.clone(), kc, Rows::Tokens));
        dks.push(batched(ds.swap_dims(2, 3), qc, Rows::Tokens));
    }
    (join(dqs, plan), join(dks, plan), join(dvs, plan))
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
            let [batch, heads, _, _] = shape;
            for (rows, group) in [(batch, heads), (batch, 1), (batch, 2), (1, heads), (1, 2)] {
                let plan = tile(batch, rows, heads, group);
                let written = forward_in_chunks(q.clone(), k.clone(), v.clone(), &plan);
                let r = relative(written, fused.clone());
                assert!(
                    r <= 1e-5,
                    "{shape:?}, {rows} entries and {group} heads at a time: relative difference {r:e}"
                );
            }
        }
    }

    #[test]
    fn chunks_give_the_same_outputs_and_gradients_as_all_at_once() {
        let [q, k, v, g] = inputs([3, 4, 24, 8], 7).map(|t| t.inner());
        let whole = tile(3, 3, 4, 4);
        let all = backward_in_chunks(q.clone(), k.clone(), v.clone(), g.clone(), &whole);
        let out = forward_in_chunks(q.clone(), k.clone(), v.clone(), &whole);
        // Heads in groups; entries one or two at a time; both, with uneven ends.
        for (rows, group) in [(3, 1), (3, 3), (1, 4), (2, 4), (2, 3)] {
            let plan = tile(3, rows, 4, group);
            let got = backward_in_chunks(q.clone(), k.clone(), v.clone(), g.clone(), &plan);
            for (name, (a, b)) in ["dQ", "dK", "dV"].iter().zip(
                [all.0.clone(), all.1.clone(), all.2.clone()]
                    .into_iter()
                    .zip([got.0, got.1, got.2]),
            ) {
                let r = relative(b, a);
                assert!(r <= 1e-6, "{rows} entries, {group} heads: {name} {r:e}");
            }
            let o = forward_in_chunks(q.clone(), k.clone(), v.clone(), &plan);
            let r = relative(o, out.clone());
            assert!(r <= 1e-6, "{rows} entries, {group} heads: out {r:e}");
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
    fn chunks_are_bounded_cover_everything_and_prefer_whole_entries() {
        let all = |batch, heads| Chunk {
            batches: (0, batch),
            heads: (0, heads),
        };
        // gpu config: 8 heads x 256 x 256 x 4 B = 2 MiB an entry, 128 MiB in all: one chunk.
        assert_eq!(chunks_by(64, 8, 256, true), vec![all(64, 8)]);
        // h200 config: 16 x 512 x 512 x 4 B = 16 MiB an entry: 16 entries at a time.
        let h200 = chunks_by(128, 16, 512, true);
        assert_eq!(h200.len(), 8);
        assert!(h200
            .iter()
            .enumerate()
            .all(|(i, c)| c.batches == (16 * i, 16) && c.heads == (0, 16)));
        // An uneven end.
        assert_eq!(
            chunks_by(20, 16, 512, true).last().map(|c| c.batches),
            Some((16, 4))
        );
        // An entry over the bound (16 heads x 4096 x 4096 x 4 B = 1 GiB, 64 MiB a head): one
        // entry at a time, its heads 4 at a time; one head over the bound still runs.
        let long = chunks_by(2, 16, 4096, true);
        assert_eq!(long.len(), 2 * 4);
        assert!(long.iter().all(|c| c.batches.1 == 1 && c.heads.1 == 4));
        assert_eq!(long[5].batches, (1, 1));
        assert_eq!(long[5].heads, (4, 4));
        assert!(chunks_by(1, 16, 16384, true).iter().all(|c| c.heads.1 == 1));
        // Every chunk within the bound, the chunks covering every (entry, head) once.
        for (batch, heads, seq) in [(64, 8, 256), (128, 16, 512), (3, 5, 3000), (7, 3, 100)] {
            let plan = chunks_by(batch, heads, seq, true);
            let mut seen = vec![0; batch * heads];
            for c in &plan {
                let scores = c.batches.1 * c.heads.1 * seq * seq * 4;
                assert!(scores <= CHUNK_BYTES || c.batches.1 * c.heads.1 == 1);
                for b in c.batches.0..c.batches.0 + c.batches.1 {
                    for h in c.heads.0..c.heads.0 + c.heads.1 {
                        seen[b * heads + h] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{batch} {heads} {seq}");
        }
        // OOMLAB_ATTENTION_CHUNKS=heads: every entry at once, the h200 config's heads two
        // at a time, as before.
        let heads = chunks_by(128, 16, 512, false);
        assert_eq!(heads.len(), 8);
        assert!(heads
            .iter()
            .enumerate()
            .all(|(i, c)| c.batches == (0, 128) && c.heads == (2 * i, 2)));
        assert_eq!(chunks_by(64, 8, 256, false), vec![all(64, 8)]);
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

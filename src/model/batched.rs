//! Attention's batched matrix products (`[batch, heads, rows, k]`·`[batch, heads, k,
//! cols]`) as a backend choice: on CUDA cuBLAS's strided batched calls by default
//! (`kernels.attention_products=burn` turns them off, `=cublas` on), elsewhere burn's
//! matmul (issue 29).
//!
//! Measured on an H100 (docs/results/2026-12-05-h100-attention-products: aff6af9's paired
//! rows, one repeat, and its kernel profile; 2ca240c's 100-step runs on another H100):
//! the `gpu` config's f32 step 0.898x the one on burn's matmul (58.0 against 64.6 ms,
//! 1.91x PyTorch TF32 SDPA where it was 2.12x), AMP bf16 0.934x; the final losses and the
//! NVML peaks the same (the losses bit for bit: at these shapes cuBLAS gave cubecl's bits);
//! per profiled f32 step 24 copy launches instead of 88 and 11.3 ms less kernel time.
//!
//! Why: burn's matmul copies each view that is not packed (the heads view of the linear
//! layers' `[batch, seq, d_model]` outputs, a transpose of the last two dimensions) into a
//! contiguous tensor, and the gradients dQ, dK and dV are copied again when the model
//! turns them back into `[batch, seq, d_model]`. The committed f32 profile of the gpu
//! config on an H100 (docs/results/2026-12-05-h100-attention-forward-head) spends
//! 8.65 ms of a steady step in 88 `CopyKernel` launches, next to 6.75 ms in cubecl's
//! products. cuBLAS reads such views through leading dimensions and batch strides
//! (crate::device's strided_batch module), and writes dQ, dK and dV straight into
//! `[batch, seq, heads, head_dim]` storage ([`Rows::Tokens`]).
//!
//! Off (the default, and always on the CPU), [`batched`] is `a.matmul(b)`: the same
//! operations as before this module existed.

use burn::prelude::*;
use burn::tensor::{DType, TensorPrimitive};

use oomlab_kernels::ops::{narrow_heads, Operand, Place, ProductBackend, Rows, Span};

/// What `kernels.attention_heads` asks for (read once): `Some(true)` for `offset`,
/// `Some(false)` for `slice`, `None` otherwise.
fn heads_setting() -> Option<bool> {
    oomlab_kernels::chosen().attention_heads
}

impl<B: Backend> Heads<B> {
    /// The tensor and the first head the library reads: with `kernels.attention_heads=slice`
    /// the heads sliced, starting at 0.
    fn for_library(self) -> (Tensor<B, 4>, usize) {
        if heads_setting() == Some(false) {
            (self.sliced(), 0)
        } else {
            (self.tensor, self.start)
        }
    }
}

/// Heads `start..start + count` of a `[d0, heads, rows, cols]` tensor as an operand of
/// [`batched`] and [`scaled_scores`]: the backend's library reads them where they sit (a
/// pointer offset into the whole tensor), burn's matmul gets them sliced.
///
/// Why: burn-cubecl's `slice` gives a view only where the slice starts and ends on
/// cubecl-cuda's 512-byte alignment; a group of heads starts `head·head_dim` elements into
/// each row, and a group of two bf16 heads of 64 (256 bytes) starts or ends off it, so
/// every group was copied. On an H100 the `h200` config's AMP bf16 profile
/// (docs/results/2026-12-06-h100-bf16-kernels/profile-bf16) spent 49.6 ms of a 552 ms
/// step in 896 `SliceKernel` launches: Q, K, V and dO, 2 heads at a time, 8 groups in each
/// of 16 layers. Slicing along the batch instead (whole entries, aligned, so views) left
/// cuBLAS one call per head where it had one per group, and the step longer
/// (docs/results/2026-12-06-h100-bf16-levers/h200-39652be).
#[derive(Debug, Clone)]
pub struct Heads<B: Backend> {
    tensor: Tensor<B, 4>,
    start: usize,
    count: usize,
}

impl<B: Backend> Heads<B> {
    /// Heads `start..start + count` of `tensor` (`[d0, heads, rows, cols]`).
    pub fn of(tensor: &Tensor<B, 4>, start: usize, count: usize) -> Self {
        Heads {
            tensor: tensor.clone(),
            start,
            count,
        }
    }

    /// The same heads of the tensor with its last two dimensions swapped.
    pub fn transposed(self) -> Self {
        Heads {
            tensor: self.tensor.swap_dims(2, 3),
            ..self
        }
    }

    /// The dimensions of the heads taken: the tensor's, `count` heads.
    pub fn dims(&self) -> [usize; 4] {
        let [d0, _, rows, cols] = self.tensor.dims();
        [d0, self.count, rows, cols]
    }

    /// The tensor's dtype.
    pub fn dtype(&self) -> DType {
        self.tensor.dtype()
    }

    /// The tensor's device.
    pub fn device(&self) -> B::Device {
        self.tensor.device()
    }

    /// The heads as a tensor of their own: the tensor itself when they are all of it,
    /// else a slice (a copy unless burn-cubecl can give a view).
    pub fn sliced(self) -> Tensor<B, 4> {
        narrow_heads(self.tensor, self.start, self.count)
    }
}

impl<B: Backend> From<Tensor<B, 4>> for Heads<B> {
    /// Every head of `tensor`.
    fn from(tensor: Tensor<B, 4>) -> Self {
        let count = tensor.dims()[1];
        Heads {
            tensor,
            start: 0,
            count,
        }
    }
}

/// Products of groups of heads gathered as the heads of one `[d0, heads, m, n]` tensor
/// stored as `[d0, m, heads, n]` (attention's output and its dQ, dK and dV, which the
/// model then turns into `[batch, seq, d_model]` with no copy: joined as contiguous
/// `[batch, heads, seq, head_dim]`, the model's reshape copied them, on an H100 66
/// `CopyKernel` launches and 23.1 ms of the `h200` config's AMP bf16 step,
/// docs/results/2026-12-06-h100-bf16-kernels/profile-bf16). Where the batched products
/// run on the backend's library each is written into its heads of one buffer
/// ([`ProductBackend::batched_product_into`]); elsewhere, or with
/// `kernels.attention_join=cat`, each is a tensor of its own and [`Joined::finish`] joins
/// them (burn's `cat`, as before 2026-12-06).
///
/// Why: on an H100 the `h200` config's AMP bf16 profile spent 20.6 ms of a 443.6 ms kernel
/// step in 514 `SliceAssignKernel` launches, the join of 8 groups of heads for the output
/// and for each of dQ, dK and dV in each of 16 layers
/// (docs/results/2026-12-06-h100-bf16-levers/offsets-53f15b4/profile.md); every group's
/// result was also held twice, as its own tensor and in the joined one.
///
/// Measured on an H100 (docs/results/2026-12-06-h100-in-place-join, `h200-298fc73/`, one
/// script run, 2 runs each): the `h200` config's AMP bf16 step 378.3 ms against 389.7 with
/// `kernels.attention_join=cat`, 2 `SliceAssignKernel` launches per step instead of 514,
/// the final loss after 20 steps the same (2.746436); the NVML peak 38.74 GiB against
/// 38.61 (each whole buffer exists from the first group on).
#[derive(Debug)]
pub struct Joined<B: Backend> {
    heads: usize,
    covered: usize,
    whole: Option<Tensor<B, 4>>,
    parts: Vec<(usize, Tensor<B, 4>)>,
}

impl<B: ProductBackend> Joined<B> {
    /// An empty join of `heads` heads.
    pub fn new(heads: usize) -> Self {
        Joined {
            heads,
            covered: 0,
            whole: None,
            parts: Vec::new(),
        }
    }

    /// a·b (the heads taken of each) as heads `at..` of the joined tensor.
    pub fn product(&mut self, a: impl Into<Heads<B>>, b: impl Into<Heads<B>>, at: usize) {
        let (a, b) = (a.into(), b.into());
        assert_eq!(a.count, b.count, "a batched product of unequal head counts");
        self.cover(at, a.count);
        if Self::in_place(a.dtype()) {
            let (a, b, span) = library_operands(a, b);
            let place = self.place(at);
            let whole = self.whole.take().map(|w| w.into_primitive().tensor());
            self.whole = Some(Tensor::from_primitive(TensorPrimitive::Float(
                B::batched_product_into(
                    a.into_primitive().tensor(),
                    b.into_primitive().tensor(),
                    span,
                    1.0,
                    whole,
                    place,
                ),
            )));
        } else {
            self.parts.push((at, batched(a, b, Rows::Tokens)));
        }
    }

    /// Whether a product of `dtype` is written into the whole on the backend's library.
    fn in_place(dtype: DType) -> bool {
        B::batched_on_library(dtype) && join_setting() != Some(false)
    }

    /// Whether two products of these dtypes go to the backend as one pair: both written
    /// in place on its library and pairs asked for
    /// ([`attention_pairs_together`](super::attention_pairs_together)).
    fn paired(first: DType, second: DType) -> bool {
        Self::in_place(first) && Self::in_place(second) && super::attention_pairs_together::<B>()
    }

    /// Counts `count` heads from `at` as covered (refusing heads outside the join).
    fn cover(&mut self, at: usize, count: usize) {
        assert!(
            at + count <= self.heads,
            "heads {at}..{} outside a join of {}",
            at + count,
            self.heads
        );
        self.covered += count;
    }

    /// The place of a product written from head `at`.
    fn place(&self, at: usize) -> Place {
        Place {
            heads: self.heads,
            at,
            owned: true,
        }
    }

    /// a·b as heads `at..` of the joined tensor, as [`Self::product`], and c·d as a tensor
    /// of its own stored as `rows`, as [`batched`]: one operation of the backend's where
    /// [`attention_pairs_together`](super::attention_pairs_together) says so and both run
    /// on its library ([`ProductBackend::batched_into_and_new`]), else the two as before.
    /// Returns c·d.
    pub fn product_and(
        &mut self,
        (a, b, at): (impl Into<Heads<B>>, impl Into<Heads<B>>, usize),
        (c, d): (impl Into<Heads<B>>, impl Into<Heads<B>>),
        rows: Rows,
    ) -> Tensor<B, 4> {
        let (a, b, c, d) = (a.into(), b.into(), c.into(), d.into());
        if !Self::paired(a.dtype(), c.dtype()) {
            self.product(a, b, at);
            return batched(c, d, rows);
        }
        self.cover(at, a.count);
        let first = operand(a, b);
        let second = operand(c, d);
        let whole = self.whole.take().map(|w| w.into_primitive().tensor());
        let (whole, new) = B::batched_into_and_new(first, whole, self.place(at), second, rows);
        self.whole = Some(Tensor::from_primitive(TensorPrimitive::Float(whole)));
        Tensor::from_primitive(TensorPrimitive::Float(new))
    }

    /// a·b as heads `at..` and c·d as heads `at2..` of the joined tensor, as two
    /// [`Self::product`]s: one operation of the backend's where [`Self::product_and`]'s
    /// conditions hold ([`ProductBackend::batched_into_twice`]), else the two as before.
    pub fn products(
        &mut self,
        (a, b, at): (impl Into<Heads<B>>, impl Into<Heads<B>>, usize),
        (c, d, at2): (impl Into<Heads<B>>, impl Into<Heads<B>>, usize),
    ) {
        let (a, b, c, d) = (a.into(), b.into(), c.into(), d.into());
        if !Self::paired(a.dtype(), c.dtype()) {
            self.product(a, b, at);
            self.product(c, d, at2);
            return;
        }
        self.cover(at, a.count);
        self.cover(at2, c.count);
        let first = operand(a, b);
        let second = operand(c, d);
        let whole = self.whole.take().map(|w| w.into_primitive().tensor());
        let whole = B::batched_into_twice(first, self.place(at), second, at2, whole);
        self.whole = Some(Tensor::from_primitive(TensorPrimitive::Float(whole)));
    }

    /// The joined tensor, `[d0, heads, m, n]` (stored as `[d0, m, heads, n]` where the
    /// products were written in place or the parts joined; one part is returned as it is).
    pub fn finish(mut self) -> Tensor<B, 4> {
        assert_eq!(
            self.covered, self.heads,
            "a join of {} heads given {}",
            self.heads, self.covered
        );
        if let Some(whole) = self.whole.take() {
            assert!(self.parts.is_empty(), "a join written both ways");
            return whole;
        }
        self.parts.sort_by_key(|(at, _)| *at);
        let mut parts: Vec<Tensor<B, 4>> = self.parts.into_iter().map(|(_, p)| p).collect();
        if parts.len() == 1 {
            parts.remove(0)
        } else {
            let tokens = parts.into_iter().map(|p| p.swap_dims(1, 2)).collect();
            Tensor::cat(tokens, 2).swap_dims(1, 2)
        }
    }
}

/// What `kernels.attention_join` asks for (read once): `Some(true)` for `in-place`,
/// `Some(false)` for `cat`, `None` otherwise.
fn join_setting() -> Option<bool> {
    oomlab_kernels::chosen().attention_join
}

/// a·b for every batch index: the backend's batched product where
/// [`ProductBackend::batched_on_library`] says so for the dtype, else burn's matmul.
/// `rows` is where the output's rows should go; burn's matmul ignores it (its output is
/// contiguous), so only the layout, never the values, depends on it. Either operand may
/// be some heads of a larger tensor ([`Heads`]; a tensor is all of its heads).
///
/// # Shapes
/// - a: `[d0, d1, m, k]`, b: `[d0, d1, k, n]` (`d1` the heads taken of each)
/// - output: `[d0, d1, m, n]`
pub fn batched<B: ProductBackend>(
    a: impl Into<Heads<B>>,
    b: impl Into<Heads<B>>,
    rows: Rows,
) -> Tensor<B, 4> {
    let (a, b) = (a.into(), b.into());
    if B::batched_on_library(a.tensor.dtype()) {
        on_library(a, b, rows, 1.0)
    } else {
        a.sliced().matmul(b.sliced())
    }
}

/// The tensors the backend's library reads for a product of `a`'s and `b`'s heads, and
/// where in them the heads start ([`Heads::for_library`]).
fn library_operands<B: Backend>(a: Heads<B>, b: Heads<B>) -> (Tensor<B, 4>, Tensor<B, 4>, Span) {
    assert_eq!(a.count, b.count, "a batched product of unequal head counts");
    let count = a.count;
    let ((a, a_start), (b, b_start)) = (a.for_library(), b.for_library());
    let span = Span {
        a: a_start,
        b: b_start,
        count,
    };
    (a, b, span)
}

/// The library's operand of a product of `a`'s and `b`'s heads ([`library_operands`]).
fn operand<B: Backend>(a: Heads<B>, b: Heads<B>) -> Operand<B> {
    let (a, b, span) = library_operands(a, b);
    Operand {
        a: a.into_primitive().tensor(),
        b: b.into_primitive().tensor(),
        span,
    }
}

/// alpha·a·b of the heads taken on the backend's library ([`ProductBackend::batched_product`]
/// with the whole tensors and where the heads start, unless `kernels.attention_heads=slice`).
fn on_library<B: ProductBackend>(a: Heads<B>, b: Heads<B>, rows: Rows, alpha: f32) -> Tensor<B, 4> {
    let (a, b, span) = library_operands(a, b);
    Tensor::from_primitive(TensorPrimitive::Float(B::batched_product(
        a.into_primitive().tensor(),
        b.into_primitive().tensor(),
        span,
        rows,
        alpha,
    )))
}

/// softmax's input QKᵀ·`scale` in f32: on the backend's library (where
/// [`ProductBackend::batched_on_library`] says so) with the scale as the product's alpha,
/// one kernel over the `[batch, heads, seq, seq]` scores less; else burn's matmul, cast to
/// f32 and scaled (the operations before this module existed).
///
/// # Shapes
/// - q, k: `[batch, heads, seq_len, head_dim]` (`heads` those taken of each: [`Heads`])
/// - output: `[batch, heads, seq_len, seq_len]`
pub fn scaled_scores<B: ProductBackend>(
    q: impl Into<Heads<B>>,
    k: impl Into<Heads<B>>,
    scale: f64,
) -> Tensor<B, 4> {
    let (q, kt) = (q.into(), k.into().transposed());
    if B::batched_on_library(q.tensor.dtype()) {
        super::in_f32(on_library(q, kt, Rows::Heads, scale as f32))
    } else {
        super::in_f32(q.sliced().matmul(kt.sliced())).mul_scalar(scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use burn::tensor::Distribution;

    /// The CPU's backend under autodiff, where the product backends sit.
    type B = <CpuBackend as burn::tensor::backend::AutodiffBackend>::InnerBackend;

    #[test]
    fn off_the_library_it_is_burns_matmul_bit_for_bit() {
        let device = Default::default();
        let a = Tensor::<B, 4>::random([2, 3, 4, 5], Distribution::Default, &device);
        let b = Tensor::<B, 4>::random([2, 3, 6, 5], Distribution::Default, &device);
        assert!(!<B as ProductBackend>::batched_on_library(a.dtype()));
        let burns = a.clone().matmul(b.clone().swap_dims(2, 3)).into_data();
        for rows in [Rows::Heads, Rows::Tokens] {
            let ours = batched(a.clone(), b.clone().swap_dims(2, 3), rows);
            assert_eq!(ours.into_data(), burns, "{rows:?}");
            // The backend's own batched product, which the CPU has from the trait's
            // default: the same values whatever the layout asked.
            let own = <B as ProductBackend>::batched_product(
                a.clone().into_primitive().tensor(),
                b.clone().swap_dims(2, 3).into_primitive().tensor(),
                Span::all(3),
                rows,
                1.0,
            );
            let own = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(own));
            assert_eq!(own.into_data(), burns, "{rows:?}");
        }
        // A factor other than 1 scales burn's product after it.
        let half = <B as ProductBackend>::batched_product(
            a.clone().into_primitive().tensor(),
            b.clone().swap_dims(2, 3).into_primitive().tensor(),
            Span::all(3),
            Rows::Heads,
            0.5,
        );
        let half = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(half));
        let scaled = a.clone().matmul(b.clone().swap_dims(2, 3)).mul_scalar(0.5);
        assert_eq!(half.into_data(), scaled.into_data());
        // The scores: cast to f32 after the product, scaled after the cast.
        let scores = scaled_scores(a.clone(), b.clone(), 0.125);
        let before = super::super::in_f32(a.matmul(b.swap_dims(2, 3))).mul_scalar(0.125);
        assert_eq!(scores.into_data(), before.into_data());
    }

    #[test]
    fn groups_written_into_their_heads_make_the_whole_product() {
        let device = Default::default();
        let a = Tensor::<B, 4>::random([2, 5, 4, 3], Distribution::Default, &device);
        let b = Tensor::<B, 4>::random([2, 5, 3, 6], Distribution::Default, &device);
        let want = a.clone().matmul(b.clone()).into_data();
        let tolerance = burn::tensor::Tolerance::<f32>::default();
        // The backend's own (on the CPU the trait's default: the product, then
        // slice_assign), the groups in either order.
        for groups in [[(0, 2), (2, 3)], [(2, 3), (0, 2)]] {
            let mut whole = None;
            for (start, count) in groups {
                let span = Span {
                    a: start,
                    b: start,
                    count,
                };
                let place = Place {
                    heads: 5,
                    at: start,
                    owned: true,
                };
                whole = Some(<B as ProductBackend>::batched_product_into(
                    a.clone().into_primitive().tensor(),
                    b.clone().into_primitive().tensor(),
                    span,
                    1.0,
                    whole,
                    place,
                ));
            }
            let whole = whole.map(|w| Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(w)));
            let got = whole.expect("two groups").into_data();
            got.assert_approx_eq::<f32>(&want, tolerance);
            // Joined: off the library, tensors of their own joined in the heads' order.
            let mut joined = Joined::new(5);
            for (start, count) in groups {
                joined.product(
                    Heads::of(&a, start, count),
                    Heads::of(&b, start, count),
                    start,
                );
            }
            joined
                .finish()
                .into_data()
                .assert_approx_eq::<f32>(&want, tolerance);
        }
    }

    #[test]
    #[should_panic(expected = "a join of 5 heads given 2")]
    fn a_join_missing_heads_is_refused() {
        let device = Default::default();
        let a = Tensor::<B, 4>::random([2, 5, 4, 3], Distribution::Default, &device);
        let mut joined = Joined::new(5);
        joined.product(
            Heads::of(&a, 0, 2),
            Heads::of(&a.clone().swap_dims(2, 3), 0, 2),
            0,
        );
        let _ = joined.finish();
    }

    #[test]
    fn heads_of_a_tensor_multiply_as_their_slices() {
        let device = Default::default();
        let a = Tensor::<B, 4>::random([2, 5, 4, 3], Distribution::Default, &device);
        let b = Tensor::<B, 4>::random([2, 6, 3, 4], Distribution::Default, &device);
        // Heads 1..4 of a with heads 2..5 of b, every way in.
        let want = a
            .clone()
            .narrow(1, 1, 3)
            .matmul(b.clone().narrow(1, 2, 3))
            .into_data();
        let got = batched(Heads::of(&a, 1, 3), Heads::of(&b, 2, 3), Rows::Tokens);
        assert_eq!(got.into_data(), want);
        let own = <B as ProductBackend>::batched_product(
            a.clone().into_primitive().tensor(),
            b.clone().into_primitive().tensor(),
            Span {
                a: 1,
                b: 2,
                count: 3,
            },
            Rows::Heads,
            1.0,
        );
        let own = Tensor::<B, 4>::from_primitive(TensorPrimitive::Float(own));
        assert_eq!(own.into_data(), want);
        // The scores of some heads: k's heads transposed inside.
        let k = b.swap_dims(2, 3);
        let scores = scaled_scores(Heads::of(&a, 1, 3), Heads::of(&k, 2, 3), 0.5);
        let before =
            super::super::in_f32(a.narrow(1, 1, 3).matmul(k.narrow(1, 2, 3).swap_dims(2, 3)))
                .mul_scalar(0.5);
        assert_eq!(scores.into_data(), before.into_data());
    }
}

//! A batched row-major product of two 4-D tensors, views included, as cuBLAS's strided
//! batched calls (`cublasGemmStridedBatchedEx`), for attention's products (issue 29).
//!
//! burn's matmul copies a view whose batch dimensions are not packed (the heads of
//! `[batch, seq, heads, head_dim]` seen as `[batch, heads, seq, head_dim]`, or a transpose
//! of the last two dimensions) into a contiguous tensor first: the `CopyKernel`s of the
//! committed step profiles. cuBLAS reads each matrix through a leading dimension and each
//! batch through one stride, so such a view needs no copy: batch along one of the two
//! batch dimensions, one call per index of the other.
//!
//! The mapping to column-major is super::column_major's: a row-major X with row stride s
//! is the column-major Xᵀ with leading dimension s, so out = a·b is outᵀ = bᵀ·aᵀ, the call's
//! first operand b, its second a. A matrix stored by columns (a transposed view) is the
//! column-major matrix itself, taken transposed.
//!
//! Pure arithmetic on shapes and strides: tested on the host against a loop that reads the
//! same buffers the way cuBLAS documents it does.

/// A 4-D tensor's shape and strides, in elements: `[d0, d1, rows, cols]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Layout {
    /// `[d0, d1, rows, cols]`.
    pub shape: [usize; 4],
    /// Elements between neighbours along each dimension.
    pub strides: [usize; 4],
}

/// How a layout's matrices sit in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Storage {
    /// Row after row, `ld` elements apart.
    Rows { ld: usize },
    /// Column after column, `ld` elements apart (a transposed view).
    Columns { ld: usize },
}

impl Layout {
    /// How its matrices are stored, if cuBLAS can read them as they are: by rows or by
    /// columns, the leading dimension at least the row (column) length. A dimension of one
    /// puts no condition on its stride.
    fn storage(&self) -> Option<Storage> {
        let [_, _, rows, cols] = self.shape;
        let [_, _, s_row, s_col] = self.strides;
        if (cols == 1 || s_col == 1) && (rows == 1 || s_row >= cols) {
            let ld = if rows == 1 { cols } else { s_row };
            return Some(Storage::Rows { ld: ld.max(1) });
        }
        if (rows == 1 || s_row == 1) && (cols == 1 || s_col >= rows) {
            let ld = if cols == 1 { rows } else { s_col };
            return Some(Storage::Columns { ld: ld.max(1) });
        }
        None
    }

    /// Whether cuBLAS can read its matrices as they are (else it needs a contiguous copy).
    pub(super) fn readable(&self) -> bool {
        self.storage().is_some()
    }
}

/// One operand of a call: where its first matrix starts (elements from the tensor's
/// start), its leading dimension and the elements between consecutive batch entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operand {
    /// Elements from the tensor's first element to the call's first matrix.
    pub offset: usize,
    /// The column-major leading dimension.
    pub ld: usize,
    /// Elements between consecutive matrices of the batch.
    pub stride: usize,
}

/// One strided batched call, in cuBLAS's column-major terms: `batch` times
/// C = op(first)·op(second), C `rows x cols`, the inner dimension `inner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StridedCall {
    /// Whether the call transposes its first operand (b) and its second (a).
    pub transposed: (bool, bool),
    /// The output's column-major rows (out's columns, n).
    pub rows: usize,
    /// The output's column-major columns (out's rows, m).
    pub cols: usize,
    /// The inner dimension (k).
    pub inner: usize,
    /// b.
    pub first: Operand,
    /// a.
    pub second: Operand,
    /// out.
    pub output: Operand,
    /// How many products.
    pub batch: usize,
}

/// The calls computing out = a·b for every batch index: a `[d0, d1, m, k]`, b
/// `[d0, d1, k, n]`, out `[d0, d1, m, n]`, each with its own strides. `None` when the
/// shapes do not match, an operand's matrices are neither rows nor columns with a leading
/// dimension ([`Layout::readable`]), or the output's are not rows.
///
/// The batch runs along the longer batch dimension, one call per index of the other.
pub(super) fn plan(a: &Layout, b: &Layout, out: &Layout) -> Option<Vec<StridedCall>> {
    let [d0, d1, m, k] = a.shape;
    let n = b.shape[3];
    if b.shape != [d0, d1, k, n] || out.shape != [d0, d1, m, n] {
        return None;
    }
    let (sa, sb) = (a.storage()?, b.storage()?);
    let Storage::Rows { ld: ldc } = out.storage()? else {
        return None;
    };
    // The call's first operand is b: stored by rows it is bᵀ column-major (op N), by
    // columns b itself (op T). The same for a, its second.
    let matrix = |s: Storage| match s {
        Storage::Rows { ld } => (false, ld),
        Storage::Columns { ld } => (true, ld),
    };
    let ((t_first, ld_first), (t_second, ld_second)) = (matrix(sb), matrix(sa));
    // Batch along the longer dimension (fewer calls), one call per index of the other.
    let (along, across) = if d0 >= d1 { (0, 1) } else { (1, 0) };
    let calls = (0..a.shape[across])
        .map(|i| StridedCall {
            transposed: (t_first, t_second),
            rows: n,
            cols: m,
            inner: k,
            first: Operand {
                offset: i * b.strides[across],
                ld: ld_first,
                stride: b.strides[along],
            },
            second: Operand {
                offset: i * a.strides[across],
                ld: ld_second,
                stride: a.strides[along],
            },
            output: Operand {
                offset: i * out.strides[across],
                ld: ldc,
                stride: out.strides[along],
            },
            batch: a.shape[along],
        })
        .collect();
    Some(calls)
}

/// `calls` with a's first matrix `a_at` elements, b's `b_at` and the output's `out_at`
/// further into their buffers: a plan made for some heads of a tensor ([`plan`] of a
/// layout whose first head is `at` elements in), read from (written to) the whole
/// tensor's address.
pub(super) fn starting_at(
    mut calls: Vec<StridedCall>,
    a_at: usize,
    b_at: usize,
    out_at: usize,
) -> Vec<StridedCall> {
    for call in &mut calls {
        // The call's first operand is b, its second a.
        call.first.offset += b_at;
        call.second.offset += a_at;
        call.output.offset += out_at;
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the calls the way cuBLAS documents them: column-major, C = op(A)·op(B), A the
    /// first operand (b's buffer), B the second (a's).
    fn run_on_host(calls: &[StridedCall], a: &[f64], b: &[f64], c: &mut [f64]) {
        for call in calls {
            for batch in 0..call.batch {
                let fa = call.first.offset + batch * call.first.stride;
                let fb = call.second.offset + batch * call.second.stride;
                let fc = call.output.offset + batch * call.output.stride;
                for r in 0..call.rows {
                    for col in 0..call.cols {
                        let mut sum = 0.0;
                        for p in 0..call.inner {
                            let x = if call.transposed.0 {
                                b[fa + p + r * call.first.ld]
                            } else {
                                b[fa + r + p * call.first.ld]
                            };
                            let y = if call.transposed.1 {
                                a[fb + col + p * call.second.ld]
                            } else {
                                a[fb + p + col * call.second.ld]
                            };
                            sum += x * y;
                        }
                        c[fc + r + col * call.output.ld] = sum;
                    }
                }
            }
        }
    }

    fn at(buf: &[f64], l: &Layout, i: [usize; 4]) -> f64 {
        buf[(0..4).map(|d| i[d] * l.strides[d]).sum::<usize>()]
    }

    /// Distinct values, so a wrong index shows.
    fn buffer(len: usize, seed: u64) -> Vec<f64> {
        (0..len as u64)
            .map(|i| ((i * 7919 + seed * 104729) % 1009) as f64 / 1009.0 - 0.5)
            .collect()
    }

    fn span(l: &Layout) -> usize {
        1 + (0..4)
            .map(|d| (l.shape[d] - 1) * l.strides[d])
            .sum::<usize>()
    }

    /// a·b through the plan, checked entry by entry against the product of the logical
    /// tensors read through their strides.
    fn agrees(a: Layout, b: Layout, out: Layout) {
        agrees_from(0, a, b, out);
    }

    /// [`agrees`] with a's and b's first elements `start` elements into their buffers
    /// (the addresses cubecl gives for a view that starts inside its buffer).
    fn agrees_from(start: usize, a: Layout, b: Layout, out: Layout) {
        let calls = plan(&a, &b, &out).expect("a plan");
        let (ba, bb) = (buffer(start + span(&a), 1), buffer(start + span(&b), 2));
        runs_as_the_product(&calls, (&ba[start..], 0, a), (&bb[start..], 0, b), (0, out));
    }

    /// Runs `calls` on the buffers and checks each entry of the output against the product
    /// of the logical tensors `a` and `b`, whose first elements are `a_at` and `b_at`
    /// elements into their buffers, the output's `out_at` into its own; and that nothing
    /// else of the output's buffer was written.
    fn runs_as_the_product(
        calls: &[StridedCall],
        (ba, a_at, a): (&[f64], usize, Layout),
        (bb, b_at, b): (&[f64], usize, Layout),
        (out_at, out): (usize, Layout),
    ) {
        let mut whole = vec![f64::NAN; out_at + span(&out) + out_at];
        run_on_host(calls, ba, bb, &mut whole);
        let written = whole.iter().filter(|x| !x.is_nan()).count();
        assert_eq!(
            written,
            out.shape.iter().product::<usize>(),
            "entries written"
        );
        let bc = &whole[out_at..];
        let [d0, d1, m, k] = a.shape;
        let n = b.shape[3];
        for i in 0..d0 {
            for j in 0..d1 {
                for r in 0..m {
                    for c in 0..n {
                        let want: f64 = (0..k)
                            .map(|p| {
                                at(&ba[a_at..], &a, [i, j, r, p])
                                    * at(&bb[b_at..], &b, [i, j, p, c])
                            })
                            .sum();
                        let got = at(bc, &out, [i, j, r, c]);
                        assert!((got - want).abs() < 1e-12, "[{i},{j},{r},{c}]");
                    }
                }
            }
        }
    }

    impl Layout {
        /// A contiguous row-major tensor of `shape`.
        fn contiguous(shape: [usize; 4]) -> Layout {
            let [_, d1, rows, cols] = shape;
            Layout {
                shape,
                strides: [d1 * rows * cols, rows * cols, cols, 1],
            }
        }
    }

    /// `[b, t, h, d]` storage seen as `[b, h, t, d]` (attention's Q, K, V after the
    /// linear layers).
    fn heads_view(b: usize, t: usize, h: usize, d: usize) -> Layout {
        Layout {
            shape: [b, h, t, d],
            strides: [t * h * d, d, h * d, 1],
        }
    }

    /// The last two dimensions swapped (a view).
    fn transposed(l: Layout) -> Layout {
        let [d0, d1, r, c] = l.shape;
        let [s0, s1, sr, sc] = l.strides;
        Layout {
            shape: [d0, d1, c, r],
            strides: [s0, s1, sc, sr],
        }
    }

    #[test]
    fn contiguous_tensors_multiply_as_burns_matmul() {
        let (b, h, t, d) = (3, 2, 5, 4);
        agrees(
            Layout::contiguous([b, h, t, d]),
            Layout::contiguous([b, h, d, t]),
            Layout::contiguous([b, h, t, t]),
        );
    }

    #[test]
    fn attentions_products_read_the_heads_views_without_copies() {
        let (b, h, t, d) = (3, 4, 6, 5);
        let q = heads_view(b, t, h, d);
        let scores = Layout::contiguous([b, h, t, t]);
        // S = Q·Kᵀ; dP = dO·Vᵀ.
        agrees(q, transposed(heads_view(b, t, h, d)), scores);
        // dQ = dS·K, written as [b, t, h, d] storage (the heads view of it).
        agrees(scores, heads_view(b, t, h, d), heads_view(b, t, h, d));
        // dK = dSᵀ·Q, dV = Pᵀ·dO.
        agrees(transposed(scores), q, heads_view(b, t, h, d));
        agrees(transposed(scores), q, Layout::contiguous([b, h, t, d]));
    }

    #[test]
    fn more_heads_than_batch_loops_over_the_batch() {
        let (b, h, t, d) = (2, 5, 3, 4);
        let a = heads_view(b, t, h, d);
        let calls = plan(
            &a,
            &transposed(heads_view(b, t, h, d)),
            &Layout::contiguous([b, h, t, t]),
        )
        .expect("a plan");
        assert_eq!(calls.len(), b);
        assert!(calls.iter().all(|c| c.batch == h));
        agrees(
            a,
            transposed(heads_view(b, t, h, d)),
            Layout::contiguous([b, h, t, t]),
        );
    }

    /// a·b through the plan of `a` and `b` read `a_at` and `b_at` elements into their
    /// buffers ([`starting_at`]: the addresses are the whole buffers' starts), checked entry
    /// by entry against the product of the logical tensors.
    fn agrees_at(a: Layout, a_at: usize, b: Layout, b_at: usize, out: Layout) {
        agrees_into(a, a_at, b, b_at, out, 0);
    }

    /// [`agrees_at`] with the output written `out_at` elements into its buffer.
    fn agrees_into(a: Layout, a_at: usize, b: Layout, b_at: usize, out: Layout, out_at: usize) {
        let calls = starting_at(plan(&a, &b, &out).expect("a plan"), a_at, b_at, out_at);
        let (ba, bb) = (buffer(a_at + span(&a), 1), buffer(b_at + span(&b), 2));
        runs_as_the_product(&calls, (&ba, a_at, a), (&bb, b_at, b), (out_at, out));
    }

    #[test]
    fn a_product_is_written_into_its_heads_of_the_whole_output() {
        // dQ of heads 2..4 written as heads 2..4 of a `[b, t, 6, d]` buffer (crate::ops's
        // Joined), and as heads 8..10 of a packed `[b, t, 18, d]` one (dQ, dK, dV side by
        // side: dK's heads 2..4).
        let (b, t, d) = (3, 4, 5);
        let scores = Layout::contiguous([b, 2, t, t]);
        let group = |h: usize| Layout {
            shape: [b, 2, t, d],
            strides: heads_view(b, t, h, d).strides,
        };
        agrees_into(scores, 0, group(6), 2 * d, group(6), 2 * d);
        agrees_into(transposed(scores), 0, group(6), 2 * d, group(18), 8 * d);
    }

    #[test]
    fn heads_taken_by_offset_from_the_whole_tensors() {
        let (b, t, d) = (3, 4, 5);
        // Two heads of `[b, t, h, d]` storage seen as `[b, h, t, d]`, the whole strides.
        let group = |h: usize| Layout {
            shape: [b, 2, t, d],
            strides: heads_view(b, t, h, d).strides,
        };
        // Heads 3..5 of Q (6 heads) times heads 1..3 of Kᵀ (4 heads).
        agrees_at(
            group(6),
            3 * d,
            transposed(group(4)),
            d,
            Layout::contiguous([b, 2, t, t]),
        );
        // Heads 0..2 of contiguous scores (8 heads: the batch entries not packed) times
        // heads 2..4 of K, written as `[b, t, 2, d]` (the case tests/gpu/batched.rs found
        // burn's matmul of two narrowed views disagreeing with).
        let scores = Layout {
            shape: [b, 2, t, t],
            strides: Layout::contiguous([b, 8, t, t]).strides,
        };
        agrees_at(scores, 0, group(4), 2 * d, heads_view(b, t, 2, d));
        // Heads 3..9 of 9 heads of scores times heads 2..8 of K, more heads than batch
        // entries (the calls then batch along the heads).
        let many = Layout {
            shape: [2, 6, t, t],
            strides: Layout::contiguous([2, 9, t, t]).strides,
        };
        agrees_at(
            many,
            3 * t * t,
            Layout {
                shape: [2, 6, t, d],
                strides: heads_view(2, t, 8, d).strides,
            },
            2 * d,
            heads_view(2, t, 6, d),
        );
    }

    #[test]
    fn a_group_of_heads_starts_inside_the_tensor() {
        // Heads 2..4 of 6 (the backward pass's groups of heads): the full tensor's
        // strides, the first element two heads in.
        let (b, h, t, d) = (2, 6, 4, 3);
        let group = Layout {
            shape: [b, 2, t, d],
            strides: heads_view(b, t, h, d).strides,
        };
        agrees_from(
            2 * d,
            group,
            transposed(group),
            Layout::contiguous([b, 2, t, t]),
        );
    }

    #[test]
    fn dimensions_of_one_put_no_condition_on_their_stride() {
        let a = Layout {
            shape: [2, 3, 1, 4],
            strides: [12, 4, 999, 1],
        };
        let b = Layout {
            shape: [2, 3, 4, 1],
            strides: [12, 4, 1, 777],
        };
        agrees(a, b, Layout::contiguous([2, 3, 1, 1]));
    }

    #[test]
    fn unreadable_layouts_and_mismatched_shapes_get_no_plan() {
        let a = Layout::contiguous([2, 3, 4, 5]);
        let b = Layout::contiguous([2, 3, 5, 6]);
        let out = Layout::contiguous([2, 3, 4, 6]);
        assert!(plan(&a, &b, &out).is_some());
        // Neither rows nor columns packed: a stride of 2 inside the matrix.
        let gapped = Layout {
            shape: [2, 3, 4, 5],
            strides: [120, 40, 10, 2],
        };
        assert!(!gapped.readable());
        assert!(plan(&gapped, &b, &out).is_none());
        // The output must be stored by rows.
        assert!(plan(&a, &b, &transposed(Layout::contiguous([2, 3, 6, 4]))).is_none());
        // Inner dimensions that differ; batch dimensions that differ.
        assert!(plan(&a, &Layout::contiguous([2, 3, 4, 6]), &out).is_none());
        assert!(plan(&a, &Layout::contiguous([2, 1, 5, 6]), &out).is_none());
    }
}

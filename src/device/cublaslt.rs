//! The linear layers' products through cuBLASLt, planned once per shape (issue 29;
//! `OOMLAB_CUBLAS_API=lt`).
//!
//! Why: cuBLAS's own log on the H200 (docs/results/2026-12-04-h200-cublas-order,
//! gpu-diag-1473329) shows every `cublasGemmEx` asking cuBLASLt for a heuristic before its
//! matmul, with no workspace, and the call took about 0.27 ms of host time per product. A
//! [`Plans`] keeps, per shape, the matmul descriptor, the three matrix layouts and the
//! algorithm the heuristic chose the first time, and gives cuBLASLt a workspace of its own,
//! so a product is one `cublasLtMatmul` call.
//!
//! Not yet measured on a GPU (no device time was left in the session that wrote it):
//! `OOMLAB_CUBLAS_API=lt` is a choice, not the default, until the GPU test
//! (tests/gpu/linear.rs) and the paired yardstick have run it.
//!
//! The mapping is [`super::cublas::Handle::gemm`]'s: a row-major X with row stride s is the
//! column-major Xᵀ with leading dimension s, the call's first operand is b, its second a.

use std::collections::HashMap;
use std::ffi::c_void;

use burn::tensor::DType;
use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::result as drv;

use crate::model::Form;

/// The workspace each handle gives cuBLASLt (what cuBLAS asked the heuristic for on the
/// H200: `maxWorkspaceSizeinBytes=33554432` in its log).
const WORKSPACE_BYTES: usize = 32 << 20;

/// One product's shape: what a plan is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    form: Form,
    mkn: (usize, usize, usize),
    lds: (usize, usize, usize),
    dtype: DType,
}

/// The descriptors and algorithm of one shape.
struct Plan {
    desc: sys::cublasLtMatmulDesc_t,
    layouts: [sys::cublasLtMatrixLayout_t; 3],
    algo: sys::cublasLtMatmulAlgo_t,
}

/// A cuBLASLt handle, its workspace (outside cubecl's pool) and the plans made so far.
pub struct Plans {
    handle: sys::cublasLtHandle_t,
    workspace: u64,
    plans: HashMap<Key, Plan>,
}

/// The cuBLASLt types of a dtype: (data, compute), or `None` where it has none.
fn types(dtype: DType) -> Option<(sys::cudaDataType, sys::cublasComputeType_t)> {
    use sys::cublasComputeType_t::{CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_FAST_TF32};
    use sys::cudaDataType::{CUDA_R_16BF, CUDA_R_16F, CUDA_R_32F};
    match dtype {
        DType::F32 => Some((CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32)),
        DType::BF16 => Some((CUDA_R_16BF, CUBLAS_COMPUTE_32F)),
        DType::F16 => Some((CUDA_R_16F, CUBLAS_COMPUTE_32F)),
        _ => None,
    }
}

/// cublasOperation_t's values.
const N: i32 = 0;
const T: i32 = 1;

/// The column-major call for a row-major product: the operations on its first operand (b)
/// and second (a), and the stored (rows, columns) of both and of the output. As
/// `Handle::gemm`: a row-major X is the column-major Xᵀ.
#[derive(Debug, PartialEq, Eq)]
struct Call {
    ops: (i32, i32),
    first: (usize, usize),
    second: (usize, usize),
    output: (usize, usize),
}

fn call(form: Form, (m, k, n): (usize, usize, usize)) -> Call {
    // (opA, opB, rows, cols, inner) of the column-major call.
    let (oa, ob, r, cols, inner) = match form {
        // Yᵀ[n,m] = Wᵀ[n,k]·xᵀ[k,m]
        Form::Forward => (N, N, n, m, k),
        // dXᵀ[k,m] = W[k,n]·dYᵀ[n,m]
        Form::InputGrad => (T, N, k, m, n),
        // dWᵀ[n,k] = dYᵀ[n,m]·x[m,k]
        Form::WeightGrad => (N, T, n, k, m),
    };
    Call {
        ops: (oa, ob),
        first: if oa == N { (r, inner) } else { (inner, r) },
        second: if ob == N {
            (inner, cols)
        } else {
            (cols, inner)
        },
        output: (r, cols),
    }
}

fn err(what: &str) -> impl Fn(lt::CublasError) -> String + '_ {
    move |e| format!("{what}: {e:?}")
}

impl Plans {
    /// A handle and a workspace in the current context.
    pub fn new() -> Result<Plans, String> {
        let handle = lt::create_handle().map_err(err("cublasLtCreate"))?;
        // SAFETY: a plain device allocation in the current context, freed never (one per
        // thread and device, for the process's life).
        let workspace =
            unsafe { drv::malloc_sync(WORKSPACE_BYTES) }.map_err(|e| format!("cuMemAlloc: {e}"))?;
        Ok(Plans {
            handle,
            workspace,
            plans: HashMap::new(),
        })
    }

    fn plan(&mut self, key: Key) -> Result<&Plan, String> {
        if !self.plans.contains_key(&key) {
            let plan = self.make(key)?;
            self.plans.insert(key, plan);
        }
        self.plans
            .get(&key)
            .ok_or_else(|| "plan vanished".to_string())
    }

    fn make(&self, key: Key) -> Result<Plan, String> {
        let (dt, compute) =
            types(key.dtype).ok_or_else(|| format!("no cuBLASLt type for {:?}", key.dtype))?;
        let (sa, sb, sc) = key.lds;
        let Call {
            ops: (oa, ob),
            first,
            second,
            output,
        } = call(key.form, key.mkn);
        let layout = |(rows, columns): (usize, usize), ld: usize| {
            lt::create_matrix_layout(dt, rows as u64, columns as u64, ld as i64)
                .map_err(err("cublasLtMatrixLayoutCreate"))
        };
        let layouts = [layout(first, sb)?, layout(second, sa)?, layout(output, sc)?];
        let desc = lt::create_matmul_desc(compute, sys::cudaDataType::CUDA_R_32F)
            .map_err(err("cublasLtMatmulDescCreate"))?;
        let pref = lt::create_matmul_pref().map_err(err("cublasLtMatmulPreferenceCreate"))?;
        let workspace = WORKSPACE_BYTES as u64;
        // SAFETY: the descriptors were just created; each attribute's buffer is the size
        // cuBLASLt documents for it (int32 operations, uint64 workspace bytes).
        let heuristic = unsafe {
            use sys::cublasLtMatmulDescAttributes_t::{
                CUBLASLT_MATMUL_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSB,
            };
            for (attr, op) in [
                (CUBLASLT_MATMUL_DESC_TRANSA, &oa),
                (CUBLASLT_MATMUL_DESC_TRANSB, &ob),
            ] {
                lt::set_matmul_desc_attribute(
                    desc,
                    attr,
                    op as *const i32 as *const c_void,
                    std::mem::size_of::<i32>(),
                )
                .map_err(err("cublasLtMatmulDescSetAttribute"))?;
            }
            lt::set_matmul_pref_attribute(
                pref,
                sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &workspace as *const u64 as *const c_void,
                std::mem::size_of::<u64>(),
            )
            .map_err(err("cublasLtMatmulPreferenceSetAttribute"))?;
            let h = lt::get_matmul_algo_heuristic(
                self.handle,
                desc,
                layouts[0],
                layouts[1],
                layouts[2],
                layouts[2],
                pref,
            )
            .map_err(err("cublasLtMatmulAlgoGetHeuristic"));
            let _ = lt::destroy_matmul_pref(pref);
            h?
        };
        Ok(Plan {
            desc,
            layouts,
            algo: heuristic.algo,
        })
    }

    /// Row-major C = op(A)·op(B) for `form`, as [`super::cublas::Handle::gemm`], queued on
    /// `stream` with this shape's plan (made on first use).
    ///
    /// # Safety
    /// As `Handle::gemm`: the addresses are device buffers of the form's shapes and row
    /// strides in `dtype`, in the current context; `stream` lives in it.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemm(
        &mut self,
        form: Form,
        mkn: (usize, usize, usize),
        (a, b, c): (u64, u64, u64),
        lds: (usize, usize, usize),
        dtype: DType,
        stream: cudarc::driver::sys::CUstream,
    ) -> Result<(), String> {
        let (handle, workspace) = (self.handle, self.workspace);
        let plan = self.plan(Key {
            form,
            mkn,
            lds,
            dtype,
        })?;
        let (alpha, beta) = (1.0f32, 0.0f32);
        // SAFETY: the plan's descriptors live in self; the caller vouches for the buffers.
        unsafe {
            lt::matmul(
                handle,
                plan.desc,
                &alpha as *const f32 as *const c_void,
                &beta as *const f32 as *const c_void,
                b as *const c_void,
                plan.layouts[0],
                a as *const c_void,
                plan.layouts[1],
                c as *const c_void,
                plan.layouts[2],
                c as *mut c_void,
                plan.layouts[2],
                &plan.algo,
                workspace as *mut c_void,
                WORKSPACE_BYTES,
                stream as sys::cudaStream_t,
            )
        }
        .map_err(err("cublasLtMatmul"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stored_shape_is_the_row_major_operands_transpose() {
        let (m, k, n) = (3, 5, 7);
        // Row-major shapes of a, b and the output for each form (model::Form's docs).
        for (form, a, b, out) in [
            (Form::Forward, [m, k], [k, n], [m, n]),
            (Form::InputGrad, [m, n], [k, n], [m, k]),
            (Form::WeightGrad, [m, k], [m, n], [k, n]),
        ] {
            assert_eq!(form.mkn(a, b), (m, k, n));
            assert_eq!(form.output(a, b), out);
            let c = call(form, (m, k, n));
            assert_eq!(c.first, (b[1], b[0]), "{form:?}");
            assert_eq!(c.second, (a[1], a[0]), "{form:?}");
            assert_eq!(c.output, (out[1], out[0]), "{form:?}");
            // op(first) · op(second) is (rows x inner)(inner x cols) = the output's shape.
            let op = |(r, c): (usize, usize), o: i32| if o == N { (r, c) } else { (c, r) };
            let (fa, fb) = (op(c.first, c.ops.0), op(c.second, c.ops.1));
            assert_eq!(fa.1, fb.0, "{form:?}");
            assert_eq!((fa.0, fb.1), c.output, "{form:?}");
        }
    }
}

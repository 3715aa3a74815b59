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
//! Measured on the H200 (docs/results/2026-12-04-h200-fence-kernels): the call's host time
//! was not the heuristic: about 0.25 ms per product with either API while the ordering
//! fell back to host syncs, and once it did not (run gpu-c8b70a1, last window) 15.7 us for
//! `cublasLtMatmul` against 19.3 us for `cublasGemmEx`, with steps alike, so
//! `OOMLAB_CUBLAS_API=lt` stays a choice, not the default.
//!
//! The column-major mapping is super::column_major's, as for [`super::cublas::Handle::gemm`].

use std::collections::HashMap;
use std::ffi::c_void;

use burn::tensor::DType;
use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::result as drv;

use super::column_major::Call;
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
        let call = Call::new(key.form, key.mkn);
        // cublasOperation_t's values: N = 0, T = 1.
        let op = |t: bool| i32::from(t);
        let (oa, ob) = (op(call.transposed.0), op(call.transposed.1));
        let layout = |(rows, columns): (usize, usize), ld: usize| {
            lt::create_matrix_layout(dt, rows as u64, columns as u64, ld as i64)
                .map_err(err("cublasLtMatrixLayoutCreate"))
        };
        let layouts = [
            layout(call.first(), sb)?,
            layout(call.second(), sa)?,
            layout(call.output(), sc)?,
        ];
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

//! The linear layers' matrix products on cuBLAS, inside burn's CUDA backend (issue 29).
//!
//! cubecl-cuda 0.10 runs its kernels on a stream of its own that nobody else can name.
//! cuBLAS runs on a stream of oomlab's, ordered with cubecl's by flags in device memory
//! (super::fence): a cubecl kernel signals, a kernel of oomlab's on cuBLAS's stream waits
//! for it, the product runs, a second one signals back, a cubecl kernel waits for that.
//! The host never waits. Where the flags cannot be made or waited on, the first version
//! takes over: the buffers' addresses are asked of cubecl's server (which answers after
//! every kernel launched before), the context is synchronized, cuBLAS runs, its stream is
//! synchronized. (Choosing that version, cuBLASLt, or the thread that makes the calls were
//! measuring levers until 2026-12-07; the results below chose the way that stays.)
//!
//! Measured on the H200: each product alone is faster on cuBLAS
//! (docs/results/2026-12-04-h200-gemm-handshake); in the step, ordered on the device with
//! the fence's kernels, the gpu config's f32 step and the h200 config's AMP bf16 step got
//! faster than cubecl's and the gpu config's AMP bf16 step stayed level
//! (docs/results/2026-12-04-h200-fence-kernels; before, with stream memory operations that
//! fell back to host syncs, docs/results/2026-12-04-h200-cublas-order).
//!
//! The product is queued on cubecl's device thread behind the launches before it, and the
//! caller goes on (`queue_on_device_thread`); a device's first product is a blocking round
//! trip there, which makes its lane and fence. Queued, the `gpu` config's f32 step took
//! 74.1 ms against cubecl's 87.5 and the blocking round trip's 84.0
//! (docs/results/2026-12-04-h200-cublas-queued).
//!
//! The output is allocated by cubecl (its pool, its out-of-memory path); cuBLAS keeps a
//! workspace of its own per handle, outside the pool ([`Workspace`]). f32 runs as TF32 (as PyTorch's
//! `allow_tf32`), bf16 and f16 with f32 accumulation. libcublas is loaded at run time
//! (cudarc's dynamic loading, from the library path: the CUDA toolkit's `lib64`, which
//! oomlab adds for NVRTC); where it does not load, or the dtype has no cuBLAS type, burn's
//! matmul runs instead ([`engine`] says which). By default f32's and bf16's products run
//! here, f16's on cubecl ([`by_default`] says why).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::OnceLock;

use burn::tensor::ops::FloatTensorOps;
use burn::tensor::{DType, FloatDType};
use burn_cubecl::tensor::CubeTensor;
use burn_cubecl::CubeBackend;
use cubecl::cuda::CudaRuntime;
use cudarc::cublas::{result as blas, sys};
use cudarc::driver::result as drv;

use super::column_major::Call;
use super::error::CudaOpError::{self, Unfit};
use super::fence::Fence;
use super::strided_batch::{self, Layout, StridedCall};
use crate::ops::{
    apart_into_and_new, apart_into_twice, batched_setting, burn_batched, burn_batched_into,
    burn_product, custom_products_setting, Form, Operand, Place, ProductBackend, Rows, Span,
};

/// cuBLAS's own variable for its workspace pool (`:KiB:count`), read when a handle is
/// created.
pub const CUBLAS_WORKSPACE_ENV: &str = "CUBLAS_WORKSPACE_CONFIG";

/// cuBLAS's workspace unless the user's `CUBLAS_WORKSPACE_CONFIG` says otherwise: one
/// buffer of 4 MiB. On an H100 (docs/results/2026-12-05-h100-workspace-f32-bf16, the gpu
/// config, 100 steps): AMP bf16 with its products on cuBLAS peaked 66 MiB above cubecl's
/// products with cuBLAS's own pool and 6 MiB above with this one; f32 (on cuBLAS already)
/// peaked 62 MiB lower with it than with cuBLAS's own pool and stepped 1.5% slower (82.4 ms
/// against 81.2 in the paired rows), its final loss 4.9e-4 (relative) away.
pub const WORKSPACE_DEFAULT: u64 = 4 << 20;

/// How large cuBLAS's workspace is.
///
/// The size is passed on as cuBLAS's own `CUBLAS_WORKSPACE_CONFIG` (one buffer of that
/// size), set by [`Workspace::apply`] before any thread starts. Until 2026-12-05 oomlab
/// allocated a buffer of that size and handed it to `cublasSetWorkspace`; on an H100
/// (docs/results/2026-12-05-h100-step-levers-paired, `cublas16-ws4`) that left AMP bf16's
/// NVML peak where cuBLAS's own pool had it (+70 MiB against cubecl's products, the 4 MiB
/// added on top), while `CUBLAS_WORKSPACE_CONFIG=:4096:1` had brought it to +6 MiB on the
/// H200: the pool cuBLAS sizes itself is taken whatever a handle is given later. (Its size
/// was a measuring lever of oomlab's own until 2026-12-07; cuBLAS's variable is the way to
/// choose another.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Workspace {
    /// One buffer of [`WORKSPACE_DEFAULT`], through `CUBLAS_WORKSPACE_CONFIG`.
    Default,
    /// The user's `CUBLAS_WORKSPACE_CONFIG`, which oomlab leaves as it is.
    Users(String),
}

impl Workspace {
    /// The workspace of this process: the user's `CUBLAS_WORKSPACE_CONFIG` where it is set
    /// to something else than what [`Workspace::apply`] sets (this process's, or a
    /// parent's, which a compare row inherits), else the default.
    pub fn in_force() -> Workspace {
        Workspace::from_variable(crate::env::cublas_workspace_config())
    }

    /// The workspace a `CUBLAS_WORKSPACE_CONFIG` of `value` means.
    fn from_variable(value: Option<String>) -> Workspace {
        match value {
            Some(v) if v != Workspace::default_config() => Workspace::Users(v),
            _ => Workspace::Default,
        }
    }

    /// cuBLAS's variable for the default: one buffer of that many KiB.
    fn default_config() -> String {
        format!(":{}:1", WORKSPACE_DEFAULT.div_ceil(1024))
    }

    /// Sets `CUBLAS_WORKSPACE_CONFIG` to the default unless the user set it. Call it
    /// before any thread starts (the binary does, first thing): setting a variable while
    /// another thread reads the environment is a data race in the C library.
    pub fn apply() {
        if crate::env::cublas_workspace_config().is_none() {
            crate::env::set_cublas_workspace_config(&Workspace::default_config());
        }
    }

    fn describe(&self) -> String {
        match self {
            Workspace::Default => format!(
                "a {:.1} MiB cuBLAS workspace, outside burn's pool (as {CUBLAS_WORKSPACE_ENV}={}; set that variable for another size)",
                WORKSPACE_DEFAULT as f64 / f64::from(1u32 << 20),
                Workspace::default_config()
            ),
            Workspace::Users(v) => format!("cuBLAS's workspace as {CUBLAS_WORKSPACE_ENV}={v} sets it"),
        }
    }
}

/// burn's CUDA backend without fusion (what [`burn::backend::Cuda`] wraps).
pub type CubeCuda = CubeBackend<CudaRuntime, f32, i32, u8>;

/// Whether libcublas loads (checked once).
fn library_loads() -> bool {
    static LOADS: OnceLock<bool> = OnceLock::new();
    // SAFETY: loading libcublas runs its initialisers, as any CUDA program's.
    *LOADS.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// Whether cuBLAS runs a product of `dtype` when `kernels.linear_products` is unset: f32's and
/// bf16's.
///
/// f32: on the H200 (docs/results/2026-12-04-h200-cublas-queued) the gpu config's f32
/// step took 0.85x cubecl's, its final loss after 100 steps 7.9e-5 (relative) from
/// cubecl's and its NVML peak 254 MiB lower.
///
/// bf16: with cuBLAS's own workspace pool the gpu config's AMP bf16 NVML peak rose by
/// 66 MiB (docs/results/2026-12-05-h200-step-levers); with the 4 MiB workspace that is now
/// the default ([`WORKSPACE_DEFAULT`]) an H100 measured the steps 8% shorter than cubecl's
/// products (67.6 ms against 73.5 in the paired rows), the peak 6 MiB higher and the
/// final loss after 100 steps 4.9e-4 from cubecl's
/// (docs/results/2026-12-05-h100-workspace-f32-bf16). f16 has not been measured on cuBLAS
/// in the step and stays on cubecl unless `kernels.linear_products=cublas`.
pub fn by_default(dtype: DType) -> bool {
    matches!(dtype, DType::F32 | DType::BF16)
}

/// Whether cuBLAS runs a product of `dtype`: as `kernels.linear_products` says, else
/// [`by_default`], and the library loads.
pub fn runs(dtype: DType) -> bool {
    custom_products_setting().unwrap_or_else(|| by_default(dtype)) && library_loads()
}

/// Whether cuBLAS runs any product: not turned off (`kernels.linear_products=burn`) and the library
/// loads.
pub fn available() -> bool {
    custom_products_setting() != Some(false) && library_loads()
}

/// What the device's backend label adds: which products cuBLAS runs.
pub fn label() -> Option<&'static str> {
    match (available(), custom_products_setting()) {
        (false, _) => None,
        (true, Some(true)) => Some("linear layers' products on cuBLAS"),
        (true, _) => Some("linear layers' f32 and bf16 products on cuBLAS"),
    }
}

/// One line saying which library runs the linear layers' products on CUDA, and
/// attention's batched products.
pub fn engine() -> String {
    let linear = linear_engine();
    match (batched_setting(), available()) {
        (Some(false), _) => format!(
            "{linear}; attention's batched products: cubecl (kernels.attention_products=burn)"
        ),
        (_, true) => format!(
            "{linear}; attention's batched products: cuBLAS's strided batched calls where the linear layers' dtype runs on cuBLAS (kernels.attention_products=burn keeps them on cubecl)"
        ),
        (_, false) => linear,
    }
}

/// [`engine`]'s part for the linear layers.
fn linear_engine() -> String {
    if available() {
        format!(
            "matrix products: {} ({}; {}",
            match custom_products_setting() {
                Some(true) => "cuBLAS",
                _ => "cuBLAS for f32 and bf16, cubecl for f16",
            },
            match custom_products_setting() {
                Some(true) => {
                    "kernels.linear_products=cublas; f32 as TF32, bf16 and f16 with f32 accumulation"
                }
                _ => {
                    "the default on CUDA: kernels.linear_products=cublas puts f16 on cuBLAS too, =burn keeps all on cubecl; f32 as TF32, bf16 with f32 accumulation"
                }
            },
            "ordered with cubecl's kernels on the device"
        ) + &format!("; {}", Workspace::in_force().describe())
            + ", queued on cubecl's device thread)"
    } else if !library_loads() {
        "matrix products: cubecl (libcublas is not on the library path)".to_string()
    } else {
        "matrix products: cubecl (kernels.linear_products=burn; auto, cuBLAS runs the f32 and bf16 ones)"
            .to_string()
    }
}

/// A cuBLAS handle on its own stream, in a device's primary context (cubecl's too).
/// Public for benches/gemm_handshake.rs, which times the same calls outside the model.
pub struct Handle {
    ctx: cudarc::driver::sys::CUcontext,
    handle: sys::cublasHandle_t,
    stream: cudarc::driver::sys::CUstream,
}

/// A thread's cuBLAS handle on one device and, once a product has run there, the flags
/// that order it with cubecl's stream on that thread.
struct Lane {
    handle: Handle,
    fence: Option<Fence>,
}

impl Lane {
    /// Queues the work on this lane's stream: a linear layer's product as one GEMM call,
    /// a batched one as strided batched calls.
    ///
    /// # Safety
    /// As [`Handle::gemm`].
    unsafe fn queue(
        handle: &Handle,
        work: &Work,
        ptrs: (u64, u64, u64),
        dtype: DType,
    ) -> Result<(), CudaOpError> {
        let &Work::Matrix { form, mkn, lds } = work else {
            // Attention's batched products: cuBLAS's strided batched calls.
            if let Work::Batched { calls, alpha } = work {
                for call in calls {
                    // SAFETY: the caller's; each call stays inside the job's tensors
                    // (super::strided_batch's plan).
                    unsafe { handle.gemm_strided(call, *alpha, ptrs, dtype)? };
                }
            }
            return Ok(());
        };
        // SAFETY: the caller's.
        unsafe { handle.gemm(form, mkn, ptrs, lds, dtype) }
    }
}

thread_local! {
    /// One lane per device on each thread that runs products (cuBLAS handles are not
    /// meant to be shared between threads; cubecl gives each thread its own stream).
    static LANES: RefCell<HashMap<usize, Lane>> = RefCell::new(HashMap::new());
}

fn with_lane<T>(
    device: usize,
    f: impl FnOnce(&mut Lane) -> Result<T, Failure>,
) -> Result<T, Failure> {
    LANES.with(|lanes| {
        let mut lanes = lanes.borrow_mut();
        let lane = match lanes.entry(device) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(Lane {
                handle: Handle::new(device).map_err(Failure::Library)?,
                fence: None,
            }),
        };
        // SAFETY: the context was retained by Handle::new and lives as long as the process.
        unsafe { drv::ctx::set_current(lane.handle.ctx) }
            .map_err(|e| Failure::Library(CudaOpError::driver("cuCtxSetCurrent")(e)))?;
        f(lane)
    })
}

/// [`types`] for a call: `Err` where cuBLAS has none.
fn call_types(dtype: DType) -> Result<(sys::cudaDataType, sys::cublasComputeType_t), CudaOpError> {
    types(dtype).ok_or_else(|| Unfit(format!("no cuBLAS type for {dtype:?}")))
}

/// cuBLAS's operation flag: transposed or not.
fn op(transposed: bool) -> sys::cublasOperation_t {
    if transposed {
        sys::cublasOperation_t::CUBLAS_OP_T
    } else {
        sys::cublasOperation_t::CUBLAS_OP_N
    }
}

/// The cuBLAS types of a dtype: (data, compute), or `None` where cuBLAS has none.
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

fn dims(t: &CubeTensor<CudaRuntime>) -> Option<[usize; 2]> {
    let s = t.meta.shape();
    (s.num_dims() == 2).then(|| [s[0], s[1]])
}

/// The row stride (elements) of a 2-D tensor whose rows are contiguous: cubecl may pitch
/// rows (pad each to an alignment), so it is not always the column count.
fn row_stride(t: &CubeTensor<CudaRuntime>) -> Option<usize> {
    let [_, cols] = dims(t)?;
    let strides = t.meta.strides();
    (strides[1] == 1 && strides[0] >= cols).then_some(strides[0])
}

/// `t` with contiguous rows: as it is when they already are (pitched or not), else copied.
fn rows(t: CubeTensor<CudaRuntime>) -> CubeTensor<CudaRuntime> {
    if row_stride(&t).is_some() {
        t
    } else {
        burn_cubecl::kernel::into_contiguous(t)
    }
}

/// Where the host's time goes in each product (`OOMLAB_CUBLAS_TIMING=1`), in the
/// [`PHASES`]; ordered by host syncs, the context's synchronize is counted as the signal's
/// phase and the stream's as the stream write's. Printed to stderr for every
/// [`Clock::WINDOW`] products, as microseconds per product in that window (the first
/// windows hold the kernels' compilation; the later ones are the steady state), with how
/// many of the window's products found cuBLAS's stream already past its wait right after
/// queueing it (the GPU had reached the signal: the host was not ahead of it). A chain of
/// products behind one handshake ([`linear_grads`]) counts as one product, its addresses
/// and calls summed.
struct Clock {
    on: bool,
    last: std::time::Instant,
    laps: [std::time::Duration; PHASES.len()],
    met: bool,
}

/// The phases [`Clock`] names.
const PHASES: [&str; 7] = [
    "operands and queue",
    "signal launch (or context sync)",
    "stream wait",
    "addresses",
    "gemm call",
    "stream write (or stream sync)",
    "cubecl wait launch",
];

/// Products so far, those whose wait was met at once, and the phases' time, in the
/// current window.
type Spent = (u64, u64, [std::time::Duration; PHASES.len()]);

thread_local! {
    static SPENT: RefCell<Spent> = RefCell::new((0, 0, Default::default()));
}

impl Clock {
    const WINDOW: u64 = 500;

    fn start() -> Clock {
        static ON: OnceLock<bool> = OnceLock::new();
        Clock {
            on: *ON.get_or_init(crate::env::cublas_timing),
            last: std::time::Instant::now(),
            laps: Default::default(),
            met: false,
        }
    }

    fn lap(&mut self, phase: usize) {
        if self.on {
            let now = std::time::Instant::now();
            self.laps[phase] += now - self.last;
            self.last = now;
        }
    }

    /// Whether `stream` has nothing left to do (its wait is met), when timing.
    fn wait_met(&mut self, stream: cudarc::driver::sys::CUstream) {
        if self.on {
            // SAFETY: a query of a live stream in the current context.
            self.met = unsafe { cudarc::driver::sys::cuStreamQuery(stream) }
                == cudarc::driver::sys::CUresult::CUDA_SUCCESS;
            self.last = std::time::Instant::now();
        }
    }

    fn record(self) {
        if !self.on {
            return;
        }
        SPENT.with(|spent| {
            let mut spent = spent.borrow_mut();
            spent.0 += 1;
            spent.1 += u64::from(self.met);
            for (total, lap) in spent.2.iter_mut().zip(self.laps) {
                *total += lap;
            }
            if spent.0 % Self::WINDOW == 0 {
                let per: Vec<String> = PHASES
                    .iter()
                    .zip(spent.2)
                    .map(|(name, t)| {
                        format!("{name} {:.1}", t.as_secs_f64() * 1e6 / Self::WINDOW as f64)
                    })
                    .collect();
                eprintln!(
                    "oomlab: cuBLAS host time per product, products {} to {} (us): {}; stream past its wait at once: {} of {}",
                    spent.0 - Self::WINDOW + 1,
                    spent.0,
                    per.join(", "),
                    spent.1,
                    Self::WINDOW
                );
                spent.1 = 0;
                spent.2 = Default::default();
            }
        });
    }
}

/// A product's two operands.
type OperandPair = (CubeTensor<CudaRuntime>, CubeTensor<CudaRuntime>);

/// Two operands given back for burn's matmul.
type Operands = Box<OperandPair>;

/// One product's operands, output and shapes, owned: a queued product runs on cubecl's
/// device thread after the caller has moved on, and the buffers live until it has.
struct Job {
    a: CubeTensor<CudaRuntime>,
    b: CubeTensor<CudaRuntime>,
    out: CubeTensor<CudaRuntime>,
    work: Work,
    /// A product queued right after this one, behind the same handshake
    /// ([`linear_grads`]).
    next: Option<Box<Job>>,
}

impl Job {
    /// This job and the ones chained after it, in order.
    fn chain(&self) -> impl Iterator<Item = &Job> {
        std::iter::successors(Some(self), |job| job.next.as_deref())
    }
}

/// What a job computes.
enum Work {
    /// A linear layer's product: its form, [`Form::mkn`]'s (m, k, n) and the operands'
    /// and output's row strides.
    Matrix {
        form: Form,
        mkn: (usize, usize, usize),
        lds: (usize, usize, usize),
    },
    /// Attention's batched product: the strided batched calls (super::strided_batch) and
    /// the factor on the product.
    Batched { calls: Vec<StridedCall>, alpha: f32 },
}

/// Why a product could not run on cuBLAS.
enum Failure {
    /// cubecl could not give a buffer's address (its device thread failed a task: an
    /// out-of-memory failure, which oomlab's detector sees and discards the step for).
    Buffers(String),
    /// The fence or cuBLAS itself failed.
    Library(CudaOpError),
}

impl Failure {
    fn text(&self) -> String {
        match self {
            Failure::Buffers(e) => e.clone(),
            Failure::Library(e) => e.to_string(),
        }
    }
}

/// The product on cuBLAS; `Err` gives the operands back for burn's matmul.
fn product(
    a: CubeTensor<CudaRuntime>,
    b: CubeTensor<CudaRuntime>,
    form: Form,
) -> Result<CubeTensor<CudaRuntime>, Operands> {
    let (job, clock) = product_job(a, b, form)?;
    let out = job.out.clone();
    submit(job, clock).map_err(|job| Box::new((job.a, job.b)))?;
    Ok(out)
}

/// A linear layer's dW = xᵀ·dY and dX = dY·Wᵀ on cuBLAS, queued one after the other
/// behind one handshake with cubecl's stream ([`Fence`]) instead of one each; `Err` gives
/// both products' operands back for burn's matmul.
fn linear_grads(
    x: CubeTensor<CudaRuntime>,
    grad: CubeTensor<CudaRuntime>,
    w: CubeTensor<CudaRuntime>,
) -> Result<[CubeTensor<CudaRuntime>; 2], Box<[OperandPair; 2]>> {
    let (mut dw, clock) = match product_job(x, grad.clone(), Form::WeightGrad) {
        Ok(job) => job,
        Err(operands) => return Err(Box::new([*operands, (grad, w)])),
    };
    let dx = match product_job(grad, w, Form::InputGrad) {
        Ok((job, _)) => job,
        Err(operands) => return Err(Box::new([(dw.a, dw.b), *operands])),
    };
    let outs = [dw.out.clone(), dx.out.clone()];
    dw.next = Some(Box::new(dx));
    match submit(dw, clock) {
        Ok(()) => {
            PAIRS_SUBMITTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(outs)
        }
        Err(mut dw) => match dw.next.take() {
            Some(dx) => Err(Box::new([(dw.a, dw.b), (dx.a, dx.b)])),
            None => unreachable!("the job chained above"),
        },
    }
}

/// Linear layers' gradient pairs handed to cuBLAS behind one handshake so far
/// ([`linear_grad_pairs_submitted`]).
static PAIRS_SUBMITTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many linear layers' gradient pairs this process has handed to cuBLAS behind one
/// handshake each (the default; `kernels.linear_grads=apart` two): tests/gpu/linear.rs checks that the
/// pairs it compares did run so.
pub fn linear_grad_pairs_submitted() -> u64 {
    PAIRS_SUBMITTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The job of one product on cuBLAS and its clock, its output allocated; `Err` gives the
/// operands back where cuBLAS cannot run it.
fn product_job(
    a: CubeTensor<CudaRuntime>,
    b: CubeTensor<CudaRuntime>,
    form: Form,
) -> Result<(Job, Clock), Operands> {
    let (Some(da), Some(db)) = (dims(&a), dims(&b)) else {
        return Err(Box::new((a, b)));
    };
    if types(a.dtype).is_none() || a.dtype != b.dtype || !runs(a.dtype) {
        return Err(Box::new((a, b)));
    }
    let (m, k, n) = form.mkn(da, db);
    if [m, k, n].iter().any(|&x| x == 0 || x > i32::MAX as usize) {
        return Err(Box::new((a, b)));
    }
    stop_after_queued_failure();
    let clock = Clock::start();
    let a = rows(a);
    let b = rows(b);
    let out = CubeCuda::float_empty(form.output(da, db).into(), &a.device, float_dtype(a.dtype));
    let (Some(sa), Some(sb), Some(sc)) = (row_stride(&a), row_stride(&b), row_stride(&out)) else {
        return Err(Box::new((a, b)));
    };
    let job = Job {
        a,
        b,
        out,
        work: Work::Matrix {
            form,
            mkn: (m, k, n),
            lds: (sa, sb, sc),
        },
        next: None,
    };
    Ok((job, clock))
}

/// Where a batched product on cuBLAS writes.
#[derive(Debug, Clone, Copy)]
enum Output {
    /// A new tensor, its rows stored as asked.
    New(Rows),
    /// Heads `place.at..` of the whole output (the one given, else a new one), stored as
    /// `[d0, m, place.heads, n]` ([`ProductBackend::batched_product_into`]).
    Into(Place),
}

/// What a batched product gives back for burn's matmul where cuBLAS does not run it: the
/// operands, the span of heads to take of them (an operand copied on the way holds only
/// its heads, from 0), and the whole output of [`Output::Into`] (as given, or the one
/// made for it; boxed, as the operands are: a `CubeTensor` is large).
struct Fallback {
    operands: Operands,
    span: Span,
    whole: Option<Box<CubeTensor<CudaRuntime>>>,
}

/// Attention's batched product alpha·a·b of `span`'s heads on cuBLAS (super::strided_batch;
/// oomlab's model::batched module says why), each operand read where its heads start in
/// its tensor (no slice), the output written as `output` asks (into `whole` where it is
/// [`Output::Into`] and one is given); `Err` gives everything back for burn's matmul
/// ([`Fallback`]).
fn batched_product(
    a: CubeTensor<CudaRuntime>,
    b: CubeTensor<CudaRuntime>,
    span: Span,
    output: (Output, Option<CubeTensor<CudaRuntime>>),
    alpha: f32,
) -> Result<CubeTensor<CudaRuntime>, Box<Fallback>> {
    submit_batched(batched_job(a, b, span, output, alpha)?)
}

/// A batched product's job, ready to submit, and what burn's matmul needs of it where it
/// does not run on cuBLAS.
struct BatchedJob {
    job: Job,
    clock: Clock,
    /// The heads taken of the job's operands (from 0 of an operand copied on the way).
    span: Span,
    /// Whether the job's output is the whole output of an [`Output::Into`].
    into: bool,
}

/// What burn's matmul needs of `job` ([`BatchedJob`]'s span and into) that did not run.
fn job_fallback(job: Job, span: Span, into: bool) -> Box<Fallback> {
    Box::new(Fallback {
        operands: Box::new((job.a, job.b)),
        span,
        whole: into.then(|| Box::new(job.out)),
    })
}

/// `prepared` handed to cuBLAS behind a handshake of its own; its output, or what burn's
/// matmul needs where the submission failed.
fn submit_batched(prepared: BatchedJob) -> Result<CubeTensor<CudaRuntime>, Box<Fallback>> {
    let BatchedJob {
        job,
        clock,
        span,
        into,
    } = prepared;
    let out = job.out.clone();
    if let Err(job) = submit(job, clock) {
        return Err(job_fallback(*job, span, into));
    }
    BATCHED_SUBMITTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(out)
}

/// Two prepared batched products of one dtype handed to cuBLAS one after the other behind
/// one handshake (oomlab's model::batched_pair module says why); their outputs, or, where
/// the submission failed, what burn's matmul needs of each.
fn submit_pair(
    first: BatchedJob,
    second: BatchedJob,
) -> Result<[CubeTensor<CudaRuntime>; 2], [Box<Fallback>; 2]> {
    let BatchedJob {
        job: mut head,
        clock,
        span,
        into,
    } = first;
    let outs = [head.out.clone(), second.job.out.clone()];
    let (second_span, second_into) = (second.span, second.into);
    head.next = Some(Box::new(second.job));
    match submit(head, clock) {
        Ok(()) => {
            BATCHED_SUBMITTED.fetch_add(2, std::sync::atomic::Ordering::Relaxed);
            BATCHED_PAIRS_SUBMITTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(outs)
        }
        Err(mut head) => match head.next.take() {
            Some(next) => Err([
                job_fallback(*head, span, into),
                job_fallback(*next, second_span, second_into),
            ]),
            None => unreachable!("the job chained above"),
        },
    }
}

/// Attention's batched product of [`batched_product`] as a job ready to submit, its output
/// allocated (or the whole given taken); `Err` gives everything back for burn's matmul.
fn batched_job(
    a: CubeTensor<CudaRuntime>,
    b: CubeTensor<CudaRuntime>,
    span: Span,
    (output, whole): (Output, Option<CubeTensor<CudaRuntime>>),
    alpha: f32,
) -> Result<BatchedJob, Box<Fallback>> {
    let fallback = |a, b, span, whole: Option<CubeTensor<CudaRuntime>>, why: &str| {
        say_batched_fallback(why);
        Err(Box::new(Fallback {
            operands: Box::new((a, b)),
            span,
            whole: whole.map(Box::new),
        }))
    };
    let (Some(la), Some(lb)) = (layout(&a), layout(&b)) else {
        return fallback(a, b, span, whole, "not two 4-D tensors");
    };
    if span.a + span.count > la.shape[1] || span.b + span.count > lb.shape[1] {
        let why = format!("heads {span:?} outside {:?} and {:?}", la.shape, lb.shape);
        return fallback(a, b, span, whole, &why);
    }
    // The heads taken: the whole tensors' strides, the first element `start` heads in.
    let heads = |l: Layout| Layout {
        shape: [l.shape[0], span.count, l.shape[2], l.shape[3]],
        ..l
    };
    let (la, lb) = (heads(la), heads(lb));
    if types(a.dtype).is_none() || a.dtype != b.dtype || !runs(a.dtype) {
        let why = format!("{:?} and {:?}: not one dtype cuBLAS runs", a.dtype, b.dtype);
        return fallback(a, b, span, whole, &why);
    }
    let [d0, d1, m, k] = la.shape;
    let n = lb.shape[3];
    if lb.shape != [d0, d1, k, n]
        || [d0, d1, m, k, n]
            .iter()
            .any(|&x| x == 0 || x > i32::MAX as usize)
    {
        let why = format!("shapes {:?} and {:?}", la.shape, lb.shape);
        return fallback(a, b, span, whole, &why);
    }
    if let Output::Into(place) = output {
        let want = [d0, place.heads, m, n];
        let fits = whole.as_ref().is_none_or(|w| w.meta.shape().dims() == want);
        if !fits || place.at + d1 > place.heads {
            let why = format!("heads {}.. of {want:?} for a product of {d1}", place.at);
            return fallback(a, b, span, whole, &why);
        }
    }
    stop_after_queued_failure();
    let clock = Clock::start();
    // A view cuBLAS cannot read (neither rows nor columns packed) is sliced to its heads
    // and copied, as burn's matmul would; its heads then start at its first element.
    // (The tensor, its first head's offset in elements, its first head.)
    let readable = |t: CubeTensor<CudaRuntime>, l: Layout, start: usize| {
        if l.readable() {
            (t, start * l.strides[1], start)
        } else {
            let t = if start == 0 && span.count == t.meta.shape()[1] {
                t
            } else {
                burn_cubecl::kernel::slice(t, &[0..d0, start..start + span.count])
            };
            (burn_cubecl::kernel::into_contiguous(t), 0, 0)
        }
    };
    let (a, a_at, a_start) = readable(a, la, span.a);
    let (b, b_at, b_start) = readable(b, lb, span.b);
    let span = Span {
        a: a_start,
        b: b_start,
        count: span.count,
    };
    let (device, dtype) = (&a.device, float_dtype(a.dtype));
    // `[d0, x, m, n]` stored as `[d0, m, x, n]`.
    let tokens = |x: usize| {
        CubeCuda::float_swap_dims(
            CubeCuda::float_empty([d0, m, x, n].into(), device, dtype),
            1,
            2,
        )
    };
    // The output and where the product's first head goes in it, in elements.
    let (out, out_at, into) = match output {
        Output::New(Rows::Heads) => (
            CubeCuda::float_empty([d0, d1, m, n].into(), device, dtype),
            0,
            false,
        ),
        Output::New(Rows::Tokens) => (tokens(d1), 0, false),
        Output::Into(place) => {
            let whole = match whole {
                None => tokens(place.heads),
                // Shared with another tensor: written into a copy, as burn's in-place
                // kernels do when theirs is not their own.
                Some(w) if !place.owned => w.copy(),
                Some(w) => w,
            };
            let at = whole.meta.strides()[1] * place.at;
            (whole, at, true)
        }
    };
    let plan = match (layout(&a), layout(&b), layout(&out)) {
        (Some(la), Some(lb), Some(lo)) => strided_batch::plan(&heads(la), &heads(lb), &heads(lo))
            .map(|calls| strided_batch::starting_at(calls, a_at, b_at, out_at)),
        _ => None,
    };
    let Some(calls) = plan else {
        let why = format!(
            "no strided plan for {:?}, {:?} and the output {:?}",
            layout(&a),
            layout(&b),
            layout(&out)
        );
        return fallback(a, b, span, into.then_some(out), &why);
    };
    let job = Job {
        a,
        b,
        out,
        work: Work::Batched { calls, alpha },
        next: None,
    };
    Ok(BatchedJob {
        job,
        clock,
        span,
        into,
    })
}

/// Says once per reason why an attention product runs on burn's matmul where cuBLAS was
/// to run it.
fn say_batched_fallback(why: &str) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    if let Ok(mut said) = SAID.lock() {
        if !said.iter().any(|s| s == why) {
            eprintln!("oomlab: an attention product runs on burn's matmul, not cuBLAS: {why}");
            said.push(why.to_string());
        }
    }
}

/// Pairs of batched products handed to cuBLAS behind one handshake so far
/// ([`batched_pairs_submitted`]).
static BATCHED_PAIRS_SUBMITTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many pairs of attention's backward products this process has handed to cuBLAS
/// behind one handshake each (the default; `kernels.attention_pairs=apart` one handshake
/// each): tests/gpu/batched.rs checks that the backward passes it compares ran as the
/// setting says.
pub fn batched_pairs_submitted() -> u64 {
    BATCHED_PAIRS_SUBMITTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Batched products handed to cuBLAS so far ([`batched_products_submitted`]).
static BATCHED_SUBMITTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many of attention's batched products this process has handed to cuBLAS (none
/// fell back to burn's matmul): tests/gpu/batched.rs checks that the products it compares
/// did run on cuBLAS.
pub fn batched_products_submitted() -> u64 {
    BATCHED_SUBMITTED.load(std::sync::atomic::Ordering::Relaxed)
}

/// A 4-D tensor's shape and strides.
fn layout(t: &CubeTensor<CudaRuntime>) -> Option<Layout> {
    let (shape, strides) = (t.meta.shape(), t.meta.strides());
    (shape.num_dims() == 4).then(|| Layout {
        shape: [shape[0], shape[1], shape[2], shape[3]],
        strides: [strides[0], strides[1], strides[2], strides[3]],
    })
}

/// The float dtype of a cuBLAS type's `dtype`.
fn float_dtype(dtype: DType) -> FloatDType {
    match dtype {
        DType::BF16 => FloatDType::BF16,
        DType::F16 => FloatDType::F16,
        _ => FloatDType::F32,
    }
}

/// Panics when a queued product failed in the library: its output was never written, so
/// the step it belonged to is wrong. Said where the run can stop on it.
fn stop_after_queued_failure() {
    if let Some(e) = queued_failure() {
        panic!("oomlab: a cuBLAS product queued on cubecl's device thread failed ({e}); its output was not written, so this run cannot go on. Run again with --set kernels.linear_products=burn (cubecl's products), and please report the error");
    }
}

/// Runs `job` (and the jobs chained after it, behind the same handshake) on cuBLAS from
/// cubecl's device thread: `Ok` once it is queued (or skipped after a failed
/// device task, its output unwritten as cubecl's own kernels' are then), `Err` with the
/// job back where cuBLAS failed (its operands for burn's matmul).
fn submit(job: Job, mut clock: Clock) -> Result<(), Box<Job>> {
    let device = job.a.device.index;
    let client = job.a.client.clone();
    if lane_ready(device) {
        // On cubecl's device thread, behind every task queued before; the caller does
        // not wait. The job's buffers are dropped there once the product is queued on
        // the device.
        queue_on_device_thread(device, move || {
            let result = with_lane(device, |lane| run(lane, &job, &mut clock));
            match result {
                Ok(()) => clock.record(),
                Err(Failure::Buffers(e)) => say_skipped(&e),
                Err(Failure::Library(e)) => record_queued_failure(e.to_string()),
            }
        });
        return Ok(());
    }
    // A device's first product: one blocking round trip, the address requests and the
    // fence's launches inline on cubecl's device thread (cubecl runs a call from its own
    // thread at once), and the CUDA calls made where cubecl makes its own, so that the lane
    // and its fence exist and work before products are queued without waiting.
    let result = match client.exclusive(|| with_lane(device, |lane| run(lane, &job, &mut clock))) {
        Ok(r) => r,
        Err(_) => {
            // cubecl's device thread failed a task (its panic is on stderr or, for an
            // out-of-memory failure, in oomlab's detector, which discards the step).
            // Falling back to cubecl's matmul here would autotune a new shape on a device
            // that has just failed, and a failed autotune kills burn's fusion stream for
            // good (2026-12-04, tests/gpu/oom.rs with the products on cuBLAS): the product
            // is skipped instead, as cubecl's own kernels are after such a failure, and the
            // output stays unwritten.
            say_skipped("cubecl's device thread failed a task");
            return Ok(());
        }
    };
    match result {
        Ok(()) => {
            mark_lane_ready(device);
            clock.record();
            Ok(())
        }
        Err(e) => {
            eprintln!(
                "oomlab: cuBLAS failed ({}); this product runs on cubecl",
                e.text()
            );
            Err(Box::new(job))
        }
    }
}

/// Says once that products are being skipped after a failed device task.
fn say_skipped(why: &str) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "oomlab: {why}: cuBLAS products are skipped until it answers again (a step with an out-of-memory failure is discarded)"
        )
    });
}

/// The devices whose device thread has run a product (lane and fence made): later
/// products there can be queued without waiting.
static READY: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());

fn lane_ready(device: usize) -> bool {
    READY
        .lock()
        .map(|ready| ready.contains(&device))
        .unwrap_or(false)
}

fn mark_lane_ready(device: usize) {
    if let Ok(mut ready) = READY.lock() {
        if !ready.contains(&device) {
            ready.push(device);
        }
    }
}

/// The first library failure of a queued product.
static QUEUED_FAILURE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

fn record_queued_failure(e: String) {
    eprintln!("oomlab: a cuBLAS product queued on cubecl's device thread failed: {e}");
    if let Ok(mut failure) = QUEUED_FAILURE.lock() {
        failure.get_or_insert(e);
    }
}

fn queued_failure() -> Option<String> {
    QUEUED_FAILURE.lock().ok().and_then(|f| f.clone())
}

/// Runs `task` on `device`'s cubecl device thread after every task queued there before
/// it, without waiting for it (cubecl's kernel launches go the same way).
///
/// Through a service of oomlab's on that thread ([`ProductQueue`]), not cubecl's server:
/// a task queued for a service holds that service's state while it runs, and the product
/// asks cubecl's server for addresses and launches the fence's kernels, which borrow the
/// server's state inline on that thread.
fn queue_on_device_thread(device: usize, task: impl FnOnce() + Send + 'static) {
    use cubecl::cuda::CudaDevice;
    use cubecl_common::device::Device;
    use cubecl_common::device_handle::DeviceHandle;
    thread_local! {
        static HANDLES: RefCell<HashMap<usize, DeviceHandle<ProductQueue>>> =
            RefCell::new(HashMap::new());
    }
    HANDLES.with(|handles| {
        handles
            .borrow_mut()
            .entry(device)
            .or_insert_with(|| DeviceHandle::new(CudaDevice { index: device }.to_id()))
            .submit(move |_: &mut ProductQueue| task())
    });
}

/// A service with no state of its own on cubecl's device thread, whose queue is the one
/// cubecl's server takes its launches from (one runner per device and stage).
struct ProductQueue;

impl cubecl_common::device::DeviceService for ProductQueue {
    fn init(_device: cubecl_common::device::DeviceId) -> Self {
        ProductQueue
    }

    fn utilities(&self) -> cubecl_common::device::ServerUtilitiesHandle {
        std::sync::Arc::new(())
    }
}

/// The product `job` on `lane`: ordered after the kernels cubecl queued before it, and
/// before those it queues after (the fence, or host syncs).
fn run(lane: &mut Lane, job: &Job, clock: &mut Clock) -> Result<(), Failure> {
    let lib = Failure::Library;
    let address = |t: &CubeTensor<CudaRuntime>| {
        t.client
            .get_resource(t.handle.clone())
            .map(|r| r.resource().ptr)
            .map_err(|e| Failure::Buffers(format!("{e:?}")))
    };
    let a = &job.a;
    let dtype = a.dtype;
    let h = &lane.handle;
    if lane.fence.is_none() {
        lane.fence = Some(Fence::new(&a.client).map_err(lib)?);
    }
    clock.lap(0);
    // SAFETY (both arms): the addresses are live cubecl buffers of the shapes and row
    // strides of each job of the chain (one dtype: linear_grads chains a layer's two
    // products), kept by it until it is dropped after this returns, and after
    // that reused by cubecl only for kernels queued behind the fence's wait (or the host
    // syncs); the context is current (with_lane).
    let ordered = match lane.fence.as_mut() {
        Some(fence) => {
            let signalled = fence.signal();
            clock.lap(1);
            let waits = signalled.and_then(|()| unsafe { fence.stream_waits(h.stream) });
            clock.lap(2);
            clock.wait_met(h.stream);
            if let Err(e) = &waits {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    eprintln!("oomlab: {e}: cuBLAS products are ordered by host syncs instead")
                });
            }
            waits.is_ok()
        }
        None => false,
    };
    match lane.fence.as_mut() {
        Some(fence) if ordered => {
            // Asked after the signal (inline on cubecl's device thread, else a blocking
            // round trip to it): cubecl has launched the signal before cuBLAS's stream
            // gets work behind its wait.
            for (i, part) in job.chain().enumerate() {
                let mut queue = || {
                    let ptrs = (address(&part.a)?, address(&part.b)?, address(&part.out)?);
                    clock.lap(3);
                    unsafe { Lane::queue(h, &part.work, ptrs, dtype) }.map_err(lib)?;
                    clock.lap(4);
                    Ok(())
                };
                if let Err(e) = queue() {
                    if i > 0 {
                        // An earlier product of the chain is queued with no wait behind it
                        // on cubecl's stream: let it finish before its buffers go back.
                        let _ = h.sync();
                    }
                    return Err(e);
                }
            }
            match unsafe { fence.stream_writes(h.stream) } {
                Ok(()) => {
                    clock.lap(5);
                    fence.cubecl_waits();
                    clock.lap(6);
                }
                Err(e) => {
                    static SAID: std::sync::Once = std::sync::Once::new();
                    SAID.call_once(|| {
                        eprintln!("oomlab: {e}: each cuBLAS product waits on the host instead")
                    });
                    h.sync().map_err(lib)?;
                    clock.lap(5);
                }
            }
            Ok(())
        }
        _ => {
            // Asked of cubecl's server in order: every kernel before has been launched.
            let mut ptrs = Vec::new();
            for part in job.chain() {
                ptrs.push((address(&part.a)?, address(&part.b)?, address(&part.out)?));
            }
            clock.lap(3);
            drv::ctx::synchronize().map_err(|e| lib(CudaOpError::driver("cuCtxSynchronize")(e)))?;
            // The host's wait for the device is the signal phase's in this order.
            clock.lap(1);
            for (part, ptrs) in job.chain().zip(ptrs) {
                if let Err(e) = unsafe { Lane::queue(h, &part.work, ptrs, dtype) } {
                    // Whatever of the chain is queued finishes before its buffers go back.
                    let _ = h.sync();
                    return Err(lib(e));
                }
            }
            clock.lap(4);
            h.sync().map_err(lib)?;
            clock.lap(5);
            Ok(())
        }
    }
}

impl Handle {
    /// A handle for `device`: its primary context retained and made current on this
    /// thread, a non-blocking stream, cuBLAS on it.
    pub fn new(device: usize) -> Result<Handle, CudaOpError> {
        // SAFETY: the device index is checked by the driver; the primary context is the
        // one cubecl retains.
        unsafe {
            drv::init().map_err(CudaOpError::driver("cuInit"))?;
            let dev =
                drv::device::get(device as i32).map_err(CudaOpError::driver("cuDeviceGet"))?;
            let ctx = drv::primary_ctx::retain(dev)
                .map_err(CudaOpError::driver("cuDevicePrimaryCtxRetain"))?;
            drv::ctx::set_current(ctx).map_err(CudaOpError::driver("cuCtxSetCurrent"))?;
            let stream = drv::stream::create(drv::stream::StreamKind::NonBlocking)
                .map_err(CudaOpError::driver("cuStreamCreate"))?;
            let handle = blas::create_handle()?;
            // The workspace is cuBLAS's, sized by CUBLAS_WORKSPACE_CONFIG ([`Workspace`]).
            blas::set_stream(handle, stream as sys::cudaStream_t)?;
            Ok(Handle {
                ctx,
                handle,
                stream,
            })
        }
    }

    /// Waits for everything queued on this handle's stream.
    pub fn sync(&self) -> Result<(), CudaOpError> {
        // SAFETY: the stream was created by Handle::new and is never destroyed.
        unsafe { drv::stream::synchronize(self.stream) }
            .map_err(CudaOpError::driver("cuStreamSynchronize"))
    }

    /// Row-major C = op(A)·op(B) for `form` ([`Form::mkn`]'s m, k, n; a, b, c the
    /// operands' and the output's device addresses, sa, sb, sc their row strides in
    /// elements: the column count, or more where cubecl pitched the rows), written as the
    /// column-major call on the transposes (a row-major X is the column-major Xᵀ), queued on
    /// this handle's stream. `Err` for a dtype without a cuBLAS type or a failed call.
    ///
    /// # Safety
    /// The addresses must be device buffers of the form's shapes and row strides in
    /// `dtype`, in this handle's context, current on the calling thread.
    pub unsafe fn gemm(
        &self,
        form: Form,
        (m, k, n): (usize, usize, usize),
        (a, b, c): (u64, u64, u64),
        (sa, sb, sc): (usize, usize, usize),
        dtype: DType,
    ) -> Result<(), CudaOpError> {
        let (dt, compute) = call_types(dtype)?;
        let ld =
            |s: usize| i32::try_from(s).map_err(|_| Unfit(format!("row stride {s} too large")));
        // The call's first operand is b, its second a, its output c (super::column_major).
        let (lda, ldb, ldc) = (ld(sb)?, ld(sa)?, ld(sc)?);
        let call = Call::new(form, (m, k, n));
        let (oa, ob) = (op(call.transposed.0), op(call.transposed.1));
        let (r, cols, inner) = (call.rows as i32, call.cols as i32, call.inner as i32);
        let (pa, pb) = (b, a);
        let (alpha, beta) = (1.0f32, 0.0f32);
        blas::gemm_ex(
            self.handle,
            oa,
            ob,
            r,
            cols,
            inner,
            &alpha as *const f32 as *const c_void,
            pa as *const c_void,
            dt,
            lda,
            pb as *const c_void,
            dt,
            ldb,
            &beta as *const f32 as *const c_void,
            c as *mut c_void,
            dt,
            ldc,
            compute,
            sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
        .map_err(CudaOpError::from)
    }

    /// One strided batched call of super::strided_batch's plan times `alpha`, a, b and c
    /// the operands' and the output's device addresses (their first elements), queued on
    /// this handle's stream. `Err` for a dtype without a cuBLAS type, a size over cuBLAS's integers or
    /// a failed call.
    ///
    /// # Safety
    /// The addresses must be device buffers that hold every element the call reads and
    /// writes (the plan's offsets, leading dimensions and strides) in `dtype`, in this
    /// handle's context, current on the calling thread.
    pub unsafe fn gemm_strided(
        &self,
        call: &StridedCall,
        alpha: f32,
        (a, b, c): (u64, u64, u64),
        dtype: DType,
    ) -> Result<(), CudaOpError> {
        let (dt, compute) = call_types(dtype)?;
        let int =
            |x: usize| i32::try_from(x).map_err(|_| Unfit(format!("{x} is over cuBLAS's int")));
        let long =
            |x: usize| i64::try_from(x).map_err(|_| Unfit(format!("{x} is over cuBLAS's long")));
        let size = dtype.size() as u64;
        let at = |base: u64, offset: usize| base + offset as u64 * size;
        let (first, second, out) = (&call.first, &call.second, &call.output);
        // f32 factors for every compute type here (CUBLAS_COMPUTE_32F and its TF32 form).
        let beta = 0.0f32;
        // The call's first operand is b, its second a (super::strided_batch).
        blas::gemm_strided_batched_ex(
            self.handle,
            op(call.transposed.0),
            op(call.transposed.1),
            int(call.rows)?,
            int(call.cols)?,
            int(call.inner)?,
            &alpha as *const f32 as *const c_void,
            at(b, first.offset) as *const c_void,
            dt,
            int(first.ld)?,
            long(first.stride)?,
            at(a, second.offset) as *const c_void,
            dt,
            int(second.ld)?,
            long(second.stride)?,
            &beta as *const f32 as *const c_void,
            at(c, out.offset) as *mut c_void,
            dt,
            int(out.ld)?,
            long(out.stride)?,
            int(call.batch)?,
            compute,
            sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
        )
        .map_err(CudaOpError::from)
    }
}

impl ProductBackend for CubeCuda {
    /// burn's scatter runs one thread per column of the table here (super::super::model's
    /// embedding module says more).
    fn dense_embedding_grad() -> bool {
        true
    }

    /// cuBLAS for [`by_default`]'s dtypes where the library loads.
    fn custom_products_by_default(dtype: DType) -> bool {
        by_default(dtype) && library_loads()
    }

    /// Both gradient products behind one handshake
    /// ([`linear_grads_together`](crate::ops::linear_grads_together) says why).
    fn linear_grads_together_by_default() -> bool {
        true
    }

    /// f32's and bf16's sums in two stages (crate::ops's column_sum module says why, and
    /// why not f16's).
    fn split_sums_by_default(dtype: DType) -> bool {
        matches!(dtype, DType::F32 | DType::BF16)
    }

    /// f32's and bf16's embeddings on the dense path (oomlab's model::embedding module says
    /// why, and why not f16's).
    fn dense_embeddings_by_default(dtype: DType) -> bool {
        matches!(dtype, DType::F32 | DType::BF16)
    }

    fn product(
        a: CubeTensor<CudaRuntime>,
        b: CubeTensor<CudaRuntime>,
        form: Form,
    ) -> CubeTensor<CudaRuntime> {
        match product(a, b, form) {
            Ok(out) => out,
            Err(operands) => burn_product::<Self>(operands.0, operands.1, form),
        }
    }

    /// Both products behind one handshake (this module's `linear_grads`; the backward pass
    /// asks for it unless `kernels.linear_grads=apart`).
    fn linear_grads(
        x: CubeTensor<CudaRuntime>,
        grad: CubeTensor<CudaRuntime>,
        w: CubeTensor<CudaRuntime>,
    ) -> (CubeTensor<CudaRuntime>, CubeTensor<CudaRuntime>) {
        match linear_grads(x, grad, w) {
            Ok([dw, dx]) => (dw, dx),
            Err(operands) => {
                let [(x, g), (g2, w)] = *operands;
                (
                    burn_product::<Self>(x, g, Form::WeightGrad),
                    burn_product::<Self>(g2, w, Form::InputGrad),
                )
            }
        }
    }

    /// cuBLAS where cuBLAS runs the dtype's products, unless `kernels.attention_products=burn`
    /// (oomlab's model::batched module has the measurements).
    fn batched_on_library(dtype: DType) -> bool {
        batched_setting() != Some(false) && runs(dtype)
    }

    fn batched_product(
        a: CubeTensor<CudaRuntime>,
        b: CubeTensor<CudaRuntime>,
        span: Span,
        rows: Rows,
        alpha: f32,
    ) -> CubeTensor<CudaRuntime> {
        match batched_product(a, b, span, (Output::New(rows), None), alpha) {
            Ok(out) => out,
            Err(f) => burn_batched::<Self>(f.operands.0, f.operands.1, f.span, alpha),
        }
    }

    /// On cuBLAS as [`Self::batched_product`], the product written straight into its heads
    /// of the whole output (oomlab's model::batched module, its `Joined`, says why).
    fn batched_product_into(
        a: CubeTensor<CudaRuntime>,
        b: CubeTensor<CudaRuntime>,
        span: Span,
        alpha: f32,
        whole: Option<CubeTensor<CudaRuntime>>,
        place: Place,
    ) -> CubeTensor<CudaRuntime> {
        match batched_product(a, b, span, (Output::Into(place), whole), alpha) {
            Ok(out) => out,
            Err(f) => burn_into(*f, alpha, place),
        }
    }

    /// Both products behind one handshake (oomlab's model::batched_pair module says why and
    /// what was measured; `kernels.attention_pairs=apart` goes back).
    fn batched_pairs_together_by_default() -> bool {
        true
    }

    /// On cuBLAS as [`Self::batched_product_into`] and [`Self::batched_product`], both
    /// behind one handshake; where either cannot run on cuBLAS, each on its own way.
    fn batched_into_and_new(
        first: Operand<Self>,
        whole: Option<CubeTensor<CudaRuntime>>,
        place: Place,
        second: Operand<Self>,
        rows: Rows,
    ) -> (CubeTensor<CudaRuntime>, CubeTensor<CudaRuntime>) {
        if first.a.dtype != second.a.dtype {
            return apart_into_and_new::<Self>(first, whole, place, second, rows);
        }
        let new = |f: Box<Fallback>| burn_batched::<Self>(f.operands.0, f.operands.1, f.span, 1.0);
        let one = batched_job(
            first.a,
            first.b,
            first.span,
            (Output::Into(place), whole),
            1.0,
        );
        let two = batched_job(
            second.a,
            second.b,
            second.span,
            (Output::New(rows), None),
            1.0,
        );
        match (one, two) {
            (Ok(one), Ok(two)) => match submit_pair(one, two) {
                Ok([whole, out]) => (whole, out),
                Err([f1, f2]) => (burn_into(*f1, 1.0, place), new(f2)),
            },
            (one, two) => (
                one.and_then(submit_batched)
                    .unwrap_or_else(|f| burn_into(*f, 1.0, place)),
                two.and_then(submit_batched).unwrap_or_else(new),
            ),
        }
    }

    /// On cuBLAS as two [`Self::batched_product_into`]s, the second into the first's
    /// output, both behind one handshake; where either cannot run on cuBLAS, each on its
    /// own way, in order.
    fn batched_into_twice(
        first: Operand<Self>,
        place: Place,
        second: Operand<Self>,
        second_at: usize,
        whole: Option<CubeTensor<CudaRuntime>>,
    ) -> CubeTensor<CudaRuntime> {
        if first.a.dtype != second.a.dtype {
            return apart_into_twice::<Self>(first, place, second, second_at, whole);
        }
        let place2 = Place {
            at: second_at,
            owned: true,
            ..place
        };
        let one = match batched_job(
            first.a,
            first.b,
            first.span,
            (Output::Into(place), whole),
            1.0,
        ) {
            Ok(one) => one,
            Err(f) => {
                let whole = burn_into(*f, 1.0, place);
                return Self::batched_product_into(
                    second.a,
                    second.b,
                    second.span,
                    1.0,
                    Some(whole),
                    place2,
                );
            }
        };
        // The second writes into the first's output (its other heads).
        let whole = Some(one.job.out.clone());
        let (whole, f2) = match batched_job(
            second.a,
            second.b,
            second.span,
            (Output::Into(place2), whole),
            1.0,
        ) {
            Ok(two) => match submit_pair(one, two) {
                Ok([whole, _]) => return whole,
                Err([f1, f2]) => {
                    // The second's copy of the whole goes first, so that the first's
                    // fallback writes into a buffer no other tensor holds.
                    let f2 = unshared(f2);
                    (burn_into(*f1, 1.0, place), f2)
                }
            },
            Err(f2) => {
                let f2 = unshared(f2);
                let whole = submit_batched(one).unwrap_or_else(|f| burn_into(*f, 1.0, place));
                (whole, f2)
            }
        };
        let (a, b) = *f2.operands;
        burn_batched_into::<Self>(a, b, f2.span, 1.0, Some(whole), place2)
    }
}

/// burn's matmul and `slice_assign` for a product of [`Output::Into`] that did not run on
/// cuBLAS ([`ProductBackend::batched_product_into`]'s default).
fn burn_into(f: Fallback, alpha: f32, place: Place) -> CubeTensor<CudaRuntime> {
    let (a, b) = *f.operands;
    let whole = f.whole.map(|w| *w);
    burn_batched_into::<CubeCuda>(a, b, f.span, alpha, whole, place)
}

/// `f` without its whole output: the second of [`ProductBackend::batched_into_twice`]'s
/// products holds the first's output, which its fallback is given afresh.
fn unshared(mut f: Box<Fallback>) -> Box<Fallback> {
    f.whole = None;
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_one_4_mib_buffer_unless_the_user_set_cublas_own_variable() {
        assert_eq!(Workspace::default_config(), ":4096:1");
        assert_eq!(Workspace::from_variable(None), Workspace::Default);
        // oomlab's own setting, inherited or not, is not taken for the user's.
        assert_eq!(
            Workspace::from_variable(Some(":4096:1".into())),
            Workspace::Default
        );
        let users = Workspace::from_variable(Some(":16384:8".into()));
        assert_eq!(users, Workspace::Users(":16384:8".into()));
        assert!(users
            .describe()
            .contains("CUBLAS_WORKSPACE_CONFIG=:16384:8"));
        assert!(Workspace::Default
            .describe()
            .contains("CUBLAS_WORKSPACE_CONFIG=:4096:1"));
    }

    #[test]
    fn f32_and_bf16_products_go_to_cublas_by_default() {
        assert!(by_default(DType::F32));
        assert!(by_default(DType::BF16));
        for dtype in [DType::F16, DType::F64] {
            assert!(!by_default(dtype), "{dtype:?}");
        }
    }

    #[test]
    fn f32_and_bf16_sums_and_embeddings_change_by_default_on_cuda() {
        for dtype in [DType::F32, DType::BF16] {
            assert!(<CubeCuda as ProductBackend>::split_sums_by_default(dtype));
            assert!(<CubeCuda as ProductBackend>::dense_embeddings_by_default(
                dtype
            ));
        }
        assert!(!<CubeCuda as ProductBackend>::split_sums_by_default(
            DType::F16
        ));
        assert!(!<CubeCuda as ProductBackend>::dense_embeddings_by_default(
            DType::F16
        ));
    }
}

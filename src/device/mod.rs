//! Choosing where to train: the CUDA GPU when there is a usable one, else the CPU.
//!
//! "Usable" means the driver loads, a device exists, and NVRTC (which burn 0.21's cubecl
//! needs at run time to compile kernels) can be loaded.

mod ballast;
mod kernel_cache;
mod prealloc;
mod request;
mod select;
mod threads;

pub use ballast::{hold_budget, Ballast, BudgetError, BudgetSetup};
pub use kernel_cache::{
    configure_cubecl, default_kernel_cache, AutotuneChoice, CacheCounts, CubeclSettings,
    CubeclSetup, SHIPPED_AUTOTUNE_LEVEL,
};
pub use prealloc::{plan_pages, pool_page_sizes, PreallocError, PreallocReport};
pub use request::DeviceRequest;
pub use select::{select, DeviceError, Selected};
pub use threads::{compute_threads, pin_compute_threads, PinThreadsError, BUDGET_THREADS};
// The CUDA operations' crate: finding the driver and NVRTC, and the kernel pack.
/// cuBLAS's workspace, set before any thread starts (the binary's first line).
pub use oomlab_kernels::cuda::cublas::Workspace as CublasWorkspace;
pub use oomlab_kernels::cuda::{
    compute_capability, cuda_driver, driver_version, install_compiled, install_tuned, kernels_line,
    locate_nvrtc, reexec_with_library_dir, CardId, CudaDriver, Install, Installed, NvrtcStatus,
    TunedInstall, CUBECL_VERSION,
};

//! Choosing where to train: the CUDA GPU when there is a usable one, else the CPU.
//!
//! "Usable" means the driver loads, a device exists, and NVRTC (which burn 0.21's cubecl
//! needs at run time to compile kernels) can be loaded.

pub mod adamw_kernels;
mod ballast;
mod column_major;
mod compiled;
mod cube;
pub mod cublas;
mod cuda_libs;
mod fence;
pub mod gelu_kernels;
mod kernel_cache;
pub mod norm_kernels;
mod pack_card;
mod plane_rows;
mod prealloc;
mod request;
mod select;
pub mod softmax_kernels;
mod strided_batch;
mod threads;
mod tuned;

pub use ballast::{hold_budget, Ballast, BudgetError, BudgetSetup};
pub use compiled::{driver_version, install_compiled, Install, Installed};
pub use cuda_libs::{cuda_driver, locate_nvrtc, reexec_with_library_dir, CudaDriver, NvrtcStatus};
pub use kernel_cache::{
    configure_cubecl, default_kernel_cache, AutotuneChoice, CacheCounts, CubeclSettings,
    CubeclSetup, SHIPPED_AUTOTUNE_LEVEL,
};
pub use pack_card::{compute_capability, CardId};
pub use plane_rows::kernels_line;
pub use prealloc::{plan_pages, pool_page_sizes, PreallocError, PreallocReport};
pub use request::DeviceRequest;
pub use select::{select, DeviceError, Selected};
pub use threads::{compute_threads, pin_compute_threads, BUDGET_THREADS};
pub use tuned::{install_tuned, TunedInstall, CUBECL_VERSION};

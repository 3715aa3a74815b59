//! The operations of [`crate::ops`] on burn's CUDA backend (`CubeBackend<CudaRuntime>`):
//! cuBLAS's products queued on cubecl's stream, oomlab's `#[cube]` kernels, and the kernel
//! pack that fills a fresh card's kernel cache.

pub mod adamw_kernels;
mod column_major;
mod compiled;
mod cube;
pub mod cublas;
mod cuda_libs;
mod error;
mod fence;
pub mod gelu_kernels;
pub mod norm_kernels;
mod pack_card;
mod plane_rows;
pub mod softmax_kernels;
mod strided_batch;
mod tuned;

pub use compiled::{driver_version, install_compiled, Install, Installed};
pub use cuda_libs::{cuda_driver, locate_nvrtc, reexec_with_library_dir, CudaDriver, NvrtcStatus};
pub use error::CudaOpError;
pub use pack_card::{compute_capability, CardId};
pub use plane_rows::kernels_line;
pub use tuned::{install_tuned, TunedInstall, CUBECL_VERSION};

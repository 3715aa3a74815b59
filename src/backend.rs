//! The one place where concrete burn backends are named. Everything else is generic over
//! `B: AutodiffBackend`.

use burn::backend::cuda::CudaDevice;
use burn::backend::flex::FlexDevice;
use burn::backend::{Autodiff, Cuda, Flex};
use burn::tensor::backend::AutodiffBackend;

use crate::device::Selected;
use crate::report::DeviceInfo;

/// The CPU training backend: burn's pure-Rust Flex backend with autodiff, f32.
pub type CpuBackend = Autodiff<Flex>;
/// The GPU training backend: burn's CUDA backend (cubecl, with fusion) with autodiff, f32.
pub type CudaBackend = Autodiff<Cuda>;

/// Work that runs on whichever backend was selected.
pub trait BackendJob {
    /// What the job returns.
    type Output;
    /// Runs on backend `B`.
    fn run<B: AutodiffBackend>(self, device: B::Device, info: DeviceInfo) -> Self::Output;
}

/// Runs `job` on the backend for `selected`.
pub fn dispatch<J: BackendJob>(selected: &Selected, job: J) -> J::Output {
    match selected {
        Selected::Cpu { .. } => job.run::<CpuBackend>(
            FlexDevice,
            DeviceInfo {
                kind: "cpu".into(),
                index: 0,
                backend: "flex".into(),
                label: "cpu".into(),
            },
        ),
        Selected::Cuda { index, name, .. } => job.run::<CudaBackend>(
            CudaDevice::new(*index),
            DeviceInfo {
                kind: "cuda".into(),
                index: *index,
                backend: "cuda (cubecl)".into(),
                label: format!("cuda:{index} {name}"),
            },
        ),
    }
}

//! The one place where concrete burn backends are named. Everything else is generic over
//! `B: AutodiffBackend`.

use std::sync::Arc;

use burn::backend::autodiff::checkpoint::strategy::BalancedCheckpointing;
use burn::backend::cuda::CudaDevice;
use burn::backend::flex::FlexDevice;
use burn::backend::{Autodiff, Cuda, Flex};
use burn::tensor::backend::AutodiffBackend;
use cubecl::cuda::CudaRuntime;
use cubecl::Runtime;

use crate::device::Selected;
use crate::probe::{AllocatorProbe, AllocatorStats};
use crate::report::DeviceInfo;
use crate::units::Bytes;

/// The CPU training backend: burn's pure-Rust Flex backend with autodiff, f32.
pub type CpuBackend = Autodiff<Flex>;
/// The GPU training backend: burn's CUDA backend (cubecl, with fusion) with autodiff, f32.
pub type CudaBackend = Autodiff<Cuda>;
/// [`CpuBackend`] with burn's balanced activation checkpointing.
pub type CpuCheckpointed = Autodiff<Flex, BalancedCheckpointing>;
/// [`CudaBackend`] with burn's balanced activation checkpointing: outputs of memory-bound
/// operations are not kept for the backward pass but recomputed from their inputs.
pub type CudaCheckpointed = Autodiff<Cuda, BalancedCheckpointing>;

/// Backend-specific pieces a job may use.
pub struct BackendExtras {
    /// burn/cubecl's allocator statistics, where the backend has them (CUDA).
    pub allocator: Option<AllocatorProbe>,
}

/// Work that runs on whichever backend was selected.
pub trait BackendJob {
    /// What the job returns.
    type Output;
    /// Runs on backend `B`.
    fn run<B: AutodiffBackend>(
        self,
        device: B::Device,
        info: DeviceInfo,
        extras: BackendExtras,
    ) -> Self::Output;
}

/// burn/cubecl's allocator statistics for CUDA device `index`.
pub fn cuda_allocator(index: usize) -> AllocatorProbe {
    let device = CudaDevice::new(index);
    AllocatorProbe::new(Arc::new(move || {
        CudaRuntime::client(&device)
            .memory_usage()
            .ok()
            .map(|u| AllocatorStats {
                allocs: u.number_allocs,
                in_use: Bytes(u.bytes_in_use),
                padding: Bytes(u.bytes_padding),
                reserved: Bytes(u.bytes_reserved),
            })
    }))
}

/// Runs `job` on the backend for `selected`, with burn's balanced activation
/// checkpointing when `checkpointing` is set.
pub fn dispatch<J: BackendJob>(selected: &Selected, checkpointing: bool, job: J) -> J::Output {
    let suffix = if checkpointing {
        ", balanced checkpointing"
    } else {
        ""
    };
    match selected {
        Selected::Cpu { .. } => {
            let info = DeviceInfo {
                kind: "cpu".into(),
                index: 0,
                backend: format!("flex{suffix}"),
                label: "cpu".into(),
            };
            let extras = BackendExtras { allocator: None };
            if checkpointing {
                job.run::<CpuCheckpointed>(FlexDevice, info, extras)
            } else {
                job.run::<CpuBackend>(FlexDevice, info, extras)
            }
        }
        Selected::Cuda { index, name, .. } => {
            let info = DeviceInfo {
                kind: "cuda".into(),
                index: *index,
                backend: format!("cuda (cubecl){suffix}"),
                label: format!("cuda:{index} {name}"),
            };
            let extras = BackendExtras {
                allocator: Some(cuda_allocator(*index)),
            };
            let device = CudaDevice::new(*index);
            if checkpointing {
                job.run::<CudaCheckpointed>(device, info, extras)
            } else {
                job.run::<CudaBackend>(device, info, extras)
            }
        }
    }
}

//! The one place where concrete burn backends are named. Everything else is generic over
//! `B: TrainBackend` (autodiff plus the memory-efficient attention operation).

use std::sync::Arc;

use burn::backend::autodiff::checkpoint::strategy::BalancedCheckpointing;
use burn::backend::cuda::CudaDevice;
use burn::backend::flex::FlexDevice;
use burn::backend::{Autodiff, Cuda, Flex};
use burn::tensor::Tensor;
use cubecl::cuda::CudaRuntime;
use cubecl::Runtime;

use crate::device::{plan_pages, pool_page_sizes, PreallocError, PreallocReport, Selected};
use crate::probe::{AllocatorProbe, AllocatorStats};
use crate::results::DeviceInfo;
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

/// Whether the CPU backend's linear layers run on the input seen as one matrix
/// ([`crate::model::linear_2d`]): as `kernels.linear` says, else as Flex's default. The
/// estimate reads it, to predict the run this environment makes.
pub fn cpu_linear_2d() -> bool {
    <CpuBackend as crate::model::LinearBackend>::linear_2d()
}

/// Backend-specific pieces a job may use.
pub struct BackendExtras {
    /// burn/cubecl's allocator statistics, where the backend has them (CUDA).
    pub allocator: Option<AllocatorProbe>,
    /// burn's GPU memory pool, where there is one to fill (CUDA).
    pub pool: Option<Arc<dyn crate::train::PoolHooks>>,
}

/// Whether the backend `selected` names has full support for `dtype` (burn's
/// `supports_dtype`: storage, conversion and arithmetic).
pub fn supports_dtype(selected: &Selected, dtype: burn::tensor::FloatDType) -> bool {
    use burn::tensor::backend::Backend;
    match selected {
        Selected::Cpu { .. } => <Flex as Backend>::supports_dtype(&FlexDevice, dtype.into()),
        Selected::Cuda { index, .. } => {
            <Cuda as Backend>::supports_dtype(&CudaDevice::new(*index), dtype.into())
        }
    }
}

/// burn's memory pool on one CUDA device, as the calling thread's stream sees it.
#[derive(Debug, Clone, Copy)]
pub struct CudaPool {
    index: usize,
}

impl crate::train::PoolHooks for CudaPool {
    /// Reserves empty pool pages for `fraction` of the device's free memory (see
    /// [`crate::device::PreallocReport`]). `free` reads the device's free memory now.
    /// Call it on the thread that trains: cubecl keeps a pool per stream, and a stream
    /// per thread.
    fn preallocate(
        &self,
        fraction: f64,
        free: &mut dyn FnMut() -> Option<Bytes>,
    ) -> Result<PreallocReport, PreallocError> {
        use burn::tensor::backend::Backend;
        let started = std::time::Instant::now();
        let device = CudaDevice::new(self.index);
        let client = CudaRuntime::client(&device);
        let stats = || {
            client
                .memory_usage()
                .map_err(|e| PreallocError::Allocator(format!("{e:?}")))
        };
        let free_before = free().ok_or(PreallocError::NoFreeReading)?;
        let before = stats()?;
        let target = (free_before.0 as f64 * fraction) as u64;
        // Keep some room for what is not in burn's pool: kernels loaded later, cuBLAS
        // workspaces, the driver.
        const MARGIN: u64 = 512 * 1024 * 1024;
        // Pages are asked for as f32 tensors of exactly one page, which the pool can only
        // place in a fresh page of that class. Classes whose page holds 2^31 f32 or more
        // (8.8 and 35 GiB on a 141 GiB card) are left out: such a tensor is past signed
        // 32-bit indexing, and only single tensors over a few hundred MiB land there.
        let memory = &client.properties().memory;
        let sizes: Vec<u64> = pool_page_sizes(memory.max_page_size, memory.alignment)
            .into_iter()
            .filter(|s| s / 4 < 1 << 31 && s % 4 == 0)
            .collect();
        let mut held_tensors = Vec::new();
        let pages = plan_pages(
            &sizes,
            target,
            MARGIN,
            || free().map(|f| f.0).unwrap_or(0),
            |size| {
                let t = Tensor::<Cuda, 1>::zeros([(size / 4) as usize], &device);
                // Reading one element makes fusion run the fill, so the page is
                // allocated now; the tensor itself stays alive until all are placed.
                #[allow(clippy::single_range_in_vec_init)] // one dimension: its first element
                let _ = t.clone().slice([0..1]).into_data();
                held_tensors.push(t);
                <Cuda as Backend>::sync(&device).is_ok()
            },
        );
        let held = stats()?;
        drop(held_tensors);
        let _ = <Cuda as Backend>::sync(&device);
        let after = stats()?;
        let asked: u64 = pages.iter().sum();
        let grew = held.bytes_reserved.saturating_sub(before.bytes_reserved);
        if grew < asked {
            return Err(PreallocError::Short {
                asked: Bytes(asked),
                grew: Bytes(grew),
            });
        }
        Ok(PreallocReport {
            fraction,
            free_before,
            target: Bytes(target),
            pages: pages.into_iter().map(Bytes).collect(),
            reserved_before: Bytes(before.bytes_reserved),
            reserved_after: Bytes(after.bytes_reserved),
            in_use_after: Bytes(after.bytes_in_use),
            seconds: started.elapsed().as_secs_f64(),
            grew_after: None,
        })
    }
}

/// Work that runs on the backend of the selected devices.
pub trait BackendJob {
    /// What the job returns.
    type Output;
    /// Runs on backend `B`, one entry per device (one for a single-device run).
    fn run<B: crate::train::TrainBackend>(
        self,
        devices: Vec<(B::Device, DeviceInfo, BackendExtras)>,
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

/// What the reports call a device, and the backend's pieces for it.
fn describe(selected: &Selected, suffix: &str) -> (DeviceInfo, BackendExtras) {
    match selected {
        Selected::Cpu { .. } => (
            DeviceInfo {
                kind: crate::words::DeviceKind::Cpu,
                index: 0,
                backend: format!("flex{suffix}"),
                label: "cpu".into(),
            },
            BackendExtras {
                allocator: None,
                pool: None,
            },
        ),
        Selected::Cuda { index, name, .. } => (
            DeviceInfo {
                kind: crate::words::DeviceKind::Cuda,
                index: *index,
                backend: format!(
                    "cuda (cubecl{}){suffix}",
                    oomlab_kernels::cuda::cublas::label()
                        .map(|l| format!("; {l}"))
                        .unwrap_or_default()
                ),
                label: format!("cuda:{index} {name}"),
            },
            BackendExtras {
                allocator: Some(cuda_allocator(*index)),
                pool: Some(Arc::new(CudaPool { index: *index })),
            },
        ),
    }
}

fn suffix(checkpointing: bool) -> &'static str {
    if checkpointing {
        ", balanced checkpointing"
    } else {
        ""
    }
}

/// Runs `job` on the backend of `selected` (one device, or several of one kind for a
/// data-parallel run: the caller has refused a mix of CPU and CUDA), with burn's balanced
/// activation checkpointing when `checkpointing` is set.
pub fn dispatch<J: BackendJob>(selected: &[Selected], checkpointing: bool, job: J) -> J::Output {
    let suffix = suffix(checkpointing);
    let cuda = matches!(selected.first(), Some(Selected::Cuda { .. }));
    if cuda {
        let devices = selected
            .iter()
            .map(|s| {
                let (info, extras) = describe(s, suffix);
                (CudaDevice::new(info.index), info, extras)
            })
            .collect();
        if checkpointing {
            job.run::<CudaCheckpointed>(devices)
        } else {
            job.run::<CudaBackend>(devices)
        }
    } else {
        let devices = selected
            .iter()
            .map(|s| {
                let (info, extras) = describe(s, suffix);
                (FlexDevice, info, extras)
            })
            .collect();
        if checkpointing {
            job.run::<CpuCheckpointed>(devices)
        } else {
            job.run::<CpuBackend>(devices)
        }
    }
}

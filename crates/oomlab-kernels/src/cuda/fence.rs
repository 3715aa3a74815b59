//! Ordering cuBLAS's stream with cubecl's on the device, without the host waiting (issue 29).
//!
//! cubecl-cuda 0.10 keeps its stream private (created non-blocking, so not even the legacy
//! default stream orders it). What both sides can name is device memory: a pair of 32-bit
//! flags, allocated by cubecl, whose address cubecl's server gives. Around each cuBLAS call:
//!
//! 1. [`Fence::signal`]: a one-thread cubecl kernel, queued after every kernel that made
//!    the operands, stores the call's epoch in flag 0; [`Fence::stream_waits`]: cuBLAS's
//!    stream waits for it (a one-thread kernel of oomlab's spinning until the flag is
//!    greater or equal).
//! 2. cuBLAS's products are queued on its stream.
//! 3. [`Fence::stream_writes`]: cuBLAS's stream writes the epoch to flag 1 (a one-thread
//!    kernel's release store: the products' output is visible);
//!    [`Fence::cubecl_waits`]: a one-thread cubecl kernel spins on flag 1 until it holds
//!    the epoch; every cubecl kernel queued after it, the output's readers and whoever
//!    reuses the operands' memory, runs after the products.
//!
//! cuBLAS's side of steps 1 and 3 is two one-thread kernels of oomlab's own (PTX, loaded
//! through the driver). The stream memory operations (`cuStreamWaitValue32`,
//! `cuStreamWriteValue32`), a measuring lever until 2026-12-07, failed on the H200 with
//! `CUDA_ERROR_INVALID_VALUE` (docs/results/2026-12-04-h200-cublas-oom), so every product
//! fell back to host syncs; with the kernels the host stays ahead of the GPU and the `gpu`
//! config's f32 step went from 86.7 to 74.6 ms (docs/results/2026-12-04-h200-fence-kernels).
//!
//! The host never waits for the GPU, which the two host syncs of the first version did.
//! Measured on the H200: with the memory operations the step was no faster than with the
//! syncs (docs/results/2026-12-04-h200-cublas-order), because every product fell back to
//! them; with the kernels the host keeps ahead and cuBLAS pays
//! (docs/results/2026-12-04-h200-fence-kernels). Each spinning kernel holds one thread of
//! one SM while it waits.
//!
//! Deadlock reasoning, for CUDA's lazy module loading (a kernel's first launch may wait for
//! the whole context): every wait on cuBLAS's stream is for a signal cubecl has already
//! launched (the caller asks cubecl for the operands' addresses between the signal and the
//! products: inline on cubecl's device thread, or a blocking round trip to it), and the
//! spinning kernel is launched only after the products and the write are queued: no wait
//! depends on work queued after it. The same holds for the stream side's kernels (the
//! spinning one on cuBLAS's stream waits for a signal already launched, the storing one
//! is launched before cubecl's wait), and each holds one thread, so it cannot keep the
//! kernel it waits for from a place on the GPU.
//!
//! The two cubecl kernels are oomlab's own, in super::cube::fence: their cache key carries
//! a hash of that file alone, so an edit of the host code here leaves the shipped
//! compiled-kernel pack valid (until 2026-12-07 they were here, and any edit of this file
//! cost a fresh GPU two compiled kernels at its first step).

use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;

use super::cube::fence::{fence_signal, fence_wait, source_key};
use super::error::CudaOpError::{self, Unfit};
use cudarc::driver::result as drv;
use cudarc::driver::sys as cu;

/// The stream side's kernels, in PTX the driver compiles for
/// the card when the module is loaded: `oomlab_fence_wait(flag, epoch)` returns once the
/// u32 at `flag` is at least `epoch` (acquire loads at GPU scope), `oomlab_fence_write(flag,
/// epoch)` stores `epoch` there (a release store: the products queued before it on the
/// stream are complete and visible).
const PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry oomlab_fence_wait(.param .u64 flag, .param .u32 epoch)
{
    .reg .pred p;
    .reg .b32 v, e;
    .reg .b64 a;
    ld.param.u64 a, [flag];
    ld.param.u32 e, [epoch];
    cvta.to.global.u64 a, a;
SPIN:
    ld.acquire.gpu.global.u32 v, [a];
    setp.lt.u32 p, v, e;
    @p bra SPIN;
    ret;
}
.visible .entry oomlab_fence_write(.param .u64 flag, .param .u32 epoch)
{
    .reg .b32 e;
    .reg .b64 a;
    ld.param.u64 a, [flag];
    ld.param.u32 e, [epoch];
    cvta.to.global.u64 a, a;
    st.release.gpu.global.u32 [a], e;
    ret;
}
"#;

/// The stream side's two kernels, loaded in the current context.
struct StreamKernels {
    wait: cu::CUfunction,
    write: cu::CUfunction,
}

impl StreamKernels {
    fn load() -> Result<StreamKernels, CudaOpError> {
        let ptx = std::ffi::CString::new(PTX).map_err(|e| Unfit(e.to_string()))?;
        let name = |n: &str| std::ffi::CString::new(n).map_err(|e| Unfit(e.to_string()));
        // SAFETY: a NUL-terminated PTX image; the module is kept for the process's life.
        unsafe {
            let module = drv::module::load_data(ptx.as_ptr() as *const std::ffi::c_void)
                .map_err(CudaOpError::driver("cuModuleLoadData (the fence's PTX)"))?;
            Ok(StreamKernels {
                wait: drv::module::get_function(module, name("oomlab_fence_wait")?)
                    .map_err(CudaOpError::driver("cuModuleGetFunction"))?,
                write: drv::module::get_function(module, name("oomlab_fence_write")?)
                    .map_err(CudaOpError::driver("cuModuleGetFunction"))?,
            })
        }
    }

    /// # Safety
    /// `stream` is live in the current context; `flag` a live u32 in device memory there.
    unsafe fn launch(
        f: cu::CUfunction,
        stream: cu::CUstream,
        flag: u64,
        epoch: u32,
    ) -> Result<(), CudaOpError> {
        let (mut flag, mut epoch) = (flag, epoch);
        let mut params = [
            &mut flag as *mut u64 as *mut std::ffi::c_void,
            &mut epoch as *mut u32 as *mut std::ffi::c_void,
        ];
        // SAFETY: the caller's; the parameters match the kernels' (u64, u32).
        unsafe { drv::launch_kernel(f, (1, 1, 1), (1, 1, 1), 0, stream, &mut params) }
            .map_err(CudaOpError::driver("cuLaunchKernel (a fence kernel)"))
    }
}

/// The flags of one thread's cubecl stream on one device, and the last epoch used.
pub(super) struct Fence {
    client: ComputeClient<CudaRuntime>,
    flags: cubecl::server::Handle,
    /// Flag 0's device address; flag 1 is 4 bytes on.
    address: u64,
    epoch: u32,
    /// The stream side's kernels.
    kernels: StreamKernels,
}

impl Fence {
    /// Two zeroed flags in cubecl's memory on `client`'s device, and the stream side's
    /// kernels loaded in the current context.
    pub(super) fn new(client: &ComputeClient<CudaRuntime>) -> Result<Fence, CudaOpError> {
        let flags = client.create_from_slice(u32::as_bytes(&[0, 0]));
        let address = client
            .get_resource(flags.clone())
            .map_err(|e| CudaOpError::Buffer(format!("{e:?}")))?
            .resource()
            .ptr;
        let kernels = StreamKernels::load()?;
        Ok(Fence {
            client: client.clone(),
            flags,
            address,
            epoch: 0,
            kernels,
        })
    }

    fn launch(&self, wait: bool) {
        let flags = || {
            // SAFETY: the handle holds two u32, the length given.
            unsafe { ArrayArg::from_raw_parts(self.flags.clone(), 2) }
        };
        let (count, dim) = (CubeCount::Static(1, 1, 1), CubeDim::new_1d(1));
        if wait {
            fence_wait::launch::<CudaRuntime>(
                &self.client,
                count,
                dim,
                flags(),
                self.epoch,
                source_key(),
            );
        } else {
            fence_signal::launch::<CudaRuntime>(
                &self.client,
                count,
                dim,
                flags(),
                self.epoch,
                source_key(),
            );
        }
    }

    /// Step 1a: the next epoch, and the signal queued on cubecl's stream (after every
    /// kernel launched before).
    pub(super) fn signal(&mut self) -> Result<(), CudaOpError> {
        self.epoch = self
            .epoch
            .checked_add(1)
            .ok_or_else(|| Unfit("the fence's epochs ran out".to_string()))?;
        self.launch(false);
        Ok(())
    }

    /// Step 1b: `stream` waits for the signal. The caller asks cubecl's server something
    /// blocking (the operands' addresses) before queueing work behind the wait on `stream`.
    ///
    /// # Safety
    /// `stream` is a live stream in the flags' context, current on this thread; called once
    /// after [`Fence::signal`].
    pub(super) unsafe fn stream_waits(&self, stream: cu::CUstream) -> Result<(), CudaOpError> {
        let (k, flag) = (&self.kernels, self.address);
        // SAFETY: the flag is a live cubecl allocation (kept by self.flags).
        unsafe { StreamKernels::launch(k.wait, stream, flag, self.epoch) }
    }

    /// Step 3a: `stream` writes the epoch after the work queued on it. On `Err` nothing was
    /// queued: the caller synchronizes `stream` itself and skips step 3b.
    ///
    /// # Safety
    /// As [`Fence::stream_waits`], called once after it.
    pub(super) unsafe fn stream_writes(&self, stream: cu::CUstream) -> Result<(), CudaOpError> {
        let (k, flag) = (&self.kernels, self.address + 4);
        // SAFETY: as in stream_waits.
        unsafe { StreamKernels::launch(k.write, stream, flag, self.epoch) }
    }

    /// Step 3b: cubecl's wait for the write queued on its stream: cubecl's later kernels
    /// run after the work queued on `stream` before the write.
    pub(super) fn cubecl_waits(&self) {
        self.launch(true);
    }
}

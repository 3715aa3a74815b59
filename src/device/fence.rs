//! Ordering cuBLAS's stream with cubecl's on the device, without the host waiting (issue 29).
//!
//! cubecl-cuda 0.10 keeps its stream private (created non-blocking, so not even the legacy
//! default stream orders it). What both sides can name is device memory: a pair of 32-bit
//! flags, allocated by cubecl, whose address cubecl's server gives. Around each cuBLAS call:
//!
//! 1. [`Fence::after_cubecl`]: a one-thread cubecl kernel, queued after every kernel that
//!    made the operands, stores the call's epoch in flag 0; cuBLAS's stream waits
//!    (`cuStreamWaitValue32`, greater or equal) for it.
//! 2. cuBLAS's products are queued on its stream.
//! 3. [`Fence::before_cubecl`]: cuBLAS's stream writes the epoch to flag 1
//!    (`cuStreamWriteValue32`, after a memory fence: the products' output is visible), and a
//!    one-thread cubecl kernel spins on flag 1 until it holds the epoch; every cubecl kernel
//!    queued after it, the output's readers and whoever reuses the operands' memory, runs
//!    after the products.
//!
//! The host never waits for the GPU, which the two host syncs of the first version did.
//! Measured on the H200 (docs/results/2026-12-04-h200-cublas-order): the step was no faster
//! than with the syncs; the host's calls around each product (the addresses, a blocking
//! round trip each to cubecl's device thread, and the cuBLAS call) are what cost. The
//! spinning kernel holds one thread of one SM while the products run.
//!
//! Deadlock reasoning, for CUDA's lazy module loading (a kernel's first launch may wait for
//! the whole context): every wait on cuBLAS's stream is for a signal cubecl has already
//! launched (the caller asks cubecl for the operands' addresses between the signal and the
//! products: inline on cubecl's device thread, or a blocking round trip to it), and the
//! spinning kernel is launched only after the products and the write are queued: no wait
//! depends on work queued after it.
//!
//! The two kernels are oomlab's own: their cache key carries a hash of this file
//! ([`source_key`]), so a compiled-kernel pack made before an edit cannot serve them.

use cubecl::cuda::CudaRuntime;
use cubecl::prelude::*;
use cudarc::driver::sys as cu;

/// A hash of this file, a compile-time argument of both kernels: part of their cache key
/// (a test in [`super::compiled`] holds every `#[cube]` kernel of oomlab's to that).
fn source_key() -> u32 {
    crc32fast::hash(include_str!("fence.rs").as_bytes())
}

/// Flag 0 (cubecl to cuBLAS) takes the epoch.
#[cube(launch)]
fn fence_signal(flags: &mut Array<Atomic<u32>>, epoch: u32, #[comptime] _source: u32) {
    if UNIT_POS == 0 {
        flags[0].store(epoch);
    }
}

/// Returns once flag 1 (cuBLAS to cubecl) holds the epoch or a later one.
#[cube(launch)]
fn fence_wait(flags: &mut Array<Atomic<u32>>, epoch: u32, #[comptime] _source: u32) {
    if UNIT_POS == 0 {
        loop {
            if flags[1].load() >= epoch {
                break;
            }
        }
    }
}

/// The flags of one thread's cubecl stream on one device, and the last epoch used.
pub struct Fence {
    client: ComputeClient<CudaRuntime>,
    flags: cubecl::server::Handle,
    /// Flag 0's device address; flag 1 is 4 bytes on.
    address: u64,
    epoch: u32,
}

fn check(result: cu::CUresult, what: &str) -> Result<(), String> {
    match result {
        cu::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(format!("{what}: {e:?}")),
    }
}

impl Fence {
    /// Two zeroed flags in cubecl's memory on `client`'s device.
    pub fn new(client: &ComputeClient<CudaRuntime>) -> Result<Fence, String> {
        let flags = client.create_from_slice(u32::as_bytes(&[0, 0]));
        let address = client
            .get_resource(flags.clone())
            .map_err(|e| format!("{e:?}"))?
            .resource()
            .ptr;
        Ok(Fence {
            client: client.clone(),
            flags,
            address,
            epoch: 0,
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

    /// Queues the signal on cubecl's stream (after every kernel launched before) and makes
    /// `stream` wait for it. The caller asks cubecl's server something blocking (the
    /// operands' addresses) before queueing work behind the wait on `stream`.
    ///
    /// # Safety
    /// `stream` is a live stream in the flags' context, current on this thread.
    pub unsafe fn after_cubecl(&mut self, stream: cu::CUstream) -> Result<(), String> {
        self.epoch = self
            .epoch
            .checked_add(1)
            .ok_or("the fence's epochs ran out")?;
        self.launch(false);
        let flag = self.address;
        // SAFETY: the flag is a live cubecl allocation (kept by self.flags).
        check(
            unsafe {
                cu::cuStreamWaitValue32_v2(
                    stream,
                    flag,
                    self.epoch,
                    cu::CUstreamWaitValue_flags::CU_STREAM_WAIT_VALUE_GEQ as u32,
                )
            },
            "cuStreamWaitValue32",
        )
    }

    /// Makes `stream` write the epoch after the work queued on it, and queues cubecl's wait
    /// for it: cubecl's later kernels run after that work. On `Err` nothing was queued on
    /// cubecl's side: the caller synchronizes `stream` itself.
    ///
    /// # Safety
    /// As [`Fence::after_cubecl`], called once after it.
    pub unsafe fn before_cubecl(&mut self, stream: cu::CUstream) -> Result<(), String> {
        let flag = self.address + 4;
        // SAFETY: as in after_cubecl.
        check(
            unsafe {
                cu::cuStreamWriteValue32_v2(
                    stream,
                    flag,
                    self.epoch,
                    cu::CUstreamWriteValue_flags::CU_STREAM_WRITE_VALUE_DEFAULT as u32,
                )
            },
            "cuStreamWriteValue32",
        )?;
        self.launch(true);
        Ok(())
    }
}

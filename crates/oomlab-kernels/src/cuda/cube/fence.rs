//! The `#[cube]` kernels of the fence that orders cuBLAS's stream with cubecl's
//! (super::super::fence launches them and says how the two streams wait for each other).
//!
//! Their cache key carries a hash of this file (`source_key`), so a compiled-kernel pack made
//! before an edit of it cannot serve them; edits of the host code leave the key as it was.

use cubecl::prelude::*;

/// A hash of this file, a compile-time argument of both kernels: part of their cache key
/// (a test in super::super::compiled holds every `#[cube]` kernel of oomlab's to that).
pub(crate) fn source_key() -> u32 {
    crc32fast::hash(include_str!("fence.rs").as_bytes())
}

/// Flag 0 (cubecl to cuBLAS) takes the epoch.
#[cube(launch)]
pub(crate) fn fence_signal(flags: &mut Array<Atomic<u32>>, epoch: u32, #[comptime] _source: u32) {
    if UNIT_POS == 0 {
        flags[0].store(epoch);
    }
}

/// Returns once flag 1 (cuBLAS to cubecl) holds the epoch or a later one.
#[cube(launch)]
pub(crate) fn fence_wait(flags: &mut Array<Atomic<u32>>, epoch: u32, #[comptime] _source: u32) {
    if UNIT_POS == 0 {
        loop {
            if flags[1].load() >= epoch {
                break;
            }
        }
    }
}

//! PyTorch's CUDA caching allocator as a model: given the allocations and frees of a run,
//! which segments it reserves from the driver, so the reserved peak (what
//! torch.cuda.max_memory_reserved reports, and nvidia-smi less the context) follows from
//! the tensors alone.
//!
//! The rules, read from c10/cuda/CUDACachingAllocator.cpp (torch 2.11) with its default
//! settings (no expandable segments, no `max_split_size_mb`, no garbage collection
//! threshold, one stream):
//! - a request is rounded up to a multiple of 512 bytes;
//! - up to 1 MiB it is served from the small pool, above from the large pool;
//! - a request is served by the smallest cached free block of its pool that is large
//!   enough (ties: the lowest address);
//! - when none is, a new segment is reserved: 2 MiB for a small request, 20 MiB for one
//!   under 10 MiB, otherwise the request rounded up to 2 MiB;
//! - the block is split when what remains is at least 512 bytes (small pool) or more than
//!   1 MiB (large pool): the request takes the front, the rest stays cached;
//! - a freed block merges with its free neighbours in the same segment; segments are never
//!   given back (no `empty_cache` in a training loop), and blocks of two segments never
//!   merge.
//!
//! Checked against the allocator itself: replaying the event traces recorded on the H200
//! (docs/results/2026-12-04-h200-hf-allocator-trace and -trace2, benches/hf_memory.py with
//! HF_MEMORY_TRACE=1) gives the traced segments in order and the traced reserved peak, to
//! the byte where the cache was empty when recording began, within the 2 MiB small
//! segment the context had reserved before it otherwise (tests/integration/hf_allocator.rs).
//!
//! Used by the estimate through [`super::replay`], which feeds it a training run's
//! allocation sequence ([`super::template`]).

use std::collections::{BTreeMap, BTreeSet};

/// Requests are rounded up to this.
const MIN_BLOCK: u64 = 512;
/// Largest request of the small pool.
const SMALL_SIZE: u64 = 1 << 20;
/// Segment of the small pool.
const SMALL_BUFFER: u64 = 2 << 20;
/// Segment for a large request under [`MIN_LARGE_ALLOC`].
const LARGE_BUFFER: u64 = 20 << 20;
/// Requests from this size get a segment of their own size.
const MIN_LARGE_ALLOC: u64 = 10 << 20;
/// Those segments are rounded up to this.
const ROUND_LARGE: u64 = 2 << 20;
/// Room left between two segments' made-up addresses, so no two segments touch.
const SEGMENT_GAP: u64 = 1 << 40;

/// A request's size as the allocator rounds it.
pub fn round_size(bytes: u64) -> u64 {
    bytes.max(1).div_ceil(MIN_BLOCK) * MIN_BLOCK
}

/// The segment reserved for a rounded request that no cached block can serve.
pub fn segment_size(rounded: u64) -> u64 {
    if rounded <= SMALL_SIZE {
        SMALL_BUFFER
    } else if rounded < MIN_LARGE_ALLOC {
        LARGE_BUFFER
    } else {
        rounded.div_ceil(ROUND_LARGE) * ROUND_LARGE
    }
}

/// An allocation made by [`CachingAllocator::malloc`], to give to
/// [`CachingAllocator::free`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(u64);

#[derive(Debug, Clone, Copy)]
struct Block {
    size: u64,
    segment: u64,
    small: bool,
    free: bool,
}

/// The allocator's state: its segments and their blocks, with made-up addresses.
#[derive(Debug, Default)]
pub struct CachingAllocator {
    /// Every block by address.
    blocks: BTreeMap<u64, Block>,
    /// Free blocks of the large and the small pool, by (size, address).
    free_large: BTreeSet<(u64, u64)>,
    free_small: BTreeSet<(u64, u64)>,
    next_segment: u64,
    reserved: u64,
    peak_reserved: u64,
    allocated: u64,
    peak_allocated: u64,
    segments: Vec<u64>,
}

impl CachingAllocator {
    /// An empty cache.
    pub fn new() -> Self {
        CachingAllocator {
            next_segment: SEGMENT_GAP,
            ..Default::default()
        }
    }

    fn pool(&mut self, small: bool) -> &mut BTreeSet<(u64, u64)> {
        if small {
            &mut self.free_small
        } else {
            &mut self.free_large
        }
    }

    /// Serve a request of `bytes`.
    pub fn malloc(&mut self, bytes: u64) -> BlockId {
        let size = round_size(bytes);
        let small = size <= SMALL_SIZE;
        let found = self.pool(small).range((size, 0)..).next().copied();
        let addr = match found {
            Some(key) => {
                self.pool(small).remove(&key);
                key.1
            }
            None => {
                let seg = segment_size(size);
                let addr = self.next_segment;
                self.next_segment += seg + SEGMENT_GAP;
                self.blocks.insert(
                    addr,
                    Block {
                        size: seg,
                        segment: addr,
                        small,
                        free: true,
                    },
                );
                self.reserved += seg;
                self.peak_reserved = self.peak_reserved.max(self.reserved);
                self.segments.push(seg);
                addr
            }
        };
        let Some(block) = self.blocks.get_mut(&addr) else {
            unreachable!("a cached block is in the block map")
        };
        let rest = block.size - size;
        let split = if small {
            rest >= MIN_BLOCK
        } else {
            rest > SMALL_SIZE
        };
        block.free = false;
        // The block handed out: the request, or the whole block when the rest is too small
        // to keep apart (as PyTorch counts it in memory_allocated).
        let taken = if split { size } else { block.size };
        if split {
            block.size = size;
            let tail = Block {
                size: rest,
                segment: block.segment,
                small,
                free: true,
            };
            self.blocks.insert(addr + size, tail);
            self.pool(small).insert((rest, addr + size));
        }
        self.allocated += taken;
        self.peak_allocated = self.peak_allocated.max(self.allocated);
        BlockId(addr)
    }

    /// Give a block back to the cache (merged with free neighbours of its segment).
    pub fn free(&mut self, id: BlockId) {
        let Some(mut block) = self.blocks.get(&id.0).copied() else {
            return;
        };
        if block.free {
            return;
        }
        self.allocated -= block.size;
        let mut addr = id.0;
        // The block before, when it is free and in the same segment.
        let before = self
            .blocks
            .range(..addr)
            .next_back()
            .map(|(a, b)| (*a, *b))
            .filter(|(a, b)| b.free && b.segment == block.segment && a + b.size == addr);
        if let Some((a, b)) = before {
            self.pool(block.small).remove(&(b.size, a));
            self.blocks.remove(&addr);
            block.size += b.size;
            addr = a;
        }
        let after = self
            .blocks
            .get(&(addr + block.size))
            .copied()
            .filter(|b| b.free && b.segment == block.segment);
        if let Some(b) = after {
            self.pool(block.small).remove(&(b.size, addr + block.size));
            self.blocks.remove(&(addr + block.size));
            block.size += b.size;
        }
        block.free = true;
        self.blocks.insert(addr, block);
        self.pool(block.small).insert((block.size, addr));
    }

    /// Bytes reserved now.
    pub fn reserved(&self) -> u64 {
        self.reserved
    }

    /// The most ever reserved.
    pub fn peak_reserved(&self) -> u64 {
        self.peak_reserved
    }

    /// Bytes in allocated blocks now (rounded requests, as torch.cuda.memory_allocated).
    pub fn allocated(&self) -> u64 {
        self.allocated
    }

    /// The most ever allocated.
    pub fn peak_allocated(&self) -> u64 {
        self.peak_allocated
    }

    /// The size of every segment reserved, in order.
    pub fn segments(&self) -> &[u64] {
        &self.segments
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn requests_round_to_512_bytes_and_pick_their_segment_size() {
        assert_eq!(round_size(1), 512);
        assert_eq!(round_size(513), 1024);
        assert_eq!(segment_size(round_size(4)), 2 * MIB);
        assert_eq!(segment_size(3 * MIB), 20 * MIB);
        assert_eq!(segment_size(10 * MIB), 10 * MIB);
        assert_eq!(segment_size(11 * MIB + 1), 12 * MIB);
    }

    #[test]
    fn a_freed_block_serves_a_smaller_request_and_the_segment_is_kept() {
        let mut a = CachingAllocator::new();
        let x = a.malloc(100 * MIB);
        a.free(x);
        assert_eq!(a.reserved(), 100 * MIB);
        let y = a.malloc(60 * MIB);
        let z = a.malloc(40 * MIB);
        assert_eq!(a.segments(), &[100 * MIB], "both fit in the freed segment");
        a.free(y);
        a.free(z);
        // Merged back: a 100 MiB request fits again.
        let _ = a.malloc(100 * MIB);
        assert_eq!(a.segments(), &[100 * MIB]);
    }

    #[test]
    fn a_split_block_cannot_serve_a_request_of_the_whole_segment() {
        let mut a = CachingAllocator::new();
        let x = a.malloc(100 * MIB);
        a.free(x);
        let _kept = a.malloc(30 * MIB);
        let _ = a.malloc(100 * MIB);
        assert_eq!(a.segments(), &[100 * MIB, 100 * MIB]);
        assert_eq!(a.peak_reserved(), 200 * MIB);
    }

    #[test]
    fn best_fit_takes_the_smallest_block_that_is_large_enough() {
        let mut a = CachingAllocator::new();
        let big = a.malloc(200 * MIB);
        let small = a.malloc(50 * MIB);
        a.free(big);
        a.free(small);
        let _ = a.malloc(40 * MIB);
        // The 50 MiB segment took it: 200 MiB are still free in one block.
        let _ = a.malloc(200 * MIB);
        assert_eq!(a.segments().len(), 2);
    }

    #[test]
    fn small_requests_share_2_mib_segments_and_mid_sized_ones_20_mib() {
        let mut a = CachingAllocator::new();
        for _ in 0..4 {
            let _ = a.malloc(600 * 1024);
        }
        assert_eq!(a.segments(), &[2 * MIB, 2 * MIB]);
        for _ in 0..3 {
            let _ = a.malloc(6 * MIB);
        }
        assert_eq!(a.segments()[2..], [20 * MIB]);
        let _ = a.malloc(6 * MIB);
        assert_eq!(a.segments()[2..], [20 * MIB, 20 * MIB]);
    }

    #[test]
    fn no_split_leaves_a_remainder_of_one_mib_or_less_in_the_block() {
        let mut a = CachingAllocator::new();
        let x = a.malloc(12 * MIB);
        a.free(x);
        let y = a.malloc(11 * MIB + 512);
        // 12 MiB - (11 MiB + 512) <= 1 MiB: the whole block is handed out.
        assert_eq!(a.allocated(), 12 * MIB);
        a.free(y);
        assert_eq!(a.allocated(), 0);
    }
}

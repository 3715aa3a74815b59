//! `--memory-mode prealloc`: TensorFlow/JAX-style preallocation on top of burn's pool.
//!
//! burn 0.21 (cubecl 0.10) keeps GPU memory in size-classed pools of pages: a tensor goes
//! to the first pool whose largest slice fits it (or whose page it fills to within 20%),
//! a pool gets a new page (one `cuMemAlloc`) when none of its pages has room, and pages
//! stay reserved until an explicit `memory_cleanup`. So memory can be preallocated by
//! asking the pool for allocations exactly one page in size, class by class, and
//! dropping them: the pages stay, empty, owned by this process as far as NVML and other
//! processes are concerned. Unlike TensorFlow's single arena, a page only serves tensors
//! of its own size class; a step that needs more pages of a class than were reserved
//! still grows the pool (the report says by how much).
//!
//! The page sizes follow cubecl-runtime 0.10's `MemoryConfiguration::SubSlices`
//! (`memory_manage.rs`): the largest page is the device's `max_page_size` (a quarter of
//! the card), each smaller class a quarter of the one above, down to the first below
//! 32 MiB; the allocator's own statistics check every page that was asked for. (Found on
//! the H200: computing them from NVML's total instead, 0.4% more than cubecl's, made
//! every "2.19 GiB page" a little too big for its class, so they landed three to a page
//! of the next class up.)

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// What preallocation did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreallocReport {
    /// Share of the free VRAM asked for.
    pub fraction: f64,
    /// Free VRAM on the device before (NVML).
    pub free_before: Bytes,
    /// `fraction` × `free_before`.
    pub target: Bytes,
    /// Pages reserved, largest first.
    pub pages: Vec<Bytes>,
    /// burn's reserved bytes before and after (allocator statistics).
    pub reserved_before: Bytes,
    /// After the pages were reserved and released (still reserved: that is the point).
    pub reserved_after: Bytes,
    /// Bytes in use after release (should be back to before).
    pub in_use_after: Bytes,
    /// Seconds it took.
    pub seconds: f64,
    /// Reserved at the end of the run minus `reserved_after`: pages the training still had
    /// to add, in size classes the preallocation did not cover (filled in at the end).
    pub grew_after: Option<Bytes>,
}

/// Why preallocation reserved nothing.
#[derive(Debug, thiserror::Error)]
pub enum PreallocError {
    /// No free-memory figure to size the reservation by.
    #[error("NVML cannot read the device's free memory, which prealloc sizes itself by")]
    NoFreeReading,
    /// burn's allocator statistics could not be read.
    #[error("burn's allocator statistics are unavailable: {0}")]
    Allocator(String),
    /// The pool grew by less than the pages asked for.
    #[error("asked burn's pool for {asked} of pages but its reserved bytes grew by {grew} only: an allocation failed (out of memory: another process may have taken the memory meanwhile), or cubecl's page sizes differ from what oomlab expects (cubecl 0.10 sub-slice pools)")]
    Short {
        /// Sum of the pages asked for.
        asked: Bytes,
        /// What the pool's reserved bytes grew by.
        grew: Bytes,
    },
}

/// Page sizes of cubecl 0.10's sub-slice pools, largest first, from the device's
/// `max_page_size` (a quarter of what `cuDeviceTotalMem` reports, which is a little less
/// than NVML's total) and memory alignment.
pub fn pool_page_sizes(max_page: u64, alignment: u64) -> Vec<u64> {
    const MIB: u64 = 1024 * 1024;
    let mut sizes = vec![max_page / alignment * alignment];
    let mut current = max_page;
    while current >= 32 * MIB {
        current /= 4;
        current = current.next_multiple_of(alignment);
        sizes.push(current);
    }
    sizes
}

/// Which pages to ask for: greedily from the largest class down, never above `target`
/// and never closer than `margin` to the free memory `free_now()` reports before each.
pub fn plan_pages(
    sizes: &[u64],
    target: u64,
    margin: u64,
    mut free_now: impl FnMut() -> u64,
    mut take: impl FnMut(u64) -> bool,
) -> Vec<u64> {
    let mut taken = Vec::new();
    let mut left = target;
    for &size in sizes {
        while size <= left && size + margin <= free_now() {
            if !take(size) {
                return taken;
            }
            taken.push(size);
            left -= size;
        }
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1024 * 1024 * 1024;
    const MIB: u64 = 1024 * 1024;

    #[test]
    fn page_classes_are_quarters_of_a_quarter_of_the_card() {
        let sizes = pool_page_sizes(20 * GIB, 512);
        assert_eq!(sizes[0], 20 * GIB);
        assert_eq!(sizes[1], 5 * GIB);
        assert!(sizes.windows(2).all(|w| w[0] > w[1]));
        assert!(*sizes.last().unwrap() < 32 * MIB);
        assert!(sizes.iter().all(|s| s % 512 == 0));
    }

    #[test]
    fn pages_fill_the_target_from_the_largest_class_and_respect_free_memory() {
        let sizes = [1000, 250, 60];
        let free = std::cell::Cell::new(1500u64);
        let take = |s: u64| {
            free.set(free.get() - s);
            true
        };
        let pages = plan_pages(&sizes, 1400, 100, || free.get(), take);
        // 1000, 250 (150 of the target left), then 60 twice (30 left).
        assert_eq!(pages, vec![1000, 250, 60, 60]);
        // Free memory stops it before the target: 1000 fits (free 300), 250 would leave
        // less than the margin of 100, 60 fits three times (free 120), not a fourth.
        let free = std::cell::Cell::new(1300u64);
        let take = |s: u64| {
            free.set(free.get() - s);
            true
        };
        let pages = plan_pages(&sizes, 1400, 100, || free.get(), take);
        assert_eq!(pages, vec![1000, 60, 60, 60]);
        let pages = plan_pages(&sizes, 300, 0, || u64::MAX, |_| true);
        assert_eq!(pages, vec![250]);
    }
}

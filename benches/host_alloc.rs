//! The counting allocator's cost (src/probe/host.rs) when several threads allocate at once,
//! as burn's fusion thread, cubecl's device thread and the training thread do in a CUDA
//! step: nanoseconds per allocation and free, per thread, for the system allocator alone,
//! oomlab's counting allocator, and the counting allocator as it was before 988e20f (its
//! counters on one cache line, a flag and the peak written by every allocation), copied
//! below. One binary: a switch picks the allocator between runs, so all three pay the
//! same dispatch.
//!   cargo bench --bench host_alloc
//! Figures belong in result files (docs/results/2026-12-06-cpu-host-alloc.md), not tests.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

use oomlab::probe::host::CountingAlloc;

/// 0: the system allocator, 1: oomlab's counting allocator, 2: the one before 988e20f.
static MODE: AtomicU8 = AtomicU8::new(0);

struct Switch;

// SAFETY: every mode forwards to the system allocator; a block freed in another mode than
// the one that allocated it is still the system's (the modes change only between runs).
unsafe impl GlobalAlloc for Switch {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        match MODE.load(Ordering::Relaxed) {
            // SAFETY: same contract as ours.
            1 => unsafe { CountingAlloc.alloc(layout) },
            // SAFETY: same contract as ours.
            2 => unsafe { Before.alloc(layout) },
            // SAFETY: same contract as ours.
            _ => unsafe { System.alloc(layout) },
        }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match MODE.load(Ordering::Relaxed) {
            // SAFETY: same contract as ours.
            1 => unsafe { CountingAlloc.dealloc(ptr, layout) },
            // SAFETY: same contract as ours.
            2 => unsafe { Before.dealloc(ptr, layout) },
            // SAFETY: same contract as ours.
            _ => unsafe { System.dealloc(ptr, layout) },
        }
    }
}

#[global_allocator]
static ALLOC: Switch = Switch;

// The counting allocator of 613997e (src/probe/host.rs before 988e20f), its counting only.
static IN_USE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);
static ACTIVE: AtomicBool = AtomicBool::new(false);
static BUDGET: AtomicU64 = AtomicU64::new(0);
static OVER_BUDGET_REQUEST: AtomicU64 = AtomicU64::new(0);

struct Before;

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Before {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ACTIVE.store(true, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let size = layout.size() as u64;
            let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
            PEAK.fetch_max(now, Ordering::Relaxed);
            let budget = BUDGET.load(Ordering::Relaxed);
            if budget != 0 && now > budget {
                let _ = OVER_BUDGET_REQUEST.compare_exchange(
                    0,
                    size,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
    }
}

/// Each of `threads` threads allocates `per_thread` small buffers (32 to 128 bytes, as
/// fusion's bookkeeping does), holding 16 at a time: nanoseconds per allocation and free.
fn run(threads: usize, per_thread: usize) -> f64 {
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(move || {
                let mut held: Vec<Vec<u8>> = Vec::with_capacity(16);
                for i in 0..per_thread {
                    held.push(Vec::with_capacity(32 + (i % 7) * 16));
                    if held.len() == 16 {
                        held.clear();
                    }
                }
                std::hint::black_box(&held);
            });
        }
    });
    start.elapsed().as_nanos() as f64 / per_thread as f64
}

fn main() {
    let per_thread = 2_000_000;
    let repeats = 5;
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("Nanoseconds per allocation and free, per thread: the median of {repeats} runs of {per_thread} each ({cores} cores here).");
    println!();
    println!("| threads | system allocator | oomlab's counting allocator | the counting allocator before 988e20f |");
    println!("|---|---|---|---|");
    for threads in [1, 2, 3] {
        let mut cells = Vec::new();
        for mode in [0u8, 1, 2] {
            MODE.store(mode, Ordering::SeqCst);
            let mut times: Vec<f64> = (0..repeats).map(|_| run(threads, per_thread)).collect();
            MODE.store(0, Ordering::SeqCst);
            times.sort_by(f64::total_cmp);
            cells.push(format!("{:.1}", times[repeats / 2]));
        }
        println!("| {threads} | {} |", cells.join(" | "));
    }
}

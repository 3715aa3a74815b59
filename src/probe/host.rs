//! Host memory: a counting global allocator (heap bytes in use and peak, exact) and the
//! resident set size from /proc (what the OS charges, including code and allocator slack).
//!
//! The allocator also carries the CPU's memory budget (`--memory-budget`): crossing it
//! never fails an allocation (that would abort the process); it records a *simulated* OOM
//! that the OOM detector reports at the next phase boundary.
//!
//! Every allocation of every thread goes through it, so it must cost next to nothing. On
//! CUDA, burn's fusion thread and cubecl's device thread allocate at once, and so does the
//! training thread: a counter they all write makes each of them wait for its cache line,
//! and so does a write that changes nothing (a flag set again, a peak compared by a
//! compare-and-swap). A host profile of the gpu config's AMP bf16 step found 22% of the
//! fusion thread's time, the thread that set the step's pace, in this allocator's own code
//! when every allocation wrote a flag, the bytes in use and the peak, declared side by
//! side (docs/results/2026-12-06-h100-host-profile). So each counter written on the hot
//! path has a cache line of its own, and the flag and the peak are written only when they
//! change; the bytes in use are still written by every allocation and free
//! (benches/host_alloc.rs measures what that costs: docs/results/2026-12-06-cpu-host-alloc).
//! That one counter still slowed the gpu config's AMP bf16 step on an H100: 27.4 ms with
//! the count off against 30.3 with it, and 30.4 against 36.4, in two runs of the paired
//! yardstick (docs/results/2026-12-06-h100-adamw-kernel), while its f32 step and the h200
//! config's AMP step, whose pace the GPU sets, did not move. So on CUDA, where the host heap is
//! a side figure beside NVML's and burn's, the count is off unless `memory.host_heap =
//! "count"` asks for it ([`off_on_cuda`]); on the CPU, where it is the memory the run
//! reports and the budget it is held to, it counts unless `memory.host_heap = "off"`
//! ([`configure`]): no host heap figure then, and no `--memory-budget`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use super::base::{MemoryProbe, MemoryReading};
use crate::units::Bytes;
use crate::words::HostHeap;

/// A value on a cache line of its own (128 bytes: x86's adjacent-line prefetch pairs 64-byte
/// lines). Written here rather than taken from crossbeam-utils: cargo mixes a crate's
/// dependencies into its hash as it does its features, and that hash is in the TypeIds of
/// the cache keys of oomlab's own kernels, so a new dependency would most likely make the
/// shipped kernel pack miss them (docs/results/2026-12-06-h100-grads-together measured it
/// of a feature; the dependency case is not measured).
#[repr(align(128))]
struct CachePadded<T>(T);

impl<T> CachePadded<T> {
    const fn new(value: T) -> Self {
        Self(value)
    }
}

impl<T> std::ops::Deref for CachePadded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Bytes in use: written by every allocation and free.
static IN_USE: CachePadded<AtomicU64> = CachePadded::new(AtomicU64::new(0));
/// The highest [`IN_USE`] since the last [`reset_peak`]: written only when it rises.
static PEAK: CachePadded<AtomicU64> = CachePadded::new(AtomicU64::new(0));
/// Read by every allocation, written only by [`set_budget`], [`configure`] and
/// the first allocation.
static SETTINGS: CachePadded<Settings> = CachePadded::new(Settings {
    active: AtomicBool::new(false),
    off: AtomicBool::new(false),
    setting: AtomicU8::new(0),
    budget: AtomicU64::new(0),
});
/// Written only by the allocation that crosses the budget, and by [`take_over_budget`].
static OVER_BUDGET_REQUEST: CachePadded<AtomicU64> = CachePadded::new(AtomicU64::new(0));

struct Settings {
    /// An allocation went through the counting allocator (it is installed).
    active: AtomicBool,
    /// Nothing is counted: `memory.host_heap = "off"`, or a CUDA run ([`off_on_cuda`]).
    off: AtomicBool,
    /// What `memory.host_heap` says ([`code`]).
    setting: AtomicU8,
    /// The CPU's `--memory-budget` in bytes; 0: none.
    budget: AtomicU64,
}

/// The run's note when `memory.host_heap` turned the count off.
pub const NOT_COUNTED_NOTE: &str = "host heap not counted: memory.host_heap = \"off\"";

/// A CUDA run's note when nothing asked for the count ([`off_on_cuda`]).
pub const NOT_COUNTED_ON_CUDA_NOTE: &str = "host heap not counted: on CUDA the count is off unless memory.host_heap = \"count\" asks for it (one counter every allocation of burn's threads writes slowed host-bound steps: docs/results/2026-12-06-h100-adamw-kernel)";

/// A setting as [`Settings::setting`] keeps it.
fn code(setting: HostHeap) -> u8 {
    match setting {
        HostHeap::Auto => 0,
        HostHeap::Count => 1,
        HostHeap::Off => 2,
    }
}

/// The setting [`code`] gave `code`.
fn from_code(code: u8) -> HostHeap {
    match code {
        1 => HostHeap::Count,
        2 => HostHeap::Off,
        _ => HostHeap::Auto,
    }
}

/// Whether a run on CUDA (`cuda`) or the CPU counts under `setting`.
fn counts(setting: HostHeap, cuda: bool) -> bool {
    match setting {
        HostHeap::Auto => !cuda,
        HostHeap::Count => true,
        HostHeap::Off => false,
    }
}
/// The counting allocator. The binary installs it with `#[global_allocator]`.
pub struct CountingAlloc;

impl CountingAlloc {
    #[inline]
    fn added(size: u64) {
        let settings = &*SETTINGS;
        if settings.off.load(Ordering::Relaxed) {
            return;
        }
        if !settings.active.load(Ordering::Relaxed) {
            settings.active.store(true, Ordering::Relaxed);
        }
        let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
        if now > PEAK.load(Ordering::Relaxed) {
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        let budget = settings.budget.load(Ordering::Relaxed);
        if budget != 0 && now > budget {
            // Keep the first request that crossed the budget.
            let _ =
                OVER_BUDGET_REQUEST.compare_exchange(0, size, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    #[inline]
    fn removed(size: u64) {
        if !SETTINGS.off.load(Ordering::Relaxed) {
            IN_USE.fetch_sub(size, Ordering::Relaxed);
        }
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; we only count.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Self::added(layout.size() as u64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Self::added(layout.size() as u64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) };
        Self::removed(layout.size() as u64);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            Self::removed(layout.size() as u64);
            Self::added(new_size as u64);
        }
        p
    }
}

/// Takes a run's `memory.host_heap` (when its instruments are set up, before its first
/// step): `off` stops the count for the rest of the process, `count` keeps it on CUDA too
/// ([`off_on_cuda`]).
pub fn configure(setting: HostHeap) {
    SETTINGS
        .off
        .store(!counts(setting, false), Ordering::SeqCst);
    SETTINGS.setting.store(code(setting), Ordering::SeqCst);
}

/// A CUDA run's choice, made when its instruments are set up (before its first step): the
/// count stops for the rest of the process unless `memory.host_heap = "count"` asked for it.
/// The run's note when the count is off.
pub fn off_on_cuda() -> Option<&'static str> {
    let setting = from_code(SETTINGS.setting.load(Ordering::SeqCst));
    if counts(setting, true) {
        return None;
    }
    SETTINGS.off.store(true, Ordering::SeqCst);
    Some(match setting {
        HostHeap::Off => NOT_COUNTED_NOTE,
        _ => NOT_COUNTED_ON_CUDA_NOTE,
    })
}

/// Whether the counting allocator is installed in this process and counting (not turned
/// off by `memory.host_heap = "off"` or on CUDA).
pub fn counting() -> bool {
    SETTINGS.active.load(Ordering::Relaxed) && !SETTINGS.off.load(Ordering::Relaxed)
}

/// Whether the count is off: `memory.host_heap = "off"` ([`configure`]) or a CUDA run
/// ([`off_on_cuda`]).
pub fn turned_off() -> bool {
    SETTINGS.off.load(Ordering::Relaxed)
}

/// Heap bytes in use now (0 if the counting allocator is not installed).
pub fn heap_in_use() -> Bytes {
    Bytes(IN_USE.load(Ordering::Relaxed))
}

/// Highest heap in use since the last [`reset_peak`].
pub fn heap_peak() -> Bytes {
    Bytes(PEAK.load(Ordering::Relaxed))
}

/// Raises the peak to at least `b` (to restore a run's peak after a window of its own).
pub fn raise_peak(b: Bytes) {
    PEAK.fetch_max(b.0, Ordering::Relaxed);
}

/// Starts a new peak window at the current use.
pub fn reset_peak() {
    PEAK.store(IN_USE.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// Sets the simulated budget (`None` removes it) and clears any recorded crossing.
pub fn set_budget(budget: Option<Bytes>) {
    SETTINGS
        .budget
        .store(budget.map(|b| b.0).unwrap_or(0), Ordering::SeqCst);
    OVER_BUDGET_REQUEST.store(0, Ordering::SeqCst);
}

/// The budget in force.
pub fn budget() -> Option<Bytes> {
    match SETTINGS.budget.load(Ordering::SeqCst) {
        0 => None,
        b => Some(Bytes(b)),
    }
}

/// The size of the first allocation that crossed the budget since the last call, if any;
/// the record is cleared.
pub fn take_over_budget() -> Option<Bytes> {
    match OVER_BUDGET_REQUEST.swap(0, Ordering::SeqCst) {
        0 => None,
        n => Some(Bytes(n)),
    }
}

/// Resident set size now (`VmRSS`).
pub fn rss() -> Option<Bytes> {
    proc_status_kb("VmRSS:")
}

/// Peak resident set size (`VmHWM`).
pub fn peak_rss() -> Option<Bytes> {
    proc_status_kb("VmHWM:")
}

/// Total host RAM (`MemTotal`).
pub fn host_total() -> Option<Bytes> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_kb(&text, "MemTotal:")
}

/// Host RAM a new allocation can get without swapping (`MemAvailable`).
pub fn host_available() -> Option<Bytes> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_kb(&text, "MemAvailable:")
}

fn proc_status_kb(key: &str) -> Option<Bytes> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_kb(&text, key)
}

fn parse_kb(text: &str, key: &str) -> Option<Bytes> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| Bytes(kb * 1024))
}

/// The host as a [`MemoryProbe`]: heap in use (counting allocator) and RSS.
#[derive(Debug, Clone, Copy, Default)]
pub struct HostProbe;

impl MemoryProbe for HostProbe {
    fn source(&self) -> &'static str {
        "host"
    }
    fn read(&self) -> MemoryReading {
        MemoryReading {
            in_use: counting().then(heap_in_use),
            reserved: None,
            process: rss(),
            device_used: None,
            device_total: host_total(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_counts_on_the_cpu_and_not_on_cuda_unless_it_says_so() {
        let both = |s: HostHeap| (counts(s, false), counts(s, true));
        assert_eq!(both(HostHeap::Auto), (true, false));
        assert_eq!(both(HostHeap::Count), (true, true));
        assert_eq!(both(HostHeap::Off), (false, false));
        for s in HostHeap::ALL {
            assert_eq!(from_code(code(*s)), *s);
        }
    }

    #[test]
    fn proc_status_values_are_read_in_bytes() {
        let text = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t1024 kB\n";
        assert_eq!(parse_kb(text, "VmHWM:"), Some(Bytes(2048 * 1024)));
        assert_eq!(parse_kb(text, "VmRSS:"), Some(Bytes(1024 * 1024)));
        assert_eq!(parse_kb(text, "VmSwap:"), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn rss_is_read_on_linux() {
        assert!(rss().is_some_and(|b| b.0 > 0));
        assert!(peak_rss().is_some_and(|b| b.0 > 0));
    }
}

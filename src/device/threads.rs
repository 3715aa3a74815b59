//! How many threads the CPU backend computes with.
//!
//! burn-flex multiplies with the gemm crate on rayon's global pool, and gemm keeps a
//! packing buffer the size of a core's share of the L2 cache on every thread that
//! multiplies. The heap a CPU run holds therefore grows with the thread count: at 16
//! threads the README demo's grad-accum ran out of its SIMULATED budget where it fits at
//! 2. A run under `--memory-budget` fixes the pool at [`BUDGET_THREADS`], so a SIMULATED
//! OOM happens (or not) the same way on every machine.

/// Compute threads of a run under a SIMULATED host-heap budget (the CI machine's count,
/// where the demos' budgets were chosen).
pub const BUDGET_THREADS: usize = 2;

/// Threads rayon's global pool has (or will have): what gemm splits a product over.
pub fn compute_threads() -> usize {
    rayon::current_num_threads()
}

/// Why the compute threads could not be fixed.
#[derive(Debug, thiserror::Error)]
pub enum PinThreadsError {
    /// rayon refused to build its global pool (it was built already).
    #[error("{0}")]
    Build(#[from] rayon::ThreadPoolBuildError),
    /// The pool has another number of threads.
    #[error("the pool has {0} threads")]
    Other(usize),
}

/// Fixes rayon's global pool at `n` threads, before any work used it. `Err` says why not
/// (the pool was already built).
pub fn pin_compute_threads(n: usize) -> Result<(), PinThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()?;
    match rayon::current_num_threads() {
        threads if threads == n => Ok(()),
        threads => Err(PinThreadsError::Other(threads)),
    }
}

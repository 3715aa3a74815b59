//! Which case an out-of-memory message is, from its figures alone.
//!
//! The cases and the order they are tested in:
//! 1. one request larger than the whole card: nothing but a smaller tensor helps;
//! 2. fragmentation: the caching allocator holds at least the requested bytes free, but in
//!    no piece large enough (PyTorch has already released what it could before raising);
//! 3. other processes: they hold a real share of the card, and without them this request
//!    would have fit;
//! 4. a per-process cap: the driver reports the request's bytes free, yet the process could
//!    not have them (`set_per_process_memory_fraction`, an allocator limit);
//! 5. a real shortage: what this process holds plus the request exceeds what it can have.
//!
//! Errors from outside the caching allocator (CUDA runtime, cuBLAS) and other frameworks'
//! messages carry too few figures for these tests; they get their own verdicts.

use serde::Serialize;

use super::parse::{Facts, Source};
use crate::units::Bytes;

/// A share of the card other processes must hold before they count as the cause.
const OTHERS_SHARE: f64 = 0.05;

/// What the message says happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "case")]
pub enum Verdict {
    /// One allocation larger than the card.
    LargerThanCard {
        /// The request.
        requested: Bytes,
        /// The card.
        total: Bytes,
    },
    /// Free bytes inside the caching allocator would cover the request, but no free block
    /// is large enough.
    Fragmentation {
        /// The request.
        requested: Bytes,
        /// Reserved by the allocator, in no tensor.
        unallocated: Bytes,
    },
    /// Other processes hold memory this one needed.
    OtherProcesses {
        /// What they hold together (total - free - this process, or the sum the message
        /// lists).
        held: Bytes,
        /// The processes the message (or nvidia-smi's table) names.
        named: Vec<Holder>,
        /// Free + theirs covers the request.
        freeing_them_fits_this_request: bool,
    },
    /// The driver had the bytes free; a limit inside the process refused them.
    ProcessCap {
        /// The request.
        requested: Bytes,
        /// Free on the card.
        free: Bytes,
        /// The cap, when the message gives it.
        allowed: Option<Bytes>,
    },
    /// A real shortage: the process needs more than it can have.
    Shortage {
        /// The request minus what was free on the card and free in the allocator: a lower
        /// bound of the missing memory (later allocations of the same step may need more).
        short_by: Bytes,
        /// Bytes in live tensors.
        allocated: Option<Bytes>,
        /// The card.
        total: Option<Bytes>,
    },
    /// The CUDA runtime or a library failed outside the caching allocator.
    OutsideAllocator {
        /// Which.
        source: Source,
    },
    /// cubecl (burn, oomlab) could not allocate.
    Cubecl {
        /// The request.
        requested: Option<Bytes>,
    },
    /// TensorFlow or XLA/JAX ran out; their messages lack the figures for the tests above.
    OtherFramework {
        /// Which.
        source: Source,
        /// The request, when given.
        requested: Option<Bytes>,
    },
    /// An out-of-memory message without the figures the tests need.
    TooFewFigures,
    /// Not an out-of-memory message this reader knows.
    Unknown,
}

/// Secondary observations, true beside the verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "note")]
pub enum Aside {
    /// Other processes hold a share of the card although they are not the cause.
    OthersHold {
        /// Bytes.
        held: Bytes,
    },
    /// The driver reports more free than was requested: a cap is in play.
    Capped {
        /// Free on the card.
        free: Bytes,
        /// The cap, when the message gives it.
        allowed: Option<Bytes>,
    },
    /// Memory in this process that is not PyTorch's: CUDA context, library workspaces,
    /// other allocators.
    NonPytorch {
        /// Bytes.
        bytes: Bytes,
    },
}

/// A process holding memory on the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Holder {
    /// Process id, as the driver sees it.
    pub pid: u32,
    /// Its memory, when known.
    pub used: Option<Bytes>,
    /// Its name, from nvidia-smi's table when pasted along.
    pub name: Option<String>,
}

/// The verdict and what else the figures show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// The case.
    pub verdict: Verdict,
    /// Also true.
    pub asides: Vec<Aside>,
}

fn sub(a: Bytes, b: Bytes) -> Bytes {
    Bytes(a.0.saturating_sub(b.0))
}

/// What other processes hold: total - free - this process when the message gives all
/// three (it counts processes the message leaves out), else the sum it lists.
fn others_held(f: &Facts) -> Bytes {
    let listed = Bytes(f.other_processes.iter().map(|(_, b)| b.0).sum());
    let implied = match (f.total, f.free, f.this_process) {
        (Some(t), Some(fr), Some(p)) => sub(sub(t, fr), p),
        _ => Bytes(0),
    };
    listed.max(implied)
}

/// The processes named as holders: the message's list (named from nvidia-smi's table when
/// it is pasted along), else the table's rows on the same GPU (this process may be one).
fn named_holders(f: &Facts) -> Vec<Holder> {
    let name_of = |pid: u32| {
        f.smi_processes
            .iter()
            .find(|p| p.pid == pid)
            .map(|p| p.name.clone())
    };
    if !f.other_processes.is_empty() {
        return f
            .other_processes
            .iter()
            .map(|&(pid, used)| Holder {
                pid,
                used: Some(used),
                name: name_of(pid),
            })
            .collect();
    }
    f.smi_processes
        .iter()
        .filter(|p| f.gpu.is_none_or(|g| g == p.gpu))
        .map(|p| Holder {
            pid: p.pid,
            used: p.used,
            name: Some(p.name.clone()),
        })
        .collect()
}

/// Classifies the figures `parse` read.
pub fn diagnose(f: &Facts) -> Diagnosis {
    let mut asides = Vec::new();
    let verdict = match f.source {
        None => Verdict::Unknown,
        Some(Source::Cubecl) => Verdict::Cubecl {
            requested: f.requested,
        },
        Some(s @ (Source::CudaRuntime | Source::Cublas)) => Verdict::OutsideAllocator { source: s },
        Some(s @ (Source::Tensorflow | Source::Xla)) => Verdict::OtherFramework {
            source: s,
            requested: f.requested,
        },
        Some(Source::Pytorch | Source::PytorchLegacy) => pytorch(f, &mut asides),
    };
    Diagnosis { verdict, asides }
}

fn pytorch(f: &Facts, asides: &mut Vec<Aside>) -> Verdict {
    let (Some(requested), Some(total), Some(free)) = (f.requested, f.total, f.free) else {
        return Verdict::TooFewFigures;
    };
    let unallocated = f.reserved_unallocated.unwrap_or_default();
    let others = others_held(f);
    let others_matter = others.0 as f64 >= OTHERS_SHARE * total.0 as f64;
    if let (Some(p), Some(a)) = (f.this_process, f.allocated) {
        let non_pytorch = sub(sub(p, a), unallocated);
        if non_pytorch.0 > 0 {
            asides.push(Aside::NonPytorch { bytes: non_pytorch });
        }
    }
    if requested > total {
        return Verdict::LargerThanCard { requested, total };
    }
    if unallocated >= requested {
        if others_matter {
            asides.push(Aside::OthersHold { held: others });
        }
        if free >= requested {
            asides.push(Aside::Capped {
                free,
                allowed: f.allowed,
            });
        }
        return Verdict::Fragmentation {
            requested,
            unallocated,
        };
    }
    if others_matter && free < requested && others.0 + free.0 >= requested.0 {
        return Verdict::OtherProcesses {
            held: others,
            named: named_holders(f),
            freeing_them_fits_this_request: true,
        };
    }
    if free >= requested {
        return Verdict::ProcessCap {
            requested,
            free,
            allowed: f.allowed,
        };
    }
    if others_matter {
        asides.push(Aside::OthersHold { held: others });
    }
    Verdict::Shortage {
        short_by: sub(sub(requested, free), unallocated),
        allocated: f.allocated,
        total: Some(total),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::parse::parse;

    fn verdict(m: &str) -> Verdict {
        diagnose(&parse(m)).verdict
    }

    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * MIB;

    #[test]
    fn a_process_that_filled_the_card_itself_is_short() {
        let v = verdict(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. \
GPU 0 has a total capacity of 10.00 GiB of which 500.00 MiB is free. Including non-PyTorch memory, \
this process has 9.50 GiB memory in use. Of the allocated memory 9.00 GiB is allocated by PyTorch, \
and 100.00 MiB is reserved by PyTorch but unallocated.",
        );
        assert_eq!(
            v,
            Verdict::Shortage {
                short_by: Bytes(2 * GIB - 600 * MIB),
                allocated: Some(Bytes(9 * GIB)),
                total: Some(Bytes(10 * GIB)),
            }
        );
    }

    #[test]
    fn another_process_holding_the_card_is_named() {
        let v = verdict(
            "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total \
capacity of 31.00 GiB of which 2.00 MiB is free. Process 81 has 30.00 GiB memory in use. Including \
non-PyTorch memory, this process has 784.00 MiB memory in use. Of the allocated memory 180.00 MiB \
is allocated by PyTorch, and 12.00 MiB is reserved by PyTorch but unallocated.",
        );
        match v {
            Verdict::OtherProcesses { named, .. } => {
                assert_eq!(named.len(), 1);
                assert_eq!((named[0].pid, named[0].used), (81, Some(Bytes(30 * GIB))));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn free_bytes_in_the_cache_beyond_the_request_are_fragmentation() {
        let v = verdict(
            "CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total \
capacity of 40.00 GiB of which 30.00 GiB is free. Including non-PyTorch memory, this process has \
4.50 GiB memory in use. Of the allocated memory 2.00 GiB is allocated by PyTorch, and 2.00 GiB is \
reserved by PyTorch but unallocated.",
        );
        assert!(matches!(v, Verdict::Fragmentation { .. }), "{v:?}");
    }

    #[test]
    fn free_on_the_card_but_refused_is_a_cap() {
        let v = verdict(
            "CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total \
capacity of 40.00 GiB of which 30.00 GiB is free. Including non-PyTorch memory, this process has \
4.50 GiB memory in use. Of the allocated memory 4.00 GiB is allocated by PyTorch, and 20.00 MiB is \
reserved by PyTorch but unallocated.",
        );
        assert!(matches!(v, Verdict::ProcessCap { .. }), "{v:?}");
    }

    #[test]
    fn a_request_beyond_the_card_is_said_so() {
        let v = verdict(
            "CUDA out of memory. Tried to allocate 60.00 GiB. GPU 0 has a total \
capacity of 40.00 GiB of which 39.00 GiB is free. Including non-PyTorch memory, this process has \
500.00 MiB memory in use. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is \
reserved by PyTorch but unallocated.",
        );
        assert!(matches!(v, Verdict::LargerThanCard { .. }), "{v:?}");
    }

    #[test]
    fn a_message_without_sizes_is_too_few_figures_and_prose_is_unknown() {
        assert_eq!(
            verdict("CUDA out of memory. Tried to allocate 2.00 GiB."),
            Verdict::TooFewFigures
        );
        assert_eq!(
            verdict("Segmentation fault (core dumped)"),
            Verdict::Unknown
        );
    }
}

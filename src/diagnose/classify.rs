//! Which case an out-of-memory message is, from its figures alone.
//!
//! The cases and the order they are tested in, each from the message's own numbers:
//! 1. one request larger than the whole card: nothing but a smaller tensor helps;
//! 2. other processes: memory outside this process (total - free - this process; in the
//!    old message total - free - PyTorch's reserve, less 1 GiB for this process's own
//!    context) is at least 5% of the card, the card's free memory alone was short, and
//!    with theirs this request would have fit (when the free memory covered the request,
//!    only after the cache and a cap are ruled out: step 6);
//! 3. a per-process cap: the message says "X allowed" and the card had the bytes free,
//!    unless at least a quarter of the cap lies in pieces in the cache (then 5);
//! 4. figures that contradict a shortage: the card had room for the segment PyTorch asks
//!    the driver for, 64 MiB to spare, and no cap is printed;
//! 5. fragmentation: PyTorch's cache holds at least the request in no tensor, and that
//!    cache is at least 5% of the card (of the cap, under one; a smaller cache is said,
//!    with what fixing it recovers, beside the shortage behind it);
//! 6. other processes again, when the card's free memory covered the request and nothing
//!    above explains the failure, but others hold at least 5% of the card;
//! 7. a real shortage: the request less what was free on the card and in the cache.
//!
//! A "Process N has X memory in use" line that is this process (containers print the
//! process's own PID) is not another process. Errors from outside the caching allocator
//! (CUDA runtime, cuBLAS) and host memory get their own verdicts; TensorFlow's and XLA's
//! messages are weighed by the same tests when they carry the figures.

use serde::Serialize;

use super::parse::{Facts, Source};
use crate::units::Bytes;

/// A share of the card other processes must hold before they count as the cause; the
/// same share of free cache before fragmentation does.
const SHARE: f64 = 0.05;

/// Under a printed cap with room on the card, the share of the cap PyTorch's cache must
/// hold in no tensor before fragmentation, not the cap, is the case. A cap is often a
/// setting left over (a test's set_per_process_memory_fraction): a few percent of it in
/// pieces is not what refused the request; a quarter of it is room that defragmenting wins
/// back without touching the cap.
const CAP_SHARE: f64 = 0.25;

/// What this process holds on the card besides PyTorch's reserve (its CUDA context,
/// cuBLAS/cuDNN workspaces), set aside before memory outside the reserve is called
/// another process's when the message does not say what this process holds.
const CONTEXT_ALLOWANCE: Bytes = Bytes(1 << 30);

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
        /// What they hold together, as the figures show it.
        held: Bytes,
        /// The processes the message (or nvidia-smi's table) names, this one left out.
        named: Vec<Holder>,
        /// Free + theirs covers the request.
        freeing_them_fits_this_request: bool,
    },
    /// The driver had the bytes free; a limit inside the process ("X allowed") refused
    /// them.
    ProcessCap {
        /// The request.
        requested: Bytes,
        /// Free on the card.
        free: Bytes,
        /// The cap the message gives.
        allowed: Option<Bytes>,
    },
    /// A real shortage: the process needs more than it can have.
    Shortage {
        /// The request minus what was free on the card and free in the allocator: a lower
        /// bound of the missing memory (later allocations of the same step may need more).
        /// Zero when free and cache together cover the request but neither alone does.
        short_by: Bytes,
        /// Bytes in live tensors.
        allocated: Option<Bytes>,
        /// The card (or the allocator's limit).
        total: Option<Bytes>,
    },
    /// Host memory (RAM) ran out, not the GPU's.
    HostRam {
        /// The request.
        requested: Option<Bytes>,
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
    /// The driver had room for the request and the message names no cap: its figures do
    /// not explain the failure (a cap set in code, another device or host memory, memory
    /// freed before the message was written, a platform whose free figure is not real).
    FiguresContradict {
        /// The request.
        requested: Bytes,
        /// Free on the card, as the message says.
        free: Bytes,
    },
    /// A figure no card can show (free above total, a wrapped count): the message's
    /// figures come from a broken source and decide nothing.
    ImpossibleFigures {
        /// Which figure, in words.
        why: String,
    },
    /// An out-of-memory message without the figures the tests need.
    TooFewFigures {
        /// Who wrote it.
        source: Option<Source>,
        /// What is missing, and the one line that would settle it.
        missing: String,
    },
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
    /// The driver reports more free than was requested, and the message names a cap.
    Capped {
        /// Free on the card.
        free: Bytes,
        /// The cap.
        allowed: Option<Bytes>,
    },
    /// Free on the card covered the request, yet it failed, and the message names no cap.
    FreeCoversRequest {
        /// Free on the card.
        free: Bytes,
    },
    /// Memory in this process that is not PyTorch's: CUDA context, library workspaces,
    /// other allocators.
    NonPytorch {
        /// Bytes.
        bytes: Bytes,
    },
    /// The cache could hold the request but is a small share of the card: fixing its
    /// fragmentation recovers at most this much.
    SmallCache {
        /// Reserved, in no tensor.
        cache: Bytes,
    },
    /// A "Process N has X memory in use" line is this process (containers print its own
    /// PID so), not another.
    OwnProcessListed {
        /// Its PID as the driver gives it.
        pid: u32,
    },
    /// The figures exceed the card (Windows lets a process spill into shared system
    /// memory): what is outside the process cannot be worked out.
    BeyondTheCard,
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

/// The verdict, what else the figures show, and the arithmetic behind both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// The case.
    pub verdict: Verdict,
    /// Also true.
    pub asides: Vec<Aside>,
    /// Each figure the verdict rests on, computed from the message's own numbers in one
    /// line a reader can check.
    pub arithmetic: Vec<String>,
}

fn sub(a: Bytes, b: Bytes) -> Bytes {
    Bytes(a.0.saturating_sub(b.0))
}

/// A size in GiB with two decimals, as the arithmetic lines print every figure.
fn g(b: Bytes) -> String {
    format!("{:.2}", b.0 as f64 / (1u64 << 30) as f64)
}

fn pct(part: Bytes, whole: Bytes) -> String {
    format!("{:.1}%", 100.0 * part.0 as f64 / whole.0.max(1) as f64)
}

/// Which listed process is this one: the one whose figure is this process's own (within
/// 1% or 64 MiB); without that figure (containers print the process's own PID instead of
/// "this process has"), the one holding PyTorch's reserve plus at most 2 GiB of context.
fn own_pid(f: &Facts) -> Option<(u32, Bytes)> {
    let close = |a: Bytes, b: Bytes| a.0.abs_diff(b.0) <= (b.0 / 100).max(64 << 20);
    if let Some(own) = f.this_process {
        // The message's own list, else nvidia-smi's rows on this GPU pasted along: the
        // crashed process is often still alive there (a notebook kernel), at the figure the
        // message gives for "this process".
        let smi = f
            .smi_processes
            .iter()
            .filter(|p| f.gpu.is_none_or(|g| g == p.gpu))
            .filter_map(|p| p.used.map(|u| (p.pid, u)));
        let mut near = smi.filter(|&(_, u)| close(u, own));
        let from_smi = match (near.next(), near.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        };
        return f
            .other_processes
            .iter()
            .copied()
            .find(|&(_, u)| close(u, own))
            .or(from_smi);
    }
    let reserved = f.reserved?;
    let mut fits = f
        .other_processes
        .iter()
        .copied()
        .filter(|&(_, u)| u >= reserved && u.0 - reserved.0 <= 2 << 30);
    match (fits.next(), fits.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The processes named as holders, this one left out: the message's list (named from
/// nvidia-smi's table when it is pasted along), else the table's rows on the same GPU.
fn named_holders(f: &Facts, own: Option<u32>) -> Vec<Holder> {
    let name_of = |pid: u32| {
        f.smi_processes
            .iter()
            .find(|p| p.pid == pid)
            .map(|p| p.name.clone())
    };
    let listed: Vec<Holder> = f
        .other_processes
        .iter()
        .filter(|(pid, _)| Some(*pid) != own)
        .map(|&(pid, used)| Holder {
            pid,
            used: Some(used),
            name: name_of(pid),
        })
        .collect();
    if !f.other_processes.is_empty() {
        return listed;
    }
    f.smi_processes
        .iter()
        .filter(|p| f.gpu.is_none_or(|g| g == p.gpu) && Some(p.pid) != own)
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
    let mut math = Vec::new();
    let verdict = match (f.source, &f.impossible) {
        (Some(_), Some(why)) => {
            math.push(format!("impossible: {why}"));
            Verdict::ImpossibleFigures { why: why.clone() }
        }
        _ => match f.source {
            None => Verdict::Unknown,
            Some(Source::HostRam) => {
                if let Some(r) = f.requested {
                    math.push(format!("host memory asked for: {r} ({} bytes)", r.0));
                }
                Verdict::HostRam {
                    requested: f.requested,
                }
            }
            Some(Source::Cubecl) => Verdict::Cubecl {
                requested: f.requested,
            },
            Some(s @ (Source::CudaRuntime | Source::Cublas)) => {
                Verdict::OutsideAllocator { source: s }
            }
            Some(Source::Tensorflow) => tensorflow(f, &mut math),
            Some(Source::Xla) => xla(f, &mut math),
            Some(Source::Pytorch | Source::PytorchLegacy) => pytorch(f, &mut asides, &mut math),
        },
    };
    Diagnosis {
        verdict,
        asides,
        arithmetic: math,
    }
}

fn tensorflow(f: &Facts, math: &mut Vec<String>) -> Verdict {
    // The device line: what was not free before TensorFlow allocated anything, other
    // processes held.
    if let Some((total, free)) = f.device_at_start {
        let held = sub(total, free);
        let fits_card = f.requested.is_none_or(|r| r <= total);
        if held.0 as f64 >= SHARE * total.0 as f64 && fits_card {
            math.push(format!(
                "when TensorFlow found the card, before it allocated anything: {} total - {} free = {} GiB held by other processes ({} of the card)",
                g(total),
                g(free),
                g(held),
                pct(held, total)
            ));
            return Verdict::OtherProcesses {
                held,
                named: Vec::new(),
                freeing_them_fits_this_request: true,
            };
        }
    }
    match (f.requested, f.limit, f.in_use) {
        (Some(r), Some(limit), Some(used)) => {
            if r > limit {
                math.push(format!("request {} GiB > the allocator's Limit {} GiB", g(r), g(limit)));
                Verdict::LargerThanCard {
                    requested: r,
                    total: limit,
                }
            } else if used.0 + r.0 > limit.0 {
                let short = Bytes(used.0 + r.0 - limit.0);
                math.push(format!(
                    "InUse {} + request {} - Limit {} = {} GiB short",
                    g(used),
                    g(r),
                    g(limit),
                    g(short)
                ));
                Verdict::Shortage {
                    short_by: short,
                    allocated: Some(used),
                    total: Some(limit),
                }
            } else {
                math.push(format!(
                    "Limit {} - InUse {} = {} GiB free in the allocator >= request {} GiB, in no piece large enough",
                    g(limit),
                    g(used),
                    g(sub(limit, used)),
                    g(r)
                ));
                Verdict::Fragmentation {
                    requested: r,
                    unallocated: sub(limit, used),
                }
            }
        }
        _ => Verdict::TooFewFigures {
            source: Some(Source::Tensorflow),
            missing: "the allocator's Limit and InUse: TensorFlow prints them a few lines below the error, under 'Stats:' (with the request in 'ran out of memory trying to allocate')".into(),
        },
    }
}

/// How far free memory must exceed the segment asked for before the figures contradict a
/// shortage: the printed figures are rounded (to 0.01 GiB in most messages), and the
/// driver's free figure holds memory it cannot hand out as one allocation.
const CONTRADICT_MARGIN: Bytes = Bytes(64 << 20);

/// The segment PyTorch's caching allocator asks the driver for to serve a request of
/// `r`: 2 MiB below 1 MiB, 20 MiB below 10 MiB, else `r` rounded up to 2 MiB.
fn segment_of(r: Bytes) -> Bytes {
    const MIB: u64 = 1 << 20;
    if r.0 < MIB {
        Bytes(2 * MIB)
    } else if r.0 < 10 * MIB {
        Bytes(20 * MIB)
    } else {
        Bytes(r.0.div_ceil(2 * MIB) * 2 * MIB)
    }
}

/// The card's total and free memory from a pasted nvidia-smi table, when it shows one GPU.
fn smi_card(f: &Facts, math: &mut Vec<String>) -> (Option<Bytes>, Option<Bytes>) {
    match f.smi_devices.as_slice() {
        [(used, total)] => {
            math.push(format!(
                "nvidia-smi's table: {} used of {} GiB, so {} GiB free",
                g(*used),
                g(*total),
                g(sub(*total, *used))
            ));
            (Some(*total), Some(sub(*total, *used)))
        }
        _ => (None, None),
    }
}

fn xla(f: &Facts, math: &mut Vec<String>) -> Verdict {
    let (total, free) = match (f.total, f.free) {
        (Some(t), free) => (Some(t), free),
        _ => smi_card(f, math),
    };
    match (f.requested, total, free) {
        (Some(r), Some(t), _) if r > t => {
            math.push(format!("request {} GiB > the card's {} GiB", g(r), g(t)));
            Verdict::LargerThanCard {
                requested: r,
                total: t,
            }
        }
        (Some(r), Some(t), Some(free)) if r > free => {
            math.push(format!(
                "request {} - free {} = {} GiB short (card {} GiB)",
                g(r),
                g(free),
                g(sub(r, free)),
                g(t)
            ));
            Verdict::Shortage {
                short_by: sub(r, free),
                allocated: None,
                total: Some(t),
            }
        }
        _ => Verdict::TooFewFigures {
            source: Some(Source::Xla),
            missing: "the card's total and free memory: nvidia-smi's table (or `nvidia-smi --query-gpu=memory.used,memory.total --format=csv`) pasted along settles it; JAX preallocates 75% of the card unless XLA_PYTHON_CLIENT_PREALLOCATE=false".into(),
        },
    }
}

fn pytorch(f: &Facts, asides: &mut Vec<Aside>, math: &mut Vec<String>) -> Verdict {
    let (Some(r), Some(total), Some(free)) = (f.requested, f.total, f.free) else {
        let missing: Vec<&str> = [
            (f.requested.is_none(), "the request ('Tried to allocate')"),
            (f.total.is_none(), "the card's total capacity"),
            (f.free.is_none(), "its free memory"),
        ]
        .into_iter()
        .filter_map(|(m, what)| m.then_some(what))
        .collect();
        return Verdict::TooFewFigures {
            source: f.source,
            missing: format!(
                "{}: the whole line that starts 'CUDA out of memory. Tried to allocate' settles it (it is often cut where the terminal wrapped it)",
                missing.join(", ")
            ),
        };
    };
    // With a cap ("X allowed"), the cap is what this process may have.
    let cache = f.reserved_unallocated.unwrap_or_default();
    let own = own_pid(f);
    if let Some((pid, _)) = own {
        asides.push(Aside::OwnProcessListed { pid });
    }
    let own_figure = f.this_process.or(own.map(|(_, u)| u));
    if let (Some(p), Some(a)) = (f.this_process, f.allocated) {
        let non_pytorch = sub(sub(p, a), cache);
        if non_pytorch.0 > 0 {
            asides.push(Aside::NonPytorch { bytes: non_pytorch });
        }
    }
    if r > total {
        math.push(format!(
            "request {} GiB > the card's {} GiB",
            g(r),
            g(total)
        ));
        return Verdict::LargerThanCard {
            requested: r,
            total,
        };
    }
    let beyond = f.reserved.is_some_and(|rv| rv > total) || own_figure.is_some_and(|u| u > total);
    let listed_others = Bytes(
        f.other_processes
            .iter()
            .filter(|(pid, _)| Some(*pid) != own.map(|(p, _)| p))
            .map(|(_, b)| b.0)
            .sum(),
    );
    let outside = if beyond {
        asides.push(Aside::BeyondTheCard);
        math.push(format!(
            "this process's figures exceed the card's {} GiB (shared system memory on Windows): what other processes hold cannot be worked out",
            g(total)
        ));
        listed_others
    } else if let Some(u) = own_figure {
        let o = sub(sub(total, free), u);
        math.push(format!(
            "outside this process: {} total - {} free - {} this process = {} GiB ({} of the card)",
            g(total),
            g(free),
            g(u),
            g(o),
            pct(o, total)
        ));
        o.max(listed_others)
    } else if let Some(rv) = f.reserved {
        let o = sub(sub(total, free), rv);
        let o2 = sub(o, CONTEXT_ALLOWANCE);
        math.push(format!(
            "outside PyTorch's reserve: {} total - {} free - {} reserved = {} GiB; less 1 GiB for this process's own CUDA context and libraries = {} GiB ({} of the card)",
            g(total),
            g(free),
            g(rv),
            g(o),
            g(o2),
            pct(o2, total)
        ));
        o2.max(listed_others)
    } else {
        listed_others
    };
    let share = |b: Bytes| b.0 as f64 >= SHARE * total.0 as f64;
    let others_matter = share(outside);
    // Other processes are the cause only when the card's free memory alone was short.
    if others_matter && free < r && r.0 <= free.0 + outside.0 {
        math.push(format!(
            "request {} <= free {} + outside {} = {} GiB: without them it would have fit",
            g(r),
            g(free),
            g(outside),
            g(Bytes(free.0 + outside.0))
        ));
        return Verdict::OtherProcesses {
            held: outside,
            named: named_holders(f, own.map(|(p, _)| p)),
            freeing_them_fits_this_request: true,
        };
    }
    // Under a cap ("X allowed") shares are of what this process may have.
    let room = f.allowed.unwrap_or(total);
    let capped = f.allowed.filter(|_| free >= r);
    // A printed cap with room on the card: the cap refused it, unless a large share of
    // what the cap allows lies in pieces in the cache (then fragmentation, the cap noted).
    let pieces_under_cap = cache >= r && cache.0 as f64 >= CAP_SHARE * room.0 as f64;
    if let Some(allowed) = capped.filter(|_| !pieces_under_cap) {
        math.push(format!(
            "free on the card {} >= request {} GiB, and the message says {} GiB allowed",
            g(free),
            g(r),
            g(allowed)
        ));
        if cache >= r && cache.0 as f64 >= SHARE * room.0 as f64 {
            asides.push(Aside::SmallCache { cache });
        }
        return Verdict::ProcessCap {
            requested: r,
            free,
            allowed: Some(allowed),
        };
    }
    // The driver had room for the segment PyTorch asks it for, and no cap is printed:
    // neither a shortage, nor other processes, nor pieces in the cache explain it.
    let segment = segment_of(r);
    if f.allowed.is_none() && free.0 >= segment.0 + CONTRADICT_MARGIN.0 {
        math.push(format!(
            "free on the card {} GiB >= the {} GiB segment PyTorch asks the driver for (request {} GiB) + {} GiB, and no cap is printed: the figures do not explain the failure",
            g(free),
            g(segment),
            g(r),
            g(CONTRADICT_MARGIN)
        ));
        if others_matter {
            asides.push(Aside::OthersHold { held: outside });
        }
        return Verdict::FiguresContradict { requested: r, free };
    }
    if cache >= r {
        math.push(format!(
            "free in PyTorch's cache: {} GiB ({} of the {}) >= request {} GiB",
            g(cache),
            pct(cache, room),
            if f.allowed.is_some() { "cap" } else { "card" },
            g(r)
        ));
        if cache.0 as f64 >= SHARE * room.0 as f64 {
            if others_matter {
                asides.push(Aside::OthersHold { held: outside });
            }
            if let Some(a) = capped {
                asides.push(Aside::Capped {
                    free,
                    allowed: Some(a),
                });
            }
            return Verdict::Fragmentation {
                requested: r,
                unallocated: cache,
            };
        }
        asides.push(Aside::SmallCache { cache });
    }
    if free >= r {
        asides.push(Aside::FreeCoversRequest { free });
    }
    // The card's free memory covered the request and neither the cache nor a cap
    // explains the failure: a card this shared is still the likeliest cause.
    if others_matter && r.0 <= free.0 + outside.0 {
        math.push(format!(
            "request {} <= free {} GiB, yet it failed; other processes hold {} GiB ({} of the card)",
            g(r),
            g(free),
            g(outside),
            pct(outside, total)
        ));
        return Verdict::OtherProcesses {
            held: outside,
            named: named_holders(f, own.map(|(p, _)| p)),
            freeing_them_fits_this_request: true,
        };
    }
    if others_matter {
        asides.push(Aside::OthersHold { held: outside });
    }
    let short = sub(sub(r, free), cache);
    if short.0 > 0 {
        math.push(format!(
            "shortfall: {} requested - {} free - {} cache = {} GiB",
            g(r),
            g(free),
            g(cache),
            g(short)
        ));
    } else {
        math.push(format!(
            "no shortfall in the figures: request {} <= free {} + cache {} GiB, yet neither alone held it",
            g(r),
            g(free),
            g(cache)
        ));
    }
    Verdict::Shortage {
        short_by: short,
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
capacity of 5.00 GiB of which 100.00 MiB is free. Including non-PyTorch memory, this process has \
4.85 GiB memory in use. Of the allocated memory 2.00 GiB is allocated by PyTorch, and 2.00 GiB is \
reserved by PyTorch but unallocated.",
        );
        assert!(matches!(v, Verdict::Fragmentation { .. }), "{v:?}");
    }

    #[test]
    fn free_on_the_card_but_refused_is_a_cap_only_when_the_message_names_one() {
        let capped = "CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total \
capacity of 40.00 GiB of which 30.00 GiB is free. Including non-PyTorch memory, this process has \
4.50 GiB memory in use. 4.00 GiB allowed; Of the allocated memory 4.00 GiB is allocated by PyTorch, \
and 20.00 MiB is reserved by PyTorch but unallocated.";
        assert!(
            matches!(verdict(capped), Verdict::ProcessCap { .. }),
            "{:?}",
            verdict(capped)
        );
        // The same figures without "allowed": no cap is inferred from free >= request;
        // the figures do not explain the failure, and the report says so.
        let uncapped = capped.replace("4.00 GiB allowed; ", "");
        let d = diagnose(&parse(&uncapped));
        assert!(
            matches!(d.verdict, Verdict::FiguresContradict { .. }),
            "{:?}",
            d.verdict
        );
    }

    #[test]
    fn a_containers_own_pid_is_not_another_process() {
        // PyTorch in a container names the process itself: 14.52 GiB = its reserve
        // (14.06 + 0.32) and context. Nothing else holds the card.
        let d = diagnose(&parse(
            "CUDA out of memory. Tried to allocate 496.00 MiB. GPU 0 has a total capacty of \
14.75 GiB of which 235.06 MiB is free. Process 20398 has 14.52 GiB memory in use. Of the allocated \
memory 14.06 GiB is allocated by PyTorch, and 330.42 MiB is reserved by PyTorch but unallocated.",
        ));
        assert!(
            matches!(d.verdict, Verdict::Shortage { .. }),
            "{:?}",
            d.verdict
        );
        assert!(d.asides.contains(&Aside::OwnProcessListed { pid: 20398 }));
        assert!(
            d.arithmetic
                .iter()
                .any(|l| l.starts_with("outside this process: 14.75 total")),
            "{:?}",
            d.arithmetic
        );
    }

    #[test]
    fn the_crashed_process_in_a_pasted_nvidia_smi_table_is_not_another_holder() {
        // A notebook: the crashed kernel is still alive and listed at the message's "this
        // process" figure (12390 MiB = 12.10 GiB); only PID 5678 holds the rest.
        let text = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 \
has a total capacity of 23.65 GiB of which 30.81 MiB is free. Including non-PyTorch memory, this \
process has 12.10 GiB memory in use. Of the allocated memory 11.20 GiB is allocated by PyTorch, and \
400.00 MiB is reserved by PyTorch but unallocated.
|    0   N/A  N/A      1234      C   python train.py                             12390MiB |
|    0   N/A  N/A      5678      C   /usr/bin/python3 jupyter-kernel              11800MiB |";
        let d = diagnose(&parse(text));
        assert!(d.asides.contains(&Aside::OwnProcessListed { pid: 1234 }));
        match &d.verdict {
            Verdict::OtherProcesses { named, .. } => {
                assert_eq!(named.iter().map(|h| h.pid).collect::<Vec<_>>(), vec![5678]);
            }
            v => panic!("{v:?}"),
        }
        // Two rows at that figure: which one is this process is not known; none is left out.
        let twin = text.replace("11800MiB", "12390MiB");
        let d = diagnose(&parse(&twin));
        assert!(!d
            .asides
            .iter()
            .any(|a| matches!(a, Aside::OwnProcessListed { .. })));
    }

    #[test]
    fn a_line_wrapped_mid_word_and_the_hint_are_read_right() {
        let f = parse(
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capa\ncity of 23.50 GiB of which 5.00 MiB is fr\nee. Including non-PyTorch memory, this process has 23.40 GiB memory in use. Of the allocated memory 22.\n90 GiB is allocated by PyTorch, and 100.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.",
        );
        assert_eq!(f.total, Some(Bytes(23 * GIB + GIB / 2)));
        assert_eq!(f.free, Some(Bytes(5 * MIB)));
        assert_eq!(f.allocated, Some(Bytes((22.9 * GIB as f64).round() as u64)));
        assert!(!f.expandable_segments_set);
        assert!(parse("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python train.py\nCUDA out of memory. Tried to allocate 2.00 MiB").expandable_segments_set);
    }

    #[test]
    fn a_pasted_nvidia_smi_table_gives_xla_the_card() {
        let d = diagnose(&parse("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4294967296 bytes.\n| N/A   53C    P0    70W / 300W |  79000MiB /  81920MiB |    100%      Default |"));
        assert!(
            matches!(d.verdict, Verdict::Shortage { .. }),
            "{:?}",
            d.verdict
        );
        assert!(
            d.arithmetic[0].starts_with("nvidia-smi's table"),
            "{:?}",
            d.arithmetic
        );
    }

    #[test]
    fn rocm_and_host_memory_are_named_as_such() {
        let f = parse("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 63.98 GiB of which 1.00 GiB is free.");
        assert!(f.hip);
        assert_eq!(f.source, Some(Source::Pytorch));
        let host = parse("RuntimeError: [enforce fail at alloc_cpu.cpp:114] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1069551616 bytes.");
        assert_eq!(
            diagnose(&host).verdict,
            Verdict::HostRam {
                requested: Some(Bytes(1_069_551_616))
            }
        );
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
        assert!(matches!(
            verdict("CUDA out of memory. Tried to allocate 2.00 GiB."),
            Verdict::TooFewFigures { .. }
        ));
        assert_eq!(
            verdict("Segmentation fault (core dumped)"),
            Verdict::Unknown
        );
    }
}

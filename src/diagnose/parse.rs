//! Reading the figures out of an out-of-memory message: PyTorch's CUDA caching allocator
//! (the message since 2.1 and the older one), `torch.cuda.memory_summary()`, nvidia-smi's
//! process table, raw CUDA and cuBLAS errors, and cubecl's (oomlab's) allocation panic.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::units::{parse_size, Bytes};

/// Who wrote the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// PyTorch's caching allocator, 2.1 and later ("GPU 0 has a total capacity of ...").
    Pytorch,
    /// PyTorch's caching allocator before 2.1 ("(GPU 0; 15.78 GiB total capacity; ...").
    PytorchLegacy,
    /// The CUDA runtime or driver itself (`CUDA error: out of memory`,
    /// `CUDA_ERROR_OUT_OF_MEMORY`), outside the caching allocator: context creation, a
    /// library's workspace, NCCL.
    CudaRuntime,
    /// cuBLAS could not get its workspace (`CUBLAS_STATUS_ALLOC_FAILED`).
    Cublas,
    /// cubecl's allocation panic, as burn (and oomlab) on CUDA prints it.
    Cubecl,
    /// TensorFlow's BFC allocator (`OOM when allocating tensor`).
    Tensorflow,
    /// XLA / JAX (`RESOURCE_EXHAUSTED: Out of memory`).
    Xla,
    /// Host memory (RAM), not the GPU: PyTorch's CPU allocator (`DefaultCPUAllocator`,
    /// `alloc_cpu.cpp`) could not get the bytes from the system.
    HostRam,
}

/// A process in nvidia-smi's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SmiProcess {
    /// GPU index.
    pub gpu: u32,
    /// Process id.
    pub pid: u32,
    /// Process name as nvidia-smi prints it (often cut).
    pub name: String,
    /// Memory it uses; `None` where nvidia-smi cut the figure short ("10036...").
    pub used: Option<Bytes>,
}

/// Everything a message says, each figure only when the text gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// Who wrote it; `None`: not an out-of-memory message this reader knows.
    pub source: Option<Source>,
    /// The allocation that failed.
    pub requested: Option<Bytes>,
    /// GPU index.
    pub gpu: Option<u32>,
    /// The card's capacity as the framework sees it.
    pub total: Option<Bytes>,
    /// Free on the device at the failure (driver's figure).
    pub free: Option<Bytes>,
    /// This process's memory on the device, including the CUDA context and non-PyTorch
    /// allocations.
    pub this_process: Option<Bytes>,
    /// Other processes the message names, with their memory.
    pub other_processes: Vec<(u32, Bytes)>,
    /// A per-process cap (`torch.cuda.set_per_process_memory_fraction`: "4.00 GiB
    /// allowed").
    pub allowed: Option<Bytes>,
    /// Bytes in live tensors (PyTorch: "allocated by PyTorch").
    pub allocated: Option<Bytes>,
    /// Bytes the caching allocator holds but no tensor uses.
    pub reserved_unallocated: Option<Bytes>,
    /// `torch.cuda.memory_summary()`'s current non-releasable memory: free bytes inside
    /// segments that also hold live blocks, which emptying the cache cannot return.
    pub non_releasable: Option<Bytes>,
    /// Processes from an nvidia-smi table pasted along.
    pub smi_processes: Vec<SmiProcess>,
    /// The message names PYTORCH_CUDA_ALLOC_CONF's expandable segments as already set
    /// (outside PyTorch's own hint, which suggests it).
    pub expandable_segments_set: bool,
    /// PyTorch's whole reserve (the old message's "reserved in total"; the new one's
    /// allocated + reserved but unallocated).
    pub reserved: Option<Bytes>,
    /// PyTorch on ROCm ("HIP out of memory"): its allocator is the same, its variable is
    /// PYTORCH_HIP_ALLOC_CONF.
    pub hip: bool,
    /// Allocated in private pools (CUDA/HIP graphs), part of the allocated figure.
    pub private_pools: Option<Bytes>,
    /// An allocator's limit (TensorFlow's BFC `Limit:`, bytes).
    pub limit: Option<Bytes>,
    /// In use in that allocator (TensorFlow's `InUse:`).
    pub in_use: Option<Bytes>,
    /// Per-GPU memory from a pasted nvidia-smi table: (used, total).
    pub smi_devices: Vec<(Bytes, Bytes)>,
    /// How many PyTorch out-of-memory messages ("Tried to allocate ...") the text holds;
    /// past one (a retry loop, a batch-size finder), every figure of the message is the
    /// last one's.
    pub messages: usize,
    /// TensorFlow's device line, printed when it found the card and before it allocated
    /// anything: (total, free). What was not free then, other processes held.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_at_start: Option<(Bytes, Bytes)>,
    /// A figure no card can show (free above total, or a count of 2^63 bytes or more: an
    /// unsigned number that went below zero), in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impossible: Option<String>,
}

const SIZE: &str = r"([0-9]+(?:\.[0-9]+)?\s*(?:bytes|[KMGT]iB|B))";

fn re(pattern: &str) -> Regex {
    // The patterns are constants tested below; a bad one is a programming error.
    #[allow(clippy::expect_used)]
    Regex::new(&pattern.replace("SIZE", SIZE)).expect("a valid built-in pattern")
}

static REQUESTED: LazyLock<Regex> = LazyLock::new(|| re(r"Tried\s*to\s*allocate\s*SIZE"));
static GPU: LazyLock<Regex> = LazyLock::new(|| re(r"\(?GPU\s*([0-9]+)[;\s]"));
static TOTAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"total\s*capac(?:i)?t?y\s*of\s*SIZE|SIZE\s*total\s*capac(?:i)?t?y"));
static FREE: LazyLock<Regex> = LazyLock::new(|| re(r"of\s*which\s*SIZE\s*is\s*free|SIZE\s*free"));
static THIS: LazyLock<Regex> =
    LazyLock::new(|| re(r"this\s*process\s*has\s*SIZE\s*memory\s*in\s*use"));
static OTHER: LazyLock<Regex> =
    LazyLock::new(|| re(r"Process\s*([0-9]+)\s*has\s*SIZE\s*memory\s*in\s*use"));
static ALLOWED: LazyLock<Regex> = LazyLock::new(|| re(r"SIZE\s*allowed"));
static ALLOCATED: LazyLock<Regex> =
    LazyLock::new(|| re(r"SIZE\s*is\s*allocated\s*by\s*PyTorch|SIZE\s*already\s*allocated"));
static UNALLOCATED: LazyLock<Regex> =
    LazyLock::new(|| re(r"SIZE\s*is\s*reserved\s*by\s*PyTorch\s*but\s*unallocated"));
static RESERVED_TOTAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"SIZE\s*reserved\s*in\s*total\s*by\s*PyTorch"));
/// Before PyTorch 1.5 the cache's free part was "N cached".
static CACHED: LazyLock<Regex> = LazyLock::new(|| re(r"SIZE\s*cached\)"));
static PRIVATE_POOLS: LazyLock<Regex> =
    LazyLock::new(|| re(r"with\s*SIZE\s*allocated\s*in\s*private\s*pools"));
static NON_RELEASABLE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\|\s*Non-releasable memory\s*\|\s*SIZE"));
static SMI_ROW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^\|\s+([0-9]+)\s+\S+\s+\S+\s+([0-9]+)\s+(?:C|G|M|C\+G|M\+C)\s+(.+?)\s+([0-9]+)(MiB|\.\.\.)\s*\|",
    )
});
static SMI_DEVICE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\|\s*([0-9]+)MiB\s*/\s*([0-9]+)MiB\s*\|"));
static CUBECL: LazyLock<Regex> = LazyLock::new(|| re(r"can't allocate buffer of size: ([0-9]+)"));
static XLA: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:Out\s*of\s*memory\s*(?:while\s*trying\s*to\s*allocate|allocating)|failed\s*to\s*allocate)\s*([0-9]+)\s*bytes|(?i:failed\s*to\s*allocate\s*request\s*for)\s*[0-9.]+\s*[KMGT]?i?B\s*\(([0-9]+)B\)",
    )
});
static XLA_FREE_TOTAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"Free\s*memory/Total\s*memory:\s*([0-9]+)/([0-9]+)"));
static TF_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)ran\s*out\s*of\s*memory\s*trying\s*to\s*allocate\s*([0-9.]+\s*[KMGT]?i?B)")
});
static TF_SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"OOM\s*when\s*allocating\s*tensor\s*(?:with\s*shape|of\s*shape)\s*\[([0-9,\s]+)\](?:\s*and\s*type\s*([a-z0-9_]+))?",
    )
});
static TF_LIMIT: LazyLock<Regex> = LazyLock::new(|| re(r"Limit:\s*([0-9]+)"));
/// TensorFlow's device lines: "Total memory: 12.00GiB" / "Free memory: 496.40MiB" (before
/// 1.5) and "totalMemory: 10.76GiB freeMemory: 1.50GiB" (1.5 and later).
static TF_TOTAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)total\s*memory:\s*([0-9.]+\s*[KMGT]i?B)"));
static TF_FREE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)free\s*memory:\s*([0-9.]+\s*[KMGT]i?B)"));
/// TensorFlow's driver wrapper: "failed to allocate 190.31M (199557120 bytes) from device".
static TF_DRIVER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"failed\s*to\s*allocate\s*[0-9.]+\s*[KMGT]?\s*\(([0-9]+)\s*bytes\)\s*from\s*device")
});
/// Any size the message prints, for the check of impossible figures: its number and unit.
static ANY_SIZE: LazyLock<Regex> =
    LazyLock::new(|| re(r"([0-9]+(?:\.[0-9]+)?)\s*(KiB|MiB|GiB|TiB)"));
static TF_IN_USE: LazyLock<Regex> = LazyLock::new(|| re(r"InUse:\s*([0-9]+)"));
static HOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:DefaultCPUAllocator|alloc_cpu\.cpp|CPUAllocator\.cpp)[^\n]*?(?:you\s*tried\s*to\s*allocate|allocate)\s*([0-9]+)\s*bytes",
    )
});

fn size(text: &str) -> Option<Bytes> {
    let t = text.trim();
    let t = t.strip_suffix("bytes").map(str::trim).unwrap_or(t);
    parse_size(t).ok()
}

/// The first size any alternative of `re` captures.
fn first_size(re: &Regex, text: &str) -> Option<Bytes> {
    re.captures(text).and_then(|c| {
        c.iter()
            .skip(1)
            .flatten()
            .next()
            .and_then(|m| size(m.as_str()))
    })
}

/// One line as pasted, without what terminals and loggers put before it: a rank
/// prefix (`[rank0]: `), a quote (`> `), indentation.
fn strip_prefix(line: &str) -> &str {
    static PREFIX: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*(?:>\s*)*(?:\[rank\s*[0-9]+\]:\s*)?"));
    let line = line.trim_end_matches('\r');
    match PREFIX.find(line) {
        Some(m) => &line[m.end()..],
        None => line,
    }
}

/// The text with its lines joined without a separator, so a figure or a word wrapped
/// across lines (narrow terminals, logs cut at 80 columns) reads whole; the patterns
/// allow optional spaces where the message has them.
fn joined(text: &str) -> String {
    text.lines().map(strip_prefix).collect::<Vec<_>>().join("")
}

/// Whether expandable segments is named as set, not as PyTorch's own advice ("try
/// setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", PYTORCH_ALLOC_CONF and
/// PYTORCH_HIP_ALLOC_CONF alike).
fn expandable_set(joined: &str) -> bool {
    static HINT: LazyLock<Regex> = LazyLock::new(|| {
        re(r"try\s*setting\s*PYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF\s*=\s*expandable_segments:\s*True")
    });
    HINT.replace_all(joined, "")
        .contains("expandable_segments:True")
}

/// Bytes of a TensorFlow tensor `shape[a,b,c] and type t`.
fn tensor_bytes(dims: &str, dtype: Option<&str>) -> Option<Bytes> {
    let n = dims
        .split(',')
        .map(|d| d.trim().parse::<u64>().ok())
        .try_fold(1u64, |acc, d| acc.checked_mul(d?))?;
    let per = match dtype.unwrap_or("float") {
        "float" | "float32" | "int32" | "uint32" => 4,
        "half" | "float16" | "bfloat16" | "int16" => 2,
        "double" | "float64" | "int64" | "uint64" | "complex64" => 8,
        "int8" | "uint8" | "bool" => 1,
        _ => return None,
    };
    n.checked_mul(per).map(Bytes)
}

/// Reads every figure `text` gives. Where it holds several PyTorch messages, the
/// message's figures are the last one's: figures of different moments do not add up.
pub fn parse(text: &str) -> Facts {
    let j = joined(text);
    let whole = j.as_str();
    let starts: Vec<usize> = REQUESTED.find_iter(whole).map(|m| m.start()).collect();
    // Both formats give their figures after "Tried to allocate".
    let t = match starts.as_slice() {
        [_, .., last] => &whole[*last..],
        _ => whole,
    };
    let mut f = Facts {
        messages: starts.len(),
        requested: first_size(&REQUESTED, t),
        gpu: GPU
            .captures(t)
            .and_then(|c| c.get(1))
            .and_then(|m| m.as_str().parse().ok()),
        total: first_size(&TOTAL, t),
        free: first_size(&FREE, t),
        this_process: first_size(&THIS, t),
        allowed: first_size(&ALLOWED, t),
        allocated: first_size(&ALLOCATED, t),
        reserved_unallocated: first_size(&UNALLOCATED, t).or_else(|| first_size(&CACHED, t)),
        private_pools: first_size(&PRIVATE_POOLS, t),
        non_releasable: first_size(&NON_RELEASABLE, text),
        expandable_segments_set: expandable_set(whole),
        hip: whole.contains("HIP out of memory"),
        ..Facts::default()
    };
    for c in OTHER.captures_iter(t) {
        if let (Some(pid), Some(used)) = (
            c.get(1).and_then(|m| m.as_str().parse().ok()),
            c.get(2).and_then(|m| size(m.as_str())),
        ) {
            f.other_processes.push((pid, used));
        }
    }
    for c in SMI_ROW.captures_iter(text) {
        let field = |i: usize| c.get(i).map(|m| m.as_str()).unwrap_or("");
        if let (Ok(gpu), Ok(pid)) = (field(1).parse(), field(2).parse()) {
            let used = match field(5) {
                "MiB" => field(4).parse::<u64>().ok().map(|m| Bytes(m * 1024 * 1024)),
                _ => None,
            };
            f.smi_processes.push(SmiProcess {
                gpu,
                pid,
                name: field(3).to_string(),
                used,
            });
        }
    }
    for c in SMI_DEVICE.captures_iter(text) {
        let mib = |i: usize| {
            c.get(i)
                .and_then(|m| m.as_str().parse::<u64>().ok())
                .map(|m| Bytes(m * 1024 * 1024))
        };
        if let (Some(used), Some(total)) = (mib(1), mib(2)) {
            f.smi_devices.push((used, total));
        }
    }
    let reserved_total = first_size(&RESERVED_TOTAL, t);
    f.reserved = match (reserved_total, f.allocated, f.reserved_unallocated) {
        (Some(r), _, _) => Some(r),
        (None, Some(a), Some(u)) => Some(Bytes(a.0 + u.0)),
        _ => None,
    };
    // The old message gives reserved in total; the unallocated part is the difference.
    if f.reserved_unallocated.is_none() {
        if let (Some(reserved), Some(allocated)) = (reserved_total, f.allocated) {
            f.reserved_unallocated = Some(Bytes(reserved.0.saturating_sub(allocated.0)));
        }
    }
    let lower = whole.to_ascii_lowercase();
    // PyTorch's allocator: its "out of memory" with a request, or its figures (a paste
    // that kept only "(GPU 0; 15.75 GiB total capacity; ...").
    let pytorch = f.total.is_some()
        || (f.requested.is_some()
            && (lower.contains("cuda out of memory") || lower.contains("hip out of memory")));
    let legacy = f.total.is_some() && TOTAL_LEGACY.is_match(t);
    f.source = if let Some(c) = HOST.captures(whole) {
        f.requested = c.get(1).and_then(|m| m.as_str().parse().ok()).map(Bytes);
        f.total = None;
        Some(Source::HostRam)
    } else if pytorch && legacy {
        Some(Source::PytorchLegacy)
    } else if pytorch {
        Some(Source::Pytorch)
    } else if let Some(c) = CUBECL.captures(whole) {
        f.requested = c.get(1).and_then(|m| m.as_str().parse().ok()).map(Bytes);
        Some(Source::Cubecl)
    } else if lower.contains("cublas_status_alloc_failed") {
        Some(Source::Cublas)
    } else if lower.contains("oom when allocating tensor")
        || lower.contains("bfc_allocator")
        || (lower.contains("ran out of memory trying to allocate") && lower.contains("allocator"))
        || (lower.contains("tensorflow") && lower.contains("cuda_driver.cc"))
    {
        f.requested = first_size(&TF_REQUEST, whole)
            .or_else(|| {
                TF_SHAPE
                    .captures(whole)
                    .and_then(|c| tensor_bytes(c.get(1)?.as_str(), c.get(2).map(|m| m.as_str())))
            })
            .or_else(|| {
                TF_DRIVER
                    .captures(whole)
                    .and_then(|c| c.get(1)?.as_str().parse().ok())
                    .map(Bytes)
            });
        // The device line is one line each: read it from the text as pasted.
        let line_size = |re: &Regex| {
            text.lines()
                .find_map(|l| re.captures(l).and_then(|c| size(c.get(1)?.as_str())))
        };
        if let (Some(t), Some(fr)) = (line_size(&TF_TOTAL), line_size(&TF_FREE)) {
            f.device_at_start = Some((t, fr));
        }
        let number = |re: &Regex| {
            re.captures(whole)
                .and_then(|c| c.get(1))
                .and_then(|m| m.as_str().parse::<u64>().ok())
                .map(Bytes)
        };
        f.limit = number(&TF_LIMIT).filter(|b| b.0 > 0);
        f.in_use = number(&TF_IN_USE);
        Some(Source::Tensorflow)
    } else if (lower.contains("resource_exhausted") || lower.contains("resource exhausted"))
        && (lower.contains("out of memory") || lower.contains("failed to allocate"))
        || lower.contains("xlaruntimeerror")
    {
        f.requested = XLA
            .captures(whole)
            .and_then(|c| c.get(1).or(c.get(2)))
            .and_then(|m| m.as_str().parse().ok())
            .map(Bytes);
        if let Some(c) = XLA_FREE_TOTAL.captures(whole) {
            let n = |i: usize| {
                c.get(i)
                    .and_then(|m| m.as_str().parse::<u64>().ok())
                    .map(Bytes)
            };
            f.free = n(1);
            f.total = n(2);
        }
        Some(Source::Xla)
    } else if lower.contains("cuda error: out of memory")
        || lower.contains("cuda_error_out_of_memory")
        || lower.contains("cudaerrormemoryallocation")
        || lower.contains("cuda out of memory")
        || lower.contains("hip out of memory")
        || lower.contains("hiperroroutofmemory")
        || (lower.contains("cuda runtime error") && lower.contains("out of memory"))
    {
        Some(Source::CudaRuntime)
    } else {
        None
    };
    f.impossible = impossible(&f, text);
    f
}

/// A figure no card can show, in words: free above total, or a size of 2^63 bytes or more
/// (printed near 17179869184 GiB: a count that went below zero and wrapped).
fn impossible(f: &Facts, text: &str) -> Option<String> {
    f.source?;
    for c in ANY_SIZE.captures_iter(text) {
        let n: f64 = c.get(1)?.as_str().parse().ok()?;
        let unit = match c.get(2)?.as_str() {
            "KiB" => 2f64.powi(10),
            "MiB" => 2f64.powi(20),
            "GiB" => 2f64.powi(30),
            _ => 2f64.powi(40),
        };
        if n * unit >= 2f64.powi(63) {
            return Some(format!(
                "the message prints {} {}: 2^63 bytes or more, a count that went below zero and wrapped around",
                c.get(1)?.as_str(),
                c.get(2)?.as_str()
            ));
        }
    }
    match (f.free, f.total) {
        (Some(free), Some(total)) if free > total => {
            Some(format!("the card has {total} in all, yet {free} is free"))
        }
        _ => None,
    }
}

/// The old message: "(GPU 0; 15.78 GiB total capacity; ...)".
static TOTAL_LEGACY: LazyLock<Regex> = LazyLock::new(|| re(r"SIZE\s*total\s*capac(?:i)?t?y\s*;"));

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * MIB;

    fn gib(x: f64) -> Bytes {
        Bytes((x * GIB as f64).round() as u64)
    }
    fn mib(x: f64) -> Bytes {
        Bytes((x * MIB as f64).round() as u64)
    }

    #[test]
    fn reads_every_figure_of_the_current_pytorch_message() {
        let m = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 42.00 MiB. \
GPU 0 has a total capacity of 23.50 GiB of which 10.50 MiB is free. Process 4242 has 12.00 GiB \
memory in use. Process 77 has 300.00 MiB memory in use. Including non-PyTorch memory, this \
process has 11.10 GiB memory in use. Of the allocated memory 10.25 GiB is allocated by PyTorch, \
and 512.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is \
large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.";
        let f = parse(m);
        assert_eq!(f.source, Some(Source::Pytorch));
        assert_eq!(f.requested, Some(mib(42.0)));
        assert_eq!(f.gpu, Some(0));
        assert_eq!(f.total, Some(gib(23.5)));
        assert_eq!(f.free, Some(mib(10.5)));
        assert_eq!(f.this_process, Some(gib(11.1)));
        assert_eq!(f.other_processes, vec![(4242, gib(12.0)), (77, mib(300.0))]);
        assert_eq!(f.allocated, Some(gib(10.25)));
        assert_eq!(f.reserved_unallocated, Some(mib(512.0)));
        assert!(!f.expandable_segments_set, "the advice is not the setting");
    }

    #[test]
    fn of_several_messages_every_figure_is_the_last_ones() {
        // A retry loop's log: two messages of one process, two moments.
        let m = "Batch size 64 failed, retrying with 32
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total \
capacity of 23.65 GiB of which 2.10 GiB is free. Including non-PyTorch memory, this process has \
21.53 GiB memory in use. Of the allocated memory 20.80 GiB is allocated by PyTorch, and 250.00 MiB \
is reserved by PyTorch but unallocated.
Batch size 32 failed, retrying with 16
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 1 has a total \
capacity of 23.65 GiB of which 900.00 MiB is free. Process 4242 has 10.00 GiB memory in use. \
Including non-PyTorch memory, this process has 12.75 GiB memory in use. Of the allocated memory \
11.90 GiB is allocated by PyTorch, and 300.00 MiB is reserved by PyTorch but unallocated.";
        let f = parse(m);
        assert_eq!(f.messages, 2);
        assert_eq!(f.source, Some(Source::Pytorch));
        assert_eq!(f.requested, Some(gib(1.5)));
        assert_eq!(f.gpu, Some(1));
        assert_eq!(f.free, Some(mib(900.0)));
        assert_eq!(f.this_process, Some(gib(12.75)));
        assert_eq!(f.other_processes, vec![(4242, gib(10.0))]);
        assert_eq!(f.allocated, Some(gib(11.9)));
        assert_eq!(f.reserved_unallocated, Some(mib(300.0)));

        // An old-format message, then a new one: the new one's format and figures only.
        let m = "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB \
total capacity; 6.00 GiB already allocated; 20.00 MiB free; 7.00 GiB reserved in total by PyTorch)
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total \
capacity of 79.19 GiB of which 1.00 GiB is free. Including non-PyTorch memory, this process has \
78.10 GiB memory in use. Of the allocated memory 77.00 GiB is allocated by PyTorch, and 100.00 MiB \
is reserved by PyTorch but unallocated.";
        let f = parse(m);
        assert_eq!(f.messages, 2);
        assert_eq!(f.source, Some(Source::Pytorch));
        assert_eq!(f.total, Some(gib(79.19)));
        assert_eq!(f.allocated, Some(gib(77.0)));
        assert_eq!(f.reserved, Some(Bytes(gib(77.0).0 + mib(100.0).0)));
        assert_eq!(parse("Tried to allocate 2.00 GiB").messages, 1);
    }

    #[test]
    fn the_legacy_message_gives_unallocated_as_reserved_minus_allocated() {
        let m = "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 1; 10.00 GiB \
total capacity; 8.00 GiB already allocated; 20.00 MiB free; 9.00 GiB reserved in total by \
PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb";
        let f = parse(m);
        assert_eq!(f.source, Some(Source::PytorchLegacy));
        assert_eq!(f.gpu, Some(1));
        assert_eq!(f.total, Some(gib(10.0)));
        assert_eq!(f.free, Some(mib(20.0)));
        assert_eq!(f.allocated, Some(gib(8.0)));
        assert_eq!(f.reserved_unallocated, Some(gib(1.0)));
    }

    #[test]
    fn reads_nvidia_smi_process_rows() {
        let m = "|    0   N/A  N/A         1234      C   python3                               40000MiB |\n\
|    1   N/A  N/A           99      G   /usr/lib/xorg/Xorg                       12MiB |";
        let f = parse(m);
        assert_eq!(f.smi_processes.len(), 2);
        assert_eq!(f.smi_processes[0].pid, 1234);
        assert_eq!(f.smi_processes[0].name, "python3");
        assert_eq!(f.smi_processes[0].used, Some(mib(40000.0)));
        assert_eq!(f.smi_processes[1].gpu, 1);
    }

    #[test]
    fn knows_the_other_frameworks_and_cubecl() {
        assert_eq!(
            parse("can't allocate buffer of size: 37527470080").source,
            Some(Source::Cubecl)
        );
        assert_eq!(
            parse("can't allocate buffer of size: 37527470080").requested,
            Some(Bytes(37_527_470_080))
        );
        assert_eq!(
            parse("RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported").source,
            Some(Source::CudaRuntime)
        );
        assert_eq!(
            parse("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`").source,
            Some(Source::Cublas)
        );
        let p = parse("2019-06-13 E external/org_tensorflow/tensorflow/compiler/xla/pjrt: Execution of replica 0 failed: Resource exhausted: Failed to allocate request for 128.00MiB (134217728B) on device ordinal 0");
        assert_eq!(
            (p.source, p.requested),
            (Some(Source::Xla), Some(Bytes(134_217_728)))
        );
        let x = parse("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.");
        assert_eq!(x.source, Some(Source::Xla));
        assert_eq!(x.requested, Some(Bytes(17_179_869_184)));
        assert_eq!(
            parse("ResourceExhaustedError: OOM when allocating tensor with shape[64,1024,1024] and type float").source,
            Some(Source::Tensorflow)
        );
    }

    #[test]
    fn text_without_an_oom_is_not_recognised() {
        assert_eq!(
            parse("ModuleNotFoundError: No module named 'torch._C'").source,
            None
        );
        assert_eq!(parse("").source, None);
    }
}

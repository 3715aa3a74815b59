//! oomlab's model of PyTorch's caching allocator (src/hf/allocator.rs) against the
//! allocator itself: the event traces recorded on the H200 with
//! torch.cuda.memory._record_memory_history (benches/hf_memory.py, HF_MEMORY_TRACE=1,
//! docs/results/2026-12-04-h200-hf-allocator-trace and -trace2) replayed, alloc by alloc and
//! free by free, must reserve the segments the real allocator reserved, and reach its
//! reserved peak.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use oomlab::hf::allocator::CachingAllocator;

const RUNS: [&str; 2] = [
    "docs/results/2026-12-04-h200-hf-allocator-trace/hf-memory",
    "docs/results/2026-12-04-h200-hf-allocator-trace2/hf-memory",
];

fn folder(run: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(run)
}

/// (action, address, size) of every event, marks left out (hf_replay.rs reads them too).
pub(crate) fn events(run: &str, file: &str) -> Vec<(String, u64, u64)> {
    let f = std::fs::File::open(folder(run).join(file)).unwrap();
    let r = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let mut out = Vec::new();
    for line in r.lines() {
        let line = line.unwrap();
        let mut it = line.split('\t');
        let action = it.next().unwrap().to_string();
        if action == "mark" {
            continue;
        }
        let addr: u64 = it.next().unwrap().parse().unwrap();
        let size: u64 = it.next().unwrap().parse().unwrap();
        out.push((action, addr, size));
    }
    out
}

/// The rows whose trace began with an empty cache but for the context's: the first row of
/// each worker, or (trace2, whose bench drops cuBLAS's workspaces before each row) a row
/// that started with only the context's reserve. In the first run a worker's later row
/// found the cuBLAS workspace of the earlier row's backward pass in a segment that
/// empty_cache could not give back.
fn fresh_rows(run: &str) -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(folder(run).join("rows.jsonl")).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let model = v["model"].as_str().unwrap().to_string();
        let context = v["reserved_at_context_bytes"].as_u64().unwrap();
        let first = seen.insert(model);
        let fresh = v["reserved_at_start_bytes"].as_u64() == Some(context);
        if first || fresh {
            out.push((
                v["trace"]["file"].as_str().unwrap().to_string(),
                v["peak_reserved_bytes"].as_u64().unwrap(),
                context,
            ));
        }
    }
    out
}

#[test]
fn replaying_the_h200_traces_reserves_the_segments_pytorch_reserved() {
    let mut checked = 0;
    for run in RUNS {
        for (file, measured_peak, before) in fresh_rows(run) {
            let mut model = CachingAllocator::new();
            let mut live = HashMap::new();
            let (mut real_segments, mut real, mut real_peak) = (Vec::new(), 0u64, 0u64);
            for (action, addr, size) in events(run, &file) {
                match action.as_str() {
                    "alloc" => {
                        live.insert(addr, model.malloc(size));
                    }
                    "free_completed" => model.free(live.remove(&addr).unwrap()),
                    "segment_alloc" => {
                        real_segments.push(size);
                        real += size;
                        real_peak = real_peak.max(real);
                    }
                    "segment_free" => real -= size,
                    _ => {}
                }
            }
            // The context's small-pool segment (2 MiB) was there before the trace began:
            // the replay reserves its own. Every other segment must be the same, in order.
            let large = |s: &[u64]| {
                s.iter()
                    .copied()
                    .filter(|&x| x > 2 << 20)
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                large(model.segments()),
                large(&real_segments),
                "{run}/{file}"
            );
            let small = model.segments().len() - large(model.segments()).len();
            let real_small = real_segments.len() - large(&real_segments).len();
            assert!(
                small - real_small <= 1,
                "{run}/{file}: {small} small segments, traced {real_small}"
            );
            let extra = model.peak_reserved() - real_peak;
            assert!(
                extra <= 2 << 20,
                "{run}/{file}: replay {} traced {real_peak}",
                model.peak_reserved()
            );
            // What torch.cuda.max_memory_reserved reported for the row: the trace's peak plus
            // what the worker had reserved before recording began (the context's matmul:
            // cuBLAS's workspace).
            assert!(
                measured_peak >= real_peak && measured_peak - real_peak <= before,
                "{run}/{file}: measured {measured_peak}, traced {real_peak}, before {before}"
            );
            checked += 1;
        }
    }
    assert_eq!(
        checked, 11,
        "3 rows of the first trace run, 8 of the second"
    );
}

//! oomlab's model of PyTorch's caching allocator (src/hf/allocator.rs) against the
//! allocator itself: the event traces recorded on the H200 with
//! torch.cuda.memory._record_memory_history (benches/hf_memory.py, HF_MEMORY_TRACE=1,
//! docs/results/2026-12-04-h200-hf-allocator-trace) replayed, alloc by alloc and free by
//! free, must reserve the segments the real allocator reserved, and reach its reserved peak.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use oomlab::hf::allocator::CachingAllocator;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/results/2026-12-04-h200-hf-allocator-trace/hf-memory")
}

/// (action, address, size) of every event, marks left out.
fn events(file: &str) -> Vec<(String, u64, u64)> {
    let f = std::fs::File::open(folder().join(file)).unwrap();
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

/// The rows whose trace began with an empty cache (the first row of each worker: a
/// later row finds the cuBLAS workspace of the earlier row's backward pass in a segment
/// that empty_cache cannot give back).
fn fresh_rows() -> Vec<(String, u64, u64)> {
    let text = std::fs::read_to_string(folder().join("rows.jsonl")).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let model = v["model"].as_str().unwrap().to_string();
        if !seen.insert(model) {
            continue;
        }
        out.push((
            v["trace"]["file"].as_str().unwrap().to_string(),
            v["peak_reserved_bytes"].as_u64().unwrap(),
            v["reserved_at_context_bytes"].as_u64().unwrap(),
        ));
    }
    out
}

#[test]
fn replaying_the_h200_traces_reserves_the_segments_pytorch_reserved() {
    let rows = fresh_rows();
    assert_eq!(rows.len(), 3, "gpt2-medium, qwen2.5-0.5b and llama-3.2-1b");
    for (file, measured_peak, before) in rows {
        let mut model = CachingAllocator::new();
        let mut live = HashMap::new();
        let (mut real_segments, mut real, mut real_peak) = (Vec::new(), 0u64, 0u64);
        for (action, addr, size) in events(&file) {
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
        assert_eq!(model.segments(), &real_segments[..], "{file}: segments");
        assert_eq!(model.peak_reserved(), real_peak, "{file}: reserved peak");
        // What torch.cuda.max_memory_reserved reported for the row: the trace's peak plus
        // what the worker had reserved before recording began (the context's matmul:
        // cuBLAS's workspace).
        assert!(
            measured_peak >= real_peak && measured_peak - real_peak <= before,
            "{file}: measured {measured_peak}, traced {real_peak}, before {before}"
        );
    }
}

//! Every committed result file the program quotes, in one manifest: an id, its path under
//! the repository, and its text compiled in. Explanations and advice read measurements
//! through [`Evidence`] and name [`Evidence::path`] beside them, so no figure is typed in
//! and no file is cited under two names. A test checks every file is where the manifest
//! says and that nothing else under `src/` compiles a results file in.

macro_rules! manifest {
    ($( $(#[$doc:meta])* $id:ident = $path:literal, )*) => {
        /// A committed result file (see the module's documentation).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Evidence {
            $( $(#[$doc])* $id, )*
        }

        impl Evidence {
            /// Every file of the manifest.
            pub const ALL: &'static [Evidence] = &[$(Evidence::$id),*];

            /// Its path from the repository root.
            pub const fn path(self) -> &'static str {
                match self {
                    $(Evidence::$id => $path,)*
                }
            }

            /// Its text, as committed when this program was built.
            pub const fn text(self) -> &'static str {
                match self {
                    $(Evidence::$id => include_str!(concat!("../", $path)),)*
                }
            }
        }
    };
}

manifest! {
    /// The H200's precision comparison (f32, AMP, pure half).
    H200Precision = "docs/results/2026-11-30-h200-precision/compare.json",
    /// The CPU's precision comparison (tiny config, 2 cores).
    CpuComparePrecision = "docs/results/2026-12-05-cpu-compare-precision/compare.json",
    /// The CPU comparison under a SIMULATED 30 MiB budget.
    CpuCompareBudget = "docs/results/2026-11-30-cpu-compare-budget/compare.json",
    /// Two processes on one H200, with and without preallocation.
    H200PreallocDemo = "docs/results/2026-11-30-h200-prealloc-two-processes/demo.json",
    /// oomlab against PyTorch on the H200, paired runs (data).
    H200Paired = "docs/results/2026-11-30-h200-paired-gpu/paired.json",
    /// The same, as the table the README quotes.
    H200PairedTable = "docs/results/2026-11-30-h200-paired-gpu/paired.md",
    /// One oomlab run of the paired yardstick (f32, efficient attention, growth pool).
    H200PairedF32Run = "docs/results/2026-11-30-h200-paired-gpu/runs/oomlab-f32-efficient-growth-r1/summary.json",
    /// The estimate's predicted against measured peaks.
    EstimateValidation = "docs/results/2026-12-02-estimate-validation.md",
    /// oomlab's defaults (exact pool, LayerNorm operation) against PyTorch on the H200,
    /// paired runs (data).
    H200DefaultsPaired = "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/paired.json",
    /// The same, as the table the README quotes.
    H200DefaultsPairedTable = "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/paired.md",
    /// One f32 run with the defaults of that yardstick (not the estimate's calibration run).
    H200DefaultsF32Run = "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/runs/oomlab-f32-defaults-r2/summary.json",
    /// The H200 crash and zombie experiments: the log.
    CrashLog = "docs/results/2026-12-01-h200-crash/log.txt",
    /// A zombie process holding VRAM, as NVML saw it.
    CrashZombie = "docs/results/2026-12-01-h200-crash/c-zombie.jsonl",
    /// Where an OOM strikes, phase by phase.
    CrashPhases = "docs/results/2026-12-01-h200-crash/phases.md",
    /// A run stopped by SIGTERM: its summary.
    CrashStoppedRun = "docs/results/2026-12-01-h200-crash/b/summary.json",
    /// `--leak-demo eval-graph` on the H200.
    LeakEvalGraph = "docs/results/2026-12-01-h200-crash/leak/leak-demo.json",
    /// The same leak under auto-halve and a 2 GiB budget.
    LeakAutoHalve = "docs/results/2026-12-01-h200-crash/leak/leak-auto-halve.json",
    /// `--leak-demo loss-total` on the H200.
    LeakLossTotal = "docs/results/2026-12-01-h200-crash/leak/leak-loss-total.json",
    /// The same run without a leak.
    LeakNone = "docs/results/2026-12-01-h200-crash/leak/no-leak.json",
    /// Data parallel on one H200: one device, batch 64.
    ParallelH200Single = "docs/results/2026-12-01-h200-parallel-one-gpu/call3/single.json",
    /// Two peers on one H200, data parallel, bucketed all-reduce.
    ParallelH200Dp = "docs/results/2026-12-01-h200-parallel-one-gpu/call4/dp-shared-bucket.json",
    /// Two peers on one H200, shard-optimizer, bucketed.
    ParallelH200Zero = "docs/results/2026-12-01-h200-parallel-one-gpu/call4/zero-shared-bucket.json",
    /// Two peers on one H200, data parallel, one all-reduce per parameter.
    ParallelH200DpPerParam = "docs/results/2026-12-01-h200-parallel-one-gpu/call3/dp-shared.json",
    /// Two peers on one H200, shard-optimizer, per parameter.
    ParallelH200ZeroPerParam = "docs/results/2026-12-01-h200-parallel-one-gpu/call3/zero-shared.json",
    /// Data parallel on 2 CPU cores: one device, repeat 1.
    CpuParallelOne1 = "docs/results/2026-12-02-cpu-parallel/one-r1/summary.json",
    /// Repeat 2.
    CpuParallelOne2 = "docs/results/2026-12-02-cpu-parallel/one-r2/summary.json",
    /// Repeat 3.
    CpuParallelOne3 = "docs/results/2026-12-02-cpu-parallel/one-r3/summary.json",
    /// Two CPU peers, data parallel, repeat 1.
    CpuParallelDp1 = "docs/results/2026-12-02-cpu-parallel/dp-r1/summary.json",
    /// Repeat 2.
    CpuParallelDp2 = "docs/results/2026-12-02-cpu-parallel/dp-r2/summary.json",
    /// Repeat 3.
    CpuParallelDp3 = "docs/results/2026-12-02-cpu-parallel/dp-r3/summary.json",
    /// Two CPU peers, shard-optimizer, repeat 1.
    CpuParallelZero1 = "docs/results/2026-12-02-cpu-parallel/zero-r1/summary.json",
    /// Repeat 2.
    CpuParallelZero2 = "docs/results/2026-12-02-cpu-parallel/zero-r2/summary.json",
    /// Repeat 3.
    CpuParallelZero3 = "docs/results/2026-12-02-cpu-parallel/zero-r3/summary.json",
    /// Two CPU peers, data parallel per parameter, repeat 1.
    CpuParallelDpPerParam1 = "docs/results/2026-12-02-cpu-parallel/dp-per-param-r1/summary.json",
    /// Repeat 2.
    CpuParallelDpPerParam2 = "docs/results/2026-12-02-cpu-parallel/dp-per-param-r2/summary.json",
    /// Repeat 3.
    CpuParallelDpPerParam3 = "docs/results/2026-12-02-cpu-parallel/dp-per-param-r3/summary.json",
    /// Two CPU peers, shard-optimizer per parameter, repeat 1.
    CpuParallelZeroPerParam1 = "docs/results/2026-12-02-cpu-parallel/zero-per-param-r1/summary.json",
    /// Repeat 2.
    CpuParallelZeroPerParam2 = "docs/results/2026-12-02-cpu-parallel/zero-per-param-r2/summary.json",
    /// Repeat 3.
    CpuParallelZeroPerParam3 = "docs/results/2026-12-02-cpu-parallel/zero-per-param-r3/summary.json",
    /// auto-halve's retries on the H200 for a batch of 524288 samples.
    AutoHalveRetries = "docs/results/2026-11-30-h200-auto-halve-first-try/card/retries.jsonl",
    /// A wide, shallow GPT on 2 CPU cores with AdamW.
    OptimizerStateAdamW = "docs/results/2026-12-01-cpu-optimizer-state/adamw/summary.json",
    /// The same with SGD.
    OptimizerStateSgd = "docs/results/2026-12-01-cpu-optimizer-state/sgd/summary.json",
    /// The defaults of 298fc73 (attention's groups of heads written into one buffer) against
    /// PyTorch on an H100, `gpu` config, f32 and AMP bf16.
    H100StepPaired = "docs/results/2026-12-06-h100-in-place-join/gpu-298fc73/paired/paired.json",
    /// a3b32e1 on an H100, `h200` config, AMP bf16 against PyTorch, with the backward
    /// pass's probabilities recomputed in bf16 (p16, bf16's default since f044144).
    H100StepPairedH200 = "docs/results/2026-12-06-h100-probs-bf16/h200-a3b32e1/paired/paired.json",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_manifest_is_where_it_says_and_read_as_committed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for e in Evidence::ALL {
            let on_disk = std::fs::read_to_string(root.join(e.path()))
                .unwrap_or_else(|err| panic!("{e:?}: {}: {err}", e.path()));
            assert_eq!(on_disk, e.text(), "{e:?}");
        }
    }

    #[test]
    fn no_other_source_file_compiles_a_results_file_in() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![src];
        let mut found = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.file_name() != Some("evidence.rs".as_ref()) {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    // Test modules may read a results file to check a rendering.
                    let code = text.split("#[cfg(test)]").next().unwrap_or("");
                    if code.contains(concat!("include_str!(\"../../docs/", "results")) {
                        found.push(path.display().to_string());
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "results files compiled in outside the manifest: {found:?}"
        );
    }

    #[test]
    fn every_results_path_a_source_file_names_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut stack = vec![root.join("src")];
        let mut missing = Vec::new();
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for (i, _) in text.match_indices("docs/results/") {
                    let cited: String = text[i..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || "-_./".contains(*c))
                        .collect();
                    let cited = cited.trim_end_matches(['.', '/']);
                    if cited.len() > "docs/results/".len() && !root.join(cited).exists() {
                        missing.push(format!("{}: {cited}", path.display()));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "cited but not committed: {missing:?}");
    }
}

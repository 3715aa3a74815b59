//! Every committed result file the program quotes, in one manifest: an id, its path under
//! the repository, the card (or machine) it was measured on and the date of the
//! measurement, and its text compiled in. Explanations and advice read measurements
//! through [`Evidence`] and name [`Evidence::card`], [`Evidence::date`] and
//! [`Evidence::path`] beside them, so no figure is typed in, none goes without its card and
//! date, and no file is cited under two names. A test checks every file is where the
//! manifest says and that nothing else under `src/` compiles a results file in.

macro_rules! manifest {
    ($( $(#[$doc:meta])* $id:ident = ($path:literal, $card:literal, $date:literal $(,)?), )*) => {
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

            /// The card (or machine) it was measured on, as its folder's README names it:
            /// "NVIDIA H200", "NVIDIA H100 80GB HBM3", "2 CPU cores".
            pub const fn card(self) -> &'static str {
                match self {
                    $(Evidence::$id => $card,)*
                }
            }

            /// The date of the measurement (UTC, `YYYY-MM-DD`, or `YYYY-MM-DD to YYYY-MM-DD`
            /// for a file gathered from several days), as its folder's README says.
            pub const fn date(self) -> &'static str {
                match self {
                    $(Evidence::$id => $date,)*
                }
            }

            /// Where a figure comes from: its card, the date of the measurement and the
            /// file ("NVIDIA H200, 2026-11-30; docs/results/...").
            pub fn cite(self) -> String {
                let path = self.path();
                // A run deep in a yardstick's folder is named as the folder, then the run,
                // so that no word is longer than a line.
                let shown = match path.split_once("/runs/") {
                    Some((folder, rest)) => {
                        format!("{folder}, run {}", rest.split('/').next().unwrap_or(rest))
                    }
                    None => path.to_string(),
                };
                format!("{}, {}; {shown}", self.card(), self.date())
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
    H200Precision = (
        "docs/results/2026-11-30-h200-precision/compare.json",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// The CPU's precision comparison (tiny config, 2 cores).
    CpuComparePrecision = (
        "docs/results/2026-12-05-cpu-compare-precision/compare.json",
        "2 CPU cores",
        "2026-12-05",
    ),
    /// The CPU comparison under a SIMULATED 30 MiB budget.
    CpuCompareBudget = (
        "docs/results/2026-11-30-cpu-compare-budget/compare.json",
        "2 CPU cores",
        "2026-11-30",
    ),
    /// Two processes on one H200, with and without preallocation.
    H200PreallocDemo = (
        "docs/results/2026-11-30-h200-prealloc-two-processes/demo.json",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// oomlab against PyTorch on the H200, paired runs (data).
    H200Paired = (
        "docs/results/2026-11-30-h200-paired-gpu/paired.json",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// The same, as the table the README quotes.
    H200PairedTable = (
        "docs/results/2026-11-30-h200-paired-gpu/paired.md",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// One oomlab run of the paired yardstick (f32, efficient attention, growth pool).
    H200PairedF32Run = (
        "docs/results/2026-11-30-h200-paired-gpu/runs/oomlab-f32-efficient-growth-r1/summary.json",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// The estimate's predicted against measured peaks.
    EstimateValidation = (
        "docs/results/2026-12-02-estimate-validation.md",
        "NVIDIA H200 and 2 CPU cores",
        "2026-12-02 to 2026-12-05",
    ),
    /// oomlab's defaults (exact pool, LayerNorm operation) against PyTorch on the H200,
    /// paired runs (data).
    H200DefaultsPaired = (
        "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/paired.json",
        "NVIDIA H200",
        "2026-12-02",
    ),
    /// The same, as the table the README quotes.
    H200DefaultsPairedTable = (
        "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/paired.md",
        "NVIDIA H200",
        "2026-12-02",
    ),
    /// One f32 run with the defaults of that yardstick (not the estimate's calibration run).
    H200DefaultsF32Run = (
        "docs/results/2026-12-02-h200-memory-defaults/paired-gpu/runs/oomlab-f32-defaults-r2/summary.json",
        "NVIDIA H200",
        "2026-12-02",
    ),
    /// The H200 crash and zombie experiments: the log.
    CrashLog = (
        "docs/results/2026-12-01-h200-crash/log.txt",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// A zombie process holding VRAM, as NVML saw it.
    CrashZombie = (
        "docs/results/2026-12-01-h200-crash/c-zombie.jsonl",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Where an OOM strikes, phase by phase.
    CrashPhases = (
        "docs/results/2026-12-01-h200-crash/phases.md",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// A run stopped by SIGTERM: its summary.
    CrashStoppedRun = (
        "docs/results/2026-12-01-h200-crash/b/summary.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// `--leak-demo eval-graph` on the H200.
    LeakEvalGraph = (
        "docs/results/2026-12-01-h200-crash/leak/leak-demo.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// The same leak under auto-halve and a 2 GiB budget.
    LeakAutoHalve = (
        "docs/results/2026-12-01-h200-crash/leak/leak-auto-halve.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// `--leak-demo loss-total` on the H200.
    LeakLossTotal = (
        "docs/results/2026-12-01-h200-crash/leak/leak-loss-total.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// The same run without a leak.
    LeakNone = (
        "docs/results/2026-12-01-h200-crash/leak/no-leak.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Data parallel on one H200: one device, batch 64.
    ParallelH200Single = (
        "docs/results/2026-12-01-h200-parallel-one-gpu/call3/single.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Two peers on one H200, data parallel, bucketed all-reduce.
    ParallelH200Dp = (
        "docs/results/2026-12-01-h200-parallel-one-gpu/call4/dp-shared-bucket.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Two peers on one H200, shard-optimizer, bucketed.
    ParallelH200Zero = (
        "docs/results/2026-12-01-h200-parallel-one-gpu/call4/zero-shared-bucket.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Two peers on one H200, data parallel, one all-reduce per parameter.
    ParallelH200DpPerParam = (
        "docs/results/2026-12-01-h200-parallel-one-gpu/call3/dp-shared.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Two peers on one H200, shard-optimizer, per parameter.
    ParallelH200ZeroPerParam = (
        "docs/results/2026-12-01-h200-parallel-one-gpu/call3/zero-shared.json",
        "NVIDIA H200",
        "2026-12-01",
    ),
    /// Data parallel on 2 CPU cores: one device, repeat 1.
    CpuParallelOne1 = (
        "docs/results/2026-12-02-cpu-parallel/one-r1/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 2.
    CpuParallelOne2 = (
        "docs/results/2026-12-02-cpu-parallel/one-r2/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 3.
    CpuParallelOne3 = (
        "docs/results/2026-12-02-cpu-parallel/one-r3/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Two CPU peers, data parallel, repeat 1.
    CpuParallelDp1 = (
        "docs/results/2026-12-02-cpu-parallel/dp-r1/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 2.
    CpuParallelDp2 = (
        "docs/results/2026-12-02-cpu-parallel/dp-r2/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 3.
    CpuParallelDp3 = (
        "docs/results/2026-12-02-cpu-parallel/dp-r3/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Two CPU peers, shard-optimizer, repeat 1.
    CpuParallelZero1 = (
        "docs/results/2026-12-02-cpu-parallel/zero-r1/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 2.
    CpuParallelZero2 = (
        "docs/results/2026-12-02-cpu-parallel/zero-r2/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 3.
    CpuParallelZero3 = (
        "docs/results/2026-12-02-cpu-parallel/zero-r3/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Two CPU peers, data parallel per parameter, repeat 1.
    CpuParallelDpPerParam1 = (
        "docs/results/2026-12-02-cpu-parallel/dp-per-param-r1/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 2.
    CpuParallelDpPerParam2 = (
        "docs/results/2026-12-02-cpu-parallel/dp-per-param-r2/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 3.
    CpuParallelDpPerParam3 = (
        "docs/results/2026-12-02-cpu-parallel/dp-per-param-r3/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Two CPU peers, shard-optimizer per parameter, repeat 1.
    CpuParallelZeroPerParam1 = (
        "docs/results/2026-12-02-cpu-parallel/zero-per-param-r1/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 2.
    CpuParallelZeroPerParam2 = (
        "docs/results/2026-12-02-cpu-parallel/zero-per-param-r2/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// Repeat 3.
    CpuParallelZeroPerParam3 = (
        "docs/results/2026-12-02-cpu-parallel/zero-per-param-r3/summary.json",
        "2 CPU cores",
        "2026-12-02",
    ),
    /// auto-halve's retries on the H200 for a batch of 524288 samples.
    AutoHalveRetries = (
        "docs/results/2026-11-30-h200-auto-halve-first-try/card/retries.jsonl",
        "NVIDIA H200",
        "2026-11-30",
    ),
    /// A wide, shallow GPT on 2 CPU cores with AdamW.
    OptimizerStateAdamW = (
        "docs/results/2026-12-01-cpu-optimizer-state/adamw/summary.json",
        "2 CPU cores",
        "2026-12-01",
    ),
    /// The same with SGD.
    OptimizerStateSgd = (
        "docs/results/2026-12-01-cpu-optimizer-state/sgd/summary.json",
        "2 CPU cores",
        "2026-12-01",
    ),
    /// The defaults of 2026-12-06 (attention's groups of heads written into one buffer)
    /// against PyTorch on an H100, `gpu` config, f32 and AMP bf16: superseded by
    /// [`Evidence::H100Paired`].
    H100StepPaired = (
        "docs/results/2026-12-06-h100-in-place-join/gpu-298fc73/paired/paired.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-06",
    ),
    /// The `h200` config on an H100, AMP bf16 against PyTorch, with and without the
    /// backward pass's probabilities recomputed in bf16: superseded by
    /// [`Evidence::H100PairedH200`].
    H100StepPairedH200 = (
        "docs/results/2026-12-06-h100-probs-bf16/h200-a3b32e1/paired/paired.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-06",
    ),
    /// Today's defaults against PyTorch on an H100, `gpu` config, f32 and AMP bf16 (the
    /// later of the two yardsticks of that day).
    H100Paired = (
        "docs/results/2026-12-07-h100-done-when/paired-gpu-2/paired.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-07",
    ),
    /// offload-optimizer against the baseline on an H100, `gpu` config, f32.
    H100OffloadF32 = (
        "docs/results/2026-12-07-h100-offload/compare-f32.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-07",
    ),
    /// The same in AMP bf16.
    H100OffloadBf16 = (
        "docs/results/2026-12-07-h100-offload/compare-bf16.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-07",
    ),
    /// PyTorch's GPT on the same config and card, AdamW on the GPU and on the host.
    H100OffloadPytorch = (
        "docs/results/2026-12-07-h100-offload/pytorch.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-07",
    ),
    /// Today's defaults against PyTorch on an H100, `h200` config, AMP bf16.
    H100PairedH200 = (
        "docs/results/2026-12-07-h100-done-when/paired-h200/paired.json",
        "NVIDIA H100 80GB HBM3",
        "2026-12-07",
    ),
}

/// The committed comparisons of the strategies, each with what ran: the measured part of
/// every technique's explain topic that has no comparison of its own.
pub const STRATEGY_COMPARISONS: &[(Evidence, &str)] = &[
    (Evidence::H200Precision, "tiny GPT, batch 2048, 40 steps"),
    (Evidence::CpuComparePrecision, "tiny config"),
    (
        Evidence::CpuCompareBudget,
        "tiny config under a SIMULATED 30 MiB budget",
    ),
];

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
    fn every_entry_has_the_date_and_the_kind_of_card_its_folder_is_named_with() {
        for e in Evidence::ALL {
            let folder = e.path().trim_start_matches("docs/results/");
            let day = e.date().get(..10).unwrap_or("");
            assert!(
                day.len() == 10 && day.bytes().filter(|b| *b == b'-').count() == 2,
                "{e:?}: {}",
                e.date()
            );
            assert!(
                folder.starts_with(day),
                "{e:?}: {} vs {}",
                e.date(),
                e.path()
            );
            let kind = folder.get(11..).unwrap_or("");
            let card = e.card().to_lowercase();
            for (prefix, said) in [("h200-", "h200"), ("h100-", "h100"), ("cpu-", "cpu")] {
                if kind.starts_with(prefix) {
                    assert!(card.contains(said), "{e:?}: {} for {}", e.card(), e.path());
                }
            }
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

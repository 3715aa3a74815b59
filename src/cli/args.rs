//! Raw command-line values (clap derive). Turned into a validated plan by `super::resolve`.
//!
//! The doc comments of the argument types are their `--help` text, written for a
//! terminal: `[loss_scale]` names a config section and `<time>` a placeholder, not a
//! rustdoc link or an HTML tag.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::ConfigError;
use crate::device::DeviceRequest;
use crate::units::{parse_size, Bytes};
use crate::words::{AttentionKind, ModelKind, PoolMode, Precision, SearchMode, Strategy, Task};

/// Train a real model, hit real out-of-memory errors, survive them, and measure every byte.
#[derive(Debug, Parser)]
#[command(name = "oomlab", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Print every table at its full width, every column and note in its cell, instead of
    /// fitting the terminal (100 columns when output is not a terminal; COLUMNS sets it).
    #[arg(long, global = true)]
    pub wide: bool,
}

/// Subcommands.
// Parsed once per process; boxing would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Train the model with one memory strategy and print a run summary.
    #[command(long_about = TRAIN_ABOUT)]
    Train(TrainArgs),
    /// Run every chosen strategy in its own process and compare memory, speed and loss.
    #[command(long_about = COMPARE_ABOUT)]
    Compare(CompareArgs),
    /// What a strategy does, when to use it, what it costs, with measured numbers.
    Explain {
        /// A strategy (baseline, grad-accum, auto-halve, checkpointing, empty-cache,
        /// amp, half, sgd, shard-optimizer), a setting (`attention`, `pool`, `prealloc`,
        /// `memory`, `estimate`, `anatomy`, `resume`), or reading an OOM (`read-oom`,
        /// `fragmentation`, `order`, `stuck-vram`, `leak`, `pytorch`, `glossary`).
        /// Without it: the list, a line each.
        topic: Option<String>,
    },
    /// Predict peak memory, the largest batch and the card you need, before training.
    #[command(long_about = ESTIMATE_ABOUT)]
    Estimate(EstimateArgs),
    /// A guided run: the baseline runs out of memory under a small budget, then AMP,
    /// grad-accum, checkpointing and auto-halve, each predicted and measured.
    #[command(long_about = LESSON_ABOUT)]
    Lesson(LessonArgs),
    /// Read an out-of-memory message (PyTorch, CUDA, burn) and say which case it is and
    /// what to do.
    #[command(long_about = DIAGNOSE_ABOUT)]
    Diagnose(DiagnoseArgs),
    /// Write the one-page HTML report of a compare (or train) folder: the table, memory
    /// over time, each run's phases and reconciliation, the explain texts.
    Report {
        /// An `oomlab compare` folder (or one run's folder from `oomlab train`).
        dir: PathBuf,
        /// Where to write it (default: report.html in that folder).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Compile and autotune ahead of time every kernel a lesson or a compare needs (GPU),
    /// so a class does not wait for it; says how long it took.
    #[command(name = "warm-up", long_about = WARM_UP_ABOUT)]
    WarmUp(WarmUpArgs),
    /// Print the generated training language (the default data) to stdout.
    Dataset(DatasetArgs),
    /// GPUs, the processes holding VRAM (stale ones flagged), and a careful way to free it.
    #[command(long_about = GPU_ABOUT)]
    Gpu(GpuArgs),
    /// Run your own job: check the card before it starts, watch every process of it, and
    /// explain its out-of-memory error with what was on the card at that moment.
    #[command(long_about = RUN_ABOUT)]
    Run(RunArgs),
    /// List the built-in configs, or print one: `oomlab configs gpu`.
    Configs {
        /// A built-in config to print.
        name: Option<String>,
    },
}

const TRAIN_ABOUT: &str = "\
Train the default model (a small GPT on a generated character-level language) with one
memory strategy, then print a summary. Progress goes to stderr, results to stdout.

Strategies:
  baseline    The whole batch in one forward and one backward pass. Activation memory
              grows with the batch; this is the reference every other strategy is
              measured against.
  grad-accum  --steps K: K micro-batches of batch/K samples per optimizer step. Each
              micro-batch's loss is divided by K and the gradients are summed, so the
              update equals one full batch while activations are those of one
              micro-batch. Costs time (K smaller passes), saves activation memory.
  auto-halve  Start at the configured batch (or --steps K micro-batches). When a step
              runs out of memory, it is discarded (model and optimizer untouched),
              memory is released, and the same step is retried with half the
              micro-batch and twice the accumulation, so the optimizer still sees the
              configured batch (--keep-effective-batch false halves the batch itself).
              Sizes the failure proves cannot fit are skipped. --search bisect then
              probes back up to within 10% of the largest micro-batch that fits.
              Below --min-micro-batch it stops and says what would help. Every attempt
              is logged in retries.jsonl and summarised in the run summary.
  checkpointing
              The whole batch, with burn's balanced activation checkpointing: outputs
              of cheap (memory-bound) operations are not kept for the backward pass
              but recomputed from their inputs. Saves activation memory, costs
              recomputation time. --checkpointing turns the same on under any other
              strategy (e.g. grad-accum or auto-halve).
  half        --precision bf16|f16: weights, activations, gradients and AdamW's
              moments all in half: 8 bytes per parameter instead of 16. The contrast
              to mixed precision: small updates vanish when added to half weights, and
              f16's narrow range overflows (with f16 expect the loss to diverge).

Precision (--precision, any strategy):
  f32         Everything in f32 (default).
  bf16        Mixed precision (AMP): f32 master weights and optimizer state; each step
              casts the weights to bf16, runs forward and backward in bf16, and the
              gradients come back in f32 for the update. LayerNorm, softmax and
              cross-entropy in f32, as torch.autocast does.
  f16         The same in IEEE half, plus dynamic loss scaling ([loss_scale]): the loss
              is multiplied by the scale (2^16 at first) before backward; if any
              gradient comes back inf/NaN the update is skipped and the scale halved;
              after 2000 clean steps in a row it doubles. Skipped steps and the scale
              are in the summary and steps.jsonl. (--set loss_scale.init_scale=1e9
              shows the back-off.)
The summary shows the dtypes read back from the tensors (burn 0.21's backend type
parameter does not make tensors half; oomlab casts) and bytes per parameter.

Attention (--attention, GPT):
  efficient   (default) One fused operation: the forward pass is the backend's
              attention kernel with causal masking (flash attention on CUDA when
              burn's autotuner picks it) and keeps only Q, K and V; the backward pass
              recomputes each layer's scores, a few heads at a time. No
              [batch, heads, seq, seq] tensor survives from one layer to the next.
  math        softmax(QK^T/sqrt(d))V written out as separate operations: autodiff
              keeps the scores and probabilities of every layer for the backward
              pass. The textbook form, and the memory it costs.

Memory mode (--memory-mode, CUDA; on the CPU tensors come from the system allocator,
exactly sized, whatever the mode):
  exact       oomlab's default: every tensor gets a buffer of its exact size (cubecl's
              persistent pool); a freed buffer is reused by the next tensor of the same
              size. Less slack, more distinct buffers (`oomlab explain pool` has the
              measured peaks of both modes).
  growth      burn's default: pool pages of a few size classes (up to a quarter of
              the card) are allocated when tensors need them; a tensor takes a slice
              of a page, and pages are kept until a cleanup. Like TensorFlow's
              memory growth.
  prealloc[=FRACTION]
              As TensorFlow and JAX do by default: before training, reserve FRACTION
              (0.9) of the free VRAM as empty pages of burn's pool, so NVML shows the
              memory as this process's from the start and another process cannot take
              it. Failed steps then release tensors to the pool, not to the driver.
              burn's pool is split in size classes, so a step may still add pages of a
              class the preallocation did not cover; the summary says how much.

--empty-cache-every N returns burn's free pool pages to the driver every N steps (what
PyTorch's torch.cuda.empty_cache does); the summary says what it freed and what it took.

Device: with a CUDA GPU (driver, device and NVRTC all usable) training runs there,
otherwise on the CPU with burn's Flex backend. --device overrides.

Several devices: --devices cuda:0,cuda:1 (or --gpus 2) trains data parallel, one
trainer per device on batch/N samples each, gradients all-reduced by burn-collective;
an out-of-memory failure on any device discards the step on all of them. --strategy
shard-optimizer (ZeRO stage 1) also splits AdamW's state across the devices. Without
GPUs, --devices cpu,cpu runs the same code on two CPU peers.

Config: --config names a built-in config (tiny, gpu, h200; see `oomlab configs`) or a
TOML file. Every value can be overridden: --set section.key=value for any key (e.g.
--set model.d_ff=512), and the named flags below. They apply in that order (the file,
then every --set, then the named flags), and a message about a value names the flag
that set it.

Every run writes a folder (--out, default runs/<time>-<strategy>) with config.toml (the
resolved config), steps.jsonl (one line per finished step) and summary.json/.txt.

Memory: every run samples memory in the background (NVML on a GPU, the host otherwise)
and reads burn's allocator at the end of each phase; the summary reconciles the figures
(tensors in use, pool slack, CUDA context, other processes). burn 0.21 does not report a
failed GPU allocation, so oomlab detects it itself: a step hit by OOM is discarded (model
and optimizer untouched), memory is released, and the run stops with exit code 3.
--vram-budget gives a big card the free memory of a small one (burn's page sizes still
follow the physical card); on the CPU --memory-budget gives the same behaviour with
SIMULATED OOMs.

Exit codes: 0 done, 1 failed (while running, or the run folder could not be written),
2 bad config/flags/data/device (refused before the run starts), 3 stopped by a detected
out-of-memory failure, 130 stopped by Ctrl-C, 143 by SIGTERM. A run that started writes
its summary whatever ends it.

Examples:
  oomlab train --strategy grad-accum --steps 4
  oomlab train --strategy auto-halve --search bisect --memory-budget 96MiB
  oomlab train --precision bf16
  oomlab train --strategy half --precision f16
  oomlab train --config gpu --memory-mode prealloc=0.5
  oomlab train --config gpu --attention math --memory-mode growth
  oomlab train --config gpu --batch 128 --device cuda:0
  oomlab train --data my.txt --seq-len 128 --json | jq .final_loss";

const COMPARE_ABOUT: &str = "\
Run each chosen strategy as its own `oomlab train` process (so an allocator or CUDA
context warmed by one cannot flatter the next), then print one table: peak memory (NVML
VRAM on a GPU, HOST RSS on the CPU), peak allocator in use and reserved, context and
overhead, time to the first step, steady step time, samples/s, OOM retries, skipped
steps, final loss, and memory and time relative to baseline.

--out DIR (default runs/<time>-compare) receives compare.txt, compare.md, compare.csv,
compare.json (schema in docs/compare-json.md), memory.svg (memory over time, every
strategy on one chart, a dot at each step boundary) and every run's own folder. A
strategy that fails or runs out of memory becomes a row that says why.

Exit codes: 0 every row ran (a row that ran out of memory is a result, not a failure),
1 a row failed or could not start (the table and files are still written), 2 bad
arguments, 130 interrupted by Ctrl-C (the rows not run say so).

Examples:
  oomlab compare
  oomlab compare --strategies baseline,grad-accum --batch 64 --max-steps 30
  oomlab compare --config gpu --batch 96 --vram-budget 7.5GiB --out cmp";

const GPU_ABOUT: &str = "\
What nvidia-smi and nvtop show, plus what they do not: for every process holding VRAM,
whether it is still alive. A PID that no longer exists here, or a zombie, is flagged
STALE with what to do about it.

--kill PID frees VRAM by ending its holder: it shows what it will end and asks (or
--yes), sends SIGTERM, waits --grace seconds, and sends SIGKILL only with --force. It
refuses PID 1, itself, its parent, and any PID that holds no VRAM. There is no
'kill everything' mode.";

const RUN_ABOUT: &str = "\
Run your own training job (PyTorch, TensorFlow, JAX, anything) under oomlab's eye:

  oomlab run -- python train.py --batch 64
  oomlab run --need 20GiB --wait 600 -- torchrun --nproc-per-node 2 train.py

Before the launch, with --need: the first card the job sees (CUDA_VISIBLE_DEVICES's first
index, else card 0) must have that much free. If it does not, oomlab names who holds it
and exits 4; --wait waits for it, --reap-stale ends the holders `oomlab gpu` flags as
stale (stopped) that belong to you, as `oomlab gpu --kill` would.

The job runs in a process group of its own: its input, output and errors pass through
untouched (output and errors are kept in the run folder too), Ctrl-C and SIGTERM reach
the whole group, and oomlab exits with the job's code (128 + N after signal N).

While it runs, oomlab samples the job's whole process tree (forked children, DataLoader
workers, torchrun ranks) every --interval: each process's host memory and, through NVML,
the VRAM charged to it, and each card's use. After it, a table of every process with its
peaks, and if the job printed an out-of-memory error, the diagnosis `oomlab diagnose`
gives, with the other processes that held the card at the last sample and how the job's
own processes grew. The run folder keeps stdout.txt, stderr.txt, timeline.csv (every
sample), memory.svg and summary.json.

Without a GPU it still runs the job, records the host memory of its tree and reads an
out-of-memory message it prints.";

/// `oomlab run`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Free memory the job needs on the first card it sees; without it nothing is checked.
    #[arg(long, value_name = "SIZE", value_parser = size_arg)]
    pub need: Option<Bytes>,
    /// With --need: wait up to SECS for the memory to be free, saying who holds it.
    #[arg(long, value_name = "SECS", requires = "need")]
    pub wait: Option<f64>,
    /// With --need: end the stale (stopped) holders of the card that are yours, then check
    /// again.
    #[arg(long, requires = "need")]
    pub reap_stale: bool,
    /// Milliseconds between samples of the job's processes.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub interval: u64,
    /// The run folder (default runs/<time>-run).
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No report on stderr after the job (summary.json is still written).
    #[arg(long, short)]
    pub quiet: bool,
    /// The job: a program and its arguments, after `--`.
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    pub command: Vec<String>,
}

/// `oomlab gpu`
#[derive(Debug, Args)]
pub struct GpuArgs {
    /// Refresh every SECS seconds until Ctrl-C.
    #[arg(long, value_name = "SECS")]
    pub watch: Option<f64>,
    /// Print the snapshot as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// End this VRAM holder (SIGTERM).
    #[arg(long, value_name = "PID")]
    pub kill: Option<u32>,
    /// With --kill: send SIGKILL if it is still alive after the grace period.
    #[arg(long, requires = "kill")]
    pub force: bool,
    /// With --kill: seconds to wait after SIGTERM.
    #[arg(long, default_value_t = 5.0, requires = "kill", value_name = "SECS")]
    pub grace: f64,
    /// With --kill: do not ask for confirmation.
    #[arg(long, short, requires = "kill")]
    pub yes: bool,
    /// Before a job: exit 0 if the GPU (--index) has SIZE free, 1 if not (or if NVML cannot
    /// tell), listing who holds the rest (`oomlab gpu --free-check 20GiB && python train.py`).
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true, conflicts_with_all = ["kill", "watch"])]
    pub free_check: Option<Bytes>,
    /// With --free-check: which GPU.
    #[arg(long, default_value_t = 0, requires = "free_check", value_name = "N")]
    pub index: u32,
}

/// `--memory-mode` value: `growth`, `exact`, `prealloc` or `prealloc=FRACTION`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryModeArg {
    /// The mode.
    pub mode: PoolMode,
    /// `prealloc=FRACTION`: the share of the free VRAM to reserve.
    pub fraction: Option<f64>,
}

fn memory_mode_arg(s: &str) -> Result<MemoryModeArg, String> {
    let (word, fraction) = match s.split_once('=') {
        None => (s, None),
        Some((word, f)) => (word, Some(f)),
    };
    let words = || {
        format!(
            "use {}, or prealloc=FRACTION (e.g. prealloc=0.9)",
            PoolMode::words()
        )
    };
    let mode = PoolMode::from_name(word).ok_or_else(words)?;
    let fraction = match (mode, fraction) {
        (_, None) => None,
        (PoolMode::Prealloc, Some(f)) => match f.parse::<f64>() {
            Ok(v) if v > 0.0 && v < 1.0 => Some(v),
            _ => {
                return Err(format!(
                    "prealloc={f}: FRACTION must be a number between 0 and 1, e.g. prealloc=0.9"
                ))
            }
        },
        (_, Some(_)) => return Err(format!("{word} takes no =FRACTION; {}", words())),
    };
    Ok(MemoryModeArg { mode, fraction })
}

/// `oomlab train`
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Built-in config name (tiny, gpu, h200) or path to a TOML file.
    #[arg(long, short, default_value = "tiny", value_name = "NAME|FILE")]
    pub config: String,
    /// Memory strategy (overrides train.strategy).
    #[arg(long, short, value_enum)]
    pub strategy: Option<Strategy>,
    /// grad-accum: micro-batches per optimizer step; must divide the batch
    /// (train.grad_accum_steps). auto-halve: micro-batches to start with
    /// (auto_halve.start_steps).
    #[arg(long, value_name = "K")]
    pub steps: Option<u64>,
    /// auto-halve: keep the optimizer's batch by doubling the accumulation whenever the
    /// micro-batch halves (true, the default); false shrinks the batch instead, as
    /// Accelerate's find_executable_batch_size does (auto_halve.keep_effective_batch).
    #[arg(long, value_name = "BOOL", action = clap::ArgAction::Set)]
    pub keep_effective_batch: Option<bool>,
    /// auto-halve: halve (only ever down) or bisect (after the first fit, probe back up
    /// to within 10% of the largest micro-batch that fits) (auto_halve.search).
    #[arg(long, value_enum)]
    pub search: Option<SearchMode>,
    /// auto-halve: the smallest micro-batch to try before giving up (default 1;
    /// auto_halve.min_micro_batch).
    #[arg(long, value_name = "N")]
    pub min_micro_batch: Option<u64>,
    /// Return burn's free pool pages to the driver every N steps (0: never, the default;
    /// train.empty_cache_every). The summary reports what each cleanup freed and took.
    #[arg(long, value_name = "N")]
    pub empty_cache_every: Option<u64>,
    /// f32 (default); bf16 or f16: mixed precision (f32 master weights and optimizer
    /// state, forward/backward in half; f16 with dynamic loss scaling, see [loss_scale]);
    /// with --strategy half: everything in half (train.precision).
    #[arg(long, value_enum)]
    pub precision: Option<Precision>,
    /// CUDA: exact (default: every tensor its own buffer of its exact size), growth
    /// (burn's pool grows on demand in pages of a few size classes) or prealloc[=FRACTION]
    /// (reserve FRACTION, default 0.9, of the free VRAM before training, as TensorFlow and
    /// JAX do) (memory.mode, memory.prealloc_fraction).
    #[arg(long, value_name = "MODE", value_parser = memory_mode_arg)]
    pub memory_mode: Option<MemoryModeArg>,
    /// burn's balanced activation checkpointing under any strategy, e.g. with grad-accum
    /// or auto-halve: outputs of cheap operations are recomputed in the backward pass
    /// instead of kept (train.checkpointing).
    #[arg(long)]
    pub checkpointing: bool,
    /// AdamW's moments in host memory under any strategy: the update runs on the host
    /// and the device keeps weights and gradients only (train.offload_optimizer).
    #[arg(long)]
    pub offload_optimizer: bool,
    /// GPT attention: efficient (fused forward, the backward pass recomputes each
    /// layer's scores; the default) or math (written out: autodiff keeps every layer's
    /// [batch, heads, seq, seq] scores) (model.attention).
    #[arg(long, value_enum)]
    pub attention: Option<AttentionKind>,
    /// Samples per optimizer step (train.batch).
    #[arg(long, short, value_name = "N")]
    pub batch: Option<u64>,
    /// Optimizer steps to run (train.max_steps).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Learning rate (optim.lr).
    #[arg(long, value_name = "X")]
    pub lr: Option<f64>,
    /// Context length in characters (model.seq_len); in tokens for a Hugging Face model
    /// (`oomlab estimate --model NAME --seq 2048`, default 1024).
    #[arg(long, visible_alias = "seq", value_name = "N")]
    pub seq_len: Option<u64>,
    /// Model width (model.d_model).
    #[arg(long, value_name = "N")]
    pub d_model: Option<u64>,
    /// Transformer blocks / MLP layers (model.n_layers).
    #[arg(long, value_name = "N")]
    pub n_layers: Option<u64>,
    /// Network: gpt or mlp (model.kind). `oomlab estimate` also takes a Hugging Face
    /// shape: gpt2, gpt2-medium, qwen2.5-0.5b, llama-3.2-1b, mistral-7b, llama-3-8b, qwen2.5-7b.
    #[arg(long, value_name = "gpt|mlp|NAME", value_parser = model_arg)]
    pub model: Option<ModelArg>,
    /// Seed for weights and batch order (train.seed).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Train on this UTF-8 text file instead of the generated language (data.file).
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// Any config key: --set model.d_ff=512 (repeatable; the value is TOML, so strings
    /// may need quotes: --set 'optim.kind="sgd"').
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// auto, cpu, cuda or cuda:N.
    #[arg(long, short, default_value = "auto", value_name = "DEVICE")]
    pub device: DeviceRequest,
    /// Data parallel over these devices, one trainer each (e.g. cuda:0,cuda:1; cpu,cpu
    /// runs the same code on two CPU peers): the batch is split evenly, gradients are
    /// all-reduced by burn-collective. With --strategy shard-optimizer each device keeps
    /// the optimizer state of its share of the parameters only.
    #[arg(long, value_name = "LIST", value_delimiter = ',', conflicts_with_all = ["device", "gpus"], help_heading = "Several devices")]
    pub devices: Vec<DeviceRequest>,
    /// Data parallel over the first N CUDA GPUs (--devices cuda:0,...,cuda:N-1).
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "device",
        help_heading = "Several devices"
    )]
    pub gpus: Option<u64>,
    /// Run folder.
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// CPU only: a SIMULATED out-of-memory event when the host heap exceeds SIZE (e.g.
    /// 64MiB). The step is discarded as on a GPU; everything shown is labelled simulated.
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true)]
    pub memory_budget: Option<Bytes>,
    /// CUDA only: leave SIZE (e.g. 8GiB) of the card to this run by holding the rest of its
    /// memory outside burn; allocations past it fail for real in the driver. burn's page
    /// sizes still follow the physical card (a quarter of it, then quarters of that).
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true)]
    pub vram_budget: Option<Bytes>,
    /// How often the background memory sampler reads NVML (or the host), in ms.
    #[arg(long, default_value_t = 10, value_name = "MS")]
    pub probe_interval_ms: u64,
    /// CUDA: folder for compiled kernels and autotune results, so later runs skip the
    /// minutes-long first step; `off` disables it. Default: $OOMLAB_KERNEL_CACHE, else
    /// ~/.cache/oomlab/cubecl.
    #[arg(long, value_name = "DIR|off")]
    pub kernel_cache: Option<String>,
    /// CUDA: do not install the compiled kernels and autotune results oomlab ships for
    /// this card into the kernel cache: what a GPU oomlab has no pack for gets,
    /// e.g. to measure its cold first step (with a --kernel-cache folder of its own).
    #[arg(long)]
    pub no_tuned_pack: bool,
    /// When oomlab waits for the device to look for a failed allocation and read the
    /// allocator: once per step, at its end (a failed step is still discarded before it
    /// is applied; which phase failed is not known), or after every phase (forward,
    /// backward, optimizer: the device idles while the next phase is queued, measured
    /// at 13-14% of a `gpu` config step on an H200). auto (default): phase for
    /// auto-halve, which needs to know the phase, step otherwise.
    #[arg(long, value_enum, default_value = "auto")]
    pub check_every: CheckEvery,
    /// Write a checkpoint every N steps into RUN_DIR/checkpoints (model, optimizer
    /// state, loss scaler, data position, auto-halve's split), and also when the run
    /// stops: Ctrl-C, SIGTERM, an out-of-memory stop, the end. 0: only when it stops.
    /// Each is written whole to a temporary file, synced, then renamed: a crash never
    /// leaves half a checkpoint under a checkpoint's name.
    #[arg(long, value_name = "N", help_heading = "Checkpoints and resume")]
    pub checkpoint_every: Option<u64>,
    /// How many checkpoints to keep, the newest (default 3).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Checkpoints and resume")]
    pub keep_checkpoints: Option<u64>,
    /// Continue the run in RUN_DIR from its newest usable checkpoint, in the same
    /// folder: steps.jsonl is appended to, the summary covers the whole run. Its
    /// config.toml is the configuration; a flag that changes it is refused (with the
    /// keys that differ) unless --force. A damaged newest checkpoint (checksum) is
    /// skipped for the one before, with a message.
    #[arg(long, value_name = "RUN_DIR", conflicts_with_all = ["config", "out"], help_heading = "Checkpoints and resume")]
    pub resume: Option<PathBuf>,
    /// With --resume: accept configuration changes (model shapes and the optimizer kind
    /// still cannot change: the saved tensors have their shapes).
    #[arg(long, requires = "resume", help_heading = "Checkpoints and resume")]
    pub force: bool,
    /// Leak detector: steps at one split over which growth of the memory in use (burn's
    /// allocator on a GPU, the host heap on the CPU) is measured after 5 steps of
    /// warm-up; 0 turns it off (default 20).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20,
        help_heading = "Leak detector"
    )]
    pub leak_window: u64,
    /// Leak detector: growth per step that raises the alarm (default 1MiB).
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true, default_value = "1MiB", help_heading = "Leak detector")]
    pub leak_threshold: Bytes,
    /// A deliberate leak for the detector to catch. eval-graph (the default): each step
    /// also evaluates a micro-batch with the training model and keeps the loss in a list,
    /// graph and activations attached (an eval loss kept without no_grad/.item()).
    /// loss-total: `total_loss += loss` on the training loss, which burn's backward pass
    /// mostly frees: see how little stays.
    #[arg(long, value_enum, value_name = "MISTAKE", num_args = 0..=1, default_missing_value = "eval-graph", help_heading = "Leak detector")]
    pub leak_demo: Option<crate::words::LeakDemo>,
    /// Print the summary as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// For tests of the stop path: wait SECS before step 1 without looking at the stop
    /// flag, as a kernel compilation does (SIMULATED; said in the output).
    #[arg(long, value_name = "SECS", hide = true)]
    pub simulate_slow_start: Option<f64>,
}

/// `--check-every` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckEvery {
    /// phase for auto-halve, step otherwise.
    Auto,
    /// After the forward pass, the backward pass and the optimizer step.
    Phase,
    /// Once, after the optimizer step.
    Step,
}

const ESTIMATE_ABOUT: &str = "\
Predict, before training, the peak memory of a run, term by term (weights, gradients,
optimizer state, activations, the backward pass's working set, accumulation buffers,
allocator overhead, CUDA context), the largest batch that fits, and the smallest common
card that holds it. Without a GPU it works from the model's shapes alone.

It takes every flag of `oomlab train`: put `estimate` where `train` was. Without
--strategy it shows your run and every `compare` row (strategies, precisions, attention,
pool); with --strategy only your run. Flags about running (--out, --max-steps, ...)
change nothing here.

Where the peak is predicted for: --card (a GPU of that size, e.g. 24GiB or RTX 4090;
works on any machine), else the GPU of --device (its total memory minus what other
processes hold), else the CPU (the host heap, against the RAM available now).

--calibrate runs each row twice for 2 steps at a quarter and half of its micro-batch
(fresh processes, a few seconds each on the CPU) and fits peak = a + b x micro-batch to
the measured peaks (NVML process peak on a GPU, heap peak on the CPU), printed beside the
analytic figure. Results are cached per device and config (~/.cache/oomlab/calibration,
or $OOMLAB_CALIBRATION).

`oomlab explain estimate` says how each term is computed and how far it was off on the
H200.";

const DIAGNOSE_ABOUT: &str = "\
Read an out-of-memory error and say which of the usual cases it is, why, and what to do:

  larger than the card   one tensor bigger than the whole card: only a smaller tensor helps
  fragmentation          the cache holds the requested bytes free, but in pieces
  other processes        someone else holds the memory this process needed
  per-process limit      the card had the bytes; a cap inside the process refused them
  shortage               the process really needs more: by how much, and what each
                         technique saved when oomlab measured it
  outside the allocator  the CUDA runtime or cuBLAS failed (context creation, workspaces)

It reads PyTorch's CUDA OOM message (2.1 and later, and the older one), the CUDA runtime's
and cuBLAS's errors, cubecl's (burn's), TensorFlow's and XLA's. Paste the whole error; add
torch.cuda.memory_summary() and nvidia-smi's output to the same text for more (names of
the processes, non-releasable memory). On a machine with a GPU it also lists who holds
VRAM now.

  oomlab diagnose oom.txt
  python train.py 2>&1 | tail -40 | oomlab diagnose
  oomlab diagnose            (paste, then Ctrl-D)

Exit status: 0 when the text was classified, 1 when it was not (no out-of-memory message
it knows, or one without its figures), 2 when the file cannot be read.";

const LESSON_ABOUT: &str = "\
A guided run for a class or a first hour with out-of-memory errors, in two parts, every
stage a training run in a fresh process under a budget that stands in for a small card.
Part 1, a batch too big for the card: the baseline (which runs out of memory), mixed
precision, gradient accumulation, activation checkpointing and auto-halve. Part 2, a
model too big for it (its fixed state does not fit): the same techniques fail, pure bf16
and SGD (no optimizer state) fit, and sharding over several devices is predicted. Before
each stage, what it changes and what `oomlab estimate` predicts against the budget, and
(on a terminal, without --yes) your guess; after each, what was measured, one step's
memory by category, and what to take from it. Each part ends with its table.

On a GPU: the `gpu` config at batch 96 under a VRAM budget (a small card's free memory;
real driver-level OOMs; burn's page sizes still follow the physical card), then the same
with 128 blocks at batch 2. The lesson measures the card first: two short runs without a
budget, the baseline and checkpointing, set the budget halfway between their peaks, so
that the story happens on this card (7 GiB on an H100). A first CUDA run compiles what
the shipped kernels lack, then it is cached. On the CPU: the `tiny` config at batch 96 under a host-heap
budget of 60 MiB plus the matrix library's buffers (one the size of a core's L2 cache per
thread: 62 MiB in all with 512 KiB of L2 per core, 67 MiB with 2 MiB), then tiny 4x wider
at batch 4; those OOMs are SIMULATED and every output says so (about a minute on two
cores).

  oomlab lesson                  interactive on a terminal
  oomlab lesson --yes            no questions (classrooms, scripts)
  oomlab lesson --budget 6GiB    another card size
  oomlab lesson --part 2         only the model too big for the card
  oomlab lesson --exercises > exercises.md   questions and answers for a class";

/// `oomlab lesson`
#[derive(Debug, Args)]
pub struct LessonArgs {
    /// auto, cpu, cuda or cuda:N.
    #[arg(long, short, default_value = "auto", value_name = "DEVICE")]
    pub device: String,
    /// The budget standing in for the small card (default, with the lesson's own model at its batch of 96: on a GPU, halfway between the baseline's and checkpointing's peaks measured on this card; on the CPU 60MiB plus the matrix library's L2-sized buffers; with another config or batch 8GiB and 30MiB).
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true)]
    pub budget: Option<Bytes>,
    /// Config (default: `gpu` on a GPU, `tiny` on the CPU).
    #[arg(long, short, value_name = "NAME|FILE")]
    pub config: Option<String>,
    /// Optimizer steps per stage (default: 10 on a GPU, 20 on the CPU).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Any config key for every stage: --set train.batch=64 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Ask nothing: run every stage one after the other.
    #[arg(long, short)]
    pub yes: bool,
    /// Print predict-then-run exercises for a class instead of running the lesson: the
    /// questions, the command that measures each, and an answer key from `oomlab
    /// estimate` for this device and budget (Markdown: `> exercises.md`).
    #[arg(long)]
    pub exercises: bool,
    /// Run one part only: 1 (a batch too big for the card) or 2 (a model too big for it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=2))]
    pub part: Option<u64>,
    /// Folder for the stages' runs and the table (default runs/<time>-lesson).
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// `oomlab diagnose`: where the message comes from.
#[derive(Debug, Args)]
pub struct DiagnoseArgs {
    /// A file holding the error text; without it (or with -), standard input.
    pub file: Option<std::path::PathBuf>,
    /// Print the report as JSON (the figures read, the case, the arithmetic behind it,
    /// the measured savings).
    #[arg(long)]
    pub json: bool,
    /// Your model's parameter count (124439808, 124M, 1.1B, 7e9): weighs its fixed state
    /// (weights, gradients, AdamW: 16 bytes per parameter in f32) against the card and
    /// names what acts on it.
    #[arg(long, value_name = "N", value_parser = crate::diagnose::parse_params, allow_hyphen_values = true)]
    pub params: Option<u64>,
}

/// `oomlab estimate`: the flags of `train`, and what to size for.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// Everything `train` takes.
    #[command(flatten)]
    pub run: TrainArgs,
    /// A GPU to size for: a size (24GiB, 80GB) or a card name (RTX 4090, A100-80GB,
    /// H100, H200). Sets the target to CUDA, so it works without a GPU.
    #[arg(long, value_name = "SIZE|NAME", allow_hyphen_values = true)]
    pub card: Option<String>,
    /// Also measure: two short runs per row on this device, peak = a + b x micro-batch.
    #[arg(long)]
    pub calibrate: bool,
    /// Your own model: its Hugging Face config.json (gpt2, llama, mistral, qwen2), sized
    /// for training with PyTorch / transformers (as --model NAME does for a built-in
    /// shape). Takes --seq-len, --batch, --steps (accumulation), --precision (f32; bf16 =
    /// AMP; bf16 with --strategy half = pure bf16), --checkpointing, --optimizer, --gpus,
    /// --zero, --card.
    #[arg(long, value_name = "PATH", help_heading = "Your Hugging Face model")]
    pub hf_config: Option<PathBuf>,
    /// The optimizer of a Hugging Face model's training (adamw, sgd; adamw-8bit and
    /// adafactor: formula only, not measured).
    #[arg(
        long,
        value_enum,
        default_value = "adamw",
        help_heading = "Your Hugging Face model"
    )]
    pub optimizer: crate::hf::Optimizer,
    /// ZeRO stage with --gpus N: 1 shards the optimizer state, 2 also the gradients, 3
    /// also the weights (formula only: not measured on several GPUs).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3), help_heading = "Your Hugging Face model")]
    pub zero: u8,
    /// LoRA on a Hugging Face model: the base frozen, no gradients or optimizer state for
    /// it (formula only, not measured).
    #[arg(long, help_heading = "Your Hugging Face model")]
    pub lora: bool,
    /// The optimizer state of a Hugging Face model offloaded to the CPU (DeepSpeed
    /// offload_optimizer; formula only, not measured).
    #[arg(long, help_heading = "Your Hugging Face model")]
    pub offload: bool,
}

/// `--columns`: `all` or a comma-separated list of column words.
fn columns_arg(s: &str) -> Result<Vec<crate::words::CompareColumn>, String> {
    crate::compare::parse_columns(s)
}

/// `--model`: oomlab's own network, or a Hugging Face shape for `oomlab estimate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelArg {
    /// oomlab's GPT or MLP (model.kind).
    Own(ModelKind),
    /// A built-in Hugging Face shape (estimate only).
    Hf(String),
}

fn model_arg(s: &str) -> Result<ModelArg, String> {
    if let Ok(k) = <ModelKind as ValueEnum>::from_str(s, true) {
        return Ok(ModelArg::Own(k));
    }
    if crate::hf::shape::is_builtin(s) {
        return Ok(ModelArg::Hf(s.to_ascii_lowercase()));
    }
    Err(format!(
        "'{s}': not gpt or mlp, nor a built-in shape ({}); for another model, --hf-config PATH/config.json",
        crate::hf::shape::builtin_names().join(", ")
    ))
}

/// `oomlab compare`
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Comma-separated rows, or `all` (`--help` lists them).
    #[arg(long, default_value = "all", value_name = "LIST|all", long_help = crate::technique::rows_help())]
    pub strategies: String,
    /// Built-in config name (tiny, gpu, h200) or path to a TOML file.
    #[arg(long, short, default_value = "tiny", value_name = "NAME|FILE")]
    pub config: String,
    /// grad-accum: micro-batches per optimizer step.
    #[arg(long, default_value_t = 4, value_name = "K")]
    pub steps: u64,
    /// Samples per optimizer step, for every strategy (train.batch).
    #[arg(long, short, value_name = "N")]
    pub batch: Option<u64>,
    /// Optimizer steps per strategy (train.max_steps).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// auto, cpu, cuda or cuda:N.
    #[arg(long, short, default_value = "auto", value_name = "DEVICE")]
    pub device: String,
    /// Every run data parallel over these devices (cuda:0,cuda:1; cpu,cpu for two CPU
    /// peers), as `train --devices`; the table gains a per-device column and
    /// shard-optimizer becomes a row.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        conflicts_with = "device"
    )]
    pub devices: Vec<DeviceRequest>,
    /// CUDA: emulate a card of SIZE for every run (see `oomlab train --help`).
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true)]
    pub vram_budget: Option<Bytes>,
    /// CPU: SIMULATED OOM past SIZE of host heap, for every run.
    #[arg(long, value_name = "SIZE", value_parser = size_arg, allow_hyphen_values = true)]
    pub memory_budget: Option<Bytes>,
    /// Any config key for every run: --set model.d_ff=512 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Folder for the runs and the outputs.
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the comparison as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// The columns a budget decides: strategy, split, peak memory (process and in use),
    /// OOMs hit, final loss, status (the files keep every column).
    #[arg(long, conflicts_with = "columns")]
    pub brief: bool,
    /// The terminal's columns, comma-separated, or `all` (default: strategy, split, peak,
    /// peak-vs-baseline, step, ooms, loss, status). The others: dtype, in-use, predicted,
    /// reserved, overhead, first-step, step-vs-baseline, samples-per-s, skipped, devices.
    /// compare.md, compare.csv, compare.json and report.html always hold every column.
    #[arg(long, value_name = "LIST|all", value_parser = columns_arg)]
    pub columns: Option<Vec<crate::words::CompareColumn>>,
    /// Also write the one-page HTML report here (it is always written as report.html in
    /// the compare folder).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

const WARM_UP_ABOUT: &str = "\
Compile and autotune, ahead of time, the kernels that `oomlab lesson` and `oomlab compare`
will need on this GPU, and say how long it took.

On a GPU, burn 0.21 compiles its kernels (NVRTC) the first time a process meets a shape
and precision, and may benchmark candidate kernels (autotune). Both are kept in the kernel
cache folder (~/.cache/oomlab/cubecl, or --kernel-cache of train), so every later process
finds them. oomlab ships the kernels and autotune results it measured on an NVIDIA H200,
installed on any card of its compute capability (9.0: H100, H200, ...); on another card,
or for a config of your own, the first run of each row compiles.
warm-up runs every compare row of each config for --max-steps steps, each in a fresh
process as compare does, plus the baseline at the micro-batches auto-halve falls back to
(--halvings), and prints what each run compiled. Run it before a class:

  oomlab warm-up                          # what `oomlab lesson` and `compare --config gpu` need
  oomlab warm-up --config tiny,gpu,h200   # every built-in config
  oomlab warm-up --strategies baseline,amp-bf16 --halvings 0

On the CPU nothing is compiled at run time, so there is nothing to warm up.";

/// `oomlab warm-up`
#[derive(Debug, Args)]
pub struct WarmUpArgs {
    /// Comma-separated configs: built-in names (tiny, gpu, h200) or TOML files.
    #[arg(long, short, default_value = "gpu", value_name = "LIST")]
    pub config: String,
    /// Compare rows to run for each config (as `compare --strategies`), or all.
    #[arg(long, default_value = "all", value_name = "LIST|all")]
    pub strategies: String,
    /// Also run the baseline at batch/2, batch/4, ... this many times halved: the
    /// micro-batches auto-halve falls back to under a budget.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub halvings: u32,
    /// Optimizer steps per run (the first compiles; later ones are quick).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub max_steps: u64,
    /// auto, cpu, cuda or cuda:N.
    #[arg(long, short, default_value = "auto", value_name = "DEVICE")]
    pub device: String,
    /// Folder for the runs and warm-up.json (default runs/<time>-warm-up).
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `oomlab dataset`
#[derive(Debug, Args)]
pub struct DatasetArgs {
    /// Which language.
    #[arg(long, value_enum, default_value = "mix")]
    pub task: Task,
    /// Characters to generate (at least; the text ends at a line end).
    #[arg(long, default_value_t = 4096)]
    pub chars: usize,
    /// Generator seed.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
}

fn size_arg(s: &str) -> Result<Bytes, String> {
    if s.trim_start().starts_with('-') {
        return Err(format!(
            "'{s}': a size must be positive (e.g. 8GiB, 512MiB)"
        ));
    }
    match parse_size(s) {
        Ok(b) if b.0 > 0 => Ok(b),
        Ok(_) => Err("the size must be more than 0".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// `--set KEY=VALUE` flags as overrides, in the order given.
pub(super) fn set_overrides(set: &[String]) -> Result<Vec<(String, toml::Value)>, ConfigError> {
    set.iter()
        .map(|s| {
            let Some((key, raw)) = s.split_once('=') else {
                return Err(ConfigError::Override {
                    given: format!("--set {s}"),
                    reason: "write KEY=VALUE, e.g. --set model.d_ff=512".into(),
                });
            };
            Ok((key.trim().to_string(), parse_toml_value(raw.trim())))
        })
        .collect()
}

/// A `--set` value: TOML if it parses (numbers, booleans, quoted strings), else a bare
/// string, so `--set optim.kind=sgd` works without shell quoting.
fn parse_toml_value(raw: &str) -> toml::Value {
    format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_values_are_toml_or_bare_strings() {
        assert_eq!(parse_toml_value("512"), toml::Value::Integer(512));
        assert_eq!(parse_toml_value("0.5"), toml::Value::Float(0.5));
        assert_eq!(parse_toml_value("sgd"), toml::Value::String("sgd".into()));
        assert_eq!(
            parse_toml_value("\"sgd\""),
            toml::Value::String("sgd".into())
        );
    }

    #[test]
    fn the_cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}

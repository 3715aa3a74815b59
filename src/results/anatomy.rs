//! One training step's memory by category, at the step's phase boundaries: what the run
//! measured beside what `oomlab estimate` predicted for the same split. The anatomy a
//! lecturer draws on the board (weights, gradients, optimizer state, the AMP copy,
//! activations, allocator slack, the runtime), with the numbers of this run.

use serde::{Deserialize, Serialize};

use crate::strategy::StepPlan;
use crate::units::Bytes;
use crate::words::MemoryKind;

/// Where in a step memory was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepPoint {
    /// Before the forward pass: what lives between steps.
    Start,
    /// After the forward pass (the last micro-batch's): the activations kept for backward.
    Forward,
    /// After the backward pass (the last micro-batch's): the gradients.
    Backward,
    /// After the optimizer step, while the last good weights and state are still kept
    /// beside the new ones (until the step has passed its checks).
    Optimizer,
}

impl StepPoint {
    /// Every point, in step order.
    pub const ALL: [StepPoint; 4] = [
        StepPoint::Start,
        StepPoint::Forward,
        StepPoint::Backward,
        StepPoint::Optimizer,
    ];

    /// A short label for charts and tables.
    pub fn label(self) -> &'static str {
        match self {
            StepPoint::Start => "step start",
            StepPoint::Forward => "after forward",
            StepPoint::Backward => "after backward",
            StepPoint::Optimizer => "after optimizer",
        }
    }
}

/// A category of bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The parameters (old and new ones together after the optimizer step).
    Weights,
    /// One gradient per parameter.
    Gradients,
    /// The optimizer's state (AdamW's two moments; old and new after the step).
    OptimizerState,
    /// AMP's half-precision copy of the weights.
    HalfCopy,
    /// Gradient accumulation's running sum.
    AccumulationBuffer,
    /// What autodiff keeps from the forward pass and the passes' temporaries. Measured:
    /// the bytes in use less the categories above. Predicted: the estimate's activations
    /// (and, after backward, its working set).
    Activations,
    /// Pool pages held beyond the live tensors (GPU: reserved less in use).
    PoolSlack,
    /// What the process holds beyond the allocator: the CUDA context and modules (GPU:
    /// NVML less reserved), or the data and the backend's buffers (CPU).
    Runtime,
}

impl Category {
    /// Every category, bottom of the stack first.
    pub const ALL: [Category; 8] = [
        Category::Weights,
        Category::Gradients,
        Category::OptimizerState,
        Category::HalfCopy,
        Category::AccumulationBuffer,
        Category::Activations,
        Category::PoolSlack,
        Category::Runtime,
    ];

    /// The label charts use.
    pub fn label(self) -> &'static str {
        match self {
            Category::Weights => "weights",
            Category::Gradients => "gradients",
            Category::OptimizerState => "optimizer state",
            Category::HalfCopy => "AMP half copy",
            Category::AccumulationBuffer => "accumulation buffer",
            Category::Activations => "activations and temporaries",
            Category::PoolSlack => "pool slack",
            Category::Runtime => "runtime (context, data, buffers)",
        }
    }

    /// One letter, for terminal bars.
    pub fn letter(self) -> char {
        match self {
            Category::Weights => 'W',
            Category::Gradients => 'G',
            Category::OptimizerState => 'O',
            Category::HalfCopy => 'H',
            Category::AccumulationBuffer => 'B',
            Category::Activations => 'A',
            Category::PoolSlack => 's',
            Category::Runtime => 'r',
        }
    }
}

/// Bytes of one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    /// Which.
    pub category: Category,
    /// How many bytes.
    pub bytes: Bytes,
}

/// What the run read at one point of the recorded step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointReading {
    /// Where.
    pub at: StepPoint,
    /// Bytes in live tensors: burn's allocator in use (GPU) or the host heap in use (CPU).
    pub in_use: Option<Bytes>,
    /// Bytes of pool pages held (GPU).
    pub reserved: Option<Bytes>,
    /// What the driver or OS charges the process: NVML process VRAM (GPU, less the
    /// ballast `--vram-budget` holds in the same process), RSS (CPU).
    pub process: Option<Bytes>,
    /// The highest `in_use` since the previous point, inside the phase that ends here
    /// (the host heap's peak counter: CPU only; burn's allocator keeps no peak).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<Bytes>,
    /// The categories the trainer knows it holds at this point, from its parameters'
    /// count and the dtypes read back from them (weights, gradients, optimizer state,
    /// AMP copy, accumulation buffer).
    pub known: Vec<Slice>,
}

impl PointReading {
    /// The stack as measured. On a GPU (`rest` is `None`): the known categories, the rest
    /// of the bytes in use as activations and temporaries, the pool's slack (reserved
    /// less in use) and the runtime (the process figure less reserved), adding up to the
    /// process figure. On the CPU, whose budget is on the heap, the stack is the heap:
    /// `rest` is what the heap held beyond the known categories at the step's start (the
    /// data and the backend's buffers), shown as the runtime, and the activations are
    /// what came on top of it.
    pub fn stack(&self, rest: Option<Bytes>) -> Vec<Slice> {
        let mut out = self.known.clone();
        let known: u64 = self.known.iter().map(|s| s.bytes.0).sum();
        let Some(in_use) = self.in_use else {
            return out;
        };
        let base = rest.map_or(0, |r| r.0);
        out.push(Slice {
            category: Category::Activations,
            bytes: Bytes(in_use.0.saturating_sub(known + base)),
        });
        if let Some(r) = rest {
            out.push(Slice {
                category: Category::Runtime,
                bytes: r,
            });
            return out;
        }
        if let Some(r) = self.reserved {
            out.push(Slice {
                category: Category::PoolSlack,
                bytes: Bytes(r.0.saturating_sub(in_use.0)),
            });
        }
        if let Some(p) = self.process {
            out.push(Slice {
                category: Category::Runtime,
                bytes: Bytes(p.0.saturating_sub(self.reserved.unwrap_or(in_use).0)),
            });
        }
        out
    }
}

/// What the estimate predicts at one point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointPrediction {
    /// Where.
    pub at: StepPoint,
    /// The live tensors by category, then the pool's overhead and the runtime.
    pub stack: Vec<Slice>,
    /// The estimate's peak, on the point that ends the phase it falls in (inside the
    /// backward pass or the optimizer step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<Bytes>,
}

/// One step's memory by category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepAnatomy {
    /// The step that was measured (`None`: no step completed, only the prediction).
    pub step: Option<usize>,
    /// Its split (or the split the prediction is for).
    pub plan: StepPlan,
    /// What `in_use` counts: `allocator` (burn's, GPU) or `host heap` (CPU).
    pub in_use_source: String,
    /// What `process` counts: `nvml` or `rss`.
    pub process_source: String,
    /// The readings, in step order (empty when no step completed).
    pub measured: Vec<PointReading>,
    /// The estimate's prediction at the same points (empty where none was made, e.g.
    /// over several devices).
    pub predicted: Vec<PointPrediction>,
}

impl StepAnatomy {
    /// An anatomy of `plan` with nothing read or predicted yet, its sources named for
    /// the memory the run measures.
    pub fn empty(step: Option<usize>, plan: StepPlan, kind: MemoryKind) -> Self {
        let (in_use, process) = match kind {
            MemoryKind::Gpu => ("allocator", "nvml"),
            MemoryKind::Host => ("host heap", "rss"),
        };
        Self {
            step,
            plan,
            in_use_source: in_use.into(),
            process_source: process.into(),
            measured: Vec::new(),
            predicted: Vec::new(),
        }
    }

    /// The highest reading inside the phase that ends at `at` (CPU only).
    pub fn measured_peak(&self, at: StepPoint) -> Option<Bytes> {
        self.measured
            .iter()
            .find(|p| p.at == at)
            .and_then(|p| p.peak)
    }

    /// The estimate's peak, when it falls in the phase that ends at `at`.
    pub fn predicted_peak(&self, at: StepPoint) -> Option<Bytes> {
        self.predicted
            .iter()
            .find(|p| p.at == at)
            .and_then(|p| p.peak)
    }

    /// Whether `in_use` is the host heap (the CPU), not a GPU allocator.
    pub fn on_host(&self) -> bool {
        self.in_use_source == "host heap"
    }

    /// Every measured point's stack (see [`PointReading::stack`]).
    pub fn measured_stacks(&self) -> Vec<(StepPoint, Vec<Slice>)> {
        let rest = self.on_host().then(|| {
            self.measured
                .iter()
                .find(|p| p.at == StepPoint::Start)
                .and_then(|p| {
                    let known: u64 = p.known.iter().map(|s| s.bytes.0).sum();
                    p.in_use.map(|u| Bytes(u.0.saturating_sub(known)))
                })
                .unwrap_or(Bytes(0))
        });
        self.measured
            .iter()
            .map(|p| (p.at, p.stack(rest)))
            .collect()
    }

    /// The predicted stack at `at`.
    pub fn predicted_stack(&self, at: StepPoint) -> Option<&[Slice]> {
        self.predicted
            .iter()
            .find(|p| p.at == at)
            .map(|p| p.stack.as_slice())
    }
}

/// The sum of a stack.
pub fn total(stack: &[Slice]) -> Bytes {
    Bytes(stack.iter().map(|s| s.bytes.0).sum())
}

/// The bytes of `category` in a stack (0 when absent).
pub fn of(stack: &[Slice], category: Category) -> Bytes {
    Bytes(
        stack
            .iter()
            .filter(|s| s.category == category)
            .map(|s| s.bytes.0)
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(in_use: Option<u64>, reserved: Option<u64>, process: Option<u64>) -> PointReading {
        PointReading {
            at: StepPoint::Forward,
            in_use: in_use.map(Bytes),
            reserved: reserved.map(Bytes),
            process: process.map(Bytes),
            peak: None,
            known: vec![
                Slice {
                    category: Category::Weights,
                    bytes: Bytes(100),
                },
                Slice {
                    category: Category::OptimizerState,
                    bytes: Bytes(200),
                },
            ],
        }
    }

    #[test]
    fn the_measured_stack_adds_up_to_the_process_figure() {
        let r = reading(Some(1000), Some(1500), Some(2000));
        let s = r.stack(None);
        assert_eq!(of(&s, Category::Activations), Bytes(700));
        assert_eq!(of(&s, Category::PoolSlack), Bytes(500));
        assert_eq!(of(&s, Category::Runtime), Bytes(500));
        assert_eq!(total(&s), Bytes(2000));
    }

    #[test]
    fn on_the_cpu_the_stack_is_the_heap_with_the_steps_starting_rest_as_runtime() {
        let s = reading(Some(1000), None, Some(1800)).stack(Some(Bytes(150)));
        assert_eq!(of(&s, Category::PoolSlack), Bytes(0));
        assert_eq!(of(&s, Category::Runtime), Bytes(150));
        assert_eq!(of(&s, Category::Activations), Bytes(550));
        assert_eq!(total(&s), Bytes(1000));
    }

    #[test]
    fn known_bytes_above_the_reading_leave_no_negative_activations() {
        let s = reading(Some(250), None, None).stack(None);
        assert_eq!(of(&s, Category::Activations), Bytes(0));
    }
}

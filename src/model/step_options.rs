//! The step's environment variables (issue 29's levers) in one list: the run's header
//! names those that are set ([`super::opt_in_line`]) and `oomlab explain step-speed` lists
//! them all with their defaults.

use super::attention::efficient::{BACKWARD_PROBS_ENV, FORWARD_ENV};
use super::attention::QKV_ENV;
use super::{
    ATTENTION_HEADS_ENV, ATTENTION_JOIN_ENV, ATTENTION_PAIRS_ENV, ATTENTION_PRODUCTS_ENV,
    ATTENTION_SOFTMAX_ENV, COLUMN_SUMS_ENV, EMBEDDING_GRAD_ENV, GELU_ENV, LAYER_NORM_ENV,
    LINEAR_ENV, LINEAR_GRADS_ENV,
};

/// The variable choosing where AMP casts the parameters to half precision: `micro-batch`
/// (the default) in each micro-batch's graph (crate::precision's `compute_copy`), `step`
/// once a step (`cast_once_a_step`, which says why it is not the default). Defined here, with the
/// list, because the model's modules do not reach crate::precision.
pub const AMP_CAST_ENV: &str = "OOMLAB_AMP_CAST";

/// The variable choosing where AdamW's update runs: `kernel` (the default) one kernel of the
/// backend's own a parameter where it has one (on CUDA oomlab's, for f32 parameters),
/// `burn` burn's `AdamW` (crate::optim). Defined here, with the list, because the model's modules do not reach
/// crate::optim.
pub const ADAMW_ENV: &str = "OOMLAB_ADAMW";

/// One of the step's variables: what it changes, its values and what runs when it is unset.
#[derive(Debug, Clone, Copy)]
pub struct StepOption {
    /// The variable.
    pub name: &'static str,
    /// Its values, `|` between them.
    pub values: &'static str,
    /// What runs when it is unset, on CUDA and on the CPU.
    pub default: &'static str,
    /// What it chooses.
    pub what: &'static str,
}

/// Every step variable, in the order the run's header names them.
pub const STEP_OPTIONS: &[StepOption] = &[
    StepOption {
        name: COLUMN_SUMS_ENV,
        values: "split|one",
        default: "CUDA: split for f32 and bf16, one for f16; CPU: one",
        what: "sums over every token (LayerNorm's dγ and dβ, a bias's gradient) in two stages or one",
    },
    StepOption {
        name: EMBEDDING_GRAD_ENV,
        values: "dense|scatter",
        default: "CUDA: dense for f32 and bf16, scatter for f16; CPU: scatter",
        what: "the embeddings' gradients as a product with a one-hot matrix, or burn's scatter",
    },
    StepOption {
        name: LINEAR_ENV,
        values: "2d|burn",
        default: "CUDA: burn; CPU: 2d",
        what: "where cuBLAS does not run a linear layer: burn's linear on the input seen as one matrix, or burn's Linear",
    },
    StepOption {
        name: LINEAR_GRADS_ENV,
        values: "together|apart",
        default: "CUDA: together; CPU: apart",
        what: "a linear layer's two gradient products (dW, dX) as one operation, on CUDA both cuBLAS calls behind one handshake with cubecl's stream, or two operations",
    },
    StepOption {
        name: ATTENTION_PAIRS_ENV,
        values: "together|apart",
        default: "CUDA: together where the products run on cuBLAS and are joined in place; CPU: apart (its products do not run on a library)",
        what: "attention's backward products that do not depend on each other (dV with dP, dQ with dK) as one operation a pair, on CUDA both cuBLAS calls behind one handshake with cubecl's stream, or one operation each",
    },
    StepOption {
        name: AMP_CAST_ENV,
        values: "micro-batch|step",
        default: "micro-batch",
        what: "where AMP casts the f32 parameters to half precision: in each micro-batch's graph, or once a step, every micro-batch running on the same half-precision copy and its gradients cast back to f32 after each backward pass (the same gradients, a cast of every parameter a step instead of a micro-batch; with it a new user's first AMP step compiled 3 kernels beyond the shipped pack)",
    },
    StepOption {
        name: FORWARD_ENV,
        values: "written|fused",
        default: "written wherever the softmax kernels run (CUDA: f32 and bf16), else fused",
        what: "the efficient attention's forward pass written out around the softmax kernel, or burn-cubecl's attention",
    },
    StepOption {
        name: QKV_ENV,
        values: "fused",
        default: "three products",
        what: "Q, K and V from one product of x with the three weights side by side",
    },
    StepOption {
        name: ATTENTION_PRODUCTS_ENV,
        values: "cublas|burn",
        default: "CUDA: cublas where cuBLAS runs the dtype (f32, bf16); CPU: burn (no cuBLAS there)",
        what: "the efficient attention's batched products as cuBLAS strided batched calls, or burn's matmul",
    },
    StepOption {
        name: ATTENTION_HEADS_ENV,
        values: "offset|slice",
        default: "offset",
        what: "where the efficient attention takes a group of heads to cuBLAS: read at an offset into Q, K, V and dO, or sliced first (a copy unless the slice is 512-byte aligned)",
    },
    StepOption {
        name: ATTENTION_JOIN_ENV,
        values: "in-place|cat",
        default: "in-place where the batched products run on cuBLAS, else cat",
        what: "how the efficient attention gathers its groups of heads (the output, dQ, dK, dV): each product written into its heads of one buffer, or tensors of their own joined by burn's cat",
    },
    StepOption {
        name: BACKWARD_PROBS_ENV,
        values: "inputs|f32",
        default: "CUDA: inputs for bf16, f32 for f16; CPU: f32",
        what: "the dtype of the probabilities the efficient attention's backward pass recomputes: the inputs' (bf16 under AMP; no cast for dV, the softmax's gradient reads them so) or f32",
    },
    StepOption {
        name: ATTENTION_SOFTMAX_ENV,
        values: "kernel|burn",
        default: "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what: "the attention's causal softmax and its gradient as one kernel of oomlab's each, or burn's tensor operations",
    },
    StepOption {
        name: LAYER_NORM_ENV,
        values: "kernel|burn",
        default: "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what: "LayerNorm's forward and backward passes as kernels of oomlab's, or burn's tensor operations",
    },
    StepOption {
        name: GELU_ENV,
        values: "kernel|burn",
        default: "CUDA: kernel for f32 and bf16, burn for f16; CPU: burn (no kernel there)",
        what: "the feed-forward layer's bias and GELU as one kernel of oomlab's each way, or burn's tensor operations",
    },
    StepOption {
        name: ADAMW_ENV,
        values: "kernel|burn",
        default: "CUDA: kernel for f32 parameters (AMP's included), burn for half-precision ones (the kernel's one dtype is f32); CPU: burn (no kernel there)",
        what: "AdamW's update of each parameter (both moments, their bias corrections, the decay and the step) as one kernel of oomlab's, or burn's AdamW (thirteen tensor operations)",
    },
];

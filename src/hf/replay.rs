//! The reserved peak of a Hugging Face training run, replayed: the allocation sequence of
//! a template ([`super::template`]) for the model's dimensions, through the model of
//! PyTorch's caching allocator ([`super::allocator`]).
//!
//! It holds for what the templates were traced from: the bench's loop (benches/hf_memory.py:
//! one GPU, `model(input_ids=x, labels=x).loss.backward()`, `torch.optim.AdamW` with its
//! defaults, `zero_grad(set_to_none=True)`, SDPA attention, no accumulation), torch 2.11 and
//! transformers 5.17, from a fresh process whose context has made cuBLAS's 32 MiB
//! workspace. Checked: each template reproduces the two small models' traces it was read
//! from, event by event (scripts/hf-templates.py), and replayed for the built-in shapes
//! it gives the reserved peak the H200 measured for every traced row
//! (tests/integration/hf_replay.rs; docs/results/2026-12-04-h200-hf-templates/check.md).
//! What it cannot know: kernels that the larger shapes choose and the small ones do not (a
//! workspace of a reduction or of cuBLAS, seen in the real traces as a request freed at
//! once), and other versions of torch and transformers. And the allocator's model is not
//! the allocator: on 9 of the 72 small models' rows it reserves a segment of 6 to 36 MiB
//! more or fewer than torch did for the same events (not found why).

use std::collections::HashMap;

use super::allocator::{BlockId, CachingAllocator};
use super::setup::{Optimizer, Precision, Setup};
use super::shape::{Family, Shape};
use super::template::{Dims, Event, Item, Iteration, Target, Template, TemplateError};

/// Steps replayed, as the bench trains: later steps repeat the last template step.
pub const STEPS: usize = 4;

/// cuBLAS's workspace the CUDA context's first product makes (CUBLAS_WORKSPACE_CONFIG's
/// default on the H200: 4096 KiB x 8), alive before training starts.
const CUBLAS_WORKSPACE: u64 = 32 << 20;

/// The replay's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The template replayed.
    pub template: String,
    /// torch.cuda.max_memory_reserved as replayed.
    pub reserved_peak: u64,
    /// torch.cuda.max_memory_allocated as replayed.
    pub allocated_peak: u64,
    /// Allocations and frees replayed.
    pub events: usize,
}

/// A template that does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Its text.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// A free of something never allocated (or freed twice).
    #[error("template {template}: phase {phase} frees an allocation it never made ({target:?})")]
    Dangling {
        /// The template.
        template: String,
        /// Where.
        phase: String,
        /// What.
        target: Target,
    },
}

/// Why a run of a traced architecture is not replayed (None where it is, or where the
/// architecture has no template: [`template_name`] says that).
pub fn why_not(setup: &Setup) -> Option<&'static str> {
    Some(if setup.optimizer != Optimizer::Adamw {
        "the templates were traced with AdamW"
    } else if setup.gpus > 1 {
        "the templates were traced on one GPU"
    } else if setup.accum > 1 {
        "the templates were traced without accumulation"
    } else if setup.lora {
        "the templates were traced without LoRA"
    } else if setup.offload {
        "the templates were traced without offload"
    } else {
        return None;
    })
}

/// The template for a model and run, by name, where one was traced: the bench's loop
/// (AdamW, one GPU, no accumulation, LoRA or offload) and an architecture of
/// configs/hf-templates/ (GPT-2 with dropout; Qwen2; Llama; Mistral with an untied head).
pub fn template_name(shape: &Shape, setup: &Setup) -> Option<String> {
    let plain = setup.optimizer == Optimizer::Adamw
        && setup.gpus == 1
        && setup.accum == 1
        && !setup.lora
        && !setup.offload;
    if !plain {
        return None;
    }
    let family = match (shape.family, shape.model_type.as_str(), shape.tied) {
        (Family::Gpt2, "gpt2", true) if shape.dropout => "gpt2",
        (Family::Llama, "qwen2", true) => "qwen2-tied",
        (Family::Llama, "qwen2", false) => "qwen2-untied",
        (Family::Llama, "llama", true) if !shape.qkv_bias => "llama-tied",
        (Family::Llama, "llama", false) if !shape.qkv_bias => "llama-untied",
        (Family::Llama, "mistral", false) => "mistral-untied",
        _ => return None,
    };
    let precision = match setup.precision {
        Precision::F32 => "f32",
        Precision::AmpBf16 => "amp-bf16",
        Precision::Bf16 => "bf16",
    };
    Some(format!(
        "{family}-{precision}{}",
        if setup.checkpointing { "-ckpt" } else { "" }
    ))
}

/// A template's dimensions for a model and run.
pub fn dims(shape: &Shape, setup: &Setup) -> Dims {
    Dims {
        batch: setup.micro_batch,
        seq: setup.seq,
        hidden: shape.hidden,
        kv: shape.kv_heads * shape.head_dim,
        intermediate: shape.intermediate,
        vocab: shape.vocab,
        heads: shape.heads,
        kv_heads: shape.kv_heads,
        head_dim: shape.head_dim,
        positions: shape.positions,
        layers: shape.layers,
    }
}

/// One replayed event: allocate (id, bytes) or free (id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The id-th allocation, of so many bytes.
    Alloc(usize, u64),
    /// The free of the id-th allocation.
    Free(usize),
}

/// The template's events for these dimensions: the build and `steps` training steps.
pub fn events(t: &Template, dims: &Dims, steps: usize) -> Result<Vec<Step>, ReplayError> {
    let layers = dims.layers as i64;
    let last_step = (t.phases.len() as i64 - 1) / 3 - 1;
    // (phase, item, iteration or -1, offset) -> allocation id
    let mut ids: HashMap<(usize, usize, i64, usize), usize> = HashMap::new();
    let mut out = Vec::new();
    let mut next = 0usize;
    let mut run = |phase: usize, src: usize, step: i64, out: &mut Vec<Step>| {
        let p = &t.phases[src];
        for (j, item) in p.items.iter().enumerate() {
            let (count, body): (i64, &[Event]) = match item {
                Item::Event(e) => (1, std::slice::from_ref(e)),
                Item::Loop { shift, body } => (layers + shift, body.as_slice()),
            };
            let looped = matches!(item, Item::Loop { .. });
            for k in 0..count {
                let mut offset = 0;
                for e in body {
                    match e {
                        Event::Alloc(size) => {
                            let key = (phase, j, if looped { k } else { -1 }, offset);
                            ids.insert(key, next);
                            out.push(Step::Alloc(next, size.bytes(dims)));
                            next += 1;
                            offset += 1;
                        }
                        Event::Free(which) => {
                            let target = if !looped || k == 0 {
                                which[0]
                            } else if k == count - 1 {
                                which[2]
                            } else {
                                which[1]
                            };
                            let tp = match target.phase {
                                None => 0,
                                Some((kind, delta)) => {
                                    let kind = "FBO".find(kind).unwrap_or(0) as i64;
                                    (1 + 3 * (step + delta) + kind) as usize
                                }
                            };
                            let it = match target.iteration {
                                Iteration::None => -1,
                                Iteration::Abs(n) => n,
                                Iteration::End(n) => layers - 1 - n,
                                Iteration::Rel(n) => k + n,
                                Iteration::Mirror(n) => layers - 1 - k + n,
                            };
                            let id = ids
                                .remove(&(tp, target.item, it, target.offset))
                                .ok_or_else(|| ReplayError::Dangling {
                                    template: t.name.clone(),
                                    phase: p.name.clone(),
                                    target,
                                })?;
                            out.push(Step::Free(id));
                        }
                    }
                }
            }
        }
        Ok::<(), ReplayError>(())
    };
    run(0, 0, 0, &mut out)?;
    for s in 0..steps as i64 {
        let src_step = s.min(last_step);
        for kind in 0..3 {
            let phase = (1 + 3 * s + kind) as usize;
            let src = (1 + 3 * src_step + kind) as usize;
            run(phase, src, s, &mut out)?;
        }
    }
    Ok(out)
}

/// Replay these events after the context's workspace and small segment.
pub fn replay_steps(events: &[Step]) -> (u64, u64) {
    let mut a = CachingAllocator::new();
    let _workspace = a.malloc(CUBLAS_WORKSPACE);
    let _small = a.malloc(512);
    let mut live: HashMap<usize, BlockId> = HashMap::new();
    for e in events {
        match *e {
            Step::Alloc(id, bytes) => {
                live.insert(id, a.malloc(bytes));
            }
            Step::Free(id) => {
                if let Some(b) = live.remove(&id) {
                    a.free(b);
                }
            }
        }
    }
    (a.peak_reserved(), a.peak_allocated())
}

/// Replay a template for these dimensions.
pub fn replay(t: &Template, dims: &Dims) -> Result<Replay, ReplayError> {
    let evs = events(t, dims, STEPS)?;
    let (reserved_peak, allocated_peak) = replay_steps(&evs);
    Ok(Replay {
        template: t.name.clone(),
        reserved_peak,
        allocated_peak,
        events: evs.len(),
    })
}

/// The replay for a model and run, where a template was traced for them.
pub fn for_run(shape: &Shape, setup: &Setup) -> Option<Result<Replay, ReplayError>> {
    let name = template_name(shape, setup)?;
    let t = match Template::builtin(&name)? {
        Ok(t) => t,
        Err(e) => return Some(Err(e.into())),
    };
    Some(replay(&t, &dims(shape, setup)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_frees_by_iteration_and_a_later_step_repeats_the_last() {
        // build: one weight; F0: a loop allocating per layer, freed mirrored in B0;
        // O0 allocates state; F1/B1/O1 repeat, O1 frees nothing
        let text = "phase build\na d*4\n\
                    phase F0\nloop L\n  a B*S*d*4\nend\n\
                    phase B0\nloop L\n  f F0 0 mir0 0\nend\n\
                    phase O0\na d*8\n\
                    phase F1\nloop L\n  a B*S*d*4\nend\n\
                    phase B1\nloop L\n  f F0 0 mir0 0\nend\n\
                    phase O1\n";
        let t = Template::parse("test", text).unwrap();
        let dims = Dims {
            batch: 2,
            seq: 4,
            hidden: 1 << 20,
            layers: 3,
            ..ones()
        };
        let evs = events(&t, &dims, 3).unwrap();
        // build 1 + 3 steps x (3 allocs + 3 frees) + the state once
        assert_eq!(evs.len(), 1 + 3 * 6 + 1);
        // the backward pass frees the last layer's first
        assert_eq!(evs[4], Step::Free(3));
        let r = replay(&t, &dims).unwrap();
        // weight 4 MiB (20 MiB segment), 3 x 32 MiB activations, 8 MiB state in the 20 MiB one
        assert_eq!(
            r.allocated_peak,
            (32 << 20) + 512 + (4 << 20) + 3 * (32 << 20) + (8 << 20)
        );
    }

    #[test]
    fn plain_runs_of_traced_architectures_have_a_template_and_others_say_why_not() {
        let plain = Setup::new(1024, 2, Precision::Bf16);
        let mut tied_mistral = Shape::builtin("mistral-7b").unwrap();
        tied_mistral.tied = true;
        assert_eq!(template_name(&tied_mistral, &plain), None);
        let llama = Shape::builtin("llama-3.2-1b").unwrap();
        assert_eq!(
            template_name(&llama, &plain).as_deref(),
            Some("llama-tied-bf16")
        );
        assert_eq!(why_not(&plain), None);
        let accum = Setup { accum: 2, ..plain };
        assert_eq!(template_name(&llama, &accum), None);
        assert!(why_not(&accum).unwrap().contains("accumulation"));
    }

    #[test]
    fn a_free_of_nothing_is_an_error() {
        let t = Template::parse("bad", "phase build\nf build 0 - 0\n").unwrap();
        assert!(matches!(
            events(&t, &ones(), 1),
            Err(ReplayError::Dangling { .. })
        ));
    }

    /// Every dimension 1.
    fn ones() -> Dims {
        Dims {
            batch: 1,
            seq: 1,
            hidden: 1,
            kv: 1,
            intermediate: 1,
            vocab: 1,
            heads: 1,
            kv_heads: 1,
            head_dim: 1,
            positions: 1,
            layers: 1,
        }
    }
}

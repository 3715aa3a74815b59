//! Empty-cache: the baseline returning the pool's free memory to the driver after every
//! step.

use super::{Preset, Technique, Topic, Variant};

/// The technique.
struct EmptyCache;

/// Its row.
pub(super) const ROW: Variant = Variant(&EmptyCache);

/// `oomlab explain empty-cache`.
const TOPIC: Topic = Topic {
    name: "empty-cache",
    summary: "return burn's free pool pages to the driver every N steps",
    text: "\
What it does: `--empty-cache-every N` asks burn to clean up its memory after every N-th
step: pages of the allocator's pool that hold no live tensor go back to the driver, as
PyTorch's torch.cuda.empty_cache() does. The summary reports what the cleanups returned
and what they took. (`oomlab compare` runs it as baseline with --empty-cache-every 1.)

When to use it: another process on the same GPU needs the memory between your steps, or
you want nvidia-smi to show what the model really uses. It never lowers the peak.

What it costs: the next step has to allocate its pages from the driver again, which is
slower than reusing the pool's pages.
",
    compared: crate::evidence::STRATEGY_COMPARISONS,
    more: String::new,
};

impl Technique for EmptyCache {
    fn name(&self) -> &'static str {
        "empty-cache"
    }

    fn summary(&self) -> &'static str {
        "the baseline with --empty-cache-every 1"
    }

    fn preset(&self, p: &mut Preset<'_>) {
        p.set("train.empty_cache_every", |f| f.train.empty_cache_every = 1);
    }

    /// It acts after a step: its plan is the baseline's.
    fn changes_the_plan(&self) -> bool {
        false
    }

    fn topic(&self) -> Option<&'static Topic> {
        Some(&TOPIC)
    }
}

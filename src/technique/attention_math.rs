//! Attention written out: the baseline with `--attention math`, which keeps every layer's
//! scores and probabilities for the backward pass.

use super::{Preset, Technique, Variant};
use crate::words::AttentionKind;

/// The technique.
struct AttentionMath;

/// Its row.
pub(super) const ROW: Variant = Variant(&AttentionMath);

impl Technique for AttentionMath {
    fn name(&self) -> &'static str {
        "attention-math"
    }

    fn summary(&self) -> &'static str {
        "the baseline with --attention math"
    }

    fn preset(&self, p: &mut Preset<'_>) {
        p.set("model.attention", |f| {
            f.model.attention = AttentionKind::Math
        });
    }

    /// Explained with the efficient attention it is set against.
    fn topic_name(&self) -> &'static str {
        "attention"
    }
}

//! Every technique, one line each, in the order compare runs and lists them. The lesson
//! orders its stages by their own `order`.

use super::{
    amp, attention_math, auto_halve, baseline, checkpointing, empty_cache, grad_accum, half,
    offload_optimizer, pool, sgd, shard_optimizer, Variant,
};

/// Every technique.
pub const ALL: &[Variant] = &[
    baseline::ROW,
    grad_accum::ROW,
    auto_halve::ROW,
    checkpointing::ROW,
    empty_cache::ROW,
    amp::BF16,
    amp::F16,
    half::BF16,
    half::F16,
    attention_math::ROW,
    pool::GROWTH,
    pool::EXACT,
    shard_optimizer::ROW,
    offload_optimizer::ROW,
    sgd::ROW,
];

/// The rows `compare --strategies` takes, one a line with what each is: those `all` runs,
/// those it runs with several devices, and those it leaves out.
pub fn rows_help() -> String {
    let width = ALL.iter().map(|v| v.name().len()).max().unwrap_or(0);
    let lines = |keep: &dyn Fn(&dyn super::Technique) -> bool| -> String {
        ALL.iter()
            .filter(|v| keep(v.technique()))
            .map(|v| format!("  {:<width$}  {}\n", v.name(), v.technique().summary()))
            .collect()
    };
    format!(
        "Comma-separated rows, or `all`. In all:\n{}With --devices, also:\n{}Not in all:\n{}",
        lines(&|t| t.in_all(false)),
        lines(&|t| !t.in_all(false) && t.in_all(true)),
        lines(&|t| !t.in_all(true)),
    )
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_technique_speaks_for_itself_only() {
        for v in ALL {
            let t = v.technique();
            assert!(!t.summary().is_empty(), "{v}");
            for s in t.stages() {
                // A stage runs its own technique's row, in one of the lesson's two parts.
                assert_eq!(s.variant, *v, "{v}: a stage of {}", s.variant);
                assert!(matches!(s.part, 1 | 2), "{v}");
            }
            let parts: Vec<usize> = t.stages().iter().map(|s| s.part).collect();
            let mut once = parts.clone();
            once.dedup();
            assert_eq!(parts, once, "{v}: two stages in one part");
            if let Some(topic) = t.topic() {
                assert_eq!(t.topic_name(), topic.name, "{v}");
            }
        }
    }

    #[test]
    fn every_strategy_word_is_some_rows_strategy() {
        // `--strategy` and compare's rows cannot drift apart: each strategy is run by a row.
        for s in crate::words::Strategy::ALL {
            assert!(
                ALL.iter().any(|v| v.technique().strategy() == *s),
                "no row runs --strategy {s}"
            );
        }
    }

    #[test]
    fn the_baseline_is_first_and_every_other_row_is_a_preset_beside_it() {
        assert!(ALL[0].is_baseline());
        // A row that needs several devices is left out of `all` on one, kept on several.
        for v in ALL {
            let t = v.technique();
            if t.needs_several_devices() {
                assert!(!t.in_all(false) && t.in_all(true), "{v}");
            }
        }
    }

    #[test]
    fn the_help_lists_every_row_once_and_fits_beside_clap_s_indent() {
        let help = rows_help();
        for v in ALL {
            let listed = help
                .lines()
                .filter(|l| l.split_whitespace().next() == Some(v.name()))
                .count();
            assert_eq!(listed, 1, "{v}: {help}");
        }
        // clap indents an option's help by 10 columns: a line fits 100 with 2 to spare.
        assert!(help.lines().all(|l| l.chars().count() <= 88), "{help}");
    }
}

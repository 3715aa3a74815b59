//! A comparison of strategies as tables (terminal, Markdown, CSV, JSON), a memory-over-time
//! chart and an HTML report, and each row as a preset of settings. The command that runs
//! the rows is `cmd::compare`.

mod html;
mod plot;
mod table;

pub use crate::results::{Comparison, Row, RowStatus, COMPARE_SCHEMA_VERSION};
pub use crate::technique::Variant;
pub use crate::words::CompareColumn;
pub use html::{report_html, Page, RunDetail};
pub use plot::{memory_svg, memory_svg_over, y_label, Series};

/// Parses `--strategies`: `all` or a comma-separated list of [`Variant`] words.
pub fn parse_variants(list: &str, several_devices: bool) -> Result<Vec<Variant>, String> {
    if list.trim() == "all" {
        // Each technique says whether it belongs: shard-optimizer only over several
        // devices, pool-exact (the default pool) and sgd (another optimizer) never.
        return Ok(Variant::ALL
            .iter()
            .copied()
            .filter(|v| v.technique().in_all(several_devices))
            .collect());
    }
    let mut out = Vec::new();
    for word in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let v = Variant::from_name(word).ok_or_else(|| {
            format!(
                "unknown strategy '{word}'; known: {} (or all)",
                Variant::words()
            )
        })?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no strategy given; known: {} (or all)",
            Variant::words()
        ));
    }
    Ok(out)
}

/// Parses `--columns`: `all` or a comma-separated list of [`CompareColumn`] words, in the
/// order the table prints them.
pub fn parse_columns(list: &str) -> Result<Vec<CompareColumn>, String> {
    if list.trim() == "all" {
        return Ok(CompareColumn::ALL.to_vec());
    }
    let mut wanted = Vec::new();
    for word in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let c = CompareColumn::from_name(word).ok_or_else(|| {
            format!(
                "unknown column '{word}'; known: {} (or all)",
                CompareColumn::words()
            )
        })?;
        wanted.push(c);
    }
    if wanted.is_empty() {
        return Err(format!(
            "no column given; known: {} (or all)",
            CompareColumn::words()
        ));
    }
    Ok(CompareColumn::ALL
        .iter()
        .copied()
        .filter(|c| wanted.contains(c))
        .collect())
}

//! Text for the terminal: the width output is laid out for, tables and paragraphs fitted
//! to it, so every command's output reads the same on a terminal, a projector or in a
//! log; and text made safe for HTML pages.

use std::sync::OnceLock;

use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

/// The width when output is not a terminal (a pipe, a file) and `COLUMNS` is not set.
pub const PIPE_WIDTH: usize = 100;

/// The narrowest width oomlab lays out for; a smaller `COLUMNS` is raised to it.
pub const MIN_WIDTH: usize = 40;

/// Prose is wrapped at most this wide, however wide the terminal: long lines read badly.
pub const PROSE_WIDTH: usize = 90;

/// The width every table and paragraph is laid out for, set once per process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Fit this many columns (characters, not bytes).
    Columns(usize),
    /// `--wide`: every table at its natural width, nothing cut or folded.
    Unlimited,
}

impl Width {
    /// The width of this process's output: `COLUMNS` where set (as shells export it),
    /// else the terminal's when standard output is one, else [`PIPE_WIDTH`].
    pub fn detect() -> Width {
        let from_env = crate::env::columns().filter(|&c| c > 0);
        let columns = from_env
            // comfy-table asks the terminal (through crossterm) when standard output is one.
            // No crate of its own for this: a new dependency would change the crate's
            // build hash, and with it the cache keys of oomlab's shipped CUDA kernels.
            .or_else(|| Table::new().width().map(usize::from))
            .unwrap_or(PIPE_WIDTH);
        Width::Columns(columns.max(MIN_WIDTH))
    }

    /// The columns to fit, where there is a limit.
    pub fn columns(self) -> Option<usize> {
        match self {
            Width::Columns(c) => Some(c),
            Width::Unlimited => None,
        }
    }
}

static WIDTH: OnceLock<Width> = OnceLock::new();

/// Sets the output width for the rest of the process (the command line does it once,
/// from `--wide` and the terminal); later calls change nothing.
pub fn set_width(width: Width) {
    let _ = WIDTH.set(width);
}

/// The output width (detected on first use when the command line did not set it).
pub fn width() -> Width {
    *WIDTH.get_or_init(Width::detect)
}

/// The columns prose is wrapped at: the output's width, at most [`PROSE_WIDTH`]; under
/// `--wide`, none (each paragraph on one line).
pub fn prose_columns() -> usize {
    width().columns().map_or(usize::MAX, |c| c.min(PROSE_WIDTH))
}

/// A table in oomlab's style, laid out for the output's width: cells fold at spaces when
/// the columns do not fit; under `--wide`, nothing folds.
pub fn table() -> Table {
    table_for(width())
}

/// A table in oomlab's style laid out for `width` (a file's, or the terminal's).
pub fn table_for(width: Width) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    match width.columns() {
        Some(c) => {
            t.set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(c).unwrap_or(u16::MAX));
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    t
}

/// Keeps column `index` of `t` at least as wide as the longest of `names` (and its
/// padding), so that a name
/// without spaces (`offload-optimizer`) is not cut mid-word when the columns are squeezed.
pub fn keep_whole(t: &mut Table, index: usize, names: impl IntoIterator<Item = usize>) {
    let widest = names.into_iter().max().unwrap_or(0);
    if let Some(column) = t.column_mut(index) {
        column.set_constraint(comfy_table::ColumnConstraint::LowerBoundary(
            comfy_table::Width::Fixed(u16::try_from(widest + 2).unwrap_or(u16::MAX)),
        ));
    }
}

/// Notes numbered under a table, so that long explanations leave the table's cells:
/// a cell says `[2]` and the note is printed below it, wrapped to the width.
#[derive(Debug, Default, Clone)]
pub struct Footnotes {
    notes: Vec<String>,
}

impl Footnotes {
    /// An empty list.
    pub fn new() -> Footnotes {
        Footnotes::default()
    }

    /// Adds `note` (or finds it, when the same text was added before) and returns its
    /// mark, `[n]`.
    pub fn mark(&mut self, note: impl Into<String>) -> String {
        let note = note.into();
        let n = match self.notes.iter().position(|n| *n == note) {
            Some(i) => i + 1,
            None => {
                self.notes.push(note);
                self.notes.len()
            }
        };
        format!("[{n}]")
    }

    /// Whether no note was added.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// The notes, one paragraph each, wrapped with their marks hanging: `[1] text`.
    pub fn render(&self) -> String {
        self.render_for(width())
    }

    /// [`Footnotes::render`] for `width`.
    pub fn render_for(&self, width: Width) -> String {
        let mut out = String::new();
        for (i, note) in self.notes.iter().enumerate() {
            let mark = format!("[{}] ", i + 1);
            out.push_str(&hang_for(&mark, note, width));
        }
        out
    }
}

/// `text` as one paragraph starting with `first` (e.g. `[1] ` or `- `), its following
/// lines indented by as many spaces, wrapped to the prose width; ends with a newline.
pub fn hang(first: &str, text: &str) -> String {
    hang_for(first, text, width())
}

/// [`hang`] for `width` (under `--wide`, one line).
pub fn hang_for(first: &str, text: &str, width: Width) -> String {
    let columns = width.columns().map_or(usize::MAX, |c| c.min(PROSE_WIDTH));
    let indent = " ".repeat(first.chars().count());
    let wrapped = wrap_to(text, &indent, columns);
    match wrapped.strip_prefix(indent.as_str()) {
        Some(rest) => format!("{first}{rest}"),
        None => format!("{first}{wrapped}"),
    }
}

/// `s` with `&`, `<`, `>` and `"` escaped for HTML text and attribute values.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Wraps `text` (paragraphs separated by blank lines) to the prose width (the output's,
/// at most [`PROSE_WIDTH`]), each line starting with `indent`; ends with a newline.
pub fn wrap(text: &str, indent: &str) -> String {
    wrap_to(text, indent, prose_columns())
}

/// Wraps `text` (paragraphs separated by blank lines) at `columns` characters, each line
/// starting with `indent`; a word longer than the line stays whole on its own line.
pub fn wrap_to(text: &str, indent: &str, columns: usize) -> String {
    let len = |s: &str| s.chars().count();
    let mut out = String::new();
    for (i, para) in text.split("\n\n").enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut line = String::new();
        for w in para.split_whitespace() {
            if !line.is_empty() && len(indent) + len(&line) + 1 + len(w) > columns {
                out.push_str(indent);
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(w);
        }
        if !line.is_empty() {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stay_within_the_columns_and_paragraphs_stay_apart() {
        let text = format!("{}\n\nsecond", "wörd ".repeat(40));
        let out = wrap_to(&text, "  ", 60);
        assert!(out.lines().all(|l| l.chars().count() <= 60), "{out}");
        assert!(out.lines().all(|l| l.is_empty() || l.starts_with("  ")));
        assert!(out.ends_with("\n\n  second\n"), "{out:?}");
    }

    #[test]
    fn a_note_added_twice_keeps_its_first_mark_and_hangs_under_it() {
        let mut notes = Footnotes::new();
        assert_eq!(notes.mark("first note"), "[1]");
        assert_eq!(notes.mark("second"), "[2]");
        assert_eq!(notes.mark("first note"), "[1]");
        let long = hang("[10] ", &"word ".repeat(40));
        let mut lines = long.lines();
        assert!(lines.next().is_some_and(|l| l.starts_with("[10] word")));
        assert!(lines.all(|l| l.starts_with("     word")), "{long}");
        assert_eq!(notes.render(), "[1] first note\n[2] second\n");
    }
}

/// Words of other projects written in CamelCase, as their users know them: not internals.
const KNOWN_CAMEL_CASE: &[&str] = &[
    "AdamW",
    "BatchNorm",
    "BatchSizeFinder",
    "ComputeCache",
    "DataLoader",
    "DeepSpeed",
    "FlashAttention",
    "GeForce",
    "GiB",
    "GradScaler",
    "GradientTape",
    "KiB",
    "LayerNorm",
    "LoRA",
    "MiB",
    "MultiSteps",
    "NaN",
    "OutOfMemoryError",
    "PyTorch",
    "RoPE",
    "SwiGLU",
    "TensorFlow",
    "ZeRO",
    "ZeroRedundancyOptimizer",
    "cuBLAS",
    "cuBLASLt",
    "cuDNN",
    "dK",
    "dO",
    "dP",
    "dQ",
    "dS",
    "dV",
    "dW",
    "dX",
];

/// What a text for users must not hold, one finding each: a commit hash, an issue
/// number, a source path, a Rust type or path. Citations of committed results
/// (`docs/results/...`, whatever their folders are named), web addresses and absolute
/// paths (the user's own folders) are allowed.
pub fn internals(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    for (i, _) in lower.match_indices("issue ") {
        let rest = &lower[i + "issue ".len()..];
        if rest
            .trim_start_matches('#')
            .starts_with(|c: char| c.is_ascii_digit())
        {
            found.push(format!(
                "an issue number: {}",
                &text[i..(i + 12).min(text.len())]
            ));
        }
    }
    for token in text.split_whitespace() {
        // Citations of results, web addresses and the user's own absolute paths (a run
        // folder under /tmp) are not internals.
        let bare_start = token.trim_start_matches(|c: char| "([`'\"".contains(c));
        if token.contains("docs/results/") || token.contains("://") || bare_start.starts_with('/') {
            continue;
        }
        for bad in [
            "src/",
            "tests/",
            "benches/",
            "scripts/",
            "crates/",
            "::",
            "Autodiff<",
            "Vec<",
        ] {
            if token.contains(bad) {
                found.push(format!("a source path or Rust syntax: {token}"));
            }
        }
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric());
        if bare.ends_with(".rs") {
            found.push(format!("a source file: {bare}"));
        }
        for word in bare.split(|c: char| !c.is_alphanumeric()) {
            let n = word.len();
            let hex = ((7..=12).contains(&n) || n == 40)
                && word.chars().all(|c| c.is_ascii_hexdigit())
                && word.chars().any(|c| c.is_ascii_digit())
                && word.chars().any(|c| c.is_ascii_alphabetic());
            if hex {
                found.push(format!("a commit hash? {word}"));
            }
            let camel = word
                .chars()
                .zip(word.chars().skip(1))
                .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
            // A size (24GiB) is its unit.
            let letters = word.trim_start_matches(|c: char| c.is_ascii_digit());
            if camel && !KNOWN_CAMEL_CASE.contains(&letters) {
                found.push(format!("a Rust type? {word}"));
            }
        }
    }
    found
}

/// `n` and the word, singular or plural as `n` wants: "1 time", "3 times".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` with thousands separated by commas: 124439808 -> "124,439,808".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` cut to at most `max` characters and "...", at a space where one lies in the
/// second half: for a command line in a list or a table cell, whose whole is kept elsewhere.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    let cut = match head.rfind(' ') {
        Some(i) if i >= max / 2 => &head[..i],
        _ => &head,
    };
    format!("{}...", cut.trim_end())
}

/// A command line for a table: the program's own name without its folder, the rest as
/// given, clipped to `max` characters.
pub fn brief_command(command: &str, max: usize) -> String {
    let (program, rest) = command.split_once(' ').unwrap_or((command, ""));
    let program = program
        .rsplit('/')
        .next()
        .filter(|p| !p.is_empty())
        .unwrap_or(program);
    clip(format!("{program} {rest}").trim_end(), max)
}

#[cfg(test)]
mod clip_tests {
    #[test]
    fn cuts_at_a_space_and_keeps_short_text() {
        assert_eq!(super::clip("python3 a.py", 40), "python3 a.py");
        assert_eq!(
            super::clip("python3 holder.py --size 20", 20),
            "python3 holder.py..."
        );
        assert_eq!(super::clip("abcdefghijklmnop", 8), "abcdefgh...");
    }

    #[test]
    fn a_command_loses_its_program_folder() {
        assert_eq!(
            super::brief_command(
                "/opt/venv/bin/python3 -B -c from multiprocessing.spawn import x",
                40
            ),
            "python3 -B -c from multiprocessing.spawn..."
        );
        assert_eq!(super::brief_command("./train", 40), "train");
    }
}

#[cfg(test)]
mod thousands_tests {
    #[test]
    fn groups_of_three() {
        assert_eq!(super::thousands(124_439_808), "124,439,808");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
    }
}

//! Laying out the topics for the output's width. The texts are written as plain text with
//! a little structure, and reflowed here when they are printed:
//!
//! - paragraphs, separated by blank lines: their lines are joined and wrapped at the prose
//!   width (the output's, at most [`crate::text::PROSE_WIDTH`]);
//! - list items, lines starting with `- `, `* ` or `N. ` (after any indentation), their
//!   continuation lines indented: each item is one paragraph with its mark hanging;
//! - tables, lines starting with `| ` and ending with ` |`, cells between ` | `, the first
//!   row the header: laid out by comfy-table for the output's width (cells fold at spaces;
//!   under `--wide` nothing folds);
//! - any other indented line is kept as it is.
//!
//! Everything takes the width as an argument, so a test can render at the width the pages
//! in docs/techniques are made at.

use comfy_table::{CellAlignment, ContentArrangement};

use crate::text::{wrap_to, Width, PROSE_WIDTH};

/// One block of a text.
#[derive(Debug, Clone, PartialEq)]
enum Block {
    /// A blank line.
    Blank,
    /// A paragraph, its lines joined.
    Prose(String),
    /// A list item: its mark (with any indentation before it) and its text, joined.
    Item { mark: String, text: String },
    /// A line kept as it is.
    Verbatim(String),
    /// A table's rows, the first the header.
    Table(Vec<Vec<String>>),
}

/// The columns prose is wrapped at for `width`: at most [`PROSE_WIDTH`].
pub(super) fn prose_columns(width: Width) -> usize {
    width.columns().unwrap_or(PROSE_WIDTH).min(PROSE_WIDTH)
}

/// A table row's cells, if `line` is one (`| a | b |`).
fn table_row(line: &str) -> Option<Vec<String>> {
    let line = line.trim_end();
    let inner = line.strip_prefix("| ")?.strip_suffix(" |")?;
    Some(inner.split(" | ").map(|c| c.trim().to_string()).collect())
}

/// A table row of `cells`, as [`layout`] reads it (an empty cell is written `-`; a cell's
/// own ` | ` becomes ` / `, so that it stays one cell).
pub(super) fn row<S: AsRef<str>>(cells: &[S]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|c| {
            let c = c.as_ref().replace('\n', " ").replace(" | ", " / ");
            match c.trim() {
                "" => "-".to_string(),
                t => t.to_string(),
            }
        })
        .collect();
    format!("| {} |\n", cells.join(" | "))
}

/// The mark of a list item that `line` starts (its indentation included: `"  - "`), if
/// it starts one.
fn item_mark(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let indent = line.len() - rest.len();
    let mark_len = if rest.starts_with("- ") || rest.starts_with("* ") {
        2
    } else {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 2 || !rest[digits..].starts_with(". ") {
            return None;
        }
        digits + 2
    };
    line.get(..indent + mark_len)
}

/// The blocks of `text`.
fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push(Block::Blank);
            continue;
        }
        if let Some(cells) = table_row(line) {
            match out.last_mut() {
                Some(Block::Table(rows)) => rows.push(cells),
                _ => out.push(Block::Table(vec![cells])),
            }
            continue;
        }
        if let Some(mark) = item_mark(line) {
            out.push(Block::Item {
                mark: mark.to_string(),
                text: line[mark.len()..].trim().to_string(),
            });
            continue;
        }
        let indented = line.starts_with(' ');
        match out.last_mut() {
            Some(Block::Item { text, .. }) if indented => {
                text.push(' ');
                text.push_str(line.trim());
            }
            Some(Block::Prose(p)) if !indented => {
                p.push(' ');
                p.push_str(line.trim());
            }
            _ if indented => out.push(Block::Verbatim(line.trim_end().to_string())),
            _ => out.push(Block::Prose(line.trim().to_string())),
        }
    }
    out
}

/// `text` as one paragraph starting with `first`, its following lines indented by as many
/// spaces, wrapped at `columns`; ends with a newline (as [`crate::text::hang`], at a width
/// given).
pub(super) fn hang_to(first: &str, text: &str, columns: usize) -> String {
    let indent = " ".repeat(first.chars().count());
    let wrapped = wrap_to(text, &indent, columns);
    match wrapped.strip_prefix(indent.as_str()) {
        Some(rest) => format!("{first}{rest}"),
        None => format!("{first}{wrapped}"),
    }
}

/// Whether a table cell reads as a figure (right-aligned): it starts with a digit, a sign
/// or a dot, or it is `-`.
fn figure(cell: &str) -> bool {
    cell == "-"
        || cell
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '+' || c == '.')
        || (cell.starts_with('-') && cell[1..].starts_with(|c: char| c.is_ascii_digit()))
}

/// `rows` (the first the header) as a table laid out for `width`; ends with a newline.
fn table_to(rows: &[Vec<String>], width: Width) -> String {
    let mut t = crate::text::table();
    match width.columns() {
        Some(c) => {
            t.set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(c).unwrap_or(u16::MAX));
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    let Some((header, body)) = rows.split_first() else {
        return String::new();
    };
    t.set_header(header.clone());
    for r in body {
        t.add_row(r.clone());
    }
    // Columns of figures are right-aligned, as every table of oomlab's prints them.
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    for i in 0..columns {
        let numeric = !body.is_empty() && body.iter().all(|r| r.get(i).is_some_and(|c| figure(c)));
        if numeric {
            if let Some(column) = t.column_mut(i) {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
    }
    format!("{t}\n")
}

/// `text` laid out for `width` (see the module's documentation).
pub(super) fn layout(text: &str, width: Width) -> String {
    let prose = prose_columns(width);
    let mut out = String::new();
    for block in blocks(text) {
        match block {
            Block::Blank => out.push('\n'),
            Block::Prose(p) => out.push_str(&wrap_to(&p, "", prose)),
            Block::Item { mark, text } => out.push_str(&hang_to(&mark, &text, prose)),
            Block::Verbatim(line) => {
                out.push_str(&line);
                out.push('\n');
            }
            Block::Table(rows) => out.push_str(&table_to(&rows, width)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_reflow_and_items_hang() {
        let text = "A paragraph written\nover two lines.\n\n- an item whose text\n  goes on here\n  1. a numbered one\n    that goes on\nProse again.\n    kept as it is\n";
        let out = layout(text, Width::Columns(100));
        assert_eq!(
            out,
            "A paragraph written over two lines.\n\n- an item whose text goes on here\n  1. a numbered one that goes on\nProse again.\n    kept as it is\n"
        );
        let narrow = layout(&format!("- {}", "word ".repeat(30)), Width::Columns(40));
        assert!(narrow.lines().all(|l| l.chars().count() <= 40), "{narrow}");
        assert!(
            narrow.lines().skip(1).all(|l| l.starts_with("  word")),
            "{narrow}"
        );
    }

    #[test]
    fn prose_stops_at_the_prose_width_and_tables_fit_the_width() {
        let long = "word ".repeat(60);
        let wide = layout(&long, Width::Columns(200));
        assert!(
            wide.lines().all(|l| l.chars().count() <= PROSE_WIDTH),
            "{wide}"
        );
        let table = format!(
            "{}{}",
            row(&["name", "what", "figure"]),
            row(&["first", long.trim(), "1.0 ms"])
        );
        for columns in [40, 80, 100] {
            let out = layout(&table, Width::Columns(columns));
            assert!(
                out.lines().all(|l| l.chars().count() <= columns),
                "{columns}: {out}"
            );
            assert!(out.contains("1.0 ms"), "{out}");
        }
        assert!(layout(&table, Width::Unlimited)
            .lines()
            .any(|l| l.chars().count() > 200));
    }

    #[test]
    fn an_empty_cell_is_written_as_a_dash_and_a_row_reads_back() {
        assert_eq!(row(&["a", "", "c"]), "| a | - | c |\n");
        assert_eq!(
            table_row("| a | - | c |"),
            Some(vec!["a".to_string(), "-".to_string(), "c".to_string()])
        );
        assert_eq!(item_mark("  12. x"), Some("  12. "));
        assert_eq!(item_mark("2026-12-07. x"), None);
        assert_eq!(item_mark("-x"), None);
    }
}

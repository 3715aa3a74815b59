//! Text labels of an SVG chart, placed so that none covers another.
//!
//! Each label asks for a place (its anchor point, centred on x, baseline at y); a label
//! that would overlap one placed before it moves up a line at a time until it is clear.
//! Widths are estimated from the character count (the charts use the browser's default
//! sans-serif, digits about 0.6 em wide), so the check errs towards moving.

use std::fmt::Write;

use crate::text::html_escape as esc;

/// One label: centred on `x`, its baseline at `y`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Label {
    pub x: f64,
    pub y: f64,
    pub size: f64,
    pub text: String,
}

impl Label {
    fn width(&self) -> f64 {
        self.text.chars().count() as f64 * self.size * 0.6
    }

    /// Left, top, right, bottom.
    fn bounds(&self) -> (f64, f64, f64, f64) {
        let w = self.width();
        (
            self.x - w / 2.0,
            self.y - self.size,
            self.x + w / 2.0,
            self.y + self.size * 0.25,
        )
    }

    fn overlaps(&self, other: &Label) -> bool {
        let (a, b) = (self.bounds(), other.bounds());
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }
}

/// The labels moved up, in order, until none overlaps one before it.
pub(super) fn place(labels: Vec<Label>) -> Vec<Label> {
    let mut placed: Vec<Label> = Vec::with_capacity(labels.len());
    for mut label in labels {
        // Bounded: each move clears at least one line, and there are finitely many labels.
        for _ in 0..=placed.len() {
            match placed.iter().find(|p| label.overlaps(p)) {
                Some(p) => label.y = p.bounds().1 - label.size * 0.3,
                None => break,
            }
        }
        placed.push(label);
    }
    placed
}

/// The placed labels as SVG `<text>` elements.
pub(super) fn write_all(s: &mut String, labels: Vec<Label>) {
    for l in place(labels) {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{}\" text-anchor=\"middle\">{}</text>",
            l.x,
            l.y,
            l.size,
            esc(&l.text)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(x: f64, y: f64, text: &str) -> Label {
        Label {
            x,
            y,
            size: 10.0,
            text: text.into(),
        }
    }

    #[test]
    fn neighbours_at_one_height_are_stacked_and_apart_ones_stay() {
        // Two bars' labels 54 px apart, each ~80 px wide: the second moves above the first.
        let placed = place(vec![
            label(100.0, 50.0, "peak 28.9 MiB"),
            label(154.0, 51.0, "peak 29.0 MiB"),
            label(400.0, 50.0, "12.0 MiB"),
        ]);
        assert_eq!(placed[0].y, 50.0);
        assert!(placed[1].y < 50.0 - 10.0, "{placed:?}");
        assert!(!placed[1].overlaps(&placed[0]));
        assert_eq!(placed[2].y, 50.0);
    }

    #[test]
    fn a_label_moves_past_every_label_it_would_meet() {
        let placed = place(vec![
            label(100.0, 50.0, "25.7 MiB"),
            label(100.0, 38.0, "peak 26.3 MiB"),
            label(110.0, 50.0, "25.9 MiB"),
        ]);
        for i in 0..placed.len() {
            for j in 0..i {
                assert!(!placed[i].overlaps(&placed[j]), "{placed:?}");
            }
        }
    }
}

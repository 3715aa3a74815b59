//! GPUs for "which card do I need" and `--card`: each card's memory as a framework sees
//! it (the total PyTorch's out-of-memory message prints), read from datasets/cards.toml,
//! where every figure has the address of the public post it was copied from.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::units::{parse_size, Bytes};

/// A card to size for: a card of the list, or a capacity the user gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// What the output calls it: `RTX 4090 (24 GB, 23.64 GiB visible)` or `20.00 GiB`.
    pub name: String,
    /// The memory a framework can use on it: the card's total as PyTorch reports it.
    pub bytes: Bytes,
    /// Where the figure comes from (a card of the list: its source's address), and, for a
    /// size that stands for a card class, which card it is read as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One card of the built-in list (a `[[card]]` of datasets/cards.toml).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct CardSpec {
    /// Its name, as `--card` takes it (case, spaces and dashes ignored).
    pub name: String,
    /// The vendor's "GB".
    pub nominal_gb: u64,
    /// The total PyTorch reports for it, in GiB as printed.
    pub capacity_gib: f64,
    /// Whether `--card <nominal>GB` stands for this card.
    #[serde(default)]
    pub class: bool,
    /// The address of the post the figure was copied from, or the committed log of
    /// oomlab's own measurement (docs/results/...).
    pub source: String,
    /// The words there, shortened with `...`.
    pub quote: String,
    /// The other figures users posted for it.
    pub seen: String,
}

impl CardSpec {
    /// Its capacity in bytes (the printed GiB, to the MiB).
    pub fn bytes(&self) -> Bytes {
        Bytes((self.capacity_gib * 1024.0).round() as u64 * (1 << 20))
    }

    /// As a card to size for.
    pub fn card(&self) -> Card {
        Card {
            name: format!(
                "{} ({} GB, {:.2} GiB visible)",
                self.name, self.nominal_gb, self.capacity_gib
            ),
            bytes: self.bytes(),
            note: Some(format!(
                "{}: {:.2} GiB, the total PyTorch reports for it ({})",
                self.name, self.capacity_gib, self.source
            )),
        }
    }
}

#[derive(Deserialize)]
struct CardsFile {
    card: Vec<CardSpec>,
}

/// The list as committed, parsed once.
fn parsed() -> Result<&'static [CardSpec], &'static str> {
    static LIST: OnceLock<Result<Vec<CardSpec>, String>> = OnceLock::new();
    LIST.get_or_init(|| {
        toml::from_str::<CardsFile>(include_str!("../../datasets/cards.toml"))
            .map(|f| f.card)
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map(Vec::as_slice)
    .map_err(String::as_str)
}

/// Every card of the built-in list, smallest capacity first (empty only if the compiled-in
/// list does not parse, which a test rules out).
pub fn card_list() -> Vec<&'static CardSpec> {
    let mut list: Vec<&CardSpec> = parsed().map(|l| l.iter().collect()).unwrap_or_default();
    list.sort_by(|a, b| a.capacity_gib.total_cmp(&b.capacity_gib));
    list
}

/// Every card of the built-in list as a card to size for, smallest first.
pub fn cards() -> Vec<Card> {
    card_list().into_iter().map(CardSpec::card).collect()
}

/// The smallest card of the list whose capacity holds `needed`.
pub fn smallest_holding(needed: Bytes) -> Option<&'static CardSpec> {
    card_list().into_iter().find(|c| c.bytes() >= needed)
}

/// The smallest card `--card` takes: below it no GPU trains anything oomlab sizes.
pub const SMALLEST_CARD: Bytes = Bytes(256 << 20);

/// Headroom under this share of the card is too thin to trust: another driver or library
/// version moves the capacity and the peak by about as much.
pub const THIN_HEADROOM: f64 = 0.05;

/// A `--card` value: a card's name from the list (`H100`, `rtx 4090`; case, spaces and
/// dashes ignored); a whole size the list has (`24GB`, `24GiB`, `80GB`), read as the card
/// of that size the list marks and said so; or any other size, taken as the capacity.
pub fn parse_card(arg: &str) -> Result<Card, String> {
    if arg.trim_start().starts_with('-') {
        return Err(format!(
            "--card {arg}: a card's memory must be positive (e.g. 24GB, or a name such as H100)"
        ));
    }
    let squash = |s: &str| s.to_lowercase().replace([' ', '-', '_'], "");
    let wanted = squash(arg);
    let list = card_list();
    if let Some(c) = list.iter().find(|c| squash(&c.name) == wanted) {
        return Ok(c.card());
    }
    match parse_size(arg) {
        Ok(bytes) if bytes < SMALLEST_CARD => Err(format!(
            "the card must have at least {SMALLEST_CARD} of memory"
        )),
        Ok(bytes) => {
            // "24GB" and "24GiB" both mean the 24 GB card a user owns, never 24.00 GiB
            // free for tensors: read them as the list's card of that size.
            // Only a whole number of GB or GiB as a user says it ("24GB", "24GiB", "24G");
            // "24.00GiB" or "24576MiB" stays the exact capacity.
            let digits = arg.trim().trim_end_matches(['b', 'B']).trim_end_matches(['i']);
            let whole = digits
                .strip_suffix(['g', 'G'])
                .is_some_and(|n| !n.is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()));
            let nominal = if !whole {
                None
            } else if bytes.0 % (1 << 30) == 0 {
                Some(bytes.0 >> 30)
            } else if bytes.0 % 1_000_000_000 == 0 {
                Some(bytes.0 / 1_000_000_000)
            } else {
                None
            };
            let class = list
                .iter()
                .find(|c| c.class && Some(c.nominal_gb) == nominal);
            Ok(match class {
                Some(c) => {
                    let others: Vec<String> = list
                        .iter()
                        .filter(|o| o.nominal_gb == c.nominal_gb && o.name != c.name)
                        .map(|o| format!("{} {:.2} GiB", o.name, o.capacity_gib))
                        .collect();
                    Card {
                        name: format!(
                            "a {} GB card ({:.2} GiB visible, the {}'s)",
                            c.nominal_gb, c.capacity_gib, c.name
                        ),
                        bytes: c.bytes(),
                        note: Some(format!(
                            "--card {arg} is read as a {} GB card: {:.2} GiB, the total PyTorch reports for the {} ({}), not {}; {}give the exact figure (--card {:.2}GiB) or the card's name",
                            c.nominal_gb,
                            c.capacity_gib,
                            c.name,
                            c.source,
                            Bytes(bytes.0),
                            if others.is_empty() {
                                String::new()
                            } else {
                                format!("other cards of that size: {}; ", others.join(", "))
                            },
                            c.capacity_gib
                        )),
                    }
                }
                None => Card {
                    name: bytes.to_string(),
                    bytes,
                    note: None,
                },
            })
        }
        Err(e) => Err(format!(
            "not a size ({e}) and not a card oomlab knows; sizes like 24GB or 23.64GiB, or one of: {}",
            list.iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The card-list sentence under a table: the cards that end the list at each size.
pub fn list_line() -> String {
    card_list()
        .iter()
        .map(|c| format!("{} {:.2}", c.name, c.capacity_gib))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_list_parses_and_every_card_has_its_source() {
        let list = parsed().unwrap();
        assert!(list.len() >= 15, "{}", list.len());
        for c in list {
            let measured = c.source.starts_with("docs/results/");
            assert!(
                c.source.starts_with("https://") || measured,
                "{}: {}",
                c.name,
                c.source
            );
            if measured {
                let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
                let log = std::fs::read_to_string(root.join(&c.source)).unwrap();
                assert!(log.contains(&c.quote), "{}: {}", c.name, c.source);
            }
            // The figure is below the vendor's GB read as GiB: what the list is for.
            assert!(
                c.capacity_gib < c.nominal_gb as f64,
                "{}: {} GiB",
                c.name,
                c.capacity_gib
            );
            // The quote holds the figure (as printed, or a size that gives it).
            assert!(!c.quote.is_empty() && !c.seen.is_empty(), "{}", c.name);
        }
        // One card stands for each whole size.
        let mut sizes: Vec<u64> = list.iter().map(|c| c.nominal_gb).collect();
        sizes.dedup();
        for gb in sizes {
            let classes = list.iter().filter(|c| c.nominal_gb == gb && c.class);
            assert_eq!(classes.count(), 1, "{gb} GB");
        }
    }

    #[test]
    fn a_card_too_small_to_size_for_is_refused() {
        for tiny in ["0GiB", "1B", "100MiB"] {
            let e = parse_card(tiny).unwrap_err();
            assert!(e.contains("at least 256.0 MiB"), "{e}");
        }
    }

    #[test]
    fn a_nominal_size_is_read_as_its_card_and_says_so() {
        let c = parse_card("24GiB").unwrap();
        assert_eq!(c.bytes, Bytes(24207 << 20), "{c:?}");
        assert!(c.name.contains("23.64 GiB"), "{}", c.name);
        let note = c.note.unwrap();
        assert!(
            note.contains("RTX 4090") && note.contains("A10 21.99"),
            "{note}"
        );
        assert_eq!(parse_card("24GB").unwrap().bytes, Bytes(24207 << 20));
        assert_eq!(parse_card("80GB").unwrap().bytes, Bytes(81080 << 20));
        // A size that is not a card's stays exact, and so does one written exactly.
        assert_eq!(parse_card("23.64GiB").unwrap().bytes.0 >> 20, 24207);
        assert_eq!(parse_card("20GiB").unwrap().bytes, Bytes(20 << 30));
        assert_eq!(parse_card("24.00GiB").unwrap().bytes, Bytes(24 << 30));
        assert_eq!(parse_card("24576MiB").unwrap().bytes, Bytes(24 << 30));
    }

    #[test]
    fn a_card_is_found_by_name() {
        assert_eq!(parse_card("rtx 4090").unwrap().bytes, Bytes(24207 << 20));
        assert_eq!(parse_card("H100").unwrap().bytes, Bytes(81080 << 20));
        assert_eq!(parse_card("h200").unwrap().bytes, Bytes(143165 << 20));
        let err = parse_card("voodoo2").unwrap_err();
        assert!(
            err.contains("'voodoo2' is not a size") && err.contains("H200"),
            "{err}"
        );
    }

    #[test]
    fn the_smallest_card_holding_a_size_is_the_first_large_enough() {
        let c = smallest_holding(Bytes(23 << 30)).unwrap();
        assert_eq!(c.name, "RTX 3090");
        assert!(smallest_holding(Bytes(200 << 30)).is_none());
        let sizes: Vec<f64> = card_list().iter().map(|c| c.capacity_gib).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
    }
}

//! Common GPU sizes, by name and by size, for "which card do I need" and `--card`.

use serde::{Deserialize, Serialize};

use crate::units::{parse_size, Bytes};

/// A card size and the cards that have it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// What `--card` calls it and what the table prints, e.g. `24 GB (RTX 4090, L4)`.
    pub name: String,
    /// Its memory: the vendor's "GB" read as GiB, which is about what NVML reports as
    /// the card's total (an RTX 4090 shows 24,564 MiB, an A100-80GB 81,920 MiB).
    pub bytes: Bytes,
}

/// The built-in list, smallest first: (GB, cards with that much memory).
pub const CARDS: &[(u64, &str)] = &[
    (8, "RTX 4060, RTX 3070"),
    (12, "RTX 4070, RTX 3060"),
    (16, "RTX 4080, T4, V100-16GB"),
    (24, "RTX 4090, RTX 3090, A10, L4"),
    (40, "A100-40GB"),
    (48, "RTX 6000 Ada, A6000, L40S"),
    (80, "A100-80GB, H100"),
    (94, "H100 NVL"),
    (141, "H200"),
];

/// Every card of the built-in list.
pub fn cards() -> Vec<Card> {
    CARDS
        .iter()
        .map(|(gb, names)| Card {
            name: format!("{gb} GB ({names})"),
            bytes: Bytes(gb << 30),
        })
        .collect()
}

/// A `--card` value: a size (`24GiB`, `24GB`, `24G`) or a card name of the list
/// (`H100`, `rtx 4090`, case and spaces ignored).
pub fn parse_card(arg: &str) -> Result<Card, String> {
    let squash = |s: &str| s.to_lowercase().replace([' ', '-', '_'], "");
    let wanted = squash(arg);
    for (gb, names) in CARDS {
        for name in names.split(", ") {
            if squash(name) == wanted {
                return Ok(Card {
                    name: format!("{name} ({gb} GB)"),
                    bytes: Bytes(gb << 30),
                });
            }
        }
    }
    match parse_size(arg) {
        Ok(bytes) => Ok(Card {
            name: bytes.to_string(),
            bytes,
        }),
        Err(e) => Err(format!(
            "--card {arg}: not a size ({e}) and not a card oomlab knows; sizes like 24GiB or 24GB, or one of: {}",
            CARDS
                .iter()
                .flat_map(|(_, n)| n.split(", "))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_found_by_size_or_by_name() {
        assert_eq!(parse_card("24GiB").unwrap().bytes, Bytes(24 << 30));
        assert_eq!(parse_card("rtx 4090").unwrap().bytes, Bytes(24 << 30));
        assert_eq!(parse_card("H100").unwrap().bytes, Bytes(80 << 30));
        let err = parse_card("voodoo2").unwrap_err();
        assert!(
            err.contains("--card voodoo2") && err.contains("H200"),
            "{err}"
        );
    }

    #[test]
    fn the_list_is_sorted_smallest_first() {
        let sizes: Vec<u64> = cards().iter().map(|c| c.bytes.0).collect();
        let mut sorted = sizes.clone();
        sorted.sort();
        assert_eq!(sizes, sorted);
        assert_eq!(sizes.len(), 9);
    }
}

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

/// The smallest card `--card` takes: below it no GPU trains anything oomlab sizes.
pub const SMALLEST_CARD: Bytes = Bytes(256 << 20);

/// The H200's memory as NVML reports it (143,771 MiB, 140.40 GiB on every H200 the
/// project measured): its "141 GB" is decimal gigabytes, unlike the others' GiB.
const H200_BYTES: Bytes = Bytes(143_771 << 20);

/// A card's memory: the H200's as measured, the others' vendor "GB" read as GiB.
fn card_bytes(gb: u64) -> Bytes {
    if gb == 141 {
        H200_BYTES
    } else {
        Bytes(gb << 30)
    }
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
            bytes: card_bytes(*gb),
        })
        .collect()
}

/// A `--card` value: a size (`24GiB`, `24GB`, `24G`) or a card name of the list
/// (`H100`, `rtx 4090`, case and spaces ignored).
pub fn parse_card(arg: &str) -> Result<Card, String> {
    if arg.trim_start().starts_with('-') {
        return Err(format!(
            "--card {arg}: a card's memory must be positive (e.g. 24GiB, or a name such as H100)"
        ));
    }
    let squash = |s: &str| s.to_lowercase().replace([' ', '-', '_'], "");
    let wanted = squash(arg);
    for (gb, names) in CARDS {
        for name in names.split(", ") {
            if squash(name) == wanted {
                return Ok(Card {
                    name: format!("{name} ({gb} GB)"),
                    bytes: card_bytes(*gb),
                });
            }
        }
    }
    match parse_size(arg) {
        Ok(bytes) if bytes < SMALLEST_CARD => Err(format!(
            "the card must have at least {SMALLEST_CARD} of memory"
        )),
        Ok(bytes) => Ok(Card {
            name: bytes.to_string(),
            bytes,
        }),
        Err(e) => Err(format!(
            "not a size ({e}) and not a card oomlab knows; sizes like 24GiB or 24GB, or one of: {}",
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
    fn a_card_too_small_to_size_for_is_refused_and_the_h200_is_its_measured_size() {
        for tiny in ["0GiB", "1B", "100MiB"] {
            let e = parse_card(tiny).unwrap_err();
            assert!(e.contains("at least 256.0 MiB"), "{e}");
        }
        assert_eq!(parse_card("H200").unwrap().bytes, Bytes(143_771 << 20));
    }

    #[test]
    fn a_card_is_found_by_size_or_by_name() {
        assert_eq!(parse_card("24GiB").unwrap().bytes, Bytes(24 << 30));
        assert_eq!(parse_card("rtx 4090").unwrap().bytes, Bytes(24 << 30));
        assert_eq!(parse_card("H100").unwrap().bytes, Bytes(80 << 30));
        let err = parse_card("voodoo2").unwrap_err();
        assert!(
            err.contains("'voodoo2' is not a size") && err.contains("H200"),
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

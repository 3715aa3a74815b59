//! Units in one place: every table prints bytes and durations the same way.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A number of bytes, printed in binary units (KiB, MiB, GiB) everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bytes(pub u64);

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;
const GIB: u64 = 1024 * MIB;

impl Bytes {
    /// The value in mebibytes, for columns that want a plain number.
    pub fn mib(self) -> f64 {
        self.0 as f64 / MIB as f64
    }

    /// The value in gibibytes.
    pub fn gib(self) -> f64 {
        self.0 as f64 / GIB as f64
    }

    /// The size as the command line takes it, exactly: `65MiB`, `7680MiB`, `8GiB`.
    pub fn flag(self) -> String {
        if self.0 % GIB == 0 {
            format!("{}GiB", self.0 / GIB)
        } else if self.0 % MIB == 0 {
            format!("{}MiB", self.0 / MIB)
        } else {
            self.0.to_string()
        }
    }
}

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= GIB {
            write!(f, "{:.2} GiB", self.gib())
        } else if b >= MIB {
            write!(f, "{:.1} MiB", self.mib())
        } else if b >= KIB {
            write!(f, "{:.1} KiB", b as f64 / KIB as f64)
        } else {
            write!(f, "{b} B")
        }
    }
}

/// Why a size like `8GiB` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{input}' is not a size: {why}")]
pub struct ParseSizeError {
    /// What the user wrote.
    pub input: String,
    /// What is wrong with it.
    pub why: &'static str,
}

const SIZE_FORM: &str =
    "write a number with an optional unit, e.g. 512MiB, 8GiB, 1.5GB or 4096 (bytes)";

/// Reads a size such as `512MiB`, `8GiB`, `1.5GB`, `300k` or `4096`.
///
/// Binary (`KiB`, `MiB`, `GiB`, `TiB`) and decimal (`KB`, `MB`, `GB`, `TB`) units are both
/// accepted; a bare `K`/`M`/`G`/`T` means the binary unit, as `nvidia-smi` users expect.
pub fn parse_size(input: &str) -> Result<Bytes, ParseSizeError> {
    let err = || ParseSizeError {
        input: input.to_string(),
        why: SIZE_FORM,
    };
    let s = input.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let value: f64 = num.parse().map_err(|_| err())?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => KIB as f64,
        "m" | "mib" => MIB as f64,
        "g" | "gib" => GIB as f64,
        "t" | "tib" => (GIB * KIB) as f64,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        _ => return Err(err()),
    };
    if !value.is_finite() || value < 0.0 {
        return Err(err());
    }
    let bytes = (value * mult).round();
    // `as u64` would saturate: 20000000TiB would silently become 16 EiB.
    if bytes >= u64::MAX as f64 {
        return Err(ParseSizeError {
            input: input.to_string(),
            why: "more bytes than a 64-bit count holds (16 EiB); no memory is that large",
        });
    }
    Ok(Bytes(bytes as u64))
}

/// Formats a duration for humans: `850 ms`, `12.3 s`, `4 min 05 s`.
pub fn fmt_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1.0 {
        format!("{:.0} ms", secs * 1000.0)
    } else if secs < 120.0 {
        format!("{secs:.1} s")
    } else {
        let whole = d.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_too_large_for_64_bits_is_refused_not_saturated() {
        assert_eq!(parse_size("16TiB").unwrap(), Bytes(16 * GIB * KIB));
        let e = parse_size("1e30GiB").err();
        // '1e30GiB' has an 'e' in the number: refused as a form; a long number is refused
        // for its size.
        assert!(e.is_some());
        let e = parse_size("99999999999999999999").unwrap_err();
        assert!(e.to_string().contains("16 EiB"), "{e}");
        let e = parse_size("20000000TiB").unwrap_err();
        assert!(e.to_string().contains("16 EiB"), "{e}");
    }

    #[test]
    fn bytes_print_in_the_largest_binary_unit_that_fits() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
        assert_eq!(Bytes(5 * MIB + MIB / 2).to_string(), "5.5 MiB");
        assert_eq!(Bytes(3 * GIB).to_string(), "3.00 GiB");
    }

    #[test]
    fn sizes_parse_binary_and_decimal_units() {
        assert_eq!(parse_size("4096"), Ok(Bytes(4096)));
        assert_eq!(parse_size("8GiB"), Ok(Bytes(8 * GIB)));
        assert_eq!(parse_size("8g"), Ok(Bytes(8 * GIB)));
        assert_eq!(parse_size("1.5GB"), Ok(Bytes(1_500_000_000)));
        assert_eq!(parse_size(" 512 MiB "), Ok(Bytes(512 * MIB)));
    }

    #[test]
    fn nonsense_sizes_are_rejected_with_an_example() {
        let err = parse_size("lots").unwrap_err();
        assert!(err.to_string().contains("8GiB"));
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn durations_switch_units_with_magnitude() {
        assert_eq!(fmt_duration(Duration::from_millis(850)), "850 ms");
        assert_eq!(fmt_duration(Duration::from_millis(12_300)), "12.3 s");
        assert_eq!(fmt_duration(Duration::from_secs(245)), "4 min 05 s");
    }
}

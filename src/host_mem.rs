//! This process's host memory as the OS reports it.

use crate::units::Bytes;

/// Peak resident set size (`VmHWM` in `/proc/self/status`), on Linux.
pub fn peak_rss() -> Option<Bytes> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| Bytes(kb * 1024))
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn peak_rss_is_read_on_linux() {
        let rss = super::peak_rss().unwrap();
        assert!(rss.0 > 1024 * 1024, "{rss}");
    }
}

//! Reading cubecl's panic messages.

use crate::units::Bytes;

/// What a device-thread panic message means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// An allocation failed; the size when the message gives it.
    OutOfMemory(Option<Bytes>),
    /// A failure on memory that was never allocated: the aftermath of an OOM.
    Aftermath,
}

/// Classifies a panic message; `None` for anything unrelated to memory.
pub fn classify(message: &str) -> Option<Fault> {
    const SIZE_MARK: &str = "can't allocate buffer of size: ";
    if let Some(pos) = message.find(SIZE_MARK) {
        let digits: String = message[pos + SIZE_MARK.len()..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        return Some(Fault::OutOfMemory(digits.parse().ok().map(Bytes)));
    }
    let lower = message.to_ascii_lowercase();
    if lower.contains("cuda_error_out_of_memory")
        || lower.contains("out of memory")
        || lower.contains("outofmemory")
        || lower.contains("buffertoobig")
    {
        return Some(Fault::OutOfMemory(None));
    }
    if lower.contains("couldn't find resource for that handle")
        || (lower.contains("memory page") && lower.contains("doesn't exist"))
    {
        return Some(Fault::Aftermath);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubecl_buffer_failures_are_oom_with_their_size() {
        // Verbatim payload seen on the H200 (shared/notes).
        let m = "called `Result::unwrap()` on an `Err` value: can't allocate buffer of size: 37527470080";
        assert_eq!(
            classify(m),
            Some(Fault::OutOfMemory(Some(Bytes(37_527_470_080))))
        );
    }

    #[test]
    fn driver_out_of_memory_errors_are_oom_without_a_size() {
        assert_eq!(
            classify("DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")"),
            Some(Fault::OutOfMemory(None))
        );
    }

    #[test]
    fn missing_pages_after_a_failure_are_aftermath() {
        let m = "called `Result::unwrap()` on an `Err` value: couldn't find resource for that handle: Memory page 0 doesn't exist";
        assert_eq!(classify(m), Some(Fault::Aftermath));
    }

    #[test]
    fn unrelated_panics_are_not_memory_faults() {
        assert_eq!(
            classify("index out of bounds: the len is 3 but the index is 7"),
            None
        );
        assert_eq!(classify("attempt to divide by zero"), None);
    }
}

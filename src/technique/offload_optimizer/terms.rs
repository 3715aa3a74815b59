//! What moving AdamW's moments to the host costs, as `oomlab estimate` counts it: host
//! memory, the bus, and the device bytes saved. The estimate adds these terms for a run
//! on a GPU with `train.offload_optimizer`; the preflight refuses a run whose host lacks
//! them.

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// f32 moments, whatever the weights' type.
const MOMENT_BYTES: u64 = 4;

/// What offloading AdamW's moments to the host costs, per device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffloadTerms {
    /// The moments in host memory: 2 x 4 bytes a parameter (f32, whatever the weights).
    pub host_state: Bytes,
    /// Host memory at the update: the last good moments kept beside the new ones.
    pub host_peak: Bytes,
    /// Bytes over the bus a step: each gradient and weight read back, each new weight
    /// written.
    pub bus_per_step: Bytes,
    /// The device bytes the moments would take there.
    pub device_saved: Bytes,
}

impl OffloadTerms {
    /// The terms of a device that updates `owned` of the model's `params` parameters,
    /// `moments` moments each, its weights and gradients `weight_bytes` and `grad_bytes`
    /// bytes an element.
    pub fn of(params: u64, owned: u64, moments: u64, weight_bytes: u64, grad_bytes: u64) -> Self {
        OffloadTerms {
            host_state: Bytes(owned * MOMENT_BYTES * moments),
            host_peak: Bytes(2 * owned * MOMENT_BYTES * moments),
            bus_per_step: Bytes(params * (grad_bytes + 2 * weight_bytes)),
            device_saved: Bytes(owned * weight_bytes * moments),
        }
    }

    /// The estimate's line for its optimizer-state term on the device.
    pub fn state_term_how(&self) -> String {
        format!(
            "AdamW's moments in host memory (offload-optimizer): none of the {} on the device",
            self.device_saved
        )
    }

    /// The estimate report's sentence for the row `label`.
    pub fn sentence(&self, label: &str) -> String {
        format!(
            "{label}: AdamW's moments take {} of host memory ({} at the update, the last good moments kept beside the new ones), {} fewer on the device; {} cross the bus a step (gradients and weights read back, new weights written).",
            self.host_state, self.host_peak, self.device_saved, self.bus_per_step
        )
    }
}

/// Host memory a run of `params` parameters needs at the update: the last good moments
/// beside the new ones, 16 bytes a parameter (two f32 moments, twice).
pub fn host_need(params: u64) -> Bytes {
    Bytes(params * 2 * 2 * MOMENT_BYTES)
}

/// Why a run is refused when the host has `available` of the `need` it must hold.
pub fn host_refusal(need: Bytes, available: Bytes) -> String {
    format!(
        "offload-optimizer keeps AdamW's moments in host memory: {need} at the update (the last good moments beside the new ones), and this machine has {available} available; free host memory, or train without offload-optimizer"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_holds_two_f32_moments_twice_and_the_bus_three_copies() {
        // f32: 4-byte weights and gradients; every parameter on this device.
        let t = OffloadTerms::of(1000, 1000, 2, 4, 4);
        assert_eq!(t.host_state, Bytes(8000));
        assert_eq!(t.host_peak, Bytes(16000));
        assert_eq!(t.device_saved, Bytes(8000));
        assert_eq!(t.bus_per_step, Bytes(12000));
        assert_eq!(host_need(1000), t.host_peak);
    }
}

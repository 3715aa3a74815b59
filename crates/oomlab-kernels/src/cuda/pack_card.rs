//! Which cards a pack made on one card is installed on (`pack/<card>/`: the compiled
//! kernels of [`super::compiled`] and the autotune results of [`super::tuned`]).
//!
//! The PTX cubecl 0.10 compiled on the H200 targets `sm_90a`: architecture-specific PTX,
//! which the driver loads on a card of compute capability 9.0 exactly (H100, H200, GH200,
//! H800, H20) and on no other. So the packs go on every card of their compute capability,
//! not only on the model they were made on. On another model of that architecture the
//! autotune results are choices timed on the pack's card: the same kernels, ranked by
//! another card's clocks and memory bandwidth. The summary says so, and `--no-tuned-pack`
//! lets the first steps tune for the card in use instead (minutes, measured on a fresh H100:
//! docs/results/2026-12-05-h100-pack-on-sm90).

/// The card a pack was made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MadeOn {
    /// The name NVML and the CUDA driver give it.
    pub name: &'static str,
    /// Its compute capability (major, minor): the PTX target of the pack's kernels.
    pub compute_capability: (i32, i32),
}

/// The H200 the shipped packs were made on (sm_90a PTX).
pub(super) const H200: MadeOn = MadeOn {
    name: "NVIDIA H200",
    compute_capability: (9, 0),
};

/// The card in use, as the driver describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardId<'a> {
    /// Its name (NVML, CUDA driver).
    pub name: &'a str,
    /// Its compute capability, when the driver gave it.
    pub compute_capability: Option<(i32, i32)>,
}

/// How a pack fits the card in use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Fit {
    /// The model it was made on.
    SameModel,
    /// Another model of the same compute capability (an H100 for the H200's pack).
    SameArchitecture,
}

impl MadeOn {
    /// Whether a pack made on this card goes on `card`: `None` when it does not.
    pub(super) fn fit(&self, card: &CardId) -> Option<Fit> {
        if card.name == self.name {
            Some(Fit::SameModel)
        } else if card.compute_capability == Some(self.compute_capability) {
            Some(Fit::SameArchitecture)
        } else {
            None
        }
    }

    /// "on an NVIDIA H200", or, on another card of its architecture, that too and what
    /// the card in use is: for the notes of the summary.
    pub(super) fn origin(&self, fit: &Fit, card: &CardId) -> String {
        let (major, minor) = self.compute_capability;
        match fit {
            Fit::SameModel => format!("on an {}", self.name),
            Fit::SameArchitecture => format!(
                "on an {} and used on this {} (the same architecture, compute capability {major}.{minor})",
                self.name, card.name
            ),
        }
    }
}

/// The compute capability of CUDA device `index` (the driver's attributes), when the
/// driver loads and has the device.
pub fn compute_capability(index: usize) -> Option<(i32, i32)> {
    use cudarc::driver::sys;
    use sys::CUdevice_attribute::{
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR as MAJOR,
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR as MINOR,
    };
    let ordinal = i32::try_from(index).ok()?;
    // SAFETY: the library's presence is checked first (cudarc panics on a call when it is
    // missing); cuInit may be called any number of times; the queries write one int each.
    unsafe {
        if !sys::is_culib_present() || sys::cuInit(0) != sys::CUresult::CUDA_SUCCESS {
            return None;
        }
        let mut dev = 0;
        if sys::cuDeviceGet(&mut dev, ordinal) != sys::CUresult::CUDA_SUCCESS {
            return None;
        }
        let (mut major, mut minor) = (0, 0);
        let ok = sys::cuDeviceGetAttribute(&mut major, MAJOR, dev) == sys::CUresult::CUDA_SUCCESS
            && sys::cuDeviceGetAttribute(&mut minor, MINOR, dev) == sys::CUresult::CUDA_SUCCESS;
        ok.then_some((major, minor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(name: &str, cc: Option<(i32, i32)>) -> CardId<'_> {
        CardId {
            name,
            compute_capability: cc,
        }
    }

    #[test]
    fn the_h200_pack_goes_on_every_compute_capability_9_0_card_and_no_other() {
        assert_eq!(H200.fit(&card("NVIDIA H200", None)), Some(Fit::SameModel));
        let h100 = card("NVIDIA H100 80GB HBM3", Some((9, 0)));
        assert_eq!(H200.fit(&h100), Some(Fit::SameArchitecture));
        assert!(H200.origin(&Fit::SameArchitecture, &h100).contains(
            "used on this NVIDIA H100 80GB HBM3 (the same architecture, compute capability 9.0)"
        ));
        for other in [
            card("NVIDIA A100-SXM4-80GB", Some((8, 0))),
            card("NVIDIA B200", Some((10, 0))),
            card("NVIDIA H100 80GB HBM3", None),
        ] {
            assert_eq!(H200.fit(&other), None, "{other:?}");
        }
    }
}

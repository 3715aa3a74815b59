//! The gradient-sync seam: what a trainer does with the other devices of its run. One
//! device is the N = 1 case ([`Alone`]: nothing to agree on, nothing to reduce); several
//! devices plug in burn's collective (`parallel::Collective`). The step is the same code
//! either way (`Trainer::try_step`), as burn-train runs single-device, multi-device and
//! DDP training as strategies of one learner.

use burn::optim::GradientsParams;

use super::error::{SyncError, TrainError};
use super::stop::StopFlag;
use super::TrainBackend;
use crate::model::Net;

/// How a trainer keeps in step with the other devices of its run.
///
/// Every call is made by every device at the same point of the same step, in this order:
/// [`join`](Self::join) once; per step [`agree`](Self::agree) after the passes,
/// [`reduce`](Self::reduce), [`own_share`](Self::own_share), the optimizer,
/// [`after_update`](Self::after_update), [`agree`](Self::agree) again; [`leave`](Self::leave)
/// when the loop ends.
pub trait GradSync<B: TrainBackend>: Send + Sync {
    /// 0-based; rank 0 reports (progress, run folder, summary).
    fn rank(&self) -> usize;
    /// Devices in the run.
    fn world(&self) -> usize;
    /// Makes the freshly built `model` the one every device starts from.
    fn join(&self, model: Net<B>, device: &B::Device) -> Result<Net<B>, SyncError>;
    /// Shares this device's result for half a step (`own`: its failure, if any) and
    /// returns what every device agrees: `Ok` with the loss summed over all devices'
    /// samples, or the failure of the lowest failed rank, so that every device's strategy
    /// takes the same decision. `Ok(None)`: nothing to agree on, this device's own result
    /// (its failure, or its loss read when convenient) stands; `own_loss` is only called
    /// when the others need it now.
    fn agree(
        &self,
        step: usize,
        own: Option<&TrainError>,
        own_loss: &dyn Fn() -> f64,
    ) -> Result<Option<f64>, TrainError>;
    /// The gradients every device applies (the mean of all devices' gradients).
    fn reduce(
        &self,
        model: &Net<B>,
        grads: GradientsParams,
        device: &B::Device,
    ) -> Result<GradientsParams, SyncError>;
    /// The gradients of the parameters whose optimizer state this device keeps.
    fn own_share(&self, model: &Net<B>, grads: GradientsParams) -> GradientsParams;
    /// The whole model after the update, when each device updated its share only.
    fn after_update(&self, updated: Net<B>, device: &B::Device) -> Result<Net<B>, SyncError>;
    /// Whether the loop should stop before the next step: the stop flag, or what the
    /// devices agreed at the last vote (so that all stop before the same step).
    fn stop_requested(&self, stop: &StopFlag) -> bool;
    /// The loop ended: devices still waiting for this one are released.
    fn leave(&self);
    /// What this device keeps of the optimizer state: (parameters, their elements);
    /// `None` when it keeps all of it.
    fn optimizer_share(&self) -> Option<(usize, usize)> {
        None
    }
    /// Whether each device keeps only its share of the optimizer state.
    fn sharded(&self) -> bool {
        false
    }
    /// What moves tensors between the devices, for the report.
    fn engine(&self) -> String {
        "none (one device)".into()
    }
}

/// One device alone: every agreement is its own result, every reduction the identity.
#[derive(Debug, Clone, Copy, Default)]
pub struct Alone;

impl<B: TrainBackend> GradSync<B> for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn world(&self) -> usize {
        1
    }
    fn join(&self, model: Net<B>, _device: &B::Device) -> Result<Net<B>, SyncError> {
        Ok(model)
    }
    fn agree(
        &self,
        _step: usize,
        _own: Option<&TrainError>,
        _own_loss: &dyn Fn() -> f64,
    ) -> Result<Option<f64>, TrainError> {
        Ok(None)
    }
    fn reduce(
        &self,
        _model: &Net<B>,
        grads: GradientsParams,
        _device: &B::Device,
    ) -> Result<GradientsParams, SyncError> {
        Ok(grads)
    }
    fn own_share(&self, _model: &Net<B>, grads: GradientsParams) -> GradientsParams {
        grads
    }
    fn after_update(&self, updated: Net<B>, _device: &B::Device) -> Result<Net<B>, SyncError> {
        Ok(updated)
    }
    fn stop_requested(&self, stop: &StopFlag) -> bool {
        stop.requested()
    }
    fn leave(&self) {}
}

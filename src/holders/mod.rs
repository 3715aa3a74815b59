//! `oomlab gpu`: what nvidia-smi and nvtop users reach for. Devices, the processes holding
//! VRAM, which of them are stale (gone or zombie), and a careful way to free VRAM.

mod free_check;
mod kill;
mod procinfo;
mod view;

pub use free_check::{free_check, FreeCheck, NoSuchGpu};
pub use kill::{plan_kill, send_signal, signal_planned, KillError, KillPlan, Signal};
pub use procinfo::{
    command_line, cuda_file_holders, process_state, stat_field, Inheritor, ProcState,
};
pub use view::{
    advice, namespace_advice, render_gpu_view, render_gpu_view_at, snapshot, GpuSnapshot, HolderRow,
};

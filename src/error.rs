//! Every way a request can fail, as one-line messages.

use std::fmt;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no CUDA driver found (libcuda could not be loaded): a CUDA GPU and its driver are needed to run kernels")]
    NoDriver,
    #[error("no usable CUDA GPU ({0}): a CUDA GPU and its driver are needed to run kernels")]
    NoDevice(String),
    #[error("the GPU is {name} (compute capability {major}.{minor}); rgemm's kernels are built for sm_90a and need a Hopper GPU (compute capability 9.0, e.g. H100 or H200)")]
    UnsupportedDevice { name: String, major: i32, minor: i32 },
    #[error("unknown kernel '{name}'{}", Suggestions(suggestions))]
    UnknownKernel { name: String, suggestions: Vec<String> },
    #[error("invalid problem: {0}")]
    InvalidProblem(String),
    /// A command-line value that is well-formed but cannot be used (not a problem's sizes).
    #[error("{0}")]
    InvalidArgument(String),
    #[error("kernel {kernel} cannot run this problem: {reason}")]
    Unsupported { kernel: String, reason: String },
    #[error("not enough GPU memory: this run needs {need_mib} MiB and {free_mib} MiB are free")]
    OutOfMemory { need_mib: u64, free_mib: u64 },
    #[error("CUDA error: {0}")]
    Cuda(String),
}

struct Suggestions<'a>(&'a [String]);

impl fmt::Display for Suggestions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [] => write!(f, " (`rgemm list` shows every kernel)"),
            names => write!(f, "; did you mean {}? (`rgemm list` shows every kernel)", names.join(", ")),
        }
    }
}

impl From<cudarc::driver::DriverError> for Error {
    fn from(e: cudarc::driver::DriverError) -> Self {
        use cudarc::driver::sys::CUresult;
        match e.0 {
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Error::Cuda("out of GPU memory".into()),
            _ => Error::Cuda(driver_message(&e)),
        }
    }
}

/// The driver's own name and sentence for an error (`CUDA_ERROR_ILLEGAL_ADDRESS: an illegal
/// memory access was encountered`). Only called after a driver call failed, so the driver is loaded.
pub(crate) fn driver_message(e: &cudarc::driver::DriverError) -> String {
    let name = e.error_name().map_or_else(|_| format!("{:?}", e.0), |s| s.to_string_lossy().into_owned());
    match e.error_string() {
        Ok(text) => format!("{name}: {}", text.to_string_lossy()),
        Err(_) => name,
    }
}

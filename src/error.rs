//! Every way a request can fail, as typed values with one-line messages.

use std::fmt;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every way a request can fail. Each variant's message is one line; match on the variant to
/// react to a kind of failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    /// A buffer given to [`crate::api::Plan::run`] holds fewer elements than the problem spans.
    #[error("{operand} holds {have} elements; the problem needs {need}")]
    BufferTooSmall { operand: Operand, have: usize, need: usize },
    /// A buffer does not start on the boundary its element type (or the plan's kernel) needs.
    #[error("{operand} starts at device address {address:#x}, not on a {need}-byte boundary")]
    Misaligned { operand: Operand, address: u64, need: u64 },
    /// C overlaps A or B: the product would read what it writes.
    #[error("C overlaps {operand}: the product would read what it writes")]
    Overlap { operand: Operand },
    /// The operands are not of the element type the plan was made for.
    #[error("the plan is for {plan} operands, these are {given}")]
    WrongElementType { plan: &'static str, given: &'static str },
    /// A stream of another CUDA context than the `Gpu`'s.
    #[error("{0}")]
    WrongContext(String),
    /// A step that cannot be captured into a CUDA graph (an upload, an allocation) was needed
    /// while the stream is being captured.
    #[error("{0}")]
    WhileCapturing(String),
    /// A dispatch table (file or text) that cannot be read or parsed.
    #[error("{0}")]
    InvalidTable(String),
    #[error("kernel {kernel} cannot run this problem: {reason}")]
    Unsupported { kernel: String, reason: String },
    #[error("not enough GPU memory: this run needs {need_mib} MiB and {free_mib} MiB are free")]
    OutOfMemory { need_mib: u64, free_mib: u64 },
    #[error("CUDA error: {0}")]
    Cuda(String),
}

/// One of the three matrices of `C = alpha·op(A)·op(B) + beta·C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    A,
    B,
    C,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operand::A => "A",
            Operand::B => "B",
            Operand::C => "C",
        })
    }
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

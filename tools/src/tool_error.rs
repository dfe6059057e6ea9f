//! Every way a tool (bench, check, emulator, report, chart, ptxas) can fail: the library's own
//! errors, and the tools' own, each as a one-line message.

use std::fmt;

pub type ToolResult<T, E = ToolError> = std::result::Result<T, E>;

/// A tool's error: the library's ([`rgemm::Error`]) or one of the tools' own.
#[derive(Debug)]
#[non_exhaustive]
pub enum ToolError {
    /// The library refused or failed.
    Library(rgemm::Error),
    /// cuBLAS could not be loaded: it is the baseline every timing is compared with.
    NoCublas,
    /// A cuBLAS call failed.
    Cublas(String),
    /// The cuBLAS baseline cannot run this output type or fused epilogue (the message names the
    /// library and why; see `baseline::libraries_for`).
    BaselineUnsupported(String),
    /// A command-line value that is well-formed but cannot be used.
    InvalidArgument(String),
    /// A problem's sizes, as written, cannot be run.
    InvalidProblem(String),
    /// Host memory is short for a check's reference.
    OutOfHostMemory { need: String, available_mib: u64 },
    /// The emulator caught a fault in a kernel.
    Fault(String),
    /// A file could not be read or written; the message names the file.
    Io(String),
    /// A report file is not what a report should be.
    InvalidReport { path: String, message: String },
    /// A chart could not be drawn.
    Chart(String),
    /// ptxas failed or could not be run.
    Ptxas(String),
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Library(e) => write!(f, "{e}"),
            ToolError::NoCublas => write!(f, "cuBLAS could not be loaded (libcublas not found); it is the baseline every run is compared with: install the CUDA toolkit or put libcublas on LD_LIBRARY_PATH"),
            ToolError::Cublas(m) => write!(f, "cuBLAS error: {m}"),
            ToolError::BaselineUnsupported(m) => write!(f, "no cuBLAS baseline: {m}"),
            ToolError::InvalidArgument(m) => write!(f, "{m}"),
            ToolError::InvalidProblem(m) => write!(f, "invalid problem: {m}"),
            ToolError::OutOfHostMemory { need, available_mib } => write!(f, "not enough host memory: this check needs {need} and {available_mib} MiB are available"),
            ToolError::Fault(m) => write!(f, "the emulator caught a fault in {m}"),
            ToolError::Io(m) => write!(f, "{m}"),
            ToolError::InvalidReport { path, message } => write!(f, "invalid report {path}: {message}"),
            ToolError::Chart(m) => write!(f, "chart: {m}"),
            ToolError::Ptxas(m) => write!(f, "ptxas: {m}"),
        }
    }
}

impl std::error::Error for ToolError {}

impl From<rgemm::Error> for ToolError {
    fn from(e: rgemm::Error) -> Self {
        ToolError::Library(e)
    }
}

impl From<cudarc::driver::DriverError> for ToolError {
    fn from(e: cudarc::driver::DriverError) -> Self {
        ToolError::Library(e.into())
    }
}

impl From<cudarc::cublas::result::CublasError> for ToolError {
    fn from(e: cudarc::cublas::result::CublasError) -> Self {
        ToolError::Cublas(format!("{:?}", e.0))
    }
}

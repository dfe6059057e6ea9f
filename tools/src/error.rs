//! Every way a tool (bench, check, emulator, report, chart, ptxas) can fail: the library's own
//! errors, and the tools' own, each as a one-line message.

use std::fmt;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A tool's error: the library's ([`rgemm::Error`]) or one of the tools' own.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The library refused or failed.
    Library(rgemm::Error),
    /// cuBLAS could not be loaded: it is the baseline every timing is compared with.
    NoCublas,
    /// A cuBLAS call failed.
    Cublas(String),
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Library(e) => write!(f, "{e}"),
            Error::NoCublas => write!(f, "cuBLAS could not be loaded (libcublas not found); it is the baseline every run is compared with: install the CUDA toolkit or put libcublas on LD_LIBRARY_PATH"),
            Error::Cublas(m) => write!(f, "cuBLAS error: {m}"),
            Error::InvalidArgument(m) => write!(f, "{m}"),
            Error::InvalidProblem(m) => write!(f, "invalid problem: {m}"),
            Error::OutOfHostMemory { need, available_mib } => write!(f, "not enough host memory: this check needs {need} and {available_mib} MiB are available"),
            Error::Fault(m) => write!(f, "the emulator caught a fault in {m}"),
            Error::Io(m) => write!(f, "{m}"),
            Error::InvalidReport { path, message } => write!(f, "invalid report {path}: {message}"),
            Error::Chart(m) => write!(f, "chart: {m}"),
            Error::Ptxas(m) => write!(f, "ptxas: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rgemm::Error> for Error {
    fn from(e: rgemm::Error) -> Self {
        Error::Library(e)
    }
}

impl From<cudarc::driver::DriverError> for Error {
    fn from(e: cudarc::driver::DriverError) -> Self {
        Error::Library(e.into())
    }
}

impl From<cudarc::cublas::result::CublasError> for Error {
    fn from(e: cudarc::cublas::result::CublasError) -> Self {
        Error::Cublas(format!("{:?}", e.0))
    }
}

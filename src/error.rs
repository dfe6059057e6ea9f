//! Every way a request can fail, as typed values with one-line messages.
//!
//! Every fallible call of the library returns [`Result`]: a bad size, a kernel that cannot run
//! a problem, a buffer too short, a missing driver are [`Error`] values, found before anything
//! is queued on the GPU where they can be; nothing in the library panics on bad input.

use std::fmt;

/// The result of every fallible call of the library: the value, or the [`Error`] that says why
/// there is none. `?` passes it on in a function that returns `rgemm::Result` (or any error type
/// that boxes a `std::error::Error`).
///
/// ```rust
/// fn flops(m: u64, n: u64, k: u64) -> rgemm::Result<f64> {
///     Ok(rgemm::Problem::new(m, n, k, 1.0, 0.0)?.flops())
/// }
/// assert_eq!(flops(2, 3, 4).unwrap(), 48.0);
/// assert!(flops(0, 3, 4).is_err());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every way a request can fail. Each variant's message is one line; match on the variant to
/// react to a kind of failure. The enum is `#[non_exhaustive]`: a match needs a `_` arm, and a
/// later version may add variants.
///
/// Asking for a kernel the catalog does not have (no GPU needed):
///
/// ```rust
/// use rgemm::Error;
///
/// match rgemm::catalog::find("sgemm_9_warptile") {
///     Err(Error::UnknownKernel { name, suggestions }) => {
///         assert_eq!(name, "sgemm_9_warptile");
///         // The names that contain it (with the rung number padded), else the nearest ones.
///         assert!(!suggestions.is_empty() && suggestions.iter().all(|s| s.starts_with("sgemm_09_warptile")));
///     }
///     Err(other) => panic!("another error: {other}"),
///     Ok(kernel) => panic!("found {}", kernel.name()),
/// }
/// ```
///
/// Every variant prints as one line (`Display`), for a message to the user:
///
/// ```rust
/// let err = rgemm::Problem::new(0, 64, 64, 1.0, 0.0).unwrap_err();
/// assert!(matches!(err, rgemm::Error::InvalidProblem(_)));
/// assert_eq!(err.to_string(), "invalid problem: M is 0; M, N and the batch count must be at least 1");
/// ```
///
/// A program that runs without a GPU where there is none:
///
/// ```no_run
/// use rgemm::{Error, Gpu};
///
/// fn main() -> rgemm::Result<()> {
///     let gpu = match Gpu::open() {
///         Ok(gpu) => gpu,
///         Err(Error::NoDriver | Error::NoDevice(_) | Error::UnsupportedDevice { .. }) => {
///             eprintln!("no Hopper GPU here: the products run elsewhere");
///             return Ok(());
///         }
///         Err(other) => return Err(other),
///     };
///     println!("{} with {} SMs", gpu.info.name, gpu.info.multiprocessors);
///     Ok(())
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The CUDA driver library (libcuda) could not be loaded: this machine has no NVIDIA driver.
    /// Only opening a [`Gpu`](crate::Gpu) needs one; planning and the catalog work without it.
    #[error("no CUDA driver found (libcuda could not be loaded): a CUDA GPU and its driver are needed to run kernels")]
    NoDriver,
    /// The driver is loaded but no device could be opened (none present, or the ordinal asked
    /// for is not one of them); the text says why, in the driver's words or rgemm's.
    #[error("no usable CUDA GPU ({0}): a CUDA GPU and its driver are needed to run kernels")]
    NoDevice(String),
    /// The device is not a Hopper GPU (compute capability 9.0): the kernels are compiled for
    /// `sm_90a` and use instructions (wgmma, TMA, clusters) no other architecture has.
    #[error("the GPU is {name} (compute capability {major}.{minor}); rgemm's kernels are built for sm_90a and need a Hopper GPU (compute capability 9.0, e.g. H100 or H200)")]
    UnsupportedDevice {
        /// The device's name, as the driver reports it.
        name: String,
        /// The major number of its compute capability (9 on Hopper).
        major: i32,
        /// The minor number of its compute capability (0 on Hopper).
        minor: i32,
    },
    /// No kernel of the catalog has this name ([`crate::catalog::find`]).
    #[error("unknown kernel '{name}'{}", Suggestions(suggestions))]
    UnknownKernel {
        /// The name asked for.
        name: String,
        /// Up to three catalog names close to it (those containing it, else the nearest by edit
        /// distance); empty when none is close.
        suggestions: Vec<String>,
    },
    /// A problem that cannot be computed as given: a size of 0 or beyond [`crate::problem::MAX_DIM`],
    /// a scalar that is not finite, a leading dimension shorter than its row, overlapping
    /// matrices of C, an extent too large to address, operands whose shapes disagree. The text
    /// names the field and the rule ([`crate::Problem::general`] checks them all).
    #[error("invalid problem: {0}")]
    InvalidProblem(String),
    /// A buffer given to [`crate::api::Plan::run`] holds fewer elements than the problem spans.
    #[error("{operand} holds {have} elements; the problem needs {need}")]
    BufferTooSmall {
        /// Which buffer.
        operand: Operand,
        /// Elements the buffer holds.
        have: usize,
        /// Elements the problem spans in it, padding and batch included
        /// ([`crate::Problem::extents`]).
        need: usize,
    },
    /// A buffer does not start on the boundary its element type (or the plan's kernel) needs.
    #[error("{operand} starts at device address {address:#x}, not on a {need}-byte boundary")]
    Misaligned {
        /// Which buffer.
        operand: Operand,
        /// The buffer's device address, in bytes.
        address: u64,
        /// The boundary it must start on, in bytes.
        need: u64,
    },
    /// An output (C, or the auxiliary output) overlaps another operand: the product would read
    /// (or write twice) what it writes.
    #[error("{written} overlaps {operand}: the product would read what it writes")]
    Overlap {
        /// The operand the output overlaps: A, B, the bias, or C (for the auxiliary output).
        operand: Operand,
        /// The output: C, or [`Operand::Aux`].
        written: Operand,
    },
    /// The operands are not of the element type the plan was made for.
    #[error("the plan is for {plan} operands, these are {given}")]
    WrongElementType {
        /// The plan's element type (`f32`, `bf16` or `f16`).
        plan: &'static str,
        /// The element type of the operands given.
        given: &'static str,
    },
    /// C (or the bias, or the auxiliary output) is not of the type the plan writes.
    #[error("the plan writes C as {plan}, this one holds {given}")]
    WrongOutputType {
        /// The plan's output type (`f32`, `bf16` or `f16`).
        plan: &'static str,
        /// The element type of the buffer given.
        given: &'static str,
    },
    /// The plan's epilogue reads a bias (or writes an auxiliary output) and none was given.
    #[error("the plan's epilogue needs {operand}, and none was given")]
    MissingOperand {
        /// [`Operand::Bias`] or [`Operand::Aux`].
        operand: Operand,
    },
    /// A bias (or an auxiliary output) was given to a plan whose epilogue has none.
    #[error("{operand} was given, but the plan's epilogue has none")]
    UnexpectedOperand {
        /// [`Operand::Bias`] or [`Operand::Aux`].
        operand: Operand,
    },
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
    /// A tuning cache ([`TuneCache`](crate::choice::TuneCache)) whose file cannot be read,
    /// parsed or written, or that was tuned on another device than the one it is used on.
    #[error("tuning cache {0}")]
    InvalidTuneCache(String),
    /// A kernel that cannot run the problem as given: another layout, a leading dimension or
    /// batch stride its copies cannot read, a grid beyond the hardware's limits, operands that
    /// start off the boundary it needs. The automatic choice never returns it for a valid
    /// problem (the general kernel takes every one); a named kernel may.
    #[error("kernel {kernel} cannot run this problem: {reason}")]
    Unsupported {
        /// The kernel's name (or `auto` when no candidate of the automatic choice takes it).
        kernel: String,
        /// Why, in one sentence.
        reason: String,
    },
    /// Too little free device memory for a run, found before allocating (a workspace that must
    /// grow, say): the free memory is asked for first.
    #[error("not enough GPU memory: this run needs {need_mib} MiB and {free_mib} MiB are free")]
    OutOfMemory {
        /// MiB the run needs, headroom included.
        need_mib: u64,
        /// MiB free on the device when asked.
        free_mib: u64,
    },
    /// A call of the CUDA driver failed: the driver's name for the error and its sentence
    /// (`CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered`), or what rgemm
    /// was doing when it failed.
    #[error("CUDA error: {0}")]
    Cuda(String),
}

/// One of the operands of `C = act(alpha·op(A)·op(B) + beta·C + bias)`, as errors name them.
///
/// ```rust
/// use rgemm::{Error, Operand};
///
/// let err = Error::BufferTooSmall { operand: Operand::C, have: 10, need: 12 };
/// assert_eq!(err.to_string(), "C holds 10 elements; the problem needs 12");
/// assert_eq!(Operand::Bias.to_string(), "the bias");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operand {
    /// The left factor, `op(A)` M×K.
    A,
    /// The right factor, `op(B)` K×N.
    B,
    /// The result, M×N, of the epilogue's output type (read too when beta ≠ 0).
    C,
    /// The fused epilogue's bias vector: N values (or M), of C's type.
    Bias,
    /// The fused epilogue's auxiliary output (the pre-activation), shaped as C.
    Aux,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operand::A => "A",
            Operand::B => "B",
            Operand::C => "C",
            Operand::Bias => "the bias",
            Operand::Aux => "the auxiliary output",
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

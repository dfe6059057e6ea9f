//! rgemm: GEMM kernels written in Rust, compiled to PTX, launched from Rust, checked against an
//! f64 reference and timed against cuBLAS.
//!
//! - [`catalog`]: every kernel of the PTX module with its launch geometry and size constraints.
//! - [`problem`]: a GEMM's sizes and scalars, validated before anything touches the GPU.
//! - [`gpu`]: the CUDA context, the loaded module, launches and cuBLAS (through cudarc).
//! - [`check`]: inputs, the f64 reference and the relative Frobenius error.
//! - [`dispatch`]: the measured dispatch table behind the automatic choice of kernel and split.
//! - [`timing`]: timing with CUDA events (median of event pairs, L2 flushes between launches).
//! - [`bench`](mod@bench): the runner of `rgemm bench` / `rgemm tune`.
//! - [`report`]: benchmark results: JSON, CSV and the printed tables.
//! - [`chart`]: the ladder as PNG and SVG charts (plotters, DejaVu Sans embedded).
//! - [`emulate`]: running kernels on the CPU through the device module's emulator.
//! - [`figures`]: the book's figures and measured-number tables, drawn from the code and docs/perf.
//! - [`ptx`]: the embedded PTX, the launch bounds added to it, and ptxas's report of it.
//! - [`lesson`]: host side of the race lessons (for compute-sanitizer).
//! - [`tma`]: tensor maps for kernels that load through the copy engine.
//! - [`accuracy`]: spread-exponent inputs and the fp32-relative judgement of rung 15's 3×TF32.

pub mod accuracy;
pub mod api;
pub mod baseline;
pub mod bench;
pub mod catalog;
pub mod chart;
pub mod check;
pub mod dispatch;
pub mod emulate;
pub mod error;
pub mod figures;
pub mod gpu;
pub mod lesson;
pub mod problem;
pub mod ptx;
pub mod report;
pub mod sass;
pub mod storage;
pub mod timing;
pub mod tma;
pub mod verify;

pub use catalog::Kernel;
pub use error::{Error, Result};
pub use gpu::Gpu;
pub use problem::{Batch, Layout, LeadingDims, Op, Problem};

//! rgemm: GEMM kernels written in Rust, compiled to PTX, launched from Rust on Hopper GPUs.
//!
//! `C = alpha·op(A)·op(B) + beta·C` on device buffers, for f32 (3×TF32 on the tensor cores),
//! bf16 and f16 operands, any sizes, layouts, leading dimensions and strided batches.
//!
//! - [`api`]: describe a product ([`api::Gemm`]), plan it once ([`api::Plan`]: the kernel, the
//!   split of K, the launches), run it on your buffers.
//! - [`Gpu`]: the CUDA context and stream rgemm launches on, the loaded kernels, the workspace.
//! - [`catalog`]: every kernel of the PTX module, its launch geometry and which problems it takes.
//! - [`choice`]: the one module that chooses: which kernel, split and staging runs a problem, and
//!   why; [`dispatch`]: the measured table it consults.
//! - [`problem`]: a problem's sizes and scalars, validated before anything touches the GPU.
//! - [`Error`]: every way a request can fail, as a value.
//!
//! The PTX ships with the crate, so a program that depends on rgemm builds on stable Rust; the
//! `build-ptx` feature compiles it from the kernels' source instead (nightly).

pub mod api;
pub mod catalog;
pub mod choice;
pub mod dispatch;
mod entries;
pub mod error;
pub mod gpu;
pub mod problem;
pub mod ptx;
pub mod tma;

pub use catalog::Kernel;
pub use error::{Error, Operand, Result};
pub use gpu::Gpu;
pub use problem::{Batch, Layout, LeadingDims, Op, Problem};

/// The CUDA driver bindings rgemm is built on: buffers, streams and events of this version.
pub use cudarc;
/// The bf16 and f16 element types.
pub use half;
/// Host matrices for [`api::ndarray_gemm`].
#[cfg(feature = "ndarray")]
pub use ndarray;

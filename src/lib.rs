//! rgemm: GEMM kernels written in Rust, compiled to PTX, launched from Rust on Hopper GPUs.
//!
//! `C = alpha·op(A)·op(B) + beta·C` on device buffers, for f32 (3×TF32 on the tensor cores),
//! bf16 and f16 operands, any sizes, layouts, leading dimensions and strided batches, and FP8
//! ([`E4m3`]) operands of linear layers.
//!
//! - [`api`]: describe a product ([`api::Gemm`]), plan it once ([`api::Plan`]: the kernel, the
//!   split of K, the launches), run it on your buffers.
//! - [`Gpu`]: the CUDA context and stream rgemm launches on, the loaded kernels, the workspace.
//! - [`catalog`]: every kernel of the PTX module, its launch geometry and which problems it takes.
//! - [`choice`]: the one module that chooses: which kernel, split and staging runs a problem, and
//!   why ([`choice::plan`] plans without a GPU); [`dispatch`]: the measured table it consults.
//! - [`problem`]: a problem's sizes and scalars, validated before anything touches the GPU.
//! - [`ptx`]: the PTX module the kernels ship as, and the launch bounds added to it.
//! - [`Error`]: every way a request can fail, as a value.
//!
//! Planning, the catalog, the dispatch table and every error that a bad request makes work
//! without a GPU; only [`Gpu`] and running a plan need one (a Hopper GPU and its driver).
//!
//! The PTX ships with the crate, so a program that depends on rgemm builds on stable Rust; the
//! `build-ptx` feature compiles it from the kernels' source instead (nightly).
//!
//! # What is stable
//!
//! What these pages show is the library's API. rgemm's own command line, benchmarks and tests
//! also use lower-level pieces (raw launches on device addresses, the split-K sum, the tuner's
//! table edits, the tensor maps, the ladder's tables); those are public so that they can, but
//! hidden from these pages and not part of the stable API: they may change in any release.
//!
//! # Example
//!
//! A bf16 linear layer with a residual, `y = 0.5·x·Wᵀ + y`, over a batch of 4 sequences of 256
//! tokens: x is 256×4096 per sequence, W is 11008×4096 as stored (N×K, one weight for the whole
//! batch: stride 0), y is f32. Planned once, run twice (the first run loads the kernels and, for a
//! copy-engine kernel, encodes its tensor maps), the second run timed with CUDA events:
//!
//! ```no_run
//! use rgemm::cudarc::driver::sys::CUevent_flags;
//! use rgemm::half::bf16;
//! use rgemm::{Gpu, Layout, api::{Gemm, KernelChoice}};
//!
//! fn main() -> rgemm::Result<()> {
//!     let gpu = Gpu::open()?;
//!     let (tokens, n, k, sequences) = (256, 11008, 4096, 4);
//!     let plan = Gemm::new(tokens, n, k)
//!         .layout(Layout::NT)
//!         .scalars(0.5, 1.0)
//!         .batch(sequences, tokens * k, 0, tokens * n)
//!         .plan::<bf16>(&gpu, KernelChoice::Auto)?;
//!     let (len_x, len_w, len_y) = plan.problem().extents(); // elements, padding and batch included
//!     let stream = gpu.stream();
//!     let x = stream.clone_htod(&vec![bf16::from_f32(0.25); len_x])?;
//!     let w = stream.clone_htod(&vec![bf16::from_f32(0.125); len_w])?;
//!     let mut y = stream.clone_htod(&vec![1.0f32; len_y])?;
//!     plan.run(&gpu, &x, &w, &mut y)?; // queued on gpu.stream(); nothing waits
//!
//!     let ctx = stream.context();
//!     let start = ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
//!     let stop = ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
//!     start.record(stream)?;
//!     plan.run(&gpu, &x, &w, &mut y)?;
//!     stop.record(stream)?;
//!     let ms = start.elapsed_ms(&stop)? as f64; // waits for `stop`
//!     println!("{}: {ms:.3} ms, {:.0} TFLOP/s ({})", plan.name(), plan.problem().tflops(ms), plan.reason());
//!
//!     let y = stream.clone_dtoh(&y)?;
//!     assert_eq!(y[0], 1.0 + 2.0 * 0.5 * 4096.0 * 0.25 * 0.125); // each run added 0.5·x·Wᵀ
//!     Ok(())
//! }
//! ```

#![warn(missing_docs)]

pub mod api;
pub mod catalog;
pub mod choice;
pub mod dispatch;
mod entries;
pub mod error;
pub mod fp8;
pub mod gpu;
pub mod problem;
pub mod ptx;
// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
pub mod tensor_map;

pub use catalog::Kernel;
pub use error::{Error, Operand, Result};
pub use fp8::E4m3;
pub use gpu::Gpu;
pub use problem::{Activation, Batch, Bias, FusedEpilogue, Layout, LeadingDims, Op, Problem};

/// The CUDA driver bindings rgemm is built on: buffers, streams and events of this version.
pub use cudarc;
/// The bf16 and f16 element types.
pub use half;
/// Host matrices for [`api::ndarray_gemm`].
#[cfg(feature = "ndarray")]
pub use ndarray;

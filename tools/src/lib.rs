//! rgemm's toolbox: everything that measures, checks and explains the kernels, around the
//! library a program depends on (`rgemm`).
//!
//! - [`check`]: inputs, the f64 reference and the relative Frobenius error; [`accuracy`]:
//!   spread-exponent inputs and the fp32-relative judgement of 3×TF32.
//! - [`verify`]: a plan run on the GPU, checked against the reference and against cuBLAS.
//! - [`baseline`]: cuBLAS and cuBLASLt, the baselines every timing is compared with.
//! - [`timing`]: CUDA-event timing, contenders timed in turn round by round.
//! - [`bench`](mod@bench): the runner of `rgemm bench` / `rgemm tune`; [`tune`]: the dispatch
//!   table's rows from a tuning report; [`suite`]: the cases they run.
//! - [`report`]: benchmark results as JSON, CSV and tables; [`chart`]: the ladder as PNG and SVG.
//! - [`emulate`]: the kernels run on the CPU through the device module's emulator.
//! - [`figures`]: the book's figures and tables, drawn from the code and docs/perf.
//! - [`ptxas`], [`sass`]: what the assembler makes of the PTX.
//! - [`lesson`]: the host side of the race lessons (for compute-sanitizer).
//! - [`peaks`]: a device's peak rates.

pub mod accuracy;
pub mod baseline;
pub mod bench;
pub mod chart;
pub mod check;
pub mod emulate;
pub mod eval_suite;
pub mod figures;
pub mod fit;
pub mod generate;
pub mod lesson;
pub mod peaks;
pub mod ptxas;
pub mod report;
pub mod sass;
pub mod storage;
pub mod suite;
pub mod timing;
pub mod tool_error;
pub mod tune;
pub mod verify;

pub use tool_error::{ToolError, ToolResult};

//! The baseline every speed is compared with: cuBLAS, called two ways on the same operands.
//!
//! - **Classic**: `cublasSgemm` (f32) or `cublasGemmEx` (bf16/f16 in, f32 compute, C in f32 or
//!   in the operands' type), and their strided-batched forms for batches.
//! - **cuBLASLt** as PyTorch calls it: `cublasLtMatmul` with the algorithm its heuristic ranks
//!   first for the problem, given a 32 MiB workspace (NVIDIA's recommendation for Hopper). The
//!   descriptors and the chosen algorithm are made once per problem and kept, so repeated calls
//!   cost one launch, as a framework's cached plan does.
//!
//! Reports take the faster of the two as "cuBLAS". Both see the row-major problem through the
//! usual transposition: column-major cuBLAS computes Cᵀ = op(B)ᵀ·op(A)ᵀ, which is C row-major,
//! so B is passed first and each operand keeps its own transpose flag.
//!
//! # Output types and fused epilogues
//!
//! C is of the problem's output type ([`FusedEpilogue::output`]), computed in f32 with f32
//! scalars. Both libraries write C in f32 from any operands, or in the operands' own type (bf16
//! into bf16, f16 into f16); other pairs (f32 into bf16, bf16 into f16, ...) are refused.
//!
//! Only cuBLASLt fuses an epilogue (`CUBLASLT_MATMUL_DESC_EPILOGUE`); the classic calls run
//! plain products only, in whichever output type. cuBLASLt's bias holds one value per row of
//! its column-major D, which is one per **column** of rgemm's row-major C, so:
//!
//! | rgemm epilogue                        | cuBLASLt epilogue                 |
//! |---------------------------------------|-----------------------------------|
//! | identity, no bias                     | `DEFAULT`                         |
//! | identity, [`Bias::PerColumn`]         | `BIAS`                            |
//! | relu, with or without a column bias   | `RELU`, `RELU_BIAS`               |
//! | gelu-tanh, with or without            | `GELU`, `GELU_BIAS`               |
//! | gelu-tanh with aux, with or without   | `GELU_AUX`, `GELU_AUX_BIAS`       |
//!
//! The bias is of the output type (`BIAS_DATA_TYPE`), one vector for the whole batch
//! (`BIAS_BATCH_STRIDE` 0); the auxiliary output (`pre`, before the activation) is shaped as C,
//! of the output type (cuBLASLt's default for a GELU aux), with C's leading dimension and batch
//! stride (`EPILOGUE_AUX_LD`, `EPILOGUE_AUX_BATCH_STRIDE`), which cuBLASLt wants divisible by 8.
//!
//! Refused with [`ToolError::BaselineUnsupported`] (see [`Library::supports`] and
//! [`libraries_for`]):
//! - by both: output types other than f32 or the operands' type;
//! - by the classic calls: any bias, activation or aux;
//! - by cuBLASLt: [`Bias::PerRow`] (M values: a bias per column of cuBLASLt's D, which it has no
//!   epilogue for); `gelu-erf` and `silu` (cuBLASLt's GELU is the tanh form, and it has no
//!   SiLU); aux with `relu` (cuBLASLt's `RELU_AUX` stores a bit mask, not `pre`) or with the
//!   identity (no such epilogue); aux whose leading dimension or batch stride is not a multiple
//!   of 8.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

use cudarc::cublas::sys as blas_sys;
use cudarc::cublaslt::{result as lt, sys as lt_sys};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};

use rgemm::catalog::Dtype;
use rgemm::Gpu;
use crate::tool_error::{ToolError, ToolResult};
use rgemm::problem::{Activation, Bias, FusedEpilogue, Op, Problem};

/// Which cuBLAS entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Library {
    /// `cublasSgemm` / `cublasGemmEx` (strided-batched for batches).
    Classic,
    /// `cublasLtMatmul`, heuristic algorithm, 32 MiB workspace.
    Lt,
}

impl Library {
    pub const ALL: [Library; 2] = [Library::Classic, Library::Lt];

    pub fn name(self) -> &'static str {
        match self {
            Library::Classic => "cublas",
            Library::Lt => "cublaslt",
        }
    }

    /// `Ok` when this library can run `problem` with A and B of `dtype` (its output type and
    /// epilogue included), else [`ToolError::BaselineUnsupported`] saying why (module docs).
    pub fn supports(self, dtype: Dtype, problem: &Problem) -> ToolResult<()> {
        match refusal(self, dtype, problem) {
            None => Ok(()),
            Some(why) => Err(ToolError::BaselineUnsupported(format!("{}: {why}", self.name()))),
        }
    }
}

/// The libraries that can run `problem` with A and B of `dtype`, in [`Library::ALL`]'s order:
/// both for a plain product ([`FusedEpilogue::NONE`], or bf16/f16 out with nothing fused), only
/// [`Library::Lt`] for a fused epilogue it has, none for what neither runs (module docs;
/// [`Library::supports`] says why). A comparison "with the same output type and the same
/// epilogue" times these.
pub fn libraries_for(dtype: Dtype, problem: &Problem) -> &'static [Library] {
    match (Library::Classic.supports(dtype, problem).is_ok(), Library::Lt.supports(dtype, problem).is_ok()) {
        (true, true) => &Library::ALL,
        (false, true) => &[Library::Lt],
        (true, false) => &[Library::Classic],
        (false, false) => &[],
    }
}

/// Why `library` cannot run `problem` with A and B of `dtype`; `None` when it can.
fn refusal(library: Library, dtype: Dtype, problem: &Problem) -> Option<String> {
    let e = problem.epilogue;
    if dtype == Dtype::E4m3 {
        if library == Library::Classic {
            return Some("cublasGemmEx takes no FP8 operands: only cuBLASLt multiplies e4m3".into());
        }
        if problem.layout != rgemm::Layout::NT {
            return Some(format!("cuBLASLt multiplies FP8 only with K-major A and B (layout nt), not {}", problem.layout.name()));
        }
    } else if e.output != Dtype::F32 && e.output != dtype {
        let can = if dtype == Dtype::F32 { "f32".to_string() } else { format!("f32 or {}", dtype.name()) };
        return Some(format!("{} operands give C in {can} (f32 compute), not in {}", dtype.name(), e.output.name()));
    }
    match library {
        Library::Classic => {
            (e.bias != Bias::None || e.activation != Activation::Identity || e.aux).then(|| format!("the classic calls fuse no epilogue (bias {:?}, {}, aux {}): only cuBLASLt does", e.bias, e.activation.name(), e.aux))
        }
        Library::Lt => {
            if e.bias == Bias::PerRow {
                return Some("a bias per row of C (M values) is one per column of cuBLASLt's column-major D, which no cuBLASLt epilogue adds (its bias is rgemm's per-column bias)".into());
            }
            if let Err(why) = lt_epilogue(e) {
                return Some(why);
            }
            if e.aux && (!problem.ldc.is_multiple_of(8) || (problem.batch > 1 && !problem.stride_c.is_multiple_of(8))) {
                return Some(format!("cuBLASLt wants the aux output's leading dimension and batch stride divisible by 8 (ldc {}, stride_c {})", problem.ldc, problem.stride_c));
            }
            None
        }
    }
}

/// cuBLASLt's epilogue for `e` (its bias being rgemm's per-column bias), or why it has none.
fn lt_epilogue(e: FusedEpilogue) -> Result<lt_sys::cublasLtEpilogue_t, String> {
    use lt_sys::cublasLtEpilogue_t as E;
    let bias = e.bias != Bias::None;
    Ok(match (e.activation, e.aux) {
        (Activation::Identity, false) => {
            if bias {
                E::CUBLASLT_EPILOGUE_BIAS
            } else {
                E::CUBLASLT_EPILOGUE_DEFAULT
            }
        }
        (Activation::Relu, false) => {
            if bias {
                E::CUBLASLT_EPILOGUE_RELU_BIAS
            } else {
                E::CUBLASLT_EPILOGUE_RELU
            }
        }
        (Activation::GeluTanh, false) => {
            if bias {
                E::CUBLASLT_EPILOGUE_GELU_BIAS
            } else {
                E::CUBLASLT_EPILOGUE_GELU
            }
        }
        (Activation::GeluTanh, true) => {
            if bias {
                E::CUBLASLT_EPILOGUE_GELU_AUX_BIAS
            } else {
                E::CUBLASLT_EPILOGUE_GELU_AUX
            }
        }
        (Activation::Relu, true) => return Err("cuBLASLt's RELU_AUX stores a bit mask, not the pre-activation matrix".into()),
        (Activation::Identity, true) => return Err("cuBLASLt has no epilogue that stores an aux output without an activation".into()),
        (Activation::GeluErf, _) => return Err("cuBLASLt's GELU is the tanh form; it has no erf GELU".into()),
        (Activation::Silu, _) => return Err("cuBLASLt has no SiLU epilogue".into()),
    })
}

/// The bias and aux addresses `problem`'s epilogue needs (0 for what it has not), or
/// [`ToolError::InvalidArgument`] when one it needs is 0.
fn epilogue_addresses(problem: &Problem, bias: u64, aux: u64) -> ToolResult<(u64, u64)> {
    let e = problem.epilogue;
    let bias = if e.bias == Bias::None { 0 } else { bias };
    let aux = if e.aux { aux } else { 0 };
    if e.bias != Bias::None && bias == 0 {
        return Err(ToolError::InvalidArgument(format!("cuBLAS: {problem} adds a bias, and its address is 0")));
    }
    if e.aux && aux == 0 {
        return Err(ToolError::InvalidArgument(format!("cuBLAS: {problem} writes an aux output, and its address is 0")));
    }
    Ok((bias, aux))
}

/// Workspace given to cuBLASLt (NVIDIA's recommendation for Hopper, and PyTorch's setting).
pub const LT_WORKSPACE_BYTES: usize = 32 << 20;

fn data_type(dtype: Dtype) -> blas_sys::cudaDataType {
    match dtype {
        Dtype::F32 => blas_sys::cudaDataType::CUDA_R_32F,
        Dtype::Bf16 => blas_sys::cudaDataType::CUDA_R_16BF,
        Dtype::F16 => blas_sys::cudaDataType::CUDA_R_16F,
        Dtype::E4m3 => blas_sys::cudaDataType::CUDA_R_8F_E4M3,
    }
}

fn lt_data_type(dtype: Dtype) -> lt_sys::cudaDataType_t {
    match dtype {
        Dtype::F32 => lt_sys::cudaDataType_t::CUDA_R_32F,
        Dtype::Bf16 => lt_sys::cudaDataType_t::CUDA_R_16BF,
        Dtype::F16 => lt_sys::cudaDataType_t::CUDA_R_16F,
        Dtype::E4m3 => lt_sys::cudaDataType_t::CUDA_R_8F_E4M3,
    }
}

fn blas_op(op: Op) -> blas_sys::cublasOperation_t {
    match op {
        Op::N => blas_sys::cublasOperation_t::CUBLAS_OP_N,
        Op::T => blas_sys::cublasOperation_t::CUBLAS_OP_T,
    }
}

/// The classic cuBLAS call for `problem` on A, B, C at the given device addresses: C of the
/// problem's output type, nothing fused ([`ToolError::BaselineUnsupported`] for a bias, an
/// activation or an aux output).
///
/// # Safety
/// The addresses must hold the problem's operands (its extents, element type `dtype` for A and
/// B, the output type for C) on the handle's stream.
pub unsafe fn classic(handle: blas_sys::cublasHandle_t, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()> {
    use blas_sys::{cublasComputeType_t, cublasGemmAlgo_t};
    Library::Classic.supports(dtype, problem)?;
    let (m, n, k) = (problem.m as i32, problem.n as i32, problem.k as i32);
    let (op_a, op_b) = (blas_op(problem.layout.a), blas_op(problem.layout.b));
    let (lda, ldb, ldc) = (problem.lda as i64, problem.ldb as i64, problem.ldc as i64);
    let (alpha, beta) = (&problem.alpha as *const f32, &problem.beta as *const f32);
    let batch = problem.batch as i32;
    let (sa, sb, sc) = (problem.stride_a as i64, problem.stride_b as i64, problem.stride_c as i64);
    let c_type = data_type(problem.epilogue.output);
    // SAFETY: the caller guarantees the operands; sizes and leading dimensions come from a
    // validated problem (each below 2³¹, as cuBLAS's int arguments need); f32 operands have an
    // f32 C (`supports` above).
    unsafe {
        match (dtype, batch) {
            (Dtype::F32, 1) => cudarc::cublas::result::sgemm(handle, op_b, op_a, n, m, k, alpha, b as _, ldb as i32, a as _, lda as i32, beta, c as _, ldc as i32)?,
            (Dtype::F32, _) => cudarc::cublas::result::sgemm_strided_batched(
                handle, op_b, op_a, n, m, k, alpha, b as _, ldb as i32, sb, a as _, lda as i32, sa, beta, c as _, ldc as i32, sc, batch,
            )?,
            (_, 1) => cudarc::cublas::result::gemm_ex(
                handle,
                op_b,
                op_a,
                n,
                m,
                k,
                alpha as *const _,
                b as *const _,
                data_type(dtype),
                ldb as i32,
                a as *const _,
                data_type(dtype),
                lda as i32,
                beta as *const _,
                c as *mut _,
                c_type,
                ldc as i32,
                cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )?,
            _ => cudarc::cublas::result::gemm_strided_batched_ex(
                handle,
                op_b,
                op_a,
                n,
                m,
                k,
                alpha as *const _,
                b as *const _,
                data_type(dtype),
                ldb as i32,
                sb,
                a as *const _,
                data_type(dtype),
                lda as i32,
                sa,
                beta as *const _,
                c as *mut _,
                c_type,
                ldc as i32,
                sc,
                batch,
                cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )?,
        }
    }
    Ok(())
}

/// A cuBLASLt plan: descriptors and the heuristic's first algorithm for one problem.
struct LtPlan {
    desc: lt_sys::cublasLtMatmulDesc_t,
    layouts: [lt_sys::cublasLtMatrixLayout_t; 3],
    algo: lt_sys::cublasLtMatmulAlgo_t,
}

impl Drop for LtPlan {
    fn drop(&mut self) {
        // SAFETY: each handle was created by cuBLASLt for this plan and is destroyed once.
        unsafe {
            let _ = lt::destroy_matmul_desc(self.desc);
            for l in self.layouts {
                let _ = lt::destroy_matrix_layout(l);
            }
        }
    }
}

/// What a cuBLASLt plan depends on: the operands' element type, every field of the problem but
/// the scalars' values (its epilogue included), and the alignment of the bias and aux addresses
/// (log₂ of their largest power-of-two divisor, up to 256 bytes), which the heuristic reads from
/// the pointers when it picks the algorithm. The addresses themselves are set at each call.
type LtKey = (Dtype, rgemm::problem::ShapeKey, u32, u32);

fn alignment(addr: u64) -> u32 {
    (addr | 256).trailing_zeros()
}

/// Sets one attribute of a matmul descriptor to `value`, of the type the attribute takes.
///
/// # Safety
/// `T` must be the attribute's type (`u32` for enums, `i32` for data types, `i64` for leading
/// dimensions and strides, a pointer for pointers); `desc` a live descriptor.
unsafe fn set_desc<T>(desc: lt_sys::cublasLtMatmulDesc_t, attr: lt_sys::cublasLtMatmulDescAttributes_t, value: &T) -> ToolResult<()> {
    // SAFETY: the caller's guarantee; cuBLASLt copies `size_of::<T>()` bytes from `value`.
    unsafe { lt::set_matmul_desc_attribute(desc, attr, value as *const T as *const c_void, size_of::<T>()).map_err(lt_error) }
}

/// cuBLASLt with its workspace and the plans made so far.
pub struct CublasLt {
    handle: lt_sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    /// Plans by [`LtKey`].
    plans: Mutex<HashMap<LtKey, LtPlan>>,
}

// SAFETY: the handle and plans are only used under the plans' mutex or through `&self` calls
// that cuBLASLt documents as thread-safe for distinct streams; rgemm uses one stream.
unsafe impl Send for CublasLt {}
unsafe impl Sync for CublasLt {}

impl Drop for CublasLt {
    fn drop(&mut self) {
        self.plans.lock().unwrap_or_else(|e| e.into_inner()).clear();
        // SAFETY: created in `new`, destroyed once, after its plans.
        unsafe {
            let _ = lt::destroy_handle(self.handle);
        }
    }
}

fn lt_error(e: lt::CublasError) -> ToolError {
    ToolError::Cublas(format!("cuBLASLt: {:?}", e.0))
}

impl CublasLt {
    /// A handle and a [`LT_WORKSPACE_BYTES`] workspace on `stream`.
    pub fn new(stream: &std::sync::Arc<CudaStream>) -> ToolResult<CublasLt> {
        let handle = lt::create_handle().map_err(lt_error)?;
        let workspace = stream.alloc_zeros::<u8>(LT_WORKSPACE_BYTES)?;
        Ok(CublasLt { handle, workspace, plans: Mutex::new(HashMap::new()) })
    }

    /// The plan of a problem [`Library::Lt`] supports, with the bias and aux addresses of the
    /// call that makes it (0 for those its epilogue has not).
    fn plan(&self, dtype: Dtype, p: &Problem, bias: u64, aux: u64) -> ToolResult<LtPlan> {
        use lt_sys::cublasLtMatmulDescAttributes_t as D;
        use lt_sys::cublasLtMatrixLayoutAttribute_t as L;
        let ty = lt_data_type(dtype);
        let out_ty = lt_data_type(p.epilogue.output);
        let f32_ty = lt_sys::cudaDataType_t::CUDA_R_32F;
        let epilogue = lt_epilogue(p.epilogue).map_err(ToolError::BaselineUnsupported)?;
        let desc = lt::create_matmul_desc(lt_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F, f32_ty).map_err(lt_error)?;
        // Column-major view: first operand B as stored (rows × cols swapped), second A; C (and
        // D, the same matrix) N × M of the output type.
        let (b_rows, b_cols) = p.stored_b();
        let (a_rows, a_cols) = p.stored_a();
        let layouts = [
            lt::create_matrix_layout(ty, b_cols, b_rows, p.ldb as i64).map_err(lt_error)?,
            lt::create_matrix_layout(ty, a_cols, a_rows, p.lda as i64).map_err(lt_error)?,
            lt::create_matrix_layout(out_ty, p.n as u64, p.m as u64, p.ldc as i64).map_err(lt_error)?,
        ];
        let mut plan = LtPlan { desc, layouts, algo: lt_sys::cublasLtMatmulAlgo_t { data: [0; 8] } };
        let (op_first, op_second) = (blas_op(p.layout.b), blas_op(p.layout.a));
        let batch = p.batch as i32;
        // SAFETY: attribute buffers are locals of the type and size each attribute takes.
        unsafe {
            set_desc(desc, D::CUBLASLT_MATMUL_DESC_TRANSA, &op_first)?;
            set_desc(desc, D::CUBLASLT_MATMUL_DESC_TRANSB, &op_second)?;
            if epilogue != lt_sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_DEFAULT {
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue)?;
            }
            if bias != 0 {
                // cuBLASLt's bias: one value per row of its D (N of them), of the output type,
                // the same vector for every product of a batch.
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &(out_ty as i32))?;
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_BIAS_POINTER, &(bias as *const c_void))?;
                if batch > 1 {
                    set_desc(desc, D::CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &0i64)?;
                }
            }
            if aux != 0 {
                // `pre`, shaped as C: the aux type is left at cuBLASLt's default, D's type (the
                // output type); setting it is meant for FP8.
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &(aux as *const c_void))?;
                set_desc(desc, D::CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &(p.ldc as i64))?;
                if batch > 1 {
                    set_desc(desc, D::CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &(p.stride_c as i64))?;
                }
            }
            if batch > 1 {
                for (layout, stride) in layouts.iter().zip([p.stride_b as i64, p.stride_a as i64, p.stride_c as i64]) {
                    lt::set_matrix_layout_attribute(*layout, L::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch as *const i32 as *const c_void, 4).map_err(lt_error)?;
                    lt::set_matrix_layout_attribute(*layout, L::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride as *const i64 as *const c_void, 8)
                        .map_err(lt_error)?;
                }
            }
            let pref = lt::create_matmul_pref().map_err(lt_error)?;
            let bytes = LT_WORKSPACE_BYTES as u64;
            let heuristic = lt::set_matmul_pref_attribute(
                pref,
                lt_sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                &bytes as *const u64 as *const c_void,
                8,
            )
            .and_then(|()| lt::get_matmul_algo_heuristic(self.handle, desc, layouts[0], layouts[1], layouts[2], layouts[2], pref));
            let _ = lt::destroy_matmul_pref(pref);
            plan.algo = heuristic.map_err(lt_error)?.algo;
        }
        Ok(plan)
    }

    /// `cublasLtMatmul` for `problem` (C in place: D = C), its output type and fused epilogue
    /// included (module docs): `bias` and `aux` are the addresses of the bias vector and of the
    /// aux output, 0 when the epilogue has none (they are ignored then).
    /// [`ToolError::BaselineUnsupported`] for what cuBLASLt cannot fuse
    /// ([`Library::supports`]), [`ToolError::InvalidArgument`] for a needed address that is 0.
    ///
    /// # Safety
    /// As for [`classic`], on `stream`; and `bias` holds N values of the output type when the
    /// epilogue adds a bias, `aux` a matrix shaped as C (`ldc`, `stride_c`, the output type)
    /// when it writes one.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemm(&self, stream: &CudaStream, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64, bias: u64, aux: u64) -> ToolResult<()> {
        use lt_sys::cublasLtMatmulDescAttributes_t as D;
        Library::Lt.supports(dtype, problem)?;
        let (bias, aux) = epilogue_addresses(problem, bias, aux)?;
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        let k = (dtype, problem.shape_key(), alignment(bias), alignment(aux));
        if !plans.contains_key(&k) {
            if plans.len() >= 64 {
                plans.clear();
            }
            let plan = self.plan(dtype, problem, bias, aux)?;
            plans.insert(k, plan);
        }
        let plan = &plans[&k];
        let (workspace, _sync) = self.workspace.device_ptr(stream);
        // SAFETY: the caller guarantees the operands; the plan describes exactly this problem,
        // with bias and aux addresses of this alignment (its key), and this call's addresses are
        // set on its descriptor under the plans' lock, before the launch reads them.
        unsafe {
            if bias != 0 {
                set_desc(plan.desc, D::CUBLASLT_MATMUL_DESC_BIAS_POINTER, &(bias as *const c_void))?;
            }
            if aux != 0 {
                set_desc(plan.desc, D::CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &(aux as *const c_void))?;
            }
            lt::matmul(
                self.handle,
                plan.desc,
                &problem.alpha as *const f32 as *const c_void,
                &problem.beta as *const f32 as *const c_void,
                b as *const c_void,
                plan.layouts[0],
                a as *const c_void,
                plan.layouts[1],
                c as *const c_void,
                plan.layouts[2],
                c as *mut c_void,
                plan.layouts[2],
                &plan.algo,
                workspace as *mut c_void,
                LT_WORKSPACE_BYTES,
                stream.cu_stream() as _,
            )
            .map_err(lt_error)
        }
    }
}

/// cuBLAS on a [`Gpu`]'s stream: the classic handle, and cuBLASLt made on first use (it
/// allocates a 32 MiB workspace). The library itself never loads cuBLAS; the tools that compare
/// with it do, once per stream ([`CublasExt`]).
pub struct Cublas {
    blas: cudarc::cublas::CudaBlas,
    lt: std::sync::OnceLock<CublasLt>,
    stream: std::sync::Arc<CudaStream>,
}

impl Cublas {
    /// cuBLAS on `stream`, or [`ToolError::NoCublas`] when libcublas cannot be loaded.
    pub fn new(stream: &std::sync::Arc<CudaStream>) -> ToolResult<Cublas> {
        // SAFETY: only probes whether cuBLAS can be loaded.
        if !unsafe { blas_sys::is_culib_present() } {
            return Err(ToolError::NoCublas);
        }
        Ok(Cublas { blas: cudarc::cublas::CudaBlas::new(stream.clone())?, lt: std::sync::OnceLock::new(), stream: stream.clone() })
    }

    /// cuBLAS on the row-major problem, with its output type and epilogue: the classic call
    /// (plain products only) or cuBLASLt (see [`CublasLt::gemm`] for `bias` and `aux`, 0 when
    /// the epilogue has none). [`ToolError::BaselineUnsupported`] for what `library` cannot run
    /// ([`libraries_for`] lists those that can).
    ///
    /// # Safety
    /// As for [`rgemm::Gpu::launch`], with A and B of element type `dtype`, C of the output
    /// type, and the bias and aux output as [`CublasLt::gemm`] says.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn gemm(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64, bias: u64, aux: u64) -> ToolResult<()> {
        match library {
            // SAFETY: the caller's guarantee, passed on; `classic` refuses every epilogue that
            // reads a bias or writes an aux output.
            Library::Classic => unsafe { classic(*self.blas.handle(), dtype, problem, a, b, c) },
            Library::Lt => {
                let lt = match self.lt.get() {
                    Some(lt) => lt,
                    None => {
                        let made = CublasLt::new(&self.stream)?;
                        self.lt.get_or_init(|| made)
                    }
                };
                // SAFETY: as above.
                unsafe { lt.gemm(&self.stream, dtype, problem, a, b, c, bias, aux) }
            }
        }
    }
}

/// cuBLAS as a method of [`Gpu`]: one [`Cublas`] per stream, made on first use and kept for the
/// process.
pub trait CublasExt {
    /// cuBLAS on the row-major problem, with its output type and epilogue, on this GPU's stream
    /// (see [`Cublas::gemm`]; `bias` and `aux` are 0 when the epilogue has none).
    ///
    /// # Safety
    /// As for [`Cublas::gemm`].
    #[allow(clippy::too_many_arguments)]
    unsafe fn cublas(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64, bias: u64, aux: u64) -> ToolResult<()>;
}

impl CublasExt for Gpu {
    unsafe fn cublas(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64, bias: u64, aux: u64) -> ToolResult<()> {
        static HANDLES: std::sync::OnceLock<Mutex<HashMap<usize, std::sync::Arc<Cublas>>>> = std::sync::OnceLock::new();
        let key = self.stream().cu_stream() as usize;
        let cublas = {
            let mut handles = HANDLES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
            match handles.get(&key) {
                Some(c) => c.clone(),
                None => {
                    let made = std::sync::Arc::new(Cublas::new(self.stream())?);
                    handles.insert(key, made.clone());
                    made
                }
            }
        };
        // SAFETY: the caller's guarantee, passed on.
        unsafe { cublas.gemm(library, dtype, problem, a, b, c, bias, aux) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(output: Dtype, bias: Bias, activation: Activation, aux: bool) -> Problem {
        Problem::new(64, 64, 64, 1.0, 0.0).unwrap().with_epilogue(FusedEpilogue { output, bias, activation, aux })
    }

    #[test]
    fn plain_products_run_on_both_and_fused_epilogues_on_cublaslt_only() {
        assert_eq!(libraries_for(Dtype::F32, &with(Dtype::F32, Bias::None, Activation::Identity, false)), &Library::ALL);
        assert_eq!(libraries_for(Dtype::Bf16, &with(Dtype::Bf16, Bias::None, Activation::Identity, false)), &Library::ALL);
        assert_eq!(libraries_for(Dtype::F16, &with(Dtype::F16, Bias::None, Activation::Identity, false)), &Library::ALL);
        assert_eq!(libraries_for(Dtype::Bf16, &with(Dtype::F32, Bias::None, Activation::Identity, false)), &Library::ALL);
        for (bias, activation, aux) in [
            (Bias::PerColumn, Activation::Identity, false),
            (Bias::None, Activation::Relu, false),
            (Bias::PerColumn, Activation::Relu, false),
            (Bias::None, Activation::GeluTanh, false),
            (Bias::PerColumn, Activation::GeluTanh, true),
            (Bias::None, Activation::GeluTanh, true),
        ] {
            assert_eq!(libraries_for(Dtype::Bf16, &with(Dtype::Bf16, bias, activation, aux)), &[Library::Lt], "{bias:?} {activation:?} {aux}");
        }
    }

    #[test]
    fn what_neither_runs_is_refused_with_a_reason() {
        for (dtype, output, bias, activation, aux) in [
            (Dtype::F32, Dtype::Bf16, Bias::None, Activation::Identity, false),
            (Dtype::Bf16, Dtype::F16, Bias::None, Activation::Identity, false),
            (Dtype::Bf16, Dtype::Bf16, Bias::PerRow, Activation::Identity, false),
            (Dtype::Bf16, Dtype::Bf16, Bias::None, Activation::GeluErf, false),
            (Dtype::Bf16, Dtype::Bf16, Bias::PerColumn, Activation::Silu, false),
            (Dtype::Bf16, Dtype::Bf16, Bias::None, Activation::Relu, true),
            (Dtype::Bf16, Dtype::Bf16, Bias::PerColumn, Activation::Identity, true),
        ] {
            let p = with(output, bias, activation, aux);
            assert!(libraries_for(dtype, &p).is_empty(), "{p}");
            for library in Library::ALL {
                assert!(matches!(library.supports(dtype, &p), Err(ToolError::BaselineUnsupported(_))), "{p}");
            }
        }
    }

    #[test]
    fn an_aux_output_needs_a_leading_dimension_divisible_by_8() {
        let p = Problem::new(64, 60, 64, 1.0, 0.0).unwrap().with_epilogue(FusedEpilogue { output: Dtype::Bf16, bias: Bias::None, activation: Activation::GeluTanh, aux: true });
        assert!(Library::Lt.supports(Dtype::Bf16, &p).is_err());
        assert!(Library::Lt.supports(Dtype::Bf16, &Problem { epilogue: FusedEpilogue { aux: false, ..p.epilogue }, ..p }).is_ok());
    }

    /// Values in `dtype`, as bytes for the GPU, and as they read after the rounding.
    fn encode(dtype: Dtype, values: &[f32]) -> (Vec<u8>, Vec<f64>) {
        match dtype {
            Dtype::F32 => (values.iter().flat_map(|v| v.to_le_bytes()).collect(), values.iter().map(|&v| v as f64).collect()),
            Dtype::Bf16 => {
                let h: Vec<half::bf16> = values.iter().map(|&v| half::bf16::from_f32(v)).collect();
                (h.iter().flat_map(|v| v.to_le_bytes()).collect(), h.iter().map(|v| v.to_f64()).collect())
            }
            Dtype::F16 => {
                let h: Vec<half::f16> = values.iter().map(|&v| half::f16::from_f32(v)).collect();
                (h.iter().flat_map(|v| v.to_le_bytes()).collect(), h.iter().map(|v| v.to_f64()).collect())
            }
            Dtype::E4m3 => {
                let q: Vec<rgemm::E4m3> = values.iter().map(|&v| rgemm::E4m3::from_f32(v)).collect();
                (q.iter().map(|v| v.0).collect(), q.iter().map(|v| v.to_f32() as f64).collect())
            }
        }
    }

    fn decode(dtype: Dtype, bytes: &[u8]) -> Vec<f64> {
        match dtype {
            Dtype::F32 => bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
            Dtype::Bf16 => bytes.chunks_exact(2).map(|b| half::bf16::from_le_bytes(b.try_into().unwrap()).to_f64()).collect(),
            Dtype::F16 => bytes.chunks_exact(2).map(|b| half::f16::from_le_bytes(b.try_into().unwrap()).to_f64()).collect(),
            Dtype::E4m3 => bytes.iter().map(|&b| rgemm::E4m3(b).to_f32() as f64).collect(),
        }
    }

    fn activate(activation: Activation, x: f64) -> f64 {
        match activation {
            Activation::Identity => x,
            Activation::Relu => x.max(0.0),
            Activation::GeluTanh => 0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh()),
            Activation::GeluErf | Activation::Silu => unreachable!("not fused by cuBLASLt"),
        }
    }

    /// Every epilogue cuBLASLt fuses, and the classic call's plain product, with bf16 operands
    /// and C in bf16 and in f32, single and batched (the bias shared by the batch), against an
    /// f64 reference of the operands as rounded: C = act(pre) and aux = pre.
    #[test]
    #[ignore = "needs a GPU"]
    fn the_baseline_computes_what_the_epilogue_says() {
        let gpu = Gpu::open().unwrap();
        let (m, n, k) = (40usize, 48usize, 32usize);
        let (alpha, beta) = (0.75f32, 0.5f32);
        let mut state = 7u64;
        let mut draw = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
                })
                .collect()
        };
        let mut cases = vec![(Library::Classic, Bias::None, Activation::Identity, false)];
        for bias in [Bias::None, Bias::PerColumn] {
            for (activation, aux) in [(Activation::Identity, false), (Activation::Relu, false), (Activation::GeluTanh, false), (Activation::GeluTanh, true)] {
                cases.push((Library::Lt, bias, activation, aux));
            }
        }
        let mut checked = 0;
        for batch in [1usize, 2] {
            let (a, b, c0, bias_values) = (draw(batch * m * k), draw(batch * k * n), draw(batch * m * n), draw(n));
            let (a_bytes, a_ref) = encode(Dtype::Bf16, &a);
            let (b_bytes, b_ref) = encode(Dtype::Bf16, &b);
            let (a_dev, b_dev) = (gpu.upload(&a_bytes).unwrap(), gpu.upload(&b_bytes).unwrap());
            for output in [Dtype::Bf16, Dtype::F32] {
                let (c_bytes, c_ref) = encode(output, &c0);
                let (bias_bytes, bias_ref) = encode(output, &bias_values);
                let bias_dev = gpu.upload(&bias_bytes).unwrap();
                for &(library, bias, activation, aux) in &cases {
                    let p = Problem::general(m as u64, n as u64, k as u64, alpha, beta, rgemm::Layout::NN, Default::default(), rgemm::Batch::packed(batch as u64))
                        .unwrap()
                        .with_epilogue(FusedEpilogue { output, bias, activation, aux });
                    assert_eq!(library.supports(Dtype::Bf16, &p).map_err(|e| e.to_string()), Ok(()), "{p}");
                    let c_dev = gpu.upload(&c_bytes).unwrap();
                    let aux_dev = gpu.zeros::<u8>(c_bytes.len()).unwrap();
                    let (bias_addr, aux_addr) = (if bias == Bias::None { 0 } else { bias_dev.addr(&gpu) }, if aux { aux_dev.addr(&gpu) } else { 0 });
                    // SAFETY: packed bf16 A and B of this batch, C and aux of the output type and
                    // C's shape, N bias values of the output type.
                    unsafe { gpu.cublas(library, Dtype::Bf16, &p, a_dev.addr(&gpu), b_dev.addr(&gpu), c_dev.addr(&gpu), bias_addr, aux_addr) }.unwrap_or_else(|e| panic!("{library:?} {p}: {e}"));
                    let (c_got, aux_got) = (decode(output, &gpu.download(&c_dev).unwrap()), decode(output, &gpu.download(&aux_dev).unwrap()));
                    let tolerance = if output == Dtype::F32 { 2e-3 } else { 1.6e-2 };
                    for i in 0..batch {
                        for row in 0..m {
                            for col in 0..n {
                                let dot: f64 = (0..k).map(|l| a_ref[i * m * k + row * k + l] * b_ref[i * k * n + l * n + col]).sum();
                                let at = i * m * n + row * n + col;
                                let pre = alpha as f64 * dot + beta as f64 * c_ref[at] + if bias == Bias::None { 0.0 } else { bias_ref[col] };
                                let want = activate(activation, pre);
                                assert!((c_got[at] - want).abs() <= tolerance * (1.0 + want.abs()), "{library:?} {p}: C[{i}][{row}][{col}] = {}, want {want}", c_got[at]);
                                if aux {
                                    assert!((aux_got[at] - pre).abs() <= tolerance * (1.0 + pre.abs()), "{library:?} {p}: aux[{i}][{row}][{col}] = {}, want {pre}", aux_got[at]);
                                }
                            }
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 2 * 2 * cases.len());
    }
}

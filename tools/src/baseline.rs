//! The baseline every speed is compared with: cuBLAS, called two ways on the same operands.
//!
//! - **Classic**: `cublasSgemm` (f32) or `cublasGemmEx` (bf16/f16 in, f32 out, f32 compute), and
//!   their strided-batched forms for batches.
//! - **cuBLASLt** as PyTorch calls it: `cublasLtMatmul` with the algorithm its heuristic ranks
//!   first for the problem, given a 32 MiB workspace (NVIDIA's recommendation for Hopper). The
//!   descriptors and the chosen algorithm are made once per problem and kept, so repeated calls
//!   cost one launch, as a framework's cached plan does.
//!
//! Reports take the faster of the two as "cuBLAS". Both see the row-major problem through the
//! usual transposition: column-major cuBLAS computes Cᵀ = op(B)ᵀ·op(A)ᵀ, which is C row-major,
//! so B is passed first and each operand keeps its own transpose flag.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

use cudarc::cublas::sys as blas_sys;
use cudarc::cublaslt::{result as lt, sys as lt_sys};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};

use rgemm::catalog::Dtype;
use rgemm::Gpu;
use crate::tool_error::{ToolError, ToolResult};
use rgemm::problem::{Op, Problem};

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
}

/// Workspace given to cuBLASLt (NVIDIA's recommendation for Hopper, and PyTorch's setting).
pub const LT_WORKSPACE_BYTES: usize = 32 << 20;

fn data_type(dtype: Dtype) -> blas_sys::cudaDataType {
    match dtype {
        Dtype::F32 => blas_sys::cudaDataType::CUDA_R_32F,
        Dtype::Bf16 => blas_sys::cudaDataType::CUDA_R_16BF,
        Dtype::F16 => blas_sys::cudaDataType::CUDA_R_16F,
    }
}

fn lt_data_type(dtype: Dtype) -> lt_sys::cudaDataType_t {
    match dtype {
        Dtype::F32 => lt_sys::cudaDataType_t::CUDA_R_32F,
        Dtype::Bf16 => lt_sys::cudaDataType_t::CUDA_R_16BF,
        Dtype::F16 => lt_sys::cudaDataType_t::CUDA_R_16F,
    }
}

fn blas_op(op: Op) -> blas_sys::cublasOperation_t {
    match op {
        Op::N => blas_sys::cublasOperation_t::CUBLAS_OP_N,
        Op::T => blas_sys::cublasOperation_t::CUBLAS_OP_T,
    }
}

/// The classic cuBLAS call for `problem` on A, B, C at the given device addresses.
///
/// # Safety
/// The addresses must hold the problem's operands (its extents, element type `dtype` for A and
/// B, f32 for C) on the handle's stream.
pub unsafe fn classic(handle: blas_sys::cublasHandle_t, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()> {
    use blas_sys::{cublasComputeType_t, cublasGemmAlgo_t, cudaDataType};
    let (m, n, k) = (problem.m as i32, problem.n as i32, problem.k as i32);
    let (op_a, op_b) = (blas_op(problem.layout.a), blas_op(problem.layout.b));
    let (lda, ldb, ldc) = (problem.lda as i64, problem.ldb as i64, problem.ldc as i64);
    let (alpha, beta) = (&problem.alpha as *const f32, &problem.beta as *const f32);
    let batch = problem.batch as i32;
    let (sa, sb, sc) = (problem.stride_a as i64, problem.stride_b as i64, problem.stride_c as i64);
    // SAFETY: the caller guarantees the operands; sizes and leading dimensions come from a
    // validated problem (each below 2³¹, as cuBLAS's int arguments need).
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
                cudaDataType::CUDA_R_32F,
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
                cudaDataType::CUDA_R_32F,
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

/// cuBLASLt with its workspace and the plans made so far.
pub struct CublasLt {
    handle: lt_sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    /// Plans by element type and every field of the problem but the scalars' values.
    plans: Mutex<HashMap<(Dtype, rgemm::problem::ShapeKey), LtPlan>>,
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

    fn plan(&self, dtype: Dtype, p: &Problem) -> ToolResult<LtPlan> {
        use lt_sys::cublasLtMatmulDescAttributes_t as D;
        use lt_sys::cublasLtMatrixLayoutAttribute_t as L;
        let ty = lt_data_type(dtype);
        let f32_ty = lt_sys::cudaDataType_t::CUDA_R_32F;
        let desc = lt::create_matmul_desc(lt_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F, f32_ty).map_err(lt_error)?;
        // Column-major view: first operand B as stored (rows × cols swapped), second A.
        let (b_rows, b_cols) = p.stored_b();
        let (a_rows, a_cols) = p.stored_a();
        let layouts = [
            lt::create_matrix_layout(ty, b_cols, b_rows, p.ldb as i64).map_err(lt_error)?,
            lt::create_matrix_layout(ty, a_cols, a_rows, p.lda as i64).map_err(lt_error)?,
            lt::create_matrix_layout(f32_ty, p.n as u64, p.m as u64, p.ldc as i64).map_err(lt_error)?,
        ];
        let mut plan = LtPlan { desc, layouts, algo: lt_sys::cublasLtMatmulAlgo_t { data: [0; 8] } };
        let (op_first, op_second) = (blas_op(p.layout.b), blas_op(p.layout.a));
        let batch = p.batch as i32;
        // SAFETY: attribute buffers are locals of the type and size each attribute takes.
        unsafe {
            let set = |attr: D, v: &blas_sys::cublasOperation_t| {
                lt::set_matmul_desc_attribute(desc, attr, v as *const _ as *const c_void, size_of::<blas_sys::cublasOperation_t>())
            };
            set(D::CUBLASLT_MATMUL_DESC_TRANSA, &op_first).map_err(lt_error)?;
            set(D::CUBLASLT_MATMUL_DESC_TRANSB, &op_second).map_err(lt_error)?;
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

    /// `cublasLtMatmul` for `problem` (C in place: D = C).
    ///
    /// # Safety
    /// As for [`classic`], on `stream`.
    pub unsafe fn gemm(&self, stream: &CudaStream, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()> {
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        let k = (dtype, problem.shape_key());
        if !plans.contains_key(&k) {
            if plans.len() >= 64 {
                plans.clear();
            }
            let plan = self.plan(dtype, problem)?;
            plans.insert(k, plan);
        }
        let plan = &plans[&k];
        let (workspace, _sync) = self.workspace.device_ptr(stream);
        // SAFETY: the caller guarantees the operands; the plan describes exactly this problem.
        unsafe {
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

    /// cuBLAS on the row-major problem: the classic call or cuBLASLt.
    ///
    /// # Safety
    /// As for [`rgemm::Gpu::launch`], with A and B of element type `dtype`.
    pub unsafe fn gemm(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()> {
        match library {
            // SAFETY: the caller's guarantee, passed on.
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
                unsafe { lt.gemm(&self.stream, dtype, problem, a, b, c) }
            }
        }
    }
}

/// cuBLAS as a method of [`Gpu`]: one [`Cublas`] per stream, made on first use and kept for the
/// process.
pub trait CublasExt {
    /// cuBLAS on the row-major problem, on this GPU's stream (see [`Cublas::gemm`]).
    ///
    /// # Safety
    /// As for [`Cublas::gemm`].
    unsafe fn cublas(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()>;
}

impl CublasExt for Gpu {
    unsafe fn cublas(&self, library: Library, dtype: Dtype, problem: &Problem, a: u64, b: u64, c: u64) -> ToolResult<()> {
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
        unsafe { cublas.gemm(library, dtype, problem, a, b, c) }
    }
}

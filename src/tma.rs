//! Tensor maps for the copy engine (TMA): encoded on the host with `cuTensorMapEncodeTiled`,
//! copied to device memory, and passed to the kernel by pointer.

use cudarc::driver::sys::{
    self, CUresult, CUtensorMap, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave,
    CUtensorMapL2promotion, CUtensorMapSwizzle,
};

use kernels_gpu::Dtype;
use kernels_gpu::spec::Swizzle;
use crate::error::{Error, Result};

/// The row-major matrices of a batch, as a tensor map sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Rows × columns of one matrix, and elements between the starts of two rows.
    pub rows: u64,
    pub cols: u64,
    pub ld: u64,
    /// Matrices in the batch (1 for a broadcast operand) and elements from one to the next.
    pub planes: u64,
    pub plane_stride: u64,
}

/// A map of `matrix` at device address `addr`, read in `box_rows × box_cols` boxes one plane
/// deep; the parts of a box outside the matrix read as zeros (that is how TMA kernels handle
/// tails).
pub fn encode(dtype: Dtype, addr: u64, matrix: Stored, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
    encode_rank(3, dtype, addr, matrix, box_rows, box_cols, swizzle)
}

/// A two-dimensional map of one row-major `rows × cols` matrix (for `tma_load_2d`, as the
/// lessons use it).
pub fn encode_2d(dtype: Dtype, addr: u64, rows: u32, cols: u32, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
    let matrix = Stored { rows: rows as u64, cols: cols as u64, ld: cols as u64, planes: 1, plane_stride: 0 };
    encode_rank(2, dtype, addr, matrix, box_rows, box_cols, swizzle)
}

fn encode_rank(rank: u32, dtype: Dtype, addr: u64, matrix: Stored, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
    let data_type = match dtype {
        Dtype::F32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        Dtype::Bf16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        Dtype::F16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
    };
    let swizzle = match swizzle {
        Swizzle::None => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        Swizzle::B32 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        Swizzle::B64 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        Swizzle::B128 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
    };
    let bytes = dtype.bytes() as u64;
    // Innermost dimension first: columns, rows, matrices; strides in bytes. A single plane's
    // stride is never used, but must be a valid one.
    let global_dim: [u64; 3] = [matrix.cols, matrix.rows, matrix.planes];
    let plane_stride = if matrix.planes > 1 { matrix.plane_stride } else { matrix.ld * matrix.rows };
    let global_strides: [u64; 2] = [matrix.ld * bytes, plane_stride * bytes];
    let box_dim: [u32; 3] = [box_cols, box_rows, 1];
    let element_strides: [u32; 3] = [1, 1, 1];
    let mut map = CUtensorMap { opaque: [0; 16] };
    // SAFETY: every pointer is to a local array at least as long as the rank (2 or 3) asks for;
    // the driver only writes `map`.
    let result = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            data_type,
            rank,
            addr as *mut _,
            global_dim.as_ptr(),
            global_strides.as_ptr(),
            box_dim.as_ptr(),
            element_strides.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if result != CUresult::CUDA_SUCCESS {
        return Err(Error::Cuda(format!(
            "cuTensorMapEncodeTiled({} × {}×{} (ld {}), box {box_rows}×{box_cols}) failed: {result:?}",
            matrix.planes, matrix.rows, matrix.cols, matrix.ld
        )));
    }
    Ok(map.opaque)
}

/// A, B and C of `problem` as their tensor maps see them (a broadcast operand has one plane).
pub fn stored(problem: &crate::problem::Problem) -> [Stored; 3] {
    let (a_rows, a_cols) = problem.stored_a();
    let (b_rows, b_cols) = problem.stored_b();
    [
        Stored { rows: a_rows, cols: a_cols, ld: problem.lda as u64, planes: problem.matrices_a() as u64, plane_stride: problem.stride_a },
        Stored { rows: b_rows, cols: b_cols, ld: problem.ldb as u64, planes: problem.matrices_b() as u64, plane_stride: problem.stride_b },
        Stored { rows: problem.m as u64, cols: problem.n as u64, ld: problem.ldc as u64, planes: problem.batch as u64, plane_stride: problem.stride_c },
    ]
}

/// As [`stored`], as the kernel of `spec` sees the matrices of `problem`: a kernel that reads A
/// split ahead (`problem` then being [`Problem::split_ahead`](crate::problem::Problem::split_ahead)'s)
/// sees two planes per matrix of A, its high part and its remainder, one plane apart.
pub fn stored_for(spec: &kernels_gpu::KernelSpec, problem: &crate::problem::Problem) -> [Stored; 3] {
    let mut stored = stored(problem);
    if spec.split_ahead {
        let a = &mut stored[0];
        (a.planes, a.plane_stride) = (2 * a.planes, a.rows * a.ld);
    }
    stored
}

/// Why a TMA kernel cannot read (or write) this matrix, if it cannot: the copy engine needs every
/// row and every matrix of a batch to start on a 16-byte boundary, so `what` (a leading
/// dimension or batch stride, in elements) must be a multiple of 16 bytes.
pub fn alignment_error(dtype: Dtype, name: &str, what: &str, elements: u64) -> Option<String> {
    let per_16_bytes = (16 / dtype.bytes()) as u64;
    (elements % per_16_bytes != 0).then(|| {
        format!("it moves {name} with the copy engine (TMA), which needs 16-byte-aligned rows and matrices: {what} = {elements} must be a multiple of {per_16_bytes}")
    })
}

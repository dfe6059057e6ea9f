//! Tensor maps for the copy engine (TMA): encoded on the host with `cuTensorMapEncodeTiled`,
//! copied to device memory, and passed to the kernel by pointer.
//!
//! Internal to rgemm's launches and tools: hidden from the crate's documentation, not part of
//! its stable API. A plan encodes the maps of a kernel once per set of buffers and keeps them.

use cudarc::driver::sys::{
    self, CUresult, CUtensorMap, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave,
    CUtensorMapL2promotion, CUtensorMapSwizzle,
};

use rgemm_spec::Dtype;
use rgemm_spec::{BoxSpan, Swizzle};
use crate::error::{Error, Result};

/// The row-major matrices of a batch, as a tensor map sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Rows of one matrix, as stored (row-major).
    pub rows: u64,
    /// Columns of one matrix, as stored: the elements of a row the map reads.
    pub cols: u64,
    /// Elements between the starts of two rows: at least `cols`, and a multiple of 16 bytes for
    /// the copy engine ([`alignment_error`]).
    pub ld: u64,
    /// Matrices in the batch (1 for a broadcast operand).
    pub planes: u64,
    /// Elements from the start of one matrix to the next (a multiple of 16 bytes when there
    /// are several; unused for one).
    pub plane_stride: u64,
}

/// A map of `matrix` at device address `addr`, read in `box_rows × box_cols` boxes one plane
/// deep; the parts of a box outside the matrix read as zeros (that is how TMA kernels handle
/// tails).
pub fn encode(dtype: Dtype, addr: u64, matrix: Stored, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
    encode_spanning(dtype, addr, matrix, (box_rows, box_cols, BoxSpan::One), swizzle)
}

/// [`encode`] for loads that span `span` boxes: [`BoxSpan::Planes`] boxes that many planes deep;
/// [`BoxSpan::Panels`] a four-dimensional map (columns within a panel of `box_cols`, rows,
/// panels, planes) where the matrix's columns are whole panels ([`BoxSpan::on_columns`], as the
/// kernel asks too), else the three-dimensional map of one panel per load.
pub fn encode_spanning(dtype: Dtype, addr: u64, matrix: Stored, (box_rows, box_cols, span): (u32, u32, BoxSpan), swizzle: Swizzle) -> Result<[u64; 16]> {
    let bytes = dtype.bytes() as u64;
    // A single plane's stride is never used, but must be a valid one.
    let plane_stride = if matrix.planes > 1 { matrix.plane_stride } else { matrix.ld * matrix.rows };
    // Innermost dimension first; strides in bytes.
    let (dims, strides, boxes): (Vec<u64>, Vec<u64>, Vec<u32>) = match span.on_columns(matrix.cols, box_cols) {
        BoxSpan::Panels(n) => (
            vec![box_cols as u64, matrix.rows, matrix.cols / box_cols as u64, matrix.planes],
            vec![matrix.ld * bytes, box_cols as u64 * bytes, plane_stride * bytes],
            vec![box_cols, box_rows, n, 1],
        ),
        span => {
            let depth = if let BoxSpan::Planes(n) = span { n } else { 1 };
            (vec![matrix.cols, matrix.rows, matrix.planes], vec![matrix.ld * bytes, plane_stride * bytes], vec![box_cols, box_rows, depth])
        }
    };
    encode_dims(dtype, addr, &dims, &strides, &boxes, swizzle).map_err(|result| {
        Error::Cuda(format!(
            "cuTensorMapEncodeTiled({} × {}×{} (ld {}), box {box_rows}×{box_cols} spanning {span:?}) failed: {result:?}",
            matrix.planes, matrix.rows, matrix.cols, matrix.ld
        ))
    })
}

/// A two-dimensional map of one row-major `rows × cols` matrix (for `tma_load_2d`, as the
/// lessons use it).
pub fn encode_2d(dtype: Dtype, addr: u64, rows: u32, cols: u32, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
    let (rows, cols) = (rows as u64, cols as u64);
    encode_dims(dtype, addr, &[cols, rows], &[cols * dtype.bytes() as u64], &[box_cols, box_rows], swizzle)
        .map_err(|result| Error::Cuda(format!("cuTensorMapEncodeTiled({rows}×{cols}, box {box_rows}×{box_cols}) failed: {result:?}")))
}

/// `cuTensorMapEncodeTiled` of a tensor of `dims` (innermost first), `strides` in bytes between
/// the steps of every dimension but the first, read in boxes of `boxes`.
fn encode_dims(dtype: Dtype, addr: u64, dims: &[u64], strides: &[u64], boxes: &[u32], swizzle: Swizzle) -> std::result::Result<[u64; 16], CUresult> {
    let data_type = match dtype {
        Dtype::F32 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        Dtype::Bf16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        Dtype::F16 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        Dtype::E4m3 => CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
    };
    let swizzle = match swizzle {
        Swizzle::None => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        Swizzle::B32 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
        Swizzle::B64 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
        Swizzle::B128 => CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
    };
    let rank = dims.len();
    if !(2..=5).contains(&rank) || strides.len() != rank - 1 || boxes.len() != rank {
        return Err(CUresult::CUDA_ERROR_INVALID_VALUE);
    }
    let element_strides = [1u32; 5];
    let mut map = CUtensorMap { opaque: [0; 16] };
    // SAFETY: `dims`, `boxes` and `element_strides` hold at least `rank` values and `strides`
    // `rank - 1` (checked above); the driver only reads them and writes `map`.
    let result = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            data_type,
            rank as u32,
            addr as *mut _,
            dims.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            element_strides.as_ptr(),
            CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    if result != CUresult::CUDA_SUCCESS {
        return Err(result);
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
pub fn stored_for(spec: &rgemm_spec::KernelSpec, problem: &crate::problem::Problem) -> [Stored; 3] {
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

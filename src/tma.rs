//! Tensor maps for the copy engine (TMA): encoded on the host with `cuTensorMapEncodeTiled`,
//! copied to device memory, and passed to the kernel by pointer.

use cudarc::driver::sys::{
    self, CUresult, CUtensorMap, CUtensorMapDataType, CUtensorMapFloatOOBfill, CUtensorMapInterleave,
    CUtensorMapL2promotion, CUtensorMapSwizzle,
};

use crate::catalog::{Dtype, Swizzle};
use crate::error::{Error, Result};

/// A row-major `rows × cols` matrix at device address `addr`, read in `box_rows × box_cols` boxes;
/// the parts of a box outside the matrix read as zeros (that is how TMA kernels handle tails).
pub fn encode(dtype: Dtype, addr: u64, rows: u32, cols: u32, box_rows: u32, box_cols: u32, swizzle: Swizzle) -> Result<[u64; 16]> {
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
    // Innermost dimension first: columns, then rows; the row stride is in bytes.
    let global_dim: [u64; 2] = [cols as u64, rows as u64];
    let global_strides: [u64; 1] = [cols as u64 * dtype.bytes() as u64];
    let box_dim: [u32; 2] = [box_cols, box_rows];
    let element_strides: [u32; 2] = [1, 1];
    let mut map = CUtensorMap { opaque: [0; 16] };
    let result = unsafe {
        sys::cuTensorMapEncodeTiled(
            &mut map,
            data_type,
            2,
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
            "cuTensorMapEncodeTiled({rows}×{cols}, box {box_rows}×{box_cols}) failed: {result:?}"
        )));
    }
    Ok(map.opaque)
}

/// Why a TMA kernel cannot read (or write) this matrix, if it cannot: the copy engine needs every
/// row to start on a 16-byte boundary.
pub fn alignment_error(dtype: Dtype, name: &str, cols_name: &str, cols: u32) -> Option<String> {
    let per_16_bytes = 16 / dtype.bytes();
    (cols % per_16_bytes != 0).then(|| {
        format!("it moves {name} with the copy engine (TMA), which needs 16-byte-aligned rows: {cols_name} = {cols} must be a multiple of {per_16_bytes}")
    })
}

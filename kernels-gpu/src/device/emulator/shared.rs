//! Dynamic shared memory of the emulated block.

use super::context::lane;

/// The start of this block's dynamic shared memory (128-byte aligned, `smem_bytes` long).
pub fn dynamic_shared<T>() -> *mut T {
    lane().block().smem as *mut T
}

//! Shared-memory addresses: on the emulator, the byte offset into the block's shared memory.

use std::panic::Location;

use super::context::{fail, lane};

/// The 32-bit shared address of a pointer into this block's shared memory (`cvta.to.shared`).
#[track_caller]
pub fn shared_address<T>(ptr: *const T) -> u32 {
    let block = lane().block();
    let offset = (ptr as usize).wrapping_sub(block.smem as usize);
    if offset > block.smem_bytes {
        fail(format!("shared_address of {ptr:?}, which is not in this block's shared memory, at {}", Location::caller()));
    }
    offset as u32
}

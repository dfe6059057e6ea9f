//! Dynamic shared memory: one array per block, sized at launch (`SPEC.smem_bytes`).

/// Alignment of the dynamic shared-memory array: enough for 16-byte vector accesses and for the
/// 128-byte swizzled tiles of the copy engine.
#[repr(C, align(128))]
pub struct SharedAlign([u8; 128]);

/// The start of this block's dynamic shared memory, as `*mut T`.
///
/// ```ptx
/// .extern .shared .align 128 .b8 gpu_launch_sized_workgroup_mem[];
/// mov.b64 %rd, gpu_launch_sized_workgroup_mem;
/// ```
/// Loads and stores through the pointer become `ld.shared` / `st.shared`.
#[inline(always)]
// ANCHOR: dynamic_shared
pub fn dynamic_shared<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<SharedAlign>() as *mut T
}
// ANCHOR_END: dynamic_shared

//! Shared-memory addresses as the asynchronous and matrix instructions take them.

/// The 32-bit shared-memory address of a generic pointer into this block's shared memory.
///
/// ```ptx
/// cvta.to.shared.u64 %rd, %rd_generic;
/// cvt.u32.u64 %r, %rd;
/// ```
/// `cp.async`, `ldmatrix` and the `wgmma` descriptors address shared memory with 32-bit offsets
/// into the shared window; computing one base address and adding byte offsets to it keeps the
/// address arithmetic in 32 bits.
#[inline(always)]
// ANCHOR: shared_address
pub fn shared_address<T>(ptr: *const T) -> u32 {
    let addr: u32;
    // SAFETY: address conversion only: no memory is accessed.
    unsafe {
        core::arch::asm!(
            "{{",
            ".reg .u64 s;",
            "cvta.to.shared.u64 s, {p};",
            "cvt.u32.u64 {a}, s;",
            "}}",
            p = in(reg64) ptr,
            a = out(reg32) addr,
            options(pure, nomem, nostack),
        );
    }
    addr
}
// ANCHOR_END: shared_address

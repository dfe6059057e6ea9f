//! Vector accesses: four `f32` moved by one instruction (CUDA's `float4`), or two (`float2`).
//!
//! A vector access needs its address to be a multiple of its size (16 or 8 bytes); callers
//! guarantee it (rows of a
//! row-major matrix are 16-byte aligned when the leading dimension is a multiple of 4 and the base
//! pointer is aligned, shared tiles when their stride is a multiple of 4).
//!
//! Most are ordinary loads and stores of an aligned type, not `asm!`: LLVM then emits the vector
//! instruction (as `.b32` moves of the bits) and still sees an ordinary memory access it may
//! schedule, combine and fold addresses into. The two global `v2` accesses are `asm!`, so that
//! their form is fixed. The state space (`.global` or `.shared`) comes from where the pointer came
//! from: LLVM tracks kernel pointer arguments as global memory and [`dynamic_shared`] pointers as
//! shared memory (`InferAddressSpaces`), so each function names the instruction it becomes when
//! used as intended (the PTX of the kernels shows it).
//!
//! [`dynamic_shared`]: super::dynamic_shared

/// Four floats with the alignment of one vector access.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct Vec4([f32; 4]);

/// Two floats with the alignment of one 8-byte vector access.
#[repr(C, align(8))]
#[derive(Clone, Copy)]
struct Vec2([f32; 2]);

/// Loads four consecutive floats of global memory.
///
/// ```ptx
/// ld.global.v4.b32 {%r0, %r1, %r2, %r3}, [%rd];
/// ```
///
/// # Safety
/// `p` points into global memory, is 16-byte aligned, and `p[0..4]` is readable.
#[inline(always)]
// ANCHOR: ld_global_v4
pub unsafe fn ld_global_v4(p: *const f32) -> [f32; 4] {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { (*(p as *const Vec4)).0 }
}
// ANCHOR_END: ld_global_v4

/// Stores four consecutive floats to global memory.
///
/// ```ptx
/// st.global.v4.b32 [%rd], {%r0, %r1, %r2, %r3};
/// ```
///
/// # Safety
/// `p` points into global memory, is 16-byte aligned, and `p[0..4]` is writable.
#[inline(always)]
pub unsafe fn st_global_v4(p: *mut f32, v: [f32; 4]) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { *(p as *mut Vec4) = Vec4(v) }
}

/// Loads four consecutive floats of shared memory.
///
/// ```ptx
/// ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [%rd];
/// ```
///
/// # Safety
/// `p` points into this block's shared memory and is 16-byte aligned.
#[inline(always)]
pub unsafe fn ld_shared_v4(p: *const f32) -> [f32; 4] {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { (*(p as *const Vec4)).0 }
}

/// Stores four consecutive floats to shared memory.
///
/// ```ptx
/// st.shared.v4.b32 [%rd], {%r0, %r1, %r2, %r3};
/// ```
///
/// # Safety
/// `p` points into this block's shared memory and is 16-byte aligned.
#[inline(always)]
pub unsafe fn st_shared_v4(p: *mut f32, v: [f32; 4]) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { *(p as *mut Vec4) = Vec4(v) }
}

/// Loads two consecutive floats of global memory.
///
/// ```ptx
/// ld.global.v2.f32 {%f0, %f1}, [%rd];
/// ```
/// Inline PTX rather than a dereference: LLVM turns an aligned pair of floats into one 64-bit
/// integer access and packs or unpacks it with shifts.
///
/// # Safety
/// `p` points into global memory, is 8-byte aligned, and `p[0..2]` is readable.
#[inline(always)]
pub unsafe fn ld_global_v2(p: *const f32) -> [f32; 2] {
    let (a, b): (f32, f32);
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        core::arch::asm!(
            "ld.global.v2.f32 {{{a}, {b}}}, [{p}];",
            p = in(reg64) p,
            a = out(reg32) a,
            b = out(reg32) b,
            options(nostack, readonly),
        )
    }
    [a, b]
}

/// Stores two consecutive floats to global memory.
///
/// ```ptx
/// st.global.v2.f32 [%rd], {%f0, %f1};
/// ```
/// Inline PTX for the reason given at [`ld_global_v2`].
///
/// # Safety
/// `p` points into global memory, is 8-byte aligned, and `p[0..2]` is writable.
#[inline(always)]
pub unsafe fn st_global_v2(p: *mut f32, v: [f32; 2]) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        core::arch::asm!(
            "st.global.v2.f32 [{p}], {{{a}, {b}}};",
            p = in(reg64) p,
            a = in(reg32) v[0],
            b = in(reg32) v[1],
            options(nostack),
        )
    }
}

/// Stores two consecutive floats to shared memory.
///
/// ```ptx
/// st.shared.v2.b32 [%rd], {%r0, %r1};
/// ```
///
/// # Safety
/// `p` points into this block's shared memory and is 8-byte aligned.
#[inline(always)]
pub unsafe fn st_shared_v2(p: *mut f32, v: [f32; 2]) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { *(p as *mut Vec2) = Vec2(v) }
}

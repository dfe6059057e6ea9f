//! `wgmma`: warpgroup matrix multiply-accumulate (sm_90a). Four consecutive warps (a
//! *warpgroup*, 128 threads, starting at a warp index divisible by 4) issue one
//! `wgmma.mma_async` together; the tensor cores read A and B straight from shared memory (through
//! *matrix descriptors*) and accumulate into registers spread over the 128 threads.
//!
//! The instruction is asynchronous:
//! 1. [`wgmma_fence`] before the first `wgmma` of a batch, so that earlier register writes to the
//!    accumulators are ordered before the tensor cores read them;
//! 2. any number of `wgmma_m64n*k*_*` calls;
//! 3. [`wgmma_commit_group`] closes them into a *wgmma-group*;
//! 4. [`wgmma_wait_group`]`::<N>` waits until at most `N` groups are pending. Until then the
//!    accumulator registers belong to the tensor cores: reading or writing them is undefined, and
//!    the shared memory they read must stay unchanged.
//!
//! Shared memory written by ordinary stores or `cp.async` is seen by the tensor cores (the
//! "async proxy") only after [`fence_proxy_async_shared`] by the writing threads, then a barrier.
//!
//! Accumulator layout of `m64nNk16` with `f32` accumulators (`N/2` registers per thread): warp
//! `w` of the warpgroup owns rows `16w .. 16w+15`; with `g = lane / 4`, `t = lane % 4`, register
//! `d[4j + i]` holds row `16w + g + 8·(i / 2)`, column `8j + 2t + (i % 2)`. That is the
//! `mma.m16n8` accumulator layout, repeated for each 8 columns.
//!
//! Matrix descriptors (64 bits, see [`matrix_descriptor`]) locate a tile in shared memory: its
//! start address, two strides (leading and stride byte offsets) and the swizzle pattern the
//! tile was stored with. The meaning of the strides depends on which dimension is contiguous
//! ("major"): see the wgmma rung for the two layouts rgemm uses.

use crate::spec::{Dtype, WgmmaElem};
use core::arch::asm;

pub use super::descriptor::{Swizzle, matrix_descriptor};

/// Orders this thread's earlier register accesses before the `wgmma`s that follow.
///
/// ```ptx
/// wgmma.fence.sync.aligned;
/// ```
#[inline(always)]
pub fn wgmma_fence() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("wgmma.fence.sync.aligned;", options(nostack)) }
}

/// Closes the `wgmma`s issued since the last commit into one wgmma-group.
///
/// ```ptx
/// wgmma.commit_group.sync.aligned;
/// ```
#[inline(always)]
pub fn wgmma_commit_group() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("wgmma.commit_group.sync.aligned;", options(nostack)) }
}

/// Waits until at most `N` wgmma-groups of this warpgroup are pending.
///
/// ```ptx
/// wgmma.wait_group.sync.aligned N;
/// ```
/// The compiler does not know that the accumulators change under it until here: follow this
/// with `fence_operands_*` on every accumulator array the finished groups wrote, so that no read
/// of them is moved before the wait.
#[inline(always)]
pub fn wgmma_wait_group<const N: u32>() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("wgmma.wait_group.sync.aligned {n};", n = const N, options(nostack)) }
}

/// Makes this thread's earlier generic-proxy writes to shared memory (ordinary stores,
/// `cp.async`) visible to the async proxy (`wgmma`, TMA). Issue it after the writes, before the
/// barrier that hands the tile to the tensor cores.
///
/// ```ptx
/// fence.proxy.async.shared::cta;
/// ```
#[inline(always)]
pub fn fence_proxy_async_shared() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("fence.proxy.async.shared::cta;", options(nostack)) }
}

/// The one skeleton of every `wgmma` wrapper below: a predicate from `accumulate` (the
/// instruction's scale-d: false ignores the old `d`), the instruction `[$instr]` with the
/// accumulators `d[i]` as its first operand list, then `[$operands]` (the rest of its operands,
/// naming the `asm!` arguments in `$args`).
macro_rules! wgmma_asm {
    ($d:ident, [$($instr:tt)*], [$($operands:tt)*]; $($i:literal)+; $last:literal; $($args:tt)*) => {
        asm!(
            "{{",
            ".reg .pred p;",
            "setp.ne.b32 p, {scale_d}, 0;",
            concat!($($instr)*, " {{", $("{", $i, "}, ",)+ "{", $last, "}", "}}, ", $($operands)*),
            "}}",
            $(inout(reg32) $d[$i],)+
            inout(reg32) $d[$last],
            $($args)*
            options(nostack),
        )
    };
}

macro_rules! wgmma_fn {
    ($(#[$doc:meta])* $name:ident, $shape:literal, $ty:literal, $n:literal; $($i:literal)+; $last:literal) => {
        $(#[$doc])*
        ///
        /// `TRANS_A` / `TRANS_B` are 0 for a K-major operand (K contiguous in memory) and 1 for
        /// an M- or N-major one. `accumulate = false` ignores the old `d` (`d = A · B`).
        ///
        /// # Safety
        /// Executed by all 128 threads of a warpgroup together; the descriptors describe tiles
        /// of this block's shared memory that stay unchanged until a wait covers this group; `d`
        /// must not be touched until then.
        #[inline(always)]
        pub unsafe fn $name<const TRANS_A: u32, const TRANS_B: u32>(d: &mut [f32; $n], desc_a: u64, desc_b: u64, accumulate: bool) {
            // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the
            // launch, not touch memory.
            unsafe {
                wgmma_asm!(
                    d, ["wgmma.mma_async.sync.aligned.", $shape, ".f32.", $ty, ".", $ty], ["{desc_a}, {desc_b}, p, 1, 1, {ta}, {tb};"];
                    $($i)+; $last;
                    desc_a = in(reg64) desc_a,
                    desc_b = in(reg64) desc_b,
                    scale_d = in(reg32) accumulate as u32,
                    ta = const TRANS_A,
                    tb = const TRANS_B,
                )
            }
        }
    };
}

macro_rules! operand_fence_fn {
    ($(#[$doc:meta])* $name:ident, $n:literal; $($i:literal)+; $last:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(d: &mut [f32; $n]) {
            // SAFETY: a comment as instruction: it only ties the registers of `d` to this point.
            unsafe {
                asm!(
                    concat!("// fence operands: ", $("{", $i, "} ",)+ "{", $last, "}"),
                    $(inout(reg32) d[$i],)+
                    inout(reg32) d[$last],
                    options(nostack, nomem),
                )
            }
        }
    };
}

/// `d += A · B` (or `d = A · B`) for one K-step of a 64×`n` tile of `E`: 32 bytes of K, that is
/// k16 for the 16-bit types and k32 for FP8; `n` = 64, 128, 192 or 256 (FP8: 128 or 256). `d`
/// holds at least `n/2` accumulators and only the first `n/2` are used. `n` is a constant of the
/// kernel's tile, so the instruction for the element type and shape is chosen at compile time.
///
/// FP8 has no transposed forms: both operands must be K-major (`TRANS_A = TRANS_B = 0`).
///
/// # Safety
/// As for the instruction functions below; `n` must be one of the shapes above.
#[inline(always)]
pub unsafe fn wgmma_m64<E: WgmmaElem, const TRANS_A: u32, const TRANS_B: u32>(
    d: &mut [f32; 128],
    n: usize,
    desc_a: u64,
    desc_b: u64,
    accumulate: bool,
) {
    // The first n/2 accumulators, as an array of the instruction's size.
    let p = d.as_mut_ptr();
    // SAFETY: the caller upholds the contract above; each cast views the first n/2 floats of `d`,
    // in bounds.
    unsafe {
        match (n, E::DTYPE) {
            (64, Dtype::Bf16) => wgmma_m64n64k16_bf16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 32]), desc_a, desc_b, accumulate),
            (64, Dtype::F16) => wgmma_m64n64k16_f16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 32]), desc_a, desc_b, accumulate),
            (128, Dtype::Bf16) => wgmma_m64n128k16_bf16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 64]), desc_a, desc_b, accumulate),
            (128, Dtype::F16) => wgmma_m64n128k16_f16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 64]), desc_a, desc_b, accumulate),
            (192, Dtype::Bf16) => wgmma_m64n192k16_bf16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 96]), desc_a, desc_b, accumulate),
            (192, Dtype::F16) => wgmma_m64n192k16_f16::<TRANS_A, TRANS_B>(&mut *(p as *mut [f32; 96]), desc_a, desc_b, accumulate),
            (256, Dtype::Bf16) => wgmma_m64n256k16_bf16::<TRANS_A, TRANS_B>(d, desc_a, desc_b, accumulate),
            (256, Dtype::F16) => wgmma_m64n256k16_f16::<TRANS_A, TRANS_B>(d, desc_a, desc_b, accumulate),
            (128, Dtype::E4m3) if TRANS_A == 0 && TRANS_B == 0 => wgmma_m64n128k32_e4m3(&mut *(p as *mut [f32; 64]), desc_a, desc_b, accumulate),
            (256, Dtype::E4m3) if TRANS_A == 0 && TRANS_B == 0 => wgmma_m64n256k32_e4m3(d, desc_a, desc_b, accumulate),
            _ => super::trap(),
        }
    }
}

/// Pins the first N/2 accumulators of `d` (N = 64, 128, 192 or 256) after a
/// [`wgmma_wait_group`]; see [`fence_accumulators`].
#[inline(always)]
pub fn fence_operands<const N: usize>(d: &mut [f32; 128]) {
    fence_accumulators(d, N);
}

/// Pins the first `n/2` accumulators of `d` (`n` = 64, 128, 192 or 256, a constant of the kernel's
/// tile) after a [`wgmma_wait_group`]; for 192 all 128 are pinned (no 96-register fence exists).
#[inline(always)]
pub fn fence_accumulators(d: &mut [f32; 128], n: usize) {
    let p = d.as_mut_ptr();
    match n {
        // SAFETY: a view of the first 32 floats of the 128-float array, uniquely borrowed through
        // `d`.
        64 => fence_operands_32(unsafe { &mut *(p as *mut [f32; 32]) }),
        // SAFETY: a view of the first 64 floats of the 128-float array, uniquely borrowed through
        // `d`.
        128 => fence_operands_64(unsafe { &mut *(p as *mut [f32; 64]) }),
        _ => fence_operands_128(d),
    }
}

wgmma_fn!(
    /// `d += A · B` for a 64×64×16 tile, bf16 inputs, `f32` accumulators (32 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
    ///     {%f_d0, ..., %f_d31}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n64k16_bf16, "m64n64k16", "bf16", 32; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; 31
);

wgmma_fn!(
    /// `d += A · B` for a 64×64×16 tile, f16 inputs, `f32` accumulators (32 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
    ///     {%f_d0, ..., %f_d31}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n64k16_f16, "m64n64k16", "f16", 32; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; 31
);

operand_fence_fn!(
    /// Pins 32 accumulators (one m64n64 tile) in place: see [`wgmma_wait_group`].
    ///
    /// ```ptx
    /// // fence operands: %f0 %f1 ... (a comment: no instruction, but the compiler must assume
    /// // every register is read and rewritten here)
    /// ```
    fence_operands_32, 32; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; 31
);

wgmma_fn!(
    /// `d += A · B` for a 64×128×16 tile, bf16 inputs, `f32` accumulators (64 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
    ///     {%f_d0, ..., %f_d63}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n128k16_bf16, "m64n128k16", "bf16", 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62; 63
);

wgmma_fn!(
    /// `d += A · B` for a 64×128×16 tile, f16 inputs, `f32` accumulators (64 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
    ///     {%f_d0, ..., %f_d63}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n128k16_f16, "m64n128k16", "f16", 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62; 63
);

operand_fence_fn!(
    /// Pins 64 accumulators (one m64n128 tile) in place: see [`wgmma_wait_group`].
    ///
    /// ```ptx
    /// // fence operands: %f0 %f1 ... (a comment: no instruction, but the compiler must assume
    /// // every register is read and rewritten here)
    /// ```
    fence_operands_64, 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62; 63
);

wgmma_fn!(
    /// `d += A · B` for a 64×192×16 tile, bf16 inputs, `f32` accumulators (96 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
    ///     {%f_d0, ..., %f_d95}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n192k16_bf16, "m64n192k16", "bf16", 96; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94; 95
);

wgmma_fn!(
    /// `d += A · B` for a 64×192×16 tile, f16 inputs, `f32` accumulators (96 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16
    ///     {%f_d0, ..., %f_d95}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n192k16_f16, "m64n192k16", "f16", 96; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94; 95
);

wgmma_fn!(
    /// `d += A · B` for a 64×256×16 tile, bf16 inputs, `f32` accumulators (128 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
    ///     {%f_d0, ..., %f_d127}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n256k16_bf16, "m64n256k16", "bf16", 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126; 127
);

wgmma_fn!(
    /// `d += A · B` for a 64×256×16 tile, f16 inputs, `f32` accumulators (128 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
    ///     {%f_d0, ..., %f_d127}, %rd_desc_a, %rd_desc_b, p, 1, 1, TRANS_A, TRANS_B; }
    /// ```
    wgmma_m64n256k16_f16, "m64n256k16", "f16", 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126; 127
);

operand_fence_fn!(
    /// Pins 128 accumulators (one m64n256 tile) in place: see [`wgmma_wait_group`].
    ///
    /// ```ptx
    /// // fence operands: %f0 %f1 ... (a comment: no instruction, but the compiler must assume
    /// // every register is read and rewritten here)
    /// ```
    fence_operands_128, 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126; 127
);

macro_rules! wgmma_fp8_fn {
    ($(#[$doc:meta])* $name:ident, $shape:literal, $n:literal; $($i:literal)+; $last:literal) => {
        $(#[$doc])*
        ///
        /// Both operands K-major (FP8 has no transposed forms). `accumulate = false` ignores the
        /// old `d`. The tensor cores add the products into `d` with fewer bits than f32 keeps
        /// (see rung 16).
        ///
        /// # Safety
        /// Executed by all 128 threads of a warpgroup together; the descriptors describe tiles
        /// of this block's shared memory that stay unchanged until a wait covers this group; `d`
        /// must not be touched until then.
        #[inline(always)]
        pub unsafe fn $name(d: &mut [f32; $n], desc_a: u64, desc_b: u64, accumulate: bool) {
            // SAFETY: the caller's contract (above): a warpgroup-wide call, A and B where the
            // descriptors say, `d` left alone until a wait covers the group.
            unsafe {
                wgmma_asm!(
                    d, ["wgmma.mma_async.sync.aligned.", $shape, ".f32.e4m3.e4m3"], ["{desc_a}, {desc_b}, p, 1, 1;"];
                    $($i)+; $last;
                    desc_a = in(reg64) desc_a,
                    desc_b = in(reg64) desc_b,
                    scale_d = in(reg32) accumulate as u32,
                )
            }
        }
    };
}

wgmma_fp8_fn!(
    /// `d += A · B` for a 64×128×32 tile, e4m3 inputs, `f32` accumulators (64 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
    ///     {%f_d0, ..., %f_d63}, %rd_desc_a, %rd_desc_b, p, 1, 1; }
    /// ```
    wgmma_m64n128k32_e4m3, "m64n128k32", 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62; 63
);

wgmma_fp8_fn!(
    /// `d += A · B` for a 64×256×32 tile, e4m3 inputs, `f32` accumulators (128 per thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3
    ///     {%f_d0, ..., %f_d127}, %rd_desc_a, %rd_desc_b, p, 1, 1; }
    /// ```
    wgmma_m64n256k32_e4m3, "m64n256k32", 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126; 127
);

macro_rules! wgmma_tf32_fn {
    ($(#[$doc:meta])* $name:ident, $shape:literal, $n:literal; $($i:literal)+; $last:literal) => {
        $(#[$doc])*
        ///
        /// A (64×8) comes from registers: thread `32w + 4g + t` of the warpgroup holds
        /// `a = [A(16w + g, t), A(16w + g + 8, t), A(16w + g, t + 4), A(16w + g + 8, t + 4)]` as
        /// fp32 bit patterns. B (8×N) is read from shared memory through `desc_b`, K-major (tf32
        /// has no transposed form). The tensor cores read only the top 19 bits of each input
        /// (sign, exponent, 10 mantissa bits): the low 13 bits are ignored, i.e. truncated.
        ///
        /// # Safety
        /// Executed by all 128 threads of a warpgroup together; `desc_b` describes a tile of this
        /// block's shared memory that stays unchanged until a wait covers this group; `d` must
        /// not be touched until then.
        #[inline(always)]
        pub unsafe fn $name(d: &mut [f32; $n], a: [u32; 4], desc_b: u64, accumulate: bool) {
            // SAFETY: the caller's contract (above): a warpgroup-wide call, B where the
            // descriptor says, `d` left alone until a wait covers the group.
            unsafe {
                wgmma_asm!(
                    d, ["wgmma.mma_async.sync.aligned.", $shape, ".f32.tf32.tf32"], ["{{{a0}, {a1}, {a2}, {a3}}}, {desc_b}, p, 1, 1;"];
                    $($i)+; $last;
                    a0 = in(reg32) a[0],
                    a1 = in(reg32) a[1],
                    a2 = in(reg32) a[2],
                    a3 = in(reg32) a[3],
                    desc_b = in(reg64) desc_b,
                    scale_d = in(reg32) accumulate as u32,
                )
            }
        }
    };
}

/// `d += A · B` for a 64×N×8 tile of tf32, N = 128 or 256 given by `N`, A from registers (see
/// [`wgmma_m64n128k8_tf32_rs`]); `d` holds at least N/2 accumulators and only the first N/2 are
/// used.
///
/// # Safety
/// As for the instruction functions; `N` must be 128 or 256.
#[inline(always)]
pub unsafe fn wgmma_m64k8_tf32_rs<const N: usize>(d: &mut [f32; 128], a: [u32; 4], desc_b: u64, accumulate: bool) {
    let p = d.as_mut_ptr();
    // SAFETY: `d` holds 128 floats, so its first 64 (N = 128) or all 128 (N = 256) are the
    // accumulators of the instruction; the rest is the caller's contract.
    unsafe {
        match N {
            128 => wgmma_m64n128k8_tf32_rs(&mut *(p as *mut [f32; 64]), a, desc_b, accumulate),
            256 => wgmma_m64n256k8_tf32_rs(d, a, desc_b, accumulate),
            _ => super::trap(),
        }
    }
}

wgmma_tf32_fn!(
    /// `d += A · B` for a 64×128×8 tile, tf32 inputs (A in registers), `f32` accumulators (64 per
    /// thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
    ///     {%f_d0, ..., %f_d63}, {%r_a0, %r_a1, %r_a2, %r_a3}, %rd_desc_b, p, 1, 1; }
    /// ```
    wgmma_m64n128k8_tf32_rs, "m64n128k8", 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62; 63
);

wgmma_tf32_fn!(
    /// `d += A · B` for a 64×256×8 tile, tf32 inputs (A in registers), `f32` accumulators (128 per
    /// thread).
    ///
    /// ```ptx
    /// { .reg .pred p; setp.ne.b32 p, %r_accumulate, 0;
    ///   wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
    ///     {%f_d0, ..., %f_d127}, {%r_a0, %r_a1, %r_a2, %r_a3}, %rd_desc_b, p, 1, 1; }
    /// ```
    wgmma_m64n256k8_tf32_rs, "m64n256k8", 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126; 127
);

operand_fence_fn!(
    /// Pins 16 registers in place: values that must not be used before a
    /// [`wgmma_wait_group`] (such as the inputs of the next wgmma A fragments, which may only be
    /// written once the wgmmas that read the previous ones are complete) are passed through it
    /// after the wait.
    ///
    /// ```ptx
    /// // fence operands: %f0 %f1 ... (a comment: no instruction, but the compiler must assume
    /// // every register is read and rewritten here)
    /// ```
    fence_operands_16, 16; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14; 15
);

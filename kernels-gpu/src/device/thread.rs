//! Where a thread is: its index in the block, the block's index in the grid, its warp and lane.
//! Blocks are launched one-dimensional; the grid is three-dimensional (x over N, y over M, z over
//! the products of a batch).

use core::arch::nvptx;

/// Threads in a warp.
pub const WARP_SIZE: u32 = 32;

/// Index of this thread in its block.
///
/// ```ptx
/// mov.u32 %r, %tid.x;
/// ```
#[inline(always)]
pub fn thread_idx() -> u32 {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { nvptx::_thread_idx_x() as u32 }
}

/// Column of this block in the grid (which block of N).
///
/// ```ptx
/// mov.u32 %r, %ctaid.x;
/// ```
#[inline(always)]
pub fn block_col() -> u32 {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { nvptx::_block_idx_x() as u32 }
}

/// Row of this block in the grid (which block of M).
///
/// ```ptx
/// mov.u32 %r, %ctaid.y;
/// ```
#[inline(always)]
pub fn block_row() -> u32 {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { nvptx::_block_idx_y() as u32 }
}

/// Which product of a strided batch this block computes (the grid's z index).
///
/// ```ptx
/// mov.u32 %r, %ctaid.z;
/// ```
#[inline(always)]
pub fn block_batch() -> u32 {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { nvptx::_block_idx_z() as u32 }
}

/// Planes of the grid (`%nctaid.z`): products of a batch launched at once.
///
/// ```ptx
/// mov.u32 %r, %nctaid.z;
/// ```
#[inline(always)]
pub fn grid_planes() -> u32 {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { nvptx::_grid_dim_z() as u32 }
}

/// Index of this thread's warp in its block.
#[inline(always)]
pub fn warp_idx() -> u32 {
    thread_idx() / WARP_SIZE
}

/// Index of this thread in its warp.
#[inline(always)]
pub fn lane_idx() -> u32 {
    thread_idx() % WARP_SIZE
}

/// Waits until every thread of the block has arrived, and makes their shared- and global-memory
/// writes before the barrier visible to the block after it.
///
/// ```ptx
/// bar.sync 0;
/// ```
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { nvptx::_syncthreads() }
}

/// Waits until `threads` threads (whole warps) have arrived at the named barrier `id` (1..=15;
/// 0 is [`sync_threads`]'s), and orders the shared- and global-memory accesses of those threads
/// before it against theirs after it. Lets a subset of the block (one warpgroup) meet without
/// stopping the others.
///
/// ```ptx
/// barrier.sync id, threads;   // the same instruction as bar.sync id, threads
/// ```
#[inline(always)]
pub fn named_barrier_sync<const THREADS: u32>(id: u32) {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { barrier_sync_count(id, THREADS) }
}

unsafe extern "C" {
    /// `bar.sync id, threads` as LLVM's intrinsic, which LLVM knows to be *convergent*: it never
    /// copies the barrier into a branch that only some threads take. An `asm!` block carries no
    /// such mark, and LLVM may duplicate one into the arms of a preceding `if leader { .. }`,
    /// leaving a barrier that some warps meet twice and others not at all.
    #[link_name = "llvm.nvvm.barrier.sync.cnt"]
    fn barrier_sync_count(id: u32, threads: u32);

    /// `bar.warp.sync mask`, likewise convergent for LLVM ([`sync_warp`]).
    #[link_name = "llvm.nvvm.bar.warp.sync"]
    fn warp_sync(mask: u32);
}

/// Blocks in the grid along x (over N) and y (over M).
///
/// ```ptx
/// mov.u32 %r, %nctaid.x;
/// mov.u32 %r, %nctaid.y;
/// ```
#[inline(always)]
pub fn grid_dims() -> (u32, u32) {
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { (nvptx::_grid_dim_x() as u32, nvptx::_grid_dim_y() as u32) }
}

/// This block's index in the grid, counted row by row (`ctaid.y · nctaid.x + ctaid.x`), and the
/// number of blocks: a kernel that walks a list of tiles starts at the first and strides by the
/// second, so it is correct for any grid (one tile per block, or one block per SM).
#[inline(always)]
pub fn block_linear() -> (u32, u32) {
    let (gx, gy) = grid_dims();
    (block_row() * gx + block_col(), gx * gy)
}

/// Changes this warpgroup's register budget per thread to `N` (a multiple of 8, 24..=256).
/// `dec` gives registers back to the SM's pool; `inc` waits until the pool has them. Every
/// thread of the warpgroup must execute the same call. ptxas honours it only for a kernel with a
/// known register cap (`.maxntid` with `.minnctapersm`, or `.maxnreg`).
///
/// ```ptx
/// setmaxnreg.dec.sync.aligned.u32 N;
/// setmaxnreg.inc.sync.aligned.u32 N;
/// ```
#[inline(always)]
pub fn setmaxnreg_dec<const N: u32>() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { core::arch::asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack)) }
}

/// See [`setmaxnreg_dec`].
#[inline(always)]
pub fn setmaxnreg_inc<const N: u32>() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { core::arch::asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack)) }
}

/// Waits until the grid this one depends on has completed and its writes are visible: with a
/// programmatic dependent launch (the host's `Gpu::launch_dependent`), the grid launched before this
/// one in the stream, which may still be running when this grid starts; without one, nothing
/// (the stream already ordered the two). A dependent grid calls it before it reads what the grid
/// before it wrote, or writes what that grid reads.
///
/// ```ptx
/// griddepcontrol.wait;
/// ```
#[inline(always)]
pub fn wait_for_previous_grid() {
    // SAFETY: synchronisation only, no operands.
    unsafe { core::arch::asm!("griddepcontrol.wait;", options(nostack)) }
}

/// Lets a programmatic dependent launch that follows this grid start its blocks (up to their
/// [`wait_for_previous_grid`]) once every block of this grid has called it or exited, instead of
/// when the whole grid has exited. No effect on a launch that is not programmatic.
///
/// ```ptx
/// griddepcontrol.launch_dependents;
/// ```
#[inline(always)]
pub fn let_next_grid_start() {
    // SAFETY: a scheduling hint, no operands.
    unsafe { core::arch::asm!("griddepcontrol.launch_dependents;", options(nostack)) }
}

/// What every entry of the module does first. The host queues each as a programmatic dependent
/// launch (`Gpu::launch_dependent`), so its blocks may start while the grid before it still
/// runs: it lets the grid after it start likewise ([`let_next_grid_start`]), then waits for the
/// grid before it to finish ([`wait_for_previous_grid`]) before it touches memory. The stream's
/// order holds as for ordinary launches; what is saved is the gap between two launches.
#[inline(always)]
pub fn start_after_previous_grid() {
    let_next_grid_start();
    wait_for_previous_grid();
}

/// Waits until every lane of the warp has arrived, and orders their memory accesses before it
/// against those after it (CUDA's `__syncwarp()`).
///
/// ```ptx
/// bar.warp.sync 0xffffffff;
/// ```
#[inline(always)]
pub fn sync_warp() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { warp_sync(u32::MAX) }
}

/// The value of `v` held by lane `lane_idx() ^ MASK` of this warp (a butterfly exchange): with
/// masks 16, 8, 4, 2, 1 in turn, `v + shfl_xor(v)` leaves every lane with the warp's sum. Every
/// lane of the warp must make the same call.
///
/// ```ptx
/// shfl.sync.bfly.b32 %r, %v, MASK, 31, 0xffffffff;
/// ```
#[inline(always)]
pub fn shfl_xor<const MASK: u32>(v: f32) -> f32 {
    let out: f32;
    // SAFETY: a register-to-register exchange among the full warp; no memory is touched.
    unsafe { core::arch::asm!("shfl.sync.bfly.b32 {o}, {v}, {m}, 31, 0xffffffff;", o = out(reg32) out, v = in(reg32) v, m = const MASK, options(nostack)) };
    out
}

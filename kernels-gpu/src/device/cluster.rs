//! Thread-block clusters (sm_90): blocks launched together on neighbouring SMs that can read,
//! write and signal each other's shared memory ("distributed shared memory"). rgemm uses them for
//! one thing: two blocks that need the same tile of B load half of it each and have the copy
//! engine write both halves into both blocks (TMA *multicast*), halving B's traffic from L2.
//!
//! A kernel declares its cluster shape at compile time (PTX `.reqnctapercluster`, written by the
//! host next to `.maxntid`); the grid must then be a multiple of it.

use core::arch::asm;

macro_rules! special_u32 {
    ($(#[$doc:meta])* $name:ident, $reg:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name() -> u32 {
            let r: u32;
            // SAFETY: reads a special register; no memory is accessed.
            unsafe { asm!(concat!("mov.u32 {r}, ", $reg, ";"), r = out(reg32) r, options(pure, nomem, nostack)) };
            r
        }
    };
}

special_u32!(
    /// This block's rank in its cluster (`mov.u32 %r, %cluster_ctarank;`).
    cluster_rank, "%cluster_ctarank"
);
special_u32!(
    /// This cluster's index in the grid along x (`%clusterid.x`).
    cluster_id_x, "%clusterid.x"
);
special_u32!(
    /// This cluster's index in the grid along y (`%clusterid.y`).
    cluster_id_y, "%clusterid.y"
);
special_u32!(
    /// Clusters in the grid along x (`%nclusterid.x`).
    cluster_count_x, "%nclusterid.x"
);
special_u32!(
    /// Clusters in the grid along y (`%nclusterid.y`).
    cluster_count_y, "%nclusterid.y"
);

/// This cluster's index in the grid, counted row by row, and the number of clusters (the
/// cluster counterpart of [`block_linear`](super::block_linear)).
#[inline(always)]
pub fn cluster_linear() -> (u32, u32) {
    let (cx, cy) = (cluster_count_x(), cluster_count_y());
    (cluster_id_y() * cx + cluster_id_x(), cx * cy)
}

/// Waits until every thread of every block of the cluster has arrived; orders shared-memory
/// accesses (and mbarrier initialisations) before it with those after it, cluster-wide.
///
/// The `.aligned` forms would require every warp to reach the barrier converged; rgemm calls it
/// after branches taken by single threads, so it uses the general form.
///
/// ```ptx
/// barrier.cluster.arrive.release;
/// barrier.cluster.wait.acquire;
/// ```
#[inline(always)]
pub fn cluster_sync() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("barrier.cluster.arrive.release;", "barrier.cluster.wait.acquire;", options(nostack)) }
}

/// The address, in the cluster's shared window, of the variable at `addr` of this block's shared
/// memory, in the block of rank `rank`.
///
/// ```ptx
/// mapa.shared::cluster.u32 %r, addr, rank;
/// ```
#[inline(always)]
pub fn map_shared_rank(addr: u32, rank: u32) -> u32 {
    let r: u32;
    // SAFETY: computes an address from two registers; no memory is accessed.
    unsafe { asm!("mapa.shared::cluster.u32 {r}, {a}, {k};", r = out(reg32) r, a = in(reg32) addr, k = in(reg32) rank, options(pure, nomem, nostack)) };
    r
}

/// Arrives on an mbarrier of any block of the cluster (`addr` from [`map_shared_rank`]), with
/// the instruction's default semantics (release at CTA scope), as CUTLASS's `ClusterBarrier`
/// does. An explicit `.release.cluster` here made the clustered rung-14 kernels run at about half
/// speed, apparently waiting for the wgmma still in flight (the measurement is in `docs/perf/`).
///
/// ```ptx
/// mbarrier.arrive.shared::cluster.b64 _, [addr];
/// ```
///
/// # Safety
/// `addr` must be an initialised mbarrier of a block of this cluster that is still running.
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(addr: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { asm!("mbarrier.arrive.shared::cluster.b64 _, [{a}];", a = in(reg32) addr, options(nostack)) }
}

/// [`tma_load_3d`](super::tma_load_3d) into every block of the cluster whose rank is set in
/// `cta_mask`: the box lands at shared offset `dst` of each of them, and each one's mbarrier at
/// offset `bar` receives the bytes.
///
/// ```ptx
/// cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
///     [dst], [map, {x, y, z}], [bar], cta_mask;
/// ```
///
/// # Safety
/// As for `tma_load_3d`, in every destination block.
#[inline(always)]
pub unsafe fn tma_load_3d_multicast(dst: u32, map: *const super::TensorMap, x: i32, y: i32, z: i32, bar: u32, cta_mask: u16) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{d}], [{m}, {{{x}, {y}, {z}}}], [{b}], {k};",
            d = in(reg32) dst,
            m = in(reg64) map,
            x = in(reg32) x,
            y = in(reg32) y,
            z = in(reg32) z,
            b = in(reg32) bar,
            k = in(reg16) cta_mask,
            options(nostack),
        )
    }
}

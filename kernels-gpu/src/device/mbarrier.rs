//! Memory barriers in shared memory (`mbarrier`, sm_80+; transaction counts sm_90).
//!
//! An mbarrier is a 64-bit object in shared memory that counts *arrivals* and, on Hopper, bytes
//! of asynchronous *transactions*. It completes a *phase* when the expected arrivals have arrived
//! and the expected bytes have landed; then it flips its phase parity and starts the next phase
//! with the same arrival count. A waiter names the parity of the phase it waits for, so one
//! barrier can be reused for every trip around a ring of buffers.
//!
//! Unlike `cp.async` groups, which each thread waits on for its own copies, an mbarrier is shared:
//! one thread starts a copy of the copy engine (TMA) and every thread can wait for its bytes.
//! `addr` is a shared-memory address from [`shared_address`](super::shared_address), 8-byte
//! aligned.

use core::arch::asm;

/// Initialises the barrier at `addr` to expect `arrivals` arrivals per phase (phase parity 0).
///
/// ```ptx
/// mbarrier.init.shared::cta.b64 [addr], arrivals;
/// ```
///
/// # Safety
/// `addr` must be a shared address of this block, 8-byte aligned, not in use by other threads.
#[inline(always)]
pub unsafe fn mbarrier_init(addr: u32, arrivals: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { asm!("mbarrier.init.shared::cta.b64 [{a}], {n};", a = in(reg32) addr, n = in(reg32) arrivals, options(nostack)) }
}

/// Makes barrier initialisations visible to the copy engine (the async proxy) before it
/// signals them.
///
/// ```ptx
/// fence.mbarrier_init.release.cluster;
/// ```
#[inline(always)]
pub fn fence_mbarrier_init() {
    // SAFETY: synchronisation only, no memory operands: a misuse can hang or trap the launch, not
    // touch memory.
    unsafe { asm!("fence.mbarrier_init.release.cluster;", options(nostack)) }
}

/// Arrives on the barrier (one of the expected arrivals of the current phase).
///
/// ```ptx
/// mbarrier.arrive.shared::cta.b64 _, [addr];
/// ```
///
/// # Safety
/// `addr` must be an initialised barrier of this block.
#[inline(always)]
pub unsafe fn mbarrier_arrive(addr: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe { asm!("mbarrier.arrive.shared::cta.b64 _, [{a}];", a = in(reg32) addr, options(nostack)) }
}

/// Arrives on the barrier and adds `bytes` to the transactions the current phase waits for:
/// the phase completes only when asynchronous copies have delivered that many bytes.
///
/// ```ptx
/// mbarrier.arrive.expect_tx.shared::cta.b64 _, [addr], bytes;
/// ```
///
/// # Safety
/// `addr` must be an initialised barrier of this block.
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(addr: u32, bytes: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{a}], {b};", a = in(reg32) addr, b = in(reg32) bytes, options(nostack))
    }
}

/// Whether the phase with parity `parity` has completed (waits a bounded, hardware-chosen time
/// before answering no).
///
/// ```ptx
/// mbarrier.try_wait.parity.shared::cta.b64 p, [addr], parity;
/// selp.u32 done, 1, 0, p;
/// ```
///
/// # Safety
/// `addr` must be an initialised barrier of this block.
#[inline(always)]
// ANCHOR: try_wait
pub unsafe fn mbarrier_try_wait(addr: u32, parity: u32) -> bool {
    let done: u32;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    unsafe {
        asm!(
            "{{",
            ".reg .pred p;",
            "mbarrier.try_wait.parity.shared::cta.b64 p, [{a}], {ph};",
            "selp.u32 {d}, 1, 0, p;",
            "}}",
            a = in(reg32) addr,
            ph = in(reg32) parity,
            d = out(reg32) done,
            options(nostack),
        )
    }
    done != 0
}

/// Nanoseconds on the GPU's global timer.
///
/// ```ptx
/// mov.u64 %rd, %globaltimer;
/// ```
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    let t: u64;
    // SAFETY: reads a special register; no memory is accessed.
    unsafe { asm!("mov.u64 {t}, %globaltimer;", t = out(reg64) t, options(nomem, nostack)) }
    t
}

/// Nanoseconds a [`mbarrier_wait`] waits before it gives up.
pub const MBARRIER_TIMEOUT_NS: u64 = 20_000_000_000;

/// Waits until the phase with parity `parity` has completed. PTX has no local labels for a loop
/// inside `asm!`, so the loop is Rust's. It cannot hang: after [`MBARRIER_TIMEOUT_NS`] of failed
/// waits it traps,
/// so a wrong arrival or byte count fails the launch (`CUDA_ERROR_LAUNCH_FAILED`) instead of
/// hanging the GPU. The timer is read only once the barrier has failed a thousand times, so
/// the fast path is one `try_wait`.
///
/// # Safety
/// `addr` must be an initialised barrier of this block whose phase will complete.
#[inline(always)]
pub unsafe fn mbarrier_wait(addr: u32, parity: u32) {
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    if unsafe { mbarrier_try_wait(addr, parity) } {
        return;
    }
    let mut tries = 0u32;
    let mut start = 0u64;
    // SAFETY: the caller upholds the `# Safety` contract above; the instruction touches only what
    // it names.
    while !unsafe { mbarrier_try_wait(addr, parity) } {
        tries += 1;
        if tries % 1024 == 0 {
            let now = global_timer_ns();
            if tries == 1024 {
                start = now;
            } else if now.wrapping_sub(start) > MBARRIER_TIMEOUT_NS {
                super::trap();
            }
        }
    }
}
// ANCHOR_END: try_wait

//! `unroll!`: a loop the compiler is guaranteed to unroll completely.
//!
//! Register arrays (accumulators) stay in registers only if every index into them is a constant
//! after compilation; a loop that LLVM declines to unroll (its unrolled body is too large for the
//! unroll threshold) indexes them at run time and sends the whole array to local memory. Rather
//! than raising the threshold for every kernel, `unroll!(n, |i| { ... })` writes the body out
//! once per `i` in `0..64`, each copy guarded by `i < n`: with `n` a constant, the compiler keeps
//! exactly the first `n` copies.
//!
//! ```ignore
//! unroll!(BN / 8, |j| {
//!     c.store(0, 8 * j as u32, acc[4 * j]);
//! });
//! ```
//! `n` must be at most 64 (the kernels check this with their other shape assertions).
//!
//! `unroll_short!` is the same for `n` at most [`UNROLL_SHORT_MAX`] (16 copies): short enough to
//! nest, as a thread tile's loops over its rows and columns do (16 × 16 copies of the body).

/// The largest trip count `unroll!` supports.
pub const UNROLL_MAX: usize = 64;

/// The largest trip count `unroll_short!` supports.
pub const UNROLL_SHORT_MAX: usize = 16;

#[allow(unused_macros)] // only GPU code unrolls
macro_rules! unroll {
    ($n:expr, |$i:ident| $body:block) => {{
        let n: usize = $n;
        unroll!(@outer n, $i, $body; 0 1 2 3 4 5 6 7);
    }};
    (@outer $n:ident, $i:ident, $body:block; $($hi:literal)*) => {
        $( unroll!(@inner $n, $i, $body, $hi; 0 1 2 3 4 5 6 7); )*
    };
    (@inner $n:ident, $i:ident, $body:block, $hi:literal; $($lo:literal)*) => {
        // The copies past `n` are dead, but the compiler's constant checks still see them index
        // past the end of arrays sized for `n`: that is expected here.
        $( #[allow(unconditional_panic)] {
            let $i: usize = $hi * 8 + $lo;
            if $i < $n $body
        } )*
    };
}

#[allow(unused_macros)] // only GPU code unrolls
macro_rules! unroll_short {
    ($n:expr, |$i:ident| $body:block) => {{
        const { assert!($n <= $crate::unroll::UNROLL_SHORT_MAX, "unroll_short! writes out at most 16 copies") };
        let n: usize = $n;
        unroll!(@inner n, $i, $body, 0; 0 1 2 3 4 5 6 7);
        unroll!(@inner n, $i, $body, 1; 0 1 2 3 4 5 6 7);
    }};
}

//! Named views of matrices and tiles. Kernels ask for "row r, column c of this tile"; the
//! address arithmetic lives here, once. Every access goes through [`load`] and [`store`] of the
//! device module, so the emulator checks each one; on the host the accessors pass their caller's
//! location on (`track_caller`), so a fault names the line of the kernel that made the access.

use crate::device::{load, store};

/// A CUDA tensor map (`CUtensorMap`): 128 opaque bytes, encoded by the host, read by the copy
/// engine. It lives in global memory because this rustc copies large by-value kernel parameters
/// to local memory, where the copy engine cannot read them.
#[repr(C, align(64))]
pub struct TensorMap(pub [u64; 16]);

/// The arguments of every GEMM kernel: `C = alpha·A·B + beta·C`, all row-major.
#[derive(Clone, Copy)]
pub struct Gemm<E> {
    pub a: *const E,
    pub b: *const E,
    pub c: *mut f32,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub alpha: f32,
    pub beta: f32,
    /// `[map_a, map_b]` for kernels whose spec asks for tensor maps; null otherwise.
    pub tensor_maps: *const TensorMap,
}

impl<E: Copy> Gemm<E> {
    /// A as a matrix view (M×K).
    #[inline(always)]
    pub fn a(&self) -> Matrix<E> {
        Matrix { ptr: self.a, rows: self.m, cols: self.k, ld: self.k }
    }

    /// B as a matrix view (K×N).
    #[inline(always)]
    pub fn b(&self) -> Matrix<E> {
        Matrix { ptr: self.b, rows: self.k, cols: self.n, ld: self.n }
    }

    /// C as a writable matrix view (M×N) with the epilogue's scalars.
    #[inline(always)]
    pub fn c(&self) -> Output {
        Output { ptr: self.c, rows: self.m, cols: self.n, ld: self.n, alpha: self.alpha, beta: self.beta }
    }
}

/// A read-only row-major matrix (or a window of one) in global memory.
///
/// `rows` and `cols` are the extents that exist from this window's origin to the matrix edge,
/// so bounds checks against them are tail checks.
#[derive(Clone, Copy)]
pub struct Matrix<E> {
    ptr: *const E,
    pub rows: u32,
    pub cols: u32,
    /// Leading dimension: elements between the starts of two rows.
    pub ld: u32,
}

impl<E: Copy> Matrix<E> {
    /// The window whose origin is (row, col) of this one. Offsets are 64-bit: a matrix may hold
    /// more than 2³² elements.
    #[inline(always)]
    pub fn window(self, row: u32, col: u32) -> Matrix<E> {
        let offset = row as usize * self.ld as usize + col as usize;
        Matrix {
            ptr: self.ptr.wrapping_add(offset),
            rows: self.rows.saturating_sub(row),
            cols: self.cols.saturating_sub(col),
            ld: self.ld,
        }
    }

    #[inline(always)]
    pub fn contains(&self, row: u32, col: u32) -> bool {
        row < self.rows && col < self.cols
    }

    /// Element (row, col), which must be inside the matrix.
    ///
    /// # Safety
    /// `contains(row, col)` must hold.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get(&self, row: u32, col: u32) -> E {
        unsafe { load(self.ptr.add(row as usize * self.ld as usize + col as usize)) }
    }

    /// Pointer to element (row, col), for instructions that take an address.
    #[inline(always)]
    pub fn ptr(&self, row: u32, col: u32) -> *const E {
        self.ptr.wrapping_add(row as usize * self.ld as usize + col as usize)
    }
}

impl Matrix<f32> {
    /// Element (row, col), or 0 outside the matrix: the zero-fill that makes partial tiles
    /// contribute nothing to the dot products.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn get_or_zero(&self, row: u32, col: u32) -> f32 {
        if self.contains(row, col) { unsafe { self.get(row, col) } } else { 0.0 }
    }
}

/// The output C (or a window of it) with the epilogue `C = alpha·acc + beta·C`.
#[derive(Clone, Copy)]
pub struct Output {
    ptr: *mut f32,
    pub rows: u32,
    pub cols: u32,
    pub ld: u32,
    pub alpha: f32,
    pub beta: f32,
}

impl Output {
    #[inline(always)]
    pub fn window(self, row: u32, col: u32) -> Output {
        let offset = row as usize * self.ld as usize + col as usize;
        Output {
            ptr: self.ptr.wrapping_add(offset),
            rows: self.rows.saturating_sub(row),
            cols: self.cols.saturating_sub(col),
            ..self
        }
    }

    #[inline(always)]
    pub fn contains(&self, row: u32, col: u32) -> bool {
        row < self.rows && col < self.cols
    }

    /// Pointer to element (row, col).
    #[inline(always)]
    pub fn ptr(&self, row: u32, col: u32) -> *mut f32 {
        self.ptr.wrapping_add(row as usize * self.ld as usize + col as usize)
    }

    /// `alpha·acc + beta·C`, where C is read only when beta ≠ 0 (as in BLAS: with beta = 0 the
    /// old C may hold anything, NaN included, and must not leak into the result).
    #[inline(always)]
    pub fn blend(&self, acc: f32, old: impl FnOnce() -> f32) -> f32 {
        if self.beta == 0.0 { self.alpha * acc } else { self.alpha * acc + self.beta * old() }
    }

    /// Writes the epilogue of `acc` to (row, col) if that element exists.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn store(&self, row: u32, col: u32, acc: f32) {
        if self.contains(row, col) {
            let p = self.ptr(row, col);
            unsafe { store(p, self.blend(acc, || load(p))) }
        }
    }
}

/// A row-major tile of `f32` in shared memory, rows `stride` elements apart.
///
/// The shape is a value rather than a type parameter (stable Rust cannot compute types from const
/// generics); kernels build tiles from constants, so after inlining every index is folded. A
/// `stride` larger than the row length pads each row, one way to move columns onto other banks.
#[derive(Clone, Copy)]
pub struct SmemTile {
    ptr: *mut f32,
    rows: usize,
    stride: usize,
}

impl SmemTile {
    /// The `rows × stride` tile starting at `base`.
    ///
    /// # Safety
    /// `base` must point to `rows * stride` floats of shared memory that this tile may use, and
    /// every (row, col) later passed to it must lie inside `rows × stride`.
    #[inline(always)]
    pub unsafe fn new(base: *mut f32, rows: usize, stride: usize) -> Self {
        SmemTile { ptr: base, rows, stride }
    }

    /// Floats a `rows × stride` tile occupies.
    pub const fn elems(rows: usize, stride: usize) -> usize {
        rows * stride
    }

    /// The shared memory right after this tile, where the next tile can start.
    #[inline(always)]
    pub fn end(&self) -> *mut f32 {
        self.ptr.wrapping_add(self.rows * self.stride)
    }

    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn get(&self, row: usize, col: usize) -> f32 {
        unsafe { load(self.ptr(row, col)) }
    }

    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn set(&self, row: usize, col: usize, value: f32) {
        unsafe { store(self.ptr(row, col), value) }
    }

    /// Pointer to (row, col), for vector and asynchronous accesses.
    #[inline(always)]
    pub fn ptr(&self, row: usize, col: usize) -> *mut f32 {
        self.ptr.wrapping_add(row * self.stride + col)
    }
}

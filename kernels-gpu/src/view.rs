//! Named views of matrices and tiles. Kernels ask for "row r, column c of this tile"; the
//! address arithmetic lives here, once. Every scalar access goes through [`load`] and [`store`] of the
//! device module, so the emulator checks each one; on the host the accessors pass their caller's
//! location on (`track_caller`), so a fault names the line of the kernel that made the access.

use crate::device::{ld_global_v2, load, st_global_v2, store};

/// The copy engine's tensor map, a device notion; re-exported for the kernel arguments below.
pub use crate::device::TensorMap;

/// The arguments of every GEMM kernel: `C = alpha·op(A)·op(B) + beta·C` for each matrix of a
/// strided batch. C is row-major (M×N, rows `ldc` apart); A and B are stored as the kernel's
/// [`Layout`](crate::spec::Layout) says, rows `lda` / `ldb` elements apart.
#[derive(Clone, Copy)]
pub struct GemmArgs<E> {
    /// This block's matrices: the entry point has already moved the pointers to batch `z`.
    pub a: *const E,
    pub b: *const E,
    pub c: *mut f32,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub alpha: f32,
    pub beta: f32,
    /// `[map_a, map_b]` (and `map_c` when the spec has a box of C) for kernels whose spec asks
    /// for tensor maps; null otherwise. The maps describe the whole batch (from batch 0).
    pub tensor_maps: *const TensorMap,
    /// Leading dimensions: elements between the starts of two stored rows.
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
    /// The batch: `batch` products, matrix `i` of A at `a + i·stride_a` (elements; 0 broadcasts
    /// one matrix to every product), likewise B and C.
    pub batch: u32,
    pub stride_a: u64,
    pub stride_b: u64,
    pub stride_c: u64,
    /// Which product of the batch `a`, `b` and `c` point at.
    pub z: u32,
    /// Scratch memory shared by the blocks of one launch, for kernels whose spec asks for it
    /// (stream-K's tile counters and partial sums, [`crate::stream_k_combine`]); null otherwise. Its
    /// counters are zero when a launch starts, and the launch leaves them zero.
    pub workspace: *mut u32,
    /// The fused epilogue ([`FusedEpilogue::pack`](rgemm_spec::FusedEpilogue::pack)): C's
    /// element type (`c` points to elements of it, `ldc` and `stride_c` count them), the bias,
    /// the activation and the auxiliary output. 0 (f32, nothing fused) for kernels whose spec
    /// does not say `fused_epilogue`.
    pub epilogue: u32,
    /// The bias vector (of C's type; null without one), one for the whole batch.
    pub bias: *const u8,
    /// The auxiliary output, shaped as C (null without one).
    pub aux: *mut u8,
}

impl<E: Copy> GemmArgs<E> {
    /// The same problem moved to product `z` of the batch (from product 0).
    #[inline(always)]
    pub fn at_batch(self, z: u32) -> GemmArgs<E> {
        let z64 = z as u64;
        // C and the auxiliary output in bytes: their element type is the epilogue's.
        let c_bytes = (z64 * self.stride_c) as usize * self.c_elem_bytes();
        GemmArgs {
            a: self.a.wrapping_add((z64 * self.stride_a) as usize),
            b: self.b.wrapping_add((z64 * self.stride_b) as usize),
            c: (self.c as *mut u8).wrapping_add(c_bytes) as *mut f32,
            aux: self.aux.wrapping_add(c_bytes),
            z,
            ..self
        }
    }

    /// Bytes of one element of C: 4, or 2 for a bf16 or f16 output.
    #[inline(always)]
    pub fn c_elem_bytes(&self) -> usize {
        if self.epilogue & 0xf == 0 { 4 } else { 2 }
    }

    /// Runs `product` on this block's product of the batch and on every `grid_planes()`-th one
    /// after it, for kernels that walk the batch themselves: a batch may have more products than
    /// the grid has planes.
    ///
    /// # Safety
    /// `product`'s contract, for every product of the batch.
    #[inline(always)]
    pub unsafe fn for_each_product(&self, product: unsafe fn(&GemmArgs<E>)) {
        let planes = crate::device::grid_planes();
        let mut g = *self;
        loop {
            // SAFETY: the caller's guarantee, for this product.
            unsafe { product(&g) };
            let next = g.z + planes;
            if next >= self.batch {
                break;
            }
            // `at_batch` moves the pointers on by `planes` products from where they are.
            g = GemmArgs { z: next, ..g.at_batch(planes) };
        }
    }

    /// Plane of operand A's tensor map that holds product `z` (a broadcast A has one plane).
    #[inline(always)]
    pub fn plane_a(&self, z: u32) -> i32 {
        if self.stride_a == 0 { 0 } else { z as i32 }
    }

    /// Plane of operand B's tensor map that holds product `z`.
    #[inline(always)]
    pub fn plane_b(&self, z: u32) -> i32 {
        if self.stride_b == 0 { 0 } else { z as i32 }
    }

    /// A as stored: M×K, or K×M when the layout transposes it (rows `lda` apart).
    #[inline(always)]
    pub fn stored_a(&self, transposed: bool) -> Matrix<E> {
        let (rows, cols) = if transposed { (self.k, self.m) } else { (self.m, self.k) };
        Matrix { ptr: self.a, rows, cols, ld: self.lda }
    }

    /// B as stored: K×N, or N×K when the layout transposes it (rows `ldb` apart).
    #[inline(always)]
    pub fn stored_b(&self, transposed: bool) -> Matrix<E> {
        let (rows, cols) = if transposed { (self.n, self.k) } else { (self.k, self.n) };
        Matrix { ptr: self.b, rows, cols, ld: self.ldb }
    }

    /// A as a matrix view (M×K), for kernels that read row-major A.
    #[inline(always)]
    pub fn a(&self) -> Matrix<E> {
        Matrix { ptr: self.a, rows: self.m, cols: self.k, ld: self.lda }
    }

    /// B as a matrix view (K×N), for kernels that read row-major B.
    #[inline(always)]
    pub fn b(&self) -> Matrix<E> {
        Matrix { ptr: self.b, rows: self.k, cols: self.n, ld: self.ldb }
    }

    /// C as a writable matrix view (M×N) with the epilogue's scalars, for kernels that write
    /// f32 and fuse nothing.
    #[inline(always)]
    pub fn c(&self) -> Output {
        Output { ptr: self.c, rows: self.m, cols: self.n, ld: self.ldc, alpha: self.alpha, beta: self.beta }
    }

    /// C with the fused epilogue ([`crate::epilogue`]), for kernels whose spec says
    /// `fused_epilogue`.
    #[inline(always)]
    pub fn fused_c(&self) -> crate::epilogue::FusedOutput {
        crate::epilogue::FusedOutput::new(self.c as *mut u8, self.m, self.n, self.ldc, self.alpha, self.beta, self.epilogue, self.bias, self.aux)
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
        // SAFETY: the caller's guarantee: (row, col) lies inside the matrix, so the offset stays
        // in its allocation.
        unsafe { load(self.ptr.add(row as usize * self.ld as usize + col as usize)) }
    }

    /// Pointer to element (row, col), for instructions that take an address.
    #[inline(always)]
    pub fn ptr(&self, row: u32, col: u32) -> *const E {
        self.ptr.wrapping_add(row as usize * self.ld as usize + col as usize)
    }
}

impl<E> Matrix<E> {
    /// Whether the `rows × cols` tile at this window's origin lies wholly inside the matrix, so a
    /// kernel may read it without bounds checks.
    #[inline(always)]
    pub fn covers(&self, rows: u32, cols: u32) -> bool {
        rows <= self.rows && cols <= self.cols
    }

    /// Whether every row starts on a 16-byte boundary, i.e. the leading dimension is a multiple
    /// of 4 floats (matrices start 16-byte aligned: the catalog's rule for every rung). Then four
    /// floats at a column that is a multiple of 4 can move as one vector.
    #[inline(always)]
    pub fn rows_align4(&self) -> bool {
        self.ld % 4 == 0
    }
}

impl Matrix<f32> {
    /// Element (row, col), or 0 outside the matrix: the zero-fill that makes partial tiles
    /// contribute nothing to the dot products.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn get_or_zero(&self, row: u32, col: u32) -> f32 {
        // SAFETY: read only inside the matrix (checked on the same line).
        if self.contains(row, col) { unsafe { self.get(row, col) } } else { 0.0 }
    }

    /// Elements (row, col..col + 4), each read on its own and zero outside the matrix: the slow,
    /// always-correct twin of a 16-byte vector load.
    #[inline(always)]
    pub fn get4_or_zero(&self, row: u32, col: u32) -> [f32; 4] {
        [
            self.get_or_zero(row, col),
            self.get_or_zero(row, col + 1),
            self.get_or_zero(row, col + 2),
            self.get_or_zero(row, col + 3),
        ]
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
            // SAFETY: (row, col) lies inside C (checked above), so `p` and the old value are C's.
            unsafe { store(p, self.blend(acc, || load(p))) }
        }
    }

    /// [`blend`](Self::blend) for four neighbouring elements; `old` (one vector load) runs only
    /// when beta ≠ 0.
    #[inline(always)]
    pub fn blend4(&self, acc: [f32; 4], old: impl FnOnce() -> [f32; 4]) -> [f32; 4] {
        if self.beta == 0.0 {
            [self.alpha * acc[0], self.alpha * acc[1], self.alpha * acc[2], self.alpha * acc[3]]
        } else {
            let o = old();
            [
                self.alpha * acc[0] + self.beta * o[0],
                self.alpha * acc[1] + self.beta * o[1],
                self.alpha * acc[2] + self.beta * o[2],
                self.alpha * acc[3] + self.beta * o[3],
            ]
        }
    }

    /// [`blend`](Self::blend) for two neighbouring elements; `old` (one vector load) runs only
    /// when beta ≠ 0.
    #[inline(always)]
    pub fn blend2(&self, acc: [f32; 2], old: impl FnOnce() -> [f32; 2]) -> [f32; 2] {
        if self.beta == 0.0 {
            [self.alpha * acc[0], self.alpha * acc[1]]
        } else {
            let o = old();
            [self.alpha * acc[0] + self.beta * o[0], self.alpha * acc[1] + self.beta * o[1]]
        }
    }

    /// Whether (row, col..col + 2) can be written as one 8-byte vector: both elements exist and
    /// their address is 8-byte aligned (the address itself, so that C may start anywhere and its
    /// matrices of a batch lie any number of elements apart).
    #[inline(always)]
    pub fn holds2(&self, row: u32, col: u32) -> bool {
        (self.ptr(row, col) as usize) % 8 == 0 && row < self.rows && col + 2 <= self.cols
    }

    /// Writes the epilogue of two accumulators to (row, col..col + 2): one 8-byte vector store
    /// (plus one vector load of the old C when beta ≠ 0) when both elements exist and their
    /// address is 8-byte aligned ([`holds2`](Self::holds2)), else element by element with bounds
    /// checks.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn store2(&self, row: u32, col: u32, acc: [f32; 2]) {
        if self.holds2(row, col) {
            let p = self.ptr(row, col);
            // SAFETY: `holds2`: both elements lie inside C and `p` is 8-byte aligned.
            unsafe { st_global_v2(p, self.blend2(acc, || ld_global_v2(p))) }
        } else {
            self.store(row, col, acc[0]);
            self.store(row, col + 1, acc[1]);
        }
    }

    /// Whether (row, col..col + 4) can be written as one 16-byte vector: all four elements exist
    /// and their address is 16-byte aligned (as [`holds2`](Self::holds2)).
    #[inline(always)]
    pub fn holds4(&self, row: u32, col: u32) -> bool {
        (self.ptr(row, col) as usize) % 16 == 0 && row < self.rows && col + 4 <= self.cols
    }
}

/// The `TM × TN` block of C one thread accumulates in registers.
///
/// Every index into `acc` must be a constant after unrolling, or the array leaves the registers
/// for local memory: its loops are `unroll_short!`, so `TM` and `TN` are at most
/// [`UNROLL_SHORT_MAX`](crate::unroll::UNROLL_SHORT_MAX) (checked when the tile is built).
#[derive(Clone, Copy)]
pub struct ThreadTile<const TM: usize, const TN: usize> {
    pub acc: [[f32; TN]; TM],
}

impl<const TM: usize, const TN: usize> ThreadTile<TM, TN> {
    #[inline(always)]
    pub fn zero() -> Self {
        const { assert!(TM <= crate::unroll::UNROLL_SHORT_MAX && TN <= crate::unroll::UNROLL_SHORT_MAX, "thread tiles of at most 16 × 16") };
        ThreadTile { acc: [[0.0; TN]; TM] }
    }

    /// `acc += a ⊗ b`: one column of A against one row of B, TM·TN fused multiply-adds from
    /// TM + TN values.
    #[inline(always)]
    // ANCHOR: outer_product
    pub fn outer_product(&mut self, a: &[f32; TM], b: &[f32; TN]) {
        // Unrolled for certain: with a run-time index the accumulators would live in local memory.
        unroll_short!(TM, |i| {
            unroll_short!(TN, |j| {
                self.acc[i][j] = crate::device::fma(a[i], b[j], self.acc[i][j]);
            });
        });
    }
    // ANCHOR_END: outer_product

    /// Elements (i, j..j + 4) of the tile.
    #[inline(always)]
    pub fn get4(&self, i: usize, j: usize) -> [f32; 4] {
        [self.acc[i][j], self.acc[i][j + 1], self.acc[i][j + 2], self.acc[i][j + 3]]
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
        // SAFETY: `new`'s contract: every (row, col) given lies inside the tile's shared memory.
        unsafe { load(self.ptr(row, col)) }
    }

    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub fn set(&self, row: usize, col: usize, value: f32) {
        // SAFETY: `new`'s contract: every (row, col) given lies inside the tile's shared memory.
        unsafe { store(self.ptr(row, col), value) }
    }

    /// Pointer to (row, col), for vector and asynchronous accesses.
    #[inline(always)]
    pub fn ptr(&self, row: usize, col: usize) -> *mut f32 {
        self.ptr.wrapping_add(row * self.stride + col)
    }
}

//! A GEMM problem: `C = alpha·op(A)·op(B) + beta·C` for each product of a strided batch, with C
//! row-major (M×N) and A, B stored as a [`Layout`] says, each with a leading dimension.
//!
//! A [`Problem`] is plain data, validated when it is made ([`Problem::general`]): every size,
//! leading dimension and stride is consistent and every extent fits the address space, so the
//! arithmetic on it ([`Problem::extents`]) cannot overflow. Its fields are public; a plan
//! validates a problem again before using it ([`Problem::checked`]). Making one needs no GPU and
//! costs a few comparisons. [`api::Gemm`](crate::api::Gemm) builds one with named steps.
//!
//! ```rust
//! use rgemm::Problem;
//!
//! let p = Problem::new(1000, 700, 500, 1.0, 0.0)?; // C (1000×700) = A (1000×500) · B (500×700)
//! assert_eq!(p.extents(), (1000 * 500, 500 * 700, 1000 * 700)); // elements of A, B, C
//! assert!(Problem::new(1000, 700, 500, f32::NAN, 0.0).is_err()); // scalars must be finite
//! # Ok::<(), rgemm::Error>(())
//! ```

use crate::error::{Error, Result};
pub use rgemm_spec::{Activation, Bias, FusedEpilogue, Layout, Op};

/// One problem, validated: every size, leading dimension and stride is consistent, and every
/// extent fits the address space ([`Problem::extents`] never overflows). Made by
/// [`Problem::new`], [`Problem::general`] or [`Gemm::problem`](crate::api::Gemm::problem).
///
/// ```rust
/// use rgemm::{Layout, api::Gemm};
///
/// // y = x·Wᵀ with x 16×4096 and W 11008×4096 as stored (N×K).
/// let p = Gemm::new(16, 11008, 4096).layout(Layout::NT).problem()?;
/// assert_eq!((p.m, p.n, p.k, p.lda, p.ldb, p.ldc), (16, 11008, 4096, 4096, 4096, 11008));
/// assert_eq!(p.stored_b(), (11008, 4096)); // B as stored: N×K
/// assert_eq!(p.to_string(), "M=16 N=11008 K=4096 alpha=1 beta=0 layout=nt"); // what errors print
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    /// Rows of C and of `op(A)`: 1 to [`MAX_DIM`].
    pub m: u32,
    /// Columns of C and of `op(B)`: 1 to [`MAX_DIM`].
    pub n: u32,
    /// The inner size, columns of `op(A)` and rows of `op(B)`: 0 to [`MAX_DIM`] (0: no product,
    /// `C = beta·C`).
    pub k: u32,
    /// The product's factor; finite.
    pub alpha: f32,
    /// C's factor; finite. C is read only when it is not 0.
    pub beta: f32,
    /// How A and B are stored.
    pub layout: Layout,
    /// Elements between the starts of two stored rows of A: at least the stored row length (K,
    /// or M when A is transposed; see [`Problem::stored_a`]).
    pub lda: u32,
    /// Elements between the starts of two stored rows of B: at least N, or K when B is
    /// transposed ([`Problem::stored_b`]).
    pub ldb: u32,
    /// Elements between the starts of two rows of C: at least N.
    pub ldc: u32,
    /// Products in the batch (1: a single GEMM).
    pub batch: u32,
    /// Elements from one matrix of A in the batch to the next; 0 broadcasts one A to every
    /// product.
    pub stride_a: u64,
    /// Elements from one matrix of B in the batch to the next; 0 broadcasts one B to every
    /// product.
    pub stride_b: u64,
    /// Elements from one matrix of C in the batch to the next: at least one matrix of C
    /// (`(M − 1)·ldc + N`) when the batch has more than one, so that no two products write the
    /// same element.
    pub stride_c: u64,
    /// C's element type and what is applied on the way out ([`FusedEpilogue::NONE`]: f32,
    /// nothing added). Strides and leading dimensions of C count elements of this type.
    pub epilogue: FusedEpilogue,
}

// For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
#[doc(hidden)]
/// A problem's fields but its scalars (see [`Problem::shape_key`]): the layout (bit 0: A
/// transposed, bit 1: B) and the packed epilogue ([`FusedEpilogue::pack`]) share the fourth.
pub type ShapeKey = (u32, u32, u32, u32, u32, u32, u32, u32, u64, u64, u64);

/// The largest size, leading dimension and batch count a problem may have: 2³¹ − 1, the largest
/// `int` (cuBLAS, the baseline every kernel is checked and timed against, takes `int` sizes).
///
/// ```rust
/// use rgemm::problem::MAX_DIM;
///
/// assert!(rgemm::Problem::new(MAX_DIM + 1, 1, 1, 1.0, 0.0).is_err());
/// ```
pub const MAX_DIM: u64 = i32::MAX as u64;

/// The batch of a problem: `count` products, matrix `i` of A at `i·stride_a` elements (likewise B
/// and C). `None` strides are the packed ones (each matrix right after the previous one).
///
/// ```rust
/// use rgemm::{Batch, Layout, LeadingDims, Problem};
///
/// // 4 products sharing one B (stride 0); A and C packed.
/// let batch = Batch { count: 4, stride_b: Some(0), ..Batch::packed(4) };
/// let p = Problem::general(32, 64, 16, 1.0, 0.0, Layout::NN, LeadingDims::default(), batch)?;
/// assert_eq!((p.batch, p.stride_a, p.stride_b, p.stride_c), (4, 32 * 16, 0, 32 * 64));
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Products in the batch: 1 to [`MAX_DIM`].
    pub count: u64,
    /// Elements from one matrix of A to the next (0: one A for every product); `None`: packed.
    pub stride_a: Option<u64>,
    /// Elements from one matrix of B to the next (0: one B for every product); `None`: packed.
    pub stride_b: Option<u64>,
    /// Elements from one matrix of C to the next, at least one matrix of C; `None`: packed.
    pub stride_c: Option<u64>,
}

impl Batch {
    /// `count` packed matrices of each operand: a stride of one matrix each.
    ///
    /// ```rust
    /// use rgemm::{Batch, Layout, LeadingDims, Problem};
    ///
    /// let p = Problem::general(8, 8, 8, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(3))?;
    /// assert_eq!(p.extents(), (3 * 64, 3 * 64, 3 * 64));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub const fn packed(count: u64) -> Batch {
        Batch { count, stride_a: None, stride_b: None, stride_c: None }
    }
}

/// Leading dimensions; `None` is the tight one (the stored row length).
///
/// ```rust
/// use rgemm::{Batch, Layout, LeadingDims, Problem};
///
/// // A 100×100 window of a row-major 256×256 C: its rows are 256 elements apart.
/// let ld = LeadingDims { ldc: Some(256), ..LeadingDims::default() };
/// let p = Problem::general(100, 100, 64, 1.0, 1.0, Layout::NN, ld, Batch::packed(1))?;
/// assert_eq!((p.lda, p.ldb, p.ldc), (64, 100, 256));
/// assert_eq!(p.extents().2, 99 * 256 + 100);
/// # Ok::<(), rgemm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeadingDims {
    /// Elements between the starts of two stored rows of A, at least the stored row length.
    pub lda: Option<u64>,
    /// Elements between the starts of two stored rows of B, at least the stored row length.
    pub ldb: Option<u64>,
    /// Elements between the starts of two rows of C, at least N.
    pub ldc: Option<u64>,
}

impl Problem {
    /// A single row-major product (`NN`, tight leading dimensions). Sizes are given as u64 so
    /// that negative or huge inputs are caught by the caller's parser and by this check, never by
    /// a wrapping cast.
    ///
    /// ```rust
    /// use rgemm::{Error, Problem};
    ///
    /// let p = Problem::new(4096, 4096, 4096, 1.0, 0.0)?;
    /// assert_eq!((p.lda, p.ldb, p.ldc, p.batch), (4096, 4096, 4096, 1)); // tight, one product
    /// // M or N of 0 is an error; K = 0 is C = beta·C.
    /// assert!(matches!(Problem::new(0, 4096, 4096, 1.0, 0.0), Err(Error::InvalidProblem(_))));
    /// assert!(Problem::new(4096, 4096, 0, 1.0, 0.5).is_ok());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(m: u64, n: u64, k: u64, alpha: f32, beta: f32) -> Result<Problem> {
        Problem::general(m, n, k, alpha, beta, Layout::NN, LeadingDims::default(), Batch::packed(1))
    }

    /// Any problem: sizes, scalars, layout, leading dimensions and batch, all checked. M, N and
    /// the batch count are 1 to [`MAX_DIM`], K is 0 to [`MAX_DIM`] (0 scales C by beta), alpha
    /// and beta are finite, each leading dimension is at least its stored row length (`None`:
    /// that length), the matrices of C do not overlap, and every operand's extent is
    /// addressable; anything else is [`Error::InvalidProblem`], saying which rule failed.
    ///
    /// A linear layer over a batch of 8 sequences of 128 tokens, one weight for all of them:
    /// `y = x·Wᵀ + y` with x 128×4096 per sequence, W 1024×4096 as stored (`N×K`, [`Layout::NT`]),
    /// y 128×1024 per sequence:
    ///
    /// ```rust
    /// use rgemm::{Batch, Layout, LeadingDims, Problem};
    ///
    /// let batch = Batch { count: 8, stride_a: None, stride_b: Some(0), stride_c: None };
    /// let p = Problem::general(128, 1024, 4096, 1.0, 1.0, Layout::NT, LeadingDims::default(), batch)?;
    /// assert_eq!((p.lda, p.ldb, p.ldc), (4096, 4096, 1024)); // tight: the stored row lengths
    /// assert_eq!((p.stride_a, p.stride_b, p.stride_c), (128 * 4096, 0, 128 * 1024));
    /// // Elements each buffer must hold: 8 packed matrices of x and y, one W.
    /// assert_eq!(p.extents(), (8 * 128 * 4096, 1024 * 4096, 8 * 128 * 1024));
    /// assert_eq!(p.flops(), 2.0 * 8.0 * 128.0 * 1024.0 * 4096.0);
    ///
    /// // Rows of A padded to 4160 elements: lda is given, the rest stays tight.
    /// let padded = LeadingDims { lda: Some(4160), ..LeadingDims::default() };
    /// let p = Problem::general(128, 1024, 4096, 1.0, 0.0, Layout::NT, padded, Batch::packed(1))?;
    /// assert_eq!(p.extents().0, 127 * 4160 + 4096);
    ///
    /// // A leading dimension shorter than the row it steps over is refused.
    /// let short = LeadingDims { ldc: Some(1000), ..LeadingDims::default() };
    /// assert!(matches!(
    ///     Problem::general(128, 1024, 4096, 1.0, 0.0, Layout::NT, short, Batch::packed(1)),
    ///     Err(rgemm::Error::InvalidProblem(_))
    /// ));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn general(m: u64, n: u64, k: u64, alpha: f32, beta: f32, layout: Layout, ld: LeadingDims, batch: Batch) -> Result<Problem> {
        let bad = |msg: String| Err(Error::InvalidProblem(msg));
        for (name, v) in [("M", m), ("N", n), ("K", k), ("the batch count", batch.count)] {
            // K = 0 is a product of nothing: C = beta·C (as BLAS defines it).
            if v == 0 && name != "K" {
                return bad(format!("{name} is 0; M, N and the batch count must be at least 1"));
            }
            if v > MAX_DIM {
                return bad(format!("{name} = {v} exceeds the largest supported size {MAX_DIM}"));
            }
        }
        if !alpha.is_finite() || !beta.is_finite() {
            return bad(format!("alpha ({alpha}) and beta ({beta}) must be finite"));
        }
        let (a_shape, b_shape) = (stored_shape(layout.a, m, k), stored_shape(layout.b, k, n));
        let mut lds = [0u64; 3];
        for (i, (name, given, (_, cols))) in [("lda", ld.lda, a_shape), ("ldb", ld.ldb, b_shape), ("ldc", ld.ldc, (m, n))].into_iter().enumerate() {
            let v = given.unwrap_or(cols);
            if v < cols {
                return bad(format!("{name} = {v} is less than the stored row length {cols}"));
            }
            if v > MAX_DIM {
                return bad(format!("{name} = {v} exceeds the largest supported leading dimension {MAX_DIM}"));
            }
            lds[i] = v;
        }
        // One matrix's extent in elements: (rows − 1)·ld + cols (rows, ld ≤ 2³¹: no overflow);
        // none for a matrix of no elements (A and B when K = 0).
        let span = |(rows, cols): (u64, u64), ld: u64| if rows == 0 || cols == 0 { 0 } else { (rows - 1) * ld + cols };
        let spans = [span(a_shape, lds[0]), span(b_shape, lds[1]), span((m, n), lds[2])];
        let mut strides = [0u64; 3];
        for (i, (_, given)) in [("A", batch.stride_a), ("B", batch.stride_b), ("C", batch.stride_c)].into_iter().enumerate() {
            strides[i] = given.unwrap_or(spans[i]);
        }
        if batch.count > 1 {
            if strides[2] < spans[2] {
                return bad(format!(
                    "the matrices of C overlap: stride_c = {} is less than one matrix of C ({} elements: (M − 1)·ldc + N)",
                    strides[2], spans[2]
                ));
            }
        }
        let problem = Problem {
            m: m as u32,
            n: n as u32,
            k: k as u32,
            alpha,
            beta,
            layout,
            lda: lds[0] as u32,
            ldb: lds[1] as u32,
            ldc: lds[2] as u32,
            batch: batch.count as u32,
            stride_a: strides[0],
            stride_b: strides[1],
            stride_c: strides[2],
            epilogue: FusedEpilogue::NONE,
        };
        for (name, extent) in ["A", "B", "C"].into_iter().zip(problem.extents_checked()) {
            extent
                .and_then(|e| e.checked_mul(4))
                .filter(|&bytes| bytes <= isize::MAX as u64)
                .ok_or_else(|| Error::InvalidProblem(format!("{name} (with its leading dimension and batch stride) is too large to address")))?;
        }
        Ok(problem)
    }

    /// This problem validated again ([`Problem::general`]): its fields are public, so a value
    /// built or changed by hand is checked before anything is planned on it.
    ///
    /// ```rust
    /// let mut p = rgemm::Problem::new(64, 64, 64, 1.0, 0.0)?;
    /// p.ldc = 32; // shorter than a row of C
    /// assert!(p.checked().is_err());
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn checked(&self) -> Result<Problem> {
        if !self.epilogue.output.is_output() {
            return Err(Error::InvalidProblem(format!("C cannot be {}: it is f32, bf16 or f16", self.epilogue.output.name())));
        }
        let ld = LeadingDims { lda: Some(self.lda as u64), ldb: Some(self.ldb as u64), ldc: Some(self.ldc as u64) };
        let batch = Batch { count: self.batch as u64, stride_a: Some(self.stride_a), stride_b: Some(self.stride_b), stride_c: Some(self.stride_c) };
        Ok(Problem::general(self.m as u64, self.n as u64, self.k as u64, self.alpha, self.beta, self.layout, ld, batch)?.with_epilogue(self.epilogue))
    }

    /// This problem with C of `epilogue.output` and `epilogue` applied before the store
    /// (unchecked: [`Problem::checked`] or a plan checks it).
    /// [`Gemm::output`](crate::api::Gemm::output), `bias` and `activation` set the same.
    ///
    /// ```rust
    /// use rgemm::{Activation, Bias, FusedEpilogue, Problem, catalog::Dtype};
    ///
    /// // bf16 C = relu(A·B + bias), the bias one value per column.
    /// let e = FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation: Activation::Relu, aux: false };
    /// let p = Problem::new(64, 128, 32, 1.0, 0.0)?.with_epilogue(e);
    /// assert_eq!(p.epilogue.output, Dtype::Bf16);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn with_epilogue(self, epilogue: FusedEpilogue) -> Problem {
        Problem { epilogue, ..self }
    }

    /// Elements the epilogue's bias holds: N for a bias over the columns, M over the rows, 0
    /// without one (what [`Plan::run_with_epilogue`](crate::api::Plan::run_with_epilogue) checks
    /// the bias buffer against).
    ///
    /// ```rust
    /// use rgemm::{Bias, api::Gemm};
    ///
    /// let layer = Gemm::new(16, 11008, 4096);
    /// assert_eq!(layer.bias(Bias::PerColumn).problem()?.bias_len(), 11008);
    /// assert_eq!(layer.bias(Bias::PerRow).problem()?.bias_len(), 16);
    /// assert_eq!(layer.problem()?.bias_len(), 0);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn bias_len(&self) -> usize {
        match self.epilogue.bias {
            Bias::None => 0,
            Bias::PerColumn => self.n as usize,
            Bias::PerRow => self.m as usize,
        }
    }

    /// Elements each of A, B and C spans in memory, from its first element to its last
    /// (padding between rows and matrices included): the least each buffer given to
    /// [`Plan::run`](crate::api::Plan::run) must hold. [`Problem::general`] shows more.
    ///
    /// ```rust
    /// use rgemm::{Layout, api::Gemm};
    ///
    /// // y_i = x_i·Wᵀ for 8 sequences of 128 tokens: x's rows padded to 4160, one W (stride 0).
    /// let p = Gemm::new(128, 1024, 4096).layout(Layout::NT).leading_dims(4160, 4096, 1024)
    ///     .batch(8, 128 * 4160, 0, 128 * 1024).problem()?;
    /// let (a, b, c) = p.extents();
    /// assert_eq!(a, 7 * 128 * 4160 + 127 * 4160 + 4096); // the last row of the last x ends at K
    /// assert_eq!((b, c), (1024 * 4096, 8 * 128 * 1024));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    ///
    /// A span past what the machine can address (only a problem whose public fields were edited
    /// by hand: every constructor refuses one, [`Problem::checked`] says why) is `usize::MAX`,
    /// which no buffer holds.
    pub fn extents(&self) -> (usize, usize, usize) {
        let [a, b, c] = self.extents_checked().map(|e| e.and_then(|e| usize::try_from(e).ok()).unwrap_or(usize::MAX));
        (a, b, c)
    }

    fn extents_checked(&self) -> [Option<u64>; 3] {
        let (a_rows, _) = self.stored_a();
        let (b_rows, _) = self.stored_b();
        let one = |rows: u64, ld: u32, cols: u64| if rows == 0 || cols == 0 { 0 } else { (rows - 1) * ld as u64 + cols };
        // A matrix of no elements (A and B when K = 0) spans nothing, whatever its stride.
        let whole = |stride: u64, single: u64| if single == 0 { Some(0) } else { (self.batch as u64 - 1).checked_mul(stride).and_then(|s| s.checked_add(single)) };
        [
            whole(self.stride_a, one(a_rows, self.lda, self.stored_a().1)),
            whole(self.stride_b, one(b_rows, self.ldb, self.stored_b().1)),
            whole(self.stride_c, one(self.m as u64, self.ldc, self.n as u64)),
        ]
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Elements of A, B and C the products read or write (padding excluded).
    pub fn elems(&self) -> (usize, usize, usize) {
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        (m * k * self.matrices_a(), k * n * self.matrices_b(), m * n * self.batch as usize)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Distinct matrices of A in the batch: 1 when A is broadcast (stride 0).
    pub fn matrices_a(&self) -> usize {
        if self.stride_a == 0 { 1 } else { self.batch as usize }
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Distinct matrices of B in the batch.
    pub fn matrices_b(&self) -> usize {
        if self.stride_b == 0 { 1 } else { self.batch as usize }
    }

    /// A as stored: rows × columns of the row-major array (K × M when transposed).
    ///
    /// ```rust
    /// use rgemm::{Layout, api::Gemm};
    ///
    /// assert_eq!(Gemm::new(16, 4096, 1024).problem()?.stored_a(), (16, 1024)); // M×K
    /// let t = Gemm::new(16, 4096, 1024).layout(Layout::TN).problem()?;
    /// assert_eq!((t.stored_a(), t.lda), ((1024, 16), 16)); // K×M: its rows are M long
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn stored_a(&self) -> (u64, u64) {
        stored_shape(self.layout.a, self.m as u64, self.k as u64)
    }

    /// B as stored: K × N, or N × K when transposed.
    ///
    /// ```rust
    /// use rgemm::{Layout, api::Gemm};
    ///
    /// assert_eq!(Gemm::new(16, 11008, 4096).problem()?.stored_b(), (4096, 11008)); // K×N
    /// // A linear layer's weight as stored: N×K, rows K long.
    /// let nt = Gemm::new(16, 11008, 4096).layout(Layout::NT).problem()?;
    /// assert_eq!((nt.stored_b(), nt.ldb), ((11008, 4096), 4096));
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn stored_b(&self) -> (u64, u64) {
        stored_shape(self.layout.b, self.k as u64, self.n as u64)
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// This problem with A and B read from copies whose rows are whole 16-byte units (`elem`
    /// bytes per element), for the kernels that load through the copy engine: each operand whose
    /// leading dimension or batch stride is not a 16-byte multiple gets the tight padded leading
    /// dimension and packed matrices (a broadcast operand stays one matrix). Returns the problem
    /// the kernel then runs and which of A and B are copied; `None` when neither needs a copy.
    pub fn with_aligned_rows(&self, elem: u64) -> Option<(Problem, [bool; 2])> {
        self.with_aligned_copies(elem, [false, false])
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// [`with_aligned_rows`](Self::with_aligned_rows), copying A and B also where `force` says
    /// (an operand whose rows are aligned but whose first matrix does not start on 16 bytes);
    /// `None` when no operand is copied.
    pub fn with_aligned_copies(&self, elem: u64, force: [bool; 2]) -> Option<(Problem, [bool; 2])> {
        let per = 16 / elem;
        let needs = |ld: u32, stride: u64| ld as u64 % per != 0 || (self.batch > 1 && stride % per != 0);
        let copy = [needs(self.lda, self.stride_a) || force[0], needs(self.ldb, self.stride_b) || force[1]];
        if copy == [false, false] {
            return None;
        }
        let staged = |(rows, cols): (u64, u64), ld: u32, stride: u64, copied: bool| {
            if !copied {
                return (ld as u64, stride);
            }
            let ld = cols.next_multiple_of(per);
            (ld, if stride == 0 && self.batch > 1 { 0 } else { rows * ld })
        };
        let (lda, stride_a) = staged(self.stored_a(), self.lda, self.stride_a, copy[0]);
        let (ldb, stride_b) = staged(self.stored_b(), self.ldb, self.stride_b, copy[1]);
        let ld = LeadingDims { lda: Some(lda), ldb: Some(ldb), ldc: Some(self.ldc as u64) };
        let batch = Batch { count: self.batch as u64, stride_a: Some(stride_a), stride_b: Some(stride_b), stride_c: Some(self.stride_c) };
        let problem = Problem::general(self.m as u64, self.n as u64, self.k as u64, self.alpha, self.beta, self.layout, ld, batch).ok()?.with_epilogue(self.epilogue);
        Some((problem, copy))
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// The problem a kernel that reads A split ahead runs on (3×TF32,
    /// `rgemm_spec::helpers::presplit_layout`): A is the workspace, K-major (`n`) with rows of whole 16-byte
    /// units, each matrix two planes (its high part, its remainder) and the matrices packed (one
    /// matrix when A is broadcast); B and C as they are. Also returns the workspace's floats.
    pub fn split_ahead(&self) -> Result<(Problem, u64)> {
        let too_large = || Error::InvalidProblem(format!("the split of A for {self} is too large to address"));
        let matrices = self.matrices_a() as u64;
        let (floats, ld) = rgemm_spec::helpers::presplit_layout(matrices, self.m as u64, self.k).ok_or_else(too_large)?;
        // One matrix's share of the workspace (its two planes), as the layout sizes it.
        let stride_a = if self.stride_a == 0 { 0 } else { floats / matrices };
        let layout = Layout { a: Op::N, b: self.layout.b };
        let ld = LeadingDims { lda: Some(ld as u64), ldb: Some(self.ldb as u64), ldc: Some(self.ldc as u64) };
        let batch = Batch { count: self.batch as u64, stride_a: Some(stride_a), stride_b: Some(self.stride_b), stride_c: Some(self.stride_c) };
        let problem = Problem::general(self.m as u64, self.n as u64, self.k as u64, self.alpha, self.beta, layout, ld, batch)?.with_epilogue(self.epilogue);
        Ok((problem, floats))
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Whether this is the plain case the teaching ladder takes: one row-major `NN` product with
    /// tight leading dimensions.
    pub fn is_plain(&self) -> bool {
        self.layout == Layout::NN && self.batch == 1 && self.lda == self.k && self.ldb == self.n && self.ldc == self.n
    }

    // For rgemm's own use (its plans, CLI, bench and tests); not part of the stable API.
    #[doc(hidden)]
    /// Every field but the scalars, as a hashable key: what a cached plan or tensor map of this
    /// problem depends on.
    pub fn shape_key(&self) -> ShapeKey {
        let p = self;
        let tags = p.layout.a.is_t() as u32 | (p.layout.b.is_t() as u32) << 1 | p.epilogue.pack() << 2;
        (p.m, p.n, p.k, tags, p.lda, p.ldb, p.ldc, p.batch, p.stride_a, p.stride_b, p.stride_c)
    }

    /// Multiply-adds of the whole batch: M·N·K per product.
    ///
    /// ```rust
    /// use rgemm::api::Gemm;
    ///
    /// let p = Gemm::new(16, 11008, 4096).packed_batch(4).problem()?;
    /// assert_eq!(p.macs(), 4 * 16 * 11008 * 4096);
    /// assert_eq!(Gemm::new(16, 16, 0).problem()?.macs(), 0); // K = 0: no product, C = beta·C
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn macs(&self) -> u128 {
        self.m as u128 * self.n as u128 * self.k as u128 * self.batch as u128
    }

    /// Floating-point operations of the whole batch (a multiply and an add per term).
    ///
    /// ```rust
    /// let p = rgemm::Problem::new(1000, 1000, 1000, 1.0, 0.0)?;
    /// assert_eq!(p.flops(), 2e9);
    /// // What a run of 0.5 ms achieved: flops per second, here in TFLOP/s.
    /// let rate = p.flops() / 0.5e-3 / 1e12;
    /// assert!((rate - 4.0).abs() < 1e-12 && (p.tflops(0.5) - rate).abs() < 1e-12);
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn flops(&self) -> f64 {
        2.0 * self.macs() as f64
    }

    /// The rate of a run of the whole batch that took `ms` milliseconds, in TFLOP/s
    /// ([`Problem::flops`] per second, over 10¹²).
    ///
    /// ```rust
    /// let p = rgemm::Problem::new(4096, 4096, 4096, 1.0, 0.0)?;
    /// assert_eq!(p.macs(), 4096u128.pow(3));
    /// assert_eq!(p.flops(), 2.0 * 4096f64.powi(3));
    /// assert!((p.tflops(1.0) - 137.438953472).abs() < 1e-9); // 2·4096³ flops in a millisecond
    /// # Ok::<(), rgemm::Error>(())
    /// ```
    pub fn tflops(&self, ms: f64) -> f64 {
        self.flops() / (ms * 1e-3) / 1e12
    }
}

/// Rows × columns of an operand that is `rows × cols` in the product, as stored.
fn stored_shape(op: Op, rows: u64, cols: u64) -> (u64, u64) {
    match op {
        Op::N => (rows, cols),
        Op::T => (cols, rows),
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "M={} N={} K={} alpha={} beta={}", self.m, self.n, self.k, self.alpha, self.beta)?;
        if self.layout != Layout::NN {
            write!(f, " layout={}", self.layout.name())?;
        }
        let (_, a_cols) = self.stored_a();
        let (_, b_cols) = self.stored_b();
        if self.lda as u64 != a_cols || self.ldb as u64 != b_cols || self.ldc != self.n {
            write!(f, " lda={} ldb={} ldc={}", self.lda, self.ldb, self.ldc)?;
        }
        if self.batch > 1 {
            write!(f, " batch={} (strides {}, {}, {})", self.batch, self.stride_a, self.stride_b, self.stride_c)?;
        }
        let e = self.epilogue;
        if e.output != rgemm_spec::Dtype::F32 {
            write!(f, " out={}", e.output.name())?;
        }
        match e.bias {
            Bias::None => {}
            Bias::PerColumn => write!(f, " bias=columns")?,
            Bias::PerRow => write!(f, " bias=rows")?,
        }
        if e.activation != Activation::Identity {
            write!(f, " act={}", e.activation.name())?;
        }
        if e.aux {
            write!(f, " aux")?;
        }
        Ok(())
    }
}

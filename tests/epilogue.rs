//! The fused epilogue (kernels-gpu/src/epilogue.rs): C in f32, bf16 or f16, a bias over columns
//! or rows, each activation, the auxiliary output; on the emulator (the kernels that apply it
//! themselves) and on the GPU (through the API: those kernels, the sum of split-K, and the
//! epilogue pass of the kernels that do not), every element against the f64 reference within
//! the bound of `check::EpilogueCheck`.

mod common;

use cudarc::driver::{DevicePtr, DevicePtrMut, DeviceRepr, ValidAsZeroBits};
use half::{bf16, f16};
use rgemm::api::{Element, Gemm, KernelChoice, Plan};
use rgemm::catalog::{self, Dtype};
use rgemm::problem::{Batch, Layout, LeadingDims, Problem};
use rgemm::{Activation, Bias, FusedEpilogue};
use rgemm_tools::check::{self, EpilogueCheck, ErrorModel, Inputs};
use rgemm_tools::emulate;
use rgemm_tools::storage::{self, Operand};

const OUTPUTS: [Dtype; 3] = [Dtype::F32, Dtype::Bf16, Dtype::F16];
const BIASES: [Bias; 3] = [Bias::None, Bias::PerColumn, Bias::PerRow];

/// The `i`-th epilogue of a walk in which 15 consecutive ones pair every output type with every
/// activation (3 and 5 are coprime), the bias axis turning every third and the auxiliary output
/// every other.
fn epilogue(i: usize) -> FusedEpilogue {
    FusedEpilogue { output: OUTPUTS[i % 3], bias: BIASES[(i / 3) % 3], activation: Activation::ALL[i % 5], aux: i % 2 == 1 }
}

/// A bare cast to a 16-bit type.
fn cast(output: Dtype) -> FusedEpilogue {
    FusedEpilogue { output, ..FusedEpilogue::NONE }
}

/// Runs `kernel` on the emulator with `p`'s epilogue and checks C and the auxiliary output.
fn emulate_and_check(kernel: catalog::Kernel, p: &Problem, seed: u64, one_sign: bool) {
    let inputs = if one_sign { Inputs::random_one_sign(p, kernel.spec.dtype, seed) } else { Inputs::random(p, kernel.spec.dtype, seed) };
    let ep = EpilogueCheck::random(p, seed);
    let mut c = inputs.c.clone();
    let mut aux = vec![0.0f32; c.len()];
    let aux_out = p.epilogue.aux.then_some(&mut aux[..]);
    // SAFETY: the catalog's spec and entry of one kernel.
    unsafe { emulate::run_entry_fused(kernel.spec, emulate::entry(kernel), p, &inputs.a, &inputs.b, &mut c, &ep.bias, aux_out) }
        .unwrap_or_else(|e| panic!("{} on {p}: {e}", kernel.name()));
    let (c_cmp, aux_cmp) = check::compare_epilogue(p, &inputs, &ErrorModel::of(kernel.spec), &ep, &c, p.epilogue.aux.then_some(&aux[..]));
    assert!(c_cmp.passed(), "{} on {p} (one sign: {one_sign}): C {c_cmp}", kernel.name());
    if let Some(aux_cmp) = aux_cmp {
        assert!(aux_cmp.passed(), "{} on {p}: the auxiliary output {aux_cmp}", kernel.name());
    }
}

#[test]
fn rung_14_applies_every_epilogue_through_shared_memory_on_the_emulator() {
    // The kernels that store C through shared memory: every epilogue of the walk on a tile with
    // tails (beta ≠ 0 included), and a persistent one over a batch.
    let narrow = catalog::find("bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt").unwrap();
    for i in 0..15 {
        let beta = if i % 4 == 3 { -0.5 } else { 0.0 };
        let p = Problem::general(70, 104, 136, 0.75, beta, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(epilogue(i));
        assert!(narrow.applies_epilogue(&p));
        emulate_and_check(narrow, &p, 2000 + i as u64, i % 2 == 1);
    }
    let persistent = catalog::find("hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast").unwrap();
    for i in [1, 5, 8] {
        let p = Problem::general(130, 264, 72, 1.5, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(2)).unwrap().with_epilogue(epilogue(i));
        emulate_and_check(persistent, &p, 3000 + i as u64, true);
    }
    // The pair stores do not: their plans take the twin that does.
    let pairs = catalog::find("bgemm_14_wgmma_tma_64x128x64_s8_pairs_nt").unwrap();
    let p = Problem::general(70, 104, 136, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(epilogue(4));
    assert!(!pairs.applies_epilogue(&p));
    assert_eq!(rgemm::choice::fusing_twin(pairs, &p).map(|k| k.name()), Some("bgemm_14_wgmma_tma_64x128x64_s8_tmast_nt"));
}

#[test]
fn fused_epilogues_are_right_on_the_emulator() {
    // The GEMVs (on the tensor cores too, K whole 16-byte rows and not), the general kernel and
    // the small-products kernel in their layouts and types:
    // every epilogue of the walk, beta ≠ 0 and batches included.
    let kernels: [(&str, (u64, u64, u64)); 10] = [
        ("bgemm_00_gemv_4x8x256_nt", (4, 40, 264)),
        ("bgemm_00_gemv_16x64x128_w16x8_mma_nt", (16, 72, 264)),
        ("hgemm_00_gemv_16x64x128_w16x8_mma_nt", (11, 70, 301)),
        ("bgemm_00_gemv_16x16x128_w16x8_mma_nt", (9, 40, 1100)),
        ("bgemm_00_batched_64x64x32_w32x32_tn", (70, 45, 40)),
        ("hgemm_00_batched_64x64x32_w32x32_nt", (33, 66, 65)),
        ("hgemm_00_gemv_16x8x256_nt", (13, 20, 300)),
        ("hgemm_00_general_16x16x16_tn", (33, 45, 20)),
        ("bgemm_00_general_16x16x16_tt", (19, 24, 40)),
        ("sgemm_00_general_16x16x16", (17, 31, 9)),
    ];
    for (name, (m, n, k)) in kernels {
        let kernel = catalog::find(name).unwrap();
        for i in 0..15 {
            let beta = if i % 4 == 3 { -0.5 } else { 0.0 };
            let batch = if i % 3 == 2 { 2 } else { 1 };
            let p = Problem::general(m, n, k, 0.75, beta, kernel.spec.layout, LeadingDims::default(), Batch::packed(batch)).unwrap().with_epilogue(epilogue(i));
            assert!(kernel.applies_epilogue(&p), "{name} applies every epilogue");
            emulate_and_check(kernel, &p, 1000 + i as u64, i % 2 == 1);
        }
    }
}

#[test]
fn the_small_products_kernel_stores_plain_c_by_quads_on_the_emulator() {
    // The plain epilogue in each output type stores four elements at a time where C's rows
    // start on four elements: whole quads (N a multiple of 4), a last partial quad (ldc padded
    // past an odd N), rows that do not start on four elements (element by element), and beta ≠ 0
    // (which reads C: element by element), over tails of the 64×64 tile and a batch.
    let cases: [(&str, (u64, u64, u64), Option<u64>, f32); 6] = [
        ("bgemm_00_batched_64x64x32_w32x32_nt", (70, 68, 40), None, 0.0),
        ("hgemm_00_batched_64x64x32_w32x32", (33, 66, 65), Some(72), 0.0),
        ("bgemm_00_batched_64x64x32_w32x32_tt", (130, 129, 5), Some(132), 0.0),
        ("hgemm_00_batched_64x64x32_w32x32_tn", (64, 64, 16), None, 0.0),
        ("bgemm_00_batched_64x64x32_w32x32_nt", (70, 66, 40), None, 0.0),
        ("bgemm_00_batched_64x64x32_w32x32", (70, 68, 40), None, -0.5),
    ];
    for (j, (name, (m, n, k), ldc, beta)) in cases.into_iter().enumerate() {
        let kernel = catalog::find(name).unwrap();
        for (i, output) in OUTPUTS.into_iter().enumerate() {
            let ld = LeadingDims { ldc, ..LeadingDims::default() };
            let p = Problem::general(m, n, k, 0.75, beta, kernel.spec.layout, ld, Batch::packed(1 + (i as u64 % 2))).unwrap().with_epilogue(cast(output));
            emulate_and_check(kernel, &p, 5000 + (3 * j + i) as u64, i == 1);
        }
    }
}

/// The kernels' activations (`kernels-gpu/src/epilogue.rs`, run on the host) against the f64
/// reference's, within the error the checks allow them (`check::activation_error`), from -30 to
/// 30; NaN stays NaN, and the extremes do not overflow.
#[test]
fn the_kernels_activations_are_within_their_stated_error_of_f64() {
    use kernels_gpu::epilogue::{activate, gelu_tanh, silu};
    for act in Activation::ALL {
        let (_, own) = check::activation_error(act);
        let mut x = -30.0f32;
        while x <= 30.0 {
            let (got, want) = (activate(act, x) as f64, check::activate_f64(act, x as f64));
            let bound = own * x.abs() as f64 + 1e-30;
            assert!((got - want).abs() <= bound, "{} at {x}: {got} vs {want}", act.name());
            x += 0.0371;
        }
        assert!(activate(act, f32::NAN).is_nan(), "{}", act.name());
    }
    assert_eq!(gelu_tanh(-1e30), 0.0);
    assert_eq!(silu(1e30), 1e30);
}

#[test]
fn nan_propagates_through_every_activation_and_f16_overflows_to_infinity() {
    let kernel = catalog::find("bgemm_00_general_16x16x16").unwrap();
    for activation in Activation::ALL {
        let e = FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation, aux: true };
        let p = Problem::general(5, 7, 3, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(e);
        let mut inputs = Inputs::random(&p, Dtype::Bf16, 3);
        inputs.a[0] = f32::NAN; // row 0 of C
        let ep = EpilogueCheck::random(&p, 3);
        let (mut c, mut aux) = (inputs.c.clone(), vec![0.0f32; 35]);
        // SAFETY: the catalog's spec and entry of one kernel.
        unsafe { emulate::run_entry_fused(kernel.spec, emulate::entry(kernel), &p, &inputs.a, &inputs.b, &mut c, &ep.bias, Some(&mut aux)) }.unwrap();
        for (i, (&got, &pre)) in c.iter().zip(&aux).enumerate() {
            assert_eq!(got.is_nan(), i < 7, "{}: C[{i}] = {got}", activation.name());
            assert_eq!(pre.is_nan(), i < 7, "{}: aux[{i}] = {pre}", activation.name());
        }
    }
    // Past f16's largest value (65504; from 65520 on it rounds to ∞): ±∞ with the reference's sign.
    let p = Problem::general(6, 9, 4, 1e6, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(cast(Dtype::F16));
    let kernel = catalog::find("hgemm_00_general_16x16x16").unwrap();
    let inputs = Inputs::random(&p, Dtype::F16, 5);
    let mut c = inputs.c.clone();
    // SAFETY: as above.
    unsafe { emulate::run_entry_fused(kernel.spec, emulate::entry(kernel), &p, &inputs.a, &inputs.b, &mut c, &[], None) }.unwrap();
    let want = check::reference(&p, &inputs);
    let mut infinite = 0;
    for (&got, &w) in c.iter().zip(want.iter()) {
        if w.abs() >= 65520.0 * 1.001 {
            assert!(got.is_infinite() && got.signum() as f64 == w.signum(), "{got} for {w}");
            infinite += 1;
        } else if w.abs() < 65504.0 * 0.999 {
            assert!(got.is_finite(), "{got} for {w}");
        }
    }
    assert!(infinite > 0, "the test overflows some elements");
}

#[test]
fn plans_apply_the_epilogue_where_their_kernel_does_not() {
    let layer = Problem::general(512, 11008, 4096, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
    let gelu = FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation: Activation::GeluTanh, aux: false };
    // At a measured shape whose kernel stores pairs from registers, the automatic choice takes
    // its twin that stores C through shared memory and applies the epilogue itself.
    let row = Problem::general(128, 6144, 4096, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap();
    let auto = rgemm::choice::plan(Dtype::Bf16, &row.with_epilogue(gelu), &KernelChoice::Auto, 132).unwrap();
    assert_eq!(auto.name(), "bgemm_14_wgmma_tma_64x128x64_s8_tmast_nt", "{}", auto.reason());
    assert!(auto.kernel().applies_epilogue(auto.problem()) && !auto.epilogue_pass(), "{}", auto.reason());
    assert_eq!(rgemm::choice::plan(Dtype::Bf16, &row, &KernelChoice::Auto, 132).unwrap().name(), "bgemm_14_wgmma_tma_64x128x64_s8_pairs_nt");
    // A rung 14 kernel with pair stores leaves it to split-K's sum, as one slice.
    let pairs = KernelChoice::Named("bgemm_14_wgmma_tma_128x256x64_s4_persistent_pairs_nt".into());
    let plan = rgemm::choice::plan(Dtype::Bf16, &layer.with_epilogue(gelu), &pairs, 132).unwrap();
    assert!(!plan.kernel().applies_epilogue(plan.problem()) && plan.epilogue_pass(), "{}", plan.reason());
    // The decode GEMV applies it itself.
    let decode = Problem::general(4, 11008, 4096, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(gelu);
    let gemv = rgemm::choice::plan(Dtype::Bf16, &decode, &KernelChoice::Named("bgemm_00_gemv_4x8x256_nt".into()), 132).unwrap();
    assert!(gemv.kernel().applies_epilogue(gemv.problem()) && !gemv.epilogue_pass(), "{}: {}", gemv.name(), gemv.reason());
    // A named kernel without it writes its product to the workspace; the sum applies it.
    let named = KernelChoice::Named("bgemm_13_wgmma_128x256x64_s4".into());
    let square = Problem::general(512, 512, 512, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(gelu);
    let plan = rgemm::choice::plan(Dtype::Bf16, &square, &named, 132).unwrap();
    assert!(plan.epilogue_pass(), "{}", plan.reason());
    // A batch too: every product into the workspace, each summed into its own C.
    let batched = Problem::general(96, 128, 64, 1.0, 0.5, Layout::TT, LeadingDims::default(), Batch::packed(3)).unwrap().with_epilogue(gelu);
    let plan = rgemm::choice::plan(Dtype::Bf16, &batched, &KernelChoice::Auto, 132).unwrap();
    assert!(plan.kernel().applies_epilogue(plan.problem()) || plan.epilogue_pass(), "{}", plan.reason());
    // The general kernels are never split: named with an epilogue they apply it themselves.
    let general = rgemm::choice::plan(Dtype::Bf16, &square, &KernelChoice::Named("bgemm_00_general_16x16x16".into()), 132).unwrap();
    assert!(!general.epilogue_pass() && general.splits() == 1);
    // The builder's epilogue reaches the problem.
    let built = Gemm::new(512, 11008, 4096).layout(Layout::NT).output::<bf16>().bias(Bias::PerColumn).activation(Activation::GeluTanh).problem().unwrap();
    assert_eq!(built.epilogue, gelu);
}

/// Every 16-bit kernel the dispatch table names applies a fused epilogue itself or has a twin
/// that does (`choice::fusing_twin`), but stream-K's, which leave it to the epilogue pass.
#[test]
fn every_kernel_of_the_table_has_a_fusing_twin() {
    let gelu = FusedEpilogue { output: Dtype::Bf16, bias: Bias::PerColumn, activation: Activation::GeluTanh, aux: false };
    let table = rgemm::dispatch::table();
    let mut seen = 0;
    for row in table.rows.iter().filter(|row| row.dtype != Dtype::F32) {
        let kernel = row.kernel;
        if kernel.spec.schedule() == rgemm_spec::Schedule::StreamK {
            continue;
        }
        let p = Problem::general(1024, 1024, 1024, 1.0, 0.0, kernel.spec.layout, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(gelu);
        let fused = kernel.applies_epilogue(&p) || rgemm::choice::fusing_twin(kernel, &p).is_some();
        assert!(fused, "{} neither applies the epilogue nor has a twin that does", kernel.name());
        seen += 1;
    }
    assert!(seen > 20, "the table's 16-bit rows: {seen}");
}

/// An element type the GPU test moves in and out as f32.
trait Value: Element + DeviceRepr + ValidAsZeroBits + Copy + Unpin + 'static {
    fn from_f32(v: f32) -> Self;
    fn to_f32(self) -> f32;
}
impl Value for f32 {
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f32(self) -> f32 {
        self
    }
}
impl Value for bf16 {
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}
impl Value for rgemm::E4m3 {
    fn from_f32(v: f32) -> Self {
        rgemm::E4m3::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        rgemm::E4m3::to_f32(self)
    }
}
impl Value for f16 {
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}

/// What C's and the auxiliary output's padding hold on the GPU (a write there changes it).
const PADDING: f32 = -12345.0;

/// Runs `plan` through the API on `T` operands and `O` outputs; returns C and the auxiliary
/// output (the products' views) and how many padding elements were written.
fn run_on_gpu<T: Value, O: Value>(gpu: &rgemm::Gpu, plan: &Plan, inputs: &Inputs, bias: &[f32]) -> (Vec<f32>, Option<Vec<f32>>, usize) {
    let p = plan.problem();
    let stream = gpu.stream();
    let up = |values: Vec<f32>| -> Vec<T> { values.into_iter().map(T::from_f32).collect() };
    let a = stream.clone_htod(&up(storage::pack(p, Operand::A, &inputs.a, f32::NAN))).unwrap();
    let b = stream.clone_htod(&up(storage::pack(p, Operand::B, &inputs.b, f32::NAN))).unwrap();
    let out = |values: Vec<f32>| -> Vec<O> { values.into_iter().map(O::from_f32).collect() };
    let mut c = stream.clone_htod(&out(storage::pack(p, Operand::C, &inputs.c, PADDING))).unwrap();
    let bias = (!bias.is_empty()).then(|| stream.clone_htod(&out(bias.to_vec())).unwrap());
    let lc = p.extents().2;
    let mut aux = p.epilogue.aux.then(|| stream.clone_htod(&out(vec![PADDING; lc])).unwrap());
    plan.run_with_epilogue(gpu, &a, &b, &mut c, bias.as_ref().map(|b| b as &dyn DevicePtr<O>), aux.as_mut().map(|x| x as &mut dyn DevicePtrMut<O>))
        .unwrap_or_else(|e| panic!("{} on {p}: {e}", plan.name()));
    let down = |buffer: &cudarc::driver::CudaSlice<O>| -> (Vec<f32>, usize) {
        let values: Vec<f32> = stream.clone_dtoh(buffer).unwrap().into_iter().map(O::to_f32).collect();
        storage::unpack_c(p, &values, O::from_f32(PADDING).to_f32())
    };
    let (c, stray_c) = down(&c);
    let (aux, stray_aux) = match &aux {
        Some(x) => {
            let (v, s) = down(x);
            (Some(v), s)
        }
        None => (None, 0),
    };
    (c, aux, stray_c + stray_aux)
}

/// [`check_on_gpu`] with operands of `dtype`.
fn check_as(dtype: Dtype, gpu: &rgemm::Gpu, p: &Problem, choice: KernelChoice, seed: u64, one_sign: bool) {
    match dtype {
        Dtype::F32 => check_on_gpu::<f32>(gpu, p, choice, seed, one_sign),
        Dtype::Bf16 => check_on_gpu::<bf16>(gpu, p, choice, seed, one_sign),
        Dtype::F16 => check_on_gpu::<f16>(gpu, p, choice, seed, one_sign),
        Dtype::E4m3 => check_on_gpu::<rgemm::E4m3>(gpu, p, choice, seed, one_sign),
    }
}

/// Plans `p` (epilogue included) for `T` operands as a caller does, runs it and checks it.
fn check_on_gpu<T: Value>(gpu: &rgemm::Gpu, p: &Problem, choice: KernelChoice, seed: u64, one_sign: bool) {
    let dtype = T::DTYPE;
    let gemm = Gemm::new(p.m as u64, p.n as u64, p.k as u64).layout(p.layout).scalars(p.alpha, p.beta).batch(p.batch as u64, p.stride_a, p.stride_b, p.stride_c).bias(p.epilogue.bias).activation(p.epilogue.activation);
    let gemm = if p.epilogue.aux { gemm.aux_output() } else { gemm };
    let gemm = match p.epilogue.output {
        Dtype::F32 => gemm.output::<f32>(),
        Dtype::Bf16 => gemm.output::<bf16>(),
        Dtype::F16 => gemm.output::<f16>(),
        Dtype::E4m3 => panic!("C is never FP8"),
    };
    let plan = gemm.plan::<T>(gpu, choice).unwrap_or_else(|e| panic!("{p}: {e}"));
    let inputs = if one_sign { Inputs::random_one_sign(p, dtype, seed) } else { Inputs::random(p, dtype, seed) };
    let ep = EpilogueCheck::random(p, seed);
    let (c, aux, stray) = match p.epilogue.output {
        Dtype::F32 => run_on_gpu::<T, f32>(gpu, &plan, &inputs, &ep.bias),
        Dtype::Bf16 => run_on_gpu::<T, bf16>(gpu, &plan, &inputs, &ep.bias),
        Dtype::F16 => run_on_gpu::<T, f16>(gpu, &plan, &inputs, &ep.bias),
        Dtype::E4m3 => panic!("C is never FP8"),
    };
    assert_eq!(stray, 0, "{} on {p}: padding written", plan.name());
    let model = if p.k == 0 { ErrorModel::FMA_F32 } else { ErrorModel::of(plan.kernel().spec) };
    let (c_cmp, aux_cmp) = check::compare_epilogue(p, &inputs, &model, &ep, &c, aux.as_deref());
    assert!(c_cmp.passed(), "{} on {p} (one sign: {one_sign}): C {c_cmp}", plan.name());
    if let Some(aux_cmp) = aux_cmp {
        assert!(aux_cmp.passed(), "{} on {p}: the auxiliary output {aux_cmp}", plan.name());
    }
}

#[test]
#[ignore = "needs a GPU"]
fn fused_epilogues_are_right_on_the_gpu() {
    let guard = common::gpu("fused_epilogues_are_right_on_the_gpu");
    let gpu = &*guard;
    // (m, n, k, layout, batch): tiles with tails, a linear layer, split-K (few tiles, long K),
    // a decode step (the GEMV), a batch of small products, K = 0.
    let shapes = [
        (300, 520, 256, Layout::NN, 1),
        (257, 1000, 512, Layout::NT, 1),
        (512, 1024, 1024, Layout::NT, 1),
        (64, 96, 4096, Layout::TN, 1),
        (8, 4096, 1024, Layout::NT, 1),
        (96, 128, 64, Layout::TT, 3),
        (130, 264, 0, Layout::NT, 1),
    ];
    let mut i = 0;
    for (m, n, k, layout, batch) in shapes {
        for dtype in [Dtype::F32, Dtype::Bf16, Dtype::F16] {
            for _ in 0..5 {
                let beta = if i % 4 == 3 { 0.5 } else { 0.0 };
                let p = Problem::general(m, n, k, 0.5, beta, layout, LeadingDims::default(), Batch::packed(batch)).unwrap().with_epilogue(epilogue(i));
                let one_sign = i % 2 == 1;
                check_as(dtype, gpu, &p, KernelChoice::Auto, i as u64, one_sign);
                i += 1;
            }
        }
    }
    // A bare cast to 16 bits on a larger product (the persistent walk, then the sum), and a named
    // kernel whose plan applies the epilogue by the sum (rung 13).
    for output in [Dtype::Bf16, Dtype::F16] {
        let p = Problem::general(1024, 4096, 512, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(cast(output));
        check_on_gpu::<bf16>(gpu, &p, KernelChoice::Auto, 11, false);
    }
    let p = Problem::general(300, 520, 256, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(epilogue(13));
    check_on_gpu::<bf16>(gpu, &p, KernelChoice::Named("bgemm_13_wgmma_128x256x64_s4".into()), 13, true);
    // Rung 14's stores through shared memory, named: data-parallel and persistent over a batch,
    // with tails and beta ≠ 0; and stream-K, whose sums the epilogue pass finishes. Then the
    // small-products kernel on a batch of many and on unaligned rows.
    let named = [
        ("bgemm_14_wgmma_tma_64x64x64_s12_tmast_nt", (200, 304, 520, Layout::NT, 1)),
        ("hgemm_14_wgmma_tma_128x256x64_s4_persistent_tmast", (300, 600, 256, Layout::NN, 2)),
        ("bgemm_14_wgmma_tma_128x256x64_s4_streamk_tmast_nt", (520, 1104, 3000, Layout::NT, 1)),
        ("bgemm_14_wgmma_tma_64x128x64_s8_tmast_tt", (136, 264, 200, Layout::TT, 1)),
        // The small-products kernel, whose every store goes through the epilogue.
        ("bgemm_00_batched_64x64x32_w32x32", (40, 72, 96, Layout::NN, 300)),
        ("hgemm_00_batched_64x64x32_w32x32_tt", (130, 33, 120, Layout::TT, 5)),
        // The tensor-core GEMV: 16 rows and fewer, K whole 16-byte rows and not, a batch.
        ("bgemm_00_gemv_16x64x128_w16x8_mma_nt", (16, 4104, 4096, Layout::NT, 1)),
        ("hgemm_00_gemv_16x64x128_w16x8_mma_nt", (7, 1000, 1001, Layout::NT, 3)),
        ("bgemm_00_gemv_16x16x128_w16x8_mma_nt", (12, 4100, 11008, Layout::NT, 1)),
        ("hgemm_00_gemv_16x16x128_w16x8_mma_nt", (16, 300, 777, Layout::NT, 2)),
    ];
    for (j, (name, (m, n, k, layout, batch))) in named.into_iter().enumerate() {
        for i in [j, j + 5, j + 10] {
            let beta = if i % 4 == 3 { 0.5 } else { 0.0 };
            let p = Problem::general(m, n, k, 0.5, beta, layout, LeadingDims::default(), Batch::packed(batch)).unwrap().with_epilogue(epilogue(i));
            let dtype = catalog::find(name).unwrap().spec.dtype;
            check_as(dtype, gpu, &p, KernelChoice::Named(name.into()), 40 + i as u64, i % 2 == 0);
        }
    }
    // The small-products kernel's stores by quads (the plain epilogue, rows of C on four
    // elements), in each output type: whole quads over a batch, and a last partial quad.
    for (j, output) in OUTPUTS.into_iter().enumerate() {
        for (name, (m, n, k, ldc, batch)) in [("bgemm_00_batched_64x64x32_w32x32_nt", (70, 68, 40, None, 300)), ("hgemm_00_batched_64x64x32_w32x32_tn", (100, 66, 5, Some(68), 2))] {
            let kernel = catalog::find(name).unwrap();
            let ld = LeadingDims { ldc, ..LeadingDims::default() };
            let p = Problem::general(m, n, k, 0.5, 0.0, kernel.spec.layout, ld, Batch::packed(batch)).unwrap().with_epilogue(cast(output));
            check_as(kernel.spec.dtype, gpu, &p, KernelChoice::Named(name.into()), 60 + j as u64, j == 1);
        }
    }
}

/// FP8 (rung 16) through the API on the GPU: linear layers with tails, K not a whole 16-byte
/// row (a staged copy), a long K, a decode step and a batch, with every output type and
/// epilogue, on one-sign and zero-mean inputs; then every FP8 kernel by name on a product
/// with tails and a long one-sign sum, each judged by its own error model (the flush interval's).
#[test]
#[ignore = "needs a GPU"]
fn fp8_products_are_right_on_the_gpu() {
    let guard = common::gpu("fp8_products_are_right_on_the_gpu");
    let gpu = &*guard;
    let shapes = [(300, 520, 256, 1), (257, 1000, 520, 1), (512, 1024, 4096, 1), (16, 4096, 1024, 1), (96, 128, 64, 3), (100, 100, 100, 1)];
    let mut i = 0;
    for (m, n, k, batch) in shapes {
        for _ in 0..5 {
            let beta = if i % 4 == 3 { 0.5 } else { 0.0 };
            let p = Problem::general(m, n, k, 0.5, beta, Layout::NT, LeadingDims::default(), Batch::packed(batch)).unwrap().with_epilogue(epilogue(i));
            check_as(Dtype::E4m3, gpu, &p, KernelChoice::Auto, 60 + i as u64, i % 2 == 1);
            i += 1;
        }
    }
    for kernel in catalog::all().filter(|k| k.spec.dtype == Dtype::E4m3) {
        for (j, output) in [Dtype::F32, Dtype::Bf16].into_iter().enumerate() {
            let p = Problem::general(520, 1104, 3008, 1.0, 0.0, Layout::NT, LeadingDims::default(), Batch::packed(1)).unwrap().with_epilogue(cast(output));
            check_as(Dtype::E4m3, gpu, &p, KernelChoice::Named(kernel.name().into()), 90 + j as u64, j == 0);
        }
    }
}

#[test]
#[ignore = "needs a GPU"]
fn epilogue_operands_are_checked_on_the_gpu() {
    let guard = common::gpu("epilogue_operands_are_checked_on_the_gpu");
    let gpu = &*guard;
    let plan = Gemm::new(64, 128, 64).output::<bf16>().bias(Bias::PerColumn).plan::<bf16>(gpu, KernelChoice::Auto).unwrap();
    let stream = gpu.stream();
    let a = stream.alloc_zeros::<bf16>(64 * 64).unwrap();
    let b = stream.alloc_zeros::<bf16>(64 * 128).unwrap();
    let mut c = stream.alloc_zeros::<bf16>(64 * 128).unwrap();
    let mut c32 = stream.alloc_zeros::<f32>(64 * 128).unwrap();
    let bias = stream.alloc_zeros::<bf16>(128).unwrap();
    let short = stream.alloc_zeros::<bf16>(127).unwrap();
    use rgemm::{Error, Operand};
    assert!(matches!(plan.run(gpu, &a, &b, &mut c), Err(Error::MissingOperand { operand: Operand::Bias })));
    assert!(matches!(plan.run(gpu, &a, &b, &mut c32), Err(Error::WrongOutputType { plan: "bf16", given: "f32" })));
    assert!(matches!(plan.run_with_epilogue(gpu, &a, &b, &mut c, Some(&short), None), Err(Error::BufferTooSmall { operand: Operand::Bias, have: 127, need: 128 })));
    let mut aux = stream.alloc_zeros::<bf16>(64 * 128).unwrap();
    assert!(matches!(plan.run_with_epilogue(gpu, &a, &b, &mut c, Some(&bias), Some(&mut aux)), Err(Error::UnexpectedOperand { operand: Operand::Aux })));
    assert!(plan.run_with_epilogue(gpu, &a, &b, &mut c, Some(&bias), None).is_ok());
}

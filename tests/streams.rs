//! Streams, devices, CUDA graphs and threads: a `Gpu` is `Send + Sync`; a device past the
//! driver's count is an error; `Gpu::with_stream` takes streams of its own context only; plans
//! captured into a CUDA graph after one run replay right, also after the `Gpu` has replaced the
//! workspace and tensor maps the graph reads; and eight threads, each on a stream of its own,
//! run random plans through one `Gpu`, every result checked against the f64 reference, with the
//! memory the same before and after.

mod common;

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::{Element, Gemm, KernelChoice, Plan};
use rgemm::catalog::Dtype;
use rgemm::cudarc::driver::sys::{CUgraphInstantiate_flags, CUmemPool_attribute, CUstreamCaptureMode};
use rgemm::cudarc::driver::{CudaContext, CudaSlice, CudaStream, result};
use rgemm::problem::{Batch, Layout, LeadingDims, Problem};
use rgemm::{Error, Gpu};
use rgemm_tools::check::{self, ErrorModel, Inputs, Sample};
use rgemm_tools::storage::{self, Operand};

/// Written around C's matrices (padding, gaps between the batch's matrices): a kernel that
/// writes there changes it.
const FILL: f32 = -1234.5;

/// The element types of A and B, as the tests convert values to them.
trait Elem: Element {
    fn from_f32(v: f32) -> Self;
}

impl Elem for f32 {
    fn from_f32(v: f32) -> Self {
        v
    }
}

impl Elem for half::bf16 {
    fn from_f32(v: f32) -> Self {
        half::bf16::from_f32(v)
    }
}

impl Elem for half::f16 {
    fn from_f32(v: f32) -> Self {
        half::f16::from_f32(v)
    }
}

impl Elem for rgemm::E4m3 {
    fn from_f32(v: f32) -> Self {
        rgemm::E4m3::from_f32(v)
    }
}

fn send_and_sync<T: Send + Sync>() {}

/// What threads may share: a `Gpu` (its launches go to its one stream) and a plan (plain data),
/// and the errors either returns. A compile-time check: no GPU needed.
#[test]
fn gpus_plans_and_errors_can_be_shared_by_threads() {
    send_and_sync::<Gpu>();
    send_and_sync::<Plan>();
    send_and_sync::<Error>();
}

/// An ordinal no machine has is an error (no driver, no device, or a sentence naming the
/// count), never a panic. Runs anywhere: without a driver nothing is touched.
#[test]
fn a_device_past_the_count_is_an_error_not_a_panic() {
    for ordinal in [usize::MAX, 1 << 20] {
        match Gpu::on_device(ordinal) {
            Ok(gpu) => panic!("device {ordinal} opened: {}", gpu.info.name),
            Err(e) => {
                let message = e.to_string();
                assert!(matches!(e, Error::NoDriver | Error::NoDevice(_)), "{message}");
                assert!(!message.is_empty() && !message.contains('\n'), "{message:?}");
            }
        }
    }
}

/// On a GPU: the first ordinal past the count and `usize::MAX` are `NoDevice` naming the count;
/// the last device opens and reports its ordinal.
#[test]
#[ignore = "needs a GPU"]
fn a_device_past_the_count_names_the_count_on_the_gpu() {
    let _serial = common::gpu("a_device_past_the_count_names_the_count_on_the_gpu");
    let count = CudaContext::device_count().expect("the driver counts its devices") as usize;
    assert!(count >= 1);
    for ordinal in [count, count + 1, usize::MAX] {
        match Gpu::on_device(ordinal) {
            Ok(_) => panic!("device {ordinal} of {count} opened"),
            Err(Error::NoDevice(why)) => {
                assert!(why.contains(&format!("device {ordinal} was asked for")) && why.contains(&format!("reports {count} device")), "{why}");
            }
            Err(e) => panic!("device {ordinal} of {count}: {e}"),
        }
    }
    match Gpu::on_device(count - 1) {
        Ok(gpu) => assert_eq!(gpu.info.ordinal, count - 1),
        // A machine may hold other GPUs beside its Hopper ones.
        Err(Error::UnsupportedDevice { .. }) => {}
        Err(e) => panic!("device {} of {count}: {e}", count - 1),
    }
}

/// `with_stream` gives a `Gpu` on the stream given, of the same device, and refuses a stream of
/// another context (here one more context on the same device) with an error naming why.
#[test]
#[ignore = "needs a GPU"]
fn with_stream_takes_streams_of_its_own_context_only() {
    let guard = common::gpu("with_stream_takes_streams_of_its_own_context_only");
    let gpu = &*guard;
    let stream = gpu.context().new_stream().unwrap();
    let other = gpu.with_stream(stream.clone()).unwrap();
    assert!(Arc::ptr_eq(other.stream(), &stream) && !Arc::ptr_eq(other.stream(), gpu.stream()));
    assert_eq!((other.info.ordinal, other.info.multiprocessors), (gpu.info.ordinal, gpu.info.multiprocessors));
    let foreign = CudaContext::new_non_primary(gpu.info.ordinal, 0).expect("a second context on the device");
    let foreign_stream = foreign.new_stream().unwrap();
    match gpu.with_stream(foreign_stream.clone()) {
        Ok(_) => panic!("a stream of another context was taken"),
        Err(e) => assert!(e.to_string().contains("another CUDA context") && !e.to_string().contains('\n'), "{e}"),
    }
    drop(foreign_stream);
    drop(foreign);
    // The Gpu on the new stream runs a plan (and the first one still does).
    for g in [&other, gpu] {
        let plan = Gemm::new(100, 70, 50).scalars(1.5, 0.0).plan::<f32>(g, KernelChoice::Auto).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        let inputs = fresh_inputs(plan.problem(), Dtype::F32, &mut rng);
        let stored = run_once::<f32>(g, &plan, &inputs);
        if let Err(why) = check_c(&plan, &inputs, &stored, 3) {
            panic!("{why}");
        }
    }
}

/// A random problem for the soak: any layout, sizes from 1 to 1024 (as many of each order of
/// magnitude), tight or padded leading dimensions, a batch (with broadcast operands) sometimes,
/// alpha of either sign, beta ≠ 0 sometimes.
fn random_case(rng: &mut StdRng) -> (Problem, Dtype) {
    loop {
        let dtype = [Dtype::F32, Dtype::Bf16, Dtype::F16][rng.random_range(0..3)];
        let layout = Layout::ALL[rng.random_range(0..4)];
        let mut size = || 2f64.powf(rng.random_range(0.0..10.0)).round() as u64;
        let (m, n, k) = (size(), size(), size());
        let pad = |rng: &mut StdRng| if rng.random_bool(0.7) { 0 } else { rng.random_range(1..20u64) };
        let (a_cols, b_cols) = (if layout.a.is_t() { m } else { k }, if layout.b.is_t() { k } else { n });
        let ld = LeadingDims { lda: Some(a_cols + pad(rng)), ldb: Some(b_cols + pad(rng)), ldc: Some(n + pad(rng)) };
        let count = if m * n * k <= 1 << 24 && rng.random_bool(0.25) { rng.random_range(2..5u64) } else { 1 };
        let broadcast = |rng: &mut StdRng| rng.random_bool(0.2).then_some(0);
        let batch = Batch { count, stride_a: broadcast(rng), stride_b: broadcast(rng), stride_c: None };
        let alpha = rng.random_range(0.25..2.0f32) * if rng.random_bool(0.2) { -1.0 } else { 1.0 };
        let beta = if rng.random_bool(0.4) { rng.random_range(-1.5..1.5f32) } else { 0.0 };
        if let Ok(p) = Problem::general(m, n, k, alpha, beta, layout, ld, batch) {
            return (p, dtype);
        }
    }
}

/// Fresh inputs for `p`: each operand drawn from one of four ranges, zero-mean or not (a kernel
/// that drops a term or a sign shows on a non-zero mean), A and B rounded to `dtype`; C random
/// where beta ≠ 0 (an input), NaN where it is not (a kernel that skips an element leaves it).
fn fresh_inputs(p: &Problem, dtype: Dtype, rng: &mut StdRng) -> Inputs {
    const RANGES: [(f32, f32); 4] = [(-1.0, 1.0), (0.0, 1.0), (0.5, 1.5), (-1.5, -0.25)];
    let (la, lb, lc) = p.elems();
    let mut draw = |len: usize, round: bool| -> Vec<f32> {
        let (lo, hi) = RANGES[rng.random_range(0..RANGES.len())];
        (0..len).map(|_| rng.random_range(lo..hi)).map(|v| if round { check::round_to(dtype, v) } else { v }).collect()
    };
    let a = draw(la, true);
    let b = draw(lb, true);
    let c = if p.beta == 0.0 { vec![check::POISON; lc] } else { draw(lc, false) };
    Inputs { dtype, a, b, c }
}

/// `inputs` as `plan`'s problem stores them, on the device: A and B (NaN in their padding) of
/// element type `T`, C (`FILL` around its matrices).
fn upload<T: Elem>(stream: &Arc<CudaStream>, plan: &Plan, inputs: &Inputs) -> (CudaSlice<T>, CudaSlice<T>, CudaSlice<f32>) {
    let p = plan.problem();
    let conv = |v: Vec<f32>| v.into_iter().map(T::from_f32).collect::<Vec<T>>();
    let a = stream.clone_htod(&conv(storage::pack(p, Operand::A, &inputs.a, f32::NAN))).unwrap();
    let b = stream.clone_htod(&conv(storage::pack(p, Operand::B, &inputs.b, f32::NAN))).unwrap();
    let c = stream.clone_htod(&storage::pack(p, Operand::C, &inputs.c, FILL)).unwrap();
    (a, b, c)
}

/// Writes `inputs` over buffers made by [`upload`] for the same plan.
fn overwrite<T: Elem>(stream: &Arc<CudaStream>, plan: &Plan, inputs: &Inputs, (a, b, c): &mut (CudaSlice<T>, CudaSlice<T>, CudaSlice<f32>)) {
    let p = plan.problem();
    let conv = |v: Vec<f32>| v.into_iter().map(T::from_f32).collect::<Vec<T>>();
    stream.memcpy_htod(&conv(storage::pack(p, Operand::A, &inputs.a, f32::NAN)), a).unwrap();
    stream.memcpy_htod(&conv(storage::pack(p, Operand::B, &inputs.b, f32::NAN)), b).unwrap();
    stream.memcpy_htod(&storage::pack(p, Operand::C, &inputs.c, FILL), c).unwrap();
}

/// `plan` on `inputs` through `Plan::run` on `gpu`'s stream: C as stored, read back.
fn run_once<T: Elem>(gpu: &Gpu, plan: &Plan, inputs: &Inputs) -> Vec<f32> {
    let stream = gpu.stream();
    let (a, b, mut c) = upload::<T>(stream, plan, inputs);
    plan.run(gpu, &a, &b, &mut c).unwrap_or_else(|e| panic!("{} on {}: {e}", plan.name(), plan.problem()));
    stream.clone_dtoh(&c).unwrap()
}

/// C as stored against the f64 reference, within the error bound of the plan's kernel: every
/// element where the reference is cheap, else the rows and columns of a sample (the first and
/// last included); nothing written outside C's matrices.
fn check_c(plan: &Plan, inputs: &Inputs, stored: &[f32], seed: u64) -> Result<(), String> {
    let p = plan.problem();
    let (values, stray) = storage::unpack_c(p, stored, FILL);
    let model = ErrorModel::of(plan.kernel().spec);
    let work = p.m as u64 * p.n as u64 * p.k as u64 * p.batch as u64;
    let cmp = if work <= 1 << 24 { check::compare_full(p, inputs, &model, &values) } else { Sample::random(p, 8, seed).compare(p, inputs, &model, &values) };
    if cmp.passed() && stray == 0 { Ok(()) } else { Err(format!("{} on {p} ({}): {cmp}, {stray} stray writes", plan.name(), inputs.dtype.name())) }
}

/// [`run_once`] for the element type of `inputs`.
fn run_dyn(gpu: &Gpu, plan: &Plan, inputs: &Inputs) -> Vec<f32> {
    match inputs.dtype {
        Dtype::F32 => run_once::<f32>(gpu, plan, inputs),
        Dtype::Bf16 => run_once::<half::bf16>(gpu, plan, inputs),
        Dtype::F16 => run_once::<half::f16>(gpu, plan, inputs),
        Dtype::E4m3 => run_once::<rgemm::E4m3>(gpu, plan, inputs),
    }
}

/// Device memory once everything queued is done: free bytes on the device (the whole device:
/// another process using it changes this too), and the bytes this process holds from the
/// device's memory pool, where cudarc and rgemm allocate (after the pool has given back what it
/// no longer uses).
fn settled_memory(gpu: &Gpu) -> (u64, u64) {
    let used = settle(gpu);
    (gpu.memory().unwrap().0, used)
}

/// Waits for everything queued on `gpu`'s context, has the device's memory pool give back what
/// no allocation holds (so that freed memory is unmapped, not kept for reuse), and returns the
/// bytes allocations still hold from it.
fn settle(gpu: &Gpu) -> u64 {
    let ctx = gpu.context();
    ctx.synchronize().unwrap();
    ctx.bind_to_thread().unwrap();
    let mut used: u64 = 0;
    // SAFETY: the device handle is the context's own and the context is current; the pool is
    // the device's, live for the process; `used` is the u64 this attribute is written as.
    unsafe {
        let pool = result::device::get_mem_pool(ctx.cu_device()).unwrap();
        result::mem_pool::trim_to(pool, 0).unwrap();
        result::mem_pool::get_attribute(pool, CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &mut used as *mut u64 as *mut c_void).unwrap();
    }
    used
}

const THREADS: usize = 8;
/// Distinct problems per thread, each run once in the warm-up.
const CASES: usize = 40;
/// Runs per thread in the soak, each on one of the thread's problems with fresh inputs.
const RUNS: usize = 500;

/// One `Gpu` opened once; eight threads, each on a stream of its own through
/// `Gpu::with_stream`, each running random plans (every layout, f32, bf16 and f16, batches,
/// beta ≠ 0, the automatic choice) 500 times with fresh inputs, every result checked against the
/// f64 reference. After one warm-up round (which loads every kernel the soak runs), the memory
/// is the same before the soak and after it, once its `Gpu`s and buffers are dropped: the bytes
/// this process holds from the device's memory pool exactly, and the device's free memory (on a
/// GPU no other process uses meanwhile; it was equal to the byte on an H200).
#[test]
#[ignore = "needs a GPU"]
fn eight_threads_on_their_own_streams_run_random_plans_right() {
    let guard = common::gpu("eight_threads_on_their_own_streams_run_random_plans_right");
    let gpu = &*guard;
    let start = Instant::now();
    let streams: Vec<Arc<CudaStream>> = (0..THREADS).map(|_| gpu.context().new_stream().unwrap()).collect();
    let cases: Vec<Vec<(Problem, Dtype)>> = (0..THREADS)
        .map(|t| {
            let mut rng = StdRng::seed_from_u64(0x57_0000 + t as u64);
            let mut mine: Vec<_> = (0..CASES - 2).map(|_| random_case(&mut rng)).collect();
            // One problem the automatic choice splits K of, and one whose rows are copied first
            // (A's rows are not whole 16-byte units).
            let dtype = [Dtype::F32, Dtype::Bf16, Dtype::F16][t % 3];
            mine.push((Problem::general(48 + t as u64, 64, 4096, 1.0, 0.0, Layout::ALL[t % 4], LeadingDims::default(), Batch::packed(1)).unwrap(), dtype));
            let ld = LeadingDims { lda: Some(1021), ldb: None, ldc: None };
            mine.push((Problem::general(300, 264, 1021, 0.75, -0.5, Layout::NN, ld, Batch::packed(1)).unwrap(), dtype));
            mine
        })
        .collect();
    // Every thread runs each of its problems once, checked like the soak's runs.
    let round = |runs: &(dyn Fn(usize, &mut StdRng) -> Vec<usize> + Sync), salt: u64| -> BTreeMap<String, usize> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (stream, cases) = (streams[t].clone(), &cases[t]);
                    scope.spawn(move || {
                        let mut rng = StdRng::seed_from_u64(salt ^ (t as u64) << 32);
                        let mine = gpu.with_stream(stream).unwrap();
                        let mut plans = BTreeMap::new();
                        for (i, which) in runs(t, &mut rng).into_iter().enumerate() {
                            let (p, dtype) = &cases[which];
                            let plan = common::auto_plan(&mine, p, *dtype);
                            let inputs = fresh_inputs(p, *dtype, &mut rng);
                            let stored = run_dyn(&mine, &plan, &inputs);
                            if let Err(why) = check_c(&plan, &inputs, &stored, salt + i as u64) {
                                panic!("thread {t}, run {i}: {why}");
                            }
                            *plans.entry(plan.name()).or_insert(0) += 1;
                        }
                        plans
                    })
                })
                .collect();
            let mut all = BTreeMap::new();
            for h in handles {
                for (name, n) in h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)) {
                    *all.entry(name).or_insert(0) += n;
                }
            }
            all
        })
    };
    let warm = round(&|_, _| (0..CASES).collect(), 1);
    let before = settled_memory(gpu);
    let soak = round(&|_, rng| (0..RUNS).map(|_| rng.random_range(0..CASES)).collect(), 2);
    let after = settled_memory(gpu);
    let runs: usize = soak.values().sum();
    common::say(&format!(
        "{runs} runs on {THREADS} streams in {:.1} s ({} plans; warm-up {} runs); free device memory {} → {} bytes, pool {} → {} bytes; plans: {soak:?}",
        start.elapsed().as_secs_f64(),
        soak.len(),
        warm.values().sum::<usize>(),
        before.0,
        after.0,
        before.1,
        after.1
    ));
    assert_eq!(runs, THREADS * RUNS);
    assert!(warm.keys().any(|n| n.contains("_split")), "no split-K plan among {warm:?}");
    assert!(warm.keys().any(|n| n.contains("_staged")), "no staged plan among {warm:?}");
    assert_eq!(after.1, before.1, "bytes held from the memory pool changed: something allocated in the soak was not freed");
    // Free memory is the whole device's: another process using the GPU at the same time moves
    // it too. Less than before is a leak unless it comes back within a few seconds.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut free = after.0;
    while free < before.0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        free = gpu.memory().unwrap().0;
    }
    assert!(free >= before.0, "{} bytes less free device memory after the soak than before it (another process on the GPU moves this too)", before.0 - free);
    drop(streams);
}

/// Problems of the graph test: a TMA kernel's plan (its tensor maps are encoded and uploaded on
/// the first run), a split-K plan (its workspace grows on the first run; beta ≠ 0), and the
/// 3×TF32 kernel that splits A ahead into a workspace of its own.
fn graph_cases() -> Vec<GraphCase> {
    vec![
        GraphCase { gemm: Gemm::new(512, 768, 1024).layout(Layout::NT), dtype: Dtype::Bf16, choice: KernelChoice::Auto, shows: ("reads tensor maps", |p| p.kernel().spec.tensor_maps.is_some()) },
        GraphCase { gemm: Gemm::new(64, 64, 8192).scalars(1.25, 0.5), dtype: Dtype::Bf16, choice: KernelChoice::Auto, shows: ("splits K", |p| p.splits() > 1) },
        GraphCase {
            gemm: Gemm::new(384, 256, 640).scalars(0.5, 0.0),
            dtype: Dtype::F32,
            choice: KernelChoice::Named("sgemm_15_tf32x3_128x128x32_s4_presplit".into()),
            shows: ("splits A ahead", |p| p.kernel().spec.split_ahead),
        },
    ]
}

/// A plan to capture: the product, its element type, its kernel choice, and what it is there to
/// show (a sentence and the test of the plan).
struct GraphCase {
    gemm: Gemm,
    dtype: Dtype,
    choice: KernelChoice,
    shows: (&'static str, fn(&Plan) -> bool),
}

/// Each plan of [`graph_cases`] on a stream of its own: capturing it before it has run on the
/// buffers is refused with an error and leaves the capture whole; after one run it is captured
/// (nothing runs while capturing: C stays poisoned), and the graph, replayed on fresh inputs
/// written into the same buffers with C poisoned again each time, gives the f64 reference's
/// result every time, also after the `Gpu` has grown its workspaces and replaced its tensor maps
/// (a larger plan, 64 other C buffers), which it must keep for the graph.
#[test]
#[ignore = "needs a GPU"]
fn plans_captured_into_cuda_graphs_replay_right() {
    // The shared GPU only keeps the GPU tests of this binary apart; this test opens a context
    // object of its own, whose event tracking it turns off.
    let _serial = common::gpu("plans_captured_into_cuda_graphs_replay_right");
    let base = Gpu::open().unwrap();
    let ctx = base.context().clone();
    let stream = ctx.new_stream().unwrap();
    // A capture cannot wait for the events cudarc records at each use of a buffer it tracks
    // (see rgemm::gpu): the buffers of this test are not tracked.
    // SAFETY: every buffer of this test is used on `stream` alone, in its order.
    unsafe { ctx.disable_event_tracking() };
    for (i, case) in graph_cases().into_iter().enumerate() {
        // A Gpu of its own for each plan: its first run there is its first run anywhere.
        let gpu = base.with_stream(stream.clone()).unwrap();
        match case.dtype {
            Dtype::F32 => capture_and_replay::<f32>(&gpu, case, i as u64),
            Dtype::Bf16 => capture_and_replay::<half::bf16>(&gpu, case, i as u64),
            Dtype::F16 => capture_and_replay::<half::f16>(&gpu, case, i as u64),
            Dtype::E4m3 => capture_and_replay::<rgemm::E4m3>(&gpu, case, i as u64),
        }
    }
}

fn capture_and_replay<T: Elem>(gpu: &Gpu, case: GraphCase, seed: u64) {
    let stream = gpu.stream();
    let plan = case.gemm.plan::<T>(gpu, case.choice).unwrap();
    let name = plan.name();
    let (what, shows) = case.shows;
    assert!(shows(&plan), "{name} is here because its plan {what}, and it does not");
    let dtype = case.dtype;
    let mut rng = StdRng::seed_from_u64(0x6a_0000 + seed);
    let p = *plan.problem();
    let mut inputs = fresh_inputs(&p, dtype, &mut rng);
    let mut buffers = upload::<T>(stream, &plan, &inputs);
    let capture = || stream.begin_capture(CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL).unwrap();
    let end = || stream.end_capture(CUgraphInstantiate_flags(0)).unwrap_or_else(|e| panic!("{name}: the capture failed: {e}"));

    // Before the first run: refused, nothing captured, the capture still whole.
    capture();
    let e = plan.run(gpu, &buffers.0, &buffers.1, &mut buffers.2).expect_err("a run that must copy or allocate while capturing");
    assert!(e.to_string().contains("being captured into a CUDA graph"), "{name}: {e}");
    drop(end());
    ctx_clean(gpu, &name);

    // The first run, outside any capture.
    plan.run(gpu, &buffers.0, &buffers.1, &mut buffers.2).unwrap();
    let stored = stream.clone_dtoh(&buffers.2).unwrap();
    check_c(&plan, &inputs, &stored, seed).unwrap_or_else(|why| panic!("first run: {why}"));

    // Captured: nothing runs, C stays as it was written (poisoned again).
    inputs = fresh_inputs(&p, dtype, &mut rng);
    overwrite(stream, &plan, &inputs, &mut buffers);
    capture();
    plan.run(gpu, &buffers.0, &buffers.1, &mut buffers.2).unwrap_or_else(|e| panic!("{name} while capturing: {e}"));
    let graph = end().expect("a graph");
    ctx_clean(gpu, &name);
    let untouched = stream.clone_dtoh(&buffers.2).unwrap();
    let expect = storage::pack(&p, Operand::C, &inputs.c, FILL);
    assert!(untouched.iter().zip(&expect).all(|(x, y)| x.to_bits() == y.to_bits()), "{name}: C changed while the plan was being captured");

    let mut bystanders = Vec::new();
    for replay in 0..4 {
        if replay == 2 {
            // The Gpu replaces what the graph reads: a larger workspace (a split of K with
            // more partials, staged copies), and its tensor maps (64 other sets of buffers).
            outgrow(gpu, &plan, &mut rng);
            bystanders = occupy(gpu);
        }
        graph.launch().unwrap_or_else(|e| panic!("{name}, replay {replay}: {e}"));
        let stored = stream.clone_dtoh(&buffers.2).unwrap_or_else(|e| panic!("{name}, replay {replay}: {e}"));
        check_c(&plan, &inputs, &stored, seed + replay).unwrap_or_else(|why| panic!("replay {replay}: {why}"));
        inputs = fresh_inputs(&p, dtype, &mut rng);
        overwrite(stream, &plan, &inputs, &mut buffers);
    }
    for (i, b) in bystanders.iter().enumerate() {
        let bytes = stream.clone_dtoh(b).unwrap();
        assert!(bytes.iter().all(|&x| x == BYSTANDER), "{name}: the graph's replays wrote into buffer {i} ({} bytes), allocated after its Gpu replaced what the graph reads", bytes.len());
    }
    ctx_clean(gpu, &name);
}

/// What the bystanders of [`occupy`] hold (all ones: NaN as f32, a NaN tensor map).
const BYSTANDER: u8 = 0xff;

/// Buffers filled with [`BYSTANDER`], allocated once the memory pool has given back all it can:
/// 4096 small ones (128 bytes to 2 KiB, the size of tensor maps) and 64 up to 8 MiB (the size
/// of workspaces), 200 MiB in all. Memory the `Gpu` had freed would be unmapped (a graph that
/// read it would fault) or handed to these (a graph would read them as its workspace or tensor
/// maps, and write into them).
fn occupy(gpu: &Gpu) -> Vec<CudaSlice<u8>> {
    settle(gpu);
    let stream = gpu.stream();
    let small = (0..4096).map(|i| 128 << (i % 5));
    let large = (0..64).map(|i| 4096 << (i % 12));
    small.chain(large).map(|bytes| stream.clone_htod(&vec![BYSTANDER; bytes]).unwrap()).collect()
}

/// Runs on `gpu` what makes it replace its workspaces and its tensor maps: a split-K plan and a
/// staged plan larger than any before, of the plan's element type, and `plan` on 64 other C
/// buffers; each checked.
fn outgrow(gpu: &Gpu, plan: &Plan, rng: &mut StdRng) {
    let dtype = plan.kernel().spec.dtype;
    let ld = LeadingDims { lda: Some(2047), ldb: None, ldc: None };
    for p in [
        Problem::general(96, 128, 16384, 1.0, 0.0, Layout::NN, LeadingDims::default(), Batch::packed(1)).unwrap(),
        Problem::general(1000, 520, 2047, 1.0, 0.0, Layout::NN, ld, Batch::packed(1)).unwrap(),
    ] {
        let bigger = common::auto_plan(gpu, &p, dtype);
        let inputs = fresh_inputs(&p, dtype, rng);
        let stored = run_dyn(gpu, &bigger, &inputs);
        check_c(&bigger, &inputs, &stored, 9).unwrap_or_else(|why| panic!("outgrowing: {why}"));
    }
    let p = plan.problem();
    let inputs = fresh_inputs(p, dtype, rng);
    let stream = gpu.stream();
    let (la, lb) = (storage::pack(p, Operand::A, &inputs.a, f32::NAN), storage::pack(p, Operand::B, &inputs.b, f32::NAN));
    let c_host = storage::pack(p, Operand::C, &inputs.c, FILL);
    let cs: Vec<CudaSlice<f32>> = (0..64).map(|_| stream.clone_htod(&c_host).unwrap()).collect();
    let mut last = Vec::new();
    match dtype {
        Dtype::F32 => many_c::<f32>(gpu, plan, &la, &lb, cs, &mut last),
        Dtype::Bf16 => many_c::<half::bf16>(gpu, plan, &la, &lb, cs, &mut last),
        Dtype::F16 => many_c::<half::f16>(gpu, plan, &la, &lb, cs, &mut last),
        Dtype::E4m3 => many_c::<rgemm::E4m3>(gpu, plan, &la, &lb, cs, &mut last),
    }
    check_c(plan, &inputs, &last, 10).unwrap_or_else(|why| panic!("on 64 other C buffers: {why}"));
}

/// `plan` on A and B (as stored) into each of `cs`: the last C read back into `last`.
fn many_c<T: Elem>(gpu: &Gpu, plan: &Plan, a: &[f32], b: &[f32], mut cs: Vec<CudaSlice<f32>>, last: &mut Vec<f32>) {
    let stream = gpu.stream();
    let a = stream.clone_htod(&a.iter().map(|&v| T::from_f32(v)).collect::<Vec<T>>()).unwrap();
    let b = stream.clone_htod(&b.iter().map(|&v| T::from_f32(v)).collect::<Vec<T>>()).unwrap();
    for c in cs.iter_mut() {
        plan.run(gpu, &a, &b, c).unwrap();
    }
    *last = stream.clone_dtoh(cs.last().unwrap()).unwrap();
}

/// No error left recorded in the context (cudarc records those of calls that cannot return
/// one, the waits and frees of its buffers among them).
fn ctx_clean(gpu: &Gpu, name: &str) {
    gpu.stream().synchronize().unwrap_or_else(|e| panic!("{name}: {e}"));
    gpu.context().check_err().unwrap_or_else(|e| panic!("{name}: an error was recorded: {e}"));
}


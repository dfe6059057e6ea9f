//! A two-layer MLP forward pass in bf16 with PyTorch-layout weights, through rgemm's library API,
//! checked against the same computation in f64 with ndarray.
//!
//! ```text
//! h = relu(x · W1ᵀ)      x: batch × d_model, W1: d_hidden × d_model (as nn.Linear stores it)
//! y = h · W2ᵀ            W2: d_model × d_hidden
//! ```
//!
//! Both products are `nt` GEMMs (B given as N×K), which rgemm's tensor-core kernel reads
//! natively. Run on a Hopper GPU:
//!
//! ```text
//! cargo run --release --example mlp [batch d_model d_hidden]
//! ```

use half::bf16;
use ndarray::{Array2, ArrayView2};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::{Gemm, KernelChoice};
use rgemm::{Gpu, Layout};

fn main() -> std::process::ExitCode {
    match run() {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

/// A `rows × cols` bf16 matrix of uniform values in [-scale, scale).
fn random(rng: &mut StdRng, rows: usize, cols: usize, scale: f32) -> Array2<bf16> {
    Array2::from_shape_fn((rows, cols), |_| bf16::from_f32(rng.random_range(-scale..scale)))
}

fn widen(a: ArrayView2<'_, bf16>) -> Array2<f64> {
    a.mapv(|v| v.to_f64())
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap_or(0)).collect();
    let (batch, d_model, d_hidden) = match args[..] {
        [b, m, h] if b > 0 && m > 0 && h > 0 => (b, m, h),
        [] => (16, 1024, 4096),
        _ => return Err("usage: mlp [batch d_model d_hidden] (positive whole numbers)".into()),
    };
    let gpu = Gpu::open()?;
    let stream = gpu.stream().clone();
    let mut rng = StdRng::seed_from_u64(42);
    let x = random(&mut rng, batch, d_model, 1.0);
    let w1 = random(&mut rng, d_hidden, d_model, 1.0 / (d_model as f32).sqrt());
    let w2 = random(&mut rng, d_model, d_hidden, 1.0 / (d_hidden as f32).sqrt());

    // Upload once; the weights stay N×K, as stored.
    let (dx, dw1, dw2) = (stream.clone_htod(x.as_slice().unwrap())?, stream.clone_htod(w1.as_slice().unwrap())?, stream.clone_htod(w2.as_slice().unwrap())?);
    let mut dh = stream.alloc_zeros::<f32>(batch * d_hidden)?;
    let mut dy = stream.alloc_zeros::<f32>(batch * d_model)?;
    let layer1 = Gemm::new(batch as u64, d_hidden as u64, d_model as u64).layout(Layout::NT).plan::<bf16>(&gpu, KernelChoice::Auto)?;
    let layer2 = Gemm::new(batch as u64, d_model as u64, d_hidden as u64).layout(Layout::NT).plan::<bf16>(&gpu, KernelChoice::Auto)?;
    println!("layer 1: {} on {}", layer1.kernel().name(), layer1.problem());
    println!("layer 2: {} on {}", layer2.kernel().name(), layer2.problem());

    layer1.run(&gpu, &dx, &dw1, &mut dh)?;
    // The activation on the host keeps the example about the GEMMs: relu, then back to bf16.
    let h: Vec<bf16> = stream.clone_dtoh(&dh)?.into_iter().map(|v| bf16::from_f32(v.max(0.0))).collect();
    let dh16 = stream.clone_htod(&h)?;
    layer2.run(&gpu, &dh16, &dw2, &mut dy)?;
    let y = Array2::from_shape_vec((batch, d_model), stream.clone_dtoh(&dy)?).expect("batch × d_model values");

    // The reference: the same rounded inputs and the same rounded activation, in f64.
    let h_ref = widen(x.view()).dot(&widen(w1.view()).t()).mapv(|v| bf16::from_f64(v.max(0.0)).to_f64());
    let y_ref = h_ref.dot(&widen(w2.view()).t());
    let diff = (&y.mapv(f64::from) - &y_ref).mapv(|v| v * v).sum().sqrt();
    let error = diff / y_ref.mapv(|v| v * v).sum().sqrt();
    // The products accumulate in f32 (relative error of order K·2⁻²⁴, far below what follows);
    // the activation is rounded to bf16 from a value that differs from the reference's by that
    // error, so an element of h can land one bf16 step (2⁻⁸ relative) away. If every element
    // did, y would be off by at most 2⁻⁸ relative: the bound.
    let tolerance = 2f64.powi(-8);
    println!("y: {batch}×{d_model}, relative Frobenius error against f64: {error:.2e} (tolerance {tolerance:.0e})");
    Ok(error <= tolerance)
}

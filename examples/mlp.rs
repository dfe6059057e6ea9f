//! A two-layer MLP forward pass in bf16 with PyTorch-layout weights, all on the GPU through
//! rgemm's library API, checked against the same computation in f64 with ndarray.
//!
//! ```text
//! h = relu(x · W1ᵀ + b1)   x: batch × d_model, W1: d_hidden × d_model (as nn.Linear stores it)
//! y = h · W2ᵀ + b2         W2: d_model × d_hidden; h and y in bf16
//! ```
//!
//! Both products are `nt` GEMMs (B given as N×K), which rgemm's tensor-core kernel reads
//! natively; the biases, the ReLU and the rounding to bf16 are fused into their epilogues, so
//! the hidden layer never leaves the GPU and is written once, in bf16. Run on a Hopper GPU:
//!
//! ```text
//! cargo run --release --example mlp [batch d_model d_hidden]
//! ```

use half::bf16;
use ndarray::{Array2, ArrayView2};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::api::{Gemm, KernelChoice};
use rgemm::{Activation, Bias, Gpu, Layout};

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
    let b1 = random(&mut rng, 1, d_hidden, 0.1);
    let b2 = random(&mut rng, 1, d_model, 0.1);

    // Upload once; the weights stay N×K, as stored.
    let up = |a: &Array2<bf16>| stream.clone_htod(a.as_slice().expect("standard layout"));
    let (dx, dw1, dw2, db1, db2) = (up(&x)?, up(&w1)?, up(&w2)?, up(&b1)?, up(&b2)?);
    let mut dh = stream.alloc_zeros::<bf16>(batch * d_hidden)?;
    let mut dy = stream.alloc_zeros::<bf16>(batch * d_model)?;
    // Each layer: bf16 out, its bias over the output features, layer 1's ReLU, in the epilogue.
    let linear = |n: usize, k: usize| Gemm::new(batch as u64, n as u64, k as u64).layout(Layout::NT).output::<bf16>().bias(Bias::PerColumn);
    let layer1 = linear(d_hidden, d_model).activation(Activation::Relu).plan::<bf16>(&gpu, KernelChoice::Auto)?;
    let layer2 = linear(d_model, d_hidden).plan::<bf16>(&gpu, KernelChoice::Auto)?;
    println!("layer 1: {} on {}", layer1.name(), layer1.problem());
    println!("layer 2: {} on {}", layer2.name(), layer2.problem());

    layer1.run_with_epilogue(&gpu, &dx, &dw1, &mut dh, Some(&db1), None)?;
    layer2.run_with_epilogue(&gpu, &dh, &dw2, &mut dy, Some(&db2), None)?;
    let y = Array2::from_shape_vec((batch, d_model), stream.clone_dtoh(&dy)?).expect("batch × d_model values").mapv(|v| v.to_f64());

    // The reference: the same rounded inputs, h rounded to bf16 as the GPU stores it, in f64.
    let h_ref = (widen(x.view()).dot(&widen(w1.view()).t()) + widen(b1.view())).mapv(|v| bf16::from_f64(v.max(0.0)).to_f64());
    let y_ref = h_ref.dot(&widen(w2.view()).t()) + widen(b2.view());
    let diff = (&y - &y_ref).mapv(|v| v * v).sum().sqrt();
    let error = diff / y_ref.mapv(|v| v * v).sum().sqrt();
    // The products accumulate in f32 (relative error of order K·2⁻²⁴, far below what follows);
    // h is rounded to bf16 from a value that differs from the reference's by that error, so an
    // element of h can land one bf16 step (2⁻⁸ relative) away, and y is rounded to bf16 (2⁻⁹ at
    // most). If every element did both, y would be off by at most 2⁻⁸ + 2⁻⁹ relative: the bound.
    let tolerance = 2f64.powi(-8) + 2f64.powi(-9);
    println!("y: {batch}×{d_model}, relative Frobenius error against f64: {error:.2e} (tolerance {tolerance:.0e})");
    Ok(error <= tolerance)
}

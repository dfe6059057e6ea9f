//! The host side of one launch, step by step: rung 1 on a 1000×700×500 problem through cudarc's
//! launch builder (what `Gpu::launch` does for every kernel of the catalog), then checked against
//! a loop on the CPU. The book's "Your first launch" chapter walks through it.
//!
//! Needs a Hopper GPU: `cargo run --release --example first_kernel`. Without one it says so and
//! exits with status 2.

use std::process::ExitCode;

use cudarc::driver::{LaunchConfig, PushKernelArg};
use rgemm::{Gpu, Problem, catalog};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // ANCHOR: open
    // The driver (loaded at run time), a context on GPU 0, the PTX module embedded in the library
    // (JIT-compiled by the driver for this GPU), a stream, and cuBLAS.
    let gpu = Gpu::open()?;
    // ANCHOR_END: open

    // ANCHOR: problem
    let kernel = catalog::find("sgemm_01_naive_32x32x1")?;
    let problem = Problem::new(1000, 700, 500, 1.0, 0.0)?;
    let (m, n, k) = (problem.m as usize, problem.n as usize, problem.k as usize);
    // Small integers: every product and sum is exact in f32, so the check below can be exact.
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    // ANCHOR_END: problem

    // ANCHOR: upload
    let a_dev = gpu.upload(&a)?;
    let b_dev = gpu.upload(&b)?;
    // C is poisoned with NaN: an element the kernel forgets stays NaN and fails the check.
    let c_dev = gpu.upload(&vec![f32::NAN; m * n])?;
    // ANCHOR_END: upload

    // ANCHOR: launch
    // Grid, block and shared memory from the kernel's spec: ⌈N/32⌉ × ⌈M/32⌉ blocks of 1024 threads.
    let geometry = kernel.geometry(&problem)?;
    let f = gpu.entry(kernel.name(), geometry.smem_bytes)?;
    let cfg = LaunchConfig { grid_dim: geometry.grid, block_dim: geometry.block, shared_mem_bytes: geometry.smem_bytes };
    // The kernel's twenty parameters, in the order `entries!` declares them: three device
    // addresses, the sizes, the scalars, the tensor-map pointer (null: rung 1 does not use the
    // copy engine), the leading dimensions (row-major, tight: K, N, N), the batch (one product;
    // its strides are never used), the workspace (null: only stream-K kernels use one) and the
    // fused epilogue (none).
    // cudarc does not count them: the driver reads as many as the entry declares, so a missing
    // one would be read from past the end of the list.
    let (a_addr, b_addr, c_addr) = (a_dev.addr(&gpu), b_dev.addr(&gpu), c_dev.addr(&gpu));
    let (no_maps, no_workspace) = (0u64, 0u64);
    let mut args = gpu.stream().launch_builder(&f);
    args.arg(&a_addr).arg(&b_addr).arg(&c_addr);
    args.arg(&problem.m).arg(&problem.n).arg(&problem.k).arg(&problem.alpha).arg(&problem.beta);
    args.arg(&no_maps);
    args.arg(&problem.lda).arg(&problem.ldb).arg(&problem.ldc).arg(&problem.batch);
    args.arg(&problem.stride_a).arg(&problem.stride_b).arg(&problem.stride_c);
    args.arg(&no_workspace);
    // The fused epilogue: 0 is f32 C with nothing fused, so no bias and no auxiliary output.
    let (no_epilogue, no_bias, no_aux) = (0u32, 0u64, 0u64);
    args.arg(&no_epilogue).arg(&no_bias).arg(&no_aux);
    // SAFETY: the addresses hold M×K, K×N and M×N floats; the twenty arguments match the
    // entry's parameters in number, type and order (`entries!` in kernels-gpu/src/entry.rs;
    // `launch_product` in src/gpu.rs passes the same list); and the configuration is the one the
    // catalog computed for this kernel.
    unsafe { args.launch(cfg) }?;
    // ANCHOR_END: launch

    // ANCHOR: check
    // The copy back waits for the launch (same stream), then every element is compared.
    let c = gpu.download(&c_dev)?;
    for row in 0..m {
        for col in 0..n {
            let want: f32 = (0..k).map(|i| a[row * k + i] * b[i * n + col]).sum();
            if c[row * n + col] != want {
                return Err(format!("C({row}, {col}) = {}, expected {want}", c[row * n + col]).into());
            }
        }
    }
    println!("{}: {m}×{n}×{k} on {} blocks of {} threads, every element exact", kernel.name(), geometry.grid.0 * geometry.grid.1, geometry.block.0);
    // ANCHOR_END: check
    Ok(())
}

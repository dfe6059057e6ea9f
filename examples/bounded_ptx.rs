//! Prints the PTX module exactly as it is loaded: rustc's output with the launch bounds
//! (`.maxntid`, `.minnctapersm`) added from the catalog. `scripts/ptxas-report.sh` feeds it to
//! ptxas to list registers, stack and spills per kernel.

fn main() {
    print!("{}", rgemm::ptx::with_launch_bounds(rgemm::ptx::PTX));
}

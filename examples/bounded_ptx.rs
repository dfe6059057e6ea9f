//! Prints the PTX module exactly as it is loaded: rustc's output with the launch bounds
//! (`.maxntid`, `.minnctapersm`) added from the catalog, for reading it or assembling it by hand
//! (`ptxas -arch=sm_90a`, then `cuobjdump -sass` or `nvdisasm` on the result).

fn main() {
    print!("{}", rgemm::ptx::with_launch_bounds(rgemm::ptx::PTX));
}

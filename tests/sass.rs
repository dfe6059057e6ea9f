//! The SASS the hardware runs: the listing parser on a fixed text, then the real hottest loops of
//! the fastest SIMT rungs, which must stay almost all `FFMA` (ptxas and cuobjdump, no GPU).

use rgemm::{ptx, sass};

const LISTING: &str = "
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
        /*0010*/                   MOV R2, RZ ;                           /* 0x000fe20000000800 */
        /*0020*/                   FFMA R4, R8, R12, R4 ;                 /* 0x0000000000587919 */
        /*0030*/                   LDS.128 R8, [R3] ;                     /* 0x0000000000587919 */
        /*0040*/                   FFMA R5, R9, R12, R5 ;                 /* 0x0000000000587919 */
        /*0050*/               @P0 BRA 0x20 ;                             /* 0x0000000000480947 */
        /*0060*/                   IADD3 R2, R2, 0x1, RZ ;                /* 0x0000000000480947 */
        /*0070*/              @!P1 BRA 0x10 ;                             /* 0x0000000000480947 */
        /*0080*/                   EXIT ;                                 /* 0x0000000000480947 */
";

#[test]
fn the_parser_reads_opcodes_predicates_and_branches() {
    let all = sass::instructions(LISTING);
    assert_eq!(all.len(), 9);
    assert_eq!((all[3].address, all[3].opcode.as_str()), (0x30, "LDS"));
    assert_eq!((all[5].opcode.as_str(), all[5].branch_to), ("BRA", Some(0x20)));
    assert_eq!((all[7].opcode.as_str(), all[7].branch_to), ("BRA", Some(0x10)));
}

#[test]
fn the_hottest_loop_is_the_inner_one() {
    // Both loops hold the two FFMAs; the inner one (0x20..0x50) is shorter.
    let l = sass::hottest_loop(LISTING).unwrap();
    assert_eq!((l.first, l.last, l.instructions), (0x20, 0x50, 4));
    assert_eq!((l.count("FFMA"), l.count("LDS"), l.count("BRA")), (2, 1, 1));
    assert!((l.share("FFMA") - 0.5).abs() < 1e-12);
    assert!(sass::hottest_loop("        /*0000*/  EXIT ;").is_none());
}

/// Rung 9's interior loop and rung 11's K-loop are FFMA but for the shared-memory reads and a few
/// integer steps: a change that brings address arithmetic or bounds checks back into them shows
/// here before it shows on a GPU.
#[test]
fn the_fastest_simt_rungs_keep_their_inner_loops_ffma() {
    // Requirements of the tests (README): missing, this fails rather than skips.
    let ptxas = ptx::find_ptxas().expect("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let cuobjdump = sass::find_cuobjdump(&ptxas).expect("cuobjdump not found: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, or set RGEMM_CUOBJDUMP");
    for (kernel, at_least) in [("sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior", 0.85), ("sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa", 0.90)] {
        let listing = sass::disassemble(&ptxas, &cuobjdump, kernel).unwrap_or_else(|e| panic!("{e}"));
        let l = sass::hottest_loop(&listing).unwrap_or_else(|| panic!("{kernel}: no loop with FFMA"));
        // A thread tile of 8×8: 64 FFMA per k, the loop unrolled over whole k-steps.
        assert!(l.count("FFMA") % 64 == 0 && l.count("FFMA") >= 64, "{kernel}: {l:?}");
        assert!(l.share("FFMA") >= at_least, "{kernel}: FFMA {:.1}% of its hottest loop, expected at least {:.0}%: {l:?}", 100.0 * l.share("FFMA"), 100.0 * at_least);
    }
}

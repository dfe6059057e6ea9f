//! The SASS the hardware runs: the listing parser and the wgmma fragment check on fixed texts, then
//! the real hottest loops of the fastest SIMT rungs, which must stay almost all `FFMA`, and of the
//! kernels that feed wgmma register fragments, which must not overwrite one in flight (ptxas and
//! cuobjdump, no GPU).

use rgemm::{catalog, ptx};
use rgemm_tools::sass;

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
    assert_eq!((all[3].mnemonic.as_str(), all[3].operands.as_slice()), ("LDS.128", &["R8".to_string(), "[R3]".to_string()][..]));
    assert_eq!(all[7].text, "@!P1 BRA 0x10");
    // Destinations: .128 four registers, a plain one one, a predicate or a branch none.
    let written: Vec<_> = all.iter().map(|i| i.written_registers()).collect();
    assert_eq!(written[..8], [1..2, 2..3, 4..5, 8..12, 5..6, 0..0, 2..3, 0..0]);
    let one = |text: &str| sass::instructions(&format!("/*0000*/ {text} ;")).remove(0);
    assert_eq!(one("LDG.E.64 R6, desc[UR4][R2.64]").written_registers(), 6..8);
    assert_eq!(one("IMAD.WIDE.U32 R2, R3, 0x4, R4").written_registers(), 2..4);
    assert_eq!(one("LDSM.16.M88.4 R12, [R3]").written_registers(), 12..16);
    assert_eq!(one("SHFL.BFLY PT, R5, R4, 0x1, 0x1f").written_registers(), 5..6);
    assert_eq!(one("LOP3.LUT P0, R7, R2, 0x3, RZ, 0xc0, !PT").written_registers(), 7..8);
    assert_eq!(one("ISETP.GE.AND P0, PT, R2, R3, PT").written_registers(), 0..0);
    assert_eq!(one("CS2R R4, SRZ").written_registers(), 4..6);
    assert_eq!(one("CS2R.32 R4, SR_CLOCKLO").written_registers(), 4..5);
    for none in ["STS.128 [R2+0x4000], R8", "ISETP.NE.AND P0, PT, R4, R5, PT", "R2UR UR11, R3", "MOV RZ, R3", "HGMMA.64x128x8.F32.TF32 R24, R100, gdesc[UR8], R24"] {
        assert_eq!(one(none).written_registers(), 0..0, "{none}");
    }
    assert_eq!(one("HGMMA.64x128x8.F32.TF32 R24, R100, gdesc[UR8], R24, gsb0").wgmma_register_a(), Some(100..104));
    assert_eq!(one("HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24").wgmma_register_a(), None);
}

/// A loop of register-fragment wgmma, as ptxas lays it out: the wait for the previous iteration's
/// group near the top, then the fragments' HGMMA. `early` comes before the wait (so after every
/// HGMMA of the previous iteration), `between` after the first HGMMA, `late` after both.
fn fragment_loop(early: &str, between: &str, late: &str) -> String {
    format!(
        "
        /*0000*/                   MOV R1, RZ ;
        /*0010*/                   {early} ;
        /*0020*/                   LDS.128 R8, [R2] ;
        /*0030*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;
        /*0040*/                   LDS.128 R12, [R2+0x10] ;
        /*0050*/                   WARPGROUP.ARRIVE ;
        /*0060*/                   HGMMA.64x128x8.F32.TF32 R24, R100, gdesc[UR8], R24 ;
        /*0070*/                   {between} ;
        /*0080*/                   HGMMA.64x128x8.F32.TF32 R24, R12, gdesc[UR8], R24, gsb0 ;
        /*0090*/                   {late} ;
        /*00a0*/                   STS [R100], R101 ;
        /*00b0*/                   ISETP.NE.AND P0, PT, R4, R5, PT ;
        /*00c0*/               @P0 BRA 0x10 ;
        /*00d0*/                   EXIT ;
"
    )
}

#[test]
fn a_write_to_a_fragment_before_the_wait_is_reported() {
    // The next iteration's loads into the registers the HGMMA at 0x60 (R100..R103) and 0x80
    // (R12..R15) read: at the loop's top, before the wait; right after the HGMMA; as one 128-bit
    // load. R12..R15 written at 0x40 and 0x70 (after the wait, before the HGMMA that reads them)
    // and the 128-bit load into R8..R11 are not hazards, nor the store of R100 and R101.
    let hazards = sass::wgmma_fragment_hazards(&fragment_loop("LDS R101, [R104+0x8000]", "FADD R103, R4, R5", "LDS.128 R12, [R2+0x20]"));
    assert_eq!(
        hazards,
        [
            "HGMMA at 0x0060 reads R100..R103 until the wait; 0x0070 `FADD R103, R4, R5` writes R103 before it",
            "HGMMA at 0x0060 reads R100..R103 until the wait; 0x0010 `LDS R101, [R104+0x8000]` writes R101 before it",
            "HGMMA at 0x0080 reads R12..R15 until the wait; 0x0090 `LDS.128 R12, [R2+0x20]` writes R12..R15 before it",
        ]
    );
    // The same writes into registers no fragment uses, or placed after the wait: nothing.
    assert_eq!(sass::wgmma_fragment_hazards(&fragment_loop("LDS R104, [R104+0x8000]", "FADD R99, R4, R5", "LDS.128 R16, [R2+0x20]")), Vec::<String>::new());
    let after_the_wait = fragment_loop("MOV R1, RZ", "MOV R1, RZ", "MOV R1, RZ").replace("LDS.128 R12, [R2+0x10]", "LDS R101, [R104+0x8000]");
    assert_eq!(sass::wgmma_fragment_hazards(&after_the_wait), Vec::<String>::new());
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

/// `ptxas` and `cuobjdump`. Requirements of the tests (README): missing, this fails rather than
/// skips.
fn tools() -> (std::path::PathBuf, std::path::PathBuf) {
    let ptxas = rgemm_tools::ptxas::find_ptxas().expect("ptxas not found: pip install nvidia-cuda-nvcc, or set RGEMM_PTXAS");
    let cuobjdump = sass::find_cuobjdump(&ptxas).expect("cuobjdump not found: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, or set RGEMM_CUOBJDUMP");
    (ptxas, cuobjdump)
}

/// Rung 9's interior loop and rung 11's K-loop are FFMA but for the shared-memory reads and a few
/// integer steps: a change that brings address arithmetic or bounds checks back into them shows
/// here before it shows on a GPU.
#[test]
fn the_fastest_simt_rungs_keep_their_inner_loops_ffma() {
    let (ptxas, cuobjdump) = tools();
    for (kernel, at_least) in [("sgemm_09_warptile_128x128x8_w64x32_t8x8_s2_interior", 0.85), ("sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa", 0.90), ("sgemm_11_tma_128x128x32_w64x32_t8x8_s4_wa_df", 0.90)] {
        let listing = sass::disassemble(&ptxas, &cuobjdump, kernel).unwrap_or_else(|e| panic!("{e}"));
        let l = sass::hottest_loop(&listing).unwrap_or_else(|| panic!("{kernel}: no loop with FFMA"));
        // A thread tile of 8×8: 64 FFMA per k, the loop unrolled over whole k-steps.
        assert!(l.count("FFMA") % 64 == 0 && l.count("FFMA") >= 64, "{kernel}: {l:?}");
        assert!(l.share("FFMA") >= at_least, "{kernel}: FFMA {:.1}% of its hottest loop, expected at least {:.0}%: {l:?}", 100.0 * l.share("FFMA"), 100.0 * at_least);
    }
}

/// The kernels whose PTX issues wgmma with A in registers (rung 15's, at least): in their hottest
/// loop nothing may write a fragment register between an HGMMA and the wait that covers it. The
/// CPU emulator reads a fragment when the wgmma is issued and cannot see this; on the GPU it turns
/// the product into garbage.
#[test]
fn register_fragment_wgmma_kernels_do_not_overwrite_fragments_in_flight() {
    let (ptxas, cuobjdump) = tools();
    // In PTX, `wgmma.mma_async... {d...}, {a0, a1, a2, a3}, desc_b, ...`: a second brace list.
    let register_a = |entry: &str| entry.split("wgmma.mma_async").skip(1).any(|w| w.split(';').next().and_then(|w| w.split_once('}')).is_some_and(|(_, rest)| rest.trim_start().trim_start_matches(',').trim_start().starts_with('{')));
    let kernels: Vec<&str> = ptx::PTX.split(".visible .entry ").skip(1).filter(|entry| register_a(entry)).filter_map(|entry| entry.split('(').next()).map(str::trim).collect();
    let rung_15: Vec<&str> = catalog::all().map(|k| k.name()).filter(|n| n.starts_with("sgemm_15_")).collect();
    assert!(!rung_15.is_empty() && rung_15.iter().all(|n| kernels.contains(n)), "rung 15 {rung_15:?} not all among the register-fragment kernels {kernels:?}");
    let mut failures = Vec::new();
    for kernel in kernels {
        let listing = sass::disassemble(&ptxas, &cuobjdump, kernel).unwrap_or_else(|e| panic!("{e}"));
        let l = sass::hottest_loop(&listing).unwrap_or_else(|| panic!("{kernel}: no loop with HGMMA"));
        let fragments = sass::instructions(&listing).iter().filter(|i| (l.first..=l.last).contains(&i.address) && i.wgmma_register_a().is_some()).count();
        assert!(fragments > 0, "{kernel}: no HGMMA with a register A in its hottest loop: {l:?}");
        let hazards = sass::wgmma_fragment_hazards(&listing);
        if !hazards.is_empty() {
            failures.push(format!("{kernel}: {} writes to wgmma fragments in flight, the first:\n  {}", hazards.len(), hazards[..hazards.len().min(8)].join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_splitter_and_the_barrier_check_read_a_listing() {
    let listing = "
\t\tFunction : k_one
        /*0000*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0010*/              @!P0 BAR.SYNC.DEFER_BLOCKING R3, 0x80 ;
\t\tFunction : k_two
        /*0000*/               @P1 BRA 0x40 ;
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING R5, 0x80 ;
";
    let f = sass::functions(listing);
    assert_eq!(f.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["k_one", "k_two"]);
    assert_eq!(sass::predicated_barriers(&f[0].1), ["@!P0 BAR.SYNC.DEFER_BLOCKING R3, 0x80"]);
    assert!(sass::predicated_barriers(&f[1].1).is_empty());
}

/// Every barrier of every kernel from rung 11 on (where the warp and named barriers are) is met
/// by all the threads that reach it: none sits under a predicate. An `asm!` barrier after
/// an `if` was once copied into the branch by LLVM, and every launch hung.
#[test]
fn no_kernel_has_a_barrier_under_a_predicate() {
    let (ptxas, cuobjdump) = tools();
    let kernels: Vec<&str> = catalog::all().filter(|k| k.spec.rung.number >= 11).map(|k| k.name()).collect();
    let listing = sass::disassemble_all(&ptxas, &cuobjdump, &kernels).unwrap_or_else(|e| panic!("{e}"));
    let functions = sass::functions(&listing);
    assert_eq!(functions.len(), kernels.len(), "one function per kernel in the listing");
    let bad: Vec<String> = functions
        .iter()
        .filter_map(|(name, body)| {
            let b = sass::predicated_barriers(body);
            (!b.is_empty()).then(|| format!("{name}: {}", b.join("; ")))
        })
        .collect();
    assert!(bad.is_empty(), "barriers under a predicate:\n{}", bad.join("\n"));
}

//! Properties over random instructions: encode → decode gives the same
//! model; print → assemble gives the same words.

mod common;

use gpuasm_mali::program::{decode, Instruction, UNIT_WIDTHS};
use gpuasm_mali::{assemble, disassemble, DisOptions};
use proptest::prelude::*;

fn instruction() -> impl Strategy<Value = Instruction> {
    (any::<[u128; 12]>(), any::<u16>(), any::<bool>(), any::<bool>(), 0u32..64, any::<bool>(), 0u32..64).prop_map(
        |(raw, present, stop, sync, next, prefetch, unknown)| {
            let mut fields = [None; 12];
            for i in 0..12 {
                if present & (1 << i) != 0 {
                    fields[i] = Some(raw[i] & ((1u128 << UNIT_WIDTHS[i]) - 1));
                }
            }
            Instruction { stop, sync, next_count: next, prefetch, ctrl_unknown: unknown, fields }
        },
    )
}

/// Fields that Mesa-like programs use, so the normal spellings get tested,
/// not only `raw`: real instructions from the corpus, mutated a little.
fn corpus_words() -> Vec<Vec<u32>> {
    common::mesa_programs().iter().map(|p| common::read_words(p)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn encode_decode_is_identity(inst in instruction()) {
        let mut words = Vec::new();
        inst.encode(&mut words);
        let (back, len) = decode(&words).unwrap();
        prop_assert_eq!(len, words.len());
        prop_assert_eq!(back, inst);
    }

    #[test]
    fn print_then_assemble_gives_the_same_words(insts in proptest::collection::vec(instruction(), 1..4)) {
        let mut words = Vec::new();
        for i in &insts {
            i.encode(&mut words);
        }
        let text = disassemble(&words, &DisOptions::default());
        let back = assemble(&text).map_err(|d| TestCaseError::fail(format!("{d}\n{text}")))?;
        prop_assert_eq!(back, words, "{}", text);
    }

    #[test]
    fn mutated_real_programs_round_trip(prog in 0usize..138, at in any::<prop::sample::Index>(), bit in 0u32..32) {
        let progs = corpus_words();
        let mut words = progs[prog % progs.len()].clone();
        let i = at.index(words.len());
        words[i] ^= 1 << bit;
        let text = disassemble(&words, &DisOptions::default());
        let back = assemble(&text).map_err(|d| TestCaseError::fail(format!("{d}\n{text}")))?;
        prop_assert_eq!(back, words, "{}", text);
    }
}

/// An instruction with no unit and no `stop` (one control word) prints as a
/// line of its own, not as an empty line the assembler would skip (found by
/// the `mali_as` and `mali_dis` fuzz targets).
#[test]
fn an_empty_instruction_keeps_its_line() {
    use gpuasm_mali::{assemble, disassemble, DisOptions};
    let words = assemble("noprefetch\n").unwrap();
    assert_eq!(words, [1]);
    let text = disassemble(&words, &DisOptions::default());
    assert_eq!(text.trim_end(), "noprefetch");
    assert_eq!(assemble(&text).unwrap(), words);
    // After a complete instruction, too.
    let two = assemble("add.s1 $0.x $0.x ^const0.x, const0 1 0 0 0\nnoprefetch\n").unwrap();
    assert_eq!(assemble(&disassemble(&two, &DisOptions::default())).unwrap(), two);
}

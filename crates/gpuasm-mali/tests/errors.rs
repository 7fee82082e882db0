//! Assembler diagnostics for each error class of the issue, with positions.

use gpuasm_mali::assemble;

fn first_error(text: &str) -> (u32, u32, String) {
    let d = assemble(text).unwrap_err();
    let e = d.errors().next().unwrap();
    (e.line, e.column, e.message.clone())
}

#[test]
fn pipeline_register_not_in_that_unit() {
    // ^v0 can only be read by the vec4 adder's first operand.
    let (l, c, m) = first_error("mul.v0 $0 ^v0 $1\n");
    assert_eq!((l, c), (1, 11), "{m}");
    assert!(m.contains("'^v0'"), "{m}");
    let (_, _, m) = first_error("mov.s1 $0.x ^v0\n");
    assert!(m.contains("^v0"), "{m}");
}

#[test]
fn scalar_register_where_a_vector_is_needed_and_masks_where_none_exist() {
    let (_, c, m) = first_error("mov.v0 ^s0 $1\n");
    assert_eq!(c, 8, "{m}");
    let (_, c, m) = first_error("mul.s0 $0.xy $1.x $2.x\n");
    assert!(m.contains("'$0.xy'"), "{m}");
    assert_eq!(c, 8);
}

#[test]
fn constants_that_lose_precision_or_overflow() {
    let (_, c, m) = first_error("mov.v0 $0 ^const0, const0 0.1000001 0 0 0\n");
    assert!(m.contains("nearest value is 0.1"), "{m}");
    assert_eq!(c, 27);
    let (_, _, m) = first_error("mov.v0 $0 ^const0, const0 70000\n");
    assert!(m.contains("does not fit in binary16"), "{m}");
    // The canonical spelling of a rounded value is accepted.
    assert!(assemble("stop, mov.v0 $0 ^const0, const0 0.1 65504 -0 1e-3").is_err());
    assert!(assemble("stop, mov.v0 $0 ^const0, const0 0.1 65504 -0 0.001").is_ok());
}

#[test]
fn branch_to_a_missing_label_and_unit_order() {
    let (l, c, m) = first_error("stop\nbranch_eq $0.x ^const0.x nowhere, const0 0\n");
    assert_eq!((l, c), (2, 26));
    assert!(m.contains("no label 'nowhere'"), "{m}");
    let (_, c, m) = first_error("mov.v1 $0 $1, mov.v0 $0 $1\n");
    assert!(m.contains("after 'mov.v1 $0 $1'"), "{m}");
    assert_eq!(c, 15);
}

#[test]
fn several_errors_in_one_run() {
    let d = assemble("mov.v0 $0 $99\nbogus.v0 $0 $1\nstop, discard\n").unwrap_err();
    assert_eq!(d.errors().count(), 2, "{d}");
}

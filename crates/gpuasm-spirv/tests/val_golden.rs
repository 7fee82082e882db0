//! Golden test of the validator: its verdict on every module of the in-repo
//! corpora against spirv-val 2025.5's stored verdict, one trial per case
//! (`<corpus>/<case>`).
//!
//! * `spv/MANIFEST.tsv`: the shared corpus (plain run and `env_flags` run);
//! * `glslang/VAL.tsv`, `asm/VAL.tsv`: `scripts/gen-val-verdicts` output;
//! * `invalid/MANIFEST.tsv`: the shared negative corpus (mutated modules);
//! * `mutants/VAL.tsv`: our mutants of the valid corpora
//!   (`scripts/gen-val-mutants`), with spirv-val's verdicts.
//!
//! A valid module we reject fails the test outright. Modules spirv-val
//! rejects and we accept are rules not implemented yet; they are listed in
//! `val-known-gaps.txt` and must match it exactly, so a new gap fails and a
//! closed gap asks for the list to shrink (`GPUASM_BLESS_GAPS=1` rewrites it).
//! Where both reject a module, our first message must be spirv-val's, or
//! the case listed in `val-known-messages.txt`, kept exact the same way.

mod common;

use common::{corpus, ensure, plain, read_tar_xz, rows, KnownList, Trial};
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::validate::{validate, ValOptions};
use gpuasm_spirv::TargetEnv;
use std::collections::BTreeSet;

struct Case {
    /// The corpus it comes from, for the trial's name.
    source: &'static str,
    /// Its name in `val-known-gaps.txt`.
    name: String,
    bytes: Vec<u8>,
    env: Option<TargetEnv>,
    valid: bool,
    /// spirv-val's message.
    message: String,
}

impl Case {
    fn plain(source: &'static str, row: &std::collections::HashMap<String, String>, bytes: Vec<u8>) -> Case {
        let (valid, message) = (row["verdict"] == "valid", row["message"].clone());
        Case { source, name: row["file"].clone(), bytes, env: None, valid, message }
    }
}

/// Our verdict: `Ok` if we accept the module, else our first message.
fn ours(case: &Case) -> Result<(), String> {
    let Ok((words, _)) = words_from_bytes(&case.bytes) else { return Err(String::new()) };
    let mut options = ValOptions::default();
    if let Some(env) = case.env {
        options.target_env = env;
    }
    validate(&words, &options).map_err(|errors| errors[0].message.clone())
}

/// Whether our first message is the one spirv-val printed first. The
/// recordings hold its output with whitespace runs made one space (some cut
/// to 300 characters), after an `error: line N:` prefix and before the
/// instruction it quotes.
fn same_first_message(recorded: &str, ours: &str) -> bool {
    let recorded = recorded
        .strip_prefix("error: line ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(recorded, |(_, message)| message);
    let ours = ours.split_whitespace().collect::<Vec<_>>().join(" ");
    let recorded = recorded.trim_end();
    if ours.len() >= recorded.len() {
        return ours.starts_with(recorded) && (ours.len() == recorded.len() || recorded.len() >= 250);
    }
    recorded.starts_with(&ours) && recorded.as_bytes()[ours.len()] == b' '
}

fn env_of(flags: &str) -> Option<TargetEnv> {
    let name = flags.strip_prefix("--target-env ")?;
    Some(TargetEnv::parse(name.trim()).unwrap_or_else(|| panic!("unknown env {flags}")))
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for row in rows("spv/MANIFEST.tsv") {
        let bytes = std::fs::read(corpus("spv").join(&row["file"])).unwrap();
        out.push(Case {
            source: "spv",
            name: row["file"].clone(),
            bytes: bytes.clone(),
            env: None,
            valid: row["verdict"] == "valid",
            message: row["message"].clone(),
        });
        if let Some(env) = env_of(&row["env_flags"]) {
            let name = format!("{} {}", row["file"], row["env_flags"]);
            let (valid, message) = (row["env_verdict"] == "valid", row["env_message"].clone());
            out.push(Case { source: "spv", name, bytes, env: Some(env), valid, message });
        }
    }
    for row in rows("glslang/VAL.tsv") {
        let bytes = std::fs::read(corpus("glslang").join(&row["file"])).unwrap();
        out.push(Case::plain("glslang", &row, bytes));
    }
    for row in rows("asm/VAL.tsv") {
        let bytes = std::fs::read(corpus("asm/asm").join(&row["file"])).unwrap();
        out.push(Case::plain("asm", &row, bytes));
    }
    let mutants = read_tar_xz("mutants/mutants.tar.xz");
    for row in rows("mutants/VAL.tsv") {
        let bytes = mutants[&row["file"]].clone();
        out.push(Case::plain("mutants", &row, bytes));
    }
    // Independent sets: `gen-val-mutants --seed 123` over spv/,
    // `--seed 4242` over glslang/ and spv/, `--seed 9001 --kinds
    // operands` (opcodes, enumerants, literals, operands swapped,
    // instructions repeated or dropped) over glslang/ and spv/, and
    // `--seed 101 --kinds operands` over spirv-val's own valid cases, and
    // `--seed 12 --kinds insert --twice` over them (an instruction added,
    // then a second fault), each validated for its case's target
    // environment (column `env`); `--seed 11 --kinds cfg --twice` over them
    // and `--seed 1 --kinds cfg` over the optimizer's modules (branch,
    // merge and continue targets changed, merges dropped, blocks moved);
    // `--kinds extinst --twice` over them, seeds 54 and 59 (an extended
    // instruction's number, operands or set changed, then a second fault);
    // `--kinds interface` over them, seed 1 and seed 3 `--twice` (ids taken
    // from, added to or repeated in an entry point's interface, its
    // function replaced, Locations clashing, Components added); `--seed 2
    // --kinds types` over spirv-val's valid cases and `--seed 1` over the
    // optimizer's modules (struct members, array lengths, vector counts,
    // widths, image operands, Offsets and strides changed); `--seed 2
    // --kinds access` over spirv-val's valid cases (access chain indexes
    // and bases, loaded and stored pointers, stored objects changed).
    let sets = [
        ("mutants-123", "123"),
        ("mutants-4242", "4242"),
        ("mutants-9001", "9001"),
        ("mutants-valsuite-101", "valsuite101"),
        ("mutants-valsuite-insert-12", "valsuite-insert12"),
        ("mutants-valsuite-cfg-11", "valsuite-cfg11"),
        ("mutants-optsuite-cfg-1", "optsuite-cfg1"),
        ("mutants-optsuite-extinst-54", "optsuite-extinst54"),
        ("mutants-optsuite-extinst-59", "optsuite-extinst59"),
        ("mutants-optsuite-interface-1", "optsuite-interface1"),
        ("mutants-optsuite-interface-53", "optsuite-interface53"),
        ("mutants-valsuite-types-2", "valsuite-types2"),
        ("mutants-optsuite-types-1", "optsuite-types1"),
        ("mutants-valsuite-access-2", "valsuite-access2"),
    ];
    for (source, seed) in sets {
        let mutants = read_tar_xz(&format!("{source}/mutants.tar.xz"));
        for row in rows(&format!("{source}/VAL.tsv")) {
            let bytes = mutants[&row["file"]].clone();
            let mut case = Case::plain(source, &row, bytes);
            case.name = format!("seed{seed}/{}", case.name);
            if let Some(env) = row.get("env").filter(|e| !e.is_empty()) {
                case.env = Some(TargetEnv::parse(env).unwrap_or_else(|| panic!("unknown env {env}")));
            }
            out.push(case);
        }
    }
    for row in rows("invalid/MANIFEST.tsv") {
        let bytes = std::fs::read(corpus("invalid").join(&row["file"])).unwrap();
        out.push(Case::plain("invalid", &row, bytes));
    }
    out
}

const GAPS_HEADER: &str = "# Modules spirv-val rejects and gpuasm val accepts: rules not implemented yet.\n\
# Kept exact by tests/val_golden.rs (GPUASM_BLESS_GAPS=1 rewrites it). Columns: case, spirv-val message.\n";

/// `GPUASM_BLESS_GAPS=1`: rewrites `val-known-gaps.txt` from every case's
/// verdict before the trials compare against it.
fn bless_gaps(cases: &[Case]) {
    let mut listing = String::from(GAPS_HEADER);
    let mut messages = String::from(MESSAGES_HEADER);
    for case in cases {
        let message: String = case.message.chars().take(200).collect();
        match (case.valid, ours(case)) {
            (false, Ok(())) => listing += &format!("{}\t{message}\n", case.name),
            (false, Err(first)) if !same_first_message(&case.message, &first) => {
                messages += &format!("{}\t{message}\n", case.name)
            }
            _ => {}
        }
    }
    std::fs::write(corpus("val-known-gaps.txt"), listing).unwrap();
    std::fs::write(corpus("val-known-messages.txt"), messages).unwrap();
}

const MESSAGES_HEADER: &str = "# Modules both reject where gpuasm val's first message is not spirv-val's.\n\
# Kept exact by tests/val_golden.rs (GPUASM_BLESS_GAPS=1 rewrites it). Columns: case, spirv-val's output.\n";

/// One trial per case: a valid module must be accepted; an invalid one
/// accepted must be listed as a known gap, and a listed one still accepted.
fn verdict_trials(out: &mut Vec<Trial>) {
    let cases = cases();
    if std::env::var_os("GPUASM_BLESS_GAPS").is_some() {
        bless_gaps(&cases);
    }
    let known = std::sync::Arc::new(KnownList::read(corpus("val-known-gaps.txt"), Some("false-accept")));
    let messages = std::sync::Arc::new(KnownList::read(corpus("val-known-messages.txt"), Some("message")));
    let n = cases.len();
    out.push(Trial::test("corpus: more than 10000 cases", move || {
        ensure(n > 10_000, || format!("corpus went missing: {n} cases"))
    }));
    let names: BTreeSet<String> = cases.iter().map(|c| c.name.clone()).collect();
    for case in cases {
        let (known, messages) = (std::sync::Arc::clone(&known), std::sync::Arc::clone(&messages));
        out.push(Trial::test(format!("{}/{}", case.source, case.name), move || {
            let verdict = ours(&case);
            ensure(!case.valid || verdict.is_ok(), || format!("{}: valid module rejected", case.name))?;
            known.check(&case.name, (!case.valid && verdict.is_ok()).then_some("false-accept"))?;
            let other = match (&verdict, case.valid) {
                (Err(first), false) => !same_first_message(&case.message, first),
                _ => false,
            };
            messages.check(&case.name, other.then_some("message")).map_err(|e| {
                let first = verdict.as_ref().err().map_or("", String::as_str);
                let e = e.message().unwrap_or_default().to_string();
                format!("{e}\n  spirv-val: {}\n  gpuasm:    {first}", case.message).into()
            })
        }));
    }
    out.push(known.no_strangers("val-known-gaps.txt names only cases of the corpora", names.clone()));
    out.push(messages.no_strangers("val-known-messages.txt names only cases of the corpora", names));
}

fn errors_carry_the_instruction() {
    // A loaded type that is not the pointee: the error names the load.
    // (Linkage: no entry point needed; the load is the only error.)
    let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%f = OpTypeFloat 32\n%i = OpTypeInt 32 1\n\
                %p = OpTypePointer Private %f\n%v = OpVariable %p Private\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %main = OpFunction %void None %fn\n%l = OpLabel\n%x = OpLoad %i %v\nOpReturn\nOpFunctionEnd\n";
    let words = gpuasm_spirv::text::assemble(text, &Default::default()).unwrap();
    let errors = validate(&words, &ValOptions::default()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].message.starts_with("OpLoad Result Type <id> '2[%int]' does not match Pointer <id> '4[%4]'s type"),
        "{}",
        errors[0].message
    );
    assert_eq!(errors[0].instruction.as_deref().map(str::trim), Some("%9 = OpLoad %int %4"));
}

fn huge_element_counts_are_errors_not_allocations() {
    // Found by the spirv_val fuzz target: element counts come from the
    // module and must never size an allocation.
    let errors_of = |text: &str| {
        let words = gpuasm_spirv::text::assemble(text, &Default::default()).unwrap();
        validate(&words, &ValOptions::default()).unwrap_err()
    };
    let errors = errors_of(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%u = OpTypeInt 32 0\n\
         %v = OpTypeVector %u 4000000000\n%c = OpConstant %u 1\n%cv = OpConstantComposite %v %c %c\n",
    );
    assert!(errors.iter().any(|e| e.message.contains("Illegal number of components (4000000000)")), "{errors:?}");
    let errors = errors_of(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%u = OpTypeInt 32 0\n\
         %n = OpConstant %u 4294967295\n%a = OpTypeArray %u %n\n\
         %c = OpConstant %u 1\n%ca = OpConstantComposite %a %c %c\n",
    );
    assert!(errors.iter().any(|e| e.message.contains("Constituent count does not match")), "{errors:?}");
}

/// A compute shader's declarations, for the hand-written cases.
const HEADER: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
    OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
    %t = OpConstantTrue %bool\n%int = OpTypeInt 32 1\n%i1 = OpConstant %int 1\n%main = OpFunction %void None %fn\n%a = OpLabel\n";

fn hand_written_rules_agree_with_spirv_val() {
    // (case, spirv-val 2025.5's verdict, function body after HEADER).
    let cases: &[(&str, bool, &str)] = &[
        ("OpPhi in the entry block", false, "%p = OpPhi %int %i1 %a\nOpReturn\nOpFunctionEnd\n"),
        (
            "OpPhi after another instruction",
            false,
            "OpBranch %b\n%b = OpLabel\n%x = OpIAdd %int %i1 %i1\n%p = OpPhi %int %i1 %a\nOpReturn\nOpFunctionEnd\n",
        ),
        (
            "a valid phi",
            true,
            "OpBranch %b\n%b = OpLabel\n%p = OpPhi %int %i1 %a\n%x = OpIAdd %int %p %i1\nOpReturn\nOpFunctionEnd\n",
        ),
        (
            "a definition that does not dominate its use",
            false,
            "OpSelectionMerge %m None\nOpBranchConditional %t %b %c\n%b = OpLabel\n%x = OpIAdd %int %i1 %i1\n\
             OpBranch %m\n%c = OpLabel\n%y = OpIAdd %int %x %i1\nOpBranch %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n",
        ),
    ];
    for (name, valid, body) in cases {
        let words = gpuasm_spirv::text::assemble(&format!("{HEADER}{body}"), &Default::default()).unwrap();
        let ours = validate(&words, &ValOptions::default());
        assert_eq!(ours.is_ok(), *valid, "{name}: {ours:?}");
    }
    // No entry point and no Linkage capability.
    let words = gpuasm_spirv::text::assemble(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n",
        &Default::default(),
    )
    .unwrap();
    let errors = validate(&words, &ValOptions::default()).unwrap_err();
    assert!(errors[0].message.starts_with("No OpEntryPoint instruction was found."), "{errors:?}");
}

/// Hand-written assembly for single rules (`tests/corpus/val-hand`), each
/// with spirv-val's verdict and first message (`scripts/gen-val-hand`):
/// ours must agree on the verdict and, where we check the rule, say the same.
/// One trial per case, `val-hand/FILE`.
fn hand_written_case_trials(out: &mut Vec<Trial>) {
    let dir = common::corpus("val-hand");
    let manifest = std::fs::read_to_string(dir.join("VAL.tsv")).unwrap();
    let n = manifest.lines().skip(1).count();
    out.push(Trial::test("val-hand: at least 18 cases", move || ensure(n >= 18, || "cases went missing".to_string())));
    for row in manifest.lines().skip(1) {
        let cols: Vec<String> = row.split('\t').map(str::to_string).collect();
        let dir = dir.clone();
        out.push(Trial::test(format!("val-hand/{}", cols[0]), move || hand_written_case(&dir, &cols)));
    }
}

fn hand_written_case(dir: &std::path::Path, cols: &[String]) -> Result<(), common::Failed> {
    let (file, flags, verdict, message) = (&cols[0], &cols[1], cols[2].as_str(), cols[3].as_str());
    let mut options = ValOptions::default();
    let mut it = flags.split_whitespace();
    while let Some(flag) = it.next() {
        let switch = match flag {
            "--relax-logical-pointer" => Some(&mut options.relax_logical_pointer),
            "--relax-struct-store" => Some(&mut options.relax_struct_store),
            "--allow-localsizeid" => Some(&mut options.allow_localsizeid),
            "--allow-offset-texture-operand" => Some(&mut options.allow_offset_texture_operand),
            "--allow-vulkan-32-bit-bitwise" => Some(&mut options.allow_vulkan_32_bit_bitwise),
            "--before-hlsl-legalization" => Some(&mut options.before_hlsl_legalization),
            _ => None,
        };
        if let Some(switch) = switch {
            *switch = true;
            continue;
        }
        let value = it.next().unwrap();
        let limit = value.parse::<u32>();
        let l = &mut options.limits;
        match flag {
            "--target-env" => options.target_env = TargetEnv::parse(value).unwrap(),
            "--max-struct-members" => l.max_struct_members = limit.unwrap(),
            "--max-local-variables" => l.max_local_variables = limit.unwrap(),
            "--max-global-variables" => l.max_global_variables = limit.unwrap(),
            "--max-function-args" => l.max_function_args = limit.unwrap(),
            "--max-control-flow-nesting-depth" => l.max_control_flow_nesting_depth = limit.unwrap(),
            "--max-access-chain-indexes" => l.max_access_chain_indexes = limit.unwrap(),
            "--max-id-bound" => l.max_id_bound = limit.unwrap(),
            other => panic!("{file}: flag {other} not handled"),
        }
    }
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    // As scripts/gen-val-hand runs spirv-as: the target's version if one
    // is given, else the text's `; Version:` comment, else 1.6.
    let env = flags.contains("--target-env").then_some(options.target_env);
    let asm = gpuasm_spirv::text::AsmOptions::default().target_env(env);
    let words = gpuasm_spirv::text::assemble(&text, &asm).unwrap();
    match (validate(&words, &options), verdict) {
        (Ok(()), "valid") => Ok(()),
        // VAL.tsv keeps the first line of spirv-val's message.
        (Err(e), "invalid") if e[0].message.lines().next() == Some(message) => Ok(()),
        (got, _) => Err(format!("{file}: spirv-val: {verdict} {message}\n  ours: {got:?}").into()),
    }
}

/// `--max-struct-depth` (spirv-val 2025.5 does not recognise the option,
/// so this is checked against the rule of spec 2.17 and spirv-val's message).
fn struct_nesting_depth_limit() {
    let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%int = OpTypeInt 32 1\n\
                %s1 = OpTypeStruct %int\n%s2 = OpTypeStruct %s1\n%s3 = OpTypeStruct %int %s2\n";
    let words = gpuasm_spirv::text::assemble(text, &Default::default()).unwrap();
    assert!(validate(&words, &ValOptions::default()).is_ok());
    let mut options = ValOptions::default();
    options.limits.max_struct_depth = 3;
    assert!(validate(&words, &options).is_ok());
    options.limits.max_struct_depth = 2;
    let errors = validate(&words, &options).unwrap_err();
    assert_eq!(errors[0].message, "Structure Nesting Depth may not be larger than 2. Found 3.");
}

/// Inputs the `spirv_val` fuzz target once crashed on: each must be
/// validated, in every configuration the target uses, without a panic.
fn fuzz_regressions_do_not_panic() {
    let tight = gpuasm_spirv::validate::Limits::default()
        .max_struct_members(2)
        .max_struct_depth(1)
        .max_local_variables(1)
        .max_global_variables(1)
        .max_switch_branches(1)
        .max_function_args(1)
        .max_control_flow_nesting_depth(1)
        .max_access_chain_indexes(1)
        .max_id_bound(64);
    // Every spirv-val option that lifts a rule.
    let relaxed = ValOptions::default()
        .target_env(TargetEnv::Vulkan(2))
        .max_errors(8)
        .relax_struct_store(true)
        .allow_localsizeid(true)
        .allow_offset_texture_operand(true)
        .allow_vulkan_32_bit_bitwise(true)
        .before_hlsl_legalization(true);
    let mut n = 0;
    for entry in std::fs::read_dir(corpus("fuzz-regressions")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let Ok((words, _)) = words_from_bytes(&bytes) else { continue };
        for (target_env, limits) in [
            (TargetEnv::Universal(6), Default::default()),
            (TargetEnv::Vulkan(0), Default::default()),
            (TargetEnv::Universal(5), tight),
        ] {
            let _ = validate(&words, &ValOptions::default().target_env(target_env).max_errors(8).limits(limits));
        }
        let _ = validate(&words, &relaxed);
        n += 1;
    }
    assert!(n >= 1);
}

fn main() {
    let mut all = Vec::new();
    verdict_trials(&mut all);
    hand_written_case_trials(&mut all);
    all.push(plain("errors_carry_the_instruction", errors_carry_the_instruction));
    all.push(plain("huge_element_counts_are_errors_not_allocations", huge_element_counts_are_errors_not_allocations));
    all.push(plain("hand_written_rules_agree_with_spirv_val", hand_written_rules_agree_with_spirv_val));
    all.push(plain("struct_nesting_depth_limit", struct_nesting_depth_limit));
    all.push(plain("fuzz_regressions_do_not_panic", fuzz_regressions_do_not_panic));
    common::run(all)
}

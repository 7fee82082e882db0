//! `gpuasm val`'s spirv-val options: each is accepted and turns a rejected
//! module (a hand case of the validator's corpus) into a valid one.

use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::TargetEnv;
use std::path::PathBuf;
use std::process::Command;

/// (hand case, target environment, the option that makes it valid)
const CASES: &[(&str, &str, &str)] = &[
    ("opt-struct-store-relaxed.spvasm", "spv1.6", "--relax-struct-store"),
    ("opt-localsizeid-vk11-allowed.spvasm", "vulkan1.1", "--allow-localsizeid"),
    ("opt-offset-sample-vk12-allowed.spvasm", "vulkan1.2", "--allow-offset-texture-operand"),
    ("opt-bitwise-64-vk12-allowed.spvasm", "vulkan1.2", "--allow-vulkan-32-bit-bitwise"),
    ("opt-hlsl-unbound-resource-unused.spvasm", "vulkan1.2", "--before-hlsl-legalization"),
    ("opt-hlsl-pointer-variable-hlsl.spvasm", "spv1.6", "--before-hlsl-legalization"),
];

#[test]
fn each_option_is_accepted_and_changes_the_verdict() {
    let hand = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus/val-hand");
    let dir = tempfile::tempdir().unwrap();
    for &(case, env, flag) in CASES {
        let text = std::fs::read_to_string(hand.join(case)).unwrap();
        let options = AsmOptions { target_env: TargetEnv::parse(env), ..Default::default() };
        let words = assemble(&text, &options).unwrap();
        let file = dir.path().join(case.replace(".spvasm", ".spv"));
        std::fs::write(&file, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
        let val = |extra: &[&str]| {
            Command::new(env!("CARGO_BIN_EXE_gpuasm"))
                .args(["val", "--target-env", env])
                .args(extra)
                .arg(&file)
                .output()
                .unwrap()
        };
        let without = val(&[]);
        assert_eq!(without.status.code(), Some(1), "{case} without {flag}: {without:?}");
        let with = val(&[flag]);
        assert!(with.status.success(), "{case} with {flag}: {}", String::from_utf8_lossy(&with.stderr));
        assert!(with.stdout.is_empty() && with.stderr.is_empty(), "{case}: valid is silent");
    }
}

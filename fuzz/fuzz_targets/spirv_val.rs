//! Bytes → words → validate, in two target environments. Must never panic
//! or hang; every error must point inside the module.
#![no_main]
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::validate::{validate, ValidatorOptions};
use gpuasm_spirv::TargetEnv;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((words, _)) = words_from_bytes(data) else { return };
    for target_env in [TargetEnv::Universal(6), TargetEnv::Vulkan(0)] {
        if let Err(errors) = validate(&words, &ValidatorOptions { target_env, max_errors: 8 }) {
            assert!(!errors.is_empty() && errors.len() <= 8);
            for e in errors {
                assert!(e.word_offset <= words.len());
            }
        }
    }
});

//! Golden tests over SPIRV-Tools' own test modules, with the outputs
//! spirv-as, spirv-dis and spirv-val 2025.5 recorded for them (vendored by
//! `scripts/vendor-shared-suites`):
//!
//! * `optsuite/`: every complete module of SPIRV-Tools' opt, link, reduce,
//!   fuzz and diff tests: assembled byte for byte, disassembled exactly
//!   (default and `--raw-id`), round-tripped, and validated (spv1.6 and
//!   vulkan1.2);
//! * `valsuite/`: the modules SPIRV-Tools' validator tests validate, each
//!   under its own environment: same verdict, and on a rejection a first
//!   message containing spirv-val's words;
//! * `framable/`: modules the reader frames though they break a rule
//!   (odd OpPhi pairs): disassembled as spirv-dis prints them.
//!
//! A valid module rejected fails outright. Every other disagreement of the
//! validator (an invalid module accepted, a different first message) is
//! listed in `<suite>/KNOWN.tsv`, which must match exactly: a new one fails,
//! and one that went away asks for the list to shrink (`GPUASM_BLESS_GAPS=1`
//! rewrites the lists).

mod common;

use common::{asm_options, corpus, read_tar_xz};
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble, Options};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::validate::{validate, ValidationError, ValidatorOptions};
use gpuasm_spirv::TargetEnv;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Rows of a TSV with a header: column values by header name.
fn rows(rel: &str) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(corpus(rel)).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines.map(|l| header.iter().zip(l.split('\t')).map(|(h, v)| (h.to_string(), v.to_string())).collect()).collect()
}

/// spirv-val's first line without its `error: line N: ` prefix.
fn spirv_val_words(message: &str) -> &str {
    let m = message.trim();
    match m.strip_prefix("error: line ").and_then(|r| r.split_once(": ")) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.trim(),
        _ => m,
    }
}

/// How our verdict on one case differs from spirv-val's, if it does.
fn disagreement(bytes: &[u8], env: TargetEnv, valid: bool, message: &str) -> Option<&'static str> {
    disagreement_with(bytes, ValidatorOptions { target_env: env, ..Default::default() }, valid, message)
}

fn disagreement_with(bytes: &[u8], options: ValidatorOptions, valid: bool, message: &str) -> Option<&'static str> {
    let ours: Result<(), Vec<ValidationError>> = match words_from_bytes(bytes) {
        Ok((words, _)) => validate(&words, &options),
        Err(_) => Err(Vec::new()),
    };
    match (valid, ours) {
        (true, Ok(())) => None,
        (true, Err(_)) => Some("false-reject"),
        (false, Ok(())) => Some("false-accept"),
        (false, Err(errors)) => {
            let first = errors.first().map_or("", |e| e.message.as_str());
            (!first.contains(spirv_val_words(message))).then_some("message")
        }
    }
}

/// Checks the disagreements against `<suite>/KNOWN.tsv` (case, kind,
/// spirv-val's message).
fn check_known(suite: &str, found: BTreeMap<String, (&'static str, String)>) {
    let rejects: Vec<_> = found.iter().filter(|(_, (k, _))| *k == "false-reject").map(|(c, _)| c).collect();
    let path = corpus(&format!("{suite}/KNOWN.tsv"));
    if std::env::var_os("GPUASM_BLESS_GAPS").is_some() {
        let mut out =
            String::from("# Disagreements with spirv-val 2025.5 (tests/suites_golden.rs). case\tkind\tspirv-val\n");
        for (case, (kind, message)) in &found {
            let m: String = spirv_val_words(message).chars().take(160).collect();
            out += &format!("{case}\t{kind}\t{m}\n");
        }
        std::fs::write(&path, out).unwrap();
    }
    assert!(rejects.is_empty(), "{suite}: valid modules rejected: {rejects:#?}");
    let known: BTreeSet<(String, String)> = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap().to_string(), f.next().unwrap_or("").to_string())
        })
        .collect();
    let now: BTreeSet<(String, String)> = found.iter().map(|(c, (k, _))| (c.clone(), k.to_string())).collect();
    let new: Vec<_> = now.difference(&known).collect();
    let gone: Vec<_> = known.difference(&now).collect();
    eprintln!("{suite}: {} disagreements with spirv-val", now.len());
    assert!(new.is_empty() && gone.is_empty(), "{suite}: new disagreements {new:#?}; gone (shrink the list) {gone:#?}");
}

#[test]
fn valsuite_verdicts_and_messages() {
    let cases = read_tar_xz("valsuite/cases.tar.xz");
    let manifest = rows("valsuite/MANIFEST.tsv");
    assert!(manifest.len() >= 9000, "valsuite went missing");
    let mut found = BTreeMap::new();
    let (mut agree, mut messages, mut both_reject) = (0, 0, 0);
    for row in &manifest {
        let env = TargetEnv::parse(&row["env"]).unwrap_or_else(|| panic!("env {}", row["env"]));
        let valid = row["verdict"] == "valid";
        let bytes = &cases[&row["file"]];
        match disagreement(bytes, env, valid, &row["message"]) {
            None => {
                agree += 1;
                if !valid {
                    both_reject += 1;
                    messages += 1;
                }
            }
            Some(kind) => {
                if kind == "message" {
                    agree += 1;
                    both_reject += 1;
                }
                found.insert(row["file"].clone(), (kind, row["message"].clone()));
            }
        }
    }
    eprintln!("valsuite: agree {agree}/{}, first message {messages}/{both_reject}", manifest.len());
    // The cases whose tests set validator options, with those options
    // (`scripts/gen-valsuite-opts`).
    let mut runs = 0;
    for row in rows("valsuite/OPTS.tsv") {
        runs += 1;
        let mut options =
            ValidatorOptions { target_env: TargetEnv::parse(&row["env"]).unwrap(), ..ValidatorOptions::default() };
        let mut flags = row["flags"].split_whitespace();
        while let Some(flag) = flags.next() {
            let mut limit = || flags.next().unwrap().parse::<u32>().unwrap();
            match flag {
                "--relax-block-layout" => options.block_layout.relax = true,
                "--scalar-block-layout" => options.block_layout.scalar = true,
                "--uniform-buffer-standard-layout" => options.block_layout.uniform_buffer_standard = true,
                "--workgroup-scalar-block-layout" => options.block_layout.workgroup_scalar = true,
                "--skip-block-layout" => options.block_layout.skip = true,
                "--relax-struct-store" => options.relax_struct_store = true,
                "--allow-offset-texture-operand" => options.allow_offset_texture_operand = true,
                "--before-hlsl-legalization" => options.before_hlsl_legalization = true,
                "--allow-localsizeid" => options.allow_localsizeid = true,
                "--allow-vulkan-32-bit-bitwise" => options.allow_vulkan_32_bit_bitwise = true,
                "--max-struct-members" => options.limits.max_struct_members = limit(),
                "--max-local-variables" => options.limits.max_local_variables = limit(),
                "--max-global-variables" => options.limits.max_global_variables = limit(),
                "--max-function-args" => options.limits.max_function_args = limit(),
                "--max-control-flow-nesting-depth" => options.limits.max_control_flow_nesting_depth = limit(),
                "--max-access-chain-indexes" => options.limits.max_access_chain_indexes = limit(),
                "--max-id-bound" => options.limits.max_id_bound = limit(),
                other => panic!("unknown flag {other}"),
            }
        }
        let bytes = &cases[&row["file"]];
        if let Some(kind) = disagreement_with(bytes, options, row["verdict"] == "valid", &row["message"]) {
            found.insert(format!("{} {}", row["file"], row["flags"]), (kind, row["message"].clone()));
        }
    }
    assert!(runs >= 60, "OPTS.tsv went missing");
    check_known("valsuite", found);
}

#[test]
fn optsuite_as_dis_round_trip_and_val() {
    let files = read_tar_xz("optsuite/cases.tar.xz");
    let rows = rows("optsuite/MANIFEST.tsv");
    assert!(rows.len() >= 1400, "optsuite went missing");
    let mut failures = Vec::new();
    let mut found = BTreeMap::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["kind"] == "asm") {
        let stem = row["file"].trim_end_matches(".spvasm");
        let text = String::from_utf8_lossy(&files[&row["file"]]).into_owned();
        for (variant, flags, env_spv) in [
            ("", "--target-env spv1.6", "spv"),
            ("pnid.", "--target-env spv1.6 --preserve-numeric-ids", "pnid.spv"),
            ("", "--target-env vulkan1.2", "vk12.spv"),
        ] {
            let Some(want) = files.get(&format!("{stem}.{env_spv}")) else { continue };
            checked += 1;
            // Assembler: spirv-as's bytes, generator word aside.
            match assemble(&text, &asm_options(flags, AsmOptions::default())) {
                Ok(words) => {
                    let got: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    if got.len() != want.len() || got[..8] != want[..8] || got[12..] != want[12..] {
                        failures.push(format!("{stem}.{env_spv}: as differs"));
                    }
                }
                Err(e) => failures.push(format!("{stem}.{env_spv}: as rejects: {e}")),
            }
            if env_spv == "vk12.spv" {
                continue;
            }
            // Disassembler, default and --raw-id.
            let (words, _) = words_from_bytes(want).unwrap();
            for (suffix, friendly) in [("dis", true), ("raw.dis", false)] {
                let Some(listing) = files.get(&format!("{stem}.{variant}{suffix}")) else { continue };
                let options = Options { friendly_names: friendly, color: false, ..Options::default() };
                match disassemble(&words, &options) {
                    Ok(t) if t.as_bytes() == &listing[..] => {}
                    Ok(_) => failures.push(format!("{stem}.{variant}{suffix}: dis differs")),
                    Err(e) => failures.push(format!("{stem}.{variant}{suffix}: dis fails: {e}")),
                }
                // --raw-id → as --preserve-numeric-ids gives the binary back.
                if !friendly {
                    let minor = ((words[1] >> 8) & 0xff) as u8;
                    let options = AsmOptions {
                        target_env: Some(TargetEnv::Universal(minor)),
                        preserve_numeric_ids: true,
                        generator: words[2],
                        ..AsmOptions::default()
                    };
                    let back = assemble(&String::from_utf8_lossy(listing), &options);
                    if back.as_ref().map(|b| b[4..] != words[4..] || b[..3] != words[..3]).unwrap_or(true) {
                        failures.push(format!("{stem}.{variant}: raw round trip differs"));
                    }
                }
            }
        }
        // Validator.
        for (column, env_spv, env) in
            [("val_spv16", "spv", TargetEnv::Universal(6)), ("val_vk12", "vk12.spv", TargetEnv::Vulkan(2))]
        {
            let verdict = &row[column];
            let Some(bytes) = files.get(&format!("{stem}.{env_spv}")) else { continue };
            if verdict != "valid" && verdict != "invalid" {
                continue;
            }
            if let Some(kind) = disagreement(bytes, env, verdict == "valid", &row[&format!("{column}_msg")]) {
                found.insert(format!("{stem}.{env_spv}"), (kind, row[&format!("{column}_msg")].clone()));
            }
        }
    }
    assert!(checked > 2000, "only {checked} binaries checked");
    assert!(failures.is_empty(), "{} failures: {failures:#?}", failures.len());
    check_known("optsuite", found);
}

#[test]
fn framable_modules_print_as_spirv_dis_prints_them() {
    let dir = corpus("framable");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "spv") {
            continue;
        }
        seen += 1;
        let (words, _) = words_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
        for (suffix, friendly) in [("dis", true), ("raw.dis", false)] {
            let want = std::fs::read_to_string(path.with_extension(suffix)).unwrap();
            let got = disassemble(&words, &Options { friendly_names: friendly, color: false, ..Options::default() });
            assert_eq!(got.unwrap(), want, "{} {suffix}", path.display());
        }
    }
    assert!(seen > 0);
}

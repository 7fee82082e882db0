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
//!
//! One trial per case: `valsuite/FILE` (and `valsuite/FILE FLAGS` for the
//! runs with validator options), `optsuite/NAME` (every check of one text),
//! `framable/FILE`.

mod common;

use common::{asm_options, corpus, ensure, read_tar_xz, rows, Failed, KnownList, Trial};
use gpuasm_spirv::binary::words_from_bytes;
use gpuasm_spirv::dis::{disassemble, DisOptions};
use gpuasm_spirv::text::{assemble, AsmOptions};
use gpuasm_spirv::validate::{validate, ValOptions, ValidationError};
use gpuasm_spirv::TargetEnv;
use std::collections::BTreeMap;
use std::sync::Arc;

/// spirv-val's first line without its `error: line N: ` prefix.
fn spirv_val_words(message: &str) -> &str {
    let m = message.trim();
    match m.strip_prefix("error: line ").and_then(|r| r.split_once(": ")) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.trim(),
        _ => m,
    }
}

/// One validator run with spirv-val's recorded verdict; `key` is its name
/// in `<suite>/KNOWN.tsv`.
struct ValCase {
    key: String,
    files: Arc<BTreeMap<String, Vec<u8>>>,
    file: String,
    options: ValOptions,
    valid: bool,
    message: String,
}

impl ValCase {
    /// How our verdict differs from spirv-val's, if it does.
    fn disagreement(&self) -> Option<&'static str> {
        // A file that does not frame as words is rejected with no message.
        let ours: Result<(), Vec<ValidationError>> = match words_from_bytes(&self.files[&self.file]) {
            Ok((words, _)) => validate(&words, &self.options).map_err(|e| e.into_vec()),
            Err(_) => Err(Vec::new()),
        };
        match (self.valid, ours) {
            (true, Ok(())) => None,
            (true, Err(_)) => Some("false-reject"),
            (false, Ok(())) => Some("false-accept"),
            (false, Err(errors)) => {
                let first = errors.first().map_or("", |e| e.message.as_str());
                (!first.contains(spirv_val_words(&self.message))).then_some("message")
            }
        }
    }

    /// A valid module rejected fails outright; any other disagreement must
    /// be the one listed.
    fn check(&self, known: &KnownList) -> Result<(), Failed> {
        let kind = self.disagreement();
        ensure(kind != Some("false-reject"), || format!("{}: valid module rejected", self.key))?;
        known.check(&self.key, kind)
    }
}

/// `GPUASM_BLESS_GAPS=1`: rewrites `<suite>/KNOWN.tsv` from every case
/// before the trials compare against it.
fn bless(suite: &str, cases: &[&ValCase]) {
    let mut out =
        String::from("# Disagreements with spirv-val 2025.5 (tests/suites_golden.rs). case\tkind\tspirv-val\n");
    let found: BTreeMap<&str, (&str, &str)> =
        cases.iter().filter_map(|c| Some((c.key.as_str(), (c.disagreement()?, c.message.as_str())))).collect();
    for (case, (kind, message)) in found {
        let m: String = spirv_val_words(message).chars().take(160).collect();
        out += &format!("{case}\t{kind}\t{m}\n");
    }
    std::fs::write(corpus(&format!("{suite}/KNOWN.tsv")), out).unwrap();
}

fn known(suite: &str, cases: &[&ValCase]) -> Arc<KnownList> {
    if std::env::var_os("GPUASM_BLESS_GAPS").is_some() {
        bless(suite, cases);
    }
    Arc::new(KnownList::read(corpus(&format!("{suite}/KNOWN.tsv")), None))
}

fn env(name: &str) -> ValOptions {
    let target_env = TargetEnv::parse(name).unwrap_or_else(|| panic!("env {name}"));
    ValOptions::default().target_env(target_env)
}

/// The validator options of a row of `valsuite/OPTS.tsv` (spirv-val's flags).
fn options_from_flags(env_name: &str, flags: &str) -> ValOptions {
    let mut options = env(env_name);
    let mut flags = flags.split_whitespace();
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
    options
}

fn valsuite_trials(out: &mut Vec<Trial>) {
    let files = Arc::new(read_tar_xz("valsuite/cases.tar.xz"));
    let mut cases = Vec::new();
    let manifest = rows("valsuite/MANIFEST.tsv");
    let n = manifest.len();
    out.push(Trial::test("valsuite: at least 9000 cases", move || {
        ensure(n >= 9000, || "valsuite went missing".to_string())
    }));
    for row in manifest {
        cases.push(ValCase {
            key: row["file"].clone(),
            files: Arc::clone(&files),
            file: row["file"].clone(),
            options: env(&row["env"]),
            valid: row["verdict"] == "valid",
            message: row["message"].clone(),
        });
    }
    // The cases whose tests set validator options, with those options
    // (`scripts/gen-valsuite-opts`).
    let opts = rows("valsuite/OPTS.tsv");
    let runs = opts.len();
    out.push(Trial::test("valsuite: at least 60 runs with options", move || {
        ensure(runs >= 60, || "OPTS.tsv went missing".to_string())
    }));
    for row in opts {
        cases.push(ValCase {
            key: format!("{} {}", row["file"], row["flags"]),
            files: Arc::clone(&files),
            file: row["file"].clone(),
            options: options_from_flags(&row["env"], &row["flags"]),
            valid: row["verdict"] == "valid",
            message: row["message"].clone(),
        });
    }
    let known = known("valsuite", &cases.iter().collect::<Vec<_>>());
    out.push(
        known.no_strangers("valsuite: KNOWN.tsv names only its cases", cases.iter().map(|c| c.key.clone()).collect()),
    );
    for case in cases {
        let known = Arc::clone(&known);
        out.push(Trial::test(format!("valsuite/{}", case.key), move || case.check(&known)));
    }
}

/// The assembler, disassembler and round-trip checks of one optsuite text.
fn optsuite_text(files: &BTreeMap<String, Vec<u8>>, file: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let stem = file.trim_end_matches(".spvasm");
    let text = String::from_utf8_lossy(&files[file]).into_owned();
    for (variant, flags, env_spv) in [
        ("", "--target-env spv1.6", "spv"),
        ("pnid.", "--target-env spv1.6 --preserve-numeric-ids", "pnid.spv"),
        ("", "--target-env vulkan1.2", "vk12.spv"),
    ] {
        let Some(want) = files.get(&format!("{stem}.{env_spv}")) else { continue };
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
            let options = DisOptions::default().friendly_names(friendly).color(false);
            match disassemble(&words, &options) {
                Ok(t) if t.as_bytes() == &listing[..] => {}
                Ok(t) => failures.push(format!(
                    "{stem}.{variant}{suffix}: dis differs from spirv-dis at {}",
                    common::first_difference(listing, t.as_bytes())
                )),
                Err(e) => failures.push(format!("{stem}.{variant}{suffix}: dis fails: {e}")),
            }
            // --raw-id → as --preserve-numeric-ids gives the binary back.
            if !friendly {
                let minor = ((words[1] >> 8) & 0xff) as u8;
                let options = AsmOptions::default()
                    .target_env(Some(TargetEnv::Universal(minor)))
                    .preserve_numeric_ids(true)
                    .generator(words[2]);
                let back = assemble(&String::from_utf8_lossy(listing), &options);
                if back.as_ref().map(|b| b[4..] != words[4..] || b[..3] != words[..3]).unwrap_or(true) {
                    failures.push(format!("{stem}.{variant}: raw round trip differs"));
                }
            }
        }
    }
    failures
}

fn optsuite_trials(out: &mut Vec<Trial>) {
    let files = Arc::new(read_tar_xz("optsuite/cases.tar.xz"));
    let rows = rows("optsuite/MANIFEST.tsv");
    let n = rows.len();
    out.push(Trial::test("optsuite: at least 1400 texts", move || {
        ensure(n >= 1400, || "optsuite went missing".to_string())
    }));
    let mut texts = Vec::new();
    let mut binaries = 0;
    for row in rows.iter().filter(|r| r["kind"] == "asm") {
        let stem = row["file"].trim_end_matches(".spvasm").to_string();
        binaries +=
            ["spv", "pnid.spv", "vk12.spv"].iter().filter(|e| files.contains_key(&format!("{stem}.{e}"))).count();
        let mut val = Vec::new();
        for (column, env_spv, env) in
            [("val_spv16", "spv", TargetEnv::Universal(6)), ("val_vk12", "vk12.spv", TargetEnv::Vulkan(2))]
        {
            let verdict = &row[column];
            let file = format!("{stem}.{env_spv}");
            if !files.contains_key(&file) || (verdict != "valid" && verdict != "invalid") {
                continue;
            }
            val.push(ValCase {
                key: file.clone(),
                files: Arc::clone(&files),
                file,
                options: ValOptions::default().target_env(env),
                valid: verdict == "valid",
                message: row[&format!("{column}_msg")].clone(),
            });
        }
        texts.push((row["file"].clone(), val));
    }
    out.push(Trial::test("optsuite: more than 2000 binaries", move || {
        ensure(binaries > 2000, || format!("only {binaries} binaries checked"))
    }));
    let known = known("optsuite", &texts.iter().flat_map(|(_, v)| v).collect::<Vec<_>>());
    out.push(known.no_strangers(
        "optsuite: KNOWN.tsv names only its cases",
        texts.iter().flat_map(|(_, v)| v).map(|c| c.key.clone()).collect(),
    ));
    for (file, val) in texts {
        let (files, known) = (Arc::clone(&files), Arc::clone(&known));
        let name = format!("optsuite/{}", file.trim_end_matches(".spvasm"));
        out.push(Trial::test(name, move || {
            let mut failures = optsuite_text(&files, &file);
            failures.extend(
                val.iter().filter_map(|c| c.check(&known).err()).map(|e| e.message().unwrap_or("").to_string()),
            );
            common::all_of(failures)
        }));
    }
}

/// Modules the reader frames though they break a rule: printed as
/// spirv-dis prints them.
fn framable_trials(out: &mut Vec<Trial>) {
    let modules = common::modules("framable");
    let seen = modules.len();
    out.push(Trial::test("framable: has modules", move || ensure(seen > 0, || "no modules".to_string())));
    for path in modules {
        out.push(Trial::test(format!("framable/{}", common::file_name(&path)), move || {
            let (words, _) = words_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
            let mut failures = Vec::new();
            for (suffix, friendly) in [("dis", true), ("raw.dis", false)] {
                let want = std::fs::read(path.with_extension(suffix)).unwrap();
                let options = DisOptions::default().friendly_names(friendly).color(false);
                match disassemble(&words, &options) {
                    Ok(got) if got.as_bytes() == want => {}
                    Ok(got) => failures.push(format!(
                        "{} {suffix}: differs from spirv-dis at {}",
                        path.display(),
                        common::first_difference(&want, got.as_bytes())
                    )),
                    Err(e) => failures.push(format!("{} {suffix}: {e}", path.display())),
                }
            }
            common::all_of(failures)
        }));
    }
}

fn main() {
    let mut all = Vec::new();
    valsuite_trials(&mut all);
    optsuite_trials(&mut all);
    framable_trials(&mut all);
    common::run(all)
}

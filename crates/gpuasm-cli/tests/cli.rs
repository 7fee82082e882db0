//! End-to-end tests of the `gpuasm` binary: inputs, outputs, exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn gpuasm() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gpuasm"))
}

fn corpus_module() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus/spv/glslang__Test__comment.frag.spv")
}

fn expected_default_text() -> Vec<u8> {
    let bytes = std::fs::read(corpus_module()).unwrap();
    let (words, _) = gpuasm_spirv::binary::words_from_bytes(&bytes).unwrap();
    gpuasm_spirv::dis::disassemble(&words, &Default::default()).unwrap().into_bytes()
}

#[test]
fn dis_to_stdout_from_file_and_stdin() {
    let want = expected_default_text();
    let out = gpuasm().args(["dis", "--no-color"]).arg(corpus_module()).output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, want);

    let mut child = gpuasm().args(["dis", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(corpus_module()).unwrap()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, want, "piped stdout is not a terminal: no colour");
}

#[test]
fn dis_reads_hex_text() {
    let bytes = std::fs::read(corpus_module()).unwrap();
    let hex: String =
        bytes.chunks(4).map(|c| format!("0x{:08x}\n", u32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.hex");
    std::fs::write(&path, hex).unwrap();
    let out = gpuasm().arg("dis").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected_default_text());
}

#[test]
fn dis_output_file_is_written_atomically_and_kept_on_error() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.spvasm");
    let ok = gpuasm().arg("dis").arg(corpus_module()).arg("-o").arg(&target).output().unwrap();
    assert!(ok.status.success());
    assert_eq!(std::fs::read(&target).unwrap(), expected_default_text());

    // A module whose last instruction runs past the end fails with exit
    // code 1 and leaves the old file alone.
    let mut bytes = std::fs::read(corpus_module()).unwrap();
    bytes.extend_from_slice(&((5u32 << 16) | 17).to_le_bytes());
    let bad = dir.path().join("bad.spv");
    std::fs::write(&bad, &bytes).unwrap();
    let out = gpuasm().arg("dis").arg(&bad).arg("-o").arg(&target).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.spv") && err.contains("at word"), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), expected_default_text());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "no temporary file left behind: {names:?}");
}

#[test]
fn dis_bad_inputs_exit_1_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in
        [("short.spv", vec![3u8, 2, 0x23, 7, 0, 0]), ("magic.spv", vec![0u8; 20]), ("empty.spv", vec![])]
    {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let out = gpuasm().arg("dis").arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("gpuasm: error: "), "{name}");
    }
    let out = gpuasm().args(["dis", "/nonexistent/x.spv"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = gpuasm().args(["dis", "--bogus-option"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "bad usage exits 1, as spirv-dis");
}

#[test]
fn dis_prints_ids_past_the_bound_with_a_warning() {
    // Bound 2, then `%3 = OpTypeVoid` at word 6.
    let words = [0x0723_0203u32, 0x0001_0000, 0, 2, 0, 0x0002_0013, 3];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("past.spv");
    std::fs::write(&p, bytes).unwrap();
    let out = gpuasm().args(["dis", "--raw-id", "--no-header"]).arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"          %3 = OpTypeVoid\n", "as spirv-dis prints it");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning") && err.contains("id 3 is not less than the bound 2 (at word 6)"), "{err}");
    let out = gpuasm().args(["dis", "--check-bound"]).arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn color_only_when_asked_and_only_on_stdout() {
    let out = gpuasm().args(["dis", "--color"]).arg(corpus_module()).output().unwrap();
    assert!(out.stdout.windows(2).any(|w| w == b"\x1b["));
    // `--no-color` wins in either order, as in spirv-dis.
    for flags in [["--color", "--no-color"], ["--no-color", "--color"]] {
        let out = gpuasm().arg("dis").args(flags).arg(corpus_module()).output().unwrap();
        assert!(!out.stdout.windows(2).any(|w| w == b"\x1b["), "{flags:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("c.spvasm");
    gpuasm().args(["dis", "--color"]).arg(corpus_module()).arg("-o").arg(&target).output().unwrap();
    assert!(!std::fs::read(&target).unwrap().windows(2).any(|w| w == b"\x1b["));
}

#[test]
fn as_writes_out_spv_by_default_and_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n";
    std::fs::write(dir.path().join("a.spvasm"), text).unwrap();
    let out = gpuasm().current_dir(dir.path()).args(["as", "a.spvasm"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(dir.path().join("out.spv")).unwrap();
    assert_eq!(&bytes[..4], &0x0723_0203u32.to_le_bytes());
    let dis = gpuasm().args(["dis", "--no-header", "--raw-id"]).arg(dir.path().join("out.spv")).output().unwrap();
    assert_eq!(
        String::from_utf8(dis.stdout).unwrap(),
        "               OpCapability Shader\n               OpMemoryModel Logical GLSL450\n          %1 = OpTypeVoid\n"
    );
}

#[test]
fn as_errors_point_at_the_token_and_keep_old_output() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("old.spv");
    std::fs::write(&target, b"keep me").unwrap();
    let src = dir.path().join("bad.spvasm");
    std::fs::write(&src, "OpCapability Shader\n%x = OpTypeIntt 32 1\n%p = OpTypePointer Fuction %x\n").unwrap();
    let out = gpuasm().arg("as").arg(&src).arg("-o").arg(&target).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    // Both independent errors, each with file:line:col, the line and a caret.
    assert!(err.contains("bad.spvasm:2:6: error: unknown opcode 'OpTypeIntt'"), "{err}");
    assert!(err.contains("did you mean 'OpTypeInt'?"), "{err}");
    assert!(err.contains("bad.spvasm:3:20: error: 'Fuction' is not a StorageClass"), "{err}");
    assert!(err.contains("did you mean 'Function'?"), "{err}");
    assert!(err.contains(" 2 | %x = OpTypeIntt 32 1\n   |      ^~~~~~~~~~\n"), "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
}

/// `-o` into something that is not a regular file writes into it rather
/// than renaming a regular file over it (which, as root, would replace
/// `/dev/null` for the whole machine); a symbolic link stays a link.
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("a.spvasm");
    std::fs::write(&src, "OpCapability Shader\nOpMemoryModel Logical GLSL450\n").unwrap();
    let want = {
        let out = gpuasm().arg("as").arg(&src).args(["-o", "-"]).output().unwrap();
        assert!(out.status.success());
        out.stdout
    };

    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = gpuasm().arg("as").arg(&src).arg("-o").arg(&fifo).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(reader.join().unwrap(), want);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is still a FIFO");

    let real = dir.path().join("real.spvasm");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.spvasm");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = gpuasm().args(["dis", "--raw-id"]).arg(corpus_module()).arg("-o").arg(&link).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is still a link");
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("; SPIR-V\n"));
}

#[test]
fn as_stdin_to_stdout_and_target_env() {
    let mut child = gpuasm()
        .args(["as", "--target-env", "vulkan1.1", "-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"OpCapability Shader\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(&out.stdout[4..8], &0x0001_0300u32.to_le_bytes(), "vulkan1.1 is SPIR-V 1.3");
    let bad = gpuasm().args(["as", "--target-env", "vulkan1.2spv1.5", "-"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("valid values"));
}

/// A large text (over a megabyte) is split between threads: the file (its
/// workers spill to temporary files) and standard output are the same
/// bytes as on one thread, and so are the warnings.
#[test]
fn as_large_texts_on_threads_give_one_threads_bytes() {
    let mut text = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %int = OpTypeInt 32 1\n%ptr = OpTypePointer Function %int\n",
    );
    for f in 0..300 {
        text += &format!("%f{f} = OpFunction %void None %fn\n%l{f} = OpLabel\n%v{f} = OpVariable %ptr Function\n");
        for i in 0..200 {
            let n = f * 200 + i + 100;
            text += &format!("%{n} = OpLoad %int %v{f}\nOpStore %v{f} %{n}\n");
        }
        text += &format!("OpStore %v{f} %undefined{f}\nOpReturn\nOpFunctionEnd\n");
    }
    assert!(text.len() > 2 << 20);
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("big.spvasm");
    std::fs::write(&src, &text).unwrap();
    let run = |threads: &str, out: &str| {
        let o =
            gpuasm().args(["as", "--threads", threads]).arg(&src).args(["-o", out]).current_dir(dir.path()).output();
        let o = o.unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (o.stdout, o.stderr)
    };
    let (_, warnings_one) = run("1", "one.spv");
    let (_, warnings_two) = run("2", "two.spv");
    let (stdout, _) = run("2", "-");
    let one = std::fs::read(dir.path().join("one.spv")).unwrap();
    assert_eq!(std::fs::read(dir.path().join("two.spv")).unwrap(), one);
    assert_eq!(stdout, one);
    assert_eq!(warnings_two, warnings_one);
    assert!(String::from_utf8_lossy(&warnings_one).contains("%undefined0 is used but never defined"));
}

fn mali_corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-mali/tests/corpus").join(name)
}

#[test]
fn mali_dis_then_as_gives_the_same_program_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let bin = mali_corpus("019_while_break.ppbin");
    let text = dir.path().join("p.s");
    let out = gpuasm().args(["mali-pp", "dis"]).arg(&bin).arg("-o").arg(&text).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let back = dir.path().join("p.bin");
    let out = gpuasm().args(["mali-pp", "as"]).arg(&text).arg("-o").arg(&back).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&bin).unwrap());
    // Hex in, hex out: the corpus listing format.
    let hex = mali_corpus("019_while_break.hex");
    let out = gpuasm().args(["mali-pp", "dis"]).arg(&hex).output().unwrap();
    let text2 = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text2, std::fs::read_to_string(&text).unwrap());
    let mut child = gpuasm()
        .args(["mali-pp", "as", "--format", "hex", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text2.as_bytes()).unwrap();
    let listing = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(listing, std::fs::read_to_string(&hex).unwrap());
}

#[test]
fn mali_as_errors_have_positions_and_carets() {
    let mut child = gpuasm()
        .args(["mali-pp", "as", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"stop, mov.v0 $0 $1, mul.v0 $0 $1 $2\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("<stdin>:1:21: error: 'mul.v0 $0 $1 $2' appears twice: it must come after 'mov.v0 $0 $1'"),
        "{err}"
    );
    assert!(err.contains(" 1 | stop, mov.v0 $0 $1, mul.v0 $0 $1 $2\n   |                     ^~~~~~"), "{err}");
}

#[test]
fn mali_dis_offsets_and_raw_fields() {
    let out = gpuasm()
        .args(["mali-pp", "dis", "--offsets", "--raw-fields"])
        .arg(mali_corpus("001_const_color.ppbin"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("raw.") && text.contains("# @0"), "{text}");
}

#[test]
fn val_is_silent_on_valid_modules_and_names_the_rule_otherwise() {
    let out = gpuasm().arg("val").arg(corpus_module()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());

    // The load's result type is not the pointee type (spirv-val says the same).
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%f = OpTypeFloat 32\n%i = OpTypeInt 32 1\n\
                %p = OpTypePointer Private %f\n%v = OpVariable %p Private\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %main = OpFunction %void None %fn\n%l = OpLabel\n%x = OpLoad %i %v\nOpReturn\nOpFunctionEnd\n";
    let words = gpuasm_spirv::text::assemble(text, &Default::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.spv");
    std::fs::write(&bad, words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let out = gpuasm().arg("val").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("OpLoad Result Type <id> '2[%int]' does not match Pointer <id> '4[%4]'s type."), "{err}");
    assert!(err.contains("%9 = OpLoad %int %4"), "{err}");

    // A SPIR-V 1.6 module is too new for Vulkan 1.0.
    let spv16 = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../gpuasm-spirv/tests/corpus/glslang/big_switch.comp.spirv1.6-gVS.spv");
    let out = gpuasm().arg("val").arg(&spv16).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = gpuasm().args(["val", "--target-env", "vulkan1.0"]).arg(&spv16).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Word for word what spirv-val says.
    assert!(
        err.contains(
            "Invalid SPIR-V binary version 1.6 for target environment SPIR-V 1.0 (under Vulkan 1.0 semantics)."
        ),
        "{err}"
    );
    let out = gpuasm().args(["val", "--target-env", "vulkan9"]).arg(corpus_module()).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown target environment"));
}

/// The README's commands on `examples/`: `shader.spvasm` is spirv-dis
/// 2025.5's listing of `shader.spv` (checked with the peer when it was
/// made), `mali.s` the canonical text of `mali.ppbin`.
#[test]
fn readme_examples_give_the_files_beside_them() {
    let examples = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let run = |args: &[&str]| {
        let out = gpuasm().args(args).current_dir(&examples).output().unwrap();
        assert!(out.status.success(), "gpuasm {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    assert_eq!(run(&["dis", "shader.spv"]), std::fs::read(examples.join("shader.spvasm")).unwrap());
    let spv = run(&["as", "shader.spvasm", "-o", "-"]);
    let original = std::fs::read(examples.join("shader.spv")).unwrap();
    assert_eq!(spv.len(), original.len());
    assert!(run(&["val", "shader.spv"]).is_empty());
    assert_eq!(run(&["mali-pp", "dis", "mali.ppbin"]), std::fs::read(examples.join("mali.s")).unwrap());
    let words = run(&["mali-pp", "as", "mali.s", "-o", "-"]);
    assert_eq!(words, std::fs::read(examples.join("mali.ppbin")).unwrap());
}

//! End-to-end tests of the `gpuasm` binary that need code: binary outputs,
//! pipes and special files, temporary files, threads, round trips. Messages,
//! flags and listings are data: `tests/cases/` (`cli_cases.rs`).

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

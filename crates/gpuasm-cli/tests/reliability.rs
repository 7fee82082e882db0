//! Bad inputs and failing outputs: no panic, no unbounded memory, a clear
//! message and an untouched output. Each test failed before its fix.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn gpuasm() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gpuasm"))
}

fn corpus_module() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus/spv/glslang__Test__comment.frag.spv")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A shader with `depth` loops nested in one another: its `--nested-indent`
/// listing grows with the square of the depth.
fn nested_loops(depth: usize) -> String {
    let mut t = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
         OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %h0\n",
    );
    for i in 0..depth {
        t += &format!("%h{i} = OpLabel\nOpLoopMerge %m{i} %c{i} None\nOpBranch %b{i}\n%b{i} = OpLabel\n");
        if i + 1 < depth {
            t += &format!("OpBranch %h{}\n", i + 1);
        } else {
            t += &format!("OpBranch %c{i}\n");
        }
    }
    for i in (0..depth).rev() {
        t += &format!("%c{i} = OpLabel\nOpBranch %h{i}\n%m{i} = OpLabel\n");
        if i > 0 {
            t += &format!("OpBranch %c{}\n", i - 1);
        } else {
            t += "OpReturn\n";
        }
    }
    t + "OpFunctionEnd\n"
}

fn assemble(text: &str) -> Vec<u8> {
    let words = gpuasm_spirv::text::assemble(text, &Default::default()).unwrap();
    gpuasm_spirv::binary::words_as_le_bytes(&words).to_vec()
}

/// Runs with the address space capped at `limit` bytes.
#[cfg(target_os = "linux")]
fn with_memory_limit(cmd: &mut Command, limit: u64) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(move || {
            let r = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            if libc::setrlimit(libc::RLIMIT_AS, &r) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

#[test]
#[cfg(target_os = "linux")]
fn nested_indent_listing_streams_within_linear_memory() {
    // 3,000 nested loops: a 200 KB module whose nested listing is about
    // 100 MB. Holding a function's listing in memory needs more than the cap.
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("nested.spv");
    std::fs::write(&module, assemble(&nested_loops(3000))).unwrap();
    for flags in [&["--nested-indent"][..], &["--nested-indent", "--reorder-blocks"], &["--reorder-blocks"]] {
        let mut cmd = gpuasm();
        cmd.arg("dis").args(flags).arg(&module).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = with_memory_limit(&mut cmd, 96 << 20).spawn().unwrap();
        let mut n = 0usize;
        let mut buf = vec![0; 1 << 16];
        let mut out = child.stdout.take().unwrap();
        loop {
            match out.read(&mut buf).unwrap() {
                0 => break,
                k => n += k,
            }
        }
        let status = child.wait().unwrap();
        assert!(status.success(), "{flags:?}: {status:?}");
        if flags[0] == "--nested-indent" {
            assert!(n > 96 << 20, "{flags:?}: the listing should outgrow the cap ({n} bytes)");
        }
    }
}

#[test]
fn long_lines_give_short_error_listings() {
    // 600,000 errors on one 4.8 MB line: each shows a window of the line,
    // and at most 50 are shown.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("x.spvasm");
    std::fs::write(&text, "OpBogus ".repeat(600_000) + "\n").unwrap();
    let out = gpuasm().arg("as").arg(&text).arg("-o").arg(dir.path().join("x.spv")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.len() < 64 << 10, "{} bytes of messages", out.stderr.len());
    assert!(stderr(&out).contains("error: unknown opcode 'OpBogus'"), "{}", stderr(&out));
}

#[test]
#[cfg(unix)]
fn a_closed_pipe_ends_quietly_with_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("nested.spv");
    std::fs::write(&module, assemble(&nested_loops(1000))).unwrap();
    let mut child = gpuasm()
        .args(["dis", "--nested-indent"])
        .arg(&module)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
#[cfg(target_os = "linux")]
fn a_full_output_is_an_error_not_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mali = dir.path().join("m.s");
    std::fs::write(&mali, "stop\n").unwrap();
    let bin = dir.path().join("m.bin");
    assert!(gpuasm().args(["mali-pp", "as"]).arg(&mali).arg("-o").arg(&bin).status().unwrap().success());
    let runs: [&[&str]; 4] =
        [&["dis"], &["mali-pp", "dis", "--format", "raw"], &["mali-pp", "as", "--format", "hex"], &["mali-pp", "as"]];
    let inputs = [corpus_module(), bin.clone(), mali.clone(), mali.clone()];
    for (args, input) in runs.iter().zip(&inputs) {
        let out = gpuasm().args(*args).arg(input).stdout(full()).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("cannot write standard output"), "{args:?}: {}", stderr(&out));
    }
    // Messages themselves cannot be written: exit 1, no panic (101).
    let bad = dir.path().join("bad.spvasm");
    std::fs::write(&bad, "OpBogus\n").unwrap();
    let out = gpuasm().arg("as").arg(&bad).arg("-o").arg(dir.path().join("o.spv")).stderr(full()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = gpuasm().arg("val").arg(&bad).stderr(full()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn threads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("a.spvasm");
    std::fs::write(&text, "OpCapability Shader\n").unwrap();
    let out = gpuasm().args(["as", "--threads", "100000"]).arg(&text).arg("-o").arg(dir.path().join("a.spv")).output();
    let out = out.unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("100000 is not in 1..=64"), "{}", stderr(&out));
    assert!(!dir.path().join("a.spv").exists());
}

#[test]
fn max_errors_zero_means_no_limit() {
    let out = gpuasm().args(["val", "--max-errors", "0"]).arg(corpus_module()).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.spv");
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%f = OpTypeFloat 32\n%i = OpTypeInt 32 1\n";
    let mut bytes = assemble(text);
    bytes.truncate(bytes.len() - 4);
    std::fs::write(&bad, &bytes).unwrap();
    let out = gpuasm().args(["val", "--max-errors", "0"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!out.stderr.is_empty());
}

#[test]
#[cfg(unix)]
fn an_input_that_shrinks_while_read_is_an_error() {
    // Mapped inputs (1 MiB or more): GPUASM_TEST_SHRINK_INPUT makes gpuasm
    // truncate its input right after mapping it, as another process might.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("big.spvasm");
    let out_path = dir.path().join("out.spv");
    std::fs::write(&out_path, b"old").unwrap();
    let mut body = String::from("OpCapability Shader\nOpMemoryModel Logical GLSL450\n");
    body += &"; a comment to make the text big\n".repeat(40_000);
    // A whole number of words, so that `val` reads it too.
    body += &" ".repeat((4 - body.len() % 4) % 4);
    let check = |args: &[&str], out: Option<&Path>| {
        std::fs::write(&text, &body).unwrap();
        let mut cmd = gpuasm();
        cmd.args(args).arg(&text).env("GPUASM_TEST_SHRINK_INPUT", "1");
        if let Some(o) = out {
            cmd.arg("-o").arg(o);
        }
        let r = cmd.output().unwrap();
        assert_eq!(r.status.code(), Some(1), "{args:?}: {r:?}");
        assert!(stderr(&r).contains("the file shrank while it was being read"), "{args:?}: {}", stderr(&r));
    };
    check(&["as"], Some(&out_path));
    assert_eq!(std::fs::read(&out_path).unwrap(), b"old");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");
    check(&["dis"], None);
    check(&["val"], None);
}

#[test]
fn non_utf8_string_bytes_are_copied_as_spirv_as_does() {
    // spirv-as 2025.5 writes these bytes as they are (checked with the peer:
    // the words below are its output past the header).
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("s.spvasm");
    std::fs::write(
        &text,
        b"OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
          OpSourceExtension \"\xff\xfe\xc3\"\nOpSourceExtension \"a\xe9b\\\"\xf0\x9f\"\n",
    )
    .unwrap();
    let out = dir.path().join("s.spv");
    let r = gpuasm().arg("as").arg(&text).arg("-o").arg(&out).output().unwrap();
    assert!(r.status.success(), "{}", stderr(&r));
    let bytes = std::fs::read(&out).unwrap();
    let want: &[u8] = b"\x11\x00\x02\x00\x01\x00\x00\x00\x11\x00\x02\x00\x05\x00\x00\x00\
        \x0e\x00\x03\x00\x00\x00\x00\x00\x01\x00\x00\x00\
        \x04\x00\x02\x00\xff\xfe\xc3\x00\x04\x00\x03\x00a\xe9b\"\xf0\x9f\x00\x00";
    assert_eq!(&bytes[20..], want);
    // And back: dis prints the bytes, as assembles them again.
    let listing = gpuasm().args(["dis", "--raw-id"]).arg(&out).output().unwrap();
    assert!(listing.status.success());
    let again = dir.path().join("again.spvasm");
    std::fs::write(&again, &listing.stdout).unwrap();
    let back = dir.path().join("back.spv");
    let r = gpuasm().args(["as", "--preserve-numeric-ids"]).arg(&again).arg("-o").arg(&back).output().unwrap();
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::read(&back).unwrap()[20..], bytes[20..]);
}

//! `gpuasm val DIR`: every `*.spv` below a folder, one line per invalid
//! file, a summary, exit 1 if any is invalid.

use std::process::Command;

#[test]
fn a_folder_is_validated_file_by_file() {
    let corpus = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gpuasm-spirv/tests/corpus");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::copy(corpus.join("spv/glslang__Test__comment.frag.spv"), dir.path().join("a.spv")).unwrap();
    std::fs::copy(corpus.join("spv/glslang__Test__comment.frag.spv"), dir.path().join("sub/b.spv")).unwrap();
    std::fs::write(dir.path().join("sub/notes.txt"), "not a module").unwrap();
    let run = || Command::new(env!("CARGO_BIN_EXE_gpuasm")).arg("val").arg(dir.path()).output().unwrap();
    let out = run();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2 valid, 0 invalid\n");

    // A truncated module in a nested folder: named, counted, exit 1.
    let mut bytes = std::fs::read(dir.path().join("a.spv")).unwrap();
    bytes.truncate(bytes.len() - 8);
    std::fs::write(dir.path().join("sub/c.spv"), bytes).unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("error: ") && lines[0].contains("sub/c.spv: "), "{text}");
    assert_eq!(lines[1], "2 valid, 1 invalid");
}

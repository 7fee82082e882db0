//! Formatting gives spirv-dis's layout: the peer's own output of corpus
//! modules, with every line's indentation stripped, formats back to it
//! byte for byte (and the peer's output is left as it is). Skipped when
//! the peer (`.peer/bin/spirv-dis`, or `GPUASM_PEER_SPIRV_DIS`) is absent.

use gpuasm_lsp::formatting::format_text;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn formatting_restores_the_spirv_dis_layout() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let peer =
        std::env::var_os("GPUASM_PEER_SPIRV_DIS").map_or_else(|| root.join(".peer/bin/spirv-dis"), PathBuf::from);
    if !peer.exists() {
        eprintln!("skipped: no spirv-dis at {}", peer.display());
        return;
    }
    let dir = root.join("crates/gpuasm-spirv/tests/corpus/asm/asm");
    let mut modules: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".spv") && !p.to_string_lossy().ends_with(".pnid.spv"))
        .collect();
    modules.sort();
    let mut checked = 0;
    for path in modules.iter().step_by(4) {
        let out = Command::new(&peer).arg(path).output().unwrap();
        if !out.status.success() {
            continue;
        }
        let dis = String::from_utf8(out.stdout).unwrap();
        assert_eq!(format_text(&dis).as_deref(), Some(dis.as_str()), "{}", path.display());
        let flat: String = dis.lines().map(|l| format!("{}\n", l.trim_start())).collect();
        assert_eq!(format_text(&flat).as_deref(), Some(dis.as_str()), "{}", path.display());
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}

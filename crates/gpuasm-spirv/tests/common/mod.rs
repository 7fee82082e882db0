//! Helpers shared by the corpus tests.
//!
//! The corpus tests run with `harness = false` under `libtest-mimic`: one
//! trial per case (or small group), named after the case's file, so that
//! `cargo test --test NAME -- CASE` runs one case and a failure names it.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

pub use libtest_mimic::{Failed, Trial};

/// Runs `trials` with libtest's command line (filters, `--list`,
/// `--exact`, `--test-threads`) and exits with its verdict.
///
/// A whole corpus run prints one dot per case, as `--quiet` does: tens of
/// thousands of `test NAME ... ok` lines would bury the failures (which
/// are listed by name either way). With a filter, or `--format pretty`,
/// each case prints its name.
pub fn run(trials: Vec<Trial>) -> ! {
    run_with(libtest_mimic::Arguments::from_args(), trials).exit()
}

/// [`run`] with parsed arguments, returning the verdict.
pub fn run_with(mut args: libtest_mimic::Arguments, trials: Vec<Trial>) -> libtest_mimic::Conclusion {
    if args.format.is_none() && args.filter.is_none() && args.skip.is_empty() {
        args.format = Some(libtest_mimic::FormatSetting::Terse);
    }
    libtest_mimic::run(&args, trials)
}

/// `Ok` when `ok`, else a failure saying `why`.
pub fn ensure(ok: bool, why: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok {
        Ok(())
    } else {
        Err(why().into())
    }
}

/// A trial that fails with every message of `failures`, or passes.
pub fn all_of(failures: Vec<String>) -> Result<(), Failed> {
    ensure(failures.is_empty(), || failures.join("\n"))
}

/// `tests/corpus/<rel>`.
pub fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(rel)
}

/// Every file of a `.tar.xz`, by path. The corpora too large to keep as
/// plain files (each corpus README says which) are stored this way.
pub fn read_tar_xz(rel: &str) -> BTreeMap<String, Vec<u8>> {
    let compressed = std::fs::read(corpus(rel)).unwrap();
    let mut tar_bytes = Vec::new();
    lzma_rs::xz_decompress(&mut &compressed[..], &mut tar_bytes).unwrap();
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    let mut out = BTreeMap::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().unwrap().to_string_lossy().into_owned();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        out.insert(path, data);
    }
    out
}

/// Every file below `tests/corpus/<rel>`, by its path relative to it
/// (`/`-separated), as [`read_tar_xz`] gives an archive's.
pub fn read_dir(rel: &str) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let root = corpus(rel);
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The files of one part of a corpus (`asm/unit`, `asm-own/disasm`), by
/// name within it: the plain folder `tests/corpus/<rel>/`, or, for the
/// parts too large for plain files, the `<part>/` members of
/// `tests/corpus/<rel>.tar.xz`.
pub fn part(rel: &str) -> BTreeMap<String, Vec<u8>> {
    if corpus(rel).is_dir() {
        return read_dir(rel);
    }
    let prefix = format!("{}/", rel.rsplit('/').next().unwrap());
    read_tar_xz(&format!("{rel}.tar.xz"))
        .into_iter()
        .filter_map(|(name, data)| Some((name.strip_prefix(&prefix)?.to_string(), data)))
        .collect()
}

/// The rows of a part's `MANIFEST.tsv` (columns file, flags, status,
/// expected, ...), grouped by input file, in the manifest's order.
pub fn manifest_by_file(files: &BTreeMap<String, Vec<u8>>) -> Vec<(String, Vec<Vec<String>>)> {
    let manifest = String::from_utf8(files["MANIFEST.tsv"].clone()).unwrap();
    let mut out: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<String> = row.split('\t').map(str::to_string).collect();
        match out.last_mut() {
            Some((file, rows)) if *file == cols[0] => rows.push(cols),
            _ => out.push((cols[0].clone(), vec![cols])),
        }
    }
    out
}

/// The `*.spv` files of `tests/corpus/<rel>` (not below it), sorted.
pub fn modules(rel: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus(rel))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    out.sort();
    out
}

/// A path's file name, for naming a trial.
pub fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Rows of a TSV with a header: column values by header name. A value the
/// writer quoted (CSV style, as Python's csv module quotes a value holding
/// `"`) is unquoted; tabs and newlines never occur inside values.
pub fn rows(rel: &str) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(corpus(rel)).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines.map(|l| header.iter().zip(l.split('\t')).map(|(h, v)| (h.to_string(), unquote(v))).collect()).collect()
}

/// `"a ""b"""` → `a "b"`; a value not quoted as a whole is kept.
fn unquote(v: &str) -> String {
    match v.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => v.to_string(),
    }
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Assembler options from a golden manifest's flags column (spirv-as's
/// flags), on `base`.
pub fn asm_options(flags: &str, base: gpuasm_spirv::text::AsmOptions) -> gpuasm_spirv::text::AsmOptions {
    let mut o = base;
    let mut it = flags.split_whitespace();
    while let Some(f) = it.next() {
        match f {
            "--preserve-numeric-ids" => o.preserve_numeric_ids = true,
            "--target-env" => o.target_env = Some(gpuasm_spirv::TargetEnv::parse(it.next().unwrap()).unwrap()),
            other => panic!("unknown flag {other}"),
        }
    }
    o
}

/// A list of known disagreements kept exact by the tests (`val-known-gaps.txt`,
/// `<suite>/KNOWN.tsv`): each case's entry, by case name.
pub struct KnownList {
    pub path: PathBuf,
    pub entries: BTreeMap<String, String>,
}

impl KnownList {
    /// Reads the list: first column the case, second its kind, or
    /// `one_kind` for every case of a list of one kind.
    pub fn read(path: PathBuf, one_kind: Option<&str>) -> KnownList {
        let entries = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let mut f = l.split('\t');
                let case = f.next().unwrap().to_string();
                let kind = one_kind.or(f.next()).unwrap_or("").to_string();
                (case, kind)
            })
            .collect();
        KnownList { path, entries }
    }

    /// The listed entry of `case` must be `found` (both `None`: not listed,
    /// no disagreement).
    pub fn check(&self, case: &str, found: Option<&str>) -> Result<(), Failed> {
        let listed = self.entries.get(case).map(String::as_str);
        match (listed, found) {
            (None, None) => Ok(()),
            (Some(listed), Some(kind)) if listed == kind => Ok(()),
            (None, Some(kind)) => {
                Err(format!("{case}: new disagreement ({kind}), not in {}", self.path.display()).into())
            }
            (Some(kind), None) => Err(format!(
                "{case}: listed as {kind:?} in {} but agrees now: remove it from the list",
                self.path.display()
            )
            .into()),
            (Some(listed), Some(kind)) => {
                Err(format!("{case}: listed as {listed:?} in {}, now {kind:?}", self.path.display()).into())
            }
        }
    }

    /// A trial that fails on listed cases no trial checks (renamed or gone).
    pub fn no_strangers(&self, name: &str, cases: std::collections::BTreeSet<String>) -> Trial {
        let path = self.path.clone();
        let listed: Vec<String> = self.entries.keys().cloned().collect();
        Trial::test(name, move || {
            let strangers: Vec<&String> = listed.iter().filter(|c| !cases.contains(*c)).collect();
            ensure(strangers.is_empty(), || {
                format!("{}: cases not in the corpus (remove them): {strangers:#?}", path.display())
            })
        })
    }
}

/// Where `got` first departs from `want`, line by line, for a failure
/// message: the line number and both lines.
pub fn first_difference(want: &[u8], got: &[u8]) -> String {
    let (want, got) = (String::from_utf8_lossy(want), String::from_utf8_lossy(got));
    let (mut w, mut g) = (want.split_inclusive('\n'), got.split_inclusive('\n'));
    for line in 1.. {
        match (w.next(), g.next()) {
            (None, None) => return "the same text (a difference in bytes only)".into(),
            (a, b) if a == b => continue,
            (a, b) => return format!("line {line}:\n  want: {a:?}\n  got:  {b:?}"),
        }
    }
    unreachable!()
}

/// A trial of a test written as a plain function that panics on failure.
pub fn plain(name: &str, test: fn()) -> Trial {
    Trial::test(name, move || {
        test();
        Ok(())
    })
}

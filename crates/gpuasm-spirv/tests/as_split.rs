//! Assembling on several threads gives exactly what one pass gives: the
//! same words and warnings, or the same diagnostics. Every case of the
//! golden corpora (whose one-pass result `as_golden` holds to spirv-as's)
//! is split at the first function, half-way, with no fork at all, at
//! arbitrary bytes (inside words, strings and comments), and for short
//! texts at every line, both into memory and streamed (where workers spill
//! to temporary files). One trial per input file, `<part>/FILE`.

mod common;

use common::{Failed, Trial};
use gpuasm_spirv::text::{assemble_to_writer, assemble_with_warnings, segments_adopted, AsmOptions};
use std::sync::atomic::{AtomicUsize, Ordering};

fn options(flags: &str) -> AsmOptions {
    common::asm_options(flags, AsmOptions::default().threads(1))
}

/// Where lines begin that begin with a word.
fn line_starts(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let first = at + b[at..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
        if first < b.len() && !matches!(b[first], b'\n' | b';') {
            starts.push(first);
        }
        at = match b[at..].iter().position(|&c| c == b'\n') {
            Some(n) => at + n + 1,
            None => b.len(),
        };
    }
    starts
}

/// The splits tried on `text`: (fork, segment starts).
fn plans(text: &str, seed: u64) -> Vec<(usize, Vec<usize>)> {
    let lines = line_starts(text);
    if lines.len() < 2 {
        return Vec::new();
    }
    let function = text.find("OpFunction ").map_or(0, |at| text[..at].rfind('\n').map_or(0, |n| n + 1));
    let half = lines[lines.len() / 2];
    let mut plans = vec![
        (function, vec![half]),
        (0, vec![lines[lines.len() / 3], lines[2 * lines.len() / 3]]),
        (lines[1], vec![*lines.last().unwrap()]),
    ];
    // Arbitrary bytes, from a seed per case.
    let mut r = seed | 1;
    let mut next = |n: usize| {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        (r % n as u64) as usize
    };
    let fork = next(text.len());
    let mut starts: Vec<usize> = (0..3).map(|_| next(text.len())).collect();
    starts.sort_unstable();
    plans.push((fork, starts));
    if lines.len() <= 40 {
        plans.push((0, lines[1..].to_vec()));
    }
    plans
}

/// One pass or split: words (header included) and warnings, or diagnostics.
fn in_memory(text: &str, o: &AsmOptions) -> String {
    format!("{:?}", assemble_with_warnings(text, o).map(|a| (a.words, a.warnings)))
}

fn streamed(text: &str, o: &AsmOptions) -> String {
    let mut bytes = std::io::Cursor::new(Vec::new());
    match assemble_to_writer(text, o, &mut bytes) {
        Ok(done) => format!("{:?} {:?} {:?}", bytes.into_inner(), done.header, done.warnings),
        Err(gpuasm_spirv::text::StreamError::Assembly(d)) => format!("{d:?}"),
        Err(e) => panic!("I/O error writing to memory: {e:?}"),
    }
}

/// Splits tried by the corpus trials, for the check that workers' segments
/// are really taken over.
static SPLITS: AtomicUsize = AtomicUsize::new(0);

/// One input file of a corpus part under each of its manifest rows
/// `(row number, flags)`: every split gives what one pass gives.
fn check_case(name: &str, text: &str, rows: &[(usize, String)]) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for (row_number, flags) in rows {
        let base = options(flags);
        let (one_pass, one_pass_streamed) = (in_memory(text, &base), streamed(text, &base));
        for (k, (fork, starts)) in plans(text, *row_number as u64 * 0x9e37_79b9 + 7).into_iter().enumerate() {
            SPLITS.fetch_add(1, Ordering::Relaxed);
            let split = base.clone().split_at(Some((fork, starts.clone())));
            if in_memory(text, &split) != one_pass {
                failures.push(format!("{name} [{flags}] split {fork} {starts:?}: differs in memory"));
            }
            // Streaming on some plans, the general path on one.
            if k % 2 == 0 && streamed(text, &split) != one_pass_streamed {
                failures.push(format!("{name} [{flags}] split {fork} {starts:?}: differs streamed"));
            }
            if k == 1 && in_memory(text, &split.clone().general_only(true)) != one_pass {
                failures.push(format!("{name} [{flags}] split {fork} {starts:?}: differs, general path"));
            }
        }
    }
    common::all_of(failures)
}

/// One trial per input file of the corpus part `rel` (`asm/unit`, ...; see
/// `common::part`), named `<part>/FILE`.
fn corpus_trials(rel: &str, out: &mut Vec<Trial>) {
    let part = rel.rsplit('/').next().unwrap().to_string();
    let files = common::part(rel);
    let manifest = String::from_utf8(files["MANIFEST.tsv"].clone()).unwrap();
    // Rows by file, with their row number (which seeds the arbitrary splits).
    let mut cases: Vec<(String, Vec<(usize, String)>)> = Vec::new();
    for (row_number, row) in manifest.lines().skip(1).enumerate() {
        let cols: Vec<&str> = row.split('\t').collect();
        let (file, flags) = (cols[0].to_string(), cols[1].to_string());
        match cases.last_mut() {
            Some((f, rows)) if *f == file => rows.push((row_number, flags)),
            _ => cases.push((file, vec![(row_number, flags)])),
        }
    }
    for (file, rows) in cases {
        let text = String::from_utf8_lossy(&files[&file]).into_owned();
        let name = format!("{part}/{file}");
        out.push(Trial::test(name.clone(), move || check_case(&name, &text, &rows)));
    }
}

/// A text with `@fork` and `@split` lines marking where to split: the text
/// without them, and the plan.
fn marked(text: &str) -> (String, (usize, Vec<usize>)) {
    let (mut out, mut fork, mut starts) = (String::new(), 0, Vec::new());
    for line in text.lines() {
        match line.trim() {
            "@fork" => fork = out.len(),
            "@split" => starts.push(out.len()),
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    (out, (fork, starts))
}

/// Each rule a worker's reading must respect, in a case that one pass
/// reads differently if the rule is broken.
fn hand_written_splits_read_like_one_pass() {
    let head = "OpCapability Shader\nOpCapability Int64\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
    let cases = [
        // A type declared again in a later segment is an error.
        ("type declared twice", "@fork\n%t = OpTypeInt 32 0\n@split\n%t = OpTypeInt 32 0\n"),
        // So is a set imported again.
        ("set imported twice", "@fork\n%g = OpExtInstImport \"GLSL.std.450\"\n@split\n%g = OpExtInstImport \"GLSL.std.450\"\n"),
        // A switch reads its literals with the selector's first type.
        (
            "selector typed first elsewhere",
            "%i32 = OpTypeInt 32 1\n%i64 = OpTypeInt 64 1\n@fork\n%x = OpUndef %i64\n@split\n%x = OpUndef %i32\n\
             %f = OpFunction %void None %fn\n%l = OpLabel\nOpSelectionMerge %m None\nOpSwitch %x %m 5 %m\n\
             %m = OpLabel\nOpReturn\nOpFunctionEnd\n",
        ),
        // A constant of a type declared after the fork.
        ("constant of a later type", "@fork\n%i = OpTypeInt 32 1\n@split\n%c = OpConstant %i 7\n%d = OpConstant %i -7\n"),
        // A value whose type a worker does not know, switched on later.
        (
            "value of an unknown type",
            "@fork\n%i = OpTypeInt 64 0\n@split\n%x = OpUndef %i\n@split\n%f = OpFunction %void None %fn\n%l = OpLabel\n\
             OpSelectionMerge %m None\nOpSwitch %x %m 4294967296 %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n",
        ),
        // A value declared before its type is not typed by it.
        (
            "value before its type",
            "@fork\n%x = OpUndef %i\n%i = OpTypeInt 32 0\n@split\n%f = OpFunction %void None %fn\n%l = OpLabel\n\
             OpSelectionMerge %m None\nOpSwitch %x %m 1 %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n",
        ),
        // A split inside a string that spans lines.
        ("split in a string", "@fork\nOpName %void \"a\n@split\n%y = OpTypeBool\nb\"\n%z = OpTypeBool\n"),
        // An error in a worker's segment, reported as one pass reports it.
        ("error in a worker's segment", "@fork\n%i = OpTypeInt 32 1\n@split\n%c = OpConstant %i 7\n%d = OpConstnt %i 7\n"),
        // Names met first in one segment and used in another, both ways.
        (
            "forward references",
            "@fork\n%f = OpFunction %void None %fn\n%l = OpLabel\n%r = OpFunctionCall %void %g\nOpReturn\nOpFunctionEnd\n\
             @split\n%g = OpFunction %void None %fn\n%l2 = OpLabel\n%r2 = OpFunctionCall %void %f\nOpReturn\nOpFunctionEnd\n",
        ),
        // Ids used but never defined: the same warnings, in order.
        ("undefined ids", "@fork\n%p = OpTypePointer Function %nowhere\n@split\n%q = OpTypePointer Function %7\n%r = OpTypePointer Function %nowhere\n"),
        // The text ends at a NUL, wherever it is: the main thread looks
        // before the fork, a worker past it.
        ("NUL before the fork", "%b = OpTypeBool ; a\0 %c = OpTypeFloat 32\n@fork\n%t = OpTypeInt 32 0\n@split\n%u = OpTypeInt 16 0\n"),
        ("NUL in a worker's segment", "@fork\n%t = OpTypeInt 32 0\n@split\n%u = OpTypeInt 16 0\n%v = OpTypeFloat\0 32\n%w = OpTypeFloat 64\n"),
        ("NUL at a split", "@fork\n%t = OpTypeInt 32 0\n@split\n\0%u = OpTypeInt 16 0\n"),
        ("NUL at the fork", "%t = OpTypeInt 32 0\n@fork\n\0%u = OpTypeInt 16 0\n@split\n%v = OpTypeInt 8 0\n"),
        ("NUL in a string across the fork", "OpName %void \"a\n@fork\nb\0c\"\n%t = OpTypeInt 32 0\n@split\n%u = OpTypeInt 16 0\n"),
        ("NUL in a comment across the fork", "%t = OpTypeInt 32 0 ; a\n@fork\n; b\0c\n%u = OpTypeInt 16 0\n@split\n%v = OpTypeInt 8 0\n"),
        ("NUL after the last segment", "@fork\n%t = OpTypeInt 32 0\n@split\n%u = OpTypeInt 16 0\n%v = OpTypeInt 8 0\n\0 garbage\n"),
    ];
    for (what, body) in cases {
        let (text, plan) = marked(&format!("{head}{body}"));
        let one_pass = AsmOptions::default().threads(1);
        let split = AsmOptions::default().split_at(Some(plan));
        assert_eq!(in_memory(&text, &split), in_memory(&text, &one_pass), "{what}: in memory");
        assert_eq!(streamed(&text, &split), streamed(&text, &one_pass), "{what}: streamed");
    }
}

fn main() {
    let mut all = vec![common::plain("hand_written_splits_read_like_one_pass", hand_written_splits_read_like_one_pass)];
    for rel in ["asm/unit", "asm/asm", "asm/asm-rejected", "asm-own/cases", "asm-own/disasm"] {
        corpus_trials(rel, &mut all);
    }
    let args = libtest_mimic::Arguments::from_args();
    let whole_run = args.filter.is_none() && args.skip.is_empty() && !args.list;
    let adopted_before = segments_adopted();
    let conclusion = common::run_with(args, all);
    // The split must really be used, not only fall back to one pass: over
    // the whole corpus, at least half the segments are taken from workers.
    let (splits, adopted) = (SPLITS.load(Ordering::Relaxed), segments_adopted() - adopted_before);
    if whole_run && !conclusion.has_failed() {
        println!("{splits} splits, {adopted} or more segments taken from workers");
        if adopted < splits / 2 {
            eprintln!("only {adopted} segments taken over in {splits} splits");
            std::process::exit(101);
        }
    }
    conclusion.exit()
}

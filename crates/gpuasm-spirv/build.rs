//! Turns the vendored JSON grammars (`grammar/*.json` in this crate)
//! into static Rust tables in `$OUT_DIR/tables.rs`.
//!
//! Everything the library knows about opcodes, operands and enumerants comes
//! from here; nothing is listed by hand in the sources.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct CoreGrammar {
    instructions: Vec<JsonInstruction>,
    operand_kinds: Vec<JsonKind>,
    major_version: u32,
    minor_version: u32,
    revision: u32,
}

#[derive(Deserialize)]
struct ExtGrammar {
    instructions: Vec<JsonInstruction>,
    #[serde(default)]
    operand_kinds: Vec<JsonKind>,
    #[serde(default)]
    revision: u32,
}

#[derive(Deserialize)]
struct JsonInstruction {
    opname: String,
    #[serde(default)]
    class: String,
    opcode: u32,
    #[serde(default)]
    operands: Vec<JsonOperand>,
    #[serde(default)]
    capabilities: Vec<String>,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default, rename = "lastVersion")]
    last_version: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    provisional: bool,
}

#[derive(Deserialize)]
struct JsonOperand {
    kind: String,
    #[serde(default)]
    quantifier: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct JsonKind {
    category: String,
    kind: String,
    #[serde(default)]
    enumerants: Vec<JsonEnumerant>,
    #[serde(default)]
    bases: Vec<String>,
}

#[derive(Deserialize)]
struct JsonEnumerant {
    enumerant: String,
    value: serde_json::Value,
    #[serde(default)]
    capabilities: Vec<String>,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    parameters: Vec<JsonOperand>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default, rename = "lastVersion")]
    last_version: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    provisional: bool,
}

/// How an `OpExtInstImport` string selects a grammar file. The import names
/// are not part of the JSON files, so this maps file stems to them.
///
/// The last column says whether SPIRV-Tools 2025.5 has the set's grammar
/// built in; it treats the others as unknown `NonSemantic.*` sets (numbers
/// for instruction names, ids for operands), and so do we when asked to
/// match it.
const EXT_IMPORTS: &[(&str, &str, bool, &str, bool)] = &[
    // (file stem, import name, match as prefix, identifier prefix for kinds, known to spirv-tools)
    ("glsl.std.450", "GLSL.std.450", false, "Glsl", true),
    ("opencl.std.100", "OpenCL.std", false, "OpenCl", true),
    ("debuginfo", "DebugInfo", false, "DebugInfo", true),
    ("opencl.debuginfo.100", "OpenCL.DebugInfo.100", false, "OpenClDebugInfo100", true),
    ("nonsemantic.shader.debuginfo.100", "NonSemantic.Shader.DebugInfo.100", false, "ShaderDebugInfo100", true),
    ("nonsemantic.clspvreflection", "NonSemantic.ClspvReflection.", true, "ClspvReflection", true),
    ("nonsemantic.debugprintf", "NonSemantic.DebugPrintf", false, "DebugPrintf", false),
    ("nonsemantic.debugbreak", "NonSemantic.DebugBreak", false, "DebugBreak", false),
    ("nonsemantic.vkspreflection", "NonSemantic.VkspReflection", false, "VkspReflection", false),
    ("spv-amd-gcn-shader", "SPV_AMD_gcn_shader", false, "AmdGcnShader", true),
    ("spv-amd-shader-ballot", "SPV_AMD_shader_ballot", false, "AmdShaderBallot", true),
    (
        "spv-amd-shader-explicit-vertex-parameter",
        "SPV_AMD_shader_explicit_vertex_parameter",
        false,
        "AmdExplicitVertexParameter",
        true,
    ),
    ("spv-amd-shader-trinary-minmax", "SPV_AMD_shader_trinary_minmax", false, "AmdTrinaryMinmax", true),
    ("tosa.001000.1", "TOSA.001000.1", false, "Tosa", true),
    ("arm.motion-engine.100", "Arm.MotionEngine.100", false, "ArmMotionEngine", true),
];

struct Kind {
    ident: String,
    name: String,
    category: String,
    enumerants: Vec<JsonEnumerant>,
    bases: Vec<String>,
    /// Index of the grammar the kind belongs to (0 = core).
    scope: usize,
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let grammar_dir = manifest.join("grammar");
    println!("cargo:rerun-if-changed={}", grammar_dir.display());
    println!("cargo:rerun-if-changed=build.rs");

    let core: CoreGrammar = read_json(&grammar_dir.join("spirv.core.grammar.json"));
    let mut exts = Vec::new();
    for (stem, import, prefix, ident, known) in EXT_IMPORTS {
        let path = grammar_dir.join(format!("extinst.{stem}.grammar.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let g: ExtGrammar = read_json(&path);
        exts.push((*import, *prefix, *ident, *known, g));
    }
    // Every vendored ext grammar must be mapped above, or it would silently vanish.
    for entry in std::fs::read_dir(&grammar_dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_prefix("extinst.").and_then(|s| s.strip_suffix(".grammar.json")) {
            assert!(
                EXT_IMPORTS.iter().any(|e| e.0 == stem),
                "grammar/{name} has no import name in build.rs EXT_IMPORTS"
            );
        }
    }

    // Operand kinds: core ones first, then each ext set's own kinds.
    let mut kinds: Vec<Kind> = Vec::new();
    for k in core.operand_kinds {
        kinds.push(Kind {
            ident: k.kind.clone(),
            name: k.kind,
            category: k.category,
            enumerants: k.enumerants,
            bases: k.bases,
            scope: 0,
        });
    }
    for (i, (_, _, ident, _, g)) in exts.iter_mut().enumerate() {
        for k in std::mem::take(&mut g.operand_kinds) {
            kinds.push(Kind {
                ident: format!("{ident}{}", k.kind),
                name: k.kind,
                category: k.category,
                enumerants: k.enumerants,
                bases: k.bases,
                scope: i + 1,
            });
        }
    }
    let resolve = |scope: usize, name: &str| -> usize {
        kinds
            .iter()
            .position(|k| k.scope == scope && k.name == name)
            .or_else(|| kinds.iter().position(|k| k.scope == 0 && k.name == name))
            .unwrap_or_else(|| panic!("unknown operand kind {name}"))
    };
    let capability_kind = resolve(0, "Capability");
    let capability_value = |name: &str| -> u32 {
        kinds[capability_kind]
            .enumerants
            .iter()
            .find(|e| e.enumerant == name || e.aliases.iter().any(|a| a == name))
            .map(|e| parse_value(&e.value))
            .unwrap_or_else(|| panic!("unknown capability {name}"))
    };

    let mut out = String::new();
    writeln!(out, "// Generated by build.rs from grammar/*.json. Do not edit.\n").unwrap();
    writeln!(
        out,
        "/// Version of the core grammar the tables were built from.\npub const GRAMMAR_VERSION: (u32, u32, u32) = ({}, {}, {});\n",
        core.major_version, core.minor_version, core.revision
    )
    .unwrap();

    // OperandKind enum.
    writeln!(out, "/// Every operand kind of the core and extended grammars.").unwrap();
    writeln!(out, "#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]\n#[repr(u16)]\npub enum OperandKind {{").unwrap();
    for (i, k) in kinds.iter().enumerate() {
        // Doc comments for every generated public item, so the crate's
        // `missing_docs` holds here too: what the grammar says of it.
        let set = match k.scope {
            0 => String::new(),
            s => format!(" of the `{}` set", exts[s - 1].0),
        };
        writeln!(out, "    /// `{}`{set} ({}).\n    {} = {i},", k.name, k.category, k.ident).unwrap();
    }
    writeln!(out, "}}\n").unwrap();

    let operands_lit = |scope: usize, ops: &[JsonOperand]| -> String {
        let mut s = String::from("&[");
        for o in ops {
            let q = match o.quantifier.as_deref() {
                None => "One",
                Some("?") => "Optional",
                Some("*") => "Variadic",
                Some(other) => panic!("bad quantifier {other}"),
            };
            let k = resolve(scope, &o.kind);
            write!(
                s,
                "OperandSpec {{ kind: OperandKind::{}, quantifier: Quantifier::{q}, name: {:?} }},",
                kinds[k].ident,
                o.name.as_deref().unwrap_or("")
            )
            .unwrap();
        }
        s.push(']');
        s
    };
    let caps_lit = |caps: &[String]| -> String {
        let v: Vec<String> = caps.iter().map(|c| capability_value(c).to_string()).collect();
        format!("&[{}]", v.join(","))
    };

    // Kind table.
    writeln!(out, "/// Per-kind information, indexed by `OperandKind as usize`.").unwrap();
    writeln!(out, "pub(crate) const KIND_COUNT: usize = {};", kinds.len()).unwrap();
    writeln!(out, "pub(crate) static KINDS: [KindInfo; KIND_COUNT] = [").unwrap();
    for k in &kinds {
        let mut enums: Vec<&JsonEnumerant> = k.enumerants.iter().collect();
        enums.sort_by_key(|e| parse_value(&e.value));
        // Which enumerants take no parameters, as a bitmask the reader tests
        // in one step: values below 64 for value enums; for bit enums the
        // single bits in the low half and the value 0 in bit 32.
        let mut plain_mask = 0u64;
        for e in &enums {
            let v = parse_value(&e.value);
            if !e.parameters.is_empty() {
                continue;
            }
            match k.category.as_str() {
                "ValueEnum" if v < 64 => plain_mask |= 1 << v,
                "BitEnum" if v == 0 => plain_mask |= 1 << 32,
                "BitEnum" if v.is_power_of_two() => plain_mask |= v as u64,
                _ => {}
            }
        }
        if k.category == "BitEnum" && !enums.iter().any(|e| parse_value(&e.value) == 0) {
            plain_mask |= 1 << 32;
        }
        let mut es = String::from("&[");
        for e in enums {
            write!(
                es,
                "Enumerant {{ name: {:?}, value: {}, parameters: {}, capabilities: {}, extensions: &{:?}, version: {}, last_version: {}, aliases: &{:?}, provisional: {} }},",
                e.enumerant,
                parse_value(&e.value),
                operands_lit(k.scope, &e.parameters),
                caps_lit(&e.capabilities),
                e.extensions,
                version_lit(e.version.as_deref()),
                version_lit(e.last_version.as_deref()),
                e.aliases,
                e.provisional
            )
            .unwrap();
        }
        es.push(']');
        let bases: Vec<String> =
            k.bases.iter().map(|b| format!("OperandKind::{}", kinds[resolve(k.scope, b)].ident)).collect();
        writeln!(
            out,
            "    KindInfo {{ name: {:?}, category: Category::{}, enumerants: {es}, bases: &[{}], plain_mask: {plain_mask:#x} }},",
            k.name,
            k.category,
            bases.join(",")
        )
        .unwrap();
    }
    writeln!(out, "];\n").unwrap();

    // Core instructions, sorted by opcode.
    let mut insts = core.instructions;
    insts.sort_by_key(|i| i.opcode);
    let max_opcode = insts.iter().map(|i| i.opcode).max().unwrap();
    writeln!(out, "/// How many instructions [`INSTRUCTIONS`] has.").unwrap();
    writeln!(out, "pub const INSTRUCTION_COUNT: usize = {};", insts.len()).unwrap();
    writeln!(out, "/// Core instructions, sorted by opcode.").unwrap();
    writeln!(out, "pub static INSTRUCTIONS: [InstructionInfo; INSTRUCTION_COUNT] = [").unwrap();
    for i in &insts {
        let has_type = i.operands.first().is_some_and(|o| o.kind == "IdResultType");
        let has_result = i.operands.iter().take(2).any(|o| o.kind == "IdResult");
        // Leading operands that are ids or one-word integers, exactly once:
        // the reader takes them without its operand stack. A last operand
        // of that sort that is optional or repeated is taken fast too.
        let plain = |o: &JsonOperand| {
            let k = &kinds[resolve(0, &o.kind)];
            matches!(k.category.as_str(), "Id" | "ValueEnum" | "BitEnum") || k.name == "LiteralInteger"
        };
        let fast_prefix = i.operands.iter().take_while(|o| plain(o) && o.quantifier.is_none()).count();
        let fast_tail = fast_prefix + 1 == i.operands.len() && plain(&i.operands[fast_prefix]);
        let string_tail = fast_prefix + 1 == i.operands.len()
            && i.operands[fast_prefix].kind == "LiteralString"
            && i.operands[fast_prefix].quantifier.is_none()
            && i.opname != "OpExtInstImport";
        writeln!(
            out,
            "    InstructionInfo {{ name: {:?}, opcode: {}, class: {:?}, operands: {}, capabilities: {}, extensions: &{:?}, version: {}, last_version: {}, aliases: &{:?}, provisional: {}, has_result_type: {has_type}, has_result: {has_result}, declares_type: {}, fast_prefix: {fast_prefix}, fast_tail: {fast_tail}, string_tail: {string_tail} }},",
            i.opname,
            i.opcode,
            i.class,
            operands_lit(0, &i.operands),
            caps_lit(&i.capabilities),
            i.extensions,
            version_lit(i.version.as_deref()),
            version_lit(i.last_version.as_deref()),
            i.aliases,
            i.provisional,
            i.class == "Type-Declaration" && has_result
        )
        .unwrap();
    }
    writeln!(out, "];\n").unwrap();
    let mut index = vec![u16::MAX; max_opcode as usize + 1];
    for (n, i) in insts.iter().enumerate() {
        index[i.opcode as usize] = n as u16;
    }
    writeln!(out, "/// Maps an opcode to its position in `INSTRUCTIONS` (`u16::MAX`: none).").unwrap();
    writeln!(out, "pub(crate) static OPCODE_INDEX: [u16; {}] = {:?};\n", index.len(), index).unwrap();
    let mut names: Vec<(String, usize)> = Vec::new();
    for (n, i) in insts.iter().enumerate() {
        names.push((i.opname.clone(), n));
        for a in &i.aliases {
            names.push((a.clone(), n));
        }
    }
    names.sort();
    writeln!(out, "/// Opcode names and aliases, sorted, with their position in `INSTRUCTIONS`.").unwrap();
    writeln!(out, "pub(crate) static OPCODE_NAMES: [(&str, u16); {}] = [", names.len()).unwrap();
    for (name, n) in &names {
        writeln!(out, "    ({name:?}, {n}),").unwrap();
    }
    writeln!(out, "];\n").unwrap();

    // Opcode constants named as in the specification.
    writeln!(
        out,
        "/// Opcode constants, named as in the specification.\n///\n/// ```\n/// use gpuasm_spirv::grammar::{{instruction, op}};\n/// assert_eq!(op::OpTypeVoid, 19);\n/// assert_eq!(instruction(op::OpTypeVoid).unwrap().name, \"OpTypeVoid\");\n/// ```\n#[allow(non_upper_case_globals)]\npub mod op {{"
    )
    .unwrap();
    for i in &insts {
        match i.class.as_str() {
            "" => writeln!(out, "    /// `{}` (opcode {}).", i.opname, i.opcode).unwrap(),
            class => writeln!(out, "    /// `{}` (opcode {}, class {class}).", i.opname, i.opcode).unwrap(),
        }
        writeln!(out, "    pub const {}: u16 = {};", i.opname, i.opcode).unwrap();
    }
    writeln!(out, "}}\n").unwrap();

    // Enumerant constants for every core value or bit enum.
    for k in kinds.iter().filter(|k| k.scope == 0 && !k.enumerants.is_empty()) {
        // The example names the kind's last enumerant, so each module's
        // doctest reads a different entry of the table.
        let last = k.enumerants.last().expect("non-empty");
        let last_ident = if last.enumerant.chars().next().unwrap().is_ascii_digit() {
            format!("_{}", last.enumerant)
        } else {
            last.enumerant.clone()
        };
        writeln!(
            out,
            "/// `{name}` enumerant values, named as in the grammar: the constants\n\
             /// the library matches on, and whose names and requirements\n\
             /// [`OperandKind::{kind}`] gives.\n\
             ///\n\
             /// ```\n\
             /// use gpuasm_spirv::grammar::{{{module}, OperandKind}};\n\
             /// let e = OperandKind::{kind}.enumerant({module}::{ident}).unwrap();\n\
             /// assert_eq!(e.name, \"{enumerant}\");\n\
             /// ```\n\
             #[allow(non_upper_case_globals, dead_code)]\npub mod {module} {{",
            name = k.name,
            kind = k.ident,
            module = snake(&k.name),
            ident = last_ident,
            enumerant = last.enumerant,
        )
        .unwrap();
        for e in &k.enumerants {
            let ident = if e.enumerant.chars().next().unwrap().is_ascii_digit() {
                format!("_{}", e.enumerant)
            } else {
                e.enumerant.clone()
            };
            let value = parse_value(&e.value);
            match k.category.as_str() {
                "BitEnum" => writeln!(out, "    /// `{}` = {value:#x} in `{}`.", e.enumerant, k.name).unwrap(),
                _ => writeln!(out, "    /// `{}` = {value} in `{}`.", e.enumerant, k.name).unwrap(),
            }
            writeln!(out, "    pub const {ident}: u32 = {value};").unwrap();
        }
        writeln!(out, "}}\n").unwrap();
    }

    // Extended instruction sets.
    writeln!(out, "/// Extended instruction sets, in import-name lookup order.").unwrap();
    writeln!(out, "pub static EXT_INST_SETS: [ExtInstSet; {}] = [", exts.len()).unwrap();
    for (scope0, (import, prefix, _, known, g)) in exts.iter().enumerate() {
        let scope = scope0 + 1;
        let mut v: Vec<&JsonInstruction> = g.instructions.iter().collect();
        v.sort_by_key(|i| i.opcode);
        let mut s = String::from("&[");
        for i in v {
            write!(
                s,
                "ExtInstInfo {{ name: {:?}, opcode: {}, operands: {}, capabilities: {}, extensions: &{:?}, all_ids: {} }},",
                i.opname,
                i.opcode,
                operands_lit(scope, &i.operands),
                caps_lit(&i.capabilities),
                i.extensions,
                i.operands.iter().all(|o| o.quantifier.is_none() && kinds[resolve(scope, &o.kind)].category == "Id")
            )
            .unwrap();
        }
        s.push(']');
        writeln!(
            out,
            "    ExtInstSet {{ import_name: {import:?}, match_prefix: {prefix}, non_semantic: {}, known_to_spirv_tools: {known}, revision: {}, instructions: {s} }},",
            import.starts_with("NonSemantic."),
            g.revision
        )
        .unwrap();
    }
    writeln!(out, "];\n").unwrap();

    // Generator registry (tool id -> name), as recorded by scripts/update-grammar.
    let gens = std::fs::read_to_string(grammar_dir.join("generators.tsv")).expect("grammar/generators.tsv");
    let mut gen_map = BTreeMap::new();
    for line in gens.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (id, name) = line.split_once('\t').expect("generators.tsv: tab");
        gen_map.insert(id.parse::<u16>().unwrap(), name.to_string());
    }
    writeln!(out, "/// Registered generator tools, sorted by tool id.").unwrap();
    writeln!(out, "pub(crate) static GENERATORS: [(u16, &str); {}] = [", gen_map.len()).unwrap();
    for (id, name) in gen_map {
        writeln!(out, "    ({id}, {name:?}),").unwrap();
    }
    writeln!(out, "];").unwrap();

    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("tables.rs");
    std::fs::write(dest, out).unwrap();
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> T {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse_value(v: &serde_json::Value) -> u32 {
    match v {
        serde_json::Value::Number(n) => n.as_u64().unwrap() as u32,
        serde_json::Value::String(s) => {
            let s = s.trim_start_matches("0x").trim_start_matches("0X");
            u32::from_str_radix(s, 16).unwrap()
        }
        _ => panic!("bad enumerant value {v}"),
    }
}

fn version_lit(v: Option<&str>) -> String {
    match v {
        None | Some("None") => "None".into(),
        Some(s) => {
            let (a, b) = s.split_once('.').unwrap();
            format!("Some(Version({a}, {b}))")
        }
    }
}

fn snake(name: &str) -> String {
    let mut s = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev_lower = chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit();
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev_lower || (next_lower && chars[i - 1].is_ascii_uppercase()) {
                s.push('_');
            }
        }
        s.push(c.to_ascii_lowercase());
    }
    s
}

//! High-level source positions from a module's debug information: for each
//! instruction, the file, line and column of the shader source it came
//! from, and that line's text when the module carries the source.
//!
//! Two kinds of line information are read, and whichever was set last is in
//! effect:
//! - `OpLine %file line column` (`%file` an `OpString`), until `OpNoLine`,
//!   the next line instruction, or the end of the block (spec 2.4: the
//!   terminator is the last instruction it covers; `OpFunctionEnd` ends it
//!   too);
//! - `NonSemantic.Shader.DebugInfo.100`'s `DebugLine %source %line_start
//!   %line_end %column_start %column_end` (`%source` a `DebugSource`, the
//!   numbers `OpConstant`s), until `DebugNoLine` or as above.
//!   `DebugScope` does not matter here.
//!
//! Line 0 means no position (glslang writes `DebugLine` with line 0 at a
//! function's start).
//!
//! The text of a file is the `OpSource` naming its `OpString` (with each
//! `OpSourceContinued` after it), or the text of a `DebugSource` of it
//! (with each `DebugSourceContinued` after it). Lines are counted as the
//! GLSL/HLSL preprocessor does: `#line N` makes the next line number `N`
//! (glslang puts its own comments and `#line 1` before the shader's text).
//!
//! ```
//! use gpuasm_spirv::module::Module;
//! let source = "#version 450\nvoid main()\n{\n    discard;\n}\n";
//! let text = format!(
//!     "OpCapability Shader
//!      OpMemoryModel Logical GLSL450
//!      %file = OpString \"shader.frag\"
//!      OpSource GLSL 450 %file \"{source}\"
//!      %void = OpTypeVoid
//!      %fn = OpTypeFunction %void
//!      %main = OpFunction %void None %fn
//!      %entry = OpLabel
//!      OpLine %file 4 5
//!      OpKill
//!      OpFunctionEnd"
//! );
//! let words = gpuasm_spirv::text::assemble(&text, &Default::default()).unwrap();
//! let module = Module::read(&words).unwrap();
//! let kill = 9; // the instruction's index in the module
//! let at = module.source_position(kill).unwrap();
//! assert_eq!((at.file, at.line, at.column), ("shader.frag", 4, 5));
//! assert_eq!(at.source_line_text(), Some("    discard;"));
//! assert_eq!(at.to_string(), "shader.frag:4:5");
//! // What a diagnostic prints under its message.
//! let note = gpuasm_spirv::module::source_lines::source_note(&module, kill).unwrap();
//! assert_eq!(note, " --> shader.frag:4:5\n  |\n4 |     discard;\n  |     ^\n");
//! // After the block's end, no position is in effect.
//! assert!(module.source_position(10).is_none()); // OpFunctionEnd
//! ```

use super::Module;
use crate::binary::ExtSet;
use crate::grammar::op;
use rustc_hash::FxHashMap;
use std::fmt;

/// The import name of the debug-information set read here.
const SHADER_DEBUG_INFO: &str = "NonSemantic.Shader.DebugInfo.100";

/// Where an instruction came from in the high-level source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourcePosition<'m> {
    /// The file's name, as its `OpString` gives it.
    pub file: &'m str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column; 0 when the compiler did not record one (glslang
    /// writes 0 for most lines).
    pub column: u32,
    /// The whole text of the file, when the module carries it.
    pub text: Option<&'m str>,
}

impl<'m> SourcePosition<'m> {
    /// The text of the line (without its line break), when the module
    /// carries the file's text and it has that line.
    pub fn source_line_text(&self) -> Option<&'m str> {
        let mut number = 1u32;
        for line in self.text?.lines() {
            if let Some(next) = line_directive(line) {
                number = next;
                continue;
            }
            if number == self.line {
                return Some(line.strip_suffix('\r').unwrap_or(line));
            }
            number = number.saturating_add(1);
        }
        None
    }
}

/// `file:line:column`, or `file:line` without a column.
impl fmt::Display for SourcePosition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if self.column != 0 {
            write!(f, ":{}", self.column)?;
        }
        Ok(())
    }
}

/// `N` for a `#line N` (or `# line N "file"`) preprocessor line.
fn line_directive(line: &str) -> Option<u32> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("line")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let digits: &str = rest.trim_start().split(|c: char| !c.is_ascii_digit()).next()?;
    digits.parse().ok()
}

/// The source note a diagnostic about instruction `i` prints under its
/// message: the position and, when the module carries the text, the line
/// with a caret under the column (rustc's layout). `None` when no position
/// is in effect at `i`.
///
/// ```text
///   --> shader.frag:15:9
///    |
/// 15 |         c.g = brighten(c.g);
///    |         ^
/// ```
pub fn source_note(module: &Module<'_>, i: usize) -> Option<String> {
    let at = module.source_position(i)?;
    let number = at.line.to_string();
    let pad = " ".repeat(number.len());
    let mut out = format!("{pad}--> {at}\n");
    if let Some(line) = at.source_line_text() {
        out += &format!("{pad} |\n{number} | {line}\n");
        if at.column != 0 {
            // Tabs stay tabs so that the caret lines up in any terminal.
            let before: String =
                line.chars().take(at.column as usize - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
            out += &format!("{pad} | {before}^\n");
        }
    }
    Some(out)
}

/// The positions of every instruction of a module, found once.
#[derive(Debug, Default)]
pub(crate) struct SourceLines {
    files: Vec<File>,
    /// By instruction index; empty when the module has no line information.
    at: Vec<Option<Position>>,
}

#[derive(Debug)]
struct File {
    name: String,
    text: Option<String>,
}

#[derive(Clone, Copy, Debug)]
struct Position {
    file: u32,
    line: u32,
    column: u32,
}

impl SourceLines {
    /// Reads the module's strings, sources and line instructions.
    pub(crate) fn find(m: &Module<'_>) -> SourceLines {
        let mut strings: FxHashMap<u32, String> = FxHashMap::default();
        // OpString id → index in `files`, made on first use.
        let mut file_of: FxHashMap<u32, u32> = FxHashMap::default();
        // DebugSource id → its file's OpString id.
        let mut debug_sources: FxHashMap<u32, u32> = FxHashMap::default();
        let mut files: Vec<File> = Vec::new();
        let mut file_index = |files: &mut Vec<File>, strings: &FxHashMap<u32, String>, id: u32| -> u32 {
            *file_of.entry(id).or_insert_with(|| {
                let name = strings.get(&id).cloned().unwrap_or_else(|| format!("%{id}"));
                files.push(File { name, text: None });
                files.len() as u32 - 1
            })
        };
        // The file whose text the last OpSource / DebugSource started.
        let mut continuing: Option<u32> = None;
        let mut any_lines = false;
        for i in 0..m.insts.len() {
            let inst = m.view(i);
            let w = inst.words;
            match inst.opcode {
                op::OpString if w.len() >= 3 => {
                    strings.insert(w[1], String::from_utf8_lossy(inst.string(1)).into_owned());
                }
                op::OpSource => {
                    continuing = None;
                    if inst.operands.len() >= 3 {
                        let f = file_index(&mut files, &strings, inst.word(2));
                        if inst.operands.len() >= 4 {
                            files[f as usize].text = Some(String::from_utf8_lossy(inst.string(3)).into_owned());
                            continuing = Some(f);
                        }
                    }
                }
                op::OpSourceContinued if !inst.operands.is_empty() => {
                    if let Some(text) = continuing.and_then(|f| files[f as usize].text.as_mut()) {
                        text.push_str(&String::from_utf8_lossy(inst.string(0)));
                    }
                }
                op::OpLine | op::OpNoLine => any_lines = true,
                op::OpExtInst => match debug_instruction(&inst) {
                    Some("DebugSource") if w.len() >= 6 => {
                        debug_sources.insert(w[2], w[5]);
                        let f = file_index(&mut files, &strings, w[5]);
                        continuing = None;
                        if let Some(text) = w.get(6).and_then(|id| strings.get(id)) {
                            files[f as usize].text = Some(text.clone());
                            continuing = Some(f);
                        }
                    }
                    Some("DebugSourceContinued") if w.len() >= 6 => {
                        let more = strings.get(&w[5]);
                        if let (Some(text), Some(more)) =
                            (continuing.and_then(|f| files[f as usize].text.as_mut()), more)
                        {
                            text.push_str(more);
                        }
                    }
                    Some("DebugLine" | "DebugNoLine") => any_lines = true,
                    _ => {}
                },
                _ => {}
            }
        }
        if !any_lines {
            return SourceLines { files, at: Vec::new() };
        }

        let mut at = Vec::with_capacity(m.insts.len());
        let mut current: Option<Position> = None;
        for i in 0..m.insts.len() {
            let inst = m.view(i);
            let w = inst.words;
            match inst.opcode {
                op::OpLine if w.len() >= 4 => {
                    let file = file_index(&mut files, &strings, w[1]);
                    current = (w[2] != 0).then_some(Position { file, line: w[2], column: w[3] });
                }
                op::OpNoLine => current = None,
                op::OpExtInst => match debug_instruction(&inst) {
                    Some("DebugLine") if w.len() >= 10 => {
                        let file = debug_sources.get(&w[5]).map(|&s| file_index(&mut files, &strings, s));
                        let line = m.constant_value(w[6]);
                        current = match (file, line) {
                            (Some(file), Some(line)) if line != 0 => {
                                Some(Position { file, line, column: m.constant_value(w[8]).unwrap_or(0) })
                            }
                            _ => None,
                        };
                    }
                    Some("DebugNoLine") => current = None,
                    _ => {}
                },
                _ => {}
            }
            at.push(current);
            if super::functions::TERMINATOR_SET.contains(inst.opcode) || inst.opcode == op::OpFunctionEnd {
                current = None;
            }
        }
        SourceLines { files, at }
    }

    /// The position in effect at instruction `i`.
    pub(crate) fn position(&self, i: usize) -> Option<SourcePosition<'_>> {
        let p = (*self.at.get(i)?)?;
        let file = &self.files[p.file as usize];
        Some(SourcePosition { file: &file.name, line: p.line, column: p.column, text: file.text.as_deref() })
    }
}

/// The name of a `NonSemantic.Shader.DebugInfo.100` instruction.
fn debug_instruction(inst: &crate::binary::Instruction<'_>) -> Option<&'static str> {
    match inst.ext_set {
        Some(ExtSet::Known(set)) if set.import_name == SHADER_DEBUG_INFO => {
            set.instruction(*inst.words.get(4)?).map(|ei| ei.name)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shader both test modules were compiled from, and the modules:
    /// `glslangValidator -V -g` (OpLine, OpSource with the text) and
    /// `-V -gVS` (NonSemantic.Shader.DebugInfo.100 too, with DebugSource
    /// holding the text).
    const SHADER: &str = include_str!("../../tests/data/source_lines/shader.frag");
    const G: &[u8] = include_bytes!("../../tests/data/source_lines/g.spv");
    const GVS: &[u8] = include_bytes!("../../tests/data/source_lines/gvs.spv");

    fn words(bytes: &[u8]) -> Vec<u32> {
        crate::binary::words_from_bytes(bytes).unwrap().0
    }

    /// Index of the `n`th instruction with `opcode`.
    fn nth(m: &Module<'_>, opcode: u16, n: usize) -> usize {
        (0..m.insts.len()).filter(|&i| m.opcode(i) == opcode).nth(n).unwrap()
    }

    /// Every position names shader.frag and a line whose text is that
    /// line of the shader, and the instructions we know land where the
    /// shader has them.
    fn check(bytes: &[u8]) {
        let words = words(bytes);
        let m = Module::read(&words).unwrap();
        let shader: Vec<&str> = SHADER.lines().collect();
        let mut positioned = 0;
        for i in 0..m.insts.len() {
            if let Some(at) = m.source_position(i) {
                assert_eq!(at.file, "shader.frag");
                assert_eq!(at.source_line_text(), Some(shader[at.line as usize - 1]), "instruction {i}, {at}");
                positioned += 1;
            }
        }
        assert!(positioned > 20, "{positioned}");
        let line = |i: usize| m.source_position(i).map(|p| p.line);
        // `c.g = brighten(c.g);`, `return x * 1.5;`, `outColor = c;`.
        assert_eq!(line(nth(&m, op::OpFunctionCall, 0)), Some(15));
        assert_eq!(line(nth(&m, op::OpFMul, 0)), Some(8));
        assert_eq!(line(nth(&m, op::OpReturnValue, 0)), Some(8));
        // `if (c.r > 0.5)`, and its branch, the block's last instruction.
        let compare = nth(&m, op::OpFOrdGreaterThan, 0);
        assert_eq!(line(compare), Some(14));
        assert_eq!(line(nth(&m, op::OpBranchConditional, 0)), Some(14));
        // The next block's label: the branch ended the line's scope.
        assert_eq!(line(nth(&m, op::OpBranchConditional, 0) + 1), None);
        let store = (0..m.insts.len()).rfind(|&i| m.opcode(i) == op::OpStore).unwrap();
        assert_eq!(line(store), Some(17));
        let note = source_note(&m, store).unwrap();
        assert_eq!(note.lines().nth(2), Some("17 |     outColor = c;"), "{note}");
    }

    #[test]
    fn op_line_positions_match_the_glsl_source() {
        check(G);
    }

    #[test]
    fn debug_line_positions_match_the_glsl_source() {
        check(GVS);
        // There, the lines come from DebugLine: OpLine is only before the
        // functions, and DebugSource holds the text.
        let words = words(GVS);
        let m = Module::read(&words).unwrap();
        let call = nth(&m, op::OpFunctionCall, 0);
        let last_line = (0..call).rev().find(|&i| m.opcode(i) == op::OpExtInst || m.opcode(i) == op::OpLine).unwrap();
        assert_eq!(debug_instruction(&m.view(last_line)), Some("DebugLine"));
        assert!(!(0..m.insts.len()).any(|i| m.opcode(i) == op::OpSource && m.operands(i).len() >= 4));
    }

    #[test]
    fn no_line_information() {
        let words =
            crate::text::assemble("OpCapability Shader\nOpMemoryModel Logical GLSL450\n", &Default::default()).unwrap();
        let m = Module::read(&words).unwrap();
        assert!(m.source_position(0).is_none() && m.source_position(5).is_none());
        assert!(source_note(&m, 0).is_none());
    }

    #[test]
    fn line_directives_and_columns() {
        let at = SourcePosition { file: "a.hlsl", line: 7, column: 3, text: Some("x\n#line 6\nsix\n\tseven\r\n") };
        assert_eq!(at.source_line_text(), Some("\tseven"));
        assert_eq!(SourcePosition { column: 0, ..at }.to_string(), "a.hlsl:7");
        assert_eq!(line_directive("  #  line 12 \"f.glsl\""), Some(12));
        assert_eq!(line_directive("#lines 12"), None);
        assert_eq!(SourcePosition { line: 9, ..at }.source_line_text(), None);
    }
}

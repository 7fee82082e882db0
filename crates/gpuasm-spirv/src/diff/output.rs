//! The diff's text: both modules walked section by section in src's order,
//! unpaired src instructions marked `-`, unpaired dst ones `+` (printed
//! with src's ids, fresh ids for those src lacks), paired ones once with ` `
//! when identical or as a `-`/`+` pair when not. Instructions are printed
//! by the disassembler's printer with raw ids, as spirv-diff prints them;
//! `--with-id-map` appends the id pairing.

use super::matching::{Differ, Which};
use super::side::is_id;
use crate::binary::Instruction;
use crate::dis::{write_header_generator, write_header_number, write_header_version, DisOptions, Printer};
use crate::module::names::IdNames;

const RED: &[u8] = b"\x1b[31m";
const GREEN: &[u8] = b"\x1b[32m";
const RESET: &[u8] = b"\x1b[0m";

impl Differ<'_> {
    /// Gives unpaired ids fresh counterparts, then writes the diff.
    pub fn output(&mut self) -> Vec<u8> {
        let (src, dst) = (&self.src, &self.dst);
        self.map.map_unmatched(|id| src.is_defined(id), |id| dst.is_defined(id));
        self.src.grow(self.map.src_to_dst.bound());
        self.dst.grow(self.map.dst_to_src.bound());

        let opts = DisOptions::default().header(false).friendly_names(false).indent(self.options.indent);
        let names = IdNames::raw();
        let mut p = Printer::new(&opts, &names, Vec::new(), None).printing_like_spirv_diff();

        if !self.options.no_header {
            let (sh, dh) = (self.src.m.header(), self.dst.m.header());
            p.out().extend_from_slice(b" ; SPIR-V\n");
            let mapped_bound = self.map.src_to_dst.bound();
            self.header_line(
                &mut p,
                sh.version == dh.version,
                |o| write_header_version(o, sh.version),
                |o| write_header_version(o, dh.version),
            );
            self.header_line(
                &mut p,
                sh.generator == dh.generator,
                |o| write_header_generator(o, sh.generator),
                |o| write_header_generator(o, dh.generator),
            );
            self.header_line(
                &mut p,
                self.src.bound == mapped_bound,
                |o| write_header_number(o, b"; Bound: ", self.src.bound),
                |o| write_header_number(o, b"; Bound: ", mapped_bound),
            );
            self.header_line(
                &mut p,
                sh.schema == dh.schema,
                |o| write_header_number(o, b"; Schema: ", sh.schema),
                |o| write_header_number(o, b"; Schema: ", dh.schema),
            );
        }

        let (s, d) = (&self.src.layout, &self.dst.layout);
        self.section(&mut p, &s.capabilities, &d.capabilities);
        self.section(&mut p, &s.extensions, &d.extensions);
        self.section(&mut p, &s.ext_inst_imports, &d.ext_inst_imports);
        if let (Some(sm), Some(dm)) = (s.memory_model, d.memory_model) {
            if self.instructions_match(sm, dm) {
                p.out().push(b' ');
                self.write(&mut p, Which::Src, sm);
            } else {
                self.color(&mut p, RED);
                p.out().push(b'-');
                self.write(&mut p, Which::Src, sm);
                self.color(&mut p, GREEN);
                p.out().push(b'+');
                p.instruction(&self.dst.view(dm), None);
                self.color(&mut p, RESET);
            }
        }
        self.section(&mut p, &s.entry_points, &d.entry_points);
        self.section(&mut p, &s.execution_modes, &d.execution_modes);
        self.section(&mut p, &s.debugs1, &d.debugs1);
        self.section(&mut p, &s.debugs2, &d.debugs2);
        self.section(&mut p, &s.debugs3, &d.debugs3);
        self.section(&mut p, &s.ext_inst_debuginfo, &d.ext_inst_debuginfo);
        self.section(&mut p, &s.annotations, &d.annotations);
        self.section(&mut p, &s.types_values, &d.types_values);

        let header = |side: &super::side::Side<'_>, id: u32| {
            side.funcs.get(&id).map_or(Vec::new(), |&k| side.layout.function_header(&side.layout.functions[k]))
        };
        for (&sid, sb) in &self.src.bodies {
            let sh = header(&self.src, sid);
            let did = self.map.dst_id(sid);
            match self.dst.bodies.get(&did) {
                None => {
                    self.section(&mut p, &sh, &[]);
                    self.section(&mut p, sb, &[]);
                }
                Some(db) => {
                    self.section(&mut p, &sh, &header(&self.dst, did));
                    self.section(&mut p, sb, db);
                }
            }
        }
        for (&did, db) in &self.dst.bodies {
            if !self.src.bodies.contains_key(&self.map.src_id(did)) {
                self.section(&mut p, &[], &header(&self.dst, did));
                self.section(&mut p, &[], db);
            }
        }

        let mut out = std::mem::take(p.out());
        if self.options.dump_id_map {
            self.id_map(&mut out);
        }
        out
    }

    fn color(&self, p: &mut Printer<'_, '_>, code: &[u8]) {
        if self.options.color {
            p.out().extend_from_slice(code);
        }
    }

    fn header_line(&self, p: &mut Printer<'_, '_>, same: bool, src: impl Fn(&mut Vec<u8>), dst: impl Fn(&mut Vec<u8>)) {
        if same {
            p.out().push(b' ');
            src(p.out());
        } else {
            self.color(p, RED);
            p.out().push(b'-');
            src(p.out());
            self.color(p, GREEN);
            p.out().push(b'+');
            dst(p.out());
            self.color(p, RESET);
        }
    }

    /// Prints an instruction; a dst one with src's ids.
    fn write(&self, p: &mut Printer<'_, '_>, which: Which, i: usize) {
        match which {
            Which::Src => p.instruction(&self.src.view(i), None),
            Which::Dst => {
                let view = self.dst.view(i);
                let mut words = view.words.to_vec();
                for o in view.operands {
                    if is_id(o.kind) {
                        if let Some(w) = words.get_mut(o.offset as usize) {
                            *w = self.map.src_id(*w);
                        }
                    }
                }
                let mapped = |id: u32| if id != 0 { self.map.src_id(id) } else { 0 };
                let inst = Instruction {
                    words: &words,
                    result_id: mapped(view.result_id),
                    result_type: mapped(view.result_type),
                    ..view
                };
                p.instruction(&inst, None);
            }
        }
    }

    /// One section: unpaired src instructions, then unpaired dst ones, then
    /// the next src instruction with its pair, and so on.
    fn section(&self, p: &mut Printer<'_, '_>, src: &[usize], dst: &[usize]) {
        let (mut i, mut j) = (0, 0);
        while i < src.len() || j < dst.len() {
            self.color(p, RED);
            while i < src.len() && self.mapped_dst_inst(src[i]).is_none() {
                p.out().push(b'-');
                self.write(p, Which::Src, src[i]);
                i += 1;
            }
            self.color(p, GREEN);
            while j < dst.len() && self.mapped_src_inst(dst[j]).is_none() {
                p.out().push(b'+');
                self.write(p, Which::Dst, dst[j]);
                j += 1;
            }
            self.color(p, RESET);
            if i < src.len() && j < dst.len() {
                let s = src[i];
                let d = self.mapped_dst_inst(s).expect("an instruction paired above");
                if self.instructions_match(s, d) {
                    p.out().push(b' ');
                    self.write(p, Which::Src, s);
                } else {
                    self.color(p, RED);
                    p.out().push(b'-');
                    self.write(p, Which::Src, s);
                    self.color(p, GREEN);
                    p.out().push(b'+');
                    self.write(p, Which::Dst, d);
                    self.color(p, RESET);
                }
                i += 1;
                j += 1;
            } else if i < src.len() {
                // A paired instruction whose counterpart is not in this
                // section, and nothing left of dst's (spirv-diff loops
                // forever here): shown as removed.
                self.color(p, RED);
                p.out().push(b'-');
                self.write(p, Which::Src, src[i]);
                self.color(p, RESET);
                i += 1;
            } else if j < dst.len() {
                self.color(p, GREEN);
                p.out().push(b'+');
                self.write(p, Which::Dst, dst[j]);
                self.color(p, RESET);
                j += 1;
            }
        }
    }

    /// ` Src ->  Dst` and each paired src id, with its opcode.
    fn id_map(&self, out: &mut Vec<u8>) {
        use std::io::Write;
        out.extend_from_slice(b" Src ->  Dst\n");
        for id in 1..self.src.bound {
            let d = self.map.dst_id(id);
            if let (Some(i), true) = (self.src.inst(id), d != 0) {
                // spirv-diff names opcodes without their `Op`.
                let name = self.src.info(i).name;
                let _ = writeln!(out, "{id:>4} -> {d:>4} [{}]", name.strip_prefix("Op").unwrap_or(name));
            }
        }
    }
}

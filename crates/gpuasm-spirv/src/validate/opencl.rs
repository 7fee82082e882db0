//! Operand types of OpenCL.std extended instructions (the OpenCL Extended
//! Instruction Set specification), in spirv-val's words: each instruction
//! belongs to a family of one operand-type shape (float functions taking
//! operands of the result type, integer ones, pointer-writing ones, the
//! vector loads and stores, printf...), checked in spirv-val's order.

use super::shapes::shape;
use super::{ErrorKind, Report};
use crate::binary::ExtSet;
use crate::grammar::{op, ExtInstInfo};
use crate::module::Module;

/// The operand-type shape of one instruction.
#[derive(Copy, Clone, PartialEq)]
enum Family {
    /// A float scalar or vector with every operand of the result type (the
    /// math and common functions).
    FloatSame,
    /// Float result, X of its type, a pointer to the result type last
    /// (fract, modf, sincos).
    PointerSame,
    /// Float result, X (and for remquo Y) of its type, a pointer to 32-bit
    /// ints of as many components last (frexp, lgamma_r, remquo).
    PointerInt {
        y: bool,
    },
    /// A 32-bit int from a float X of as many components.
    Ilogb,
    /// Float result, X of its type, a 32-bit int exponent (ldexp, pown, rootn).
    Exponent,
    /// A float from an int Nancode of its width and components.
    Nan,
    /// An int scalar or vector with every operand of the result type.
    IntSame,
    /// As `IntSame`, limited to 32-bit ints (the 24-bit functions).
    Int24,
    /// An int of twice the width of the Hi and Lo operands.
    Upsample,
    Cross,
    /// distance, fast_distance.
    Distance,
    /// length, fast_length.
    Length,
    /// normalize, fast_normalize.
    Normalize,
    Bitselect,
    Select,
    Vloadn,
    Vstoren,
    VloadHalf,
    /// vload_halfn, vloada_halfn.
    VloadHalfn,
    /// The vstore_half family: a scalar or a vector of 32/64-bit floats.
    VstoreHalf {
        vector: bool,
    },
    Shuffle {
        two: bool,
    },
    Printf,
    Prefetch,
}

/// The family of an OpenCL.std instruction.
fn family(ei: &ExtInstInfo) -> Option<Family> {
    use Family::*;
    Some(match ei.name {
        "fract" | "modf" | "sincos" => PointerSame,
        "frexp" | "lgamma_r" => PointerInt { y: false },
        "remquo" => PointerInt { y: true },
        "ilogb" => Ilogb,
        "ldexp" | "pown" | "rootn" => Exponent,
        "nan" => Nan,
        "cross" => Cross,
        "distance" | "fast_distance" => Distance,
        "length" | "fast_length" => Length,
        "normalize" | "fast_normalize" => Normalize,
        "u_upsample" | "s_upsample" => Upsample,
        "s_mad24" | "u_mad24" | "s_mul24" | "u_mul24" => Int24,
        "vloadn" => Vloadn,
        "vstoren" => Vstoren,
        "vload_half" => VloadHalf,
        "vload_halfn" | "vloada_halfn" => VloadHalfn,
        "vstore_half" | "vstore_half_r" => VstoreHalf { vector: false },
        "vstore_halfn" | "vstore_halfn_r" | "vstorea_halfn" | "vstorea_halfn_r" => VstoreHalf { vector: true },
        "shuffle" => Shuffle { two: false },
        "shuffle2" => Shuffle { two: true },
        "printf" => Printf,
        "prefetch" => Prefetch,
        "bitselect" => Bitselect,
        "select" => Select,
        // The rest of the math and common functions (numbers 0-103) and of
        // the integer functions (141-170, 201-204).
        _ if ei.opcode <= 103 => FloatSame,
        _ if (141..=170).contains(&ei.opcode) || (201..=204).contains(&ei.opcode) => IntSame,
        _ => return None,
    })
}

// Storage classes (spec 3.7).
const UNIFORM_CONSTANT: u32 = 0;
const WORKGROUP: u32 = 4;
const CROSS_WORKGROUP: u32 = 5;
const FUNCTION: u32 = 7;
const GENERIC: u32 = 8;

/// Where results are written: Generic, CrossWorkgroup, Workgroup, Function.
const WRITABLE: &[u32] = &[GENERIC, CROSS_WORKGROUP, WORKGROUP, FUNCTION];
/// Where vectors are loaded from: also UniformConstant.
const READABLE: &[u32] = &[UNIFORM_CONSTANT, GENERIC, CROSS_WORKGROUP, WORKGROUP, FUNCTION];

pub(crate) fn check(m: &Module, r: &mut Report) {
    // size_t is as wide as the physical addressing model's pointers
    // (Physical32 = 1, Physical64 = 2); logical models have none.
    let size_t = match m.addressing_model() {
        Some(1) => 32,
        Some(2) => 64,
        _ => 0,
    };
    let relaxed_printf =
        super::capabilities::declared_extensions(m).contains(&b"SPV_EXT_relaxed_printf_string_address_space"[..]);
    for i in 0..m.insts.len() {
        let inst = &m.insts[i];
        if inst.opcode() != op::OpExtInst {
            continue;
        }
        let Some(ExtSet::Known(set)) = inst.ext_set() else { continue };
        if set.import_name != "OpenCL.std" {
            continue;
        }
        let Some(ei) = set.instruction(m.word(i, 3)) else { continue };
        let Some(family) = family(ei) else { continue };
        let c = Checker { m, i, size_t, relaxed_printf };
        if let Err(message) = c.problem(family) {
            r.error(ErrorKind::OperandType, i, format!("OpenCL.std {}{message}", ei.name));
            return;
        }
    }
}

/// A numeric (int or float) scalar or vector type.
#[derive(Copy, Clone)]
struct Num {
    float: bool,
    width: u32,
    /// 1 for a scalar.
    count: u32,
    vector: bool,
    /// The component type.
    scalar: u32,
}

struct Checker<'a, 'w> {
    m: &'a Module<'w>,
    i: usize,
    size_t: u32,
    relaxed_printf: bool,
}

/// `Err(message)` unless `ok`; messages start with ": " as spirv-val's
/// "<set> <name>: ..." do (or with a space for the addressing-model one).
fn ensure(ok: bool, message: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!(": {message}"))
    }
}

const COMPONENTS: &str = "expected Result Type to be a scalar or a vector with 2, 3, 4, 8 or 16 components";
const ALL_SAME: &str = "expected types of all operands to be equal to Result Type";

/// OpenCL's vector sizes: 2, 3, 4, 8 and 16.
fn opencl_count(count: u32) -> bool {
    count <= 4 || count == 8 || count == 16
}

impl Checker<'_, '_> {
    fn num(&self, t: u32) -> Option<Num> {
        let s = shape(self.m, t).filter(|s| matches!(s.base, op::OpTypeFloat | op::OpTypeInt))?;
        let vector = self.m.def_opcode(t) == Some(op::OpTypeVector);
        Some(Num { float: s.base == op::OpTypeFloat, width: s.width, count: s.count, vector, scalar: s.scalar })
    }

    fn float(&self, t: u32) -> Option<Num> {
        self.num(t).filter(|n| n.float)
    }

    fn int(&self, t: u32) -> Option<Num> {
        self.num(t).filter(|n| !n.float)
    }

    /// The type of argument operand `k` (4 is the first), 0 if absent.
    fn ty(&self, k: usize) -> u32 {
        if k < self.m.operands(self.i).len() {
            self.m.type_of(self.m.word(self.i, k))
        } else {
            0
        }
    }

    fn operand_count(&self) -> usize {
        self.m.operands(self.i).len()
    }

    /// A pointer type's storage class and pointee (0 for an untyped
    /// pointer), as spirv-val's GetPointerTypeInfo.
    fn pointer(&self, t: u32) -> Option<(u32, u32)> {
        match self.m.def_opcode(t)? {
            op::OpTypePointer => Some((self.m.def_word(t, 2)?, self.m.def_word(t, 3)?)),
            op::OpTypeUntypedPointerKHR => Some((self.m.def_word(t, 2)?, 0)),
            _ => None,
        }
    }

    /// Whether a type is or holds an untyped pointer (whose pointee
    /// spirv-val does not check).
    fn untyped(&self, t: u32) -> bool {
        self.untyped_within(t, 8)
    }

    /// `untyped` looking `depth` types deep (pointers may form cycles).
    fn untyped_within(&self, t: u32, depth: u32) -> bool {
        let m = self.m;
        let inner = |e: u32| depth > 0 && self.untyped_within(e, depth - 1);
        match m.def_opcode(t) {
            Some(op::OpTypeUntypedPointerKHR) => true,
            Some(op::OpTypeArray | op::OpTypeRuntimeArray | op::OpTypeVector | op::OpTypeMatrix) => {
                m.def_word(t, 2).is_some_and(inner)
            }
            Some(op::OpTypePointer) => m.def_word(t, 3).is_some_and(inner),
            Some(op::OpTypeStruct | op::OpTypeFunction) => {
                (2..m.operands_len_of(t) + 1).filter_map(|w| m.def_word(t, w)).any(inner)
            }
            _ => false,
        }
    }

    /// The pointer operand `k`: its storage class among `classes` (named
    /// `classes_words`), returning its pointee.
    fn pointer_operand(&self, k: usize, what: &str, classes: &[u32], classes_words: &str) -> Result<u32, String> {
        let Some((class, pointee)) = self.pointer(self.ty(k)) else {
            return Err(format!(": expected {what} to be a pointer"));
        };
        ensure(classes.contains(&class), classes_words)?;
        Ok(pointee)
    }

    /// A float result of OpenCL's sizes.
    fn float_result(&self) -> Result<Num, String> {
        let rt = self.m.result_type_word(self.i);
        let Some(result) = self.float(rt) else {
            return Err(": expected Result Type to be a float scalar or vector type".into());
        };
        ensure(opencl_count(result.count), COMPONENTS)?;
        Ok(result)
    }

    /// size_t offsets need a physical addressing model.
    fn size_t_operand(&self, k: usize, what: &str) -> Result<(), String> {
        if self.size_t == 0 {
            return Err(" can only be used with physical addressing models".into());
        }
        let ok = self.int(self.ty(k)).is_some_and(|n| !n.vector && n.width == self.size_t);
        ensure(
            ok,
            &format!(
                "expected operand {what} to be of type size_t ({}-bit integer for the addressing model used in the module)",
                self.size_t
            ),
        )
    }

    /// The half-float pointer of the vload/vstore_half families.
    fn half_pointer(&self, k: usize, classes: &[u32], classes_words: &str) -> Result<(), String> {
        let pointee = self.pointer_operand(k, "operand P", classes, classes_words)?;
        let half = self.float(pointee).is_some_and(|n| !n.vector && n.width == 16);
        ensure(half || self.untyped(self.ty(k)), "expected operand P data type to be 16-bit float scalar")
    }

    fn problem(&self, family: Family) -> Result<(), String> {
        use Family::*;
        let m = self.m;
        let rt = m.result_type_word(self.i);
        let n = self.operand_count();
        let writable = "expected storage class of the pointer to be Generic, CrossWorkgroup, Workgroup or Function";
        let p_writable = "expected operand P storage class to be Generic, CrossWorkgroup, Workgroup or Function";
        let p_readable =
            "expected operand P storage class to be UniformConstant, Generic, CrossWorkgroup, Workgroup or Function";
        match family {
            FloatSame => {
                self.float_result()?;
                ensure((4..n).all(|k| self.ty(k) == rt), ALL_SAME)
            }
            PointerSame => {
                self.float_result()?;
                ensure(self.ty(4) == rt, "expected type of operand X to be equal to Result Type")?;
                let pointee = self.pointer_operand(5, "the last operand", WRITABLE, writable)?;
                ensure(
                    self.untyped(self.ty(5)) || pointee == rt,
                    "expected data type of the pointer to be equal to Result Type",
                )
            }
            PointerInt { y } => {
                let result = self.float_result()?;
                ensure(self.ty(4) == rt, "expected type of operand X to be equal to Result Type")?;
                let mut k = 5;
                if y {
                    ensure(self.ty(5) == rt, "expected type of operand Y to be equal to Result Type")?;
                    k = 6;
                }
                let pointee = self.pointer_operand(k, "the last operand", WRITABLE, writable)?;
                let untyped = self.untyped(self.ty(k));
                let data = self.int(pointee);
                ensure(
                    untyped || data.is_some_and(|d| d.width == 32),
                    "expected data type of the pointer to be a 32-bit int scalar or vector type",
                )?;
                ensure(
                    untyped || data.is_some_and(|d| d.count == result.count),
                    "expected data type of the pointer to have the same number of components as Result Type",
                )
            }
            Ilogb => {
                let Some(result) = self.int(rt).filter(|r| r.width == 32) else {
                    return Err(": expected Result Type to be a 32-bit int scalar or vector type".into());
                };
                ensure(opencl_count(result.count), COMPONENTS)?;
                let x = self.float(self.ty(4));
                ensure(x.is_some(), "expected operand X to be a float scalar or vector")?;
                ensure(
                    x.is_some_and(|x| x.count == result.count),
                    "expected operand X to have the same number of components as Result Type",
                )
            }
            Exponent => {
                let result = self.float_result()?;
                ensure(self.ty(4) == rt, "expected type of operand X to be equal to Result Type")?;
                let exp = self.int(self.ty(5)).filter(|e| e.width == 32);
                ensure(exp.is_some(), "expected the exponent to be a 32-bit int scalar or vector")?;
                ensure(
                    exp.is_some_and(|e| e.count == result.count),
                    "expected the exponent to have the same number of components as Result Type",
                )
            }
            Nan => {
                let result = self.float_result()?;
                let code = self.int(self.ty(4));
                let Some(code) = code else {
                    return Err(": expected Nancode to be an int scalar or vector type".into());
                };
                ensure(
                    code.count == result.count,
                    "expected Nancode to have the same number of components as Result Type",
                )?;
                ensure(code.width == result.width, "expected Nancode to have the same bit width as Result Type")
            }
            IntSame | Int24 => {
                let result = self.int(rt);
                if family == Int24 {
                    ensure(
                        result.is_some_and(|r| r.width == 32),
                        "expected Result Type to be a 32-bit int scalar or vector type",
                    )?;
                } else {
                    ensure(result.is_some(), "expected Result Type to be an int scalar or vector type")?;
                }
                ensure(result.is_some_and(|r| opencl_count(r.count)), COMPONENTS)?;
                ensure((4..n).all(|k| self.ty(k) == rt), ALL_SAME)
            }
            Upsample => {
                let Some(result) = self.int(rt) else {
                    return Err(": expected Result Type to be an int scalar or vector type".into());
                };
                ensure(opencl_count(result.count), COMPONENTS)?;
                ensure(
                    matches!(result.width, 16 | 32 | 64),
                    "expected bit width of Result Type components to be 16, 32 or 64",
                )?;
                let (hi, lo) = (self.ty(4), self.ty(5));
                ensure(hi == lo, "expected Hi and Lo operands to have the same type")?;
                let hi = self.num(hi);
                ensure(
                    hi.is_some_and(|h| h.count == result.count),
                    "expected Hi and Lo operands to have the same number of components as Result Type",
                )?;
                ensure(
                    hi.is_some_and(|h| 2 * h.width == result.width),
                    "expected bit width of components of Hi and Lo operands to be half of the bit width of \
                     components of Result Type",
                )
            }
            Cross => {
                let result = self.float(rt).filter(|r| r.vector);
                ensure(result.is_some(), "expected Result Type to be a float vector type")?;
                ensure(
                    result.is_some_and(|r| matches!(r.count, 3 | 4)),
                    "expected Result Type to have 3 or 4 components",
                )?;
                ensure(self.ty(4) == rt, "expected operand X type to be equal to Result Type")?;
                ensure(self.ty(5) == rt, "expected operand Y type to be equal to Result Type")
            }
            Distance | Length => {
                ensure(self.float(rt).is_some_and(|r| !r.vector), "expected Result Type to be a float scalar type")?;
                let name = if family == Distance { "P0" } else { "P" };
                let Some(p) = self.float(self.ty(4)) else {
                    let what = if family == Distance {
                        "to be of float scalar or vector type"
                    } else {
                        "to be a float scalar or vector"
                    };
                    return Err(format!(": expected operand {name} {what}"));
                };
                ensure(p.count <= 4, &format!("expected operand {name} to have no more than 4 components"))?;
                ensure(p.scalar == rt, &format!("expected operand {name} component type to be equal to Result Type"))?;
                ensure(
                    family == Length || self.ty(5) == self.ty(4),
                    "expected operands P0 and P1 to be of the same type",
                )
            }
            Normalize => {
                let result = self.float(rt);
                ensure(result.is_some(), "expected Result Type to be a float scalar or vector type")?;
                ensure(result.is_some_and(|r| r.count <= 4), "expected Result Type to have no more than 4 components")?;
                ensure(self.ty(4) == rt, "expected operand P type to be equal to Result Type")
            }
            Bitselect | Select => {
                let Some(result) = self.num(rt) else {
                    return Err(": expected Result Type to be an int or float scalar or vector type".into());
                };
                ensure(opencl_count(result.count), COMPONENTS)?;
                if family == Bitselect {
                    return ensure((4..n).all(|k| self.ty(k) == rt), ALL_SAME);
                }
                ensure(self.ty(4) == rt, "expected operand A type to be equal to Result Type")?;
                ensure(self.ty(5) == rt, "expected operand B type to be equal to Result Type")?;
                let Some(c) = self.int(self.ty(6)) else {
                    return Err(": expected operand C to be an int scalar or vector".into());
                };
                ensure(
                    c.count == result.count,
                    "expected operand C to have the same number of components as Result Type",
                )?;
                ensure(c.width == result.width, "expected operand C to have the same bit width as Result Type")
            }
            Vloadn | VloadHalfn => {
                let result = if family == Vloadn { self.num(rt) } else { self.float(rt) }.filter(|r| r.vector);
                let Some(result) = result else {
                    return Err(if family == Vloadn {
                        ": expected Result Type to be an int or float vector type".into()
                    } else {
                        ": expected Result Type to be a float vector type".into()
                    });
                };
                ensure(opencl_count(result.count), "expected Result Type to have 2, 3, 4, 8 or 16 components")?;
                self.size_t_operand(4, "Offset")?;
                if family == Vloadn {
                    let pointee = self.pointer_operand(5, "operand P", READABLE, p_readable)?;
                    ensure(
                        pointee == result.scalar,
                        "expected operand P data type to be equal to component type of Result Type",
                    )?;
                } else {
                    self.half_pointer(5, READABLE, p_readable)?;
                }
                // The literal N.
                let n_value = if n > 6 { m.word(self.i, 6) } else { 0 };
                ensure(
                    n_value == result.count,
                    "expected literal N to be equal to the number of components of Result Type",
                )
            }
            Vstoren => {
                ensure(m.def_opcode(rt) == Some(op::OpTypeVoid), "expected Result Type to be void")?;
                let Some(data) = self.num(self.ty(4)).filter(|d| d.vector) else {
                    return Err(": expected Data to be an int or float vector".into());
                };
                ensure(opencl_count(data.count), "expected Data to have 2, 3, 4, 8 or 16 components")?;
                self.size_t_operand(5, "Offset")?;
                let pointee = self.pointer_operand(6, "operand P", WRITABLE, p_writable)?;
                ensure(
                    pointee == data.scalar,
                    "expected operand P data type to be equal to the type of operand Data components",
                )
            }
            VloadHalf => {
                ensure(self.float(rt).is_some_and(|r| !r.vector), "expected Result Type to be a float scalar type")?;
                self.size_t_operand(4, "Offset")?;
                self.half_pointer(5, READABLE, p_readable)
            }
            VstoreHalf { vector } => {
                ensure(m.def_opcode(rt) == Some(op::OpTypeVoid), "expected Result Type to be void")?;
                let data = self.float(self.ty(4)).filter(|d| d.vector == vector && matches!(d.width, 32 | 64));
                if vector {
                    let Some(data) = data else {
                        return Err(": expected Data to be a 32 or 64-bit float vector".into());
                    };
                    ensure(opencl_count(data.count), "expected Data to have 2, 3, 4, 8 or 16 components")?;
                } else {
                    ensure(data.is_some(), "expected Data to be a 32 or 64-bit float scalar")?;
                }
                self.size_t_operand(5, "Offset")?;
                self.half_pointer(6, WRITABLE, p_writable)
            }
            Shuffle { two } => {
                let result = self.num(rt).filter(|r| r.vector);
                let Some(result) = result else {
                    return Err(": expected Result Type to be an int or float vector type".into());
                };
                ensure(
                    matches!(result.count, 2 | 4 | 8 | 16),
                    "expected Result Type to have 2, 4, 8 or 16 components",
                )?;
                let x_type = self.ty(4);
                let mut k = 5;
                if two {
                    ensure(self.ty(5) == x_type, "expected operands X and Y to be of the same type")?;
                    k = 6;
                }
                let Some(x) = self.num(x_type).filter(|x| x.vector) else {
                    return Err(": expected operand X to be an int or float vector".into());
                };
                ensure(matches!(x.count, 2 | 4 | 8 | 16), "expected operand X to have 2, 4, 8 or 16 components")?;
                ensure(x.scalar == result.scalar, "expected operand X and Result Type to have equal component types")?;
                let Some(mask) = self.int(self.ty(k)).filter(|s| s.vector) else {
                    return Err(": expected operand Shuffle Mask to be an int vector".into());
                };
                ensure(
                    mask.count == result.count,
                    "expected operand Shuffle Mask to have the same number of components as Result Type",
                )?;
                ensure(
                    mask.width == result.width,
                    "expected operand Shuffle Mask components to have the same bit width as Result Type components",
                )
            }
            Printf => {
                ensure(
                    self.int(rt).is_some_and(|r| !r.vector && r.width == 32),
                    "expected Result Type to be a 32-bit int type",
                )?;
                let format_type = self.ty(4);
                let Some((class, mut pointee)) = self.pointer(format_type) else {
                    return Err(": expected operand Format to be a pointer".into());
                };
                // SPV_EXT_relaxed_printf_string_address_space allows the
                // global, local, private and generic address spaces too.
                if self.relaxed_printf {
                    ensure(
                        READABLE.contains(&class),
                        "expected Format storage class to be UniformConstant, Crossworkgroup, Workgroup, \
                         Function, or Generic",
                    )?;
                } else {
                    ensure(class == UNIFORM_CONSTANT, "expected Format storage class to be UniformConstant")?;
                }
                // A pointer to an array of ints points at its elements.
                if m.def_opcode(pointee) == Some(op::OpTypeArray) {
                    let element = m.def_word(pointee, 2).unwrap_or(0);
                    if m.def_opcode(element) == Some(op::OpTypeInt) {
                        pointee = element;
                    }
                }
                let byte = self.int(pointee).is_some_and(|p| !p.vector && p.width == 8);
                ensure(byte || self.untyped(format_type), "expected Format data type to be 8-bit int")
            }
            Prefetch => {
                ensure(m.def_opcode(rt) == Some(op::OpTypeVoid), "expected Result Type to be void")?;
                let Some((class, pointee)) = self.pointer(self.ty(4)) else {
                    return Err(": expected operand Ptr to be a pointer".into());
                };
                ensure(class == CROSS_WORKGROUP, "expected operand Ptr storage class to be CrossWorkgroup")?;
                let Some(data) = self.num(pointee) else {
                    return Err(": expected Ptr data type to be int or float scalar or vector".into());
                };
                ensure(opencl_count(data.count), COMPONENTS)?;
                self.size_t_operand(5, "Num Elements")
            }
        }
    }
}

//! [`TargetEnv`], the client environments SPIRV-Tools names with
//! `--target-env`: parsing and printing their names, and the SPIR-V version
//! and spirv-val wording each implies.
//!
//! ```
//! use gpuasm_spirv::grammar::Version;
//! use gpuasm_spirv::TargetEnv;
//!
//! let env = TargetEnv::parse("vulkan1.1").unwrap();
//! assert_eq!(env, TargetEnv::Vulkan(1));
//! assert_eq!(env.spirv_version(), Version(1, 3));
//! assert_eq!(env.to_string(), "vulkan1.1");
//! // Exact names only: SPIRV-Tools would read this as `vulkan1.2`.
//! assert_eq!(TargetEnv::parse("vulkan1.2spv1.5"), None);
//! ```

use crate::grammar::Version;
use std::fmt;

/// A SPIR-V client environment. Its [`Display`](fmt::Display) form is the
/// name [`TargetEnv::parse`] reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TargetEnv {
    /// Core SPIR-V `1.minor` with no client API rules.
    Universal(u8),
    /// Vulkan `1.minor`.
    Vulkan(u8),
    /// Vulkan 1.1 with SPIR-V 1.4.
    Vulkan11Spv14,
    /// OpenCL `major.minor`, full or embedded profile.
    OpenCl {
        /// Major version (1 or 2).
        major: u8,
        /// Minor version (2 for 1.2; 0-2 for 2.x).
        minor: u8,
        /// The embedded profile rather than the full one.
        embedded: bool,
    },
    /// OpenGL 4.`minor`.
    OpenGl(u8),
}

/// Every accepted name, in the order spirv-as lists them.
pub const TARGET_ENV_NAMES: &[&str] = &[
    "vulkan1.0",
    "vulkan1.1spv1.4",
    "vulkan1.1",
    "vulkan1.2",
    "vulkan1.3",
    "vulkan1.4",
    "spv1.0",
    "spv1.1",
    "spv1.2",
    "spv1.3",
    "spv1.4",
    "spv1.5",
    "spv1.6",
    "opencl1.2embedded",
    "opencl1.2",
    "opencl2.0embedded",
    "opencl2.0",
    "opencl2.1embedded",
    "opencl2.1",
    "opencl2.2embedded",
    "opencl2.2",
    "opengl4.0",
    "opengl4.1",
    "opengl4.2",
    "opengl4.3",
    "opengl4.5",
];

impl TargetEnv {
    /// Parses an exact environment name (no prefix matching, unlike
    /// SPIRV-Tools, which reads `vulkan1.2spv1.5` as `vulkan1.2`).
    pub fn parse(name: &str) -> Option<TargetEnv> {
        let v = |s: &str| s.parse::<u8>().ok();
        if name == "vulkan1.1spv1.4" {
            return Some(TargetEnv::Vulkan11Spv14);
        }
        if let Some(m) = name.strip_prefix("vulkan1.") {
            return v(m).filter(|&m| m <= 4).map(TargetEnv::Vulkan);
        }
        if let Some(m) = name.strip_prefix("spv1.") {
            return v(m).filter(|&m| m <= 6).map(TargetEnv::Universal);
        }
        if let Some(m) = name.strip_prefix("opengl4.") {
            return v(m).filter(|&m| matches!(m, 0..=3 | 5)).map(TargetEnv::OpenGl);
        }
        if let Some(rest) = name.strip_prefix("opencl") {
            let (ver, embedded) = match rest.strip_suffix("embedded") {
                Some(r) => (r, true),
                None => (rest, false),
            };
            return match ver {
                "1.2" => Some(TargetEnv::OpenCl { major: 1, minor: 2, embedded }),
                "2.0" => Some(TargetEnv::OpenCl { major: 2, minor: 0, embedded }),
                "2.1" => Some(TargetEnv::OpenCl { major: 2, minor: 1, embedded }),
                "2.2" => Some(TargetEnv::OpenCl { major: 2, minor: 2, embedded }),
                _ => None,
            };
        }
        None
    }

    /// Whether this is a Vulkan environment, Vulkan 1.1 with SPIR-V 1.4
    /// included (SPIRV-Tools' `spvIsVulkanEnv`).
    pub fn is_vulkan(self) -> bool {
        matches!(self, TargetEnv::Vulkan(_) | TargetEnv::Vulkan11Spv14)
    }

    /// The SPIR-V version a module for this environment declares
    /// (SPIRV-Tools' `spvVersionForTargetEnv`).
    pub fn spirv_version(self) -> Version {
        match self {
            TargetEnv::Universal(m) => Version(1, m),
            TargetEnv::Vulkan(0) => Version(1, 0),
            TargetEnv::Vulkan(1) => Version(1, 3),
            TargetEnv::Vulkan11Spv14 => Version(1, 4),
            TargetEnv::Vulkan(2) => Version(1, 5),
            TargetEnv::Vulkan(_) => Version(1, 6),
            TargetEnv::OpenCl { major: 2, minor: 2, .. } => Version(1, 2),
            TargetEnv::OpenCl { .. } | TargetEnv::OpenGl(_) => Version(1, 0),
        }
    }
}

impl TargetEnv {
    /// How spirv-val describes the environment in messages, e.g.
    /// "SPIR-V 1.0 (under Vulkan 1.0 semantics)".
    pub fn description(self) -> String {
        let Version(a, b) = self.spirv_version();
        let api = match self {
            TargetEnv::Universal(_) => return format!("SPIR-V {a}.{b}"),
            TargetEnv::Vulkan(m) => format!("Vulkan 1.{m}"),
            TargetEnv::Vulkan11Spv14 => "Vulkan 1.1".to_string(),
            TargetEnv::OpenCl { major, minor, embedded } => {
                format!("OpenCL {major}.{minor} {} Profile", if embedded { "Embedded" } else { "Full" })
            }
            TargetEnv::OpenGl(m) => format!("OpenGL 4.{m}"),
        };
        format!("SPIR-V {a}.{b} (under {api} semantics)")
    }
}

/// A `--target-env` name that is not one of [`TARGET_ENV_NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTargetEnv(pub String);

impl fmt::Display for UnknownTargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown target environment '{}'; valid values: {}", self.0, TARGET_ENV_NAMES.join(", "))
    }
}

impl std::error::Error for UnknownTargetEnv {}

impl std::str::FromStr for TargetEnv {
    type Err = UnknownTargetEnv;

    /// As [`TargetEnv::parse`], with an error naming the valid values.
    fn from_str(name: &str) -> Result<TargetEnv, UnknownTargetEnv> {
        TargetEnv::parse(name).ok_or_else(|| UnknownTargetEnv(name.to_string()))
    }
}

impl fmt::Display for TargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetEnv::Universal(m) => write!(f, "spv1.{m}"),
            TargetEnv::Vulkan(m) => write!(f, "vulkan1.{m}"),
            TargetEnv::Vulkan11Spv14 => write!(f, "vulkan1.1spv1.4"),
            TargetEnv::OpenCl { major, minor, embedded } => {
                write!(f, "opencl{major}.{minor}{}", if *embedded { "embedded" } else { "" })
            }
            TargetEnv::OpenGl(m) => write!(f, "opengl4.{m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_list_the_valid_ones() {
        let e = "vulkan9".parse::<TargetEnv>().unwrap_err();
        assert!(e.to_string().starts_with("unknown target environment 'vulkan9'; valid values: vulkan1.0, "));
        assert_eq!("vulkan1.2".parse::<TargetEnv>(), Ok(TargetEnv::Vulkan(2)));
    }

    #[test]
    fn every_listed_name_round_trips() {
        for name in TARGET_ENV_NAMES {
            let env = TargetEnv::parse(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(env.to_string(), *name);
        }
        assert_eq!(TargetEnv::parse("vulkan1.2spv1.5"), None);
        assert_eq!(TargetEnv::parse("opengl4.4"), None);
    }

    #[test]
    fn descriptions_match_spirv_val() {
        // Copied from spirv-val 2025.5's version-mismatch messages.
        let expect = [
            ("opencl2.2", "SPIR-V 1.2 (under OpenCL 2.2 Full Profile semantics)"),
            ("opencl1.2embedded", "SPIR-V 1.0 (under OpenCL 1.2 Embedded Profile semantics)"),
            ("opengl4.5", "SPIR-V 1.0 (under OpenGL 4.5 semantics)"),
            ("spv1.5", "SPIR-V 1.5"),
            ("vulkan1.1spv1.4", "SPIR-V 1.4 (under Vulkan 1.1 semantics)"),
            ("vulkan1.1", "SPIR-V 1.3 (under Vulkan 1.1 semantics)"),
        ];
        for (name, text) in expect {
            assert_eq!(TargetEnv::parse(name).unwrap().description(), text);
        }
    }

    #[test]
    fn versions_match_spirv_as() {
        // Header versions spirv-as 2025.5 writes for each environment.
        let expect = [
            ("vulkan1.0", (1, 0)),
            ("vulkan1.1", (1, 3)),
            ("vulkan1.1spv1.4", (1, 4)),
            ("vulkan1.2", (1, 5)),
            ("vulkan1.3", (1, 6)),
            ("vulkan1.4", (1, 6)),
            ("opencl2.1", (1, 0)),
            ("opencl2.2embedded", (1, 2)),
            ("opengl4.5", (1, 0)),
            ("spv1.3", (1, 3)),
        ];
        for (name, (a, b)) in expect {
            assert_eq!(TargetEnv::parse(name).unwrap().spirv_version(), Version(a, b), "{name}");
        }
    }
}

spirv-cfg m.spv

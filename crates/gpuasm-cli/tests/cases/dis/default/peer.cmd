spirv-dis m.spv

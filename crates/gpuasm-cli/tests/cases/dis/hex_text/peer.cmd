spirv-dis m.hex

spirv-dis shader

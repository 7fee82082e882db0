spirv-as a.spvasm  (writes out.spv)

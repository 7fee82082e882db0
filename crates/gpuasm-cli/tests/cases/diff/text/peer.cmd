spirv-diff a.spvasm b.spvasm

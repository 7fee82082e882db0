spirv-dis --color m.spv -o c.spvasm

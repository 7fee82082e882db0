spirv-dis --color --no-color m.spv

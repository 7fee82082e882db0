spirv-dis --no-color --color m.spv

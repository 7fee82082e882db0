spirv-dis --color cf.spv

spirv-dis --no-indent cf.spv

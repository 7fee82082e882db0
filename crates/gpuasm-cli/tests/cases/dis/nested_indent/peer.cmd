spirv-dis --nested-indent cf.spv

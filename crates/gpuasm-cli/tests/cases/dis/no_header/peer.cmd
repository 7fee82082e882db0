spirv-dis --no-header cf.spv

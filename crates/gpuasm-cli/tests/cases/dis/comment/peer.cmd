spirv-dis --comment cf.spv

spirv-dis --offsets cf.spv

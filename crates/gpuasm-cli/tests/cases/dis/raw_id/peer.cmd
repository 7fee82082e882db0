spirv-dis --raw-id cf.spv

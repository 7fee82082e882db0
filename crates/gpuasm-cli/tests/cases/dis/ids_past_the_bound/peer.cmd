spirv-dis --raw-id --no-header past.spv

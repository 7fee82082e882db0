spirv-dis --reorder-blocks cf.spv

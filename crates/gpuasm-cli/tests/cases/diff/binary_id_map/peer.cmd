spirv-diff --with-id-map --no-indent a.spv b.spv

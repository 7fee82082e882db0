spirv-as --target-env vulkan1.1 - -o - < stdin

spirv-as --target-env spv1.6 a.spvasm -o -

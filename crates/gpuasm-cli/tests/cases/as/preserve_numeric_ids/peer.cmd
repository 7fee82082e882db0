spirv-as --preserve-numeric-ids --target-env spv1.6 a.spvasm -o -

spirv-as v.spvasm -o -

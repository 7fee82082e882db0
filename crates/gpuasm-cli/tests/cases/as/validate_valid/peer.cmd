spirv-as ok.spvasm -o ok.spv

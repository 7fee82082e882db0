spirv-cfg -o g.dot m.spv

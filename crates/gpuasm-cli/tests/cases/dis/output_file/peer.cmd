spirv-dis m.spv -o listing.spvasm

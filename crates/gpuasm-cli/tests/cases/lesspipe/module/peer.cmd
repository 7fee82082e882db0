spirv-lesspipe.sh m.spv

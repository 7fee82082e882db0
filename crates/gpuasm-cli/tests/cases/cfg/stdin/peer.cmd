spirv-cfg - < m.spv

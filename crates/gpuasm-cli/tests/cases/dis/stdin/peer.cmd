spirv-dis - < stdin

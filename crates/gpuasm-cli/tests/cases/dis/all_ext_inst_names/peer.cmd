spirv-dis m.spv  (the module imports no set the flag names differently)

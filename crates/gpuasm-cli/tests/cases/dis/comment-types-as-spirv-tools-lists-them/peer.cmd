spirv-dis --comment m.spv  (OpTypeBufferSurfaceINTEL is no type to SPIRV-Tools, OpTypeTaskSequenceALTERA is)

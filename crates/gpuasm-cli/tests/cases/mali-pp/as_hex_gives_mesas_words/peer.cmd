gpuasm-mali/tests/corpus/019_while_break.hex: Mesa 22.3.6's words of 019_while_break.frag, as a hex listing

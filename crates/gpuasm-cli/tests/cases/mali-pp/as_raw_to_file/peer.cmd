gpuasm-mali/tests/corpus/019_while_break.ppbin: the program Mesa 22.3.6 compiled

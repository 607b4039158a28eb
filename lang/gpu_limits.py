"""What one launch may ask of an NVIDIA GPU, the same on every target (the CPU emulation follows
the GPU). Imported by the checker (shared arrays), the lowering (`launch`) and the Python bridge
(`m.k[grid, block](...)`), so the module stays free of compiler imports: cached code loads
without the compiler."""

MAX_BLOCK_THREADS = 1024  # threads in a block, on every CUDA GPU since compute capability 2.0
MAX_GRID = (2**31 - 1, 65535, 65535)  # blocks in x, y, z, on every CUDA GPU since compute capability 3.0
# Static shared memory a block may use on every NVIDIA GPU since compute capability 2.0; more
# needs an opt-in (cuFuncSetAttribute) pyx does not make: ptxas refuses such a kernel, or its
# launch fails.
MAX_STATIC_SHARED_BYTES = 48 * 1024

"""Stage 5: pyx IR to LLVM IR and machine code, for a Target (host CPU or NVPTX)."""

"""What compiled pyx code needs at run time: the JIT (and later the cache, CUDA driver, Python bridge)."""

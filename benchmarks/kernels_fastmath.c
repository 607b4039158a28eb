/* The sum row's peer allowed to reassociate floats, as pyx's `total` does by hand (four SIMD
   accumulators): built on its own with -ffast-math, so no other C kernel gets the licence. */
float total_fastmath(const float *x, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}

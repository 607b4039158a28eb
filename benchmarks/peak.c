/* The machine's limits, measured rather than taken from a data sheet, for the table's "% of
   peak" column: FMA throughput (12 independent chains of 16-lane float32 FMAs, enough to hide
   the FMA latency on current x86 cores) and memory bandwidth (a stream copy much larger than
   the caches). Built with the kernels (gcc -O3 -march=native -fopenmp). */
typedef float v16 __attribute__((vector_size(64)));

static float fma_chains(long n) {
    v16 acc[12];
    v16 x, y;
    for (int l = 0; l < 16; l++) { x[l] = 0.999999f; y[l] = 1e-7f * l; }
    for (int j = 0; j < 12; j++) acc[j] = x * (float)j;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < 12; j++) acc[j] = acc[j] * x + y;
    float s = 0.0f;
    for (int j = 0; j < 12; j++)
        for (int l = 0; l < 16; l++) s += acc[j][l];
    return s;
}

/* Floating-point operations done by peak_fma(n): 12 chains x 16 lanes x (multiply + add). */
long peak_fma_flops(long n) { return 12L * 16L * 2L * n; }

float peak_fma(long n) { return fma_chains(n); }

float peak_fma_omp(long n) {
    float s = 0.0f;
#pragma omp parallel reduction(+ : s)
    s += fma_chains(n);
    return s;
}

void stream_copy(float *a, const float *b, long n) {
    for (long i = 0; i < n; i++) a[i] = b[i];
}

void stream_copy_omp(float *a, const float *b, long n) {
#pragma omp parallel for
    for (long i = 0; i < n; i++) a[i] = b[i];
}

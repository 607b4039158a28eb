/* The C side of benchmarks/run.py, built with gcc -O3 -march=native -fopenmp. */
#include <math.h>
#include <stdint.h>

/* One row's total iteration count; both drivers below share it, so they run the same code. */
static inline long mandelbrot_row(long row, long width, long height, long max_iter) {
    long total = 0;
    double dx = 3.0 / width, cy = -1.5 + row * (3.0 / height);
    for (long col = 0; col < width; col++) {
        double cx = -2.0 + col * dx, x = 0.0, y = 0.0;
        long i = 0;
        while (i < max_iter && x * x + y * y <= 4.0) {
            double nx = x * x - y * y + cx;
            y = 2.0 * x * y + cy;
            x = nx;
            i++;
        }
        total += i;
    }
    return total;
}

long mandelbrot(long width, long height, long max_iter) {
    long total = 0;
    for (long row = 0; row < height; row++)
        total += mandelbrot_row(row, width, height, max_iter);
    return total;
}

long mandelbrot_omp(long width, long height, long max_iter) {
    long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 4)
    for (long row = 0; row < height; row++)
        total += mandelbrot_row(row, width, height, max_iter);
    return total;
}

/* The SIMD rows' C peer: 8 pixels per AVX-512 register with a lane mask, written with
   intrinsics (the scalar row where the compiler does not target AVX-512). Multiply then
   add, no FMA, as pyx computes, so the totals agree exactly. */
#ifdef __AVX512F__
#include <immintrin.h>
static long mandelbrot_row_simd(long row, long width, long height, long max_iter) {
    const __m512d four = _mm512_set1_pd(4.0), two = _mm512_set1_pd(2.0);
    const __m512d lanes = _mm512_set_pd(7, 6, 5, 4, 3, 2, 1, 0), dx = _mm512_set1_pd(3.0 / width);
    const __m512d cy = _mm512_set1_pd(-1.5 + row * (3.0 / height));
    long total = 0;
    for (long col = 0; col < width; col += 8) {
        __m512d cx = _mm512_add_pd(_mm512_set1_pd(-2.0), _mm512_mul_pd(_mm512_add_pd(lanes, _mm512_set1_pd((double)col)), dx));
        __m512d x = _mm512_setzero_pd(), y = _mm512_setzero_pd();
        __m512i counts = _mm512_setzero_si512();
        __mmask8 active = width - col >= 8 ? 0xFF : (__mmask8)((1u << (width - col)) - 1);
        for (long i = 0; i < max_iter; i++) {
            __m512d x2 = _mm512_mul_pd(x, x), y2 = _mm512_mul_pd(y, y);
            active &= _mm512_cmp_pd_mask(_mm512_add_pd(x2, y2), four, _CMP_LE_OQ);
            if (!active) break;
            counts = _mm512_mask_add_epi64(counts, active, counts, _mm512_set1_epi64(1));
            __m512d nx = _mm512_add_pd(_mm512_sub_pd(x2, y2), cx);
            y = _mm512_add_pd(_mm512_mul_pd(_mm512_mul_pd(two, x), y), cy);
            x = nx;
        }
        total += _mm512_reduce_add_epi64(counts);
    }
    return total;
}
int mandelbrot_simd_is_avx512(void) { return 1; }
#else
#define mandelbrot_row_simd mandelbrot_row
int mandelbrot_simd_is_avx512(void) { return 0; }
#endif

long mandelbrot_simd(long width, long height, long max_iter) {
    long total = 0;
    for (long row = 0; row < height; row++)
        total += mandelbrot_row_simd(row, width, height, max_iter);
    return total;
}

long mandelbrot_simd_omp(long width, long height, long max_iter) {
    long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 4)
    for (long row = 0; row < height; row++)
        total += mandelbrot_row_simd(row, width, height, max_iter);
    return total;
}

void triad(float *a, const float *b, const float *c, float s, long n) {
    for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

void triad_omp(float *a, const float *b, const float *c, float s, long n) {
#pragma omp parallel for
    for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

float total(const float *x, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}

float total_omp(const float *x, long n) {
    float s = 0.0f;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}

/* BFloat16 is the top half of a float's bits; GCC before 13 has no arithmetic type for it. */
static inline float bf16_to_float(uint16_t bits) {
    uint32_t wide = (uint32_t)bits << 16;
    float f;
    __builtin_memcpy(&f, &wide, sizeof f);
    return f;
}

float dot_bf16(const uint16_t *a, const uint16_t *b, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++) s += bf16_to_float(a[i]) * bf16_to_float(b[i]);
    return s;
}

static inline void softmax_row(const float *x, float *out, long r, long cols) {
    const float *row = x + r * cols;
    float *dst = out + r * cols;
    float m = -INFINITY, s = 0.0f;
    for (long j = 0; j < cols; j++) m = row[j] > m ? row[j] : m;
    for (long j = 0; j < cols; j++) { dst[j] = expf(row[j] - m); s += dst[j]; }
    float inv = 1.0f / s;
    for (long j = 0; j < cols; j++) dst[j] *= inv;
}

void softmax_rows(const float *x, float *out, long rows, long cols) {
    for (long r = 0; r < rows; r++) softmax_row(x, out, r, cols);
}

void softmax_rows_omp(const float *x, float *out, long rows, long cols) {
#pragma omp parallel for
    for (long r = 0; r < rows; r++) softmax_row(x, out, r, cols);
}

long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

typedef struct { double x, y, z, vx, vy, vz, m; } body;

double nbody(long steps, const double *state) {
    body b[5];
    for (int i = 0; i < 5; i++) {
        const double *s = state + 7 * i;
        b[i] = (body){s[0], s[1], s[2], s[3], s[4], s[5], s[6]};
    }
    for (long t = 0; t < steps; t++) {
        for (int i = 0; i < 5; i++)
            for (int j = i + 1; j < 5; j++) {
                double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
                double d2 = dx * dx + dy * dy + dz * dz;
                double mag = 0.01 / (d2 * sqrt(d2));
                b[i].vx -= dx * b[j].m * mag; b[i].vy -= dy * b[j].m * mag; b[i].vz -= dz * b[j].m * mag;
                b[j].vx += dx * b[i].m * mag; b[j].vy += dy * b[i].m * mag; b[j].vz += dz * b[i].m * mag;
            }
        for (int i = 0; i < 5; i++) { b[i].x += 0.01 * b[i].vx; b[i].y += 0.01 * b[i].vy; b[i].z += 0.01 * b[i].vz; }
    }
    double e = 0.0;
    for (int i = 0; i < 5; i++) {
        e += 0.5 * b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
        for (int j = i + 1; j < 5; j++) {
            double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
            e -= b[i].m * b[j].m / sqrt(dx * dx + dy * dy + dz * dz);
        }
    }
    return e;
}

void matmul(const float *a, const float *b, float *c, long m, long n, long k) {
    for (long i = 0; i < m * n; i++) c[i] = 0.0f;
    for (long i = 0; i < m; i++)
        for (long p = 0; p < k; p++) {
            float aip = a[i * k + p];
            for (long j = 0; j < n; j++) c[i * n + j] += aip * b[p * n + j];
        }
}

void matmul_omp(const float *a, const float *b, float *c, long m, long n, long k) {
#pragma omp parallel for
    for (long i = 0; i < m; i++) {
        for (long j = 0; j < n; j++) c[i * n + j] = 0.0f;
        for (long p = 0; p < k; p++) {
            float aip = a[i * k + p];
            for (long j = 0; j < n; j++) c[i * n + j] += aip * b[p * n + j];
        }
    }
}

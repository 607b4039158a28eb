// The GPU examples written as a CUDA C++ user would, to compare what nvcc makes of them with
// pyx's PTX (registers from `ptxas -v`, and timings where a GPU is lent): see device_check.sh.
#define TILE 16
#define WARP 32
#define D 64
#define BR 32
#define BC 32
#define NEG_INF (-__int_as_float(0x7f800000))  // nvrtc has no math.h

extern "C" __global__ void saxpy(float a, const float *x, float *y, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void block_sum(const float *x, float *out, long n) {
    __shared__ float tile[256];
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, tile[0]);
}

extern "C" __global__ void matmul(const float *a, const float *b, float *c, long m, long n, long k) {
    __shared__ float a_tile[TILE * TILE], b_tile[TILE * TILE];
    long tx = threadIdx.x, ty = threadIdx.y;
    long row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (long t = 0; t < k; t += TILE) {
        a_tile[ty * TILE + tx] = row < m && t + tx < k ? a[row * k + t + tx] : 0.0f;
        b_tile[ty * TILE + tx] = t + ty < k && col < n ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++) acc += a_tile[ty * TILE + p] * b_tile[p * TILE + tx];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
}

extern "C" __global__ void softmax_rows(const float *x, float *out, long rows, long cols) {
    long base = blockIdx.x * cols;
    int lane = threadIdx.x;
    float m = NEG_INF;
    for (long j = lane; j < cols; j += WARP) m = fmaxf(m, x[base + j]);
    for (int o = WARP / 2; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    float s = 0.0f;
    for (long j = lane; j < cols; j += WARP) {
        float e = expf(x[base + j] - m);
        out[base + j] = e;
        s += e;
    }
    for (int o = WARP / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    float inv = 1.0f / s;
    for (long j = lane; j < cols; j += WARP) out[base + j] *= inv;
}

extern "C" __global__ void flash_forward(const float *q, const float *k, const float *v, float *out,
                                         long seq, float scale) {
    __shared__ float k_tile[BC * D], v_tile[BC * D];
    int t = threadIdx.x;
    long row = (long)blockIdx.x * BR + t;
    float query[D], acc[D];
    for (int d = 0; d < D; d++) {
        query[d] = row < seq ? q[row * D + d] * scale : 0.0f;
        acc[d] = 0.0f;
    }
    float running_max = NEG_INF, running_sum = 0.0f;
    for (long start = 0; start < seq; start += BC) {
        for (int e = t; e < BC * D; e += BR) {
            long src = start + e / D;
            k_tile[e] = src < seq ? k[src * D + e % D] : 0.0f;
            v_tile[e] = src < seq ? v[src * D + e % D] : 0.0f;
        }
        __syncthreads();
        long count = seq - start < BC ? seq - start : BC;
        float tile_max = NEG_INF;
        for (long j = 0; j < count; j++) {
            float dot = 0.0f;
            for (int d = 0; d < D; d++) dot += query[d] * k_tile[j * D + d];
            tile_max = fmaxf(tile_max, dot);
        }
        float new_max = fmaxf(running_max, tile_max);
        float correction = expf(running_max - new_max);
        running_sum *= correction;
        for (int d = 0; d < D; d++) acc[d] *= correction;
        for (long j = 0; j < count; j++) {
            float dot = 0.0f;
            for (int d = 0; d < D; d++) dot += query[d] * k_tile[j * D + d];
            float p = expf(dot - new_max);
            running_sum += p;
            for (int d = 0; d < D; d++) acc[d] += v_tile[j * D + d] * p;
        }
        running_max = new_max;
        __syncthreads();
    }
    if (row < seq)
        for (int d = 0; d < D; d++) out[row * D + d] = acc[d] / running_sum;
}

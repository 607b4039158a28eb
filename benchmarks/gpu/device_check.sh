#!/bin/bash
# What a session lent an NVIDIA GPU runs there, in one go (see docs/gpu.md, "What is verified how").
# Wheels for the packages the machine lacks travel in .whl/ (lark, llvmlite 0.50). The working tree and the
# wheels must stay under the device tool's 64 MiB as it counts them: llvmlite's wheel (59.8 MB) left too little
# room on 2026-11-27; its libllvmlite.so through `strip --strip-unneeded` (RECORD's hash and size updated, the
# wheel re-zipped at -9) is 54.9 MB and ran the whole check.
# Writes its logs to $OUT (or /tmp/pyx-gpu) and exits non-zero if any step failed.
set -u
OUT=${OUT:-/tmp/pyx-gpu}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
status=0
nvidia-smi -L; which ptxas nvcc; ptxas --version | tail -1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --target /tmp/site . || exit 1
export PYTHONPATH=/tmp/site
python3 -c "import pyx, llvmlite, cuda.bindings; print('pyx', pyx.__file__, 'llvmlite', llvmlite.__version__)"
echo "== gpu tests"
timeout 150 python3 -m pytest -q -p no:randomly -p no:cacheprovider -m gpu tests -x -rs 2>&1 | tee "$OUT/gpu_tests.log" | tail -25 || status=1
echo "== parity and timings"
timeout 150 python3 benchmarks/gpu/gpu_bench.py 2>&1 | tee "$OUT/gpu_bench.log" || status=1
echo "== ptxas -v registers (sm_90)"
for ex in saxpy gpu_sum gpu_matmul gpu_softmax flash_attn; do
  python3 -m pyx build --emit=ptx examples/$ex.px -o /tmp/$ex.ptx && ptxas -arch=sm_90 -v /tmp/$ex.ptx -o /tmp/$ex.cubin 2>&1 | grep -E "Compiling|registers" | tr '\n' ' '
  # what the timings depend on (docs/gpu.md, PTX): unrolled exp loops, whole-warp butterflies
  for op in ld.global ex2.approx shfl.sync.bfly shfl.sync.idx max.f32; do printf ' %s=%s' $op "$(sed -n '/\.entry/,$p' /tmp/$ex.ptx | grep -c "$op")"; done; echo
done 2>&1 | tee "$OUT/ptxas.log"
echo "== nvcc -O3 registers of the CUDA C twins (sm_90)"
nvcc -arch=sm_90 -O3 -Xptxas -v -c benchmarks/gpu/twins.cu -o /tmp/twins.o 2>&1 | grep -E "Compiling|registers" \
  | paste - - | sed -E 's/ptxas info *: //g' | tee -a "$OUT/ptxas.log"
exit $status

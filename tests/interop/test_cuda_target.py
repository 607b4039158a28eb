"""Choosing where kernels run: target='cpu', 'cuda' or 'auto'. Without a GPU, 'cuda' says what
is missing and 'auto' runs on the CPU; with one, the examples run there and match NumPy."""
import sys

import pytest

np = pytest.importorskip("numpy")

import pyx  # noqa: E402
from helpers import ROOT  # noqa: E402
from pyx.runtime import cuda  # noqa: E402

EXAMPLES = str(ROOT / "examples")
HAVE_GPU = cuda.available()
gpu = pytest.mark.skipif(not HAVE_GPU, reason="no NVIDIA GPU, driver or cuda-python here")


@pytest.fixture()
def load(tmp_path, monkeypatch):
    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))

    def load(name, target):
        sys.modules.pop(name, None)
        return pyx.import_module(name, target=target, path=[EXAMPLES])
    return load


def test_auto_runs_kernels_where_it_can(load):
    m = load("saxpy", "auto")
    assert m.__pyx__["target"] == ("cpu" if not HAVE_GPU else m.__pyx__["target"])
    x, y = np.arange(10, dtype=np.float32), np.ones(10, np.float32)
    m.saxpy[1, 32](3.0, x, y, 10)
    assert y.tolist() == [3.0 * i + 1.0 for i in range(10)]


def test_cpu_is_the_cpu(load):
    assert load("saxpy", "cpu").__pyx__["target"] == "cpu"


@pytest.mark.skipif(HAVE_GPU, reason="this machine has a GPU")
def test_cuda_without_a_gpu_says_what_is_missing(load):
    with pytest.raises(cuda.CudaUnavailable, match=r"cuda-python|NVIDIA driver|no GPU|did not start"):
        load("saxpy", "cuda")


def test_an_unknown_target_is_an_error(load):
    with pytest.raises(ValueError, match="target must be one of 'auto', 'cpu', 'cuda'"):
        load("saxpy", "tpu")


@pytest.mark.gpu
@gpu
def test_examples_on_the_gpu_match_numpy(load):
    rng = np.random.default_rng(0)
    saxpy = load("saxpy", "cuda")
    assert saxpy.__pyx__["target"].startswith("cuda")
    x, y = rng.random(5000, np.float32), rng.random(5000, np.float32)
    expected = np.float32(2.0) * x + y
    saxpy.saxpy[(5000 + 255) // 256, 256](2.0, x, y, 5000)
    assert np.allclose(y, expected, rtol=1e-6)

    mm = load("gpu_matmul", "cuda")
    a, b = rng.standard_normal((100, 70), np.float32), rng.standard_normal((70, 90), np.float32)
    c = np.zeros((100, 90), np.float32)
    mm.matmul[((90 + 15) // 16, (100 + 15) // 16), (16, 16)](a, b, c, 100, 90, 70)
    assert np.allclose(c, a @ b, rtol=1e-4, atol=1e-4)

    soft = load("gpu_softmax", "cuda")
    s = rng.standard_normal((64, 300), np.float32)
    out = np.zeros_like(s)
    soft.softmax_rows[64, 32](s, out, 64, 300)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    assert np.allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)

    fa = load("flash_attn", "cuda")
    q, k, v = (rng.standard_normal((200, 64), np.float32) for _ in range(3))
    o = np.zeros_like(q)
    fa.flash_forward[(200 + 31) // 32, 32](q, k, v, o, 200, np.float32(0.125))
    w = np.exp((q @ k.T) / 8.0 - ((q @ k.T) / 8.0).max(axis=1, keepdims=True))
    assert np.allclose(o, (w / w.sum(axis=1, keepdims=True)) @ v, rtol=1e-3, atol=1e-4)
    o2 = np.zeros_like(q)
    fa.attention(q, k, v, o2, 200)  # a pyx function whose launch goes to the GPU, arrays staged
    assert "launching on" in repr(fa.attention)
    assert np.allclose(o2, o, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
@gpu
def test_device_arrays_are_used_in_place(load):
    cupy = pytest.importorskip("cupy")
    saxpy = load("saxpy", "cuda")
    x, y = cupy.arange(1000, dtype=cupy.float32), cupy.ones(1000, dtype=cupy.float32)
    saxpy.saxpy[4, 256](2.0, x, y, 1000)
    assert cupy.allclose(y, 2.0 * cupy.arange(1000, dtype=cupy.float32) + 1.0)


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("example", ["saxpy", "gpu_sum", "gpu_matmul", "flash_attn"])
def test_whole_programs_launch_on_the_gpu(example, tmp_path, monkeypatch):
    """`pyx run --target=cuda`: the host code on the CPU, its launches on the GPU, managed memory.
    These examples print only exact or thresholded figures, so the CPU's expected output holds."""
    from helpers import run_cli

    monkeypatch.setenv("PYX_CACHE_DIR", str(tmp_path / "cache"))
    result = run_cli("run", "--target=cuda", str(ROOT / "examples" / f"{example}.px"))
    assert (result.status, result.stderr) == (0, "")
    assert result.stdout == (ROOT / "examples" / f"{example}.out").read_text()

"""Device code that waits for other threads is `convergent` in the NVPTX LLVM IR, so the optimizer
cannot move a barrier or shuffle (or a call reaching one) across control flow; code that never
waits keeps every optimization."""
import re

from helpers import run_cli

PROGRAM = """\
@noinline
fn tile_sum(s: Ptr[Float32, 3], t: Int) -> Float32:
    barrier()
    return s[t] + s[(t + 1) % 32]


@noinline
fn outer(s: Ptr[Float32, 3], t: Int) -> Float32:
    return tile_sum(s, t) * 0.5


@noinline
fn lanes(v: Float32) -> Float32:
    return shuffle_xor(v, 1) + warp_max(v)


@noinline
fn twice(v: Float32) -> Float32:
    return v * 2.0


@kernel
fn tiled(x: Ptr[Float32]):
    var s = shared_array[Float32, 32]()
    s[thread_idx.x] = x[thread_idx.x]
    x[thread_idx.x] = twice(outer(s, thread_idx.x)) + lanes(x[thread_idx.x])


@kernel
fn plain(x: Ptr[Float32]):
    x[thread_idx.x] = twice(x[thread_idx.x])
"""


def attributes_of(ir_text: str) -> dict[str, set[str]]:
    groups = {m[1]: set(m[2].split()) for m in re.finditer(r"^attributes (#\d+) = \{ (.*) \}$", ir_text, re.M)}
    found = {}
    for m in re.finditer(r"^define .*?@\"?([\w.]+)\"?\(.*\).*?(#\d+)? \{$", ir_text, re.M):
        found[m[1]] = groups.get(m[2], set())
    return found


def test_synchronizing_device_code_is_convergent(tmp_path):
    src = tmp_path / "conv.px"
    src.write_text(PROGRAM)
    out = tmp_path / "conv.ll"
    result = run_cli("build", "--emit=llvm", "--target=cuda", str(src), "-o", str(out))
    assert result.status == 0, result.stderr
    attrs = attributes_of(out.read_text())
    for name in ("conv_2e_tile_sum", "conv_2e_outer", "conv_2e_lanes", "conv_2e_tiled_2e_kernel"):
        assert "convergent" in attrs[name], (name, attrs[name])
    for name in ("conv_2e_twice", "conv_2e_plain_2e_kernel"):
        assert "convergent" not in attrs[name], (name, attrs[name])

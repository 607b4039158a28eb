"""The Neovim setup editors/README.md gives, run as written in a headless Neovim (the oldest
it claims, 0.7, is what Debian 12 ships): with the Vim plugin on the runtime path, opening a
`.px` file starts `pyx lsp`, and the server's diagnostics reach the buffer."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NVIM = shutil.which("nvim")
pytest.importorskip("pygls", reason="the language server needs pygls")
pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is needed to run the Neovim setup")

PROBE = """
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, string.format("%d:%d %s %s", d.lnum, d.col, tostring(d.code), d.message))
end
io.stdout:write((ok and "" or "TIMEOUT ") .. table.concat(found, " | ") .. "\\n")
vim.cmd("qa!")
"""


def readme_snippet() -> str:
    text = (ROOT / "editors" / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```lua\n(.*?)```", text, re.S)
    assert found, "editors/README.md has no ```lua block"
    return found.group(1)


def test_the_readme_snippet_starts_the_server_in_neovim(tmp_path):
    init = tmp_path / "init.lua"
    init.write_text(f'vim.opt.runtimepath:prepend("{ROOT / "editors" / "vim"}")\n'
                    'vim.cmd("filetype plugin indent on")\n' + readme_snippet())
    (tmp_path / "probe.lua").write_text(PROBE)
    (tmp_path / "bad.px").write_text("fn main():\n    print(missing)\n")
    # `pyx` on PATH is this interpreter's (the one the tests import).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pyx").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pyx "$@"\n')
    (bin_dir / "pyx").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    done = subprocess.run([NVIM, "--headless", "-u", str(init), "bad.px", "-c", "luafile probe.lua"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "1:10 E0101 name `missing` is not defined" in done.stdout, done.stdout + done.stderr

#!/usr/bin/env python3
"""Render a pyx kernel with the Pygments lexer and screenshot it for editors/README.md.

    python editors/scripts/screenshot.py [--source FILE.px] [--style one-dark] [--out editors/screenshot.png]

Needs Pygments and a Chromium (`apt-get install -y chromium`). The page is sized
to the code so the PNG has no empty margin to store.
"""
from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter

REPO = Path(__file__).resolve().parents[2]
DEFAULT_SOURCE = REPO / "editors" / "tests" / "fixtures" / "block_sum.px"

FONT_PX = 15
LINE_PX = 21  # FONT_PX * line-height below
PAD_PX = 18
CHAR_PX = 9.1  # advance of the monospace font at FONT_PX, with room to spare


def load_lexer():
    # By path, so the script works from a checkout without `pip install -e .`.
    spec = importlib.util.spec_from_file_location("pyx_pygments_lexer", REPO / "lang" / "pygments_lexer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PyxLexer()


def page(code: str, style: str) -> tuple[str, int, int]:
    formatter = HtmlFormatter(style=style, nowrap=False, cssclass="hl")
    body = highlight(code, load_lexer(), formatter)
    lines = code.rstrip("\n").split("\n")
    width = int(max(len(line) for line in lines) * CHAR_PX) + 2 * PAD_PX + 8
    height = len(lines) * LINE_PX + 2 * PAD_PX
    bg = formatter.style.background_color or "#000"
    html = f"""<!doctype html><html><head><meta charset="utf-8"><style>
{formatter.get_style_defs('.hl')}
html, body {{ margin: 0; background: {bg}; }}
.hl {{ padding: {PAD_PX}px; }}
.hl pre {{ margin: 0; font: {FONT_PX}px/{LINE_PX}px "DejaVu Sans Mono", "Liberation Mono", monospace; }}
</style></head><body>{body}</body></html>"""
    return html, width, height


def find_chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("no Chromium found: apt-get install -y chromium")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--style", default="one-dark")
    ap.add_argument("--out", type=Path, default=REPO / "editors" / "screenshot.png")
    args = ap.parse_args()

    html, width, height = page(args.source.read_text(encoding="utf-8"), args.style)
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "code.html"
        index.write_text(html, encoding="utf-8")
        profile = Path(tmp) / "profile"
        cmd = [
            find_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
            f"--screenshot={args.out.resolve()}", f"--window-size={width},{height}",
            index.as_uri(),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or not args.out.exists():
            sys.stderr.write(proc.stdout + proc.stderr)
            return 1
    print(f"wrote {args.out} ({width}x{height}, {args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

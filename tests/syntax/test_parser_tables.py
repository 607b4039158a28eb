"""The parser a process loads from the user cache directory (syntax/parser.py: Lark's parser object,
pickled, with its lexers' SRE code) parses exactly as the parser Lark builds from the grammar: the
same trees, the same errors, on the stdlib, the golden programs and the syntax-error cases."""
import os
import subprocess
import sys

COMPARE = """
import glob, sys
from lark import Lark
from pyx.syntax import parser

loaded = parser._parser()
built = Lark(parser.GRAMMAR.read_text(), parser="lalr", start="file_input", maybe_placeholders=True,
             **parser._RUNTIME_OPTIONS)
parser._report_tokens_without_fstring_text(built)
root = sys.argv[1]
files = sorted(glob.glob(root + "/stdlib/*.px") + glob.glob(root + "/tests/golden/*.px")
               + glob.glob(root + "/tests/syntax/errors/*.px"))
for name in files:
    text = open(name, encoding="utf-8").read()
    text = text if text.endswith("\\n") else text + "\\n"
    results = []
    for lark in (loaded, built):
        try:
            parser._INDENTER.parsing(text)
            results.append(lark.parse(text))
        except Exception as exc:  # (what a diagnostic is made of; the message lists `expected` in set order)
            results.append((type(exc).__name__, repr(getattr(exc, "token", None)), getattr(exc, "line", None),
                            getattr(exc, "column", None), sorted(getattr(exc, "expected", None) or ())))
    if results[0] != results[1]:
        print("differs:", name)
print(len(files), "files")
"""


def test_the_parser_loaded_from_its_tables_parses_as_the_one_lark_builds(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    build = "from pyx.syntax import parser; parser._parser()"  # builds the tables and keeps them
    assert subprocess.run([sys.executable, "-c", build], env=env, timeout=300).returncode == 0
    assert list((tmp_path / "cache" / "pyx").glob("grammar-*.lark"))
    done = subprocess.run([sys.executable, "-c", COMPARE, root], env=env, capture_output=True, text=True, timeout=600)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines and lines[-1].endswith(" files"), done.stderr
    assert int(lines[-1].split()[0]) > 100
    assert lines[:-1] == []

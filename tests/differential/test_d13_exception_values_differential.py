"""Random programs against CPython for exceptions as values (session 12's stdlib/exception_value.px,
semantics/exception_values.py) and `raise ... from` (semantics/raising.py `cause`):

- `except Exception as e` kept in a variable (`saved: Exception | None`) and in a list, shown with
  `str(e)`, `repr(e)`, `type(e).__name__`, f-strings and `print` of the list, tested with `isinstance`;
- each kept exception raised again (`raise k`) and caught by a chain of handlers in a random order;
- bare `raise` out of an inner handler, caught by an outer one naming a base class;
- an exception class with data (`__init__` storing a code) read in its own handler, turned into a
  builtin one with `raise ValueError(...) from e`, and `raise ... from None`;
- exceptions made outside `raise`, returned as `Exception | None` and grouped in a dict of lists.
The classes are builtins and the program's own (a subclass among them), raised by the program or
by the runtime (an index, a key, `//` by zero, `int()`); the messages hold quotes, spaces and nothing.
pyx must print what CPython prints (tests/helpers.py `prints_as_python`)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import prints_as_python

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=_HEALTH)

HEAD = ("class AppError(Exception):",
        "    pass",
        "",
        "",
        "class ParseError(AppError):",
        "    pass",
        "",
        "")
# a class with data: caught by its own class only (pyx keeps no data in an exception value, E0308)
DATA_CLASS = ("class DataError(Exception):",
              "    def __init__(self, code: int, why: str):",
              "        super().__init__(why)",
              "        self.code = code",
              "",
              "")
CLASSES = ["ValueError", "KeyError", "IndexError", "ZeroDivisionError", "RuntimeError", "AppError", "ParseError"]
BASES = ["Exception", "LookupError", "ArithmeticError", "AppError", "ParseError", "ValueError", "KeyError"]
MESSAGES = st.one_of(st.none(), st.text(alphabet="ab '\"", max_size=4))
# what the runtime raises: CPython's messages (`KeyError('k0')`, `IndexError('list index out of range')`)
RUNTIME = {"IndexError@": "[1, 2][n + 5]", "KeyError@": "{'a': 1}['k' + str(n)]", "ZeroDivisionError@": "n // (n - n)",
           "ValueError@": "int('x' + str(n))"}
# what `risky(n)` does for each n: return n, raise a class with a message (None: `raise C()`), or have
# the runtime raise
PLANS = st.lists(st.one_of(st.none(), st.tuples(st.sampled_from(CLASSES), MESSAGES),
                           st.tuples(st.sampled_from(sorted(RUNTIME)), st.none())), min_size=1, max_size=5)


def _program(head: tuple[str, ...], body: list[str]) -> str:
    return "\n".join([*HEAD, *head, "def main():", *("    " + line for line in body), "", "",
                      'if __name__ == "__main__":', "    main()", ""])


def _risky(plan: list) -> tuple[str, ...]:
    lines = ["def risky(n: int) -> int:"]
    for n, step in enumerate(plan):
        if step is not None:
            cls, message = step
            lines += [f"    if n == {n}:", f"        return {RUNTIME[cls]}" if cls in RUNTIME else
                      f"        raise {cls}({'' if message is None else repr(message)})"]
    return (*lines, "    return n * 10", "", "")


def _same(text: str, tmp_path) -> None:
    prints_as_python(text, text, tmp_path)


@_SETTINGS
@given(PLANS, st.lists(st.sampled_from(BASES), min_size=1, max_size=3, unique=True),
       st.permutations(["(KeyError, IndexError)", "AppError", "ArithmeticError", "Exception"]))
def test_caught_exceptions_kept_as_values_print_as_python(tmp_path, plan, bases, handlers):
    body = ["kept: list[Exception] = []",
            "saved: Exception | None = None",
            f"for n in range({len(plan)}):",
            "    try:",
            "        print(risky(n))",
            "    except Exception as e:",
            "        kept.append(e)",
            "        saved = e",
            "        print(type(e).__name__, str(e), repr(e), f'[{e}|{e!r}]')",
            "print(len(kept), kept, [type(k).__name__ for k in kept], [str(k) for k in kept])",
            "print(saved is None, saved, repr(saved))",
            "for k in kept:",
            f"    print({', '.join(f'isinstance(k, {b})' for b in bases)}, k)",
            "    try:",
            "        raise k"]
    for h in handlers:
        body += [f"    except {h} as e:", f"        print({h!r}, type(e).__name__, e, repr(e))"]
    _same(_program(_risky(plan), body), tmp_path)


@_SETTINGS
@given(PLANS, st.sampled_from(["AppError", "LookupError", "Exception", "ArithmeticError"]),
       st.sampled_from(["Exception", "ValueError", "KeyError"]), st.integers(-3, 3), MESSAGES.filter(bool))
def test_reraised_and_chained_exceptions_print_as_python(tmp_path, plan, inner, outer_fallback, code, why):
    head = (*_risky(plan), *DATA_CLASS,
            "def coded(n: int) -> int:",
            "    try:",
            "        if n < 0:",
            f"            raise DataError(n, {why!r})",
            "        return n",
            "    except DataError as e:",
            "        print('data', e.code, e)",
            "        raise ValueError('code ' + str(e.code)) from e",
            "",
            "",
            "def quiet(n: int) -> int:",
            "    try:",
            "        return risky(n)",
            "    except Exception as e:",
            "        raise AppError(type(e).__name__ + ': ' + str(e)) from None",
            "",
            "")
    body = [f"for n in range({len(plan)}):",
            "    try:",
            "        try:",
            "            print(risky(n))",
            f"        except {inner} as e:",
            "            print('inner', type(e).__name__, e)",
            "            raise",
            f"    except {outer_fallback} as e:",
            "        print('outer', type(e).__name__, e)",  # (repr: E0325, `Exception` may be a DataError)
            "    except Exception as e:",
            "        print('other', type(e).__name__, e)",
            "    try:",
            "        print(quiet(n))",
            "    except AppError as e:",
            "        print('quiet', repr(e))",
            f"for n in [{code}, {-code - 1}]:",
            "    try:",
            "        print(coded(n))",
            "    except ValueError as e:",
            "        print('value', e, type(e).__name__)"]
    _same(_program(head, body), tmp_path)


@_SETTINGS
@given(st.lists(st.tuples(st.sampled_from(CLASSES), st.text(alphabet="ab '", max_size=3)), min_size=1, max_size=5))
def test_exceptions_made_returned_and_grouped_print_as_python(tmp_path, made):
    head = ("def problem(n: int) -> Exception | None:",
            *(line for n, (cls, message) in enumerate(made)
              for line in (f"    if n == {n} and n % 2 == 0:", f"        return {cls}({message!r})")),
            "    return None",
            "",
            "",
            "def describe(e: Exception) -> str:",
            "    return f'{type(e).__name__}: {e}'",
            "",
            "")
    body = ["by_kind: dict[str, list[Exception]] = {}",
            f"made: list[Exception] = [{', '.join(f'{cls}({message!r})' for cls, message in made)}]",
            "print(made, [describe(e) for e in made])",
            f"for n in range({len(made)}):",
            "    p = problem(n)",
            "    if p is None:",
            "        print('none', n)",
            "    else:",
            "        by_kind.setdefault(type(p).__name__, []).append(p)",
            "        print(describe(p), isinstance(p, LookupError), isinstance(p, AppError))",
            "for k in sorted(by_kind):",
            "    print(k, by_kind[k], len(by_kind[k]))",
            "for e in made:",
            "    try:",
            "        raise e",
            "    except Exception as caught:",
            "        print(repr(caught), caught)"]
    _same(_program(head, body), tmp_path)

"""A tiny stack machine: assemble text into instructions, run them, report errors."""
from dataclasses import dataclass


class VMError(Exception):
    pass


@dataclass
class Instr:
    op: str
    arg: int = 0


def assemble(source: str) -> list[Instr]:
    labels: dict[str, int] = {}
    lines: list[list[str]] = []
    for raw in source.strip().splitlines():
        line = raw.split("#")[0].strip()
        if not line:
            continue
        if line.endswith(":"):
            labels[line[:-1]] = len(lines)
            continue
        lines.append(line.split())
    program: list[Instr] = []
    for parts in lines:
        op = parts[0].upper()
        if len(parts) == 1:
            program.append(Instr(op))
        elif parts[1] in labels:
            program.append(Instr(op, labels[parts[1]]))
        else:
            program.append(Instr(op, int(parts[1])))
    return program


def run(program: list[Instr], limit: int = 10000) -> list[int]:
    stack: list[int] = []
    out: list[int] = []
    pc = 0
    steps = 0
    while pc < len(program):
        steps += 1
        if steps > limit:
            raise VMError(f"step limit {limit} exceeded at pc={pc}")
        ins = program[pc]
        pc += 1
        if ins.op == "PUSH":
            stack.append(ins.arg)
        elif ins.op in ("ADD", "SUB", "MUL", "DIV"):
            if len(stack) < 2:
                raise VMError(f"stack underflow in {ins.op}")
            b, a = stack.pop(), stack.pop()
            if ins.op == "ADD":
                stack.append(a + b)
            elif ins.op == "SUB":
                stack.append(a - b)
            elif ins.op == "MUL":
                stack.append(a * b)
            else:
                if b == 0:
                    raise VMError("division by zero")
                stack.append(a // b)
        elif ins.op == "DUP":
            stack.append(stack[-1])
        elif ins.op == "SWAP":
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif ins.op == "PRINT":
            out.append(stack.pop())
        elif ins.op == "JZ":
            if stack.pop() == 0:
                pc = ins.arg
        elif ins.op == "JMP":
            pc = ins.arg
        elif ins.op == "HALT":
            break
        else:
            raise VMError(f"unknown op {ins.op!r}")
    return out


FACTORIAL = """
    push 1      # acc
    push 10     # n
loop:
    dup
    jz done
    dup
    push -1
    add         # acc n n-1
    swap        # acc n-1 n
    push 0
    add
    halt
done:
    print
"""

COUNTDOWN = """
    push 5
top:
    dup
    print
    push 1
    sub
    dup
    jz end
    jmp top
end:
    halt
"""


def main() -> None:
    programs = {
        "countdown": COUNTDOWN,
        "arith": "push 7\npush 6\nmul\npush 4\nsub\nprint",
        "underflow": "push 1\nadd",
        "divzero": "push 1\npush 0\ndiv",
        "forever": "top:\njmp top",
        "bad": "push 2\nfrob",
        "fact": FACTORIAL,
    }
    for name, src in programs.items():
        code = assemble(src)
        try:
            result = run(code, limit=500)
            print(f"{name:<10} ok    {result}")
        except VMError as e:
            print(f"{name:<10} error {e}")
    print(Instr("PUSH", 3), Instr("HALT") == Instr("HALT", 0))


main()

"""Tokenize and evaluate arithmetic expressions with a recursive-descent parser."""


def tokenize(text):
    tokens = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isdigit() or ch == ".":
            j = i
            while j < len(text) and (text[j].isdigit() or text[j] == "."):
                j += 1
            tokens.append(("NUM", text[i:j]))
            i = j
        elif ch in "+-*/()%^":
            tokens.append(("OP", ch))
            i += 1
        else:
            raise ValueError("unexpected character %r at %d" % (ch, i))
    tokens.append(("END", ""))
    return tokens


class Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos]

    def take(self):
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expr(self):
        value = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self):
        value = self.factor()
        while self.peek()[1] in ("*", "/", "%"):
            op = self.take()[1]
            rhs = self.factor()
            if op == "*":
                value = value * rhs
            elif op == "/":
                value = value / rhs
            else:
                value = value % rhs
        return value

    def factor(self):
        base = self.unary()
        if self.peek()[1] == "^":
            self.take()
            return base ** self.factor()
        return base

    def unary(self):
        if self.peek()[1] == "-":
            self.take()
            return -self.unary()
        return self.atom()

    def atom(self):
        kind, text = self.take()
        if kind == "NUM":
            return float(text)
        if text == "(":
            value = self.expr()
            if self.take()[1] != ")":
                raise ValueError("expected )")
            return value
        raise ValueError("unexpected token " + repr(text))


def evaluate(text):
    return Parser(tokenize(text)).expr()


def main():
    for line in ["1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "-4 + 10 / 4", "7 % 3 + 0.5", "((2))*(3-1)/-2"]:
        print(f"{line:>20} = {evaluate(line)}")
    for bad in ["1 + ", "2 $ 3", "(1 + 2"]:
        try:
            evaluate(bad)
        except ValueError as err:
            print("error:", err)


if __name__ == "__main__":
    main()

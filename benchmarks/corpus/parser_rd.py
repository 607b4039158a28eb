"""Tokenizer and recursive-descent parser for arithmetic with variables."""


class Token:
    def __init__(self, kind, text):
        self.kind = kind
        self.text = text

    def __repr__(self):
        return f"Token({self.kind!r}, {self.text!r})"


class ParseError(Exception):
    pass


def tokenize(src):
    tokens = []
    i = 0
    while i < len(src):
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(src) and (src[j].isdigit() or src[j] == "."):
                j += 1
            tokens.append(Token("num", src[i:j]))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < len(src) and (src[j].isalnum() or src[j] == "_"):
                j += 1
            tokens.append(Token("name", src[i:j]))
            i = j
        elif c in "+-*/()^%=":
            tokens.append(Token("op", c))
            i += 1
        else:
            raise ParseError(f"unexpected character {c!r} at {i}")
    tokens.append(Token("end", ""))
    return tokens


class Parser:
    def __init__(self, tokens, env):
        self.tokens = tokens
        self.pos = 0
        self.env = env

    def peek(self):
        return self.tokens[self.pos]

    def next(self):
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expect(self, text):
        tok = self.next()
        if tok.text != text:
            raise ParseError(f"expected {text!r}, got {tok.text!r}")

    def expr(self):
        value = self.term()
        while self.peek().text in ("+", "-"):
            op = self.next().text
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self):
        value = self.factor()
        while self.peek().text in ("*", "/", "%"):
            op = self.next().text
            rhs = self.factor()
            if op == "*":
                value *= rhs
            elif op == "/":
                if rhs == 0:
                    raise ParseError("division by zero")
                value /= rhs
            else:
                value %= rhs
        return value

    def factor(self):
        base = self.unary()
        if self.peek().text == "^":
            self.next()
            return base ** self.factor()
        return base

    def unary(self):
        if self.peek().text == "-":
            self.next()
            return -self.unary()
        return self.atom()

    def atom(self):
        tok = self.next()
        if tok.kind == "num":
            return float(tok.text)
        if tok.kind == "name":
            if tok.text not in self.env:
                raise ParseError(f"unknown variable {tok.text}")
            return self.env[tok.text]
        if tok.text == "(":
            value = self.expr()
            self.expect(")")
            return value
        raise ParseError(f"unexpected token {tok!r}")


def evaluate(line, env):
    tokens = tokenize(line)
    if len(tokens) > 2 and tokens[0].kind == "name" and tokens[1].text == "=":
        p = Parser(tokens[2:], env)
        value = p.expr()
        env[tokens[0].text] = value
        return value
    p = Parser(tokens, env)
    value = p.expr()
    if p.peek().kind != "end":
        raise ParseError(f"trailing input at {p.peek()!r}")
    return value


def main():
    env = {"pi": 3.14159}
    lines = ["1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "-4 + 10 / 4", "x = 7 % 3",
             "x * pi", "y + 1", "3 $ 4", "10 / (5 - 5)", "(2 + 3", "r = 2.5", "pi * r ^ 2", "1 2"]
    for line in lines:
        try:
            print(f"{line:<14} => {evaluate(line, env)}")
        except ParseError as e:
            print(f"{line:<14} !! {e}")
    print(sorted(env.items()))
    print(tokenize("a+1"))


main()

class Parser:
    def __init__(self, text: str):
        self.tokens = self.tokenize(text)
        self.pos = 0

    def tokenize(self, text: str) -> list[str]:
        tokens = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch.isspace():
                i += 1
            elif ch.isdigit():
                j = i
                while j < len(text) and (text[j].isdigit() or text[j] == "."):
                    j += 1
                tokens.append(text[i:j])
                i = j
            else:
                tokens.append(ch)
                i += 1
        return tokens

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def take(self) -> str:
        tok = self.peek()
        self.pos += 1
        return tok

    def expr(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            if self.take() == "+":
                value += self.term()
            else:
                value -= self.term()
        return value

    def term(self) -> float:
        value = self.factor()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                value *= self.factor()
            else:
                value /= self.factor()
        return value

    def factor(self) -> float:
        tok = self.take()
        if tok == "(":
            value = self.expr()
            self.take()
            return value
        if tok == "-":
            return -self.factor()
        return float(tok)


def main():
    for text in ["1 + 2 * 3", "(1 + 2) * 3", "10 / 4 - 0.5", "-(2.5 * 4) + 1", "2 * (3 + (4 - 1)) / 3"]:
        print(text, "=", Parser(text).expr())


if __name__ == "__main__":
    main()

"""A template engine without regular expressions: {{ name | filter }}, {% for %} and {% if %} blocks."""


class TemplateError(Exception):
    pass


class Node:
    def render(self, ctx: dict[str, object]) -> str:
        raise NotImplementedError


class Text(Node):
    def __init__(self, text: str):
        self.text = text

    def render(self, ctx: dict[str, object]) -> str:
        return self.text


class Var(Node):
    def __init__(self, expr: str):
        parts = [p.strip() for p in expr.split("|")]
        self.name, self.filters = parts[0], parts[1:]

    def render(self, ctx: dict[str, object]) -> str:
        text = str(lookup(ctx, self.name))
        for f in self.filters:
            if f == "upper":
                text = text.upper()
            elif f == "title":
                text = text.title()
            else:
                raise TemplateError(f"unknown filter {f!r}")
        return text


class Block(Node):
    def __init__(self, kind: str, args: list[str]):
        self.kind, self.args = kind, args
        self.body: list[Node] = []

    def render(self, ctx: dict[str, object]) -> str:
        if self.kind == "if":
            return "".join(n.render(ctx) for n in self.body) if lookup(ctx, self.args[0]) else ""
        items = lookup(ctx, self.args[2])
        assert isinstance(items, list)
        out = []
        for i, item in enumerate(items):
            inner = dict(ctx, loop_index=i + 1)
            inner[self.args[0]] = item
            out.append("".join(n.render(inner) for n in self.body))
        return "".join(out)


def lookup(ctx: dict[str, object], name: str) -> object:
    value: object = ctx
    for part in name.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise TemplateError(f"undefined: {name}")
    return value


def parse(source: str) -> list[Node]:
    root: list[Node] = []
    stack: list[Block] = []
    pos = 0

    def current() -> list[Node]:
        return stack[-1].body if stack else root

    while pos < len(source):
        start = source.find("{", pos)
        if start == -1 or start + 1 >= len(source) or source[start + 1] not in "{%":
            end = len(source) if start == -1 else start + 1
            current().append(Text(source[pos:end]))
            pos = end
            continue
        if start > pos:
            current().append(Text(source[pos:start]))
        closer = "}}" if source[start + 1] == "{" else "%}"
        stop = source.find(closer, start)
        if stop == -1:
            raise TemplateError(f"unclosed tag at {start}")
        inside, pos = source[start + 2:stop].strip(), stop + 2
        if closer == "}}":
            current().append(Var(inside))
            continue
        words = inside.split()
        if words[0] in ("for", "if"):
            block = Block(words[0], words[1:])
            current().append(block)
            stack.append(block)
        elif not stack or "end" + stack[-1].kind != words[0]:
            raise TemplateError(f"unexpected {words[0]}")
        else:
            stack.pop()
    if stack:
        raise TemplateError(f"missing end{stack[-1].kind}")
    return root


def main() -> None:
    ctx: dict[str, object] = {"user": {"name": "ada lovelace", "admin": True},
                              "items": ["apples", "pears", "plums"], "empty": [], "count": 3}
    templates = ["Hello, {{ user.name | title }}!", "{% if user.admin %}[admin] {% endif %}{{ user.name | upper }}",
                 "{% for it in items %}{{ loop_index }}. {{ it }}|{% endfor %}", "You have {{ count }} items.",
                 "{% for it in empty %}never{% endfor %}(nothing)", "braces { alone } stay", "{{ missing }}",
                 "{% for x in items %}{{ x }}", "{{ count | reverse }}", "{% endif %}", "{{ user.name"]
    for t in templates:
        try:
            print(repr("".join(node.render(ctx) for node in parse(t))))
        except TemplateError as e:
            print("TemplateError:", e)


if __name__ == "__main__":
    main()

"""Pretty-print nested dicts and lists the way a JSON dumper would, without the json module."""


def dump(value, indent=0):
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for key in sorted(value):
            lines.append(pad + "  " + '"' + str(key) + '": ' + dump(value[key], indent + 1))
        return "{\n" + ",\n".join(lines) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[" + ", ".join(dump(v, indent + 1) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value + '"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def main():
    config = {
        "name": "demo",
        "version": 3,
        "tags": ["a", "b"],
        "owner": {"id": 7, "active": True, "email": None},
        "ratios": [0.5, 1.25],
        "empty": {},
    }
    print(dump(config))
    print(dump([1, [2, [3, []]]]))


if __name__ == "__main__":
    main()

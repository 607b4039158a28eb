COUNT = 0
names: list[str] = []

def register(n: str):
    global COUNT
    COUNT += 1
    names.append(n)

def main():
    for n in ["x", "y"]:
        register(n)
    print(COUNT, names)
    for n in names:
        if len(names) < 4:
            register(n + "!")
    print(COUNT, names)

if __name__ == "__main__":
    main()

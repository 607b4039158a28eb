G = [1, 2, 3]

def g():
    global G
    for x in G:
        G = [x * 100] * 50
        print(x, len(G))

def main():
    xs = [1, 2, 3]
    for x in xs:
        xs = [x * 10] * 50
        print(x, len(xs))
    g()

if __name__ == "__main__":
    main()

def strs():
    s = "abc"
    for c in s:
        s = s + c * 30
        print(c, len(s))
    d = {1: 1, 2: 2}
    for k in d:
        d = {k: 0}
        print(k, d)

strs()

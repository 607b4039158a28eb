class P:
    def __init__(self, x: int):
        self.x = x
    def __repr__(self) -> str:
        return "P(" + str(self.x) + ")"

def main():
    ps = [P(1), P(2), P(3)]
    q = ps[1]
    q.x = 20
    print(ps)
    for p in ps:
        p.x *= 2
    print(ps, q)
    a = ps
    a.append(P(7))
    print(len(ps))

if __name__ == "__main__":
    main()

def main():
    a = [3, 1, 2]
    b = a
    b.append(4)
    print(a, b, a is b)
    d = {"k": [1]}
    e = d
    e["k"].append(2)
    e["z"] = [0]
    print(d)
    c = a[:]
    c.append(5)
    print(a, c)
    m = [[0] * 2] * 2
    m[0][0] = 1
    print(m)

if __name__ == "__main__":
    main()

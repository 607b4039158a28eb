def main():
    x = 5
    y = x
    y += 1
    s = "ab"
    u = s
    u += "c"
    print(x, y, s, u)
    a = (1, 2)
    b = a + (3,)
    print(a, b, max(a), a * 2, b[1:])
    i = 0
    while True:
        i += 1
        if i > 3:
            break
    else:
        print("never")
    print(i)

if __name__ == "__main__":
    main()

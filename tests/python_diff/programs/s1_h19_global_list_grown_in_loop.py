xs = [1, 2, 3]

def grow():
    if len(xs) < 6:
        xs.append(len(xs) * 10)

def main():
    for x in xs:
        print(x)
        grow()
    print(xs)

if __name__ == "__main__":
    main()

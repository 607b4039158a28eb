def add(x, acc=[]):
    acc.append(x)
    return acc

def main():
    print(add(1))
    print(add(2))

if __name__ == "__main__":
    main()

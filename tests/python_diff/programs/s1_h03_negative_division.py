def main():
    for a in [7, -7]:
        for b in [2, -2, 3, -3]:
            print(a, b, a // b, a % b, divmod(a, b), a / b)
    print(-7 // 2.0, -7 % 2.5, 7.5 // -2, round(2.5), round(3.5), round(-0.5), round(2.675, 2))

if __name__ == "__main__":
    main()

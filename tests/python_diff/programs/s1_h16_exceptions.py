def main():
    try:
        xs = [1, 2]
        print(xs[5])
    except IndexError as e:
        print("IndexError", e)
    try:
        d = {"a": 1}
        print(d["b"])
    except KeyError as e:
        print("KeyError", e)
    try:
        print(int("x" + "1"))
    except ValueError as e:
        print("ValueError", e)
    try:
        print(1 // 0)
    except ZeroDivisionError as e:
        print("ZDE", e)
    try:
        e: list[int] = []
        e.pop()
    except IndexError as e:
        print(e)
    finally:
        print("fin")

if __name__ == "__main__":
    main()

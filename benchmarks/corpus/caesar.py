def shift_char(ch: str, k: int) -> str:
    if "a" <= ch <= "z":
        return chr((ord(ch) - ord("a") + k) % 26 + ord("a"))
    if "A" <= ch <= "Z":
        return chr((ord(ch) - ord("A") + k) % 26 + ord("A"))
    return ch


def encrypt(text: str, k: int) -> str:
    return "".join(shift_char(ch, k) for ch in text)


N = 1  # benchmark size: 20000


def main():
    msg = "The Quick Brown Fox Jumps Over The Lazy Dog!" * N
    enc = encrypt(msg, 13)
    print(enc[:88], len(enc))
    print(encrypt(enc, -13) == msg)
    freq = [0] * 26
    for ch in msg.lower():
        if ch.isalpha():
            freq[ord(ch) - ord("a")] += 1
    print(all(f > 0 for f in freq), max(freq))


if __name__ == "__main__":
    main()

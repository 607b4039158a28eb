"""A small library catalogue: books as dataclasses, loans, and reports sorted several ways."""
from dataclasses import dataclass, field


class LibraryError(Exception):
    pass


class NotAvailable(LibraryError):
    def __init__(self, title: str, holder: str):
        super().__init__(f"'{title}' is on loan to {holder}")
        self.title = title
        self.holder = holder


@dataclass
class Book:
    isbn: str
    title: str
    author: str
    year: int
    tags: list[str] = field(default_factory=list)
    holder: str | None = None
    times_lent: int = 0

    def label(self) -> str:
        return f"{self.title} ({self.author}, {self.year})"


@dataclass
class Member:
    name: str
    limit: int = 2
    borrowed: list[str] = field(default_factory=list)


class Library:
    def __init__(self) -> None:
        self.books: dict[str, Book] = {}
        self.members: dict[str, Member] = {}
        self.log: list[str] = []

    def add(self, book: Book) -> None:
        if book.isbn in self.books:
            raise LibraryError(f"duplicate isbn {book.isbn}")
        self.books[book.isbn] = book

    def lend(self, isbn: str, name: str) -> None:
        book = self.books.get(isbn)
        if book is None:
            raise LibraryError(f"no book with isbn {isbn}")
        member = self.members[name]
        if book.holder is not None:
            raise NotAvailable(book.title, book.holder)
        if len(member.borrowed) >= member.limit:
            raise LibraryError(f"{name} already has {len(member.borrowed)} books")
        book.holder = name
        book.times_lent += 1
        member.borrowed.append(isbn)
        self.log.append(f"lend {isbn} -> {name}")

    def give_back(self, isbn: str) -> None:
        book = self.books[isbn]
        if book.holder is None:
            raise LibraryError(f"'{book.title}' was not on loan")
        self.members[book.holder].borrowed.remove(isbn)
        self.log.append(f"return {isbn} <- {book.holder}")
        book.holder = None

    def by_tag(self) -> dict[str, list[str]]:
        tags: dict[str, list[str]] = {}
        for book in self.books.values():
            for tag in book.tags:
                tags.setdefault(tag, []).append(book.title)
        return {t: sorted(titles) for t, titles in sorted(tags.items())}


def main() -> None:
    lib = Library()
    for book in [Book("111", "Dune", "Herbert", 1965, ["scifi", "classic"]),
                 Book("222", "Neuromancer", "Gibson", 1984, ["scifi", "cyberpunk"]),
                 Book("333", "Emma", "Austen", 1815, ["classic", "romance"]),
                 Book("444", "Hyperion", "Simmons", 1989, ["scifi"]), Book("555", "Persuasion", "Austen", 1817)]:
        lib.add(book)
    for name, limit in [("ann", 2), ("bob", 1), ("cid", 3)]:
        lib.members[name] = Member(name, limit)
    actions = [("lend", "111", "ann"), ("lend", "111", "bob"), ("lend", "222", "bob"),
               ("lend", "333", "bob"), ("lend", "999", "cid"), ("return", "111", ""),
               ("lend", "111", "cid"), ("return", "444", ""), ("lend", "555", "ann"),
               ("lend", "444", "ann"), ("add", "222", "")]
    for kind, isbn, who in actions:
        try:
            if kind == "lend":
                lib.lend(isbn, who)
            elif kind == "return":
                lib.give_back(isbn)
            else:
                lib.add(Book(isbn, "Copy", "Nobody", 2000))
            print(f"ok    {kind:6} {isbn}")
        except NotAvailable as e:
            print(f"busy  {kind:6} {isbn}: {e} (holder={e.holder})")
        except LibraryError as e:
            print(f"error {kind:6} {isbn}: {e}")
    print("-- by year")
    for book in sorted(lib.books.values(), key=lambda b: b.year):
        status = f"with {book.holder}" if book.holder else "on shelf"
        print(f"  {book.year} {book.label():<32} {status}")
    print("-- by author:", [b.title for b in sorted(lib.books.values(), key=lambda b: (b.author, b.title))])
    print("-- by tag")
    for tag, titles in lib.by_tag().items():
        print(f"  {tag:<10} {', '.join(titles)}")
    for m in sorted(lib.members.values(), key=lambda m: len(m.borrowed), reverse=True):
        print(f"  {m.name}: {len(m.borrowed)}/{m.limit} {[lib.books[i].title for i in m.borrowed]}")
    print("most lent:", max(lib.books.values(), key=lambda b: b.times_lent).title)
    print("log entries:", len(lib.log), "| first:", lib.log[0], "| last:", lib.log[-1])
    print("authors:", sorted({b.author for b in lib.books.values()}), Book("000", "Test", "T", 1))


if __name__ == "__main__":
    main()

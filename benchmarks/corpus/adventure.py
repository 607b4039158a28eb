ROOMS = {
    "hall": {"desc": "a dusty hall", "exits": {"north": "library", "east": "kitchen"}, "items": ["lamp"]},
    "library": {"desc": "walls of books", "exits": {"south": "hall"}, "items": ["book", "key"]},
    "kitchen": {"desc": "a cold kitchen", "exits": {"west": "hall", "down": "cellar"}, "items": []},
    "cellar": {"desc": "darkness", "exits": {"up": "kitchen"}, "items": ["treasure"]},
}


class Game:
    def __init__(self):
        self.room = "hall"
        self.inventory = []
        self.moves = 0
        self.state = "playing"
        self.locked = {"cellar"}

    def look(self):
        room = ROOMS[self.room]
        exits = ", ".join(sorted(room["exits"]))
        items = ", ".join(room["items"]) or "nothing"
        return f"You are in {room['desc']}. Exits: {exits}. You see: {items}."

    def go(self, direction):
        exits = ROOMS[self.room]["exits"]
        if direction not in exits:
            return "You can't go that way."
        target = exits[direction]
        if target in self.locked:
            if "key" in self.inventory:
                self.locked.remove(target)
                msg = "You unlock the way. "
            else:
                return "It is locked."
        else:
            msg = ""
        if target == "cellar" and "lamp" not in self.inventory:
            self.state = "dead"
            return msg + "You fall in the dark."
        self.room = target
        return msg + self.look()

    def take(self, item):
        items = ROOMS[self.room]["items"]
        if item not in items:
            return f"There is no {item} here."
        items.remove(item)
        self.inventory.append(item)
        if item == "treasure":
            self.state = "won"
        return f"Taken: {item}."

    def handle(self, command):
        self.moves += 1
        words = command.lower().split()
        if not words:
            return "Say something."
        verb, *rest = words
        arg = " ".join(rest)
        if verb in ("n", "s", "e", "w"):
            verb, arg = "go", {"n": "north", "s": "south", "e": "east", "w": "west"}[verb]
        match verb:
            case "look":
                return self.look()
            case "go":
                return self.go(arg)
            case "take" | "get":
                return self.take(arg)
            case "inv":
                return "You carry: " + (", ".join(self.inventory) if self.inventory else "nothing")
            case _:
                return f"I don't know how to {verb!r}."


def play(commands):
    game = Game()
    for cmd in commands:
        if game.state != "playing":
            break
        print(f"> {cmd}")
        print(game.handle(cmd))
    print(f"[{game.state} after {game.moves} moves]")


play(["look", "take lamp", "e", "go down", "w", "n", "take key", "get book", "inv", "dance", "s", "e", "down", "take treasure", "look"])
play(["e", "down", "n"])
play(["n", "take key", "s", "e", "down"])
play(["", "   ", "go up"])

"""A bank with two tellers: customers arrive at random, wait in a deque, and are served in order."""
import random
from collections import deque


def simulate(minutes, seed):
    random.seed(seed)
    queue = deque()
    tellers = [0, 0]
    waits = []
    served = 0
    for minute in range(minutes):
        if random.random() < 0.6:
            queue.append(minute)
        for t in range(len(tellers)):
            if tellers[t] > 0:
                tellers[t] -= 1
            if tellers[t] == 0 and queue:
                arrived = queue.popleft()
                waits.append(minute - arrived)
                tellers[t] = random.randint(1, 4)
                served += 1
    return served, len(queue), waits


def main():
    for seed in (1, 2, 3):
        served, left, waits = simulate(120, seed)
        average = sum(waits) / len(waits)
        print(f"seed {seed}: served {served}, still waiting {left}, average wait {average:.2f}, longest {max(waits)}")


if __name__ == "__main__":
    main()

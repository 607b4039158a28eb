INF = 10 ** 9


def dijkstra(adj: list[list[tuple[int, int]]], src: int) -> list[int]:
    n = len(adj)
    dist = [INF] * n
    done = [False] * n
    dist[src] = 0
    for _ in range(n):
        u = -1
        for v in range(n):
            if not done[v] and (u == -1 or dist[v] < dist[u]):
                u = v
        if dist[u] == INF:
            break
        done[u] = True
        for v, w in adj[u]:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    return dist


def main():
    edges = [(0, 1, 7), (0, 2, 9), (0, 5, 14), (1, 2, 10), (1, 3, 15), (2, 3, 11), (2, 5, 2), (3, 4, 6), (4, 5, 9)]
    adj: list[list[tuple[int, int]]] = [[] for _ in range(7)]
    for a, b, w in edges:
        adj[a].append((b, w))
        adj[b].append((a, w))
    dist = dijkstra(adj, 0)
    print([d if d < INF else None for d in dist])


if __name__ == "__main__":
    main()

"""The least-cost assignment of rows to columns (pools to a pot's entrants, bottom seeds to top seeds).

Written here rather than taken from a library: a seeding is published and re-derived, so which of several
equally cheap assignments comes out must be fixed by this code and never change with a library's release
(scipy is not a dependency; rustworkx's matching does not promise its ties). The shortest-augmenting-path
Hungarian method with potentials (Kuhn-Munkres in the Jonker-Volgenant form), exact on integers, O(n^2 m);
ties go to the lowest column index.
"""

from __future__ import annotations

from collections.abc import Sequence


def assignment(cost: Sequence[Sequence[int]]) -> list[int]:
    """The column of each row in an assignment of least total cost (n rows, m >= n columns, integers)."""
    n = len(cost)
    if n == 0:
        return []
    m = len(cost[0])
    if m < n or any(len(row) != m for row in cost):
        raise ValueError("the cost matrix needs as many columns as rows at least, in every row")
    inf = float("inf")
    u = [0] * (n + 1)  # row potentials
    v = [0] * (m + 1)  # column potentials
    owner = [0] * (m + 1)  # the row holding each column (0: none); column 0 is the search's root
    way = [0] * (m + 1)
    columns = range(1, m + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        slack = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row = cost[i0 - 1]
            ui0 = u[i0]
            delta, j1 = inf, 0
            for j in columns:
                if not used[j]:
                    reduced = row[j - 1] - ui0 - v[j]
                    if reduced < slack[j]:
                        slack[j] = reduced
                        way[j] = j0
                    if slack[j] < delta:
                        delta, j1 = slack[j], j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = [0] * n
    for j in columns:
        if owner[j]:
            out[owner[j] - 1] = j - 1
    return out

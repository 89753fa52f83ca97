"""The ``swiss`` format: new partners and new tables every round, by the standings.

The priorities, strictly in this order: no repeated partnership and no kept-apart pair at one table (hard
rules), the fewest opponent pairs who already met as opponents, partners and partnerships close in match
points, the fewest pairs of one club at one table, then the seed.

Up to 12 players the draw is the best of every seating (exhaustive, ``search.exact``). Beyond:

1. partners: the players in match-point order, shuffled from the seed inside each score group, are paired
   by a maximum-weight matching that forbids earlier partners and kept-apart pairs and prefers, in order,
   the same score group, different clubs, and the neighbour in the shuffled list (so a score group of
   players who never partnered is simply taken two by two);
2. tables: the partnerships by combined score (match points, games won, points for) are paired by a second
   matching that prefers, in order, no kept-apart pair, no repeated opponents, close combined scores,
   different clubs, and neighbours in that order; it starts from the nearest 8 on each side and opens a
   partnership's whole row when it is left unpaired, with a repeated opponent or a kept-apart pair;
3. a table still with a repeated opponent is re-seated with each other table in turn, the eight players
   in their best seating (both partnerships may change), when that lowers the repeated opponents; then,
   up to 400 players (at any size while a kept-apart pair shares a table), swaps of two players between
   tables and seeded restarts (``search.GroupSearch``) while the repeated opponents fall and stay above
   the lower bound (``bounds.py``). A kept-apart pair still at one table then refuses the round
   (``constraint_unsatisfiable``); a partnering that even step 1 cannot find refuses it too, and that is
   proven (every draw contains one).

At a table, the partnership with a fixed player, else the better ranked one, sits N-S; N is the fixed
player or the better ranked partner. Tables are numbered in standings order, fixed tables kept.
"""

from __future__ import annotations

import rustworkx as rx

from .bounds import bound_method, lower_bound
from .field import Field, club_bound, club_pairs, meetings, pairs_in
from .inputs import DrawError, DrawnTable, DrawResult
from .problem import Problem
from .search import EXACT_MAX_PLAYERS, GroupSearch, exact, reoptimize_pairs

WINDOW = 8
ROW_ROUNDS = 3
PAIR_BUDGET = 400_000
SEARCH_MAX_PLAYERS = 400
SEARCH_BUDGET = 400_000
KICK_PLAYERS = 10_000
RESCUE_KICKS = 2_000  # when a kept-apart pair still shares a table: many more restarts before refusing


def draw_swiss(field: Field) -> DrawResult:
    sitting_out = field.choose_sitting_out(len(field.numbers) % 4)
    playing = [n for n in field.numbers if n not in sitting_out]
    partners, opponents = meetings(field.history)
    points = {n: field.score[n][0] for n in playing}
    problem = Problem(kind="swiss", players=field.shuffled("order", playing), counted=opponents, hard=field.hard,
                      clubs=field.club, fixed=field.fixed, partners=partners, points=points)
    rank = {n: k for k, n in enumerate(sorted(playing, key=lambda n: (
        -field.score[n][0], -field.score[n][1], -field.score[n][2], field.key("rank", n), n)))}
    # the bound on the problem in start-number order (the search's order is the seed's)
    bounded = Problem(kind="swiss", players=playing, counted=opponents, hard=field.hard, clubs={},
                      fixed=field.fixed, partners=partners)
    if problem.n <= EXACT_MAX_PLAYERS:
        found, cost = exact(problem)
        if cost >= problem.big:
            raise _refusal(field, problem, found)
        tables = [problem.group(g)[1] for g in found]
        method = "exact"
    else:
        tables = _search(field, problem, rank, bounded)
        method = "search"
    drawn = _seat(field, problem, rank, tables)
    groups = [(*t.ns, *t.ew) for t in drawn]
    repeated = sum(pairs_in([(a, c), (a, d), (b, c), (b, d)], opponents) for a, b, c, d in groups)
    report = {
        "method": method,
        "players": len(field.numbers),
        "tables": len(drawn),
        "sitting_out": len(sitting_out),
        "repeated_partners": pairs_in([t.ns for t in drawn] + [t.ew for t in drawn], partners),
        "repeated_opponents": repeated,
        "opponents_lower_bound": lower_bound(bounded, repeated),
        "bound": bound_method(bounded),
        "club_conflicts": club_pairs(field, groups),
        "club_conflicts_lower_bound": club_bound(field, playing, len(drawn)),
        "partner_floats": sum(1 for t in drawn for side in (t.ns, t.ew) if points[side[0]] != points[side[1]]),
        "table_floats": sum(1 for t in drawn if points[t.ns[0]] + points[t.ns[1]] != points[t.ew[0]] + points[t.ew[1]]),
    }
    return DrawResult(tuple(drawn), tuple(sitting_out), report)


def _refusal(field: Field, problem: Problem, found: list) -> DrawError:
    """Why no draw exists: the partnerships alone (``no_partnership_left``) or a kept-apart pair."""
    loose = Problem(kind="swiss", players=problem.players, counted={}, hard={}, clubs={}, fixed={},
                    partners={p: {problem.players[i] for i in s} for p, s in zip(problem.players, problem.partners,
                                                                                  strict=True)})
    _, cost = exact(loose)
    stuck = sorted(problem.players[i] for g in found if problem.group(g)[0] >= problem.big for i in g)
    if cost >= loose.big:
        return DrawError("no_partnership_left", {"players": stuck})
    for g in found:
        for a in g:
            for b in g:
                if b in problem.hard[a] and problem.players[a] < problem.players[b]:
                    return DrawError("constraint_unsatisfiable", {"pair": [problem.players[a], problem.players[b]]})
    return DrawError("constraint_unsatisfiable", {"pair": stuck[:2]})


# -- beyond twelve players -------------------------------------------------------------------------------

def _search(field: Field, problem: Problem, rank: dict[int, int], bounded: Problem) -> list[tuple[int, ...]]:
    index = {p: i for i, p in enumerate(problem.players)}
    couples = _partners(field, problem, index)
    tables = _tables(field, problem, rank, couples)
    arranged = []
    for table in tables:  # keep the drawn partners unless another split of the four repeats fewer opponents
        cost, best = problem.group(table)
        arranged.append(best if cost // problem.unit < _repeats(problem, table) else table)
    groups = [list(t) for t in arranged]
    reoptimize_pairs(problem, groups, bad=lambda g: problem.primary(g) != 0,
                     better=lambda _o, _n, old, new: _primary(problem, new) < _primary(problem, old),
                     pinned=False, budget=PAIR_BUDGET)
    repeated = _primary(problem, groups)
    forbidden = any(problem.primary(g) is None for g in groups)
    if forbidden or (repeated and problem.n <= SEARCH_MAX_PLAYERS):
        floor = lower_bound(bounded, repeated)
        if repeated > floor:  # swaps and seeded restarts until no draw could do better, or the counts run out
            search = GroupSearch(problem, groups, field.rng("search"))
            search.kick(KICK_PLAYERS // problem.n, search.descend(SEARCH_BUDGET), floor)
            if any(problem.primary(g) is None for g in search.groups):  # rare: many kept-apart pairs
                search.kick(RESCUE_KICKS, SEARCH_BUDGET * RESCUE_KICKS, floor)
            if search.total() < _primary(problem, groups):
                groups = search.groups
    for g in groups:
        if problem.primary(g) is None:  # a kept-apart pair (or two fixed players) the search could not part
            pairs = sorted(sorted((problem.players[a], problem.players[b])) for a in g for b in g
                           if b in problem.hard[a])
            raise DrawError("constraint_unsatisfiable", {"pair": pairs[0] if pairs else []})
    kept = {tuple(sorted(t)): t for t in arranged}
    return [kept.get(tuple(sorted(g))) or problem.group(g)[1] for g in groups]


def _primary(problem: Problem, groups: list[list[int]]) -> int:
    return sum(problem.primary(g) if problem.primary(g) is not None else 4 * problem.t + 1 for g in groups)


def _repeats(problem: Problem, table: tuple[int, ...]) -> int:
    a, b, c, d = table
    counted = problem.counted
    return (c in counted[a]) + (d in counted[a]) + (c in counted[b]) + (d in counted[b])


def _match(nodes: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(edges)
    return sorted(tuple(sorted(p)) for p in rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int))


def _partners(field: Field, problem: Problem, index: dict[int, int]) -> list[tuple[int, int]]:
    """Step 1: partners within score groups (problem indices), by a matching on the seeded line."""
    line = sorted(problem.players, key=lambda p: (-field.score[p][0], field.key("partner", p), p))
    n = len(line)
    mp = [field.score[p][0] for p in line]
    spread = mp[0] - mp[-1]
    k_club = n * n + 1
    k_score = k_club * (n // 2 + 1)
    big = k_score * (spread * spread + 1) + k_club + n + 1
    width: int | None = WINDOW
    while True:
        edges = []
        for i in range(n):
            a = index[line[i]]
            for j in range(i + 1, n if width is None else min(n, i + width + 1)):
                b = index[line[j]]
                if b in problem.partners[a] or b in problem.hard[a]:
                    continue
                cost = (mp[i] - mp[j]) ** 2 * k_score + problem.club_pair(a, b) * k_club + (j - i)
                edges.append((i, j, big - cost))
        matching = _match(n, edges)
        if 2 * len(matching) == n:
            return [(index[line[i]], index[line[j]]) for i, j in matching]
        if width is None:
            raise _no_partners(problem, line, index, matching)
        width = None if 4 * width >= n else 2 * width


def _no_partners(problem: Problem, line: list[int], index: dict[int, int], matching: list) -> DrawError:
    """No perfect partnering: because of earlier partnerships alone, or of a kept-apart pair."""
    n = len(line)
    loose = [(i, j, 1) for i in range(n) for j in range(i + 1, n)
             if index[line[j]] not in problem.partners[index[line[i]]]]
    if 2 * len(_match(n, loose)) == n:
        pairs = sorted(sorted((line[i], line[j])) for i in range(n) for j in range(i + 1, n)
                       if index[line[j]] in problem.hard[index[line[i]]])
        return DrawError("constraint_unsatisfiable", {"pair": pairs[0]})
    matched = {v for pair in matching for v in pair}
    return DrawError("no_partnership_left", {"players": sorted(line[i] for i in range(n) if i not in matched)})


def _tables(field: Field, problem: Problem, rank: dict[int, int],
            couples: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Step 2: the partnerships paired by combined score, the fewest repeated opponents first."""
    players, score = problem.players, field.score

    def combined(c: tuple[int, int]) -> tuple:
        a, b = players[c[0]], players[c[1]]
        return (-(score[a][0] + score[b][0]), -(score[a][1] + score[b][1]), -(score[a][2] + score[b][2]),
                min(rank[a], rank[b]))

    line = [tuple(sorted(c, key=lambda i: rank[players[i]])) for c in sorted(couples, key=combined)]
    m = len(line)
    mp = [problem.mp[a] + problem.mp[b] for a, b in line]
    spread = mp[0] - mp[-1]
    k_club = m * m + 1
    k_score = k_club * (2 * m + 1)
    k_repeat = k_score * (spread * spread * m + 1)
    k_hard = k_repeat * (2 * m + 1)
    big = k_hard * 5
    hard, counted = problem.hard, problem.counted

    def apart(i: int, j: int) -> int:
        (a, b), (c, d) = line[i], line[j]
        return (c in hard[a]) + (d in hard[a]) + (c in hard[b]) + (d in hard[b])

    def edge(i: int, j: int) -> tuple[int, int, int]:
        (a, b), (c, d) = line[i], line[j]
        repeats = (c in counted[a]) + (d in counted[a]) + (c in counted[b]) + (d in counted[b])
        clubs = (problem.club_pair(a, c) + problem.club_pair(a, d) + problem.club_pair(b, c)
                 + problem.club_pair(b, d))
        cost = (apart(i, j) * k_hard + repeats * k_repeat + (mp[i] - mp[j]) ** 2 * k_score + clubs * k_club
                + (j - i))
        return (i, j, big - cost)

    def attempt(rows: set[int] | None) -> list[tuple[int, int]]:
        pairs = set()
        for i in range(m):
            ends = range(i + 1, m) if rows is None or i in rows else range(i + 1, min(m, i + WINDOW + 1))
            pairs.update((i, j) for j in ends)
        for i in sorted(rows or ()):
            pairs.update((j, i) for j in range(i))
        return _match(m, [edge(i, j) for i, j in sorted(pairs)])

    rows: set[int] = set()
    for _ in range(ROW_ROUNDS + 1):
        matching = attempt(rows)
        matched = {v for pair in matching for v in pair}
        worse = {v for i, j in matching if _repeats(problem, (*line[i], *line[j])) or apart(i, j) for v in (i, j)}
        worse |= {v for v in range(m) if v not in matched}
        if not worse - rows:
            break
        rows |= worse
    if 2 * len(matching) != m:  # a window left someone out: the whole graph always pairs everyone
        matching = attempt(None)
    return [(*line[i], *line[j]) for i, j in matching]


# -- seats and table numbers -------------------------------------------------------------------------------

def _seat(field: Field, problem: Problem, rank: dict[int, int], tables: list[tuple[int, ...]]) -> list[DrawnTable]:
    players = problem.players
    seated = []
    for a, b, c, d in tables:
        sides = [sorted((players[a], players[b]), key=rank.get), sorted((players[c], players[d]), key=rank.get)]
        for side in sides:
            side.sort(key=lambda p: (p not in field.fixed, rank[p]))
        sides.sort(key=lambda s: (not any(p in field.fixed for p in s),
                                  -(field.score[s[0]][0] + field.score[s[1]][0]), min(rank[s[0]], rank[s[1]])))
        seated.append(sides)
    seated.sort(key=lambda s: (-max(field.score[a][0] + field.score[b][0] for a, b in s), min(rank[p] for p in s[0] + s[1])))
    taken = {field.fixed[s[0][0]]: s for s in seated if s[0][0] in field.fixed}
    free = iter(k for k in range(1, len(seated) + 1) if k not in taken)
    numbered = dict(taken)
    for s in seated:
        if s[0][0] not in field.fixed:
            numbered[next(free)] = s
    return [DrawnTable.of(k, tuple(s[0]), tuple(s[1])) for k, s in sorted(numbered.items())]

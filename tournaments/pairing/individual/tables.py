"""The ``tables`` format: a new draw of tables of four every three rounds, the cycle's rotation in between.

Round 1 of a cycle (round_number % 3 == 1) draws the tables: the sit-outs first (the event's rule, in
``field.choose_sitting_out``), then the others in the seed's order, dealt to the tables (a player fixed to a
table is placed there first), then repaired: up to 12 players the best of every seating (exhaustive),
beyond by swaps of two players while a swap lowers the cost (``search.TableSearch``), seeded restarts and a
re-seating of two tables at a time. The cost counts, in strict priority, the kept-apart pairs at one table
(none may remain: ``constraint_unsatisfiable``), the pairs who met in an earlier round, the pairs of one club.

At each table, A (the seated scorer, seat N) is the fixed player if there is one, else the player who has
been the scorer least often (ties from the seed); B, C and D are in the seed's order. Then
round 1 ``A+B v C+D``, round 2 ``A+C v B+D``, round 3 ``A+D v B+C``: everyone partners each of the other
three once and meets each twice as an opponent.

Rounds 2 and 3 are derived from the cycle's earlier rounds in ``history`` (no new randomness): a seat's
occupant is read from each earlier round of the cycle (so a reserve who took a seat keeps it), and
``inputs.reserves`` seats a new reserve. A player of the cycle who is no longer entered, with no reserve,
refuses the round with ``player_left_mid_cycle`` (the services decide); players entered since the cycle
began sit out until the next draw of tables.
"""

from __future__ import annotations

from .bounds import bound_method, lower_bound
from .field import Field, club_bound, club_pairs, meetings, pairs_in, union
from .inputs import DrawError, DrawnTable, DrawResult
from .problem import Problem
from .search import EXACT_MAX_PLAYERS, TableSearch, exact, reoptimize_pairs

#: seats (N, S, E, W) of each cycle round, as indices into the cycle's (A, B, C, D)
ROTATION = {1: (0, 1, 2, 3), 2: (0, 2, 1, 3), 3: (0, 3, 1, 2)}
SWAP_BUDGET = 2_000_000
KICK_PLAYERS = 10_000  # seeded restarts: about this many divided by the players, when conflicts remain
PAIR_BUDGET = 200_000
RESCUE_KICKS = 2_000


def draw_tables(field: Field) -> DrawResult:
    cycle_round = (field.round - 1) % 3 + 1
    start = field.round - cycle_round + 1
    before = [past for past in field.history if past.number < start]
    if cycle_round == 1:
        cycle, method, bounded = _new_cycle(field, before)
        joined = 0
    else:
        cycle, joined = _derived(field, start, cycle_round)
        method = "rotation"
        bounded = problem_for(field, sorted(p for g in cycle.values() for p in g), before)
    seats = ROTATION[cycle_round]
    tables = tuple(
        DrawnTable.of(table, (abcd[seats[0]], abcd[seats[1]]), (abcd[seats[2]], abcd[seats[3]]))
        for table, abcd in sorted(cycle.items())
    )
    seated = {p for abcd in cycle.values() for p in abcd}
    sitting_out = tuple(n for n in field.numbers if n not in seated)
    report = _report(field, bounded, before, cycle, cycle_round, method)
    report.update(sitting_out=len(sitting_out), joined_mid_cycle=joined)
    return DrawResult(tables, sitting_out, report)


def problem_for(field: Field, playing: list[int], before: list) -> Problem:
    """The partition problem of a cycle's draw: ``playing`` in the seed's order, meetings before the cycle."""
    partners, opponents = meetings(before)
    return Problem(kind="tables", players=playing, counted=union(partners, opponents), hard=field.hard,
                   clubs=field.club, fixed=field.fixed)


def _new_cycle(field: Field, before: list) -> tuple[dict[int, tuple[int, int, int, int]], str, Problem]:
    """The cycle's tables, how they were found, and the problem in start-number order (for the bounds)."""
    sitting_out = set(field.choose_sitting_out(len(field.numbers) % 4))
    playing = field.shuffled("order", (n for n in field.numbers if n not in sitting_out))
    problem = problem_for(field, playing, before)
    # the bounds on the problem in start-number order: the same figures in the three rounds of the cycle
    bounded = problem_for(field, sorted(playing), before)
    if problem.n <= EXACT_MAX_PLAYERS:
        found, cost = exact(problem)
        groups = [list(g) for g in found]
        method = "exact"
        by_table = _number_tables(problem, groups)
    else:
        search = TableSearch(problem, field.rng("search"))
        budget = search.descend(SWAP_BUDGET)
        cost = search.total()
        if cost > 0:  # restarts until the cost meets a lower bound (then nothing better exists)
            met = lower_bound(bounded, cost // problem.unit)
            floor = met * problem.unit + club_bound(field, playing, problem.t)
            search.kick(KICK_PLAYERS // problem.n, budget, floor)
            if search.total() >= problem.big:  # rare: many kept-apart pairs; many more restarts before refusing
                search.kick(RESCUE_KICKS, SWAP_BUDGET * RESCUE_KICKS, floor)
        groups = search.groups
        reoptimize_pairs(problem, groups, bad=lambda g: problem.group(g)[0] > 0,
                         better=lambda old, new, _o, _n: new < old, pinned=True, budget=PAIR_BUDGET)
        cost = problem.total(groups)
        method = "search"
        by_table = {g + 1: group for g, group in enumerate(groups)}
    if cost >= problem.big:
        raise DrawError("constraint_unsatisfiable", {"pair": _hard_pair(problem, list(by_table.values()))})
    return {table: _positions(field, problem, group) for table, group in by_table.items()}, method, bounded


def _number_tables(problem: Problem, groups: list[list[int]]) -> dict[int, list[int]]:
    """Fixed players' groups at their tables; the others at the free numbers, in the order found."""
    by_table: dict[int, list[int]] = {}
    free = []
    for group in groups:
        at = [problem.fixed[i] for i in group if problem.fixed[i] is not None]
        if at:
            by_table[at[0]] = group
        else:
            free.append(group)
    numbers = (k for k in range(1, problem.t + 1) if k not in by_table)
    for group, table in zip(free, numbers, strict=False):
        by_table[table] = group
    return by_table


def _positions(field: Field, problem: Problem, group: list[int]) -> tuple[int, int, int, int]:
    players = [problem.players[i] for i in group]
    fixed = [p for p in players if p in field.fixed]
    scorer = fixed[0] if fixed else min(players, key=lambda p: (field.scorer[p], field.key("scorer", p), p))
    rest = field.shuffled("seat", (p for p in players if p != scorer))
    return (scorer, rest[0], rest[1], rest[2])


def _hard_pair(problem: Problem, groups: list[list[int]]) -> list[int]:
    for group in groups:
        for a in group:
            for b in group:
                if b in problem.hard[a] and problem.players[a] < problem.players[b]:
                    return [problem.players[a], problem.players[b]]
    return []


def _derived(field: Field, start: int, cycle_round: int) -> tuple[dict[int, tuple[int, int, int, int]], int]:
    """Rounds 2 and 3: the cycle's seating, read from its earlier rounds (and ``reserves``), rotated."""
    rounds = {past.number: past for past in field.history}
    cycle: dict[int, list[int | None]] = {}
    for number in range(start, field.round):
        past = rounds.get(number)
        if past is None:
            raise DrawError("cycle_round_missing", {"round": number})
        seats = ROTATION[number - start + 1]
        for table in past.tables:
            abcd = cycle.setdefault(table.table, [None] * 4)
            for seat, player in zip(seats, (*table.ns, *table.ew), strict=True):
                if player is not None:
                    abcd[seat] = player
    first = rounds[start]
    in_first = {p for t in first.tables for p in (*t.ns, *t.ew)} | set(first.sitting_out)
    seated = {p for abcd in cycle.values() for p in abcd if p is not None}
    for left, reserve in field.inputs.reserves:
        if left not in seated or left in field.active or reserve not in field.active or reserve in seated:
            raise DrawError("reserve_invalid", {"player": left, "reserve": reserve})
        for abcd in cycle.values():
            if left in abcd:
                abcd[abcd.index(left)] = reserve
        seated = (seated - {left}) | {reserve}
    gone = sorted((p, t) for t, abcd in cycle.items() for p in abcd if p is not None and p not in field.active)
    empty = sorted(t for t, abcd in cycle.items() if None in abcd)
    if gone or empty:
        raise DrawError("player_left_mid_cycle",
                        {"players": [p for p, _ in gone], "tables": sorted({t for _, t in gone} | set(empty))})
    for table, abcd in cycle.items():
        for player in abcd:
            if field.fixed.get(player) not in (None, table) or (player in field.fixed and abcd[0] != player):
                raise DrawError("fixed_table_mid_cycle", {"player": player, "table": field.fixed[player]})
    joined = sum(1 for n in field.numbers if n not in in_first and n not in seated)
    return {t: tuple(abcd) for t, abcd in cycle.items()}, joined  # type: ignore[misc]


def _report(field: Field, problem: Problem, before: list, cycle: dict, cycle_round: int, method: str) -> dict:
    """Counts against the meetings before the cycle (within a cycle the four meet by design)."""
    partners, opponents = meetings(before)
    met = union(partners, opponents)
    groups = list(cycle.values())
    repeated = pairs_in(groups, met)
    met_bound = lower_bound(problem, repeated)
    opponents_repeated = pairs_in(groups, opponents)
    if _same(met, opponents, problem.players):
        opponents_bound = met_bound
    else:
        alone = Problem(kind="tables", players=problem.players, counted=opponents, hard=field.hard,
                        clubs=field.club, fixed=field.fixed)
        opponents_bound = lower_bound(alone, opponents_repeated)
    return {
        "cycle_round": cycle_round,
        "method": method,
        "players": len(field.numbers),
        "tables": len(groups),
        "repeated_meetings": repeated,
        "meetings_lower_bound": met_bound,
        "repeated_partners": pairs_in(groups, partners),
        "repeated_opponents": opponents_repeated,
        "opponents_lower_bound": opponents_bound,
        "bound": bound_method(problem),
        "club_conflicts": club_pairs(field, groups),
        "club_conflicts_lower_bound": club_bound(field, problem.players, len(groups)),
    }


def _same(a: dict, b: dict, players: list[int]) -> bool:
    return all(a.get(p, set()) == b.get(p, set()) for p in players)

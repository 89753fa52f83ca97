"""Qualification rules: who goes on to the next stage, in which seeding order, and how each cut was decided.

The rules (``Rule.kind``):

* ``top``: the first ``count`` of the stage's standings;
* ``pools``: the first ``per_pool`` of each pool, then the ``best_next`` best of the next place across the
  pools (the Roeselare duos: 15 winners and the best runner-up);
* ``table_winners``: the first at each table over a ``tables`` cycle, by the stage's order (the Belgian
  championship's semi-final to its final);
* ``all``: everyone.

**Inside one standings** (a whole stage, one pool, one table) entrants are ordered by the standings' rank,
which is the stage's full metric list (rows equal on every metric share it), then by the previous stage's
rank (``previous``; missing: after), then by the lottery of the stage's published seed (``base.Lottery``,
purpose ``cut``): never by an entry id, and never by the standings' own last resort.

**Across pools** the entrants of one place are compared per match played, exactly (``Fraction``), so that
a pool of five and a pool of four compare fairly: for each metric of the stage's list that is a sum over
matches (match points, matches won, games, game points and their differences) its value over the table
divided by the matches played. A bye is left out of both (it is not a match, and unequal pools give byes
unequally): match points are those earned over the table (``Totals.played_points``). The metrics that read
opponents or the tied group (the Buchholz family, Sonneborn-Berger, direct encounter, progressive,
opponents minus partner) mean nothing between entrants of different pools and are skipped. An entrant
without a match played comes last. Then the previous stage's rank, then the lottery.

**Ties.** Where a cut separates entrants who were level on the first criterion, ``Qualification.ties``
says how (``Tie``): by a later metric of the list (``metric``), per match across pools (``per_match``), by
the previous stage's rank (``previous_rank``) or by the draw (``draw``), with the group that was level
before that criterion and who of it qualified, so a page can say "level on match points, qualified on
games won".

**Withdrawals.** A withdrawn entrant (``Row.withdrawn``) keeps its place in the stage's order but never
qualifies: the next best goes on (in a pool, the next of that pool moves up), and ``replacements`` pairs
each withdrawn entrant who would have qualified with the one who went on instead, in order.

**Seeding of the next stage** (``Qualification.qualifiers``, seed 1 first): ``top`` and ``all`` in the cut
order; ``pools`` place by place (the winners first, compared across pools, then the runners-up...), the
best of the next place last; ``table_winners`` by the stage's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.ranking.metrics import Totals

from .base import Lottery, StageError, entrants_once
from .event import Replacement, StageResult

__all__ = ["RULES", "PER_MATCH", "Rule", "Row", "Qualifier", "Tie", "Qualification", "rows_of", "qualify",
           "check_rule", "pool_sizes", "cycle_tables"]

RULES = ("top", "pools", "table_winners", "all")

#: The metrics compared per match played across pools: the value over the table, signed larger-is-better.
PER_MATCH: dict[str, Callable[[Totals], int]] = {
    "match_points": lambda t: t.played_points,
    "matches_won": lambda t: t.won,
    "wins": lambda t: t.won,
    "games_won": lambda t: t.games_won,
    "games_lost": lambda t: -t.games_lost,
    "games_diff": lambda t: t.games_won - t.games_lost,
    "points_for": lambda t: t.points_for,
    "points_against": lambda t: -t.points_against,
    "points_diff": lambda t: t.points_for - t.points_against,
}


@dataclass(frozen=True, slots=True)
class Rule:
    """A qualification rule into the next stage; ``carry``: what the qualifiers take with them (``carry.py``)."""

    kind: str
    count: int = 0  # top: N
    per_pool: int = 0  # pools: the first K of each pool
    best_next: int = 0  # pools: the best M of place K + 1 across the pools
    carry: tuple[str, ...] = ()  # of "match_points", "games", "points"


@dataclass(frozen=True, slots=True)
class Row:
    """An entrant's row in the stage's standings (in its pool's, for a pools stage).

    ``rank``: as the standings give it, shared by rows equal on every metric; ``values``: the stage's metric
    values in the order of the ``metrics`` given to ``qualify``; ``totals``: the row's sums (a ranking
    ``StandingRow`` is one), read to compare pools per match and to carry over.
    """

    entrant: int
    rank: int
    values: tuple[int, ...] = ()
    pool: int | None = None
    totals: Totals | None = None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Qualifier:
    """An entrant sent on: its seed in the next stage, why (``how``) and where it came from.

    ``how``: "top", "pool_place" (among the first K of its pool), "next_place" (among the best M),
    "table_winner" or "all"; ``place``: its place in its pool, at its table (1) or in the cut's order.
    """

    entrant: int
    seed: int
    how: str
    place: int
    pool: int | None = None
    table: int | None = None


@dataclass(frozen=True, slots=True)
class Tie:
    """How a cut separated entrants level on its first criterion.

    ``cut``: "top", "pool", "next_place" or "table"; ``at``: the last place that qualifies (top: N;
    next_place: M) or the pool's or table's number; ``tied``: the entrants level before the deciding
    criterion, in the order decided; ``qualified``: those of them the cut let through (a pool's cut: its
    first K; one left out may still go on among the best of the next place); ``by``: "metric",
    "per_match", "previous_rank" or "draw"; ``metric``: the deciding metric's name (metric, per_match).
    """

    cut: str
    at: int
    tied: tuple[int, ...]
    qualified: tuple[int, ...]
    by: str
    metric: str | None = None


@dataclass(frozen=True, slots=True)
class Qualification:
    """The outcome of a rule over a closed stage.

    ``qualifiers``: in the next stage's seeding order; ``order``: every entrant of the stage (withdrawn
    ones included) in the stage's order, ``ranks`` their ranks in it (shared when the stage's criteria are
    equal), the event's ranking reads both.
    """

    rule: Rule
    qualifiers: tuple[Qualifier, ...]
    order: tuple[int, ...]
    ranks: dict[int, int]
    ties: tuple[Tie, ...]
    replacements: tuple[Replacement, ...]
    pools: dict[int, int]

    @property
    def entrants(self) -> list[int]:
        """The qualifiers, seed 1 first."""
        return [q.entrant for q in self.qualifiers]

    def stage_result(self, number: int) -> StageResult:
        """This stage as the event's ranking reads it (``event.event_ranking``)."""
        return StageResult(number, self.order, self.ranks, frozenset(self.entrants), self.pools or None,
                           self.replacements)


def rows_of(standings: Iterable, metrics: Sequence[str], *, pool: int | None = None,
            withdrawn: Iterable[int] = ()) -> list[Row]:
    """``Row``s from the ranking's rows (``StandingRow``: ``team``; ``IndividualRow``: ``player``) of one standings."""
    gone = set(withdrawn)
    out = []
    for r in standings:
        entrant = r.team if hasattr(r, "team") else r.player
        out.append(Row(entrant, r.rank, tuple(r.tiebreaks[m] for m in metrics), pool, r, entrant in gone))
    return out


def cycle_tables(matches: Iterable, cycle_rounds: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """The players seated at each table over a ``tables`` cycle (``IndividualMatch``es), in seat order."""
    rounds = set(cycle_rounds)
    tables: dict[int, dict[int, None]] = {}
    for m in sorted(matches, key=lambda m: (m.round, m.table)):
        if m.round in rounds:
            tables.setdefault(m.table, {}).update(dict.fromkeys((*m.ns, *m.ew)))
    return {t: tuple(players) for t, players in sorted(tables.items())}


def pool_sizes(entrants: int, pools: int) -> list[int]:
    """The sizes of ``pools`` pools dealt from ``entrants`` by pots (the serpentine's q and q + 1)."""
    q, r = divmod(entrants, pools)
    return sorted([q + 1] * r + [q] * (pools - r), reverse=True)


def check_rule(rule: Rule, *, entrants: int, pools: Sequence[int] = (), format: str | None = None) -> int:
    """How many entrants a rule sends on from a stage of ``entrants`` (``pools``: its pools' sizes), or refused.

    Refused (``qualification_invalid``, by reason): an unknown kind (``unknown``), a top count not from 1
    to the field (``count``), a first K of each pool not from 1 to the smallest pool (``per_pool``), more of
    the next place than pools that have one (``next_place``), a rule not suiting the stage's ``format``
    when it is given (``format``: ``pools`` after a pools stage, ``table_winners`` after a tables stage).
    """
    kind = rule.kind
    if kind not in RULES:
        raise StageError("qualification_invalid", {"reason": "unknown", "rule": kind, "known": list(RULES)})
    suits = {"pools": "pools", "table_winners": "tables"}.get(kind)
    if format is not None and suits is not None and format != suits:
        raise StageError("qualification_invalid", {"reason": "format", "rule": kind, "format": format})
    if kind == "top":
        if not 1 <= rule.count <= entrants:
            raise StageError("qualification_invalid", {"reason": "count", "count": rule.count, "entrants": entrants})
        return rule.count
    if kind == "pools":
        smallest = min(pools, default=0)
        if not 1 <= rule.per_pool <= smallest:
            raise StageError("qualification_invalid", {"reason": "per_pool", "per_pool": rule.per_pool,
                                                       "smallest": smallest})
        with_next = sum(1 for size in pools if size > rule.per_pool)
        if not 0 <= rule.best_next <= with_next:
            raise StageError("qualification_invalid", {"reason": "next_place", "best_next": rule.best_next,
                                                       "pools": with_next})
        return rule.per_pool * len(pools) + rule.best_next
    if kind == "table_winners":
        return entrants // 4
    return entrants


class _Keys:
    """The orders of one qualification: inside a standings, and across pools per match played."""

    def __init__(self, rows: dict[int, Row], metrics: Sequence[str], previous: Mapping[int, int],
                 lottery: Lottery):
        self.rows, self.metrics, self.previous = rows, list(metrics), previous
        self.per_match_names = [m for m in self.metrics if m in PER_MATCH]
        self._draw = {e: lottery.key("cut", e) for e in rows}
        self._per_match: dict[int, tuple] = {}

    def prev(self, e: int) -> tuple[int, int]:
        return (0, self.previous[e]) if e in self.previous else (1, 0)

    def standing(self, e: int) -> tuple:
        return self.rows[e].rank, self.prev(e), self._draw[e]

    def per_match(self, e: int) -> tuple:
        """(has played, each summed metric per match), each larger-is-better, negated for an ascending sort."""
        key = self._per_match.get(e)
        if key is None:
            t = self.rows[e].totals
            if t is None or t.played <= 0:
                key = (1, *([0] * len(self.per_match_names)))
            else:
                key = (0, *(-Fraction(PER_MATCH[m](t), t.played) for m in self.per_match_names))
            self._per_match[e] = key
        return key

    def across(self, e: int) -> tuple:
        return self.per_match(e), self.prev(e), self._draw[e]

    # -- the report of a cut --------------------------------------------------------------------------
    def standing_tie(self, cut: str, at: int, ordered: list[int], n: int) -> Tie | None:
        if n <= 0 or n >= len(ordered):
            return None
        last, out = ordered[n - 1], ordered[n]
        rows = self.rows
        if rows[last].rank != rows[out].rank:
            values_last, values_out = rows[last].values, rows[out].values
            j = next((j for j, (a, b) in enumerate(zip(values_last, values_out)) if a != b), None)
            if not j:  # apart on the first metric: no tie
                return None
            tied = [e for e in ordered if rows[e].values[:j] == values_last[:j]]
            return self._tie(cut, at, tied, ordered[:n], "metric", self.metrics[j])
        same = [e for e in ordered if rows[e].rank == rows[last].rank]
        if self.prev(last) != self.prev(out):
            return self._tie(cut, at, same, ordered[:n], "previous_rank")
        return self._tie(cut, at, [e for e in same if self.prev(e) == self.prev(last)], ordered[:n], "draw")

    def across_tie(self, cut: str, at: int, ordered: list[int], n: int) -> Tie | None:
        if n <= 0 or n >= len(ordered):
            return None
        last, out = ordered[n - 1], ordered[n]
        a, b = self.per_match(last), self.per_match(out)
        if a != b:
            j = next(j for j, (x, y) in enumerate(zip(a, b)) if x != y)
            if j <= 1:  # apart on having played, or on the first metric: no tie
                return None
            tied = [e for e in ordered if self.per_match(e)[:j] == a[:j]]
            return self._tie(cut, at, tied, ordered[:n], "per_match", self.per_match_names[j - 1])
        same = [e for e in ordered if self.per_match(e) == a]
        if self.prev(last) != self.prev(out):
            return self._tie(cut, at, same, ordered[:n], "previous_rank")
        return self._tie(cut, at, [e for e in same if self.prev(e) == self.prev(last)], ordered[:n], "draw")

    @staticmethod
    def _tie(cut, at, tied, qualified, by, metric=None) -> Tie:
        chosen = set(qualified)
        return Tie(cut, at, tuple(tied), tuple(e for e in tied if e in chosen), by, metric)


def qualify(rule: Rule, rows: Sequence[Row], *, seed: str, metrics: Sequence[str] = (),
            previous: Mapping[int, int] | None = None, tables: Mapping[int, Sequence[int]] | None = None,
            numbers: Mapping[int, int] | None = None) -> Qualification:
    """Apply a qualification rule to a closed stage's rows (see the module's rules).

    ``metrics``: the stage's metric list (the names of ``Row.values``); ``previous``: each entrant's rank
    in the previous stage (or, for a first stage, its seeding place); ``tables``: ``table_winners``, the
    players at each table over the cycle (``cycle_tables``); ``seed``: the stage's published seed;
    ``numbers``: the entrants' public numbers for the lottery. Refused (``StageError``): a rule that does
    not fit the rows (``qualification_invalid``, see ``check_rule``); an entrant twice, values not matching
    the metrics, a pools rule over rows without a pool or totals, table winners without tables or with a
    player at two tables or not in the standings (``stage_inputs_invalid``).
    """
    entrants_once([r.entrant for r in rows], "rows")
    for r in rows:
        if len(r.values) != len(metrics):
            raise StageError("stage_inputs_invalid", {"field": "values", "entrant": r.entrant})
        if rule.kind == "pools" and (r.pool is None or r.totals is None):
            raise StageError("stage_inputs_invalid", {"field": "pool" if r.pool is None else "totals",
                                                      "entrant": r.entrant})
    by_id = {r.entrant: r for r in rows}
    sizes: dict[int, int] = {}
    for r in rows:
        sizes[r.pool] = sizes.get(r.pool, 0) + 1
    check_rule(rule, entrants=len(rows), pools=list(sizes.values()) if rule.kind == "pools" else ())
    keys = _Keys(by_id, metrics, previous or {}, Lottery(seed, numbers))
    if rule.kind == "table_winners":
        if tables is None:
            raise StageError("stage_inputs_invalid", {"field": "tables"})
        entrants_once([e for t in tables.values() for e in t], "tables")
        unknown = [e for t in tables.values() for e in t if e not in by_id]
        if unknown:
            raise StageError("stage_inputs_invalid", {"field": "tables", "entrant": unknown[0]})
    everyone = list(by_id)
    eligible = [e for e in everyone if not by_id[e].withdrawn]
    chosen, ties = _select(rule, eligible, keys, tables, by_id)
    if len(eligible) < len(everyone):
        would = [q.entrant for q in _select(rule, everyone, keys, tables, by_id)[0]]
        gone = [e for e in would if by_id[e].withdrawn]
        went = set(would)
        newcomers = [q.entrant for q in chosen if q.entrant not in went]
        replacements = tuple(Replacement(w, newcomers[i] if i < len(newcomers) else None)
                             for i, w in enumerate(gone))
    else:
        replacements = ()
    order, ranks = _stage_order(rule, everyone, keys, by_id)
    qualifiers = tuple(Qualifier(q.entrant, seed_number, q.how, q.place, q.pool, q.table)
                       for seed_number, q in enumerate(chosen, start=1))
    pools = {r.entrant: r.pool for r in rows if r.pool is not None}
    return Qualification(rule, qualifiers, tuple(order), ranks, tuple(ties), replacements, pools)


def _places(entrants: list[int], keys: _Keys, by_id: dict[int, Row]) -> dict[int, list[int]]:
    """Each pool's entrants in their order inside the pool."""
    pools: dict[int, list[int]] = {}
    for e in entrants:
        pools.setdefault(by_id[e].pool, []).append(e)
    return {p: sorted(members, key=keys.standing) for p, members in sorted(pools.items())}


def _select(rule: Rule, entrants: list[int], keys: _Keys, tables, by_id: dict[int, Row]
            ) -> tuple[list[Qualifier], list[Tie]]:
    """The qualifiers among ``entrants`` in seeding order (seeds left at 0) and the ties of the cuts."""
    ties: list[Tie | None] = []
    if rule.kind in ("top", "all"):
        ordered = sorted(entrants, key=keys.standing)
        n = rule.count if rule.kind == "top" else len(ordered)
        if rule.kind == "top":
            ties.append(keys.standing_tie("top", n, ordered, n))
        chosen = [Qualifier(e, 0, rule.kind, i, by_id[e].pool) for i, e in enumerate(ordered[:n], start=1)]
    elif rule.kind == "pools":
        places = _places(entrants, keys, by_id)
        k, m = rule.per_pool, rule.best_next
        chosen = []
        for place in range(1, k + 1):
            level = sorted((members[place - 1] for members in places.values() if len(members) >= place),
                           key=keys.across)
            chosen += [Qualifier(e, 0, "pool_place", place, by_id[e].pool) for e in level]
        for pool, members in places.items():
            ties.append(keys.standing_tie("pool", pool, members, k))
        candidates = sorted((members[k] for members in places.values() if len(members) > k), key=keys.across)
        if m:
            ties.append(keys.across_tie("next_place", m, candidates, m))
        chosen += [Qualifier(e, 0, "next_place", k + 1, by_id[e].pool) for e in candidates[:m]]
    else:  # table_winners
        present = set(entrants)
        winners = []
        for table in sorted(tables):
            at_table = sorted((e for e in tables[table] if e in present), key=keys.standing)
            if at_table:
                winners.append((at_table[0], table))
                ties.append(keys.standing_tie("table", table, at_table, 1))
        winners.sort(key=lambda w: keys.standing(w[0]))
        chosen = [Qualifier(e, 0, "table_winner", 1, by_id[e].pool, table) for e, table in winners]
    return chosen, [t for t in ties if t is not None]


def _stage_order(rule: Rule, entrants: list[int], keys: _Keys, by_id: dict[int, Row]
                 ) -> tuple[list[int], dict[int, int]]:
    """Every entrant in the stage's order and their ranks (shared when the stage's criteria are equal).

    One standings: its order and ranks. Pools: place by place, each place's entrants compared per match
    played; ranks shared by equal place and equal per-match values.
    """
    if rule.kind != "pools":
        ordered = sorted(entrants, key=keys.standing)
        return ordered, {e: by_id[e].rank for e in ordered}
    place_of = {e: i for members in _places(entrants, keys, by_id).values() for i, e in enumerate(members)}
    ordered = sorted(entrants, key=lambda e: (place_of[e], keys.across(e)))
    ranks: dict[int, int] = {}
    for position, e in enumerate(ordered, start=1):
        before = ordered[position - 2] if position > 1 else None
        level = before is not None and place_of[before] == place_of[e] and keys.per_match(before) == keys.per_match(e)
        ranks[e] = ranks[before] if level else position
    return ordered, ranks

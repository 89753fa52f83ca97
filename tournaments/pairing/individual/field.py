"""The inputs checked and digested: who plays, who met whom, who sat out, and the seeded keys.

All randomness comes from the seed through SHA-256: ``key(purpose, number)`` is a player's lottery number for
one purpose of one round (independent of who else is entered, so a late entry does not reshuffle the others),
``rng(purpose)`` a ``random.Random`` for the searches. Nothing iterates a set or a dict of unordered things
to decide anything: players are taken in start-number or key order.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable

from .inputs import DRAW_VERSION, FORMATS, DrawError, DrawInputs, PastRound

MIN_PLAYERS = 4

Graph = dict[int, set[int]]


def meetings(rounds: Iterable[PastRound]) -> tuple[Graph, Graph]:
    """Who partnered and who opposed whom in these rounds (empty seats skipped; a forfeited table is no meeting)."""
    partners: Graph = {}
    opponents: Graph = {}
    for past in rounds:
        for table in past.tables:
            if table.forfeit:
                continue
            ns = [p for p in table.ns if p is not None]
            ew = [p for p in table.ew if p is not None]
            for side in (ns, ew):
                if len(side) == 2:
                    _link(partners, side[0], side[1])
            for a in ns:
                for b in ew:
                    _link(opponents, a, b)
    return partners, opponents


def union(*graphs: Graph) -> Graph:
    out: Graph = {}
    for graph in graphs:
        for a, others in graph.items():
            out.setdefault(a, set()).update(others)
    return out


def _link(graph: Graph, a: int, b: int) -> None:
    if a != b:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)


def pairs_in(groups: Iterable[Iterable[int]], graph: Graph) -> int:
    """How many pairs inside the groups are edges of the graph."""
    count = 0
    for group in groups:
        members = list(group)
        for i, a in enumerate(members):
            linked = graph.get(a, ())
            count += sum(1 for b in members[i + 1:] if b in linked)
    return count


def club_pairs(field: Field, groups: Iterable[Iterable[int]]) -> int:
    """Pairs of one club seated at one table."""
    count = 0
    for group in groups:
        clubs = [field.club.get(p) for p in group]
        count += sum(1 for i, c in enumerate(clubs) for d in clubs[i + 1:] if c is not None and c == d)
    return count


def club_bound(field: Field, playing: Iterable[int], tables: int) -> int:
    """Pigeonhole: k players of one club over t tables leave at least the even spread's pairs together."""
    if tables == 0:
        return 0
    sizes = Counter(field.club.get(p) for p in playing)
    total = 0
    for club, k in sorted(sizes.items(), key=lambda item: item[1]):
        if club is not None:
            q, s = divmod(k, tables)
            total += s * (q + 1) * q // 2 + (tables - s) * q * (q - 1) // 2
    return total


class Field:
    """One draw's inputs, checked (``DrawError`` on bad input) and digested for both formats."""

    def __init__(self, inputs: DrawInputs):
        self.inputs = inputs
        _check_header(inputs)
        self.round = inputs.round_number
        self.numbers = sorted(p.number for p in inputs.players)
        for a, b in zip(self.numbers, self.numbers[1:], strict=False):
            if a == b:
                raise DrawError("duplicate_player", {"number": a})
        if len(self.numbers) < MIN_PLAYERS:
            raise DrawError("too_few_players", {"players": len(self.numbers), "needed": MIN_PLAYERS})
        self.active = set(self.numbers)
        self.club = {p.number: p.club for p in inputs.players}
        self.fixed = {p.number: p.fixed_table for p in inputs.players if p.fixed_table is not None}
        self.tables = len(self.numbers) // 4
        self._check_fixed()
        self.history = sorted(inputs.history, key=lambda r: r.number)
        self._check_history()
        self.hard: Graph = {}
        for i, pair in enumerate(inputs.kept_apart):
            if pair[0] == pair[1]:
                raise DrawError("inputs_invalid", {"field": f"kept_apart[{i}]"})
            if pair[0] in self.active and pair[1] in self.active:
                _link(self.hard, pair[0], pair[1])
        fixed = sorted(self.fixed)
        for i, a in enumerate(fixed):  # each is the seated scorer of their own table: never two at one table
            for b in fixed[i + 1:]:
                _link(self.hard, a, b)
        self.score = {n: (0, 0, 0) for n in self.numbers}
        seen: set[int] = set()
        for i, (number, mp, won, points) in enumerate(inputs.scores):
            if number in seen:
                raise DrawError("inputs_invalid", {"field": f"scores[{i}]"})
            seen.add(number)
            if number in self.active:
                self.score[number] = (mp, won, points)
        # A round sat out: sitting out of the draw, or at a table whose match the player's partner missed (absent,
        # or withdrew mid-match: ``PastTable.sat_out``, scored as a sit-out).
        self.sat_out = Counter(p for past in self.history for p in past.sitting_out)
        self.sat_out.update(p for past in self.history for t in past.tables for p in t.sat_out)
        self.scorer = Counter(t.ns[0] for past in self.history for t in past.tables if t.ns[0] is not None)

    # -- checks ----------------------------------------------------------------------------------------------
    def _check_fixed(self) -> None:
        holder: dict[int, int] = {}
        for number in self.numbers:
            table = self.fixed.get(number)
            if table is None:
                continue
            if table < 1 or table > self.tables:
                raise DrawError("fixed_table_out_of_range", {"player": number, "table": table, "tables": self.tables})
            if table in holder:
                raise DrawError("fixed_table_taken", {"table": table, "players": [holder[table], number]})
            holder[table] = number

    def _check_history(self) -> None:
        numbers = [past.number for past in self.history]
        for past in self.history:
            if past.number < 1 or past.number >= self.round or numbers.count(past.number) > 1:
                raise DrawError("history_invalid", {"round": past.number})
            seated = [p for t in past.tables for p in (*t.ns, *t.ew) if p is not None]
            tables = [t.table for t in past.tables]
            if len(set(seated)) != len(seated) or len(set(tables)) != len(tables) or set(seated) & set(past.sitting_out):
                raise DrawError("history_invalid", {"round": past.number})
            if any(not set(t.sat_out) <= {*t.ns, *t.ew} - {None} or len(set(t.sat_out)) != len(t.sat_out)
                   for t in past.tables):  # who sat out at a table was seated there, once
                raise DrawError("history_invalid", {"round": past.number})

    # -- randomness ------------------------------------------------------------------------------------------
    def _digest(self, *parts: object) -> bytes:
        text = "|".join(str(p) for p in (self.inputs.version, self.inputs.seed, self.round, *parts))
        return hashlib.sha256(text.encode()).digest()

    def key(self, purpose: str, number: int) -> int:
        """A player's lottery number for one purpose of this round."""
        return int.from_bytes(self._digest(purpose, number)[:8], "big")

    def rng(self, purpose: str) -> random.Random:
        return random.Random(int.from_bytes(self._digest(purpose)[:16], "big"))

    def shuffled(self, purpose: str, numbers: Iterable[int]) -> list[int]:
        return sorted(numbers, key=lambda n: (self.key(purpose, n), n))

    # -- sit-outs --------------------------------------------------------------------------------------------
    def choose_sitting_out(self, count: int) -> list[int]:
        """``count`` players: the fewest sit-outs first, ties drawn from the seed (docs/individual.md)."""
        order = sorted(self.numbers, key=lambda n: (self.sat_out[n], self.key("sit-out", n), n))
        return sorted(order[:count])


def _check_header(inputs: DrawInputs) -> None:
    if inputs.version != DRAW_VERSION:
        raise DrawError("version_unknown", {"version": inputs.version, "known": [DRAW_VERSION]})
    if inputs.format not in FORMATS:
        raise DrawError("format_unknown", {"format": inputs.format, "known": list(FORMATS)})
    if inputs.round_number < 1:
        raise DrawError("round_invalid", {"round": inputs.round_number})
    if not inputs.seed:
        raise DrawError("inputs_invalid", {"field": "seed"})

"""Plain values the pairing functions take and give back."""

from __future__ import annotations

from dataclasses import dataclass, field


class Refusal(ValueError):
    """A refusal of the pure logic: a code and its params (``tournaments.refusals`` puts them in words, in the
    reader's language). The draw's ``DrawError`` and the stages' ``StageError`` are its kinds."""

    def __init__(self, code: str, params: dict | None = None):
        self.code = code
        self.params = dict(params or {})
        super().__init__(code, self.params)

    def __str__(self) -> str:
        return f"{self.code} {self.params}"


@dataclass(frozen=True, slots=True)
class TeamState:
    """One team as the Swiss pairing sees it before a round."""

    id: int
    score: int = 0  # match points so far
    rank: int = 0  # place in the current standings, 0 = best (ties already broken)
    club: int | None = None
    had_bye: bool = False
    opponents: frozenset[int] = frozenset()


#: Why a pairing was made: a code and its params, in order (``tournaments.vocabulary.pairing_reasons`` writes
#: them in the reader's language; the pairing logic has no words).
Reason = tuple[str, dict]


def reasons_kept(why) -> list:
    """Return a pairing's reasons as a match keeps them (``Match.why``, JSON): a list of [code, params]."""
    return [[code, dict(params)] for code, params in why]


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round; ``ew`` is None for a bye; ``why`` the reasons of the pairing (codes and params)."""

    table: int
    ns: int
    ew: int | None
    why: tuple[Reason, ...] = ()


@dataclass(slots=True)
class PairingResult:
    """The pairings of a round and the teams that could not be paired without breaking a hard rule."""

    pairings: list[Pairing] = field(default_factory=list)
    unpaired: list[int] = field(default_factory=list)
    cost: tuple[int, ...] = ()  # (score, club, bye, rank) costs summed over the matching; lower is better
    weight: int = 0  # the matching's total weight, comparable between the sparse and the full graph
    candidates: int = 0  # candidate-list size that produced the result (0 = the full graph)

    @property
    def complete(self) -> bool:
        return not self.unpaired

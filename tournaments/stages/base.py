"""What every part of the stages logic shares: its refusal, its lottery, its formats and its version."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from tournaments.pairing.types import Refusal

#: Bumped whenever a rule of the stages logic changes an outcome (a seeding, a cut, a bracket): the lottery
#: hashes it, so a stage closed under one version is recomputed by the rules that closed it.
STAGES_VERSION = "1"

#: The formats a stage may have, by the kind of event (a tournament's ``entry``).
FORMATS: dict[str, tuple[str, ...]] = {
    "teams": ("swiss", "round_robin", "knockout", "pools"),
    "individual": ("tables", "swiss"),
}


class StageError(Refusal):
    """A refusal of the stages logic: a code and its params (``tournaments.refusals`` puts them in words)."""


class Lottery:
    """The draw that settles what nothing else settles: each entrant's lottery number for one purpose.

    SHA-256 of ``version|seed|purpose|number``, where ``number`` is the entrant's public number (its start
    number; ``numbers`` maps each entrant to it, the entrant itself when absent). One number per entrant,
    independent of who else is in the field, so that anyone holding the published seed and the start numbers
    draws the same order, and renumbering database ids changes nothing. Two equal 64-bit keys (odds 2^-64)
    fall back on the public number.
    """

    def __init__(self, seed: str, numbers: Mapping[int, int] | None = None):
        if not isinstance(seed, str) or not seed:
            raise StageError("stage_inputs_invalid", {"field": "seed"})
        self.seed = seed
        self.numbers = numbers or {}

    def number(self, entrant: int) -> int:
        return self.numbers.get(entrant, entrant)

    def key(self, purpose: str, entrant: int) -> tuple[int, int]:
        number = self.number(entrant)
        text = f"{STAGES_VERSION}|{self.seed}|{purpose}|{number}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"), number


def entrants_once(entrants, field: str) -> None:
    """Refuse a list naming an entrant twice (``stage_inputs_invalid`` with the field)."""
    seen: set[int] = set()
    for e in entrants:
        if e in seen:
            raise StageError("stage_inputs_invalid", {"field": field, "entrant": e})
        seen.add(e)

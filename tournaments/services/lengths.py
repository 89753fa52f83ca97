"""A match's length: its stage's (docs/stages.md), the one place the services read it.

Every round belongs to a stage, and a stage has its own match length: stage 1's is the tournament's (kept in
step by ``Tournament.save``), a later stage's is what its organizer gave it (a pools stage best of 1, then a
knockout best of 3). A best-of stage without its own number of games plays the tournament's (the variant's
default when the tournament has none). A knockout stage's ``tiebreak_deals`` is the tie-break game a match level
after its length plays (``tournaments.services.tiebreak``).

``match_lock`` reads the stage's columns in its one statement (``STAGE_SELECT``) and keeps them on the round;
elsewhere the round's stage is read once (one query) and kept on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Round, Stage, Tournament
from tournaments.services.rows import qn

#: The stage's columns a match's length needs, in the order ``length_from`` reads them.
STAGE_LENGTH_FIELDS = ("format", "best_of", "match_length", "match_games", "minutes", "at_time", "tiebreak_deals")


def stage_select(alias: str) -> str:
    """The SELECT list of the stage's length columns under ``alias`` (a LEFT JOIN's: NULLs when none)."""
    return ", ".join(f"{alias}.{qn(Stage._meta.get_field(f).column)}" for f in STAGE_LENGTH_FIELDS)


@dataclass(frozen=True, slots=True)
class Length:
    """How long a match is: ``kind`` best_of, games or timed; ``best_of`` the games of a best-of match (the
    effective number); ``games`` of a ``games`` match; ``minutes`` and ``at_time`` of a timed one;
    ``tiebreak_deals`` the deals of a knockout's tie-break game (None: a level match is a draw, which a
    director's decision settles in a knockout)."""

    kind: str
    best_of: int
    games: int | None
    minutes: int | None
    at_time: str
    tiebreak_deals: int | None = None

    @property
    def timed(self) -> bool:
        return self.kind == Tournament.MatchLength.TIMED


def length_from(values, tournament: Tournament) -> Length:
    """The length of a stage's columns (``STAGE_LENGTH_FIELDS``; None or NULLs: the tournament's own)."""
    if values is None or values[2] is None:
        return Length(tournament.match_length, tournament.effective_best_of, tournament.match_games,
                      tournament.minutes, tournament.at_time)
    fmt, best_of, kind, games, minutes, at_time, tiebreak = values
    return Length(kind, best_of or tournament.effective_best_of, games, minutes, at_time,
                  tiebreak if fmt == Stage.Format.KNOCKOUT else None)


def keep(rnd: Round, length: Length) -> None:
    rnd._match_length = length


def length_of(rnd: Round) -> Length:
    """The length of the matches of a round: its stage's (read once a round instance, then kept on it)."""
    length = getattr(rnd, "_match_length", None)
    if length is not None:
        return length
    tournament = rnd.tournament
    if Round.stage.is_cached(rnd) and rnd.stage is not None:
        values = tuple(getattr(rnd.stage, f) for f in STAGE_LENGTH_FIELDS)
    elif rnd.stage_id is not None:
        values = Stage.objects.filter(pk=rnd.stage_id).values_list(*STAGE_LENGTH_FIELDS).first()
    else:
        values = None
    length = length_from(values, tournament)
    keep(rnd, length)
    return length

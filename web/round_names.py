"""A round's public name and addresses: round numbers count per stage, so a later stage's round is reached through
its stage (``/t/<slug>/stages/<s>/rounds/<n>/`` and its print pages under it) and named "Stage 2, round 1"; a
knockout stage's rounds are named as its bracket names them (quarter-finals, semi-finals, final; the match for
third place "Match for third place"), in a one-stage knockout event too.

A knockout's rounds are counted from its bracket (round 1's tables, byes included), not from ``Stage.rounds``: a
one-stage knockout event's rounds are whatever its organizer typed. ``prime`` reads them for a list of rounds in
one query (none when no round is a knockout's); a round not primed reads its stage's once (kept on the stage).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Match, Round, Stage
from tournaments.pairing.knockout import bracket_size

from .bracket_svg import round_names

#: The pages of a round besides its own: the URL name of stage 1's and of a later stage's.
KINDS = {
    "": ("web:round", "web:stage-round"),
    "print": ("web:round-print", "web:stage-round-print"),
    "pdf": ("web:round-pdf", "web:stage-round-pdf"),
    "sheets": ("web:round-sheets", "web:stage-round-sheets"),
    "sheets-pdf": ("web:round-sheets-pdf", "web:stage-round-sheets-pdf"),
    "seat": ("web:round-seat", "web:stage-round-seat"),
    "seats-print": ("web:round-seats-print", "web:stage-round-seats-print"),
    "seats-pdf": ("web:round-seats-pdf", "web:stage-round-seats-pdf"),
}


def _stage(rnd: Round) -> Stage | None:
    """The round's stage (as read with it; else one query)."""
    return rnd.stage if rnd.stage_id else None


def stage_number(rnd: Round) -> int:
    stage = _stage(rnd)
    return stage.number if stage is not None else 1


def round_url(slug: str, rnd: Round, kind: str = "") -> str:
    """The address of round ``rnd``'s page (``kind`` "") or of one of its print pages (``KINDS``)."""
    first, later = KINDS[kind]
    number = stage_number(rnd)
    if number == 1:
        return reverse(first, args=[slug, rnd.number])
    return reverse(later, args=[slug, number, rnd.number])


def _depth(tables: int) -> int:
    return bracket_size(2 * tables).bit_length() - 1 if tables else 0


def prime(rounds: Iterable[Round | None]) -> None:
    """Keep on each knockout round's stage how many rounds its bracket has: one query for all of them, none when
    no round is a knockout's."""
    prime_stages([r.stage for r in rounds if r is not None and r.stage_id])


def prime_stages(stages: Iterable[Stage]) -> None:
    """Keep on each knockout stage of ``stages`` how many rounds its bracket has: one query for all of them, none
    when none is a knockout's (or all are kept already)."""
    stages = [s for s in stages if s.format == Stage.Format.KNOCKOUT and not hasattr(s, "_bracket_rounds")]
    if not stages:
        return
    tables = dict(Match.objects.filter(round__stage__in={s.pk for s in stages}, round__number=1)
                  .order_by().values("round__stage").annotate(n=Count("pk")).values_list("round__stage", "n"))
    for stage in stages:
        stage._bracket_rounds = _depth(tables.get(stage.pk, 0))


def bracket_rounds(stage: Stage) -> int:
    """How many rounds a knockout stage's bracket has (0: not drawn yet); read once a stage instance."""
    if not hasattr(stage, "_bracket_rounds"):
        stage._bracket_rounds = _depth(Match.objects.filter(round__stage=stage, round__number=1).count())
    return stage._bracket_rounds


def is_third_place(match: Match | None) -> bool:
    return match is not None and any(code == "knockout_third_place" for code, _params in (match.why or []))


def knockout_left(stage: Stage | None, number: int) -> int | None:
    """How many rounds follow round ``number`` of a knockout stage where its bracket names it: 0 the final, 1 the
    semi-finals, 2 the quarter-finals, 3 the round of 16; None for any other round (not a knockout's, an earlier
    one, or a bracket not drawn yet). The sentences that name a round by its number pick their knockout words
    by it."""
    if stage is None or stage.format != Stage.Format.KNOCKOUT:
        return None
    rounds = bracket_rounds(stage)
    if 1 <= number <= rounds and rounds - number <= 3:  # the round of 16 to the final: named
        return rounds - number
    return None


def round_name(rnd: Round, match: Match | None = None) -> str:
    """"Round 3"; a later stage's "Stage 2, round 1"; a knockout's round as its bracket names it ("Quarter-finals",
    "Final"); with ``match``, the match for third place (in the final's round) "Match for third place"."""
    stage = _stage(rnd)
    if stage is not None and stage.format == Stage.Format.KNOCKOUT:
        if is_third_place(match):
            return _("Match for third place")
        left = knockout_left(stage, rnd.number)
        if left is not None:
            return round_names(rnd.number + left)[rnd.number - 1]
    number = stage.number if stage is not None else 1
    if number == 1:
        return _("Round %(n)s") % {"n": rnd.number}
    return _("Stage %(stage)s, round %(n)s") % {"stage": number, "n": rnd.number}

"""A multi-stage event's stages a short line each, "Stage 1: Pools, 3 rounds, one game": its name, the rounds it
plays and its match length, with its status. The workspace's dashboard and the public overview's "About" block.

A constant number of queries whatever the stages: the pools stages' fields in at most two (stage 1's active
entries, the later stages' entrants counted together), the drawn knockouts' brackets in one
(``round_names.prime_stages``); none when no stage needs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Entry, Stage, StageEntrant, Tournament
from tournaments.pairing import round_robin
from tournaments.services.lengths import STAGE_LENGTH_FIELDS, Length, length_from

from . import pages_stages, round_names


def length_words(length: Length, *, individual: bool) -> str:
    """A match length (``lengths.Length``: an event's, a stage's) in a few words ("4 games, each counted", "30
    minutes a round; ..."); a team event's best-of as its pages say it ("one game", "best of 3")."""
    if length.kind == Tournament.MatchLength.GAMES and length.games:
        return ngettext("%(n)s game, counted", "%(n)s games, each counted", length.games) % {"n": length.games}
    if length.kind == Tournament.MatchLength.TIMED and length.minutes:
        if length.at_time == Tournament.AtTime.STOP:
            return _("%(n)s minutes a round; at the time, the game stops after the deal in play") % {
                "n": length.minutes}
        return _("%(n)s minutes a round; at the time, the game in play is finished") % {"n": length.minutes}
    if not individual:
        return ngettext("one game", "best of %(n)s", length.best_of) % {"n": length.best_of}
    return _("best of %(n)s") % {"n": length.best_of}


def pool_rounds(field: int, pools: int, *, double: bool = False) -> int:
    """The rounds of a pools stage of ``field`` entrants in ``pools`` pools: its largest pool's round robin (the
    pool's size - 1, or its size when odd; twice over for a double round robin); 0 when it cannot be said."""
    if pools < 1 or field < 2:
        return 0
    return round_robin.rounds_needed(-(-field // pools), double=double)


def event_rounds(tournament: Tournament, active: int | None = None) -> int | None:
    """A one-stage event's rounds as its pages say them: a team round robin's from its ``active`` entries (counted
    when not given: one query), None while it has fewer than two; any other format its planned rounds."""
    if tournament.is_individual or tournament.format != Tournament.Format.ROUND_ROBIN:
        return tournament.rounds
    if active is None:
        active = Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).count()
    return round_robin.rounds_needed(active, double=tournament.double_round_robin) or None


def pools_fields(tournament: Tournament, stages: Sequence[Stage]) -> dict[int, int]:
    """The field of each pools stage with its pools set (``{stage id: entrants}``): stage 1's the event's active
    entries, a later stage's its entrants; at most two queries, none without such a stage."""
    pools = [s for s in stages if s.format == Stage.Format.POOLS and s.pools]
    fields: dict[int, int] = {}
    later = [s.pk for s in pools if s.number > 1]
    if later:
        fields.update(StageEntrant.objects.filter(stage__in=later).order_by().values("stage")
                      .annotate(n=Count("pk")).values_list("stage", "n"))
    first = next((s for s in pools if s.number == 1), None)
    if first is not None:
        fields[first.pk] = Entry.objects.filter(tournament=tournament, withdrawn=False, reserve=False).count()
    return fields


def stage_lines(tournament: Tournament, stages: Sequence[Stage]) -> list[dict]:
    """Each stage's ``name``, ``rounds`` (a pools stage's round robin in its largest pool once its field is known,
    a drawn knockout's bracket, else its planned rounds), match ``length`` in words, ``status`` and its words, and
    whether it is the one being played (``current``: running)."""
    round_names.prime_stages([s for s in stages if s.status != Stage.Status.PENDING])
    fields = pools_fields(tournament, stages)
    lines = []
    for s in stages:
        if s.format == Stage.Format.KNOCKOUT and s.status != Stage.Status.PENDING:
            rounds = round_names.bracket_rounds(s) or s.rounds
        elif s.pk in fields:
            rounds = pool_rounds(fields[s.pk], s.pools, double=tournament.double_round_robin) or s.rounds
        else:
            rounds = s.rounds
        length = length_from(tuple(getattr(s, f) for f in STAGE_LENGTH_FIELDS), tournament)
        lines.append({"number": s.number, "name": pages_stages.stage_name(s, len(stages)), "rounds": rounds,
                      "length": length_words(length, individual=tournament.is_individual),
                      "status": s.status, "status_words": pages_stages.STAGE_STATUS.get(s.status, s.status),
                      "current": s.status == Stage.Status.RUNNING})
    return lines

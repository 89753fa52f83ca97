"""What a director's action does to the standings before it is saved (``desk_action_preview``).

The action is taken for real, the standings recomputed before and after it, and all of it rolled back: the
preview reads the same services the action itself runs (its refusals too), so what it shows is what recording
the action does. Nothing stays: no action row, no result, no standings row, no event nor page update (the
callbacks of a rolled-back transaction are dropped), and the standings worker's kept inputs of the tournament
are forgotten (their generation was rolled back with the rest).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Entry, Match, Tournament
from tournaments.selectors.standings import NUMBERS, standings_for
from tournaments.services import standings as standings_service
from tournaments.services.desk import desk_action_take

#: The numbers a preview compares (besides the rank and the tiebreaks).
COMPARED = NUMBERS


class _RolledBack(Exception):
    """Raised inside the preview's transaction to roll everything back."""


def _rows(tournament: Tournament) -> dict[int, dict]:
    standings_service.standings_recompute(tournament=tournament)
    key = "player" if tournament.is_individual else "team"
    return {row[key]: row for row in standings_for(tournament)["rows"]}


def _numbers(row: dict | None) -> dict | None:
    if row is None:
        return None
    return {"rank": row["rank"], **{name: row[name] for name in COMPARED}, "tiebreaks": dict(row["tiebreaks"])}


def desk_action_preview(*, tournament: Tournament, kind: str, reason: str = "", user=None, match: Match | None = None,
                        entry: Entry | None = None, params: dict | None = None) -> dict:
    """The standings rows an action would change, and how; nothing saved. Refused as the action itself is.

    Answers ``{"kind", "params" (as the action would keep them), "rounds_kept", "rows": [...]}``, each row
    ``{"team" or "player", "name", "before", "after", "moved"}`` (``before``/``after``: rank, the numbers and
    the tiebreaks; ``moved``: places gained, negative when lost), the rows whose rank or numbers change, in the
    order of the standings after it.
    """
    found: dict = {}
    try:
        with transaction.atomic():
            before = _rows(tournament)
            outcome = desk_action_take(tournament=tournament, kind=kind, reason=(reason or "").strip() or "preview",
                                       user=user, match=match, entry=entry, params=params)
            after = _rows(tournament)
            found = {"kind": kind, "params": dict(outcome.action.params), "rounds_kept": outcome.rounds_kept,
                     "rows": _diff(tournament, before, after)}
            raise _RolledBack
    except _RolledBack:
        pass
    finally:
        standings_service.kept_inputs_forget(tournament.pk)
    return found


def _diff(tournament: Tournament, before: dict[int, dict], after: dict[int, dict]) -> list[dict]:
    key = "player" if tournament.is_individual else "team"
    order = sorted(after, key=lambda k: (after[k]["rank"], k)) + sorted(set(before) - set(after))
    rows = []
    for who in order:
        old, new = _numbers(before.get(who)), _numbers(after.get(who))
        if old == new:
            continue
        row = after.get(who) or before[who]
        moved = (old["rank"] - new["rank"]) if old and new else 0
        rows.append({key: who, "name": row[f"{key}_detail"]["name"], "before": old, "after": new, "moved": moved,
                     "places": abs(moved)})
    return rows

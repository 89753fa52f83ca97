"""The director's desk: typed actions on results and entries, each with its reason and actor, reversible.

A ``DirectorAction`` row is the record (never edited, only marked reverted). An action on a match (a forfeit,
a withdrawal mid-match, an adjusted result, a penalty of game points, a drawn knockout decided) changes no
hand and writes no result field: it joins the match's ``directives`` (its active actions, kept in step with
the rows here) and the one function that works out a match's result (``games.match_result_apply``) applies
them, now and after every later hand or correction. An action on an entry (a withdrawal from the event, a
deduction from its standings total) is read by the standings (``services.standings``). Every action and
reversal is followed by a full standings recompute; rounds already paired stay as they are, and the
outcome says which (``DeskOutcome.rounds_kept``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from tournaments.models import (
    DESK_REASON_MAX,
    DirectorAction,
    Entry,
    Match,
    Round,
    Stage,
    StandingsChange,
    Tournament,
)
from tournaments.ranking.metrics import DEDUCTIBLE
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.games import forfeit_game_points, match_lock, match_refresh_result, tiebreak_due
from tournaments.services.results import match_result_changed

Kind = DirectorAction.Kind
SIDES = ("ns", "ew")
#: The largest number of game points an adjusted result or a penalty names (a typing error past it).
DESK_POINTS_MAX = 100_000


@dataclass
class DeskOutcome:
    """What an action or a reversal did: the action's row, and the later rounds already paired, which stay."""

    action: DirectorAction
    rounds_kept: list[int] = field(default_factory=list)


def _side(params: dict, name: str, choices=SIDES) -> str:
    value = params.get(name)
    if not isinstance(value, str) or value not in choices:
        raise ServiceError("action_params", name, {"reason": "choice", "field": name, "choices": list(choices),
                                                   "value": str(value)})
    return value


def _whole(params: dict, name: str, minimum: int, maximum: int = DESK_POINTS_MAX) -> int:
    value = params.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ServiceError("action_params", name, {"reason": "range", "field": name, "minimum": minimum,
                                                   "maximum": maximum, "value": str(value)})
    return value


def _players(params: dict) -> list[int]:
    """An individual event's players named by an action (ids, one to four, each once)."""
    value = params.get("players")
    if (not isinstance(value, list) or not 1 <= len(value) <= 4 or len(set(map(str, value))) != len(value)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ServiceError("action_params", "players", {"reason": "players", "field": "players",
                                                        "value": str(value)})
    return sorted(value)


def _one_player(params: dict, kind: str) -> int:
    """The one player an individual event's withdrawal mid-match or penalty names (``player``: an id), refused in
    the words of that action (not a forfeit's: its absent players)."""
    value = params.get("player")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == Kind.WITHDRAWAL:
        raise ServiceError("action_params", "player", {"reason": "withdrawing_player", "field": "player",
                                                       "value": str(value)})
    raise ServiceError("action_params", "player", {"reason": "penalized_player", "field": "player",
                                                   "value": str(value)})


def _seated(match: Match, kind: str, params: dict) -> dict:
    """An individual event's action with its players checked against the match's seats; a forfeit gets the side
    absent (``both`` when players of both sides are), a withdrawal mid-match the side of the player who leaves."""
    seats = dict(match.seats.values_list("player_id", "seat"))
    named = params["players"] if kind == Kind.FORFEIT else [params["player"]]
    stranger = next((p for p in named if p not in seats), None)
    if stranger is not None:
        raise ServiceError("action_params", "players", {"reason": "not_seated", "field": "players",
                                                        "value": str(stranger), "table": match.table})
    if kind == Kind.WITHDRAWAL:
        return {"side": "ns" if seats[params["player"]] in "NS" else "ew", **params}
    if kind != Kind.FORFEIT:
        return params
    sides = {"ns" if seats[p] in "NS" else "ew" for p in named}
    return {"absent": sides.pop() if len(sides) == 1 else "both", **params}


def _stage_now(tournament: Tournament) -> int:
    """The number of the stage a deduction counts in: the running one, else the last that ran (stage 1)."""
    numbers = Stage.objects.filter(tournament=tournament).exclude(status=Stage.Status.PENDING).values_list(
        "number", "status").order_by("-number")
    running = [n for n, status in numbers if status == Stage.Status.RUNNING]
    return running[0] if running else next((n for n, _ in numbers), 1)


def _clean_params(kind: str, params: dict, tournament: Tournament) -> dict:
    """The parameters an action of ``kind`` keeps, checked (``action_params``); unknown ones are dropped."""
    # The event's settings at the time of the action are kept with it: a later change of the settings does not
    # rewrite the results decided before it.
    if kind == Kind.FORFEIT and tournament.is_individual:  # a player's absence; the side is the match's (below)
        return {"players": _players(params), "game_points": forfeit_game_points(tournament)}
    if kind == Kind.FORFEIT:
        return {"absent": _side(params, "absent", (*SIDES, "both")), "game_points": forfeit_game_points(tournament)}
    if kind == Kind.WITHDRAWAL and tournament.is_individual:  # a player leaves; the side is the match's (below)
        return {"player": _one_player(params, kind), "award": tournament.withdrawal_award,
                "game_points": forfeit_game_points(tournament)}
    if kind == Kind.WITHDRAWAL:
        return {"side": _side(params, "side"), "award": tournament.withdrawal_award,
                "game_points": forfeit_game_points(tournament)}
    if kind == Kind.ADJUSTED:
        return {"games_won_ns": _whole(params, "games_won_ns", 0, 99),
                "games_won_ew": _whole(params, "games_won_ew", 0, 99),
                "points_ns": _whole(params, "points_ns", 0), "points_ew": _whole(params, "points_ew", 0),
                "winner": _side(params, "winner", (*SIDES, "draw"))}
    if kind == Kind.PENALTY and tournament.is_individual:  # one player's game points (their standings total)
        return {"player": _one_player(params, kind), "points": _whole(params, "points", 1)}
    if kind == Kind.PENALTY:
        return {"side": _side(params, "side"), "points": _whole(params, "points", 1)}
    if kind == Kind.DECISION:
        return {"winner": _side(params, "winner")}
    if kind == Kind.DEDUCTION:
        return {"metric": _side(params, "metric", DEDUCTIBLE), "amount": _whole(params, "amount", 1),
                "stage": _stage_now(tournament)}
    return {}  # a withdrawal from the event: the entry says it all


def match_directives(match_id: int) -> list[dict]:
    """A match's active actions as ``Match.directives`` keeps them: kind and parameters each, in the order taken."""
    return [{"id": pk, "kind": kind, **params} for pk, kind, params in DirectorAction.objects.filter(
        match_id=match_id, reverted_at__isnull=True).order_by("created_at", "id").values_list("id", "kind", "params")]


def _rounds_after(tournament: Tournament, match: Match | None, since=None) -> list[int]:
    """The rounds paired after the match's round (or, for an entry's action, since ``since``): they stay."""
    rounds = Round.objects.filter(tournament=tournament)
    if match is not None:
        rounds = rounds.filter(stage_id=match.round.stage_id, number__gt=match.round.number)
    elif since is not None:
        rounds = rounds.filter(created_at__gt=since)
    else:
        return []
    return sorted(rounds.values_list("number", flat=True))


def _standings_reload(tournament: Tournament) -> None:
    """Ask the next standings recompute for a full load (a change that names no match), and queue it."""
    from tournaments.services.standings import standings_recompute_schedule

    StandingsChange.objects.create(tournament_id=tournament.pk, match_id=None)
    transaction.on_commit(lambda: standings_recompute_schedule(tournament.pk))


def _match_refresh(match: Match) -> None:
    """Re-apply the match's active actions: its directives from the rows, its result by the one function."""
    match.directives = match_directives(match.pk)
    Match.objects.filter(pk=match.pk).update(directives=match.directives)
    match_refresh_result(match)
    match_result_changed(match=match)


def _check_match(kind: str, match: Match, tournament: Tournament, params: dict) -> None:
    """Refuse an action that makes no sense on this match as it stands (409s: ``Conflict``)."""
    if match.is_bye:
        raise Conflict("match_is_bye", "match", {"table": match.table})
    active = [d for d in match.directives or [] if d["kind"] == kind]
    if kind in DirectorAction.SINGLE_KINDS and active:
        raise Conflict("action_active", "kind", {"kind": kind, "action": active[0]["id"]})
    has_games = match.games.exists()
    if kind == Kind.FORFEIT and has_games:
        raise Conflict("match_started", "match", {"table": match.table})
    if kind == Kind.WITHDRAWAL:
        if not has_games:
            raise Conflict("match_not_started", "match", {"table": match.table})
        if match.status == Match.Status.FINISHED:
            raise Conflict("match_finished", "match", {"table": match.table})
    if kind == Kind.DECISION:
        # The match's stage's format: a multi-stage event's knockout follows pools or a Swiss.
        if Stage.objects.filter(pk=match.round.stage_id).values_list("format", flat=True).first() != \
                Stage.Format.KNOCKOUT:
            raise ServiceError("not_knockout", "kind", {"kind": kind})
        # A level match of a stage with tie-break deals is not finished (its tie-break game is next): the director
        # still decides it when that game cannot be played (the hall closes).
        level = match.status == Match.Status.FINISHED and match.winner == Match.Winner.DRAW
        if not level and tiebreak_due(match, None) is None:
            raise Conflict("match_not_drawn", "match", {"table": match.table})


@transaction.atomic
def desk_action_take(*, tournament: Tournament, kind: str, reason: str, user=None, match: Match | None = None,
                     entry: Entry | None = None, params: dict | None = None) -> DeskOutcome:
    """Take a director's action, with its reason; refused (nothing changed) when it makes no sense.

    Refusals: ``reason_missing``, ``action_params`` (a parameter out of its choices or range),
    ``match_other_tournament`` / ``entry_other_tournament`` (a match or entry of another event),
    ``match_is_bye``, ``action_active`` (one forfeit, withdrawal, adjusted result or decision at a time:
    revert it first), ``match_started`` (a forfeit after games were played), ``match_not_started`` /
    ``match_finished`` (a withdrawal mid-match needs a match in play), ``match_not_drawn`` / ``not_knockout``
    (a decision), ``already_withdrawn`` (a withdrawal from the event). In an individual event a forfeit names
    the players absent, a withdrawal mid-match and a penalty one player (``players`` / ``player``).
    """
    if kind in DirectorAction.ROUND_KINDS:  # the round clock's own (tournaments/services/clock.py)
        choices = [k for k in Kind.values if k not in DirectorAction.ROUND_KINDS]
        raise ServiceError("action_params", "kind", {"reason": "choice", "field": "kind", "choices": choices,
                                                     "value": kind})
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason_missing", "reason", {})
    if len(reason) > DESK_REASON_MAX:
        raise ServiceError("reason_too_long", "reason", {"limit": DESK_REASON_MAX})
    on_match = kind in DirectorAction.MATCH_KINDS
    if on_match and match is None:
        raise ServiceError("action_target_missing", "match", {"reason": "match"})
    if not on_match and entry is None:
        raise ServiceError("action_target_missing", "entry", {"reason": "entry"})
    params = _clean_params(kind, params or {}, tournament)
    if on_match:
        locked = match_lock(match.pk)
        if locked.round.tournament_id != tournament.pk:
            raise ServiceError("match_other_tournament", "match", {"match": match.pk})
        _check_match(kind, locked, locked.round.tournament, params)
        if tournament.is_individual and kind in (Kind.FORFEIT, Kind.PENALTY, Kind.WITHDRAWAL):
            params = _seated(locked, kind, params)
        action = DirectorAction.objects.create(tournament=tournament, match=locked, kind=kind, params=params,
                                               reason=reason, actor=_user(user))
        _match_refresh(locked)
        _standings_reload(tournament)
        return DeskOutcome(action, _rounds_after(tournament, locked))
    if entry.tournament_id != tournament.pk:
        raise ServiceError("entry_other_tournament", "entry", {"entry": entry.pk})
    if kind == Kind.WITHDRAWAL_EVENT:
        from tournaments.services.rounds import entry_withdraw

        entry = entry_withdraw(entry=entry, user=user)
        params = {"after_round": entry.withdrawn_after_round}
    action = DirectorAction.objects.create(tournament=tournament, entry=entry, kind=kind, params=params,
                                           reason=reason, actor=_user(user))
    _standings_reload(tournament)
    return DeskOutcome(action)


@transaction.atomic
def desk_action_revert(*, action: DirectorAction, user=None, reason: str = "") -> DeskOutcome:
    """Revert an action: marked reverted (who, when, why), and what it changed worked out again.

    A match's result is recomputed without it (its hands as they are); a withdrawn entry is back in the event
    (paired again from the next round); the standings are recomputed whole. Rounds paired after the action
    stay as they are (``rounds_kept``): a bye or walkover a withdrawal gave, or a knockout winner already
    sent on. Refused (``action_reverted``) when reverted already.
    """
    reason = (reason or "").strip()
    if len(reason) > DESK_REASON_MAX:
        raise ServiceError("reason_too_long", "reason", {"limit": DESK_REASON_MAX})
    match = match_lock(action.match_id) if action.match_id else None
    action = DirectorAction.objects.select_for_update().get(pk=action.pk)
    if action.reverted_at is not None:
        raise Conflict("action_reverted", None, {"action": action.pk})
    if action.kind in DirectorAction.ROUND_KINDS:  # a round's clock: given more time or ended again, not reverted
        raise Conflict("clock_action_final", None, {"action": action.pk})
    action.reverted_at, action.reverted_by, action.revert_reason = timezone.now(), _user(user), reason
    action.save(update_fields=["reverted_at", "reverted_by", "revert_reason"])
    tournament = action.tournament
    if match is not None:
        _match_refresh(match)
        kept = _rounds_after(tournament, match)
    else:
        kept = _rounds_after(tournament, None, action.created_at)
        if action.kind == Kind.WITHDRAWAL_EVENT:
            Entry.objects.filter(pk=action.entry_id).update(withdrawn=False, withdrawn_after_round=None)
    _standings_reload(tournament)
    return DeskOutcome(action, kept)


def _user(user):
    return user if getattr(user, "pk", None) else None

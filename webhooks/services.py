"""Webhook endpoints and deliveries: keyword-only services ``<entity>_<action>``.

An event is built once (``event_payload``), stored per endpoint as the exact body to send
(``Delivery.body``) and posted with an HMAC-SHA256 signature of that body:

    X-Manille-Signature: sha256=<hex of HMAC-SHA256(endpoint secret, raw body)>
    X-Manille-Timestamp: <unix seconds of this attempt>
    X-Manille-Event: hand.entered
    X-Manille-Delivery: <event id, the same on every attempt and for every endpoint>
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import uuid

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone, translation

from tournaments import queue
from tournaments.access import is_organizer
from tournaments.models import DirectorAction, Game, Hand, Match, ResultEvent, Round, Stage, Standing, Tournament
from tournaments.selectors.seats import match_players, players_of_matches, sitting_out_ids
from tournaments.services.hand_data import hand_input_dict

from .hand_rows import hand_with_match
from .models import TEST_EVENT, Delivery, Endpoint, new_secret, validate_events, validate_http_url
from .targets import TargetRefused, check_url, connection_for, validate_target

logger = logging.getLogger(__name__)

TIMEOUT = float(getattr(settings, "WEBHOOK_TIMEOUT", 5))
LOG_SIZE = int(getattr(settings, "WEBHOOK_LOG_SIZE", 50))
RESPONSE_CHARS = 1000
USER_AGENT = "Manille-Tournaments-Webhooks/1"
RETRYABLE_STATUSES = {408, 425, 429, 500, 502, 503, 504}


# --- endpoints --------------------------------------------------------------------------------------------------

def endpoint_create(*, tournament: Tournament, url: str, events=(), description: str = "", active: bool = True,
                    user=None) -> Endpoint:
    validate_http_url(url)
    validate_target(url)
    validate_events(list(events))
    return Endpoint.objects.create(tournament=tournament, url=url, events=list(events), description=description,
                                   active=active, created_by=user if getattr(user, "pk", None) else None)


def endpoint_update(*, endpoint: Endpoint, **changes) -> Endpoint:
    if "url" in changes:
        validate_http_url(changes["url"])
        validate_target(changes["url"])
    if "events" in changes:
        changes["events"] = list(changes["events"])
        validate_events(changes["events"])
    for name, value in changes.items():
        setattr(endpoint, name, value)
    endpoint.save()
    return endpoint


def endpoint_rotate_secret(*, endpoint: Endpoint) -> Endpoint:
    endpoint.secret = new_secret()
    endpoint.save(update_fields=["secret", "updated_at"])
    return endpoint


def endpoint_delete(*, endpoint: Endpoint) -> None:
    endpoint.delete()


def endpoint_send_test(*, endpoint: Endpoint) -> Delivery:
    """Queue a ``webhook.test`` event to this endpoint only (active or not)."""
    tournament = endpoint.tournament
    body = _envelope(TEST_EVENT, uuid.uuid4(), tournament, {"message": "A test event from Manille Tournaments."})
    delivery = Delivery.objects.create(endpoint=endpoint, event_id=body["id"], event=TEST_EVENT, body=_dump(body))
    _queue_deliveries([delivery.pk])
    return delivery


# --- signing and sending ----------------------------------------------------------------------------------------

def signature(secret: str, body: bytes) -> str:
    """The ``X-Manille-Signature`` value: ``sha256=`` and the hex HMAC-SHA256 of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def delivery_attempt(*, delivery: Delivery) -> tuple[bool, bool]:
    """Post the delivery's body once and log the answer on it; return (succeeded, worth retrying).

    The URL is checked again first (``targets.check_url``: its host resolves only to public addresses, or to
    ``WEBHOOK_ALLOWED_NETWORKS``), and the request goes to the addresses that check saw, never to a second
    lookup's. A refused target is a final failure, with no answer logged: nothing was sent. A redirect is
    the receiver's answer (http.client follows none).
    """
    endpoint = delivery.endpoint
    body = delivery.body.encode()
    status, answer, error, retryable = None, b"", "", False
    started = time.perf_counter()
    try:
        target = check_url(endpoint.url)
    except TargetRefused as exc:
        with translation.override(settings.LANGUAGE_CODE):  # the log's language, whoever pressed "test"
            target, error = None, exc.messages[0][:300]
        retryable = exc.code == "unresolvable_host"  # DNS may be back at the next attempt; a refusal is final
    if target is not None:
        connection = connection_for(target, TIMEOUT)
        try:
            connection.request("POST", target.path, body=body, headers={
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                "X-Manille-Event": delivery.event,
                "X-Manille-Delivery": str(delivery.event_id),
                "X-Manille-Timestamp": str(int(time.time())),
                "X-Manille-Signature": signature(endpoint.secret, body),
            })
            response = connection.getresponse()
            status, answer = response.status, response.read(RESPONSE_CHARS * 4)
            retryable = status in RETRYABLE_STATUSES
        except Exception as exc:  # refused, timed out, TLS...
            status, answer = None, b""
            error = f"{type(exc).__name__}: {exc}"[:300]
            retryable = True
        finally:
            connection.close()
    duration = int((time.perf_counter() - started) * 1000)
    ok = status is not None and 200 <= status < 300
    answer = answer.decode("utf-8", errors="replace")
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=delivery.attempts + 1, response_status=status, response_body=answer[:RESPONSE_CHARS],
        duration_ms=duration, error=error, attempted_at=timezone.now(),
        status=Delivery.Status.SUCCEEDED if ok else (Delivery.Status.PENDING if retryable else Delivery.Status.FAILED))
    delivery.attempts += 1
    return ok, (not ok and retryable)


def delivery_give_up(*, delivery: Delivery) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.FAILED)


# --- events -----------------------------------------------------------------------------------------------------

def _dump(data: dict) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)


def _envelope(event: str, event_id, tournament: Tournament, data: dict) -> dict:
    """An event's body. A reference is an id with its ``_detail`` (``{id, name, …}``), as in the API's answers,
    and the time is written in the configured zone with its offset, as the API writes every time."""
    return {"id": str(event_id), "event": event, "created": timezone.localtime().isoformat(),
            "tournament": tournament.pk,
            "tournament_detail": {"id": tournament.pk, "name": tournament.name, "slug": tournament.slug},
            "data": data}


def _team(team) -> dict | None:
    return None if team is None else {"id": team.pk, "name": team.name}


def _sides(match: Match) -> dict:
    """A match's teams: ``ns``, ``ew`` (ids; null in an individual event, ``ew`` for a bye) and their details."""
    return {"ns": match.ns_id, "ns_detail": _team(match.ns), "ew": match.ew_id, "ew_detail": _team(match.ew)}


def _match(match: Match) -> dict:
    """A match as the events send it: its teams (null in an individual event), its players by side and ``bye``."""
    return {"id": match.pk, "round": match.round.number, "table": match.table, "status": match.status,
            **_sides(match), "bye": match.is_bye, "players": match_players(match),
            "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
            "points": {"ns": match.points_ns, "ew": match.points_ew}, "winner": match.winner or None}


def _player(player) -> dict:
    return {"id": player.pk, "name": player.name}


def _standings(tournament: Tournament) -> list[dict]:
    """The saved standings' rows: a team's, or in an individual event a player's (``player`` instead of ``team``)."""
    rows = Standing.objects.filter(tournament=tournament).order_by("position")
    key, rows = (("player", rows.filter(player__isnull=False).select_related("player")) if tournament.is_individual
                 else ("team", rows.filter(team__isnull=False).select_related("team")))
    return [{"rank": r.rank, key: getattr(r, f"{key}_id"),
             f"{key}_detail": _player(r.player) if key == "player" else _team(r.team), "played": r.played,
             "won": r.won, "drawn": r.drawn, "lost": r.lost, "match_points": r.match_points,
             "games_won": r.games_won, "points_for": r.points_for, "tiebreaks": r.tiebreaks} for r in rows]


def _hand(hand: Hand) -> dict:
    return {"id": hand.pk, "game": hand.game.number, "number": hand.number, "input": hand_input_dict(hand),
            "multiplier": hand.multiplier, "score": {"ns": hand.score_ns, "ew": hand.score_ew},
            "totals": {"ns": hand.total_ns, "ew": hand.total_ew}, "game_winner": hand.game_winner or None,
            "labels": hand.labels}


def event_uuid(base: str | None, name: str, first: str) -> uuid.UUID:
    """The id of event ``name`` made by a change whose first event is ``first`` and whose id is ``base``.

    The first event carries ``base`` itself; another of the same change (``match.finished`` after the
    ``hand.entered`` that decided it) a name-based id derived from it. Without a base (a task queued by an
    older version), a new random id.
    """
    if not base:
        return uuid.uuid4()
    base_id = uuid.UUID(base)
    return base_id if name == first else uuid.uuid5(base_id, name)


# The teams' players joined: a team event's ``players`` cost no query (an individual event's seats, one).
_MATCH_RELATED = ("round__tournament", "ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2")


def event_payloads(event: str, ids: dict) -> tuple[Tournament, list[tuple[str, dict]]] | None:
    """The tournament and the (event, data) pairs an event sends; None when its objects are gone."""
    if event in ("hand.entered", "hand.corrected"):
        hand = hand_with_match(ids["hand"])  # one prepared statement: the push channel builds this in the request
        if hand is None:
            return None
        match = hand.game.match
        out = [(event, {"hand": _hand(hand), "match": _match(match)})]
        if event == "hand.entered" and match.status == Match.Status.FINISHED:
            last = Hand.objects.filter(game__match=match).order_by("-game__number", "-number").values("pk").first()
            if last and last["pk"] == hand.pk:  # the hand that decided the match
                out.append(("match.finished", {"match": _match(match)}))
        return _of_round(match.round), out
    if event == "hand.deleted":
        game = Game.objects.select_related(*(f"match__{r}" for r in _MATCH_RELATED)).filter(pk=ids["game"]).first()
        if game is None:
            return None
        data = {"hand": {"id": ids["hand"], "game": game.number, "number": ids.get("number")},
                "match": _match(game.match)}
        return _of_round(game.match.round), [(event, data)]
    if event in ("round.paired", "round.published"):
        rnd = Round.objects.select_related("tournament").filter(pk=ids["round"]).first()
        if rnd is None:
            return None
        matches = list(rnd.matches.select_related(*_MATCH_RELATED[1:]).order_by("table"))
        players = players_of_matches(matches)
        data = {"round": {"number": rnd.number, "status": rnd.status,
                          "matches": [{"id": m.pk, "table": m.table, **_sides(m), "bye": m.is_bye,
                                       "players": players[m.pk], "status": m.status} for m in matches],
                          "sitting_out": sitting_out_ids([rnd])[rnd.pk] if rnd.tournament.is_individual else [],
                          "seed": rnd.seed or None, "published_at": rnd.published_at}}
        return _of_round(rnd), [(event, data)]
    if event == "standings.updated":
        tournament = Tournament.objects.filter(pk=ids["tournament"]).first()
        if tournament is None:
            return None
        return tournament, [(event, {"standings": _standings(tournament)})]
    if event in ("stage.closed", "stage.started"):
        stage = Stage.objects.select_related("tournament").filter(pk=ids["stage"]).first()
        if stage is None:
            return None
        return stage.tournament, [(event, {"stage": _stage(stage)})]
    if event == "director.action":
        action = (DirectorAction.objects.select_related("tournament", *(f"match__{r}" for r in _MATCH_RELATED))
                  .filter(pk=ids["action"]).first())
        if action is None:
            return None
        data = {"action": {"id": action.pk, "kind": action.kind, "match": action.match_id, "entry": action.entry_id,
                           "params": action.params, "reason": action.reason, "actor": action.actor_id,
                           "created_at": action.created_at, "active": action.active,
                           "reverted_at": action.reverted_at, "reverted_by": action.reverted_by_id,
                           "revert_reason": action.revert_reason},
                "match": _match(action.match) if action.match_id else None}
        return (_of_round(action.match.round) if action.match_id else action.tournament), [(event, data)]
    if event in RESULT_EVENT_NAMES:
        step = (ResultEvent.objects.select_related(*(f"match__{r}" for r in _MATCH_RELATED), "player")
                .filter(pk=ids["step"]).first())
        if step is None:
            return None
        return _of_round(step.match.round), [(event, _result_step(step))]
    raise ValueError(f"unknown webhook event {event!r}")


def _of_round(rnd: Round) -> Tournament:
    """The round's tournament, marked ``unpublished_round`` when the event is of a round not yet published: its
    organizers' endpoints alone hear of it (``event_fanout``), and the push channel's streams not at all."""
    tournament = rnd.tournament
    tournament.unpublished_round = rnd.published_at is None
    return tournament


def unpublished(tournament: Tournament) -> bool:
    """Tell whether ``event_payloads`` built the events of a round not yet published (``_of_round``)."""
    return getattr(tournament, "unpublished_round", False)


RESULT_EVENT_NAMES = ("result.confirmed", "result.disputed", "result.settled")


def _result_step(step: ResultEvent) -> dict:
    """A step of a result's confirmation as its events send it: who (a player by their code or account, an
    account), the status after it, its reason; never the phone nor the address it came from."""
    match = step.match
    return {"step": {"id": step.pk, "kind": step.kind, "status": step.status, "side": step.side or None,
                     "player": step.player_id, "player_detail": _player(step.player) if step.player_id else None,
                     "user": step.user_id, "reason": step.reason, "at": step.at},
            "match": _match(match)}


def _stage(stage: Stage) -> dict:
    """A stage as its events send it: number, format, status, seed, the rule on and who goes on (closed)."""
    report = stage.report or {}
    return {"number": stage.number, "format": stage.format, "status": stage.status, "seed": stage.seed or None,
            "qualification": stage.qualification,
            "qualifiers": [{"entrant": q["entrant"], "seed": q["seed"], "how": q["how"]}
                           for q in report.get("qualifiers", [])] if stage.status == Stage.Status.CLOSED else []}


def _tournament_id(event: str, ids: dict) -> int | None:
    """The tournament an event belongs to, in one query (to find its endpoints before building anything)."""
    if event in ("hand.entered", "hand.corrected"):
        return Hand.objects.filter(pk=ids["hand"]).values_list("game__match__round__tournament_id", flat=True).first()
    if event == "hand.deleted":
        return Game.objects.filter(pk=ids["game"]).values_list("match__round__tournament_id", flat=True).first()
    if event in ("round.paired", "round.published"):
        return Round.objects.filter(pk=ids["round"]).values_list("tournament_id", flat=True).first()
    if event == "director.action":
        return DirectorAction.objects.filter(pk=ids["action"]).values_list("tournament_id", flat=True).first()
    if event in RESULT_EVENT_NAMES:
        return ResultEvent.objects.filter(pk=ids["step"]).values_list("match__round__tournament_id", flat=True).first()
    return ids.get("tournament")


def event_fanout(*, event: str, ids: dict) -> list[int]:
    """Store one delivery per active endpoint that wants the event(s) and queue them; return their ids.

    Costs one query when the tournament has no active endpoint (the usual case).
    """
    if event in ("hand.entered", "hand.corrected", "hand.deleted"):
        endpoints = list(Endpoint.objects.filter(active=True, tournament__round_set__matches__games__hands__pk=ids[
            "hand"]) if event != "hand.deleted" else Endpoint.objects.filter(
            active=True, tournament__round_set__matches__games__pk=ids["game"]))
    else:
        tournament_id = _tournament_id(event, ids)
        endpoints = list(Endpoint.objects.filter(active=True, tournament_id=tournament_id)
                         .select_related("created_by")) if tournament_id else []
        if event == "round.paired":  # a round maybe not yet published: its organizers' endpoints alone
            endpoints = [e for e in endpoints if registered_by_organizer(e)]
    if not endpoints:
        return []
    built = event_payloads(event, ids)
    if built is None:
        return []
    tournament, payloads = built
    if unpublished(tournament):
        endpoints = [e for e in endpoints if registered_by_organizer(e)]
    created = []
    with transaction.atomic():
        for name, data in payloads:
            event_id = event_uuid(ids.get("event_id"), name, event)
            body = _dump(_envelope(name, event_id, tournament, data))
            created += Delivery.objects.bulk_create([
                Delivery(endpoint=e, event_id=event_id, event=name, body=body) for e in endpoints if e.wants(name)])
        for endpoint in endpoints:
            _prune(endpoint)
        ids_ = [d.pk for d in created]
        _queue_deliveries(ids_)
    return ids_


def registered_by_organizer(endpoint: Endpoint) -> bool:
    """Tell whether the endpoint was registered by an organizer of its tournament (or staff), one still: the
    endpoints that hear of a round before it is published (``round.paired``)."""
    return endpoint.created_by_id is not None and is_organizer(endpoint.created_by, endpoint.tournament_id)


def _prune(endpoint: Endpoint) -> None:
    """Keep the endpoint's last LOG_SIZE deliveries."""
    cutoff = (Delivery.objects.filter(endpoint=endpoint).order_by("-id").values_list("id", flat=True)[LOG_SIZE:LOG_SIZE + 1])
    cutoff = list(cutoff)
    if cutoff:
        Delivery.objects.filter(endpoint=endpoint, id__lte=cutoff[0]).delete()


def _queue_deliveries(delivery_ids: list[int]) -> None:
    """Queue each delivery on commit. Without a worker (eager), each is tried once, in-process."""

    def enqueue():
        deliver_task = queue.task(queue.WEBHOOK_DELIVER)  # by name: tasks.py imports this module
        for pk in delivery_ids:
            try:
                if deliver_task.app.conf.task_always_eager:
                    deliver_task.apply((pk,), retries=deliver_task.max_retries)  # one attempt: no worker to wait
                else:
                    deliver_task.apply_async((pk,))
            except Exception:
                logger.exception("webhook delivery %s not queued", pk)

    transaction.on_commit(enqueue)

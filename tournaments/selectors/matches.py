"""Reads: querysets with their joins, and the JSON-ready answers of the scoreboard and a stored hand."""

import hashlib
import json

from django.db.models import Prefetch
from django.utils import timezone

from tournaments.models import Game, Hand, Match
from tournaments.selectors import confirmation
from tournaments.selectors.seats import match_players
from tournaments.services.hand_data import hand_input_dict
from tournaments.services.lengths import length_of


def match_for_scoreboard(*, match_id: int) -> Match:
    """Return a match with everything its scoreboard shows (teams, clubs, players, its round's stage for its length,
    every hand), in three queries."""
    hands = Prefetch("hands", queryset=Hand.objects.order_by("number"))
    games = Prefetch("games", queryset=Game.objects.order_by("number").prefetch_related(hands))
    return (Match.objects.select_related("round__tournament__club", "round__stage", "ns__club", "ew__club", "ns__player_1",
                                         "ns__player_2", "ew__player_1", "ew__player_2")
            .prefetch_related(games).get(pk=match_id))


def _team(team) -> dict | None:
    """A side of the scoreboard: the team, its club and its two players."""
    if team is None:
        return None
    return {"id": team.pk, "name": team.name, "club": {"id": team.club.pk, "name": team.club.name},
            "players": [{"id": p.pk, "name": p.name} for p in (team.player_1, team.player_2)]}


def team_summary(team) -> dict | None:
    """A team named for a list (a round's tables, the standings): id, name and club; ``team__club`` joined."""
    if team is None:
        return None
    return {"id": team.pk, "name": team.name, "club": {"id": team.club_id, "name": team.club.name}}


def hand_computed(hand: Hand) -> dict:
    """Return a stored hand: what was entered and what the engine computed."""
    data = hand_input_dict(hand)
    data.setdefault("trump", hand.trump or None)
    data.setdefault("blind", False)
    data.setdefault("doublings", 0)
    data.setdefault("thrown_in", False)
    data["tricks"] = None if hand.tricks_ns is None else {"ns": hand.tricks_ns, "ew": hand.tricks_ew}
    data["points"] = None if hand.points_ns is None else {"ns": hand.points_ns, "ew": hand.points_ew}
    data.pop("score", None)
    return {
        "id": hand.pk,
        "number": hand.number,
        **data,
        "sheet_score": hand.sheet_score,
        "multiplier": hand.multiplier,
        "all_tricks": hand.all_tricks,
        "score": hand.score,
        "bonus": hand.bonus,
        "totals": hand.totals,
        "game_winner": hand.game_winner or None,
        "labels": list(hand.labels or []),
    }


def _match_summary(match: Match, current: Game | None) -> dict:
    if match.status == Match.Status.FINISHED:  # decided (by the director with a game in play): no next hand
        current = None
    return {
        "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
        "winner": match.winner or None,
        "status": match.status,
        "next_dealer": (current.next_dealer or None) if current and current.status == Game.Status.PLAYING else None,
        "tie_pending": bool(current and current.status == Game.Status.PLAYING and current.tie_pending),
    }


def hand_result(hand: Hand, *, current: bool = False) -> dict:
    """Return the api.md answer for a stored hand: the hand, its result and where the match stands.

    ``current``: ``hand.game`` is the match's last game and ``hand.game.match`` the match, both as just
    saved (the hand services' answer), so nothing is read again.
    """
    game = hand.game
    if current:
        match, current_game = game.match, game
    else:
        match = Match.objects.get(pk=game.match_id)
        current_game = match.games.order_by("-number").first()
    return {
        **hand_computed(hand),
        "game": game.number,
        "game_id": game.pk,
        "match": {"id": match.pk, **_match_summary(match, current_game)},
    }


def match_scoreboard(*, match_id: int) -> dict:
    """Return the match scoreboard: teams (null in an individual event), players, games won, every hand with
    running totals, the next deal."""
    return scoreboard_of(match_for_scoreboard(match_id=match_id))


def scoreboard_of(match: Match) -> dict:
    """Return the scoreboard of a match loaded by ``match_for_scoreboard``."""
    tournament = match.round.tournament
    games = list(match.games.all())
    current = games[-1] if games else None
    # A match the director decided with a game in play (a withdrawal mid-match) has no next hand.
    playing = (current is not None and current.status == Game.Status.PLAYING
               and match.status != Match.Status.FINISHED)
    return {
        "id": match.pk,
        "tournament": {"id": tournament.pk, "name": tournament.name, "variant": tournament.variant},
        "round": match.round.number,
        "table": match.table,
        "bye": match.is_bye,
        "ns": _team(match.ns),
        "ew": _team(match.ew),
        # A team event's from its teams (joined: no query); an individual event's seats, one query.
        "players": match_players(match),
        "best_of": length_of(match.round).best_of,  # its stage's (a pools stage best of 1, a knockout best of 3)
        **_match_summary(match, current),
        "result_status": confirmation.status_of(match, tournament),
        "result_mark": (match.result_mark or None) if confirmation.status_of(match, tournament) else None,
        # The director's desk: the side absent from a forfeit, and the action that decided the result.
        "forfeit": match.forfeit or None,
        "decided_by": match.decided_by or None,
        "next_multiplier": current.next_multiplier if playing else None,
        "current_game": current.number if playing else None,
        # In the configured zone with its offset, as DRF renders every other time of the API (docs/api.md).
        "updated_at": timezone.localtime(match.updated_at).isoformat(),
        "games": [
            {
                "number": game.number,
                "status": game.status,
                "first_dealer": game.first_dealer,
                "favourite": game.favourite or None,
                "albur": game.albur or None,
                "totals": game.totals,
                "winner": game.winner or None,
                "next_dealer": (game.next_dealer or None) if game.status == Game.Status.PLAYING else None,
                "next_multiplier": game.next_multiplier if game.status == Game.Status.PLAYING else None,
                "tie_pending": game.tie_pending,
                "hands": [hand_computed(hand) for hand in game.hands.all()],
            }
            for game in games
        ],
    }


def scoreboard_etag(data: dict) -> str:
    """Return the strong ETag of a scoreboard: a hash of its JSON."""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode()
    return '"%s"' % hashlib.sha256(body).hexdigest()[:40]


def match_side_names(*, match_id=None, hand_id=None) -> dict | None:
    """Return the sides' names of a match (or of a hand's match), for the words of a refusal; None: none.

    A team event's sides are its teams; an individual event's, its partnerships ("An Peeters & Bram Claes").
    """
    matches = Match.objects.select_related("ns", "ew")
    if hand_id is not None:
        matches = matches.filter(games__hands__pk=hand_id)
    elif match_id is not None:
        matches = matches.filter(pk=match_id)
    else:
        return None
    match = matches.first()
    if match is None:
        return None
    if match.ns_id is None:
        players = match_players(match)
        return {side: " & ".join(p["name"] for p in players[side]) or None for side in ("ns", "ew")}
    return {"ns": match.ns.name, "ew": match.ew.name if match.ew_id else None}

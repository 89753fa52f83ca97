"""Table entry's reads and words: a match's state for the entry form, the engine's preview, refusals in words.

Nothing here writes: entering, correcting and deleting go through ``tournaments.services``. The
preview folds the game's stored hands and the typed one through the rules engine exactly as
``hand_enter`` will, so what it shows is what will be stored (or refused).
"""

import re

import scoring

from tournaments import refusals as refusal_words
from tournaments.models import Game, Match
from tournaments.services.errors import ServiceError
from tournaments.services.hand_data import engine_hands, game_settings
from tournaments import vocabulary

#: Idempotency-Key: 1 to 100 printable ASCII characters without spaces (as the API accepts).
KEY_RE = re.compile(r"^[\x21-\x7e]{1,100}$")

#: The fields of the entry form a refusal can point at (others show above the form).
FORM_FIELDS = ("dealer", "trump", "turned_card", "blind", "doublings", "tricks", "points", "penalty", "thrown_in",
               "game", "number")


def form_field(field: str | None) -> str:
    """Return the form field a refusal's field names (``points.ns`` -> ``points``), or "" for the whole hand."""
    if not field:
        return ""
    head = field.split(".")[0]
    return head if head in FORM_FIELDS else ""


def _names(state: dict | None) -> dict:
    """The match's team names by side, as the admin's refusals name them ("NS"/"EW" without a state)."""
    state = state or {}
    return refusal_words.side_names({"ns": state.get("ns_name"), "ew": state.get("ew_name")})


def words_for(code: str, field: str | None, variant: scoring.Variant, state: dict | None = None,
              params: dict | None = None) -> str:
    """Return a refusal in plain words in the user's language, as the admin and the API write it.

    ``tournaments.refusals`` writes the sentence from the code and its params, with the teams by name; a
    malformed value of one of the form's fields says what the field needs (``form_words``).
    """
    return refusal_words.form_words(code, form_field(field), params or {}, names=_names(state))


def refusals(exc: Exception, variant: scoring.Variant, state: dict | None = None) -> list[dict]:
    """Return a refusal (the engine's violations or a service's conflict) as {code, field, attr, message, detail}.

    ``code``, ``attr`` and ``detail`` are the API's (its ``errors[]``, "NS"/"EW" for the sides), ``message`` the
    admin's sentence (the teams by name; a malformed value says what the form's field needs), ``field`` the
    entry form's field it shows on.
    """
    if not isinstance(exc, (scoring.RuleViolation, ServiceError)):
        raise TypeError(exc)
    return [{"code": code, "field": form_field(field), "attr": field,
             "message": words_for(code, field, variant, state, params),
             "detail": refusal_words.words(code, params)}
            for code, field, params in refusal_words.items(exc)]


def _team_of(match: Match, seat: str) -> str:
    team = match.ns if seat in ("N", "S") else match.ew
    return team.name if team else ""


def variant_form(match: Match) -> dict:
    """Return what the entry form offers for the tournament's variant: seats, trumps, cards, calls, penalties."""
    tournament = match.round.tournament
    variant = tournament.variant_obj
    rules = variant.rules(tournament.options or {})
    deck = vocabulary.deck_kind(variant)
    suits = [{"code": s, "name": vocabulary.suit_name(variant, s),
              "symbol": vocabulary.suit_symbol(variant, s) if deck == "french" else ""} for s in variant.suits]
    rank_names = vocabulary.SPANISH_RANK_NAMES if deck == "spanish" else vocabulary.FRENCH_RANK_NAMES
    return {
        "slug": variant.slug,
        "name": variant.name,
        "seats": [{"code": s, "label": vocabulary.seat(s), "side": "ns" if s in ("N", "S") else "ew",
                   "team": _team_of(match, s)} for s in rules.order],
        "order": list(rules.order),
        "trump_mode": variant.trump_mode,
        "suits": suits,
        "no_trump": variant.no_trump,
        "ranks": [{"code": r, "name": str(rank_names.get(r, r))} for r in variant.ranks],
        "tricks_per_deal": variant.tricks_per_deal,
        "hand_total": variant.hand_total,
        "blind": variant.blind_multiplier > 1 and rules.blind_allowed,
        "doublings": variant.doublings,
        "penalties": [{"code": name, "name": str(vocabulary.PENALTY_LABELS.get(name, name)),
                       "help": str(vocabulary.PENALTY_HELP.get(name, p.help))}
                      for name, p in variant.penalties.items()],
        "favourite": variant.favourite,
        "albur": bool(variant.albur_points and rules.albur),
    }


def hand_row(hand, match: Match, variant: scoring.Variant) -> dict:
    """Return a stored hand for the entry page's list: who dealt, trump, score and totals."""
    trump = hand.trump or (hand.turned_card[-1:] if hand.turned_card else "")
    return {
        "id": hand.pk, "number": hand.number, "dealer": hand.dealer, "dealer_seat": vocabulary.seat(hand.dealer),
        "dealer_team": _team_of(match, hand.dealer),
        "trump": (vocabulary.card_name(variant, hand.turned_card) if hand.turned_card
                  else vocabulary.suit_name(variant, trump)),
        "score_ns": hand.score_ns, "score_ew": hand.score_ew, "total_ns": hand.total_ns, "total_ew": hand.total_ew,
        "thrown_in": hand.thrown_in, "multiplier": hand.multiplier,
        "labels": [str(vocabulary.LABEL_WORDS.get(lb, lb)) for lb in hand.labels or []],
    }


def match_state(match: Match) -> dict:
    """Return where a match stands for the entry form: the game and hand to enter next, its dealer, the totals."""
    tournament = match.round.tournament
    variant = tournament.variant_obj
    rules = variant.rules(tournament.options or {})
    games = list(match.games.order_by("number"))
    current = games[-1] if games else None
    playing = current is not None and current.status == Game.Status.PLAYING
    hands = list(current.hands.order_by("number")) if current is not None else []
    last = hands[-1] if hands else None
    if playing:
        game_number, next_number = current.number, (last.number + 1 if last else 1)
        next_dealer = current.next_dealer or ""
        totals = {"ns": current.total_ns, "ew": current.total_ew}
    else:
        game_number, next_number = (current.number + 1 if current else 1), 1
        # A new game's first dealer is drawn at the table: suggest the seat after the last dealer.
        next_dealer = rules.next_seat[last.dealer] if last is not None else ""
        totals = {"ns": 0, "ew": 0}
    decided = match.status == Match.Status.FINISHED or match.is_bye
    if decided and current is not None:  # no next game: the board shows how the last one ended
        totals = {"ns": current.total_ns, "ew": current.total_ew}
    return {
        "match": match.pk,
        "version": match.updated_at.isoformat(),
        "status": match.status,
        "status_label": str(vocabulary.MATCH_STATUS.get(match.status, match.status)),
        "decided": decided,
        "playing": playing,
        "game": game_number,
        "number": next_number,
        "next_dealer": next_dealer,
        "next_dealer_team": _team_of(match, next_dealer) if next_dealer else "",
        "next_multiplier": current.next_multiplier if playing else 1,
        "totals": totals,
        "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
        "ns_name": match.ns.name,
        "ew_name": match.ew.name if match.ew else "",
        "last_hand": ({"id": last.pk, "game": current.number, "number": last.number} if last is not None else None),
        "hands": [hand_row(h, match, variant) for h in hands],
        "shown_game": current.number if current is not None else None,
        "game_over_winner": (current.winner or "") if current is not None and not playing else "",
    }


def preview(match: Match, data) -> dict:
    """Score ``data`` as the next hand of the match against the stored game, without storing anything.

    Raises ``scoring.RuleViolation`` with the engine's refusals, as ``hand_enter`` would.
    """
    tournament = match.round.tournament
    entered = scoring.Hand.from_dict(data)
    game = match.games.order_by("-number").first()
    if game is not None and game.status == Game.Status.PLAYING:
        game.match = match
        settings = game_settings(game)
        rows = engine_hands(list(game.hands.order_by("number")))
        game_number, number = game.number, len(rows) + 1
    else:
        if match.status == Match.Status.FINISHED or match.is_bye:
            raise scoring.RuleViolation(scoring.Violation("game_over", "match", {"reason": "match_decided"}))
        settings = scoring.GameSettings(variant=tournament.variant, options=tournament.options or {},
                                        first_dealer=entered.dealer if isinstance(entered.dealer, str) else None)
        rows = []
        game_number, number = (game.number + 1 if game else 1), 1
    folded = scoring.fold_game(settings, [*rows, entered])
    result = folded.hands[-1]
    bonus = result.bonus
    return {
        "game": game_number, "number": number,
        "score": result.score, "totals": result.totals, "multiplier": result.multiplier,
        "bonus": ({"side": bonus.side, "points": bonus.points, "applied": bonus.applied} if bonus else None),
        "game_winner": result.game_winner,
        "game_winner_name": ((match.ns.name if result.game_winner == "ns" else match.ew.name)
                             if result.game_winner in ("ns", "ew") else ""),
        "next_dealer": result.next_dealer,
        "labels": [str(vocabulary.LABEL_WORDS.get(lb, lb)) for lb in result.labels],
    }


def _int(value, field: str, errors: list) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        errors.append(scoring.Violation("invalid_input", field, {"reason": "whole_number", "field": field}))
        return None
    return number


def hand_from_form(post) -> dict:
    """Return the hand typed in the entry form (a POST without JavaScript) in the api.md shape.

    Raises ``scoring.RuleViolation`` (invalid_input) for a number that is not one.
    """
    errors: list = []
    data: dict = {"dealer": post.get("dealer", "")}
    if post.get("trump"):
        data["trump"] = post["trump"]
    rank, suit = post.get("turned_rank", ""), post.get("turned_suit", "")
    if rank and suit:
        data["turned_card"] = rank + suit
    elif rank or suit:
        errors.append(scoring.Violation("invalid_input", "turned_card", {"reason": "rank_and_suit"}))
    if post.get("blind"):
        data["blind"] = True
    if post.get("doublings"):
        data["doublings"] = _int(post["doublings"], "doublings", errors)
    if post.get("thrown_in"):
        data["thrown_in"] = True
    for name in ("tricks", "points"):
        ns, ew = post.get(f"{name}_ns", ""), post.get(f"{name}_ew", "")
        if ns != "" or ew != "":
            data[name] = {"ns": _int(ns, f"{name}.ns", errors), "ew": _int(ew, f"{name}.ew", errors)}
    if post.get("penalty_type"):
        data["penalty"] = {"type": post["penalty_type"], "side": post.get("penalty_side", "")}
    if errors:
        raise scoring.RuleViolation(errors)
    return data


def form_values(hand) -> dict:
    """Return a stored hand as the entry form's field values (to correct it)."""
    values = {"dealer": hand.dealer, "trump": hand.trump, "blind": hand.blind, "doublings": hand.doublings,
              "thrown_in": hand.thrown_in, "tricks_ns": hand.tricks_ns, "tricks_ew": hand.tricks_ew,
              "points_ns": hand.points_ns, "points_ew": hand.points_ew,
              "penalty_type": hand.penalty_type, "penalty_side": hand.penalty_side}
    if hand.turned_card:
        values["turned_rank"], values["turned_suit"] = hand.turned_card[:-1], hand.turned_card[-1]
    return values

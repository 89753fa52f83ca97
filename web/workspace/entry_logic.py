"""Table entry's reads and words: a match's state for the entry form, the engine's preview, refusals in words.

Nothing here works out or writes a result: where the next hand goes is ``match_entry_state``'s
(``tournaments.selectors.hands``), the preview is ``hand_preview``'s (what ``hand_enter`` would store,
or refuse), and the form's fields become a hand through ``hand_data.hand_from_fields``; this module
puts them in the page's words.
"""

import re

import scoring
from django.utils.translation import gettext as _

from tournaments import refusals as refusal_words
from tournaments import vocabulary
from tournaments.models import Match
from tournaments.selectors import confirmation
from tournaments.selectors.hands import match_entry_state
from tournaments.selectors.seats import SIDE_SEATS, match_players
from tournaments.services.errors import ServiceError
from tournaments.services.hand_data import FORM_FIELDS as HAND_FIELDS
from tournaments.services.hand_data import hand_fields, hand_from_fields
from tournaments.services.hands import hand_preview

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

    ``code``, ``attr`` and ``detail`` are the API's (its ``errors[]``, the teams by name as the API names them),
    ``message`` the admin's sentence (a malformed value says what the form's field needs), ``field`` the entry
    form's field it shows on.
    """
    if not isinstance(exc, (scoring.RuleViolation, ServiceError)):
        raise TypeError(exc)
    return [{"code": code, "field": form_field(field), "attr": field,
             "message": words_for(code, field, variant, state, params),
             "detail": refusal_words.words(code, params, names=_names(state))}
            for code, field, params in refusal_words.items(exc)]


def pair_name(names: list[str]) -> str:
    """Return a partnership of an individual event by its players' names ("An Peeters & Bart Claes")."""
    if len(names) != 2:
        return ", ".join(names)
    return _("%(first)s & %(second)s") % {"first": names[0], "second": names[1]}


def match_names(match: Match) -> dict:
    """Return who plays at the match as the entry page names them: ``{"ns", "ew", "seats": {seat: name}}``.

    A team event's sides are its teams (each seat its side's team); an individual event's are the partnerships
    seated there (``N & S``, ``E & W``), each seat its player. Read once and kept on the match object.
    """
    names = getattr(match, "_entry_names", None)
    if names is not None:
        return names
    if match.ns_id is not None or match.ew_id is not None:
        ns, ew = (match.ns.name if match.ns_id else ""), (match.ew.name if match.ew_id else "")
        names = {"ns": ns, "ew": ew, "seats": {"N": ns, "S": ns, "E": ew, "W": ew}, "individual": False}
    else:
        players = match_players(match)
        seats = {seat: p["name"] for side, pair in SIDE_SEATS.items()
                 for seat, p in zip(pair, players.get(side, []))}
        names = {side: pair_name([seats.get(a, "?"), seats.get(b, "?")]) for side, (a, b) in SIDE_SEATS.items()}
        names.update(seats=seats, individual=True)
    match._entry_names = names
    return names


def _team_of(match: Match, seat: str) -> str:
    return match_names(match)["seats"].get(seat, "")


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
    variant = match.round.tournament.variant_obj
    entry = match_entry_state(match=match)
    current, hands, nxt = entry.current, entry.hands, entry.next
    last = hands[-1] if hands else None
    playing = entry.playing
    totals = {"ns": current.total_ns, "ew": current.total_ew} if playing else {"ns": 0, "ew": 0}
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
        "game": nxt.game_number,
        "number": nxt.number,
        "next_dealer": nxt.dealer,
        "next_dealer_team": _team_of(match, nxt.dealer) if nxt.dealer else "",
        "next_multiplier": nxt.multiplier,
        "totals": totals,
        "games_won": {"ns": match.games_won_ns, "ew": match.games_won_ew},
        "ns_name": match_names(match)["ns"],
        "ew_name": match_names(match)["ew"],
        "last_hand": ({"id": last.pk, "game": current.number, "number": last.number} if last is not None else None),
        "hands": [hand_row(h, match, variant) for h in hands],
        "shown_game": current.number if current is not None else None,
        "game_over_winner": (current.winner or "") if current is not None and not playing else "",
        # The opponents' confirmation (docs/confirmation.md): shown on the entering phone once the match is over.
        "confirming": confirmation.confirming(match.round.tournament) and not match.is_bye,
        "result_status": confirmation.status_of(match),
        "result_reason": match.result_reason if match.result_status == confirmation.DISPUTED else "",
    }


def preview(match: Match, data, number: int | None = None, game_number: int | None = None) -> dict:
    """Score ``data`` as the next hand of the match against the stored game, without storing anything.

    Raises the refusals ``hand_enter`` would raise for the same request (``hand_preview``).
    """
    found = hand_preview(match=match, data=data, number=number, game_number=game_number)
    result = found.result
    bonus = result.bonus
    return {
        "game": found.game.number, "number": found.number,
        "score": result.score, "totals": result.totals, "multiplier": result.multiplier,
        "bonus": ({"side": bonus.side, "points": bonus.points, "applied": bonus.applied} if bonus else None),
        "game_winner": result.game_winner,
        "game_winner_name": match_names(match).get(result.game_winner, "") if result.game_winner in ("ns", "ew")
        else "",
        "next_dealer": result.next_dealer,
        "labels": [str(vocabulary.LABEL_WORDS.get(lb, lb)) for lb in result.labels],
    }


def hand_from_form(post) -> dict:
    """Return the hand typed in the entry form (a POST without JavaScript) in the api.md shape.

    Raises ``scoring.RuleViolation`` (invalid_input) for a number that is not one.
    """
    fields = {name: post.get(name, "") for name in HAND_FIELDS}
    rank, suit = post.get("turned_rank", ""), post.get("turned_suit", "")
    fields["turned_card"] = rank + suit if rank and suit else ""
    errors = ([scoring.Violation("invalid_input", "turned_card", {"reason": "rank_and_suit"})]
              if bool(rank) != bool(suit) else [])
    try:
        data = hand_from_fields(fields)
    except scoring.RuleViolation as exc:
        errors += exc.violations
    if errors:
        raise scoring.RuleViolation(errors)
    return data


def form_values(hand) -> dict:
    """Return a stored hand as the entry form's field values (to correct it)."""
    values = hand_fields(hand)
    card = values.pop("turned_card")
    if card:
        values["turned_rank"], values["turned_suit"] = card[:-1], card[-1]
    return values

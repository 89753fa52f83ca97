"""Translate between a stored ``Hand`` row and the rules engine's plain values."""

import dataclasses
from collections.abc import Mapping

import scoring
import scoring.types

from tournaments.models import Game, Hand

#: The fields of a hand as entered (api.md "A hand"); everything else on the row is computed.
INPUT_KEYS = ("dealer", "trump", "turned_card", "blind", "doublings", "tricks", "points", "penalty",
              "thrown_in", "score", "play")


def hand_input_dict(hand: Hand) -> dict:
    """Return the hand as entered, in the api.md JSON shape."""
    data: dict = {"dealer": hand.dealer}
    if hand.trump:
        data["trump"] = hand.trump
    if hand.turned_card:
        data["turned_card"] = hand.turned_card
    if hand.blind:
        data["blind"] = True
    if hand.doublings:
        data["doublings"] = hand.doublings
    # With a full play, tricks and points are the engine's count of it, not an input.
    if hand.play is None and hand.tricks_ns is not None and hand.tricks_ew is not None:
        data["tricks"] = {"ns": hand.tricks_ns, "ew": hand.tricks_ew}
    if hand.play is None and hand.points_ns is not None and hand.points_ew is not None:
        data["points"] = {"ns": hand.points_ns, "ew": hand.points_ew}
    if hand.penalty_type:
        data["penalty"] = {"type": hand.penalty_type, "side": hand.penalty_side}
    if hand.thrown_in:
        data["thrown_in"] = True
    if hand.sheet_score is not None:
        data["score"] = hand.sheet_score
    if hand.play is not None:
        data["play"] = hand.play
    return data


#: A hand's flat form fields (the admin's score sheet, the table entry): what ``hand_from_fields`` reads.
FORM_FIELDS = ("dealer", "trump", "turned_card", "blind", "doublings", "tricks_ns", "tricks_ew", "points_ns",
               "points_ew", "penalty_type", "penalty_side", "thrown_in")


def _count(value, field: str, errors: list) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        errors.append(scoring.types.bad(field, "whole_number", field=field))
        return None


def _blank(value) -> bool:
    return value is None or value == ""


def hand_from_fields(fields: Mapping) -> dict:
    """Return the hand (api.md, as the engine reads it) of a form's flat fields (``FORM_FIELDS``).

    Values as typed (strings) or as a form cleaned them (numbers, booleans); a blank field is absent,
    and a side left blank beside a filled one counts 0. Raises ``scoring.RuleViolation``
    (``invalid_input``) for a count that is not a whole number.
    """
    errors: list = []
    data: dict = {"dealer": fields.get("dealer") or ""}
    for key in ("trump", "turned_card"):
        if not _blank(fields.get(key)):
            data[key] = str(fields[key]).strip()
    if not _blank(fields.get("blind")) and fields["blind"]:
        data["blind"] = True
    if not _blank(fields.get("doublings")):
        doublings = _count(fields["doublings"], "doublings", errors)
        if doublings != 0:
            data["doublings"] = doublings
    if not _blank(fields.get("thrown_in")) and fields["thrown_in"]:
        data["thrown_in"] = True
    for name in ("tricks", "points"):
        ns, ew = fields.get(f"{name}_ns"), fields.get(f"{name}_ew")
        if not (_blank(ns) and _blank(ew)):
            data[name] = {side: 0 if _blank(value) else _count(value, f"{name}.{side}", errors)
                          for side, value in (("ns", ns), ("ew", ew))}
    if fields.get("penalty_type"):
        data["penalty"] = {"type": fields["penalty_type"], "side": fields.get("penalty_side") or ""}
    if errors:
        raise scoring.RuleViolation(errors)
    return data


#: The keys of a hand (api.md) its form shows: a correction typed in a form replaces each of them.
FORM_INPUT_KEYS = ("dealer", "trump", "turned_card", "blind", "doublings", "tricks", "points", "penalty", "thrown_in")


def hand_form_changes(hand: Mapping) -> dict:
    """Return a hand typed in a form to correct a stored one as ``hand_correct``'s changes.

    ``hand``: ``hand_from_fields``'s. Every field the form shows is replaced, and one left blank
    removed, so that the hand stored is the one typed (and checked).
    """
    return {key: hand.get(key) for key in FORM_INPUT_KEYS}


def hand_fields(hand: Hand) -> dict:
    """Return a stored hand as a form's flat fields (``FORM_FIELDS``), to show it for a correction."""
    return {"dealer": hand.dealer, "trump": hand.trump, "turned_card": hand.turned_card, "blind": hand.blind,
            "doublings": hand.doublings, "tricks_ns": hand.tricks_ns, "tricks_ew": hand.tricks_ew,
            "points_ns": hand.points_ns, "points_ew": hand.points_ew, "penalty_type": hand.penalty_type,
            "penalty_side": hand.penalty_side, "thrown_in": hand.thrown_in}


def merge_input(current: Mapping, changes: Mapping) -> dict:
    """Return ``current`` with ``changes`` applied; a key set to None removes that field."""
    merged = dict(current)
    for key, value in changes.items():
        if key not in INPUT_KEYS:
            continue
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def apply_input(hand: Hand, data: Mapping) -> None:
    """Copy the entered fields of ``data`` onto the row (absent fields reset to their empty value)."""
    hand.dealer = data["dealer"]
    hand.trump = data.get("trump") or ""
    hand.turned_card = data.get("turned_card") or ""
    hand.blind = bool(data.get("blind", False))
    hand.doublings = int(data.get("doublings") or 0)
    tricks = data.get("tricks")
    hand.tricks_ns, hand.tricks_ew = (tricks["ns"], tricks["ew"]) if tricks else (None, None)
    points = data.get("points")
    hand.points_ns, hand.points_ew = (points["ns"], points["ew"]) if points else (None, None)
    penalty = data.get("penalty")
    hand.penalty_type, hand.penalty_side = (penalty["type"], penalty["side"]) if penalty else ("", "")
    hand.thrown_in = bool(data.get("thrown_in", False))
    hand.sheet_score = data.get("score")
    hand.play = data.get("play")


def apply_result(hand: Hand, result: "scoring.HandResult") -> list[str]:
    """Store what the engine computed on the row; return the names of the fields that changed."""
    computed = {
        "multiplier": result.multiplier,
        "all_tricks": result.all_tricks,
        "score_ns": result.score["ns"],
        "score_ew": result.score["ew"],
        "bonus": _bonus_dict(result.bonus),
        "total_ns": result.totals["ns"],
        "total_ew": result.totals["ew"],
        "game_winner": result.game_winner or "",
        "labels": list(result.labels),
    }
    # A play entered without tricks/points: keep what the engine counted, so the row reads like a summary.
    if result.tricks is not None and hand.play is not None:
        computed["tricks_ns"], computed["tricks_ew"] = result.tricks["ns"], result.tricks["ew"]
    if result.points is not None and hand.play is not None:
        computed["points_ns"], computed["points_ew"] = result.points["ns"], result.points["ew"]
    changed = [name for name, value in computed.items() if getattr(hand, name) != value]
    for name in changed:
        setattr(hand, name, computed[name])
    return changed


def _bonus_dict(bonus) -> dict | None:
    if bonus is None:
        return None
    return {"side": bonus.side, "points": bonus.points, "held_back": bonus.held_back, "applied": bonus.applied}


def game_settings(game: Game) -> "scoring.GameSettings":
    """Return the engine's settings for a game: its tournament's variant and options, its own draws.

    A knockout's tie-break game (``Game.tiebreak_deals``) is a game of that many deals, then one deal at a time
    until the totals differ (the engine's ``deals`` and ``tiebreak_deals``; no target, no rounds)."""
    tournament = game.match.round.tournament
    options = tournament.options or {}
    if game.tiebreak_deals:
        options = {**{k: v for k, v in options.items() if k not in ("target", "rounds")},
                   "deals": game.tiebreak_deals, "tiebreak_deals": 1}
    return scoring.GameSettings(
        variant=tournament.variant,
        options=options,
        first_dealer=game.first_dealer or None,
        favourite=game.favourite or None,
        albur=game.albur or None,
    )


def engine_hands(rows: list[Hand]) -> list["scoring.Hand"]:
    """Return the engine's inputs for stored hands."""
    return [scoring.Hand.from_dict(hand_input_dict(row)) for row in rows]


_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(scoring.GameState))


def stored_state(state: "scoring.GameState", hands: int) -> dict:
    """The engine's state after a game's first ``hands`` hands, as ``Game.engine_state`` keeps it (JSON)."""
    kept = {name: getattr(state, name) for name in _STATE_FIELDS}
    kept["totals"] = dict(state.totals)
    kept["hands"] = hands
    return kept


def state_after(game: Game, hands: int) -> "scoring.GameState | None":
    """The engine's state the game keeps when it follows exactly ``hands`` hands, else None (fold them all)."""
    kept = game.engine_state
    if not isinstance(kept, dict) or kept.get("hands") != hands:
        return None
    try:
        return scoring.GameState(**{name: kept[name] for name in _STATE_FIELDS})
    except (KeyError, TypeError):  # kept by another version of the engine's state
        return None

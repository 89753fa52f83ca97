"""The engine's values: inputs (Hand, GameSettings, GameState), results and errors.

Plain frozen dataclasses with ``from_dict`` / ``to_dict`` for the JSON shapes of
docs/api.md. Nothing here knows a variant's rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

SIDES = ("ns", "ew")
SEAT_SIDE = {"N": "ns", "S": "ns", "E": "ew", "W": "ew"}
OTHER_SIDE = {"ns": "ew", "ew": "ns"}


def ahead(counts: Mapping[str, int]) -> str:
    """Return the side with more (points, games...), or "draw" when both have as many."""
    if counts["ns"] == counts["ew"]:
        return "draw"
    return "ns" if counts["ns"] > counts["ew"] else "ew"


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Violation:
    """One broken rule or malformed field: its stable code (rules.md §4), its field and the values it names.

    ``params`` are plain values (numbers, seats, cards, suits, a variant's slug...); the words are not the
    engine's business (``tournaments.refusals`` writes them in each language). An ``invalid_input`` names
    what is wrong in ``params["reason"]``.
    """

    code: str
    field: str | None
    params: Mapping[str, Any] = field(default_factory=dict)
    hand_index: int | None = None

    def to_dict(self) -> dict:
        """Return the violation as plain values: code, attr (the field), params (and the hand's index)."""
        d = {"code": self.code, "attr": self.field, "params": dict(self.params)}
        if self.hand_index is not None:
            d["hand_index"] = self.hand_index
        return d

    def __str__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({self.field or '-'}{': ' + shown if shown else ''})"


class RuleViolation(Exception):
    """Raised with every violation found; ``violations`` lists them."""

    def __init__(self, violations: Sequence[Violation] | Violation):
        if isinstance(violations, Violation):
            violations = [violations]
        self.violations: list[Violation] = list(violations)
        super().__init__("; ".join(str(v) for v in self.violations))

    @property
    def codes(self) -> list[str]:
        """Return the codes of the violations, in order."""
        return [v.code for v in self.violations]


def shown(value: Any, limit: int = 40) -> str:
    """Return a value as a short plain string for a violation's params (what was sent, cut to ``limit``)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def bad(field_name: str | None, reason: str, **params: Any) -> Violation:
    """Return an ``invalid_input`` violation: ``reason`` says what is wrong, ``params`` the values it names."""
    return Violation("invalid_input", field_name, {"reason": reason, **params})


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Penalty:
    """A penalty of a hand; ``side`` is the OFFENDING side."""

    type: str
    side: str

    def to_dict(self) -> dict:
        """Return the api.md shape."""
        return {"type": self.type, "side": self.side}


@dataclass(frozen=True)
class Play:
    """A full or partial card play: the deal and the cards played in order."""

    hands: Mapping[str, tuple[str, ...]]
    cards: tuple[str, ...]

    def to_dict(self) -> dict:
        """Return the api.md shape."""
        return {"hands": {s: list(c) for s, c in self.hands.items()}, "cards": list(self.cards)}


def _side_ints(data: Any, name: str, errors: list[Violation]) -> dict[str, int] | None:
    if data is None:
        return None
    if not isinstance(data, Mapping) or set(data) != set(SIDES):
        errors.append(bad(name, "sides", field=name))
        return None
    out = {}
    for side in SIDES:
        value = data[side]
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(bad(f"{name}.{side}", "integer", field=f"{name}.{side}", value=shown(value)))
            return None
        out[side] = value
    return out


def _card_list(data: Any, name: str, errors: list[Violation]) -> tuple[str, ...] | None:
    if not isinstance(data, (list, tuple)) or not all(isinstance(c, str) for c in data):
        errors.append(bad(name, "card_list", field=name))
        return None
    return tuple(data)


@dataclass(frozen=True)
class Hand:
    """A hand as entered (api.md "A hand"): a summary, or a full play, or a thrown-in deal."""

    dealer: str
    trump: str | None = None
    turned_card: str | None = None
    blind: bool = False
    doublings: int = 0
    tricks: Mapping[str, int] | None = None
    points: Mapping[str, int] | None = None
    penalty: Penalty | None = None
    thrown_in: bool = False
    score: Mapping[str, int] | None = None
    play: Play | None = None

    @classmethod
    def from_dict(cls, data: Mapping) -> "Hand":
        """Build a hand from its api.md JSON shape; raise RuleViolation(invalid_input) on a wrong shape.

        Keys that are not part of a hand (``id``, ``state``, ``options``...) are ignored.
        """
        if not isinstance(data, Mapping):
            raise RuleViolation(bad(None, "object", field="hand"))
        errors: list[Violation] = []
        dealer = data.get("dealer")
        if not isinstance(dealer, str):
            errors.append(bad("dealer", "seat", field="dealer", value=shown(dealer), seats=["N", "E", "S", "W"]))
        strings = {}
        for key in ("trump", "turned_card"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                errors.append(bad(key, "string", field=key, value=shown(value)))
                value = None
            strings[key] = value
        flags = {}
        for key in ("blind", "thrown_in"):
            value = data.get(key, False)
            if value is None:
                value = False
            if not isinstance(value, bool):
                errors.append(bad(key, "boolean", field=key, value=shown(value)))
                value = False
            flags[key] = value
        doublings = data.get("doublings", 0)
        if doublings is None:
            doublings = 0
        if isinstance(doublings, bool) or not isinstance(doublings, int) or doublings < 0:
            errors.append(bad("doublings", "minimum", field="doublings", minimum=0, value=shown(doublings)))
            doublings = 0
        tricks = _side_ints(data.get("tricks"), "tricks", errors)
        points = _side_ints(data.get("points"), "points", errors)
        score = _side_ints(data.get("score"), "score", errors)
        penalty = None
        raw_penalty = data.get("penalty")
        if raw_penalty is not None:
            if (
                not isinstance(raw_penalty, Mapping)
                or not isinstance(raw_penalty.get("type"), str)
                or raw_penalty.get("side") not in SIDES
            ):
                errors.append(bad("penalty", "penalty_shape", field="penalty"))
            else:
                penalty = Penalty(raw_penalty["type"], raw_penalty["side"])
        play = None
        raw_play = data.get("play")
        if raw_play is not None:
            if not isinstance(raw_play, Mapping) or not isinstance(raw_play.get("hands"), Mapping):
                errors.append(bad("play", "play_shape", field="play"))
            else:
                hands = {}
                for seat, cards in raw_play["hands"].items():
                    hands[seat] = _card_list(cards, f"play.hands.{seat}", errors)
                cards = _card_list(raw_play.get("cards", []), "play.cards", errors)
                play = Play(hands, cards or ())
        if errors:
            raise RuleViolation(errors)
        return cls(
            dealer=dealer, trump=strings["trump"], turned_card=strings["turned_card"],
            blind=flags["blind"], doublings=doublings, tricks=tricks, points=points,
            penalty=penalty, thrown_in=flags["thrown_in"], score=score, play=play,
        )

    def to_dict(self) -> dict:
        """Return the api.md JSON shape (``Hand.from_dict(h.to_dict()) == h``)."""
        return {
            "dealer": self.dealer,
            "trump": self.trump,
            "turned_card": self.turned_card,
            "blind": self.blind,
            "doublings": self.doublings,
            "tricks": dict(self.tricks) if self.tricks is not None else None,
            "points": dict(self.points) if self.points is not None else None,
            "penalty": self.penalty.to_dict() if self.penalty else None,
            "thrown_in": self.thrown_in,
            "score": dict(self.score) if self.score is not None else None,
            "play": self.play.to_dict() if self.play else None,
        }


@dataclass(frozen=True)
class GameSettings:
    """What a game is played under: variant, house options, first dealer, favourite, albur."""

    variant: str
    options: Mapping = field(default_factory=dict)
    first_dealer: str | None = None
    favourite: str | None = None
    albur: str | None = None


@dataclass(frozen=True)
class GameState:
    """The game so far, before the next hand (api.md ``score`` "state").

    ``tie_multiplier`` is the pending tie factor (2 after a Belgian tie; more under
    ``tie_doubling="stack"``); ``tie_pending=True`` alone means a factor of 2.
    ``deals_played`` counts thrown-in deals too (a game of a fixed number of deals).
    ``winner`` is "ns", "ew" or "draw" (a game of a fixed number of deals level after its last deal).

    The last three say what the rules make of ``deals_played`` in a game of a fixed number of deals
    (``Rules.deals_state``); the engine works them out after each hand and never reads them from a state
    it is given: ``deals_left``, the deals still to play (None: the game goes to a target; 0: it is
    over; in tie-break deals, those left of the current block); ``ended_on_deals``, the game ended on its
    deals (not on a penalty); ``tiebreak``, it is in tie-break deals, or was decided in them.
    """

    totals: Mapping[str, int] = field(default_factory=lambda: {"ns": 0, "ew": 0})
    tie_pending: bool = False
    previous_dealer: str | None = None
    favourite: str | None = None
    deals_played: int = 0
    winner: str | None = None
    tie_multiplier: int = 1
    deals_left: int | None = None
    ended_on_deals: bool = False
    tiebreak: bool = False

    @property
    def pending_multiplier(self) -> int:
        """Return the factor a pending tie puts on the next played deal."""
        if self.tie_multiplier > 1:
            return self.tie_multiplier
        return 2 if self.tie_pending else 1

    @classmethod
    def from_dict(cls, data: Mapping | None) -> "GameState":
        """Build a state from the api.md ``state`` object; raise RuleViolation(invalid_input) on a wrong shape."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleViolation(bad("state", "object", field="state"))
        errors: list[Violation] = []
        totals = _side_ints(data.get("totals", {"ns": 0, "ew": 0}), "state.totals", errors)
        tie_pending = data.get("tie_pending", False)
        if not isinstance(tie_pending, bool):
            errors.append(bad("state.tie_pending", "boolean", field="state.tie_pending", value=shown(tie_pending)))
        kwargs = {}
        for key in ("previous_dealer", "favourite", "winner"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                errors.append(bad(f"state.{key}", "string", field=f"state.{key}", value=shown(value)))
            kwargs[key] = value
        for key, default in (("deals_played", 0), ("tie_multiplier", 1)):
            value = data.get(key, default)
            if isinstance(value, bool) or not isinstance(value, int) or value < default:
                errors.append(bad(f"state.{key}", "minimum", field=f"state.{key}", minimum=default, value=shown(value)))
            kwargs[key] = value
        if errors:
            raise RuleViolation(errors)
        # deals_left, ended_on_deals and tiebreak are the engine's reading of the rules, not an input: not read.
        return cls(totals=totals, tie_pending=tie_pending, **kwargs)

    def to_dict(self) -> dict:
        """Return the JSON shape accepted by ``from_dict`` (with what the engine worked out of the deals)."""
        return {
            "totals": dict(self.totals), "tie_pending": self.tie_pending,
            "tie_multiplier": self.pending_multiplier, "previous_dealer": self.previous_dealer,
            "favourite": self.favourite, "deals_played": self.deals_played, "winner": self.winner,
            "deals_left": self.deals_left, "ended_on_deals": self.ended_on_deals, "tiebreak": self.tiebreak,
        }


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Bonus:
    """The turn-up bonus of a hand: to whom, how much, whether held back and whether it counted."""

    side: str
    points: int
    held_back: bool
    applied: bool

    def to_dict(self) -> dict:
        """Return the api.md shape."""
        return {"side": self.side, "points": self.points, "held_back": self.held_back, "applied": self.applied}


@dataclass(frozen=True)
class HandResult:
    """What a hand earned and where it leaves the game."""

    tricks: dict[str, int] | None
    points: dict[str, int] | None
    multiplier: int
    all_tricks: bool
    score: dict[str, int]
    bonus: Bonus | None
    totals: dict[str, int]
    game_winner: str | None
    tie_pending: bool
    next_dealer: str
    next_multiplier: int
    labels: tuple[str, ...]
    state: GameState

    def to_dict(self) -> dict:
        """Return the JSON-ready result fields of api.md."""
        return {
            "tricks": dict(self.tricks) if self.tricks is not None else None,
            "points": dict(self.points) if self.points is not None else None,
            "multiplier": self.multiplier,
            "all_tricks": self.all_tricks,
            "score": dict(self.score),
            "bonus": self.bonus.to_dict() if self.bonus else None,
            "totals": dict(self.totals),
            "game_winner": self.game_winner,
            "tie_pending": self.tie_pending,
            "next_dealer": self.next_dealer,
            "next_multiplier": self.next_multiplier,
            "labels": list(self.labels),
        }


@dataclass(frozen=True)
class GameResult:
    """A game folded from its hands."""

    hands: tuple[HandResult, ...]
    totals: dict[str, int]
    winner: str | None
    finished: bool
    next_dealer: str | None
    next_multiplier: int
    state: GameState

    def to_dict(self) -> dict:
        """Return a JSON-ready summary with every hand's result and the game's deals (``GameState``)."""
        return {
            "hands": [h.to_dict() for h in self.hands], "totals": dict(self.totals),
            "winner": self.winner, "finished": self.finished,
            "next_dealer": self.next_dealer, "next_multiplier": self.next_multiplier,
            "deals_played": self.state.deals_played, "deals_left": self.state.deals_left,
            "ended_on_deals": self.state.ended_on_deals, "tiebreak": self.state.tiebreak,
        }


@dataclass(frozen=True)
class MatchResult:
    """A match folded from its games' winners."""

    games_won: dict[str, int]
    winner: str | None
    finished: bool
    games_needed: int

    def to_dict(self) -> dict:
        """Return a JSON-ready summary."""
        return {"games_won": dict(self.games_won), "winner": self.winner,
                "finished": self.finished, "games_needed": self.games_needed}


@dataclass(frozen=True)
class PlayResult:
    """The outcome of checking a card play (api.md check-play answer)."""

    legal: bool
    tricks: list[dict]
    tricks_won: dict[str, int]
    points: dict[str, int]
    complete: bool
    next: dict | None
    violation: dict | None

    def to_dict(self) -> dict:
        """Return exactly the api.md check-play answer."""
        if not self.legal:
            return {"legal": False, "tricks": self.tricks, "violation": self.violation}
        return {
            "legal": True, "tricks": self.tricks, "tricks_won": dict(self.tricks_won),
            "points": dict(self.points), "complete": self.complete, "next": self.next,
        }

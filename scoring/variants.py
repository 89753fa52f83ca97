"""The variants of docs/rules.md, each a declaration.

A ``Variant`` states its deck, ranks, points, scoring and play rules as data and
lists its house options. ``Variant.rules(options)`` resolves the options into a
``Rules`` object that the scorer and the play checker read; adding a variant (a
club's house rules, a two-player form) is one more ``Variant(...)`` below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .cards import Deck
from .types import SEAT_SIDE, RuleViolation, Violation, ahead, bad, shown

FRENCH_SUITS = ("S", "H", "D", "C")
FRENCH_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SPANISH_SUITS = ("O", "C", "E", "B")
SPANISH_SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
SPANISH_RANKS_48 = ("9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2")
SPANISH_POINTS_48 = {"9": 5, "1": 4, "12": 3, "11": 2, "10": 1}

CLOCKWISE = ("N", "E", "S", "W")
COUNTERCLOCKWISE = ("N", "W", "S", "E")


@dataclass(frozen=True)
class OptionSpec:
    """A house option: its default and the values it accepts."""

    default: Any
    kind: str  # "int", "bool" or "choice"
    help: str = ""
    choices: tuple = ()
    minimum: int | None = None
    nullable: bool = False
    maximum: int | None = None

    def check(self, name: str, value: Any) -> Violation | None:
        """Return a violation if ``value`` is not acceptable, else None."""
        field_name = f"options.{name}"
        if value is None:
            if self.nullable:
                return None
            return Violation("invalid_option", field_name, {"reason": "null", "option": name})
        if self.kind == "bool":
            if not isinstance(value, bool):
                return Violation("invalid_option", field_name,
                                 {"reason": "boolean", "option": name, "value": shown(value)})
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return Violation("invalid_option", field_name,
                                 {"reason": "integer", "option": name, "value": shown(value)})
            if self.minimum is not None and value < self.minimum:
                return Violation("invalid_option", field_name,
                                 {"reason": "minimum", "option": name, "minimum": self.minimum, "value": value})
            if self.maximum is not None and value > self.maximum:
                return Violation("invalid_option", field_name,
                                 {"reason": "maximum", "option": name, "maximum": self.maximum, "value": value})
        elif self.kind == "choice" and value not in self.choices:
            return Violation("invalid_option", field_name, {"reason": "choice", "option": name, "value": shown(value),
                                                            "choices": [str(c) for c in self.choices]})
        return None

    def to_dict(self) -> dict:
        """Return the JSON description of the option."""
        d = {"default": self.default, "type": self.kind, "help": self.help}
        if self.choices:
            d["choices"] = list(self.choices)
        if self.minimum is not None:
            d["minimum"] = self.minimum
        if self.maximum is not None:
            d["maximum"] = self.maximum
        if self.nullable:
            d["nullable"] = True
        return d


@dataclass(frozen=True)
class PenaltyRule:
    """What a penalty does: ``award`` (the other side scores ``points``, not multiplied),
    ``lose_game`` (the offending side loses the game), ``award_plus_gain`` (the other
    side scores ``points`` plus its own gain, both multiplied by favourite/Mariperez)."""

    kind: str
    points: int = 0
    help: str = ""


#: The highest game target a tournament may set: ten times the highest variant's (101) and then some; a
#: target past it is a typing error (an extra digit), not a house rule.
TARGET_MAX = 1000


def _target(default: int | None, nullable: bool = False) -> OptionSpec:
    return OptionSpec(default, "int", "points a side must reach to win the game", minimum=1, nullable=nullable,
                      maximum=TARGET_MAX)


#: The most deals a game may be given (Classic Malilla's most rounds, 25, of four deals); more is a typing error.
DEALS_MAX = 100
#: The most tie-break deals played at a time: four rounds of four; more is a typing error.
TIEBREAK_DEALS_MAX = 16

#: The house options of a game of a fixed number of deals, which every variant has (``Variant`` adds them to
#: its declared options). rules.md "A game of a fixed number of deals".
DEAL_OPTIONS = {
    "deals": OptionSpec(None, "int", "a game of this many deals (thrown-in deals count), won by the side ahead "
                        "after the last one, drawn when level; the target then no longer ends the game "
                        "(empty: the target decides)", minimum=1, nullable=True, maximum=DEALS_MAX),
    "tiebreak_deals": OptionSpec(None, "int", "with deals: a game level after its last deal plays this many more "
                                 "deals at a time until the totals differ (empty: it is a drawn game)",
                                 minimum=1, nullable=True, maximum=TIEBREAK_DEALS_MAX),
}


@dataclass(frozen=True, eq=False)
class Variant:
    """A variant declared as data; derived fields (cards, tricks, totals) are computed."""

    slug: str
    name: str
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    rank_points: Mapping[str, int]
    trick_points: int
    target: int | None
    best_of: int
    direction: str  # "clockwise" / "counterclockwise"
    trump_mode: str  # "chosen": the trump suit is entered; "turned": the dealer's last card shows it
    options: Mapping[str, OptionSpec]
    suit_names: Mapping[str, str] = field(default_factory=dict)
    seats: tuple[str, ...] = CLOCKWISE
    source: str = ""
    # Trump and calls.
    no_trump: bool = False  # "none" is a legal trump
    no_trump_multiplier: int = 1
    blind_multiplier: int = 1  # only with option blind_allowed
    doublings: bool = False  # opponents' double and redoubles, x2 each
    turn_up_bonus: str | None = None  # None, "hold_back", "hold_back_base" (Catalan), "immediate"
    favourite: bool = False  # a favourite suit doubles hands trumped in it
    albur_points: int = 0  # with option albur
    # Scoring.
    score_rule: str = "excess"  # "excess": points - base; "difference": points - other side's points
    all_tricks: str = "label"  # "double", "hand_total", "wins_game" or "label"
    all_tricks_label: str = "capote"
    zapato: bool = False  # label a win at target while the opponents have 0
    penalties: Mapping[str, PenaltyRule] = field(default_factory=dict)
    game_rule: str = "target"  # "target", or "rounds": without a target, a game is option ``rounds`` of four deals
    # Play.
    undertrump_ban: bool = False
    # Derived.
    cards: tuple[str, ...] = field(init=False)
    tricks_per_deal: int = field(init=False)
    hand_total: int = field(init=False)
    base: int = field(init=False)

    def __post_init__(self):
        deck = Deck(self.suits, self.ranks, self.rank_points)
        tricks = deck.size // len(self.seats)
        hand_total = sum(deck.points) + self.trick_points * tricks
        object.__setattr__(self, "deck", deck)
        object.__setattr__(self, "cards", deck.codes)
        object.__setattr__(self, "tricks_per_deal", tricks)
        object.__setattr__(self, "hand_total", hand_total)
        object.__setattr__(self, "base", hand_total // 2)
        object.__setattr__(self, "_rules_cache", {})
        # Every variant can be played for a fixed number of deals: the options a declaration leaves out are added.
        object.__setattr__(self, "options", {**self.options,
                                             **{k: spec for k, spec in DEAL_OPTIONS.items() if k not in self.options}})
        object.__setattr__(self, "_defaults", {name: spec.default for name, spec in self.options.items()})

    # -- options ------------------------------------------------------------------

    def validate_options(self, options: Mapping | None) -> dict:
        """Return the house options with defaults filled in and the game's deals resolved (``_resolve_deals``);
        raise RuleViolation (``invalid_option``: an option or a value the variant does not accept;
        ``options_inconsistent``: options that contradict each other)."""
        resolved = dict(self._defaults)
        if not options:
            options = {}
        elif not isinstance(options, Mapping):
            raise RuleViolation(Violation("invalid_option", "options", {"reason": "object"}))
        errors: list[Violation] = []
        for name, value in options.items():
            spec = self.options.get(name)
            if spec is None:
                errors.append(Violation("invalid_option", f"options.{name}", {
                    "reason": "unknown", "option": shown(name), "variant": self.slug, "known": sorted(self.options)}))
                continue
            problem = spec.check(name, value)
            if problem:
                errors.append(problem)
            resolved[name] = value
        if not errors:
            self._resolve_deals(options, resolved, errors)
        if errors:
            raise RuleViolation(errors)
        return resolved

    def _resolve_deals(self, given: Mapping, resolved: dict, errors: list[Violation]) -> None:
        """Resolve the deals of a game (``resolved["deals"]``: None, the target decides) and refuse the options
        that contradict each other (``options_inconsistent``).

        A game of rounds (Classic Malilla) counts them as deals, ``rounds`` × the seats (one deal each a
        round): ``deals`` and ``rounds`` both given must agree; neither given, the default rounds make the
        game, unless a target is given (then the target decides, as in every other variant).
        ``resolved["rounds"]`` is the deals in whole rounds (None when they are not whole rounds, or none).
        Tie-break deals need a game of a fixed number of deals to break the tie of.
        """
        deals = resolved.get("deals")
        if self.game_rule == "rounds":
            per_round = len(self.seats)
            rounds = given.get("rounds")
            if deals is not None and rounds is not None and deals != rounds * per_round:
                errors.append(Violation("options_inconsistent", "options.deals", {
                    "reason": "deals_rounds", "deals": deals, "rounds": rounds, "expected": rounds * per_round}))
                return
            if deals is None and rounds is not None:
                deals = rounds * per_round
            elif deals is None and resolved.get("target") is None:
                deals = self.options["rounds"].default * per_round
            resolved["deals"] = deals
            resolved["rounds"] = deals // per_round if deals is not None and deals % per_round == 0 else None
        tiebreak = resolved.get("tiebreak_deals")
        if tiebreak is not None and deals is None:
            errors.append(Violation("options_inconsistent", "options.tiebreak_deals", {
                "reason": "tiebreak_without_deals", "tiebreak_deals": tiebreak}))

    def rules(self, options: Mapping | None = None) -> "Rules":
        """Return the variant's rules under these house options (validated, cached)."""
        try:
            key = tuple(sorted(options.items())) if options else ()
            cached = self._rules_cache.get(key)
        except TypeError:  # unhashable option values: validate and report them
            key, cached = None, None
        if cached is None:
            cached = Rules(self, self.validate_options(options))
            if key is not None:
                self._rules_cache[key] = cached
        return cached

    # -- seats --------------------------------------------------------------------

    def next_seat(self, seat: str, options: Mapping | None = None) -> str:
        """Return the seat after ``seat`` in the direction of play."""
        return self.rules(options).next_seat[seat]

    def to_dict(self) -> dict:
        """Return the JSON description of GET /api/v1/variants/{slug}/."""
        return {
            "slug": self.slug,
            "name": self.name,
            "source": self.source,
            "deck": {
                "suits": list(self.suits),
                "suit_names": dict(self.suit_names),
                "ranks": list(self.ranks),
                "points": {r: self.rank_points.get(r, 0) for r in self.ranks},
                "size": len(self.cards),
            },
            "seats": list(self.seats),
            "tricks_per_deal": self.tricks_per_deal,
            "trick_points": self.trick_points,
            "hand_total": self.hand_total,
            "base": self.base,
            "target": self.target,
            "best_of": self.best_of,
            "direction": self.direction,
            "trump_mode": self.trump_mode,
            "no_trump": self.no_trump,
            "turn_up_bonus": self.turn_up_bonus,
            "penalties": {name: {"kind": p.kind, "points": p.points, "help": p.help}
                          for name, p in self.penalties.items()},
            "options": {name: spec.to_dict() for name, spec in self.options.items()},
        }


class Rules:
    """A variant with its house options resolved: what the scorer and the play checker read."""

    def __init__(self, variant: Variant, options: dict):
        v = self.variant = variant
        self.options = options
        self.deck: Deck = variant.deck
        self.target: int | None = options.get("target", variant.target)
        clockwise = options.get("clockwise", variant.direction == "clockwise")
        self.direction = "clockwise" if clockwise else "counterclockwise"
        base_order = tuple(s for s in CLOCKWISE if s in v.seats)
        self.order: tuple[str, ...] = base_order if clockwise else (base_order[:1] + base_order[1:][::-1])
        n = len(self.order)
        self.position = {s: i for i, s in enumerate(self.order)}
        self.next_seat = {s: self.order[(i + 1) % n] for i, s in enumerate(self.order)}
        self.side_index = tuple(0 if SEAT_SIDE[s] == "ns" else 1 for s in self.order)
        self.tie_doubling: str = options.get("tie_doubling", "off")
        self.max_multiplier: int | None = options.get("max_multiplier")
        self.blind_allowed: bool = options.get("blind_allowed", False)
        self.malilla_rule: bool = options.get("malilla_rule", False)
        self.albur: bool = options.get("albur", False)
        self.mariperez: bool = options.get("mariperez", False)
        # A game of a fixed number of deals (Classic Malilla's rounds are resolved into deals): the deal count
        # alone ends it, so it has no target (rules.md "A game of a fixed number of deals").
        self.deals: int | None = options.get("deals")
        self.tiebreak_deals: int | None = options.get("tiebreak_deals")
        if self.deals is not None:
            self.target = None

    def round_multiplier(self, deal_index: int) -> int:
        """Return the Mariperez factor of the deal with this 0-based index (2 in the first and last round of the
        game's deals; tie-break deals are no round of the game and count once)."""
        if not self.mariperez or self.deals is None:
            return 1
        per_round = len(self.order)
        if deal_index < per_round or self.deals - per_round <= deal_index < self.deals:
            return 2
        return 1

    def deals_end(self, deals_played: int, totals: Mapping[str, int]) -> str | None:
        """Return who won the game of a fixed number of deals after ``deals_played`` deals with these totals
        ("draw": level after the last deal, without tie-break deals), or None while it goes on (and always
        for a game to a target).

        After the last deal the side ahead wins; level, ``tiebreak_deals`` more deals are played, and
        again after each such block, until the totals differ.
        """
        if self.deals is None or deals_played < self.deals:
            return None
        if self.tiebreak_deals is None:
            return ahead(totals)
        if (deals_played - self.deals) % self.tiebreak_deals:
            return None
        winner = ahead(totals)
        return None if winner == "draw" else winner

    def deals_state(self, deals_played: int, winner: str | None, ended_on_deals: bool) -> dict:
        """Return what a game's state says of its deals after ``deals_played`` (``GameState``'s ``deals_left``,
        ``ended_on_deals``, ``tiebreak``): the deals left to play (None without a fixed number; 0 once the
        game is over; in tie-break deals, those left of the current block), whether the game ended on its
        deals, and whether it is in (or was decided in) tie-break deals."""
        if self.deals is None:
            return {"deals_left": None, "ended_on_deals": False, "tiebreak": False}
        tiebreak = (self.tiebreak_deals is not None and deals_played >= self.deals
                    and (winner is None or deals_played > self.deals))
        if winner is not None:
            left = 0
        elif deals_played < self.deals:
            left = self.deals - deals_played
        elif self.tiebreak_deals is not None:
            left = self.tiebreak_deals - (deals_played - self.deals) % self.tiebreak_deals
        else:  # past the last deal and not over: only a state sent by hand (refused as game_over) says so
            left = 0
        return {"deals_left": left, "ended_on_deals": ended_on_deals, "tiebreak": tiebreak}


# --------------------------------------------------------------------------- the six variants

BELGIAN_MANILLE = Variant(
    slug="belgian-manille",
    name="Belgian (Flemish) Manille",
    source="004",
    suits=FRENCH_SUITS, suit_names=FRENCH_SUIT_NAMES,
    ranks=("10", "A", "K", "Q", "J", "9", "8", "7"),
    rank_points={"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1},
    trick_points=0, target=101, best_of=3, direction="clockwise", trump_mode="chosen",
    no_trump=True, no_trump_multiplier=2, blind_multiplier=4, doublings=True,
    all_tricks="double", all_tricks_label="all_tricks",
    undertrump_ban=True,
    penalties={"signalling": PenaltyRule("award", 20, "signalling or cheating: the other side scores 20")},
    options={
        "target": _target(101),
        "tie_doubling": OptionSpec("next", "choice", "a 30-30 tie doubles the next played deal; "
                                   "'stack': consecutive ties multiply; 'off': no tie double",
                                   choices=("next", "stack", "off")),
        "max_multiplier": OptionSpec(None, "int", "cap on the multiplier; calls past it are refused",
                                     minimum=1, nullable=True),
        "blind_allowed": OptionSpec(True, "bool", "blind muul (no trump before looking) counts x4"),
    },
)

SPANISH_MANILLA = Variant(
    slug="spanish-manilla",
    name="Spanish Manilla",
    source="000, 001",
    suits=SPANISH_SUITS, suit_names=SPANISH_SUIT_NAMES,
    ranks=SPANISH_RANKS_48, rank_points=SPANISH_POINTS_48,
    trick_points=1, target=40, best_of=1, direction="counterclockwise", trump_mode="turned",
    turn_up_bonus="hold_back",
    options={"target": _target(40)},
)

CATALAN_MANILLA = Variant(
    slug="catalan-manilla",
    name="Catalan Manilla (Fournier)",
    source="003",
    suits=SPANISH_SUITS, suit_names=SPANISH_SUIT_NAMES,
    ranks=SPANISH_RANKS_48, rank_points=SPANISH_POINTS_48,
    trick_points=1, target=40, best_of=3, direction="counterclockwise", trump_mode="turned",
    turn_up_bonus="hold_back_base", all_tricks="wins_game",
    options={"target": _target(40)},
)

MEXICAN_MALILLA = Variant(
    slug="mexican-malilla",
    name="Mexican Malilla",
    source="000",
    suits=SPANISH_SUITS, suit_names=SPANISH_SUIT_NAMES,
    ranks=("7", "1", "12", "11", "10", "6", "5", "4", "3", "2"),
    rank_points={"7": 5, "1": 4, "12": 3, "11": 2, "10": 1},
    trick_points=1, target=35, best_of=1, direction="counterclockwise", trump_mode="turned",
    turn_up_bonus="hold_back", albur_points=5, zapato=True,
    penalties={"renege": PenaltyRule("lose_game", 0, "a renege or play out of turn loses the whole game")},
    options={
        "target": _target(35),
        "malilla_rule": OptionSpec(True, "bool", "a 7 of a non-trump suit not yet led may not be discarded"),
        "clockwise": OptionSpec(False, "bool", "play clockwise (as some US players do)"),
        "albur": OptionSpec(False, "bool", "the albur winners score 5; the other side deals first"),
    },
)

MACAU_MANILLA = Variant(
    slug="macau-manilla",
    name="Macau Manilla",
    source="000",
    suits=FRENCH_SUITS, suit_names=FRENCH_SUIT_NAMES,
    ranks=("7", "A", "K", "J", "Q", "10", "9", "8", "6", "5"),
    rank_points={"7": 5, "A": 4, "K": 3, "J": 2, "Q": 1},
    trick_points=1, target=70, best_of=1, direction="counterclockwise", trump_mode="chosen",
    score_rule="difference",
    options={"target": _target(70)},
)

CLASSIC_MALILLA = Variant(
    slug="classic-malilla",
    name="Malilla de compañeros (classic Spanish rules)",
    source="002",
    suits=SPANISH_SUITS, suit_names=SPANISH_SUIT_NAMES,
    ranks=SPANISH_RANKS_48, rank_points=SPANISH_POINTS_48,
    trick_points=1, target=None, best_of=1, direction="counterclockwise", trump_mode="turned",
    turn_up_bonus="immediate", favourite=True, all_tricks="hand_total", game_rule="rounds",
    penalties={"renuncio": PenaltyRule("award_plus_gain", 10,
                                       "a renuncio or other irregularity: the offender scores nothing, "
                                       "the other side 10 tantos plus its own gain")},
    options={
        "target": _target(None, nullable=True),
        "rounds": OptionSpec(2, "int", "rounds of four deals in a game: the same as deals = 4 × rounds (a game "
                             "given a target and no rounds nor deals is played to the target)", minimum=1, maximum=25),
        "mariperez": OptionSpec(False, "bool", "the first and the last round count double"),
    },
)

VARIANTS: dict[str, Variant] = {
    v.slug: v
    for v in (BELGIAN_MANILLE, SPANISH_MANILLA, CATALAN_MANILLA, MEXICAN_MALILLA, MACAU_MANILLA, CLASSIC_MALILLA)
}


def get_variant(slug: "str | Variant") -> Variant:
    """Return the variant of a slug; raise RuleViolation(invalid_input) for an unknown one."""
    if isinstance(slug, Variant):
        return slug
    try:
        return VARIANTS[slug]
    except (KeyError, TypeError):
        raise RuleViolation(bad("variant", "unknown_variant", value=shown(slug), known=list(VARIANTS))) from None

"""The domain's words: what the engine and the models keep as codes, in the reader's language.

Formats, statuses, standings metrics and their abbreviations, sides and seats, suits and cards by deck,
house options, penalties, variant names and rules, the services' refusals. One vocabulary for every door
that shows them to people (the site, the admin, the prints); ``web/`` keeps only the words of its pages.
Every string goes through gettext; the codes stay in the API.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

import scoring

#: Each standings metric: a short column heading, its human name and one line of explanation.
METRIC_LABELS = {
    "match_points": (_("MP"), _("Match points"),
        _("Points for each match: a win, a draw or a bye as the tournament counts them.")),
    "matches_won": (_("W"), _("Matches won"), _("Matches won at the table (byes not counted).")),
    "wins": (_("Wins"), _("Wins"), _("Matches won, a bye counted as a win.")),
    "games_won": (_("Games"), _("Games won"), _("Games (boams, sets) won over all matches.")),
    "games_lost": (_("G lost"), _("Games lost"), _("Games lost over all matches: fewer is better.")),
    "games_diff": (_("G ±"), _("Game difference"), _("Games won minus games lost.")),
    "points_for": (_("Pts"), _("Points for"), _("Game points scored over all matches.")),
    "points_against": (_("Pts against"), _("Points against"), _("Game points conceded: fewer is better.")),
    "points_diff": (_("Pts ±"), _("Point difference"), _("Game points scored minus game points conceded.")),
    "buchholz": (_("Bh"), _("Buchholz"), _("The sum of the opponents' match points: a harder schedule ranks higher.")),
    "buchholz_cut1": (_("Bh-1"), _("Buchholz cut 1"), _("Buchholz without the weakest opponent.")),
    "median_buchholz": (_("Med Bh"), _("Median Buchholz"),
        _("Buchholz without the weakest and the strongest opponent.")),
    "sonneborn_berger": (_("SB"), _("Sonneborn-Berger"),
        _("The opponents' match points, weighted by the result against each.")),
    "progressive": (_("Prog"), _("Progressive score"),
        _("The running total of match points added up round by round: early wins count more.")),
    "direct_encounter": (_("DE"), _("Direct encounter"),
        _("Among the teams still tied, the results of their matches against each other.")),
    "opponents_minus_partner": (_("OmP"), _("Opponents minus partner"),
        _("For each match, the points the opponents scored over the whole event minus the partner's (a team "
          "has no partner): a harder draw ranks higher.")),
}

#: The standings table's own columns before the tiebreaks, in the table's order: key, heading, name, explanation.
#: The page's legend is built from the same list, so every heading a reader sees is explained there.
STANDINGS_COLUMNS = [
    ("rank", "#", _("Rank"), _("Equal ranks are marked =.")),
    ("played", pgettext_lazy("played", "P"), _("Played"), _("Matches played at the table (byes not counted).")),
    ("won", pgettext_lazy("won", "W"), _("Won"), _("Matches won at the table (byes not counted).")),
    ("drawn", pgettext_lazy("drawn", "D"), _("Drawn"), _("Matches drawn.")),
    ("lost", pgettext_lazy("lost", "L"), _("Lost"), _("Matches lost.")),
    ("match_points", *METRIC_LABELS["match_points"]),
    ("games", _("Games"), _("Games won and lost"), _("Games (boams, sets) won – lost over all matches.")),
    ("points", _("Points"), _("Game points for and against"),
     _("Game points scored – conceded over all matches.")),
]

FORMAT_LABELS = {
    "swiss": _("Swiss system"),
    "round_robin": _("Round robin"),
    "knockout": _("Knockout"),
    "tables": _("Tables of four"),
}

TOURNAMENT_STATUS = {"draft": _("Upcoming"), "running": _("Running"), "finished": _("Finished")}
#: The same as its organizers' dashboard says them: not yet started is a draft to them.
ORGANIZER_STATUS = {**TOURNAMENT_STATUS, "draft": _("Draft")}
#: A round's status ("finished" in a round's gender where the language has one: French "Terminée").
ROUND_STATUS = {"paired": _("Paired"), "playing": _("Playing"), "finished": pgettext_lazy("round", "Finished")}
MATCH_STATUS = {"scheduled": _("Not started"), "playing": _("Playing"), "finished": _("Finished")}

#: What decided a match when the director did (``Match.decided_by``), as its table's state line says it.
MATCH_DECIDED_BY = {"forfeit": _("Forfeit"), "withdrawal": _("Withdrawal mid-match"), "adjusted": _("Adjusted result"),
                    "decision": _("Drawn knockout decided")}

#: Suit names as each deck names them.
SUIT_NAMES = {
    "french": {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")},
    "spanish": {"O": pgettext_lazy("Spanish suit", "oros"), "C": pgettext_lazy("Spanish suit", "copas"),
                "E": pgettext_lazy("Spanish suit", "espadas"), "B": pgettext_lazy("Spanish suit", "bastos")},
}
SUIT_SYMBOLS = {"french": {"S": "♠", "H": "♥", "D": "♦", "C": "♣"},
                "spanish": {"O": "O", "C": "C", "E": "E", "B": "B"}}
SPANISH_RANK_NAMES = {"1": pgettext_lazy("Spanish card", "as"), "12": pgettext_lazy("Spanish card", "rey"),
                      "11": pgettext_lazy("Spanish card", "caballo"), "10": pgettext_lazy("Spanish card", "sota")}
FRENCH_RANK_NAMES = {"A": _("ace"), "K": _("king"), "Q": _("queen"), "J": _("jack")}

PENALTY_LABELS = {"signalling": _("signalling"), "renege": _("renege"), "renuncio": _("renuncio")}
LABEL_WORDS = {"capote": _("capote (all tricks)"), "all_tricks": _("all tricks"), "zapato": _("zapato"),
               "tie": _("tie")}


def seat(letter: str) -> str:
    """Return a seat's letter as the visitor's language writes it (N, E, S, W: the compass points)."""
    names = {"N": pgettext("seat", "N"), "E": pgettext("seat", "E"), "S": pgettext("seat", "S"),
             "W": pgettext("seat", "W")}
    return names.get(letter, letter)

#: Each side of the table: its short name (a score sheet's column) and its full name.
SIDES = {"ns": (_("NS"), _("North–South")), "ew": (_("EW"), _("East–West"))}


def side_name(side: str, *, short: bool = False) -> str:
    """Return a side ("ns", "ew") in words: "North–South", or "NS" when ``short``."""
    words = SIDES.get(side)
    return side if words is None else str(words[0 if short else 1])


DIRECTION = {"clockwise": _("clockwise"), "counterclockwise": _("counter-clockwise")}

OPTION_LABELS = {
    "target": _("Target"),
    "tie_doubling": _("Tie doubling"),
    "max_multiplier": _("Highest multiplier"),
    "blind_allowed": _("Blind muul allowed"),
    "malilla_rule": _("Malilla rule"),
    "clockwise": _("Play clockwise"),
    "albur": _("Albur"),
    "rounds": _("Rounds per game"),
    "mariperez": _("Mariperez"),
    "deals": _("Deals per game"),
    "tiebreak_deals": _("Tie-break deals"),
}
#: Each house option's one-line explanation (the engine's own help, in the visitor's language).
OPTION_HELP = {
    "target": _("points a side must reach to win the game"),
    "tie_doubling": _("a 30-30 tie doubles the next played deal; 'stack': consecutive ties multiply; "
                      "'off': no tie double"),
    "max_multiplier": _("cap on the multiplier; calls past it are refused"),
    "blind_allowed": _("blind muul (no trump before looking) counts ×4"),
    "malilla_rule": _("a 7 of a non-trump suit not yet led may not be discarded"),
    "clockwise": _("play clockwise (as some US players do)"),
    "albur": _("the albur winners score 5; the other side deals first"),
    "rounds": _("rounds of four deals in a game"),
    "mariperez": _("the first and the last round count double"),
    "deals": _("a game of this many deals (thrown-in deals count), won by the side ahead after the last one, drawn "
               "when level; the target then no longer ends the game (empty: the target decides)"),
    "tiebreak_deals": _("with deals: a game level after its last deal plays this many more deals at a time until "
                        "the totals differ (empty: it is a drawn game)"),
}
PENALTY_HELP = {
    "signalling": _("signalling or cheating: the other side scores 20"),
    "renege": _("a renege or play out of turn loses the whole game"),
    "renuncio": _("a renuncio or other irregularity: the offender scores nothing, the other side 10 tantos "
                  "plus its own gain"),
}
OPTION_VALUES = {
    ("tie_doubling", "next"): _("a tie doubles the next deal"),
    ("tie_doubling", "stack"): _("consecutive ties multiply"),
    ("tie_doubling", "off"): _("no tie doubling"),
}


#: Each variant's name as people call it in the visitor's language. The engine (``scoring``, no Django) keeps
#: the English name for the API; the site shows these, by slug (docs/rules.md names each variant's origin).
VARIANT_NAMES = {
    "belgian-manille": pgettext_lazy("variant", "Belgian (Flemish) Manille"),
    "spanish-manilla": pgettext_lazy("variant", "Spanish Manilla"),
    "catalan-manilla": pgettext_lazy("variant", "Catalan Manilla (Fournier)"),
    "mexican-malilla": pgettext_lazy("variant", "Mexican Malilla"),
    "macau-manilla": pgettext_lazy("variant", "Macau Manilla"),
    "classic-malilla": pgettext_lazy("variant", "Malilla de compañeros (classic Spanish rules)"),
}


def variant_name(variant: scoring.Variant | str) -> str:
    """Return a variant's name in the visitor's language, from the variant or its slug (an unknown slug as is)."""
    slug = variant if isinstance(variant, str) else variant.slug
    if slug in VARIANT_NAMES:
        return str(VARIANT_NAMES[slug])
    known = scoring.VARIANTS.get(slug)
    return known.name if known else slug


def deck_kind(variant: scoring.Variant) -> str:
    """Return "spanish" or "french": which deck the variant plays with."""
    return "spanish" if "O" in variant.suits else "french"


def suit_name(variant: scoring.Variant, suit: str) -> str:
    """Return a suit's name as the variant's deck names it ("none" for no trump)."""
    if suit in ("", None):
        return ""
    if suit == "none":
        return str(_("no trump"))
    return str(SUIT_NAMES[deck_kind(variant)].get(suit, suit))


def suit_symbol(variant: scoring.Variant, suit: str) -> str:
    return SUIT_SYMBOLS[deck_kind(variant)].get(suit, suit)


def card_name(variant: scoring.Variant, code: str) -> str:
    """Return a card in words: "10 of spades", "sota de oros" style per deck."""
    if not code:
        return ""
    rank, suit = code[:-1], code[-1]
    ranks = SPANISH_RANK_NAMES if deck_kind(variant) == "spanish" else FRENCH_RANK_NAMES
    return gettext("%(rank)s of %(suit)s") % {"rank": ranks.get(rank, rank), "suit": suit_name(variant, suit)}


def option_value(name: str, value) -> str:
    """Return a house option's value in words."""
    if (name, value) in OPTION_VALUES:
        return str(OPTION_VALUES[(name, value)])
    if value is None:
        return gettext("no limit") if name == "max_multiplier" else gettext("none")
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if name == "max_multiplier":
        return f"×{value}"
    return str(value)


def house_options(variant: scoring.Variant, options: dict) -> list[dict]:
    """Return the tournament's house options in words, each marked when it differs from the variant's default."""
    resolved = variant.validate_options(options or {})
    defaults = variant.validate_options({})  # resolved too: Classic Malilla's default rounds are 8 deals
    return [{"name": str(OPTION_LABELS.get(name, name)), "value": option_value(name, value),
             "default": value == defaults[name]}
            for name, value in resolved.items()]


def variant_rules(variant: scoring.Variant) -> list[str]:
    """Return the variant's scoring and play rules as sentences."""
    lines = []
    if variant.game_rule == "rounds":
        lines.append(gettext("A game is a fixed number of rounds of deals (a house option); the higher total wins."))
    elif variant.target:
        lines.append(gettext("A game is won by the first side to reach %(target)s points.")
                     % {"target": variant.target})
    if variant.game_rule != "rounds":
        lines.append(gettext("As a house option, a game may instead be a fixed number of deals: the side ahead after "
                             "the last deal wins; level is a draw, or extra deals decide."))
    lines.append(ngettext("A match is one game.", "A match is best of %(n)s games.", variant.best_of)
                 % {"n": variant.best_of})
    lines.append(gettext("Each deal holds %(total)s points; a side scores what it takes above %(base)s.")
                 % {"total": variant.hand_total, "base": variant.base}
                 if variant.score_rule == "excess" else
                 gettext("Each deal holds %(total)s points; the side with more scores the difference.")
                 % {"total": variant.hand_total})
    if variant.trick_points:
        lines.append(ngettext("Each trick is worth %(n)s point besides the cards.",
                              "Each trick is worth %(n)s points besides the cards.", variant.trick_points)
                     % {"n": variant.trick_points})
    lines.append(gettext("Trump is chosen by the dealer's side.") if variant.trump_mode == "chosen"
                 else gettext("Trump is the suit of the dealer's last card, turned up for all to see."))
    if variant.no_trump:
        lines.append(gettext("Playing without trump counts ×%(n)s.") % {"n": variant.no_trump_multiplier})
    if variant.doublings:
        lines.append(gettext("The opponents may double and the dealer's side redouble: ×2 each."))
    if variant.turn_up_bonus:
        lines.append(gettext("The turned-up card's suit earns a bonus for the side that scores with it."))
    if variant.favourite:
        lines.append(gettext("A favourite suit, drawn before the game, doubles hands trumped in it."))
    if variant.albur_points:
        lines.append(gettext("With the albur option, the albur winners score %(n)s.") % {"n": variant.albur_points})
    if variant.all_tricks == "double":
        lines.append(gettext("Taking all the tricks doubles the hand."))
    elif variant.all_tricks == "wins_game":
        lines.append(gettext("Taking all the tricks wins the game at once."))
    elif variant.all_tricks == "hand_total":
        lines.append(gettext("Taking all the tricks scores the whole hand."))
    if variant.undertrump_ban:
        lines.append(gettext("A player who cannot follow suit may not undertrump."))
    for name, penalty in variant.penalties.items():
        lines.append(gettext("Penalty: %(help)s.") % {"help": PENALTY_HELP.get(name, penalty.help)})
    return lines


#: What entering a hand checks (docs/rules.md section 4), in words.
CHECKS = [
    _("Every card belongs to the variant's deck."),
    _("The dealer is the next seat in the direction of play."),
    _("The game or match is not already decided."),
    _("The trump is a suit of the deck (and the turned card shows it where trump is turned up)."),
    _("Only the calls the variant knows: blind, doublings, favourite, albur, within the highest multiplier."),
    _("The tricks of both sides add up to the tricks of a deal."),
    _("The points of both sides add up to the deal's total and are possible for the tricks taken."),
    _("Only the variant's own penalties."),
    _("With the full card play: every card dealt once, played in turn, following suit, beating, trumping and overtrumping as the variant requires."),  # noqa: E501 (one translatable string, kept whole)
]


#: Why a pairing was made, by its reason's code (``Pairing.why``, ``Match.why``): the pairing logic keeps codes
#: and params, these are their words.
PAIRING_REASONS = {
    "swiss_same_score": _("Same score (%(score)s pts): place %(place)s v place %(other)s of the %(size)s teams on it "
                          "(top half v bottom half)."),
    "swiss_float_odd": _("Float: %(score)s pts v %(other_score)s pts (odd score group; rematches are never allowed)."),
    "swiss_float_stuck": _("Float: %(score)s pts v %(other_score)s pts (no legal partner left in the group; "
                           "rematches are never allowed)."),
    "swiss_bye": _("Bye: the lowest-ranked team without a bye yet (%(score)s pts)."),
    "swiss_same_club": _("Same club: no other pairing was possible."),
    "swiss_club_apart": _("Not place %(place)s of the group: same club."),
    "knockout_bye": _("Seed %(seed)s has a bye (bracket of %(size)s)."),
    "knockout_seeds": _("Seed %(seed)s v seed %(other)s (bracket of %(size)s)."),
    "knockout_winners": _("Winner of round %(round)s table %(table)s v winner of table %(other)s."),
    "knockout_pool_apart": _("Not seed %(other)s: the same pool."),
    "knockout_third_place": _("Match for third place: the losers of the semi-finals of round %(round)s."),
    "berger": _("Berger table, round %(round)s: %(place)s v %(other)s."),
    "berger_second_cycle": _("Berger table, round %(round)s (second cycle, sides reversed): %(place)s v %(other)s."),
    "berger_bye": _("Berger table, round %(round)s: drawn against the dummy (bye)."),
    "bye_opponent_withdrawn": _("Bye: the scheduled opponent has withdrawn."),
    "walkover_opponent_withdrew": _("Walkover: the opponent withdrew."),
    "bye_opponent_withdrew": _("Bye: the opponent withdrew before the match."),
    "changed_by_hand": _("Changed by hand by %(who)s."),
    "changed_by_organizer": _("Changed by hand by the organizer."),
}


class Params(dict):
    """A sentence's params as it shows them: a name the params lack shows as "?" rather than failing."""

    def __missing__(self, key):
        return "?"


def pairing_reasons(why, fallback: str = "") -> str:
    """Return why a pairing was made in the reader's language (``why``: its reasons, [code, params] pairs);
    ``fallback``: the English words of a pairing made before the reasons were kept as codes."""
    sentences = []
    for code, params in why or ():
        template = PAIRING_REASONS.get(code)
        sentences.append(str(template) % Params(params or {}) if template is not None else code)
    return " ".join(sentences) or fallback

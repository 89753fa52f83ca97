"""Hand-made deals and hands for the API tests, one per rule of rules.md §4."""

# Belgian Manille (trump H, dealer N, so E leads): spades with E, the trumps split between S and W.
BELGIAN_DEAL = {
    "E": ["10S", "AS", "KS", "QS", "JS", "9S", "8S", "7S"],
    "S": ["10H", "JH", "9H", "8H", "10D", "AD", "KD", "QD"],
    "W": ["AH", "KH", "QH", "7H", "JD", "9D", "8D", "7D"],
    "N": ["10C", "AC", "KC", "QC", "JC", "9C", "8C", "7C"],
}
# Belgian, E leads 9S and S holds a lower and a higher spade.
BELGIAN_BEAT_DEAL = {
    "E": ["9S", "10D", "AD", "KD", "QD", "JD", "9D", "8D"],
    "S": ["8S", "10S", "7D", "10C", "AC", "KC", "QC", "JC"],
    "W": ["AS", "KS", "QS", "JS", "7S", "9C", "8C", "7C"],
    "N": ["10H", "AH", "KH", "QH", "JH", "9H", "8H", "7H"],
}
# Mexican Malilla (turned 2B: bastos are trumps; dealer N, counter-clockwise, so W leads).
MEXICAN_DEAL = {
    "W": [f"{r}O" for r in ("7", "1", "12", "11", "10", "6", "5", "4", "3", "2")],
    "S": [f"{r}C" for r in ("7", "1", "12", "11", "10", "6", "5", "4", "3", "2")],
    "E": [f"{r}E" for r in ("7", "1", "12", "11", "10", "6", "5", "4", "3", "2")],
    "N": [f"{r}B" for r in ("7", "1", "12", "11", "10", "6", "5", "4", "3", "2")],
}


def belgian_play(cards, deal=BELGIAN_DEAL, **extra):
    """A Belgian full-play hand dealt by N with hearts as trumps."""
    return {"dealer": "N", "trump": "H", "play": {"hands": deal, "cards": cards}, **extra}


def summary(dealer="N", ns=37, *, trump="H", tricks=(5, 3), **extra):
    """A Belgian hand summary."""
    return {"dealer": dealer, "trump": trump, "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns, "ew": 60 - ns}, **extra}


#: (variant, hand, expected code) for every rule code of rules.md §4 that a hand shows on its own.
RULE_CASES = [
    ("belgian-manille", belgian_play(["9S", "2S"]), "unknown_card"),
    ("spanish-manilla", {"dealer": "N", "turned_card": "13O", "tricks": {"ns": 6, "ew": 6},
                         "points": {"ns": 36, "ew": 36}}, "unknown_card"),
    ("belgian-manille", summary(trump="X"), "trump_invalid"),
    ("belgian-manille", summary(blind=True), "call_not_allowed"),
    ("spanish-manilla", {"dealer": "N", "turned_card": "2O", "doublings": 1, "tricks": {"ns": 6, "ew": 6},
                         "points": {"ns": 36, "ew": 36}}, "call_not_allowed"),
    ("belgian-manille", summary(tricks=(5, 2)), "tricks_total"),
    ("belgian-manille", summary() | {"points": {"ns": 37, "ew": 22}}, "points_total"),
    ("belgian-manille", summary(ns=10, tricks=(0, 8)), "points_impossible"),
    ("belgian-manille", summary(penalty={"type": "renuncio", "side": "ew"}), "penalty_not_allowed"),
    ("belgian-manille", summary(score={"ns": 8, "ew": 0}), "score_mismatch"),
    ("belgian-manille", {"dealer": "N", "trump": "H",
                         "play": {"hands": {**BELGIAN_DEAL, "N": BELGIAN_DEAL["N"][:7]}, "cards": []}},
     "deck_invalid"),
    ("belgian-manille", belgian_play(["10H"]), "not_your_turn"),
    ("belgian-manille", belgian_play(["9S", "9S"]), "card_not_in_hand"),
    ("belgian-manille", belgian_play(["9S", "7D"], deal=BELGIAN_BEAT_DEAL), "must_follow_suit"),
    ("belgian-manille", belgian_play(["9S", "8S"], deal=BELGIAN_BEAT_DEAL), "must_beat"),
    ("belgian-manille", belgian_play(["9S", "10D"]), "must_trump"),
    ("belgian-manille", belgian_play(["9S", "8H", "7H"]), "must_overtrump"),
    ("belgian-manille", belgian_play(["9S", "10H", "7H"]), "no_undertrump"),
    ("mexican-malilla", {"dealer": "N", "turned_card": "2B", "play": {"hands": MEXICAN_DEAL, "cards": ["2O", "7C"]}},
     "malilla_discard"),
]

#: (hand, expected code, the game so far) for the codes that depend on the game before the hand.
STATE_CASES = [
    (summary(dealer="N"), "dealer_out_of_turn", {"previous_dealer": "N"}),
    (summary(dealer="E"), "game_over", {"totals": {"ns": 101, "ew": 40}, "winner": "ns", "previous_dealer": "N"}),
]

#: Every code of rules.md §4 (and score_mismatch, its last paragraph).
ALL_RULE_CODES = {
    "unknown_card", "dealer_out_of_turn", "game_over", "trump_invalid", "call_not_allowed", "tricks_total",
    "points_total", "points_impossible", "penalty_not_allowed", "deck_invalid", "not_your_turn",
    "card_not_in_hand", "must_follow_suit", "must_beat", "must_trump", "must_overtrump", "no_undertrump",
    "malilla_discard", "score_mismatch",
}

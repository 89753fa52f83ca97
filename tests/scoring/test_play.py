"""check_play: every obligation of every variant, trick winners, turn order, malformed deals."""

import pytest

from scoring import VARIANTS, RuleViolation, check_play, get_variant
from tests.scoring.helpers import build_deal

ALL = list(VARIANTS)


class Table:
    """Name cards and seats by role for one variant: trump suit T, plain suits A and B; P1 leads the
    first trick (dealer N), P2 and P4 are P1's opponents, P3 its partner. Ranks by index, 0 the top."""

    def __init__(self, slug):
        self.slug = slug
        self.v = get_variant(slug)
        order = self.v.rules().order
        self.P = {i + 1: order[(1 + i) % 4] for i in range(4)}  # dealer N is order[0]
        self.T, self.A, self.B = self.v.suits[0], self.v.suits[1], self.v.suits[2]
        self.trump_kw = ({"turned_card": self.c("T", -1)} if self.v.trump_mode == "turned"
                         else {"trump": self.T})

    def c(self, suit, rank):
        return self.v.ranks[rank] + getattr(self, suit)

    def check(self, fixed, cards, void=None, without=None, **kw):
        fixed_by_seat = {self.P[p]: [self.c(*card) for card in cs] for p, cs in fixed.items()}
        if "turned_card" in self.trump_kw and "trump" not in kw:
            fixed_by_seat.setdefault("N", []).append(self.trump_kw["turned_card"])
        hands = build_deal(self.slug, fixed_by_seat,
                           void={self.P[p]: "".join(getattr(self, s) for s in suits) for p, suits in
                                 (void or {}).items()},
                           without={self.P[p]: [self.c(*card) for card in cs] for p, cs in (without or {}).items()})
        trump_kw = {"trump": kw.pop("trump")} if "trump" in kw else self.trump_kw
        return check_play(self.slug, dealer="N", hands=hands, cards=[self.c(*card) for card in cards],
                          **trump_kw, **kw)


def higher(suit, rank):
    return [(suit, r) for r in range(rank)]


@pytest.fixture(params=ALL)
def t(request):
    return Table(request.param)


def test_must_follow_suit(t):
    r = t.check({1: [("A", 5)], 2: [("A", 3), ("B", 4)]}, [("A", 5), ("B", 4)])
    assert r.violation["code"] == "must_follow_suit" and r.violation["seat"] == t.P[2]
    assert t.c("A", 3) in r.violation["legal_cards"] and r.violation["trick"] == 1


def test_must_beat_an_opponent_with_the_suit_led(t):
    r = t.check({1: [("A", 5)], 2: [("A", 3), ("A", -1)]}, [("A", 5), ("A", -1)])
    assert r.violation["code"] == "must_beat"
    assert t.c("A", 3) in r.violation["legal_cards"] and t.c("A", -1) not in r.violation["legal_cards"]


def test_any_lower_card_of_the_suit_when_unable_to_beat(t):
    r = t.check({1: [("A", 0)], 2: [("A", 5), ("A", -1)]}, [("A", 0), ("A", -1)])
    assert r.legal


def test_partner_winning_no_need_to_beat(t):
    r = t.check({1: [("A", 1)], 2: [("A", -2)], 3: [("A", 0), ("A", -1)]}, [("A", 1), ("A", -2), ("A", -1)],
                without={2: [("A", 0)]})
    assert r.legal


def test_must_trump_when_void_and_an_opponent_wins(t):
    r = t.check({1: [("A", 5)], 2: [("T", 4), ("B", 6)]}, [("A", 5), ("B", 6)], void={2: "A"})
    assert r.violation["code"] == "must_trump"
    assert all(card.endswith(t.T) for card in r.violation["legal_cards"])


def test_any_trump_will_do(t):
    r = t.check({1: [("A", 5)], 2: [("T", 2), ("T", -2)]}, [("A", 5), ("T", -2)], void={2: "A"})
    assert r.legal and r.tricks[0]["cards"][1] == t.c("T", -2)


def test_partner_winning_void_may_discard(t):
    r = t.check({1: [("A", 0)], 2: [("A", -1)], 3: [("T", 3), ("B", 6)]}, [("A", 0), ("A", -1), ("B", 6)],
                void={3: "A"})
    assert r.legal


def test_must_overtrump_an_opponents_trump(t):
    fixed = {1: [("A", 5)], 2: [("T", -3)], 3: [("T", 2), ("T", -2), ("B", 6)]}
    for third in (("T", -2), ("B", 6)):
        r = t.check(fixed, [("A", 5), ("T", -3), third], void={2: "A", 3: "A"})
        assert r.violation["code"] == "must_overtrump", third
        assert t.c("T", 2) in r.violation["legal_cards"] and t.c("T", -2) not in r.violation["legal_cards"]


def test_unable_to_overtrump_lower_trump(t):
    fixed = {1: [("A", 5)], 2: [("T", 0)], 3: [("T", -2), ("B", 6)]}
    r = t.check(fixed, [("A", 5), ("T", 0), ("T", -2)], void={2: "A", 3: "A"})
    if t.slug == "belgian-manille":
        assert r.violation["code"] == "no_undertrump"
        assert t.c("B", 6) in r.violation["legal_cards"]
    else:
        assert r.legal
    assert t.check(fixed, [("A", 5), ("T", 0), ("B", 6)], void={2: "A", 3: "A"}).legal


def test_unable_to_overtrump_unled_seven(t):
    fixed = {1: [("A", 5)], 2: [("T", 0)], 3: [("B", 0), ("B", 6)]}
    r = t.check(fixed, [("A", 5), ("T", 0), ("B", 0)], void={2: "A", 3: "A"})
    if t.slug == "mexican-malilla":
        assert r.violation["code"] == "malilla_discard"
        assert t.c("B", 0) not in r.violation["legal_cards"]
    else:
        assert r.legal


def test_trump_lead_follow_and_beat(t):
    fixed = {1: [("T", 5)], 2: [("T", 3), ("T", -2), ("B", 2)]}
    assert t.check(fixed, [("T", 5), ("T", -2)]).violation["code"] == "must_beat"
    assert t.check(fixed, [("T", 5), ("B", 2)]).violation["code"] == "must_follow_suit"
    assert t.check(fixed, [("T", 5), ("T", 3)]).legal


def test_trick_won_by_the_highest_trump(t):
    fixed = {1: [("A", 5)], 2: [("T", -2)], 3: [("A", 0)], 4: [("B", -1)]}
    r = t.check(fixed, [("A", 5), ("T", -2), ("A", 0), ("B", -1)], void={2: "A", 4: "AT"})
    assert r.legal and r.tricks[0]["winner"] == t.P[2]
    rp = t.v.rank_points
    expected = rp.get(t.v.ranks[0], 0) + t.v.trick_points
    assert r.tricks[0]["points"] == expected
    side = "ns" if t.P[2] in "NS" else "ew"
    assert r.tricks_won[side] == 1 and r.points[side] == expected
    assert r.next["seat"] == t.P[2]  # the winner leads next


def test_trick_won_by_the_highest_card_of_the_suit_led(t):
    fixed = {1: [("A", 5)], 2: [("A", 1)], 3: [("A", 0)], 4: [("A", -1)]}
    r = t.check(fixed, [("A", 5), ("A", 1), ("A", 0), ("A", -1)])
    assert r.legal and r.tricks[0]["winner"] == t.P[3]


def test_belgian_no_trump_void_plays_anything():
    t = Table("belgian-manille")
    fixed = {1: [("A", 5)], 2: [("T", 6), ("B", 6)]}
    for second in (("T", 6), ("B", 6)):
        r = t.check(fixed, [("A", 5), second], void={2: "A"}, trump="none")
        assert r.legal
    r = t.check({1: [("A", 5)], 2: [("T", 0)], 3: [("A", 0)], 4: [("A", -1)]},
                [("A", 5), ("T", 0), ("A", 0), ("A", -1)], void={2: "A"}, trump="none")
    assert r.tricks[0]["winner"] == t.P[3]  # no trump: the spade cannot win a heart trick


def test_belgian_partner_trumped_void_may_overtrump_or_discard_but_not_undertrump():
    t = Table("belgian-manille")
    fixed = {1: [("A", 5)], 2: [("T", 2)], 3: [("A", 1)], 4: [("T", 0), ("T", -1), ("B", 5)]}
    start = [("A", 5), ("T", 2), ("A", 1)]
    void = {2: "A", 4: "A"}
    assert t.check(fixed, start + [("T", 0)], void=void).legal
    assert t.check(fixed, start + [("B", 5)], void=void).legal
    r = t.check(fixed, start + [("T", -1)], void=void)
    assert r.violation["code"] == "no_undertrump" and r.violation["seat"] == t.P[4]


def test_spanish_partner_trumped_any_card():
    t = Table("spanish-manilla")
    fixed = {1: [("A", 5)], 2: [("T", 3)], 3: [("A", 2)], 4: [("T", -2), ("B", 4)]}
    r = t.check(fixed, [("A", 5), ("T", 3), ("A", 2), ("T", -2)], void={2: "A", 4: "A"})
    assert r.legal  # partner P2 wins: a lower trump is fine in Spain


def test_partial_play_lists_the_open_trick_and_next_legal_cards():
    t = Table("spanish-manilla")
    r = t.check({1: [("A", 5)], 2: [("A", 3), ("A", -1), ("B", 1)]}, [("A", 5)])
    assert r.legal and not r.complete
    assert r.next["seat"] == t.P[2]
    assert t.c("A", 3) in r.next["legal_cards"] and t.c("A", -1) not in r.next["legal_cards"]
    assert r.tricks == [{"leader": t.P[1], "cards": [t.c("A", 5)], "winner": None, "points": None}]
    d = r.to_dict()
    assert set(d) == {"legal", "tricks", "tricks_won", "points", "complete", "next"}


def test_empty_play_next_is_the_player_after_the_dealer():
    v = get_variant("belgian-manille")
    hands = build_deal("belgian-manille", {})
    r = check_play("belgian-manille", dealer="W", hands=hands, cards=[], trump="H")
    assert r.next == {"seat": "N", "legal_cards": [c for c in v.cards if c in hands["N"]]}


def test_illegal_answer_shape():
    t = Table("spanish-manilla")
    r = t.check({1: [("A", 5)], 2: [("A", 3), ("B", 4)]}, [("A", 5), ("B", 4)])
    d = r.to_dict()
    assert set(d) == {"legal", "tricks", "violation"}
    assert set(d["violation"]) == {"code", "trick", "seat", "card", "legal_cards"}
    assert d["tricks"][0]["cards"] == [t.c("A", 5)]  # the cards before the illegal one


def test_not_your_turn_and_card_not_in_hand():
    t = Table("spanish-manilla")
    fixed = {1: [("A", 5)], 3: [("A", 3)]}
    r = t.check(fixed, [("A", 5), ("A", 3)])
    assert r.violation["code"] == "not_your_turn" and r.violation["seat"] == t.P[2]
    assert r.violation["played_by"] == t.P[3]
    r = t.check(fixed, [("A", 5), ("A", 5)])
    assert r.violation["code"] == "card_not_in_hand"


def test_first_card_led_out_of_turn():
    hands = build_deal("belgian-manille", {"N": ["10H"]})
    r = check_play("belgian-manille", dealer="N", hands=hands, cards=["10H"], trump="S")
    assert r.violation["code"] == "not_your_turn" and r.violation["seat"] == "E"


def test_complete_play_counts_every_trick():
    import random
    from tests.scoring.helpers import random_play
    for slug in ALL:
        *_, result = random_play(slug, random.Random(7))
        v = get_variant(slug)
        assert result.complete and len(result.tricks) == v.tricks_per_deal
        assert sum(result.points.values()) == v.hand_total
        assert result.next is None


# --------------------------------------------------------------------------- malformed input


def codes(fn):
    with pytest.raises(RuleViolation) as exc:
        fn()
    return exc.value.codes


def test_deck_invalid_missing_duplicate_and_count():
    hands = build_deal("belgian-manille", {})
    bad = dict(hands, N=hands["N"][:-1])
    assert "deck_invalid" in codes(lambda: check_play("belgian-manille", dealer="N", hands=bad, cards=[], trump="H"))
    dup = dict(hands, N=hands["N"][:-1] + [hands["E"][0]])
    assert "deck_invalid" in codes(lambda: check_play("belgian-manille", dealer="N", hands=dup, cards=[], trump="H"))
    assert codes(lambda: check_play("belgian-manille", dealer="N", hands={"N": []}, cards=[],
                                    trump="H")) == ["deck_invalid"]


def test_unknown_card_in_hands_and_cards():
    hands = build_deal("belgian-manille", {})
    bad = dict(hands, N=hands["N"][:-1] + ["2H"])
    assert "unknown_card" in codes(lambda: check_play("belgian-manille", dealer="N", hands=bad, cards=[],
                                                      trump="H"))
    assert codes(lambda: check_play("belgian-manille", dealer="N", hands=hands, cards=["1O"],
                                    trump="H")) == ["unknown_card"]


def test_turned_card_must_be_in_the_dealers_hand():
    hands = build_deal("spanish-manilla", {"E": ["9O"]})
    assert codes(lambda: check_play("spanish-manilla", dealer="N", hands=hands, cards=[],
                                    turned_card="9O")) == ["deck_invalid"]


@pytest.mark.parametrize("slug, kw", [
    ("spanish-manilla", {"trump": "O"}),                       # turned card missing
    ("spanish-manilla", {"trump": "none"}),
    ("spanish-manilla", {"turned_card": "2O", "trump": "C"}),  # not the turned card's suit
    ("belgian-manille", {}),
    ("belgian-manille", {"trump": "O"}),
    ("macau-manilla", {"trump": "none"}),
    ("belgian-manille", {"trump": "H", "turned_card": "7H"}),
])
def test_trump_invalid(slug, kw):
    hands = build_deal(slug, {"N": [kw["turned_card"]]} if "turned_card" in kw and slug != "belgian-manille" else {})
    assert "trump_invalid" in codes(lambda: check_play(slug, dealer="N", hands=hands, cards=[], **kw))


def test_mexican_clockwise_option_changes_who_leads():
    hands = build_deal("mexican-malilla", {"N": ["2O"]})
    r = check_play("mexican-malilla", dealer="N", hands=hands, cards=[], turned_card="2O",
                   options={"clockwise": True})
    assert r.next["seat"] == "E"
    r = check_play("mexican-malilla", dealer="N", hands=hands, cards=[], turned_card="2O")
    assert r.next["seat"] == "W"

"""A hand's form fields and the engine's hand: one mapping for the admin's score sheet and the table entry."""

import pytest
import scoring

from tests.api.deals import summary
from tournaments.services.hand_data import hand_fields, hand_form_changes, hand_from_fields
from tournaments.services.hands import hand_enter

TYPED = {"dealer": "E", "trump": "H", "turned_card": "", "blind": "", "doublings": "1", "tricks_ns": "3",
         "tricks_ew": "5", "points_ns": "25", "points_ew": "35", "penalty_type": "", "penalty_side": "",
         "thrown_in": ""}
CLEANED = {"dealer": "E", "trump": "H", "turned_card": None, "blind": False, "doublings": 1, "tricks_ns": 3,
           "tricks_ew": 5, "points_ns": 25, "points_ew": 35, "penalty_type": "", "penalty_side": "",
           "thrown_in": False}
HAND = {"dealer": "E", "trump": "H", "doublings": 1, "tricks": {"ns": 3, "ew": 5}, "points": {"ns": 25, "ew": 35}}


def test_typed_and_cleaned_fields_make_the_same_hand():
    assert hand_from_fields(TYPED) == hand_from_fields(CLEANED) == HAND


def test_blank_fields_are_absent_and_a_blank_side_counts_zero():
    hand = hand_from_fields({**TYPED, "doublings": "0", "tricks_ns": "", "tricks_ew": "8", "points_ns": "",
                             "points_ew": "", "penalty_type": "signalling", "penalty_side": "ew", "thrown_in": "on"})
    assert hand == {"dealer": "E", "trump": "H", "tricks": {"ns": 0, "ew": 8}, "thrown_in": True,
                    "penalty": {"type": "signalling", "side": "ew"}}


def test_a_count_that_is_not_one_is_refused_on_its_field():
    with pytest.raises(scoring.RuleViolation) as exc:
        hand_from_fields({**TYPED, "doublings": "x", "points_ew": "3 5"})
    assert [(v.code, v.field) for v in exc.value.violations] == [("invalid_input", "doublings"),
                                                                 ("invalid_input", "points.ew")]


@pytest.mark.django_db
def test_a_stored_hand_shows_as_the_fields_it_was_typed_in(belgian_match):
    hand_enter(match=belgian_match, data=summary("N"))
    hand, _ = hand_enter(match=belgian_match, data=HAND)
    assert hand_fields(hand) == {**CLEANED, "turned_card": ""}
    assert hand_from_fields(hand_fields(hand)) == HAND


def test_a_correction_from_a_form_replaces_every_field_it_shows():
    assert hand_form_changes({"dealer": "N", "trump": "H"}) == {
        "dealer": "N", "trump": "H", "turned_card": None, "blind": None, "doublings": None, "tricks": None,
        "points": None, "penalty": None, "thrown_in": None}

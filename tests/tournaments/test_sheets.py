"""A game's score sheet (``game_sheet_apply``): its rows are stored together, or none of them."""

import pytest
import scoring

from tests.api.deals import summary
from tournaments.models import Hand
from tournaments.services.errors import Conflict
from tournaments.services.hands import hand_enter
from tournaments.services.sheets import game_sheet_apply

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(belgian_match):
    hand_enter(match=belgian_match, data=summary("N", 37))
    hand, _ = hand_enter(match=belgian_match, data=summary("E", 25, tricks=(3, 5)))
    return hand.game


def _rows(game) -> list[tuple]:
    return list(Hand.objects.filter(game=game).order_by("number").values_list("number", "dealer", "points_ns",
                                                                                  "score_ns", "total_ns"))


def test_a_sheet_corrects_and_adds_in_one_go(game, scorekeeper):
    first = game.hands.get(number=1)
    game_sheet_apply(game=game, corrected=[(first, {"points": {"ns": 40, "ew": 20}})],
                     entered=[summary("S", 30, tricks=(4, 4))], user=scorekeeper, reason="typo on the sheet")
    assert [(n, d, p) for n, d, p, *_ in _rows(game)] == [(1, "N", 40), (2, "E", 25), (3, "S", 30)]
    assert first.history.first().history_change_reason == "corrected: typo on the sheet"


def test_a_second_row_refused_leaves_the_first_rows_change_unstored(game, scorekeeper):
    before = _rows(game)
    game.refresh_from_db()
    totals = (game.total_ns, game.total_ew)
    first = game.hands.get(number=1)
    with pytest.raises(scoring.RuleViolation) as exc:  # E dealt hand 2: S deals the next one
        game_sheet_apply(game=game, corrected=[(first, {"points": {"ns": 40, "ew": 20}})],
                         entered=[summary("E", 30, tricks=(4, 4))], user=scorekeeper, reason="typo")
    assert exc.value.codes == ["dealer_out_of_turn"]
    assert _rows(game) == before
    game.refresh_from_db()
    assert (game.total_ns, game.total_ew) == totals
    assert first.history.count() == 1  # its entry only: no correction was kept


def test_a_refused_deletion_stores_nothing_of_the_sheet(game, scorekeeper):
    before = _rows(game)
    first, second = game.hands.order_by("number")
    with pytest.raises(Conflict):  # hand 1 is not the last hand once hand 2 stays
        game_sheet_apply(game=game, deleted=[first], corrected=[(second, {"points": {"ns": 30, "ew": 30}})],
                         user=scorekeeper, reason="typo")
    assert _rows(game) == before


def test_the_last_hands_are_deleted_from_the_last(game, scorekeeper):
    game_sheet_apply(game=game, deleted=list(game.hands.all()), user=scorekeeper)
    assert _rows(game) == []

"""The preview (``hand_preview``) answers what ``hand_enter`` then stores, and refuses what it refuses, in every variant;
the entry's state (``match_entry_state``) says where that hand goes."""

import random

import pytest
import scoring

from tests.api.deals import summary
from tests.factories import MatchFactory, TournamentFactory
from tournaments.management.commands.load_demo import Table
from tournaments.models import Hand, Match
from tournaments.selectors.hands import match_entry_state
from tournaments.services.errors import Conflict
from tournaments.services.games import game_start
from tournaments.services.hand_data import hand_input_dict
from tournaments.services.hands import hand_enter, hand_preview

pytestmark = pytest.mark.django_db


def _bonus(result) -> dict | None:
    bonus = result.bonus
    return None if bonus is None else {"side": bonus.side, "points": bonus.points, "held_back": bonus.held_back,
                                       "applied": bonus.applied}


def _stored(hand: Hand) -> tuple:
    return (hand.game.number, hand.number, hand.score, hand.totals, hand.multiplier, hand.bonus,
            hand.game_winner, list(hand.labels))


def _previewed(preview) -> tuple:
    r = preview.result
    return (preview.game.number, preview.number, dict(r.score), dict(r.totals), r.multiplier, _bonus(r),
            r.game_winner or "", list(r.labels))


@pytest.mark.parametrize("variant", sorted(scoring.VARIANTS))
def test_the_preview_is_what_hand_enter_then_stores(variant):
    tournament = TournamentFactory(variant=variant, best_of=3)
    match = MatchFactory(round__tournament=tournament)
    table = Table(variant, random.Random(f"preview-{variant}"), tournament.options)
    rules = scoring.get_variant(variant)
    stored = refused = games_started = 0
    for _ in range(60):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        nxt = match_entry_state(match=match).next
        dealer = nxt.dealer or "N"
        if nxt.starts_game and rules.favourite:  # the favourite suit is drawn at the table before the game
            game_start(match=match, first_dealer=dealer, favourite=rules.suits[0])
            match.refresh_from_db()
            nxt = match_entry_state(match=match).next
        try:
            data = table.malilla_hand(dealer) if rules.trump_mode == "turned" else table.belgian_hand(dealer)
        except scoring.RuleViolation:  # the demo's table plays no-trump, which not every variant has
            continue
        try:
            preview = hand_preview(match=match, data=data)
        except scoring.RuleViolation as exc:  # refused alike, and nothing stored
            count = Hand.objects.filter(game__match=match).count()
            with pytest.raises(scoring.RuleViolation) as entered:
                hand_enter(match=match, data=data)
            assert entered.value.codes == exc.codes
            assert Hand.objects.filter(game__match=match).count() == count
            refused += 1
            continue
        assert (preview.game.number, preview.number) == (nxt.game_number, nxt.number)
        games_started += preview.game.pk is None
        hand, created = hand_enter(match=match, data=data)
        assert created and _previewed(preview) == _stored(hand)
        stored += 1
    assert stored >= 8 and match.games.count() >= 2, (stored, refused)
    assert games_started or rules.favourite  # a preview of a hand that starts a game, without starting it


def test_the_preview_refuses_as_hand_enter_does(belgian_match):
    decided, _ = hand_enter(match=belgian_match, data=summary("N", 60, tricks=(8, 0)))
    while not decided.game_winner:
        decided, _ = hand_enter(match=belgian_match, data=summary(decided.game.next_dealer, 60, tricks=(8, 0)))
    repeat = hand_input_dict(decided)  # the hand that decided game 1, sent again
    cases = [
        ({"data": summary("N", 37)}, None),  # the previous game is over: a new game, any dealer
        ({"data": repeat}, "duplicate_hand"),
        ({"data": summary("N", 37), "game_number": 1}, "game_number"),
        ({"data": summary("N", 37), "number": 2}, "hand_number"),
        ({"data": summary("N", 37), "game_number": 2, "number": 1}, None),
    ]
    for kwargs, code in cases:
        if code is None:
            preview = hand_preview(match=belgian_match, **kwargs)
            assert (preview.game.pk, preview.game.number, preview.number) == (None, 2, 1)
            continue
        with pytest.raises(Conflict) as previewed:
            hand_preview(match=belgian_match, **kwargs)
        with pytest.raises(Conflict) as entered:
            hand_enter(match=belgian_match, **kwargs)
        assert previewed.value.code == entered.value.code == code
    assert belgian_match.games.count() == 1  # a preview starts no game


def test_the_preview_of_a_decided_match_is_refused(belgian_match):
    belgian_match.status = Match.Status.FINISHED
    belgian_match.save()
    with pytest.raises(scoring.RuleViolation) as exc:
        hand_preview(match=belgian_match, data=summary("N", 37))
    assert exc.value.codes == ["game_over"]

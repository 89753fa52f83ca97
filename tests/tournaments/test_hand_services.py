"""The hand services: the engine computes, the services store, refusals keep their codes."""

import os

import pytest
import scoring
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Game, Hand, Match, Round
from tournaments.services.errors import Conflict, IdempotencyKeyMismatch
from tournaments.services.games import game_start
from tournaments.services.hands import (
    hand_correct, hand_delete_last, hand_enter, hand_key_refuse_invalid, request_fingerprint,
)

pytestmark = pytest.mark.django_db

SEATS = "NESW"


def summary(dealer, ns_points, *, trump="H", tricks=None, **extra):
    """A Belgian hand summary whose tricks fit its points."""
    ew_points = 60 - ns_points
    if tricks is None:
        tricks = (8, 0) if ns_points == 60 else (0, 8) if ns_points == 0 else (4, 4)
    return {"dealer": dealer, "trump": trump, "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns_points, "ew": ew_points}, **extra}


def play_boam(match, first_dealer_index=0, ns_points=50, hands=None):
    """Enter hands until the current boam ends (ns 50–10 hands: 20 a hand, six hands to 120)."""
    dealer = first_dealer_index
    entered = []
    for _ in range(hands or 100):
        hand, _ = hand_enter(match=match, data=summary(SEATS[dealer % 4], ns_points))
        entered.append(hand)
        dealer += 1
        if hand.game_winner:
            break
    return entered


def test_enter_stores_what_the_engine_computes(belgian_match, scorekeeper):
    hand, created = hand_enter(match=belgian_match, data=summary("N", 37), user=scorekeeper)
    assert created
    assert (hand.number, hand.score, hand.totals, hand.multiplier) == (1, {"ns": 7, "ew": 0}, {"ns": 7, "ew": 0}, 1)
    game = Game.objects.get(match=belgian_match)
    assert (game.number, game.first_dealer, game.next_dealer, game.status) == (1, "N", "E", "playing")
    belgian_match.refresh_from_db()
    assert belgian_match.status == Match.Status.PLAYING
    assert hand.entered_by == scorekeeper



def test_the_round_plays_from_its_first_hand_and_finishes_with_its_last_match(belgian_match):
    """The round's status follows its matches' statuses, read from the match table alone: without the
    model's ordering they need no join and no sort of every table of the round."""
    rnd = belgian_match.round
    other = MatchFactory(round=rnd)
    with CaptureQueriesContext(connection) as queries:
        hand_enter(match=belgian_match, data=summary("N", 37))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLAYING
    reads = [q["sql"] for q in queries.captured_queries if 'DISTINCT "tournaments_match"."status"' in q["sql"]]
    assert len(reads) == 1, [q["sql"] for q in queries.captured_queries]
    assert "JOIN" not in reads[0] and "ORDER BY" not in reads[0]
    for match, dealer in ((belgian_match, 1), (other, 0)):  # E deals after the hand above
        while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
            play_boam(match, first_dealer_index=dealer)
            dealer = 0
        rnd.refresh_from_db()
        assert rnd.status == (Round.Status.PLAYING if match is belgian_match else Round.Status.FINISHED)

def test_no_trump_after_a_tie_with_a_doubling_scores_56(belgian_match):
    """004: no trump after a tie, an opponent goes along, 37 points: 7 × 2 × 2 × 2 = 56."""
    hand_enter(match=belgian_match, data=summary("N", 30))
    hand, _ = hand_enter(match=belgian_match, data=summary("E", 37, trump="none", doublings=1))
    assert (hand.multiplier, hand.score) == (8, {"ns": 56, "ew": 0})


@pytest.mark.parametrize(
    ("data", "code", "attr"),
    [
        (summary("N", 37) | {"points": {"ns": 37, "ew": 22}}, "points_total", "points"),
        (summary("N", 37) | {"tricks": {"ns": 5, "ew": 2}}, "tricks_total", "tricks"),
        (summary("N", 37) | {"trump": "O"}, "trump_invalid", "trump"),
        (summary("N", 37) | {"tricks": {"ns": 0, "ew": 8}}, "points_impossible", "points"),
        (summary("N", 37) | {"penalty": {"type": "renuncio", "side": "ns"}}, "penalty_not_allowed", "penalty"),
        (summary("N", 37) | {"score": {"ns": 8, "ew": 0}}, "score_mismatch", "score"),
        (summary("N", 37) | {"blind": True}, "call_not_allowed", "blind"),
    ],
)
def test_rule_refusals_reach_the_caller_with_their_code(belgian_match, data, code, attr):
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_enter(match=belgian_match, data=data)
    assert code in refused.value.codes
    assert any(v.field and v.field.startswith(attr) for v in refused.value.violations if v.code == code)
    assert not Hand.objects.exists()
    assert not Game.objects.exists()


def test_dealer_out_of_turn_is_refused(belgian_match):
    hand_enter(match=belgian_match, data=summary("N", 37))
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_enter(match=belgian_match, data=summary("S", 37))
    assert refused.value.codes == ["dealer_out_of_turn"]
    assert Hand.objects.count() == 1


def test_boams_make_a_best_of_three_match_and_then_game_over(belgian_match):
    first = play_boam(belgian_match)
    assert first[-1].game_winner == "ns" and first[-1].total_ns >= 101
    belgian_match.refresh_from_db()
    assert (belgian_match.games_won_ns, belgian_match.games_won_ew, belgian_match.winner) == (1, 0, "")
    second = play_boam(belgian_match, first_dealer_index=2)
    assert second[0].game.number == 2 and second[0].game.first_dealer == "S"
    belgian_match.refresh_from_db()
    assert (belgian_match.games_won_ns, belgian_match.winner, belgian_match.status) == (2, "ns", "finished")
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_enter(match=belgian_match, data=summary("N", 37))
    assert refused.value.codes == ["game_over"]
    assert Game.objects.filter(match=belgian_match).count() == 2


def test_same_idempotency_key_stores_once(belgian_match):
    first, created = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-1")
    again, created_again = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-1")
    assert created and not created_again
    assert again.pk == first.pk
    assert Hand.objects.count() == 1


def test_an_idempotency_key_of_another_match_is_a_conflict(belgian_match):
    hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-2")
    other = MatchFactory(round=belgian_match.round)
    with pytest.raises(Conflict):
        hand_enter(match=other, data=summary("N", 37), idempotency_key="k-2")


def test_a_retry_in_another_key_order_or_with_nulls_for_absent_fields_is_the_same_request(belgian_match):
    first, _ = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-order")
    reordered = {"points": {"ew": 23, "ns": 37}, "tricks": {"ew": 4, "ns": 4}, "trump": "H", "dealer": "N",
                 "blind": None, "penalty": None, "doublings": 0}
    again, created = hand_enter(match=belgian_match, data=reordered, idempotency_key="k-order")
    assert (again.pk, created) == (first.pk, False)
    assert Hand.objects.count() == 1


def test_a_key_used_again_for_another_hand_is_refused_and_nothing_is_lost(belgian_match):
    """Issue 24: a client keying hands by table and hand number reuses hand 1's key for hand 1 of game 2.
    The second request is not the first one's retry: refused, and the first hand stays as it was."""
    first, _ = hand_enter(match=belgian_match, data=summary("N", 60), idempotency_key="t1-h1")
    play_boam(belgian_match, first_dealer_index=1, ns_points=60)
    assert belgian_match.games.get(number=1).status == Game.Status.FINISHED
    hands = Hand.objects.count()
    with pytest.raises(IdempotencyKeyMismatch) as refused:
        hand_enter(match=belgian_match, data=summary("E", 37), idempotency_key="t1-h1")
    assert refused.value.code == "idempotency_key_mismatch" and refused.value.status == 422
    assert Hand.objects.count() == hands and not belgian_match.games.filter(number=2).exists()
    stored = Hand.objects.get(pk=first.pk)
    assert (stored.game.number, stored.number, stored.points_ns, stored.idempotency_key) == (1, 1, 60, "t1-h1")
    # Another hand in the same game, another number asked for, a body that is no hand: each a mismatch.
    for data, extra in ((summary("N", 37), {}), (summary("N", 60), {"number": 1}),
                        (summary("N", 60), {"game_number": 1}), ({"dealer": 7}, {})):
        with pytest.raises(IdempotencyKeyMismatch):
            hand_enter(match=belgian_match, data=data, idempotency_key="t1-h1", **extra)
    assert Hand.objects.count() == hands
    # With a key of its own the hand is stored.
    hand, created = hand_enter(match=belgian_match, data=summary("E", 37), idempotency_key="t1-g2-h1")
    assert created and (hand.game.number, hand.number) == (2, 1)


def test_the_fingerprint_is_the_request_at_entry_so_a_retry_after_a_correction_is_still_a_retry(belgian_match):
    first, _ = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-fix", number=1, game_number=1)
    expected = request_fingerprint(match_id=belgian_match.pk, entered=scoring.Hand.from_dict(summary("N", 37)),
                                   number=1, game_number=1)
    assert Hand.objects.get(pk=first.pk).idempotency_fingerprint == expected
    assert first.history.get().idempotency_fingerprint == expected  # the record written with the hand
    hand_correct(hand=Hand.objects.get(pk=first.pk), data={"points": {"ns": 40, "ew": 20}})
    again, created = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-fix", number=1,
                                game_number=1)
    assert (again.pk, created, again.points_ns) == (first.pk, False, 40)  # the stored hand, as corrected
    assert Hand.objects.get(pk=first.pk).idempotency_fingerprint == expected
    with pytest.raises(IdempotencyKeyMismatch):  # the corrected hand is not what the key was sent with
        hand_enter(match=belgian_match, data=summary("N", 40), idempotency_key="k-fix", number=1, game_number=1)
    assert Hand.objects.count() == 1


def test_a_hand_without_a_key_keeps_no_fingerprint(belgian_match):
    hand, _ = hand_enter(match=belgian_match, data=summary("N", 37))
    assert Hand.objects.get(pk=hand.pk).idempotency_fingerprint is None


def test_a_key_stored_before_fingerprints_were_kept_is_judged_by_the_hands_input(belgian_match):
    first, _ = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-old")
    Hand.objects.filter(pk=first.pk).update(idempotency_fingerprint=None)  # as the migration leaves older hands
    again, created = hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-old")
    assert (again.pk, created) == (first.pk, False)
    with pytest.raises(IdempotencyKeyMismatch):
        hand_enter(match=belgian_match, data=summary("E", 37), idempotency_key="k-old")


def test_an_invalid_body_with_a_stored_key_is_a_mismatch_and_with_a_new_key_its_own_refusal(belgian_match):
    hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-body")
    with pytest.raises(IdempotencyKeyMismatch):
        hand_key_refuse_invalid(idempotency_key="k-body")
    hand_key_refuse_invalid(idempotency_key="k-new")  # a new key: the caller answers the body's refusal
    hand_key_refuse_invalid(idempotency_key=None)


def test_a_request_read_by_hand_enter_is_refused_by_its_key_when_its_body_does_not_read(belgian_match):
    """``read``: the caller hands over the reading of its request; hand_enter checks the key of one that fails."""
    def unreadable():
        raise ValueError("not a hand")

    hand_enter(match=belgian_match, data=summary("N", 37), idempotency_key="k-read")
    with pytest.raises(IdempotencyKeyMismatch):
        hand_enter(match=belgian_match, read=unreadable, idempotency_key="k-read")
    with pytest.raises(ValueError):  # a new key: the request's own refusal
        hand_enter(match=belgian_match, read=unreadable, idempotency_key="k-other")
    hand, created = hand_enter(match=belgian_match, read=lambda: (summary("E", 37), 2, 1), idempotency_key="k-2")
    assert (hand.number, hand.game.number, created) == (2, 1, True)


def test_an_expected_number_already_entered_is_a_conflict(belgian_match):
    hand_enter(match=belgian_match, data=summary("N", 37), number=1)
    with pytest.raises(Conflict) as conflict:
        hand_enter(match=belgian_match, data=summary("E", 37), number=1)
    assert conflict.value.code == "hand_exists"
    with pytest.raises(Conflict) as conflict:
        hand_enter(match=belgian_match, data=summary("E", 37), number=3)
    assert conflict.value.code == "hand_number"
    hand, _ = hand_enter(match=belgian_match, data=summary("E", 37), number=2)
    assert hand.number == 2


def test_a_correction_rescores_the_rest_and_is_audited(belgian_match, scorekeeper):
    h1, _ = hand_enter(match=belgian_match, data=summary("N", 30))  # a tie: the next hand counts double
    h2, _ = hand_enter(match=belgian_match, data=summary("E", 40))
    assert h2.score == {"ns": 20, "ew": 0}
    hand_correct(hand=h1, data={"points": {"ns": 35, "ew": 25}}, user=scorekeeper)
    h1.refresh_from_db()
    h2.refresh_from_db()
    assert h1.score == {"ns": 5, "ew": 0}
    assert (h2.multiplier, h2.score, h2.totals) == (1, {"ns": 10, "ew": 0}, {"ns": 15, "ew": 0})
    game = h1.game
    game.refresh_from_db()
    assert (game.total_ns, game.total_ew, game.tie_pending) == (15, 0, False)
    records = list(h1.history.order_by("history_date"))
    assert [r.history_type for r in records] == ["+", "~"]
    assert records[-1].history_user == scorekeeper
    assert records[-1].history_change_reason == "corrected"
    before, after = records
    assert (before.points_ns, after.points_ns) == (30, 35)
    delta = after.diff_against(before)
    assert {"points_ns", "points_ew", "score_ns"} <= set(delta.changed_fields)
    rescored = h2.history.order_by("-history_date").first()
    assert rescored.history_change_reason == "re-scored after the correction of hand 1"


def test_a_refused_correction_changes_nothing(belgian_match):
    h1, _ = hand_enter(match=belgian_match, data=summary("N", 37))
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_correct(hand=h1, data={"points": {"ns": 37, "ew": 20}})
    assert refused.value.codes == ["points_total"]
    h1.refresh_from_db()
    assert h1.points_ew == 23 and h1.history.count() == 1


def test_a_correction_that_would_end_the_game_early_is_game_over(belgian_match):
    hands = [hand_enter(match=belgian_match, data=summary(SEATS[i % 4], 40))[0] for i in range(3)]
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_correct(hand=hands[0], data={"trump": "none", "blind": True, "tricks": {"ns": 8, "ew": 0},
                                          "points": {"ns": 60, "ew": 0}})
    assert "game_over" in refused.value.codes


def test_delete_only_the_last_hand(belgian_match):
    h1, _ = hand_enter(match=belgian_match, data=summary("N", 40))
    h2, _ = hand_enter(match=belgian_match, data=summary("E", 40))
    with pytest.raises(Conflict):
        hand_delete_last(hand=h1)
    hand_delete_last(hand=h2)
    game = h1.game
    game.refresh_from_db()
    assert (game.total_ns, game.next_dealer) == (10, "E")
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    assert Hand.history.filter(history_type="-").count() == 1


def test_deleting_the_deciding_hand_reopens_game_and_match():
    tournament = TournamentFactory(variant="belgian-manille", best_of=1)
    match = MatchFactory(round__tournament=tournament)
    hands = play_boam(match)
    match.refresh_from_db()
    assert match.status == "finished"
    hand_delete_last(hand=hands[-1])
    match.refresh_from_db()
    game = Game.objects.get(match=match)
    assert (match.status, match.winner, game.status, game.winner) == ("playing", "", "playing", "")
    hand, _ = hand_enter(match=match, data=summary(SEATS[(len(hands) - 1) % 4], 40))
    assert hand.number == len(hands)


#: Four Belgian deals from N, level after the last: NS make 7, a deal thrown in, EW make 7, a 30-30 tie.
LEVEL_DEALS = [summary("N", 37), {"dealer": "E", "thrown_in": True}, summary("S", 23), summary("W", 30)]


@pytest.mark.parametrize("best_of", [1, 3])
def test_a_game_of_fixed_deals_level_after_its_last_deal_is_a_drawn_game(best_of):
    """Option deals: the engine ends the game on its deals; a drawn game (winner "draw") counts for neither side."""
    tournament = TournamentFactory(variant="belgian-manille", best_of=best_of, options={"deals": 4})
    match = MatchFactory(round__tournament=tournament)
    hands = [hand_enter(match=match, data=data)[0] for data in LEVEL_DEALS]
    assert [h.game_winner for h in hands] == ["", "", "", "draw"]
    game = Game.objects.get(match=match)
    assert (game.status, game.winner, game.totals, game.tie_pending) == ("finished", "draw", {"ns": 7, "ew": 7},
                                                                        False)
    assert {k: game.engine_state[k] for k in ("hands", "deals_played", "deals_left", "winner", "ended_on_deals",
                                              "tiebreak")} == {
        "hands": 4, "deals_played": 4, "deals_left": 0, "winner": "draw", "ended_on_deals": True, "tiebreak": False}
    match.refresh_from_db()
    assert (match.games_won_ns, match.games_won_ew, match.points_ns, match.points_ew) == (0, 0, 7, 7)
    if best_of == 1:
        assert (match.status, match.winner, match.round.status) == ("finished", "draw", "finished")
        with pytest.raises(scoring.RuleViolation) as refused:
            hand_enter(match=match, data=summary("N", 37))
        assert refused.value.codes == ["game_over"]
        # The last deal deleted, the game and the match play on; the same deal won by NS decides them.
        hand_delete_last(hand=hands[-1])
        match.refresh_from_db()
        assert (match.status, match.winner) == ("playing", "")
        decided, _ = hand_enter(match=match, data=summary("W", 31))
        match.refresh_from_db()
        assert (decided.game_winner, match.winner, match.status) == ("ns", "ns", "finished")
    else:
        assert (match.status, match.winner) == ("playing", "")
        next_game, _ = hand_enter(match=match, data=summary("N", 37))
        assert (next_game.game.number, next_game.number) == (2, 1)


def test_tie_break_deals_are_stored_and_the_first_is_doubled_after_a_pending_tie():
    tournament = TournamentFactory(variant="belgian-manille", best_of=1, options={"deals": 4, "tiebreak_deals": 1})
    match = MatchFactory(round__tournament=tournament)
    for data in LEVEL_DEALS:
        hand_enter(match=match, data=data)
    game = Game.objects.get(match=match)
    assert (game.status, game.next_multiplier, game.engine_state["tiebreak"], game.engine_state["deals_left"]) == (
        "playing", 2, True, 1)
    extra, _ = hand_enter(match=match, data=summary("N", 37))
    assert (extra.number, extra.multiplier, extra.score, extra.game_winner) == (5, 2, {"ns": 14, "ew": 0}, "ns")
    match.refresh_from_db()
    assert (match.winner, match.status) == ("ns", "finished")


def test_game_start_refuses_while_a_game_is_in_progress(belgian_match):
    game_start(match=belgian_match, first_dealer="W")
    with pytest.raises(Conflict):
        game_start(match=belgian_match, first_dealer="N")
    hand, _ = hand_enter(match=belgian_match, data=summary("W", 37))
    assert hand.game.first_dealer == "W"


def test_a_full_play_is_entered_instead_of_a_summary():
    tournament = TournamentFactory(variant="belgian-manille")
    match = MatchFactory(round__tournament=tournament)
    hands = {"N": ["10S", "AS", "KS", "QS", "JS", "9S", "8S", "7S"],
             "E": ["10H", "AH", "KH", "QH", "JH", "9H", "8H", "7H"],
             "S": ["10D", "AD", "KD", "QD", "JD", "9D", "8D", "7D"],
             "W": ["10C", "AC", "KC", "QC", "JC", "9C", "8C", "7C"]}
    # Play the first legal card each turn: the engine says which cards are legal.
    order = []
    result = scoring.check_play("belgian-manille", dealer="N", trump="S", hands=hands, cards=[])
    while not result.complete:
        order.append(result.next["legal_cards"][0])
        result = scoring.check_play("belgian-manille", dealer="N", trump="S", hands=hands, cards=order)
    hand, _ = hand_enter(match=match, data={"dealer": "N", "trump": "S", "play": {"hands": hands, "cards": order}})
    assert (hand.tricks_ns + hand.tricks_ew, hand.points_ns + hand.points_ew) == (8, 60)
    assert hand.points_ns == result.points["ns"]
    assert hand.play == {"hands": hands, "cards": order}


def test_an_entered_hand_is_stored_with_its_history_record_game_and_match_at_once(belgian_match, scorekeeper):
    # On PostgreSQL one statement writes the hand, its history record, its game and its match
    # (tournaments/services/rows.py); elsewhere the ORM does. Either way, what is stored is the same.
    hand_enter(match=belgian_match, data=summary("N", 37), user=scorekeeper)
    hand, created = hand_enter(match=belgian_match, data=summary("E", 50, tricks=(6, 2)), user=scorekeeper,
                               idempotency_key="k-2")
    stored = Hand.objects.get(pk=hand.pk)
    record = stored.history.get()
    for field in Hand._meta.concrete_fields:
        assert getattr(record, field.attname) == getattr(stored, field.attname) == getattr(hand, field.attname), \
            field.name
    assert (record.history_type, record.history_change_reason, record.history_user) == ("+", "entered", scorekeeper)
    assert created and stored.idempotency_key == "k-2" and len(stored.idempotency_fingerprint) == 64
    if connection.vendor == "postgresql":  # the one statement dates the record with the hand's own moment
        assert record.history_date == stored.updated_at
    game, match = Game.objects.get(pk=hand.game_id), Match.objects.get(pk=belgian_match.pk)
    assert (game.total_ns, game.total_ew, game.next_dealer) == (hand.total_ns, hand.total_ew, "S")
    assert game.updated_at >= stored.created_at and match.updated_at >= stored.created_at
    assert (match.status, match.points_ns, match.points_ew) == ("playing", hand.total_ns, hand.total_ew)


def test_the_hand_posts_statements_stay_within_psycopgs_statement_cache():
    """psycopg converts a statement's text once and keeps it only up to a length and a number of
    parameters; a hot statement beyond them is parsed anew on every hand (its cost doubled once a
    column was added to the games: 51 parameters). Machine-independent, so asserted here."""
    from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

    from api.authentication import _tokens_sql
    from tournaments.services import games, hands, rows

    # The statement of a match without the director's actions (every match but a handful: ``match_result_fields``).
    insert = rows._insert_sql(((Game, hands.GAME_RESULT_FIELDS), (Match, games.MATCH_PLAYED_FIELDS)))[0]
    statements = [insert, games._games_sql("postgresql"), games._lock_sql("postgresql", True, True),
                  games._lock_sql("postgresql", False, True), games._lock_sql("postgresql", True), _tokens_sql()]
    for sql in statements:  # a statement's parameters are its %s
        assert len(sql) <= MAX_CACHED_STATEMENT_LENGTH and sql.count("%s") <= MAX_CACHED_STATEMENT_PARAMS, sql


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs PostgreSQL (DATABASE_URL): two transactions waiting on the same row lock")
@pytest.mark.django_db(transaction=True)
def test_a_hand_that_waited_for_the_lock_sees_the_hand_committed_meanwhile(monkeypatch):
    """The lock's statement reads the match's games too, from the snapshot it started with; a hand that
    waited for another one's lock must read them again after it, or it would not see that hand."""
    import threading

    from django.db import connection, connections

    from tournaments.services import games as games_service
    from tournaments.services import hands as hands_service

    match = MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille", best_of=3))
    first_stored, go = threading.Event(), threading.Event()
    saved, read_again = hands_service.match_result_saved, []

    def pause_the_first(m, moved):  # inside the first hand's transaction, after its write
        if threading.current_thread().name == "first":
            first_stored.set()
            assert go.wait(10)
        saved(m, moved)

    def match_games(m):
        read_again.append(threading.current_thread().name)
        return games_service.match_games(m)

    monkeypatch.setattr(hands_service, "match_result_saved", pause_the_first)
    monkeypatch.setattr(hands_service, "match_games", match_games)
    results = {}

    def enter(name, data):
        try:
            results[name] = hand_enter(match_id=match.pk, data=data)[0]
        except Exception as exc:  # noqa: BLE001 - the assertion below shows it
            results[name] = exc
        finally:
            connections.close_all()

    first = threading.Thread(target=enter, args=("first", summary("N", 37)), name="first")
    second = threading.Thread(target=enter, args=("second", summary("E", 50, tricks=(6, 2))), name="second")
    first.start()
    assert first_stored.wait(10)
    second.start()
    with connection.cursor() as c:  # the second hand waits for the first one's lock
        for _ in range(200):
            c.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = "
                      "current_database()")
            if c.fetchone()[0]:
                break
            threading.Event().wait(0.05)
    go.set()
    first.join(10)
    second.join(10)
    assert [getattr(results[n], "number", results[n]) for n in ("first", "second")] == [1, 2]
    assert read_again == ["second"]  # the games of its snapshot were not believed
    assert list(Hand.objects.filter(game__match=match).order_by("number").values_list("dealer", flat=True)) == \
        ["N", "E"]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="needs PostgreSQL (DATABASE_URL): row locks seen from another connection")
@pytest.mark.django_db(transaction=True)
def test_a_hand_that_moves_its_round_locks_the_round_not_the_tournament(monkeypatch):
    """A match's first hand sets its round playing under the round's lock: the tournament's row stays free
    (pairing, the admin and the other rounds' tables lock it or wait on it)."""
    import threading

    from django.db import connection, connections, transaction
    from django.db.utils import OperationalError

    from tournaments.services import games as games_service

    match = MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille", best_of=3))
    locked, go, results = threading.Event(), threading.Event(), {}
    refresh = games_service.round_refresh_status

    def pause_after(round_id):  # inside the hand's transaction, with the round's lock taken
        refresh(round_id)
        locked.set()
        assert go.wait(10)

    monkeypatch.setattr(games_service, "round_refresh_status", pause_after)

    def enter():
        try:
            results["hand"] = hand_enter(match_id=match.pk, data=summary("N", 37))[0]
        except Exception as exc:  # noqa: BLE001 - the assertion below shows it
            results["hand"] = exc
        finally:
            connections.close_all()

    def free(table, pk):
        """Whether another transaction could lock the row now."""
        try:
            with transaction.atomic(), connection.cursor() as c:
                c.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE NOWAIT", [pk])
            return True
        except OperationalError:  # LockNotAvailable
            return False

    thread = threading.Thread(target=enter)
    thread.start()
    try:
        assert locked.wait(10)
        rows = {"round": free("tournaments_round", match.round_id),
                "tournament": free("tournaments_tournament", match.round.tournament_id)}
    finally:
        go.set()
        thread.join(10)
    assert rows == {"round": False, "tournament": True}
    assert getattr(results["hand"], "number", results["hand"]) == 1
    assert Round.objects.get(pk=match.round_id).status == Round.Status.PLAYING

"""Issue #11, point 8: multipliers, scores, totals and points are 64-bit columns.

With ``tie_doubling=stack`` ten 30-30 ties in a row leave a pending factor of 2^10; a no-trump hand
(x2) with twenty doublings (x2^20) then needs a multiplier of 2^31, one past a 32-bit column. It is
stored and read back, through the hand, its game, its match and the standings.
"""

import pytest
from django.db import connection

from tests.factories import EntryFactory, MatchFactory, TournamentFactory
from tournaments.models import Game, Hand, Match, Standing
from tournaments.services.hands import hand_enter
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

TIES = 10
BIG = 2 ** 31


def summary(dealer, ns_points, *, trump="H", **extra):
    tricks = (4, 4) if ns_points == 30 else (5, 3)
    return {"dealer": dealer, "trump": trump, "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns_points, "ew": 60 - ns_points}, **extra}


def next_dealer(match) -> str:
    game = Game.objects.filter(match=match).order_by("-number").first()
    return (game.next_dealer if game else "") or "N"


def test_ten_stacked_ties_then_a_doubled_no_trump_store_a_multiplier_past_2_31():
    tournament = TournamentFactory(variant="belgian-manille", best_of=1, options={"tie_doubling": "stack"})
    match = MatchFactory(round__tournament=tournament)
    EntryFactory(tournament=tournament, team=match.ns)
    EntryFactory(tournament=tournament, team=match.ew)
    for _ in range(TIES):
        hand, _ = hand_enter(match=match, data=summary(next_dealer(match), 30))
    game = Game.objects.get(match=match)
    assert game.next_multiplier == 2 ** TIES and game.tie_pending

    hand, created = hand_enter(match=match, data=summary(next_dealer(match), 37, trump="none", doublings=20))
    assert created
    assert hand.multiplier == BIG
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.multiplier == BIG
    assert stored.score_ns == hand.score_ns == 7 * BIG and stored.total_ns == stored.score_ns  # 37 - 30 = 7
    assert Hand.history.filter(id=hand.pk).latest().multiplier == BIG  # the history table too
    game.refresh_from_db()
    assert game.total_ns == stored.total_ns and game.winner == "ns"
    match = Match.objects.get(pk=match.pk)
    assert match.points_ns == stored.total_ns and match.status == Match.Status.FINISHED

    standings_recompute(tournament=tournament)
    row = Standing.objects.get(tournament=tournament, team=match.ns)
    assert row.points_for == stored.total_ns
    assert Standing.objects.get(tournament=tournament, team=match.ew).points_against == stored.total_ns


def test_the_wide_columns_are_64_bit_in_the_database():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite integers are 64-bit whatever the declared type")
    columns = {("tournaments_hand", c) for c in ("multiplier", "score_ns", "score_ew", "total_ns", "total_ew")}
    columns |= {("tournaments_historicalhand", c) for c in ("multiplier", "total_ns")}
    columns |= {("tournaments_game", c) for c in ("next_multiplier", "total_ns", "total_ew")}
    columns |= {("tournaments_match", c) for c in ("points_ns", "points_ew")}
    columns |= {("tournaments_standing", c) for c in ("match_points", "points_for", "points_against")}
    with connection.cursor() as cursor:
        cursor.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = current_schema()")
        types = {(t, c): d for t, c, d in cursor.fetchall()}
    assert {key: types[key] for key in columns} == {key: "bigint" for key in columns}

"""A match's game points (``Match.points_ns``/``points_ew``) follow its hands through the services.

They are the sum of the match's games' totals, kept by ``match_refresh_result`` on every hand
entered, corrected or deleted; the standings read them instead of the games.
"""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import Sum

from tests.tournaments.test_hand_services import play_boam, summary
from tests.tournaments.test_rounds_service import make_tournament
from tournaments.models import Game, Hand, Match, Standing
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def games_sum(match):
    sums = Game.objects.filter(match=match).aggregate(ns=Sum("total_ns"), ew=Sum("total_ew"))
    return (sums["ns"] or 0, sums["ew"] or 0)


def points(match):
    match.refresh_from_db()
    return (match.points_ns, match.points_ew)


def test_points_follow_each_hand_entered(belgian_match):
    assert points(belgian_match) == (0, 0)
    hand_enter(match=belgian_match, data=summary("N", 37))
    assert points(belgian_match) == (7, 0) == games_sum(belgian_match)
    hand_enter(match=belgian_match, data=summary("E", 20))
    assert points(belgian_match) == (7, 10) == games_sum(belgian_match)


def test_points_add_up_over_the_games_of_a_finished_match(belgian_match):
    first = play_boam(belgian_match)
    second = play_boam(belgian_match, first_dealer_index=2)
    assert belgian_match.games.count() == 2
    assert points(belgian_match) == (first[-1].total_ns + second[-1].total_ns, 0) == games_sum(belgian_match)
    assert belgian_match.status == Match.Status.FINISHED


def test_points_follow_a_correction(belgian_match):
    first, _ = hand_enter(match=belgian_match, data=summary("N", 37))
    hand_enter(match=belgian_match, data=summary("E", 40))
    assert points(belgian_match) == (17, 0)
    hand_correct(hand=first, data={"points": {"ns": 20, "ew": 40}, "tricks": {"ns": 2, "ew": 6}})
    assert points(belgian_match) == (10, 10) == games_sum(belgian_match)


def test_points_follow_a_deletion_also_of_the_game_it_finished(belgian_match):
    boam = play_boam(belgian_match)
    hand_enter(match=belgian_match, data=summary("S", 37))  # game 2 starts
    total = boam[-1].total_ns
    assert points(belgian_match) == (total + 7, 0)
    hand_delete_last(hand=Hand.objects.get(game__match=belgian_match, game__number=2))
    assert points(belgian_match) == (total, 0) == games_sum(belgian_match)
    hand_delete_last(hand=boam[-1])  # game 1 re-opens: its last hand no longer counts
    assert points(belgian_match) == (boam[-2].total_ns, 0) == games_sum(belgian_match)


def test_standings_read_the_points_of_matches_played_through_the_services():
    tournament, _ = make_tournament(4, best_of=3)
    rnd = round_pair(tournament=tournament)
    for k, match in enumerate(rnd.matches.order_by("table")):
        play_boam(match, ns_points=45)
        hand_enter(match=match, data=summary("S", 20))  # one EW hand in game 2, so both sides score
        play_boam(match, first_dealer_index=3, ns_points=50 - k)
    standings_recompute(tournament=tournament)
    for match in rnd.matches.all():
        ns, ew = games_sum(match)
        assert ns and ew and points(match) == (ns, ew)
        row_ns = Standing.objects.get(tournament=tournament, team=match.ns_id)
        row_ew = Standing.objects.get(tournament=tournament, team=match.ew_id)
        assert (row_ns.points_for, row_ns.points_against) == (ns, ew)
        assert (row_ew.points_for, row_ew.points_against) == (ew, ns)


def test_the_migration_fills_the_points_of_existing_matches(belgian_match):
    play_boam(belgian_match)
    hand_enter(match=belgian_match, data=summary("S", 20))
    expected = games_sum(belgian_match)
    Match.objects.update(points_ns=0, points_ew=0)
    migration = importlib.import_module("tournaments.migrations.0004_match_points")
    migration.backfill(apps, SimpleNamespace(connection=connection))  # it only needs the editor's connection
    assert points(belgian_match) == expected and expected[0] > 0 and expected[1] > 0

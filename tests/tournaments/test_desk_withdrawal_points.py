"""A withdrawal mid-match under ``withdrawal_award`` "remaining": the hands played count as played, the game in
play and the games still needed go to the opponents at the target (their points as played in a game of a fixed
number of deals, which has none), through the one result function into the standings and the match page."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.test_hand_services import play_boam, summary
from tests.tournaments.test_rounds_service import make_tournament
from tournaments.models import Game, Standing, Tournament
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.hands import hand_enter
from tournaments.services.match_result import stopped_game_points
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def _result(match):
    match.refresh_from_db()
    return (match.status, match.winner, match.games_won_ns, match.games_won_ew, match.points_ns, match.points_ew,
            match.decided_by)


def _withdraw(match, side="ns"):
    return desk_action_take(tournament=match.round.tournament, match=match, kind="withdrawal", reason="left",
                            params={"side": side}).action


def _standing(tournament, team):
    standings_recompute(tournament=tournament)
    s = Standing.objects.get(tournament=tournament, team=team)
    return s.played, s.won, s.lost, s.games_won, s.games_lost, s.points_for, s.points_against


def test_the_opponents_points_for_the_stopped_game_are_the_target_or_more():
    assert stopped_game_points(10, 101) == 101
    assert stopped_game_points(120, 101) == 120
    assert stopped_game_points(10, 0) == 10  # a game of a fixed number of deals without forfeit points


def test_in_a_game_to_a_target_the_withdrawing_sides_hands_count_and_the_opponents_get_the_target():
    tournament, teams = make_tournament(2, best_of=3)
    match = round_pair(tournament=tournament).matches.get()
    play_boam(match)  # NS win game 1
    hand_enter(match=match, data=summary("S", 50))  # game 2 under way: NS 20, EW 0
    _withdraw(match, "ns")
    game1 = Game.objects.get(match=match, number=1)
    # Game 2 stopped: NS keep their 20, EW take it at 101; game 3 to EW at 101.
    assert _result(match) == ("finished", "ew", 1, 2, game1.total_ns + 20, game1.total_ew + 202, "withdrawal")
    ns, ew = (teams[0], teams[1]) if match.ns_id == teams[0].pk else (teams[1], teams[0])
    assert _standing(tournament, ns)[-2:] == (game1.total_ns + 20, game1.total_ew + 202)


def test_in_a_game_of_four_deals_the_opponents_win_it_with_the_points_as_played():
    """The walk-through's table: a withdrawal after two deals at 10-10 of a game of four deals."""
    tournament, teams = make_tournament(2, best_of=1, options={"deals": 4})
    match = round_pair(tournament=tournament).matches.get()
    hand_enter(match=match, data=summary("N", 40))  # NS 10
    hand_enter(match=match, data=summary("E", 20))  # EW 10
    assert Game.objects.get(match=match).status != "finished"
    action = _withdraw(match, "ew")
    assert action.params == {"side": "ew", "award": "remaining", "game_points": 0}
    assert _result(match) == ("finished", "ns", 1, 0, 10, 10, "withdrawal")
    ns = next(t for t in teams if t.pk == match.ns_id)
    ew = next(t for t in teams if t.pk == match.ew_id)
    assert _standing(tournament, ns) == (1, 1, 0, 1, 0, 10, 10)  # not 0-0: the deals played count
    assert _standing(tournament, ew) == (1, 0, 1, 0, 1, 10, 10)
    desk_action_revert(action=action, reason="back")
    assert _result(match)[:2] == ("playing", "")


def test_in_a_game_of_deals_the_events_forfeit_points_still_count_when_set():
    tournament, _ = make_tournament(2, best_of=3, options={"deals": 4}, forfeit_points=50)
    match = round_pair(tournament=tournament).matches.get()
    hand_enter(match=match, data=summary("N", 40))  # NS 10
    _withdraw(match, "ns")
    # Game 1 stopped: NS keep 10, EW take it at 50; game 2 (the second still needed) to EW at 50.
    assert _result(match) == ("finished", "ew", 0, 2, 10, 100, "withdrawal")


def test_the_match_page_draws_no_target_line_in_a_game_of_deals(client):
    tournament, _ = make_tournament(2, best_of=1, options={"deals": 4})
    match = round_pair(tournament=tournament).matches.get()
    hand_enter(match=match, data=summary("N", 40))
    hand_enter(match=match, data=summary("E", 20))
    _withdraw(match, "ew")
    html = client.get(reverse("web:match", args=[tournament.slug, match.pk])).content.decode()
    assert "<polyline" in html and 'class="guide"' not in html
    Tournament.objects.filter(pk=tournament.pk).update(options={})  # a game to 101: its line is drawn
    cache.clear()
    html = client.get(reverse("web:match", args=[tournament.slug, match.pk])).content.decode()
    assert 'class="guide"' in html

"""A knockout stage's match for third place, a level match decided by a tie-break game of extra deals or by a
director's decision (the winner goes on either way), and a stage's own match length reaching its matches."""

import pytest

from tests.factories import UserFactory
from tests.tournaments.test_hand_services import play_boam, summary
from tests.tournaments.test_rounds_service import finish, finish_round
from tests.tournaments.test_stages_close_start import by_seed, play_stage, pools_event
from tournaments.models import Game, Match, Round, Stage, Standing
from tournaments.services.desk import desk_action_take
from tournaments.services.games import match_lock, match_refresh_result
from tournaments.services.hands import hand_enter
from tournaments.services.results import match_result_changed
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start, stage_update
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def knockout_after_pools(n=16, pools=4, per_pool=2, **knockout):
    """Pools played by seed, closed, and a knockout of the first ``per_pool`` of each pool started."""
    tournament, teams, user = pools_event(n, pools)
    rounds = {8: 3, 4: 2}[pools * per_pool]
    stage_add(tournament=tournament, user=user, format="knockout", rounds=rounds,
              previous_qualification={"kind": "pools", "per_pool": per_pool, "best_next": 0}, **knockout)
    play_stage(tournament, 1, by_seed(teams))
    stage_close(tournament=tournament, number=1, user=user)
    stage = stage_start(tournament=tournament, number=2, user=user)
    return tournament, teams, user, stage


def test_the_semi_finals_losers_play_for_third_place_and_rank_third_and_fourth_by_it():
    tournament, teams, user, stage = knockout_after_pools(third_place=True)
    assert stage.third_place
    pick = by_seed(teams)
    finish_round(round_pair(tournament=tournament), pick)
    semis = Round.objects.get(stage=stage, number=2)
    first, second = semis.matches.order_by("table")
    finish(first, pick(first))
    assert not Round.objects.filter(stage=stage, number=3).exists()  # nobody goes on before both are decided
    finish(second, pick(second))
    final_round = Round.objects.get(stage=stage, number=3)
    final, third = final_round.matches.order_by("table")
    losers = [m.ew_id if pick(m) == "ns" else m.ns_id for m in (first, second)]
    assert (third.table, [third.ns_id, third.ew_id]) == (2, losers)
    assert third.why == [["knockout_third_place", {"round": 2}]]
    finish(final, pick(final))
    tournament.refresh_from_db()
    assert tournament.status == "running"  # the match for third place is still to play
    # The weaker seed wins the match for third place: it ranks third, the stronger fourth.
    underdog = "ew" if pick(third) == "ns" else "ns"
    finish(third, underdog)
    tournament.refresh_from_db()
    assert tournament.status == "running"  # its organizer closes the last stage, which finishes the event
    standings_recompute(tournament=tournament)
    rows = list(Standing.objects.filter(stage=stage).order_by("position").values_list("team_id", flat=True))
    champion = final.ns_id if pick(final) == "ns" else final.ew_id
    third_winner = third.ns_id if underdog == "ns" else third.ew_id
    third_loser = third.ew_id if underdog == "ns" else third.ns_id
    assert rows[0] == champion and rows[2:4] == [third_winner, third_loser]
    assert stage_close(tournament=tournament, number=2, user=user).status == "closed"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_without_third_place_the_final_round_has_the_final_alone():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2)
    pick = by_seed(teams)
    finish_round(round_pair(tournament=tournament), pick)
    assert Round.objects.get(stage=stage, number=2).matches.count() == 1


def drawn(match):
    """The match's one game drawn (a best of 1 left level), its result worked out as a hand would."""
    Game.objects.create(match=match, number=1, first_dealer="N", status="finished", total_ns=60, total_ew=60,
                        winner="draw")
    locked = match_lock(match.pk)
    match_refresh_result(locked)
    match_result_changed(match=locked)
    match.refresh_from_db()
    return match


def test_a_level_knockout_match_plays_a_tie_break_game_of_extra_deals_then_deal_by_deal_and_its_winner_goes_on():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, best_of=1, tiebreak_deals=2)
    r1 = round_pair(tournament=tournament)
    match, other = r1.matches.order_by("table")
    finish(other, "ns")
    match = drawn(match)
    assert (match.status, match.winner) == (Match.Status.PLAYING, "")  # level: not over, its tie-break is next
    assert not Round.objects.filter(stage=stage, number=2).exists()
    # Two deals, level after them (20 each): one more deal, which ew wins.
    hand_enter(match=match, data=summary("N", 50))
    game = Game.objects.get(match=match, number=2)
    assert game.tiebreak_deals == 2 and game.status == "playing"
    hand_enter(match=match, data=summary("E", 10))
    game.refresh_from_db()
    assert (game.status, game.total_ns, game.total_ew) == ("playing", 20, 20)
    hand, _ = hand_enter(match=match, data=summary("S", 20))  # ew's 40 score 10
    assert hand.game_winner == "ew"
    match.refresh_from_db()
    assert (match.status, match.winner, match.games_won_ns, match.games_won_ew) == ("finished", "ew", 0, 0)
    assert (match.points_ns, match.points_ew) == (60 + 20, 60 + 30)
    final = Round.objects.get(stage=stage, number=2).matches.get()
    assert (final.ns_id, final.ew_id) == (match.ew_id, other.ns_id)


def test_a_level_knockout_match_without_tie_break_deals_is_decided_by_a_director_and_its_winner_goes_on():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, best_of=1)
    r1 = round_pair(tournament=tournament)
    match, other = r1.matches.order_by("table")
    finish(other, "ns")
    match = drawn(match)
    assert (match.status, match.winner) == (Match.Status.FINISHED, Match.Winner.DRAW)
    assert not Round.objects.filter(stage=stage, number=2).exists()
    # The event's own format is pools: the decision is the knockout stage's.
    desk_action_take(tournament=tournament, match=match, kind="decision", reason="the draw for the seat",
                     user=UserFactory(), params={"winner": "ns"})
    match.refresh_from_db()
    assert (match.winner, match.decided_by) == ("ns", "decision")
    final = Round.objects.get(stage=stage, number=2).matches.get()
    assert (final.ns_id, final.ew_id) == (match.ns_id, other.ns_id)


def test_a_stage_plays_its_own_match_length_pools_best_of_1_then_a_knockout_best_of_3():
    tournament, teams, user = pools_event(8, 2)
    tournament.best_of = 1
    tournament.save()
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2, best_of=3,
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    pools_match = round_pair(tournament=tournament).matches.order_by("table").first()
    play_boam(pools_match)
    pools_match.refresh_from_db()
    assert (pools_match.status, pools_match.games_won_ns) == (Match.Status.FINISHED, 1)  # best of 1
    for m in pools_match.round.matches.exclude(pk=pools_match.pk):
        finish(m, "ns", games=(1, 0))
    play_stage(tournament, 1, by_seed(teams))
    stage_close(tournament=tournament, number=1, user=user)
    stage_start(tournament=tournament, number=2, user=user)
    match = round_pair(tournament=tournament).matches.order_by("table").first()
    play_boam(match)
    match.refresh_from_db()
    assert (match.status, match.games_won_ns, match.winner) == (Match.Status.PLAYING, 1, "")  # best of 3
    play_boam(match, first_dealer_index=1, ns_points=60)
    match.refresh_from_db()
    assert (match.status, match.games_won_ns, match.winner) == (Match.Status.FINISHED, 2, "ns")
    assert Stage.objects.get(tournament=tournament, number=1).best_of == 1


def test_a_stage_1_takes_third_place_and_tie_break_deals_but_not_the_tournaments_length():
    tournament, teams, user = pools_event(8, 2)
    stage = stage_update(tournament=tournament, number=1, user=user, third_place=True, tiebreak_deals=2)
    assert (stage.third_place, stage.tiebreak_deals) == (True, 2)

"""A stage's life from the event's draft to its end (the Roeselare walk-through): stage 1 pending while the event
is a draft, the last stage closed by its organizer as every stage before it (its closing finishes the event, a
knockout's final does not finish a multi-stage event on its own), a team withdrawing mid-knockout giving its next
opponent a walkover (never a bye), and a director deciding a level match of a stage with tie-break deals."""

import pytest

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.tournaments.test_hand_services import summary
from tests.tournaments.test_rounds_service import finish, finish_round
from tests.tournaments.test_stages_close_start import by_seed, pools_event
from tests.tournaments.test_stages_knockout_extras import drawn, knockout_after_pools
from tournaments.models import Entry, Game, Match, Round, Stage, Tournament
from tournaments.services.desk import desk_action_take
from tournaments.services.errors import Conflict
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start
from tournaments.services.tournaments import tournament_update

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def status(tournament, number):
    return Stage.objects.get(tournament=tournament, number=number).status


# -- 1. the last stage ends as the stages before it: closed by its organizer, which finishes the event -----------

def test_the_final_leaves_the_last_stage_to_its_organizer_whose_closing_finishes_the_event():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, third_place=True)
    pick = by_seed(teams)
    finish_round(round_pair(tournament=tournament), pick)
    finish_round(Round.objects.get(stage=stage, number=2), pick)  # the final and the match for third place
    assert Round.objects.get(stage=stage, number=2).matches.count() == 2
    tournament.refresh_from_db()
    # Nothing says the event is over while its last stage runs: the stage and the event agree.
    assert (tournament.status, status(tournament, 2)) == (Tournament.Status.RUNNING, Stage.Status.RUNNING)
    stage_close(tournament=tournament, number=2, user=user)
    tournament.refresh_from_db()
    assert (tournament.status, status(tournament, 2)) == (Tournament.Status.FINISHED, Stage.Status.CLOSED)


def test_finishing_the_event_by_hand_closes_its_played_last_stage_and_running_again_reopens_it():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2)
    pick = by_seed(teams)
    finish_round(round_pair(tournament=tournament), pick)
    finish_round(Round.objects.get(stage=stage, number=2), pick)
    tournament_update(tournament=tournament, user=user, status="finished")  # the dashboard's move
    assert (Tournament.objects.get(pk=tournament.pk).status, status(tournament, 2)) == ("finished", "closed")
    tournament_update(tournament=tournament, user=user, status="running")
    assert (Tournament.objects.get(pk=tournament.pk).status, status(tournament, 2)) == ("running", "running")


def test_a_one_stage_knockout_still_finishes_with_its_final():
    tournament = TournamentFactory(format=Tournament.Format.KNOCKOUT, rounds=2)
    for seed in range(1, 5):
        EntryFactory(tournament=tournament, seed=seed)
    finish_round(round_pair(tournament=tournament))
    finish_round(Round.objects.get(tournament=tournament, number=2))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


# -- 2. stage 1 follows the tournament: pending while it is a draft ----------------------------------------------

def test_stage_1_is_pending_while_the_tournament_is_a_draft_and_runs_once_it_starts():
    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    assert tournament.status == Tournament.Status.DRAFT
    assert [status(tournament, 1), status(tournament, 2)] == ["pending", "pending"]
    tournament_update(tournament=tournament, user=user, status="running")  # the dashboard's move
    assert status(tournament, 1) == "running"
    tournament_update(tournament=tournament, user=user, status="draft")  # back, before any round
    assert status(tournament, 1) == "pending"
    rnd = round_pair(tournament=tournament)  # the first pairing starts the event and its stage 1
    tournament.refresh_from_db()
    assert (rnd.stage.number, status(tournament, 1), tournament.status) == (1, "running", "running")


def test_starting_stage_1_starts_the_event_and_its_pools_are_drawn_at_its_first_pairing():
    tournament, teams, user = pools_event(8, 2)
    stage_start(tournament=tournament, number=1, user=user)
    tournament.refresh_from_db()
    assert (status(tournament, 1), tournament.status) == ("running", "running")
    rnd = round_pair(tournament=tournament)
    assert rnd.matches.count() == 4  # two pools of four


# -- 4. a withdrawal mid-knockout: a walkover, never a bye --------------------------------------------------------

def withdraw(tournament, team_id):
    entry = Entry.objects.get(tournament=tournament, team_id=team_id)
    desk_action_take(tournament=tournament, kind="withdrawal_event", reason="gone home", user=UserFactory(),
                     entry=entry)


def test_a_team_withdrawing_before_its_knockout_match_gives_its_opponent_a_walkover():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2)
    first = round_pair(tournament=tournament).matches.order_by("table").first()
    gone, opponent = first.ns_id, first.ew_id
    withdraw(tournament, gone)
    first.refresh_from_db()
    assert (first.ns_id, first.ew_id) == (gone, opponent)  # both still in the bracket: not a bye
    assert (first.status, first.winner) == (Match.Status.FINISHED, "ew")
    assert first.why[-1] == ["walkover_opponent_withdrew", {}]


def test_a_winner_withdrawing_before_its_next_match_is_made_gives_that_match_as_a_walkover():
    tournament, teams, user, stage = knockout_after_pools(n=16, pools=4)  # a knockout of 8
    pick = by_seed(teams)
    up, down, *rest = round_pair(tournament=tournament).matches.order_by("table")
    finish(up, pick(up))
    winner = up.ns_id if pick(up) == "ns" else up.ew_id
    withdraw(tournament, winner)  # its semi-final is not made yet: its sibling is still playing
    finish(down, pick(down))
    semi = Round.objects.get(stage=stage, number=2).matches.get(table=1)
    other = down.ns_id if pick(down) == "ns" else down.ew_id
    assert (semi.ns_id, semi.ew_id) == (winner, other)
    assert (semi.status, semi.winner, semi.why[-1]) == ("finished", "ew", ["walkover_opponent_withdrew", {}])
    assert not semi.games.exists()
    for m in rest:
        finish(m, pick(m))
    second = Round.objects.get(stage=stage, number=2).matches.get(table=2)
    finish(second, pick(second))
    final = Round.objects.get(stage=stage, number=3).matches.get(table=1)
    assert final.ns_id == other  # the walkover's winner went on


# -- 5. a director decides a level match of a stage with tie-break deals ------------------------------------------

def test_a_director_decides_a_level_match_whose_tie_break_game_cannot_be_played():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, best_of=1, tiebreak_deals=2)
    match, other = round_pair(tournament=tournament).matches.order_by("table")[:2]
    finish(other, "ns")
    match = drawn(match)
    assert match.status == Match.Status.PLAYING  # level: its tie-break game is next
    desk_action_take(tournament=tournament, match=match, kind="decision", reason="the hall closes",
                     user=UserFactory(), params={"winner": "ew"})
    match.refresh_from_db()
    assert (match.status, match.winner, match.decided_by) == ("finished", "ew", "decision")
    semi = Round.objects.get(stage=stage, number=2).matches.get(table=1)
    assert (semi.ns_id, semi.ew_id) == (match.ew_id, other.ns_id)


def test_a_director_decides_a_level_match_during_its_tie_break_game():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, best_of=1, tiebreak_deals=2)
    match = drawn(round_pair(tournament=tournament).matches.order_by("table").first())
    hand_enter(match=match, data=summary("N", 50))  # the tie-break game has begun
    assert Game.objects.get(match=match, number=2).tiebreak_deals == 2
    desk_action_take(tournament=tournament, match=match, kind="decision", reason="the hall closes",
                     user=UserFactory(), params={"winner": "ns"})
    match.refresh_from_db()
    assert (match.status, match.winner, match.decided_by) == ("finished", "ns", "decision")


def test_a_match_not_level_is_not_the_directors_to_decide():
    tournament, teams, user, stage = knockout_after_pools(n=8, pools=2, best_of=1, tiebreak_deals=2)
    match = round_pair(tournament=tournament).matches.order_by("table").first()
    with pytest.raises(Conflict) as refused:
        desk_action_take(tournament=tournament, match=match, kind="decision", reason="why not",
                         user=UserFactory(), params={"winner": "ns"})
    assert refused.value.code == "match_not_drawn"

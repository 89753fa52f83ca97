"""The round's clock ended early by mistake (issue 28, tournaments/services/clock.py): the end keeps the time the
clock still had; a director reopens the tables it finished (the clock runs again with that time, their results
no longer counted, their confirmation waiting again) or keeps them as they stood; either is a director's action
with its reason, which is not reverted like the others."""

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, UserFactory
from tests.tournaments.test_individual_services import _boam, _team_match
from tournaments.models import DirectorAction, Match, ResultEvent, Round, Standing
from tournaments.services.clock import (
    round_clock_end, round_clock_extend, round_clock_keep, round_clock_pause, round_clock_reopen, round_clock_start,
)
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    match = _team_match(match_length="timed", minutes=30, confirmation="opponents")
    for team in (match.ns, match.ew):
        EntryFactory(tournament=match.round.tournament, team=team)
    round_clock_start(round=match.round)
    _boam(match, 50)  # a game won; the clock then ended early, by mistake
    round_clock_end(round=match.round)
    match.refresh_from_db()
    return match


def test_ending_the_clock_keeps_what_it_had_and_reopening_gives_it_back(played):
    rnd = Round.objects.get(pk=played.round_id)
    assert (played.status, played.result_status) == ("finished", "entered")
    assert 29 * 60 < rnd.clock_cut_left <= 30 * 60
    director = UserFactory()
    standings_recompute(tournament=rnd.tournament)
    assert Standing.objects.get(team=played.ns).won == 1
    action = round_clock_reopen(round=rnd, reason="ended the wrong round", user=director)
    rnd.refresh_from_db()
    left = (rnd.clock_ends_at - timezone.now()).total_seconds()
    assert 29 * 60 - 5 < left <= 30 * 60 and rnd.clock_cut_left is None and rnd.clock_paused_left is None
    played.refresh_from_db()
    assert (played.status, played.winner, played.result_status) == ("playing", "", "")
    step = played.result_events.order_by("-pk").first()
    assert (step.kind, step.reason, step.user) == (ResultEvent.Kind.REOPENED, "ended the wrong round", director)
    assert (action.kind, action.round_id, action.actor, action.reason) == (
        "clock_reopened", rnd.pk, director, "ended the wrong round")
    assert action.params["tables"] == [1] and action.params["seconds"] > 29 * 60
    standings_recompute(tournament=rnd.tournament)
    assert Standing.objects.get(team=played.ns).won == 0  # no longer counted
    with pytest.raises(Conflict) as twice:
        round_clock_reopen(round=rnd, reason="again")
    assert twice.value.code == "clock_not_cut"
    with pytest.raises(Conflict) as final:
        desk_action_revert(action=action, reason="no")
    assert final.value.code == "clock_action_final"


def test_keeping_the_results_records_it_and_closes_the_offer(played):
    rnd = Round.objects.get(pk=played.round_id)
    with pytest.raises(ServiceError) as why:
        round_clock_keep(round=rnd, reason="  ")
    assert why.value.code == "reason_missing"
    action = round_clock_keep(round=rnd, reason="they had all finished anyway")
    rnd.refresh_from_db()
    played.refresh_from_db()
    assert rnd.clock_cut_left is None and played.status == "finished" and played.result_status == "entered"
    assert (action.kind, action.params["round"]) == ("clock_kept", 1) and action.params["seconds"] > 29 * 60
    with pytest.raises(Conflict):
        round_clock_reopen(round=rnd, reason="changed my mind")


def test_a_clock_paused_then_ended_gives_back_its_paused_time_and_new_time_closes_the_offer():
    match = _team_match(match_length="timed", minutes=30)
    round_clock_start(round=match.round, minutes=20)
    round_clock_pause(round=match.round)
    Round.objects.filter(pk=match.round_id).update(clock_paused_left=600)
    round_clock_end(round=match.round)
    rnd = Round.objects.get(pk=match.round_id)
    assert rnd.clock_cut_left == 600
    round_clock_extend(round=rnd, minutes=5)
    rnd.refresh_from_db()
    assert rnd.clock_cut_left is None  # the new time replaces it
    with pytest.raises(Conflict):
        round_clock_keep(round=rnd, reason="late")


def test_a_table_a_director_decided_stays_and_the_desk_takes_no_clock_kind(played):
    rnd = Round.objects.get(pk=played.round_id)
    other = Match.objects.create(round=rnd, table=2, ns=EntryFactory(tournament=rnd.tournament).team,
                                 ew=EntryFactory(tournament=rnd.tournament).team)
    desk_action_take(tournament=rnd.tournament, match=other, kind="forfeit", reason="no-show",
                     params={"absent": "ew"})
    action = round_clock_reopen(round=rnd, reason="mistake")
    other.refresh_from_db()
    assert other.status == "finished" and action.params["tables"] == [1]
    with pytest.raises(ServiceError) as refused:
        desk_action_take(tournament=rnd.tournament, kind="clock_kept", reason="x")
    assert refused.value.code == "action_params"
    assert DirectorAction.objects.filter(kind__in=DirectorAction.ROUND_KINDS).count() == 1

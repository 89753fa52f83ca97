"""Stages in the core domain (issue 27, first slice): every event's stage 1 mirrors the tournament, the next
stages are added by the organizer and checked with the whole plan, the tournament's format, rounds and match
length become read-only with a second stage, and rounds are paired in the running stage, numbered per stage."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import EntryFactory, PlayerFactory, RoundFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments import refusals
from tournaments.models import Round, Stage, Tournament
from tournaments.services.errors import Conflict, InvalidFields, ServiceError
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_running
from tournaments.services.tournaments import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def event(n, fmt=Tournament.Format.SWISS, **kwargs):
    tournament = TournamentFactory(format=fmt, **kwargs)
    for seed in range(1, n + 1):
        EntryFactory(tournament=tournament, team=TeamFactory(), seed=seed)
    return tournament


def test_a_new_event_has_stage_one_pending_while_a_draft_that_follows_the_tournament():
    user = UserFactory()
    tournament = tournament_create(user=user, name="Gentse Beker", variant="belgian-manille", format="round_robin",
                                   rounds=3, match_length="timed", minutes=40, at_time="stop")
    stage = Stage.objects.get(tournament=tournament)
    assert (stage.number, stage.status, stage.format, stage.rounds) == (1, "pending", "round_robin", 3)
    assert (stage.match_length, stage.minutes, stage.at_time, stage.qualification) == ("timed", 40, "stop", None)
    tournament_update(tournament=tournament, user=user, format="swiss", rounds=6, match_length="best_of")
    stage.refresh_from_db()
    assert (stage.format, stage.rounds, stage.match_length) == ("swiss", 6, "best_of")
    tournament_update(tournament=tournament, user=user, name="Beker van Gent")
    assert Stage.objects.filter(tournament=tournament).count() == 1
    tournament_update(tournament=tournament, user=user, status="running")
    stage.refresh_from_db()
    assert stage.status == "running"


def test_stage_add_plans_pools_then_a_knockout():
    tournament = event(16)
    user = UserFactory()
    stage = stage_add(tournament=tournament, user=user, format="knockout", rounds=3, best_of=3,
                      previous_qualification={"kind": "top", "count": 8})
    assert (stage.number, stage.status, stage.format, stage.rounds, stage.best_of) == (2, "pending", "knockout", 3, 3)
    first = Stage.objects.get(tournament=tournament, number=1)
    assert first.qualification == {"kind": "top", "count": 8, "per_pool": 0, "best_next": 0, "carry": []}
    assert stage.qualification is None
    third = stage_add(tournament=tournament, user=user, format="knockout", rounds=1,
                      previous_qualification={"kind": "top", "count": 2})
    assert third.number == 3 and Stage.objects.get(pk=stage.pk).rule_count == 2


@pytest.mark.parametrize("fields, code, reason", [
    ({"format": "tables"}, "format_for_entry", None),
    ({"format": "pools", "pools": 6}, "pool_count", None),
    ({"format": "knockout", "rounds": 3, "previous_qualification": {"kind": "top", "count": 10}},
     "stage_capacity", "above"),
    ({"format": "knockout", "rounds": 4, "previous_qualification": {"kind": "top", "count": 8}},
     "stage_capacity", "below"),
    ({"format": "swiss", "rounds": 3, "previous_qualification": {"kind": "top", "count": 11}},
     "qualification_invalid", "count"),
    ({"format": "swiss", "rounds": 3, "previous_qualification": {"kind": "pools", "per_pool": 1}},
     "qualification_invalid", "format"),
    ({"format": "swiss", "rounds": 3, "previous_qualification": {"kind": "top", "count": 4, "carry": ["luck"]}},
     "carry_over_invalid", "part"),
    ({"format": "knockout", "rounds": 2, "previous_qualification": {"kind": "top", "count": 4,
                                                                    "carry": ["match_points"]}},
     "carry_over_invalid", "knockout"),
])
def test_stage_add_refuses_what_does_not_fit(fields, code, reason):
    tournament = event(10)
    fields = {"previous_qualification": {"kind": "all"}, **fields}
    with pytest.raises(ServiceError) as refused:
        stage_add(tournament=tournament, user=UserFactory(), **fields)
    assert refused.value.code == code and refused.value.status == 400
    assert refused.value.params.get("reason") == reason
    assert refusals.words(code, refused.value.params)
    assert Stage.objects.filter(tournament=tournament).count() == 1
    assert not Stage.objects.get(tournament=tournament).rule


def test_stage_add_needs_the_rule_into_it_and_a_whole_match_length():
    tournament = event(8)
    with pytest.raises(ServiceError) as refused:
        stage_add(tournament=tournament, user=UserFactory(), format="swiss", rounds=2)
    assert (refused.value.code, refused.value.params["reason"]) == ("qualification_invalid", "missing")
    with pytest.raises(InvalidFields) as refused:
        stage_add(tournament=tournament, user=UserFactory(), format="swiss", rounds=2, match_length="timed",
                  previous_qualification={"kind": "all"})
    assert refused.value.errors == [("match_length_incomplete", "minutes", {"field": "minutes"})]
    with pytest.raises(ServiceError) as refused:
        stage_add(tournament=tournament, user=UserFactory(), format="swiss", colour="red",
                  previous_qualification={"kind": "all"})
    assert refused.value.code == "unknown_field"


def test_an_individual_event_plans_tables_then_a_final_table():
    tournament = TournamentFactory(entry="individual", format="tables", rounds=3)
    for number in range(1, 17):
        EntryFactory(tournament=tournament, team=None, player=PlayerFactory(), start_number=number)
    final = stage_add(tournament=tournament, user=UserFactory(), format="tables", rounds=3,
                      previous_qualification={"kind": "table_winners"})
    assert final.number == 2
    with pytest.raises(ServiceError) as refused:
        stage_add(tournament=tournament, user=UserFactory(), format="round_robin",
                  previous_qualification={"kind": "all"})
    assert refused.value.code == "format_for_entry"


def test_a_second_stage_makes_the_tournaments_shape_read_only():
    tournament, user = event(8), UserFactory()
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "top", "count": 4})
    for field, value in [("format", "round_robin"), ("rounds", 3), ("best_of", 5), ("match_length", "games"),
                         ("minutes", 30), ("at_time", "stop"), ("match_games", 2)]:
        with pytest.raises(Conflict) as refused:
            tournament_update(tournament=tournament, user=user, **{field: value})
        assert (refused.value.code, refused.value.field, refused.value.status) == ("multi_stage", field, 409)
        assert refused.value.params == {"fields": [field]}
        assert field in refusals.words("multi_stage", refused.value.params)
    assert tournament_update(tournament=tournament, user=user, name="Renamed", rounds=tournament.rounds).name == "Renamed"


def test_rounds_are_paired_in_the_running_stage_and_numbered_per_stage():
    tournament = event(4)
    first = round_pair(tournament=tournament)
    stage = Stage.objects.get(tournament=tournament, number=1)
    assert (first.stage, first.number) == (stage, 1)
    later = Stage.objects.create(tournament=tournament, number=2, format="swiss", rounds=2)
    own = Round.objects.create(tournament=tournament, stage=later, number=1)  # numbers count per stage
    assert own.number == first.number
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, stage=stage, number=1)
    assert stage_running(tournament) == stage
    Stage.objects.filter(pk=stage.pk).update(status=Stage.Status.CLOSED)
    with pytest.raises(Conflict) as refused:
        round_pair(tournament=tournament, force=True)
    assert (refused.value.code, refused.value.status) == ("stage_not_running", 409)


def test_a_round_made_without_its_stage_joins_the_running_one():
    tournament = event(2)
    assert RoundFactory(tournament=tournament, number=1).stage.number == 1
    Stage.objects.filter(tournament=tournament).update(status=Stage.Status.CLOSED)
    running = Stage.objects.create(tournament=tournament, number=2, format="swiss", status=Stage.Status.RUNNING)
    assert Round.objects.create(tournament=tournament, number=1).stage == running

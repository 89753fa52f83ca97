"""Closing a stage, starting the next, reopening (issue 27, core slice): the qualifiers stored with their seeds,
pools drawn in a serpentine, the bracket with pool-mates apart, pairing scoped to the running stage, standings per
stage, and the refusals (``stage_status``, ``stage_previous_open``, ``stage_unplayed``, ``round_unfinished``,
``stage_closed``, ``stage_reopen_refused``)."""

import pytest

from tests.factories import ClubFactory, EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.tournaments.test_rounds_service import finish, finish_round
from tournaments.models import Match, Round, Stage, StageEntrant, Standing, Tournament
from tournaments.services.errors import Conflict
from tournaments.services.rounds import match_pairing_change, round_pair
from tournaments.services.stages import (
    stage_add,
    stage_close,
    stage_place_entrant,
    stage_reopen,
    stage_start,
    stage_update,
)
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def pools_event(n=16, pools=4, clubs=None):
    tournament = TournamentFactory(format=Tournament.Format.POOLS, rounds=3)
    club_list = [ClubFactory() for _ in range(clubs)] if clubs else None
    teams = []
    for seed in range(1, n + 1):
        team = TeamFactory(club=club_list[seed % clubs]) if club_list else TeamFactory()
        EntryFactory(tournament=tournament, team=team, seed=seed)
        teams.append(team)
    user = UserFactory()
    stage_update(tournament=tournament, number=1, user=user, pools=pools)
    return tournament, teams, user


def by_seed(teams):
    """The stronger seed wins."""
    rank = {t.pk: i for i, t in enumerate(teams)}
    return lambda m: "ns" if rank[m.ns_id] < rank[m.ew_id] else "ew"


def play_stage(tournament, stage_number, pick):
    while True:
        try:
            rnd = round_pair(tournament=tournament)
        except Exception as exc:  # the stage's rounds are over
            assert getattr(exc, "code", None) == "tournament_over", exc
            return
        assert rnd.stage.number == stage_number
        finish_round(rnd, pick)


def test_pools_then_a_knockout_closed_started_and_played_to_the_final():
    tournament, teams, user = pools_event(16, 4, clubs=4)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=3,
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    pick = by_seed(teams)
    r1 = round_pair(tournament=tournament)
    pools = dict(StageEntrant.objects.filter(stage__number=1, stage__tournament=tournament).values_list(
        "entry__team_id", "pool"))
    assert sorted(pools.values()) == sorted([1, 2, 3, 4] * 4)
    # serpentine: the 4 best seeds in 4 different pools
    assert len({pools[t.pk] for t in teams[:4]}) == 4
    # a round robin inside each pool, tables numbered across the pools
    assert [m.table for m in r1.matches.order_by("table")] == list(range(1, 9))
    assert all(pools[m.ns_id] == pools[m.ew_id] for m in r1.matches.all())
    with pytest.raises(Conflict) as refused:
        stage_start(tournament=tournament, number=2, user=user)
    assert refused.value.code == "stage_status" or refused.value.code == "stage_previous_open"
    with pytest.raises(Conflict) as refused:
        stage_close(tournament=tournament, number=1, user=user)
    assert refused.value.code == "round_unfinished"
    finish_round(r1, pick)
    play_stage(tournament, 1, pick)
    assert Round.objects.filter(stage__number=1, tournament=tournament).count() == 3
    standings_recompute(tournament=tournament)
    rows = list(Standing.objects.filter(tournament=tournament).order_by("position"))
    assert {r.pool for r in rows} == {1, 2, 3, 4} and all(r.pool_rank for r in rows)
    stage = stage_close(tournament=tournament, number=1, user=user)
    assert stage.status == "closed" and stage.log[-1]["action"] == "closed"
    entrants = list(StageEntrant.objects.filter(stage__number=2, stage__tournament=tournament).order_by("seed"))
    assert len(entrants) == 8 and [e.seed for e in entrants] == list(range(1, 9))
    assert {e.how for e in entrants} == {"pool_place"} and all(e.from_pool for e in entrants)
    # the pool winners first (seeds 1-4), then the runners-up
    assert {e.place for e in entrants[:4]} == {1} and {e.place for e in entrants[4:]} == {2}
    with pytest.raises(Conflict) as refused:
        round_pair(tournament=tournament)
    assert refused.value.code == "stage_not_running"
    knockout = stage_start(tournament=tournament, number=2, user=user)
    assert knockout.status == "running" and knockout.draw["kind"] == "bracket" and knockout.seed
    assert knockout.draw["conflicts"] == []
    r1 = round_pair(tournament=tournament)
    assert (r1.number, r1.stage.number) == (1, 2)
    assert r1.matches.count() == 4
    fpool = {e.entry.team_id: e.from_pool for e in entrants}
    assert all(fpool[m.ns_id] != fpool[m.ew_id] for m in r1.matches.all())  # pool-mates apart
    finish_round(r1, pick)
    r2 = Round.objects.get(stage=knockout, number=2)  # a knockout round fills in as the one before finishes
    finish_round(r2, pick)
    r3 = Round.objects.get(stage=knockout, number=3)
    assert r3.matches.count() == 1
    finish_round(r3, pick)
    tournament.refresh_from_db()
    assert tournament.status == "running"  # the last stage is closed by its organizer, which finishes the event
    standings_recompute(tournament=tournament)
    ko_rows = list(Standing.objects.filter(stage=knockout).order_by("position"))
    assert len(ko_rows) == 8 and ko_rows[0].team_id == r3.matches.get().ns_id if pick(r3.matches.get()) == "ns" \
        else ko_rows[0].team_id == r3.matches.get().ew_id
    assert Standing.objects.filter(stage__number=1, tournament=tournament).count() == 16
    closed = stage_close(tournament=tournament, number=2, user=user)
    assert closed.status == "closed"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_a_closed_stage_refuses_changes_until_reopened_and_reopening_is_refused_after_the_next_has_results():
    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2})
    pick = by_seed(teams)
    play_stage(tournament, 1, pick)
    with pytest.raises(Conflict) as refused:
        stage_reopen(tournament=tournament, number=1, user=user)
    assert refused.value.code == "stage_status"
    stage_close(tournament=tournament, number=1, user=user)
    match = Match.objects.filter(round__stage__number=1, round__tournament=tournament).exclude(ew=None).first()
    with pytest.raises(Conflict) as refused:
        match_pairing_change(match=match, ns=match.ew, ew=match.ns, user=user)
    assert refused.value.code == "stage_closed"
    stage_start(tournament=tournament, number=2, user=user)
    first_draw = Stage.objects.get(tournament=tournament, number=2).draw
    reopened = stage_reopen(tournament=tournament, number=1, user=user)
    assert reopened.status == "running" and reopened.log[-1]["action"] == "reopened"
    again = stage_close(tournament=tournament, number=1, user=user)
    assert again.status == "closed"
    nxt = Stage.objects.get(tournament=tournament, number=2)
    assert nxt.draws_before == [first_draw] and nxt.draw["seed"] != first_draw["seed"]
    rnd = round_pair(tournament=tournament)
    finish(rnd.matches.order_by("table").first(), "ns")
    with pytest.raises(Conflict) as refused:
        stage_reopen(tournament=tournament, number=1, user=user)
    assert refused.value.code == "stage_reopen_refused"


def test_stage_unplayed_and_place_by_hand():
    tournament, teams, user = pools_event(8, 2)
    with pytest.raises(Conflict) as refused:  # a draft's stage 1 has not started
        stage_close(tournament=tournament, number=1, user=user)
    assert refused.value.code == "stage_status"
    stage_start(tournament=tournament, number=1, user=user)  # the event starts
    with pytest.raises(Conflict) as refused:
        stage_close(tournament=tournament, number=1, user=user)
    assert refused.value.code == "stage_unplayed"
    stage_add(tournament=tournament, user=user, format="swiss", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 1})
    play_stage(tournament, 1, by_seed(teams))
    stage_close(tournament=tournament, number=1, user=user)
    entry = tournament.entries.get(team=teams[-1])
    placed = stage_place_entrant(tournament=tournament, number=2, entry=entry, user=user, seed=1)
    assert placed.placed_by_hand and placed.placed_by == user and placed.seed == 1
    seeds = list(StageEntrant.objects.filter(stage=placed.stage).order_by("seed").values_list("seed", flat=True))
    assert seeds == [1, 2, 3]
    assert Stage.objects.get(pk=placed.stage_id).log[-1]["action"] == "placed"
    with pytest.raises(Conflict) as refused:
        stage_place_entrant(tournament=tournament, number=2, entry=entry, user=user)
    assert refused.value.code == "already_entered"


def test_a_stage_with_a_round_not_published_does_not_close_until_it_is():
    """The cut ranks the rounds everyone sees: a round played before its publication is published first."""
    from tournaments.services.publication import round_publish

    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2, "best_next": 0})
    stage_start(tournament=tournament, number=1, user=user)
    Tournament.objects.filter(pk=tournament.pk).update(auto_publish=False)  # the organizer publishes each round
    tournament.refresh_from_db()
    play_stage(tournament, 1, by_seed(teams))
    hidden = list(Round.objects.filter(stage__number=1, stage__tournament=tournament, published_at__isnull=True)
                  .order_by("number"))
    assert hidden, "the rounds paired after auto_publish was turned off wait for their publication"
    with pytest.raises(Conflict) as refused:
        stage_close(tournament=tournament, number=1, user=user)
    assert refused.value.code == "stage_round_unpublished"
    assert refused.value.params == {"stage": 1, "round": hidden[0].number}
    assert Stage.objects.get(tournament=tournament, number=1).status == Stage.Status.RUNNING
    for rnd in hidden:
        round_publish(round=rnd, user=user)
    assert stage_close(tournament=tournament, number=1, user=user).status == Stage.Status.CLOSED


def test_a_swiss_then_a_top_cut_to_a_round_robin_with_carry_over():
    tournament = TournamentFactory(format=Tournament.Format.SWISS, rounds=2)
    teams = [TeamFactory() for _ in range(8)]
    for seed, team in enumerate(teams, start=1):
        EntryFactory(tournament=tournament, team=team, seed=seed)
    user = UserFactory()
    stage_add(tournament=tournament, user=user, format="round_robin", rounds=3,
              previous_qualification={"kind": "top", "count": 4, "carry": ["match_points"]})
    play_stage(tournament, 1, by_seed(teams))
    standings_recompute(tournament=tournament)
    top = list(Standing.objects.filter(tournament=tournament, stage__number=1).order_by("position"))[:4]
    stage_close(tournament=tournament, number=1, user=user)
    entrants = list(StageEntrant.objects.filter(stage__number=2, stage__tournament=tournament).order_by("seed"))
    assert [e.entry.team_id for e in entrants] == [r.team_id for r in top]
    assert [e.carried["match_points"] for e in entrants] == [r.match_points for r in top]
    stage_start(tournament=tournament, number=2, user=user)
    rnd = round_pair(tournament=tournament)
    assert {m.ns_id for m in rnd.matches.all()} | {m.ew_id for m in rnd.matches.all()} == {r.team_id for r in top}
    standings_recompute(tournament=tournament)
    second = {s.team_id: s for s in Standing.objects.filter(stage__number=2, tournament=tournament)}
    assert {t: s.match_points for t, s in second.items()} == {r.team_id: r.match_points for r in top}

"""Migration 0019 gives the standings a stage (issue 27): every saved row belongs to its event's stage 1, and the
standings' change triggers keep working after the table's rebuild; backwards, a later stage's rows go and one row
a team remains. Tested on made rows and on a copy of the demo (on SQLite and on PostgreSQL, as the suite runs)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.tournaments.test_migration_0017 import one_stage_demo

BEFORE = [("tournaments", "0018_round_stage_required")]
AFTER = [("tournaments", "0019_stage_standings")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def rows(apps):
    return sorted(apps.get_model("tournaments", "Standing").objects.values_list("id", "tournament_id", "team_id",
                                                                               "rank"))


@pytest.mark.django_db(transaction=True)
def test_saved_rows_go_to_stage_one_and_the_triggers_still_fire():
    apps = migrate(BEFORE)
    try:
        Tournament, Team = apps.get_model("tournaments", "Tournament"), apps.get_model("tournaments", "Team")
        Stage, Standing = apps.get_model("tournaments", "Stage"), apps.get_model("tournaments", "Standing")
        Club = apps.get_model("tournaments", "Club")
        club = Club.objects.create(name="Roeselare")
        Player = apps.get_model("tournaments", "Player")
        events = []
        for slug in ("a", "b"):
            t = Tournament.objects.create(slug=slug, name=slug, variant="belgian-manille", format="swiss", rounds=3)
            Stage.objects.create(tournament=t, number=1, format="swiss", rounds=3, status="running")
            events.append(t)
        for rank, t in enumerate(events * 2, start=1):
            team = Team.objects.create(name=f"T{rank}", club=club,
                                       player_1=Player.objects.create(name=f"P{rank}a", club=club),
                                       player_2=Player.objects.create(name=f"P{rank}b", club=club))
            Standing.objects.create(tournament=t, team=team, rank=rank, position=rank, computed_at=timezone.now())
        before = rows(apps)

        apps = migrate(AFTER)
        Standing, Stage = apps.get_model("tournaments", "Standing"), apps.get_model("tournaments", "Stage")
        assert rows(apps) == before
        for s in Standing.objects.all():
            assert (s.stage.tournament_id, s.stage.number, s.pool, s.pool_rank) == (s.tournament_id, 1, None, None)
        # The rows' trigger (0005's) empties the snapshot's generation still.
        Snapshot = apps.get_model("tournaments", "StandingsSnapshot")
        snap = Snapshot.objects.create(tournament_id=events[0].pk, computed_at=timezone.now(), generation="g")
        Standing.objects.filter(tournament_id=events[0].pk).update(rank=9)
        snap.refresh_from_db()
        assert snap.generation == ""
        # And a changed entry is recorded for the next recompute (0014's trigger, made again).
        Change = apps.get_model("tournaments", "StandingsChange")
        Change.objects.all().delete()
        Entry = apps.get_model("tournaments", "Entry")
        Entry.objects.create(tournament_id=events[1].pk, team_id=Team.objects.first().pk)
        assert Change.objects.filter(tournament_id=events[1].pk, match_id=None).exists()
        # A second stage's rows: gone backwards.
        second = Stage.objects.create(tournament_id=events[0].pk, number=2, format="knockout", rounds=1)
        one = Standing.objects.filter(tournament_id=events[0].pk).first()
        Standing.objects.create(tournament_id=events[0].pk, stage=second, team_id=one.team_id, rank=1, position=1,
                                computed_at=timezone.now())

        apps = migrate(BEFORE)
        assert [r[:3] for r in rows(apps)] == [r[:3] for r in before]
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_demo_goes_back_and_forth():
    call_command("load_demo", stdout=StringIO())
    one_stage_demo()  # the demo's event of several stages cannot go back before stages existed
    from tournaments.models import Standing
    from tournaments.services.standings import standings_recompute
    from tournaments.models import Tournament

    for t in Tournament.objects.all():
        standings_recompute(tournament=t)
    try:
        before = sorted(Standing.objects.values_list("id", "tournament_id", "team_id", "player_id", "rank"))
        assert before
        apps = migrate(BEFORE)
        assert sorted(apps.get_model("tournaments", "Standing").objects.values_list(
            "id", "tournament_id", "team_id", "player_id", "rank")) == before
        apps = migrate(AFTER)
        Standing = apps.get_model("tournaments", "Standing")
        assert sorted(Standing.objects.values_list("id", "tournament_id", "team_id", "player_id", "rank")) == before
        assert not Standing.objects.exclude(stage__number=1).exists()
        assert all(s.stage.tournament_id == s.tournament_id for s in Standing.objects.select_related("stage"))
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

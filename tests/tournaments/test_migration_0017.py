"""Migrations 0016-0018 make every event of today a one-stage event (issue 27): stage 1 mirrors the
tournament's format, rounds and match length, runs, and holds its rounds with their numbers; backwards, the
rounds leave their stage and the table goes. Tested on made rows and on a copy of the demo."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0015_volunteers_keep_players_apart")]
AFTER = [("tournaments", "0018_round_stage_required")]
MIRRORED = ("format", "rounds", "best_of", "match_length", "match_games", "minutes", "at_time")


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def round_rows(apps):
    return sorted(apps.get_model("tournaments", "Round").objects.values_list("id", "tournament_id", "number"))


@pytest.mark.django_db(transaction=True)
def test_every_event_gets_one_running_stage_that_holds_its_rounds():
    apps = migrate(BEFORE)
    try:
        Tournament, Round = apps.get_model("tournaments", "Tournament"), apps.get_model("tournaments", "Round")
        swiss = Tournament.objects.create(slug="a", name="A", variant="belgian-manille", format="swiss", rounds=7,
                                          best_of=3)
        timed = Tournament.objects.create(slug="b", name="B", variant="belgian-manille", format="round_robin",
                                          rounds=3, match_length="timed", minutes=45, at_time="stop")
        games = Tournament.objects.create(slug="c", name="C", variant="belgian-manille", entry="individual",
                                          format="tables", rounds=6, match_length="games", match_games=4)
        for number in (1, 2, 3):
            Round.objects.create(tournament=swiss, number=number)
        Round.objects.create(tournament=timed, number=1)
        before = round_rows(apps)

        apps = migrate(AFTER)
        Stage, Round = apps.get_model("tournaments", "Stage"), apps.get_model("tournaments", "Round")
        assert Stage.objects.count() == 3
        for tournament in apps.get_model("tournaments", "Tournament").objects.all():
            stage = Stage.objects.get(tournament=tournament)
            assert (stage.number, stage.status, stage.rule, stage.pools) == (1, "running", "", 0)
            assert {f: getattr(stage, f) for f in MIRRORED} == {f: getattr(tournament, f) for f in MIRRORED}
        assert round_rows(apps) == before  # the same rounds, numbers and tournaments
        assert all(r.stage.tournament_id == r.tournament_id for r in Round.objects.select_related("stage"))
        assert Round.objects.filter(stage__tournament_id=games.pk).count() == 0

        apps = migrate(BEFORE)
        assert round_rows(apps) == before
        assert "stage" not in {f.name for f in apps.get_model("tournaments", "Round")._meta.get_fields()}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def one_stage_demo() -> None:
    """Leave out the demo's events of more than one stage (the stages' own tests migrate those)."""
    from django.db.models import Count

    from tournaments.models import Tournament

    Tournament.objects.annotate(n=Count("stages")).filter(n__gt=1).delete()


@pytest.mark.django_db(transaction=True)
def test_the_demo_goes_back_and_forth():
    call_command("load_demo", stdout=StringIO())  # at the newest migration: its rounds have stage 1
    one_stage_demo()  # the demo's event of several stages cannot go back before stages existed
    try:
        apps = migrate(BEFORE)
        before = round_rows(apps)
        tournaments = dict(apps.get_model("tournaments", "Tournament").objects.values_list(
            "id", "format"))
        assert len(before) == 5 and len(tournaments) == 4

        apps = migrate(AFTER)
        Stage, Round = apps.get_model("tournaments", "Stage"), apps.get_model("tournaments", "Round")
        assert dict(Stage.objects.values_list("tournament_id", "format")) == tournaments
        assert set(Stage.objects.values_list("number", "status")) == {(1, "running")}
        assert round_rows(apps) == before
        assert not Round.objects.exclude(stage__tournament_id=F("tournament_id")).exists()
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())



"""Migration 0020 (results confirmed by the opponents): forwards, a match's result status is a standings change
(the trigger learns the column) and the old rows read as before; backwards, the columns and tables go and the
standings trigger watches what it watched before."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0019_stage_standings")]
AFTER = [("tournaments", "0020_confirmation")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def changes(apps, match_id):
    return apps.get_model("tournaments", "StandingsChange").objects.filter(match_id=match_id).count()


@pytest.mark.django_db(transaction=True)
def test_forwards_the_result_status_is_a_standings_change_and_backwards_it_goes():
    apps = migrate(BEFORE)
    try:
        Tournament, Round = apps.get_model("tournaments", "Tournament"), apps.get_model("tournaments", "Round")
        Match, Stage = apps.get_model("tournaments", "Match"), apps.get_model("tournaments", "Stage")
        tournament = Tournament.objects.create(slug="a", name="A", variant="belgian-manille", format="tables",
                                               entry="individual", rounds=3)
        stage = Stage.objects.create(tournament=tournament, number=1, format="tables", status="running")
        match = Match.objects.create(round=Round.objects.create(tournament=tournament, stage=stage, number=1),
                                     table=1, status="finished", winner="ns")
        player = apps.get_model("tournaments", "Player").objects.create(name="An")
        entry = apps.get_model("tournaments", "Entry").objects.create(tournament=tournament, player=player,
                                                                      start_number=1)

        apps = migrate(AFTER)
        Match = apps.get_model("tournaments", "Match")
        row = Match.objects.get(pk=match.pk)
        assert (row.result_status, row.result_side, row.result_device) == ("", "", "")
        assert apps.get_model("tournaments", "Tournament").objects.get(pk=tournament.pk).confirmation == "off"
        before = changes(apps, match.pk)
        Match.objects.filter(pk=match.pk).update(result_status="entered")
        assert changes(apps, match.pk) == before + 1
        Match.objects.filter(pk=match.pk).update(winner="ew")  # the old columns still count
        assert changes(apps, match.pk) == before + 2
        everything = apps.get_model("tournaments", "StandingsChange").objects.filter(match_id=None)
        count = everything.count()
        apps.get_model("tournaments", "Entry").objects.filter(pk=entry.pk).update(start_number=7)  # 0014's trigger
        assert everything.count() > count

        apps = migrate(BEFORE)
        Match = apps.get_model("tournaments", "Match")
        assert "result_status" not in {f.name for f in Match._meta.get_fields()}
        with connection.cursor() as cursor:
            tables = connection.introspection.table_names(cursor)
        assert "tournaments_resultevent" not in tables and "tournaments_personalcode" not in tables
        before = changes(apps, match.pk)
        Match.objects.filter(pk=match.pk).update(winner="ns")
        assert changes(apps, match.pk) == before + 1  # the trigger is there, as before
        count = apps.get_model("tournaments", "StandingsChange").objects.filter(match_id=None).count()
        apps.get_model("tournaments", "Entry").objects.filter(pk=entry.pk).update(start_number=8)
        assert apps.get_model("tournaments", "StandingsChange").objects.filter(match_id=None).count() > count
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

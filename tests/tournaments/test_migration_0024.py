"""Migration 0024: the round clock's cut-off time and a director's action on a round. Forwards on rows made before
it (an action of a match kept, the constraint now taking a round's kinds) and backwards; the standings' triggers
survive SQLite's rebuild of the actions' table both ways."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tests.tournaments.test_migration_0021 import columns, migrate, triggers

BEFORE = [("tournaments", "0023_stage_third_place_tiebreak")]
AFTER = [("tournaments", "0024_clock_reopen")]


@pytest.mark.django_db(transaction=True)
def test_the_round_kinds_arrive_and_leave_with_the_rows_kept():
    apps = migrate(BEFORE)
    before = triggers()
    assert before
    try:
        Tournament, Club, Player, Team = (apps.get_model("tournaments", n) for n in ("Tournament", "Club", "Player",
                                                                                       "Team"))
        tournament = Tournament.objects.create(slug="a", name="A", variant="belgian-manille")
        club = Club.objects.create(name="C")
        a, b, c, d = (Player.objects.create(name=n, club=club) for n in "abcd")
        ns = Team.objects.create(name="NS", club=club, player_1=a, player_2=b)
        ew = Team.objects.create(name="EW", club=club, player_1=c, player_2=d)
        stage = apps.get_model("tournaments", "Stage").objects.create(tournament=tournament, number=1, status="running")
        rnd = apps.get_model("tournaments", "Round").objects.create(tournament=tournament, stage=stage, number=1)
        match = apps.get_model("tournaments", "Match").objects.create(round=rnd, table=1, ns=ns, ew=ew)
        kept = apps.get_model("tournaments", "DirectorAction").objects.create(
            tournament=tournament, match=match, kind="forfeit", params={"absent": "ew"}, reason="absent")

        apps = migrate(AFTER)
        assert triggers() == before
        assert "clock_cut_left" in columns("tournaments_round") and "round_id" in columns("tournaments_directoraction")
        Action = apps.get_model("tournaments", "DirectorAction")
        assert Action.objects.get(pk=kept.pk).kind == "forfeit"
        Action.objects.create(tournament_id=tournament.pk, round_id=rnd.pk, kind="clock_kept", reason="done",
                              params={"round": 1, "seconds": 60})
        with pytest.raises(IntegrityError), transaction.atomic():  # a round's kind names a round
            Action.objects.create(tournament_id=tournament.pk, kind="clock_reopened", reason="x")
        Action.objects.filter(round__isnull=False).delete()

        apps = migrate(BEFORE)
        assert triggers() == before
        assert "clock_cut_left" not in columns("tournaments_round")
        assert apps.get_model("tournaments", "DirectorAction").objects.get(pk=kept.pk).kind == "forfeit"
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

"""Migration 0021 adds the director's desk: the actions' table, the match's directives and the result fields
they give (forfeit, decided by), the standings' forfeit counts and withdrawal mark, and the event's forfeit
and withdrawal settings. Forwards on rows made before it (their defaults: nothing decided by a director), and
backwards (all gone, the rows kept)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0020_confirmation")]
AFTER = [("tournaments", "0021_director_actions")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def triggers() -> set[str]:
    """The standings' change triggers there are (SQLite rebuilding a table drops its triggers)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT DISTINCT trigger_name FROM information_schema.triggers")
        return {name for name, in cursor.fetchall()}


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


@pytest.mark.django_db(transaction=True)
def test_the_desk_arrives_on_existing_rows_and_leaves_them_as_they_were():
    apps = migrate(BEFORE)
    before = triggers()
    assert before
    try:
        Tournament, Team, Club, Player = (apps.get_model("tournaments", n) for n in ("Tournament", "Team", "Club",
                                                                                       "Player"))
        tournament = Tournament.objects.create(slug="a", name="A", variant="belgian-manille")
        club = Club.objects.create(name="C")
        a, b = (Player.objects.create(name=n, club=club) for n in "ab")
        c, d = (Player.objects.create(name=n, club=club) for n in "cd")
        ns = Team.objects.create(name="NS", club=club, player_1=a, player_2=b)
        ew = Team.objects.create(name="EW", club=club, player_1=c, player_2=d)
        stage = apps.get_model("tournaments", "Stage").objects.create(tournament=tournament, number=1, status="running")
        rnd = apps.get_model("tournaments", "Round").objects.create(tournament=tournament, stage=stage, number=1)
        match = apps.get_model("tournaments", "Match").objects.create(round=rnd, table=1, ns=ns, ew=ew,
                                                                      status="finished", winner="ns")

        apps = migrate(AFTER)
        assert triggers() == before  # every trigger made again after the tables' rebuild
        Match, Tournament = apps.get_model("tournaments", "Match"), apps.get_model("tournaments", "Tournament")
        m = Match.objects.get(pk=match.pk)
        assert (m.directives, m.forfeit, m.decided_by, m.winner) == ([], "", "", "ns")
        t = Tournament.objects.get(pk=tournament.pk)
        assert (t.forfeit_points, t.withdrawal_award) == (None, "remaining")
        Action = apps.get_model("tournaments", "DirectorAction")
        Action.objects.create(tournament_id=tournament.pk, match_id=match.pk, kind="forfeit",
                              params={"absent": "ew"}, reason="absent")
        assert {"forfeits_won", "forfeits_lost", "withdrawn"} <= columns("tournaments_standing")

        apps = migrate(BEFORE)
        assert triggers() == before
        assert "tournaments_directoraction" not in connection.introspection.table_names()
        assert not {"directives", "forfeit", "decided_by"} & columns("tournaments_match")
        assert apps.get_model("tournaments", "Match").objects.get(pk=match.pk).winner == "ns"
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

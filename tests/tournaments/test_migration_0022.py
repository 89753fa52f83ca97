"""Migration 0022 adds rounds published on purpose (issue 28): the event's ``auto_publish`` (on) and the round's
``published_at``, every existing round published at its pairing's time so that nobody loses sight of one; the
standings' triggers made again after SQLite's rebuild; and backwards (the columns gone, the rows kept)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.tournaments.test_migration_0021 import columns, migrate, triggers

BEFORE = [("tournaments", "0021_director_actions")]
AFTER = [("tournaments", "0022_publication")]


@pytest.mark.django_db(transaction=True)
def test_every_existing_round_stays_published_and_every_event_publishes_automatically():
    apps = migrate(BEFORE)
    before = triggers()
    assert before
    try:
        Tournament = apps.get_model("tournaments", "Tournament")
        tournament = Tournament.objects.create(slug="a", name="A", variant="belgian-manille")
        stage = apps.get_model("tournaments", "Stage").objects.create(tournament=tournament, number=1, status="running")
        Round = apps.get_model("tournaments", "Round")
        rounds = [Round.objects.create(tournament=tournament, stage=stage, number=n) for n in (1, 2)]

        apps = migrate(AFTER)
        assert triggers() == before  # every trigger made again after the tables' rebuild
        Round, Tournament = apps.get_model("tournaments", "Round"), apps.get_model("tournaments", "Tournament")
        assert Tournament.objects.get(pk=tournament.pk).auto_publish is True
        for old in rounds:
            new = Round.objects.get(pk=old.pk)
            assert new.published_at == new.created_at

        apps = migrate(BEFORE)
        assert triggers() == before
        assert "published_at" not in columns("tournaments_round")
        assert "auto_publish" not in columns("tournaments_tournament")
        assert apps.get_model("tournaments", "Round").objects.filter(tournament_id=tournament.pk).count() == 2
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

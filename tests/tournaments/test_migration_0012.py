"""Migration 0012 adds the one-tournament-per-name-club-and-day constraints over data that may break them:
the tournaments stored twice are renamed first, so the migration never fails (issue 25.5)."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0011_hand_idempotency_fingerprint")]
AFTER = [("tournaments", "0012_tournament_sane_settings")]


@pytest.mark.django_db(transaction=True)
def test_existing_duplicates_are_renamed_and_the_constraints_added():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        apps = executor.loader.project_state(BEFORE).apps
        Club, Tournament = apps.get_model("tournaments", "Club"), apps.get_model("tournaments", "Tournament")
        club, day = Club.objects.create(name="De Zwarte Kat"), datetime.date(2026, 12, 5)

        def make(slug, name, club=club, starts_on=day):
            return Tournament.objects.create(slug=slug, name=name, club=club, starts_on=starts_on,
                                             variant="belgian-manille").pk

        first, second, third = make("a", "Gentse Beker"), make("b", "gentse beker"), make("c", "Gentse Beker")
        taken = make("d", "Gentse Beker (2)", starts_on=day)  # the first new name is taken already
        no_club = [make("e", "Kermis", club=None), make("f", "KERMIS", club=None)]
        other_day = make("g", "Gentse Beker", starts_on=day + datetime.timedelta(days=1))
        undated = [make("h", "Zomer", starts_on=None), make("i", "Zomer", starts_on=None)]
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        names = dict(Tournament.objects.values_list("pk", "name"))
        assert names[first] == "Gentse Beker" and names[taken] == "Gentse Beker (2)"
        assert [names[second], names[third]] == ["gentse beker (3)", "Gentse Beker (4)"]  # oldest first
        assert [names[pk] for pk in no_club] == ["Kermis", "KERMIS (2)"]
        assert names[other_day] == "Gentse Beker" and [names[pk] for pk in undated] == ["Zomer", "Zomer"]
        assert Tournament.objects.get(pk=second).slug == "b"  # the pages' addresses stay
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

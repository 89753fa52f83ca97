"""The suite's own settings (tests/settings.py): each pytest-xdist worker on its own Redis database, and PostgreSQL's
flush after a transactional test (tests/postgresql) leaving every table empty, the rows its triggers add included;
and its own plumbing: the slow tests first (tests/conftest.py), data shared by a module's tests (tests/shared_data.py),
the long properties' budgets (tests/fuzz.py)."""

import pytest
from django.core.management.color import no_style
from django.db import connection

from tests.conftest import _django_order, pytest_collection_modifyitems
from tests.factories import ClubFactory
from tests.fuzz import examples
from tests.settings import worker_redis_url
from tests.shared_data import shared_data
from tests.web.conftest import make_tournament
from tournaments.models import Club, Match, StandingsChange


@pytest.mark.parametrize(("url", "worker", "moved"), [
    ("redis://127.0.0.1:6379/0", "gw0", "redis://127.0.0.1:6379/0"),
    ("redis://127.0.0.1:6379/0", "gw1", "redis://127.0.0.1:6379/1"),
    ("redis://127.0.0.1:6379/8", "gw3", "redis://127.0.0.1:6379/11"),
    ("redis://127.0.0.1:6379", "gw2", "redis://127.0.0.1:6379/2"),
    ("redis://:secret@cache.example:6380/4", "gw1", "redis://:secret@cache.example:6380/5"),
])
def test_each_worker_has_a_redis_database_of_its_own(url, worker, moved):
    assert worker_redis_url(url, worker) == moved


@pytest.mark.django_db(transaction=True)
def test_the_flush_empties_every_table_and_what_its_triggers_wrote():
    if connection.vendor != "postgresql":
        pytest.skip("the DELETE flush is PostgreSQL's (SQLite's flush is Django's own DELETE)")
    tournament = make_tournament(4)
    Match.objects.filter(round__tournament=tournament).update(points_ns=37)  # a change row each, none recomputed
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    statements = connection.ops.sql_flush(no_style(), tables)
    assert all(sql.startswith("DELETE FROM ") for sql in statements)
    assert StandingsChange.objects.exists()
    # The change rows and the tournaments deleted first (a deleted tournament takes its change rows with it):
    # deleting the matches, rounds and entries after them writes new ones.
    statements.sort(key=lambda sql: ('"tournaments_standingschange"' not in sql,
                                     '"tournaments_tournament"' not in sql))
    connection.ops.execute_sql_flush(statements)
    with connection.cursor() as cursor:
        filled = []
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            if cursor.fetchone()[0]:
                filled.append(table)
    assert filled == []


class _Item:
    def __init__(self, name: str, slow: bool, db: str = "db"):
        self.name, self.slow, self.fixturenames = name, slow, ((db,) if db else ())

    def get_closest_marker(self, name: str):
        return object() if name == "slow" and self.slow else None


def test_the_slow_tests_run_first_each_group_in_its_order(request):
    """Slow first within pytest-django's groups: a transactional test empties the tables after it (the migrations'
    data too), so no database test may come after one (the volunteers' group went missing when slow transactional
    tests ran first)."""
    items = [_Item("a", False), _Item("b", True), _Item("c", False), _Item("d", True), _Item("e", False),
             _Item("t", False, "transactional_db"), _Item("u", True, "transactional_db"), _Item("n", True, "")]
    pytest_collection_modifyitems(None, None, items)
    assert [item.name for item in items] == ["b", "d", "a", "c", "e", "u", "t", "n"]
    # This run's own order (each pytest-xdist worker collects it all): no database test after a transactional one,
    # and in each group no slow test after one that is not.
    order = [(_django_order(item), item.get_closest_marker("slow") is None) for item in request.session.items]
    assert order == sorted(order)


@pytest.mark.django_db
def test_shared_data_is_there_for_the_scope_then_rolled_back(django_db_blocker):
    with shared_data(django_db_blocker, lambda: ClubFactory(name="Gedeelde Kat").pk) as pk:
        assert Club.objects.filter(pk=pk, name="Gedeelde Kat").exists()
    assert not Club.objects.filter(pk=pk).exists()


def test_fuzz_scale_multiplies_every_budget(monkeypatch):
    monkeypatch.delenv("FUZZ_SCALE", raising=False)
    assert examples(12) == 12
    monkeypatch.setenv("FUZZ_SCALE", "")
    assert examples(12) == 12
    monkeypatch.setenv("FUZZ_SCALE", "2.5")
    assert examples(12) == 30
    monkeypatch.setenv("FUZZ_SCALE", "0.01")
    assert examples(12) == 1  # never none
    monkeypatch.setenv("FUZZ_SCALE", "0")
    with pytest.raises(ValueError, match="FUZZ_SCALE"):
        examples(12)

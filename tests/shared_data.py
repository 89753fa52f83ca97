"""Data made once for the tests of a module (or a class): Django's ``TestCase.setUpTestData`` for pytest.

``shared_data(django_db_blocker, make)`` opens a transaction, runs ``make()`` in it and yields what it returns. Each
test of the scope is a ``django_db`` test (not transactional): pytest-django runs it in a savepoint inside that
transaction and rolls the savepoint back after it, so every test starts from exactly what ``make()`` left, whatever
the tests before it changed. When the scope ends the transaction is rolled back: the next module finds the database
as it was. For data that takes seconds to make (``load_demo``: 10 to 20 s) and that several tests only read or
change in their own savepoint.

``make()`` runs as a test would: Celery's tasks in-process (``eager_tasks``). What lives outside the database (the
cache, a process's kept standings inputs) is not rolled back with it: a test that changes the shared data and then
reads those must clear them. Keep out of such a scope a test that needs a database without that data (another
module), and a transactional test (``transaction=True``: it empties the tables, which a transaction left open would
stop).
"""

from contextlib import contextmanager


@contextmanager
def eager_tasks():
    """Celery's tasks run in-process while it is entered, as in every test (tests/conftest.py's ``_eager_celery``)."""
    from config.celery import app  # here, so tests/scoring never needs Django

    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@contextmanager
def shared_data(django_db_blocker, make):
    from django.db import transaction

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        # As Django's TestCase marks its own: a durable block in the code under test is then allowed inside it.
        atomic._from_testcase = True
        atomic.__enter__()
        try:
            with eager_tasks():  # made as a test makes it: the module's fixture comes before the test's fixtures
                made = make()
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    try:
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)

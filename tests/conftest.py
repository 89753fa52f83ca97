"""Suite-wide fixtures.

Tasks run in-process (eagerly) in every test except those marked ``celery_worker``, which start
a real worker against the Redis of REDIS_URL (see tests/tournaments/test_tasks.py).
"""

import pytest


@pytest.hookimpl(trylast=True)  # after pytest-django's own order (transactional tests after the others), kept
def pytest_collection_modifyitems(session, config, items):
    """The tests marked ``slow`` (each takes tens of seconds) run first in their group, in their order.

    pytest-xdist's worksteal (``./dev test``) hands each worker a contiguous share of this order and lets an idle
    worker take the end of another's queue: with the long tests at the start, the end of the run is short tests, and
    no worker waits a minute at the end for the other's last test. A module marked as a whole moves as a whole, its
    module-scoped fixtures made once.
    """
    # Within pytest-django's groups (database tests, then transactional ones, then those without a database): a
    # transactional test empties the tables after it, the migrations' data too (the volunteers' group), so none of
    # them may run before a database test that reads that data.
    items[:] = sorted(items, key=lambda item: (_django_order(item), not item.get_closest_marker("slow")))


def _django_order(item) -> int:
    """pytest-django's order of a test: 0 a database test, 1 a transactional one, 2 one without a database (Django's
    test case classes named, not imported: the engine's tests run without Django)."""
    bases = {c.__name__ for c in getattr(getattr(item, "cls", None), "__mro__", ())}
    if "TransactionTestCase" in bases:
        return 0 if "TestCase" in bases else 1
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    transactional = bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
    if transactional or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    return 0 if marker is not None or "db" in fixtures else 2


@pytest.fixture(autouse=True)
def _eager_celery(request):
    """Run Celery tasks in-process unless the test is about a real worker (or runs without Django: the engine's)."""
    if request.node.get_closest_marker("celery_worker") or not request.config.pluginmanager.has_plugin("django"):
        # Without pytest-django (tests/scoring alone, ``-p no:django``) there is no Celery to set: creating the
        # app would import Django (Celery's Django fix-up).
        yield
        return
    from tests.shared_data import eager_tasks

    with eager_tasks():
        yield


@pytest.fixture
def clear_cache():
    """An empty cache before and after the test (version stamps, kept answers, the rate windows): a module whose
    tests count on it names it, ``pytestmark = [..., pytest.mark.usefixtures("clear_cache")]``. Each xdist worker
    has a Redis database of its own (tests/settings.py), so this empties no other worker's."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _forget_kept_ids():
    """Each test starts without the process's memory of matches' and slugs' tournaments (ids come again after a rollback)."""
    yield
    import sys

    versions = sys.modules.get("tournaments.versions")  # loaded only by tests that use Django
    if versions is not None:
        versions.forget()


@pytest.fixture(autouse=True)
def _language_reset():
    """Each test starts in the default language: a request's LocaleMiddleware leaves its language active in the thread."""
    yield
    import sys

    translation = sys.modules.get("django.utils.translation")  # loaded only by tests that use Django
    if translation is not None and sys.modules.get("django.conf") is not None:
        from django.conf import settings

        if settings.configured:
            translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _browser_only_where_asked(request):
    """Stop the browser tests' shared chromium (tests/web/browser.py) before a test that does not use it."""
    import sys

    browser = sys.modules.get("tests.web.browser")
    if browser is not None and "shared_chromium" not in request.fixturenames:
        browser.SHARED.stop()
    yield


@pytest.fixture(autouse=True, scope="session")
def _browser_stopped_at_the_end():
    yield
    import sys

    browser = sys.modules.get("tests.web.browser")
    if browser is not None:
        browser.SHARED.stop()


@pytest.fixture(autouse=True)
def _wide_regions_follow_every_change(request):
    """A whole tournament's live regions follow every change in the tests (``LIVE_WIDE_SECONDS`` 0): a test reads
    a page right after the change it makes. The bound itself is tested where it is set (tests/web/test_live*)."""
    if not request.config.pluginmanager.has_plugin("django"):
        yield
        return
    from django.test import override_settings

    with override_settings(LIVE_WIDE_SECONDS=0):
        yield


@pytest.fixture(scope="session")
def _served_schema_text(django_db_blocker) -> bytes:
    """GET /api/schema/ as JSON, once a session: each answer is generated anew, 2 to 5 s."""
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        answer = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    return answer.content

"""The engine's tests need no Django: run alone (``-p no:django``, no settings), nothing may import it.

tests/test_engine_alone.py runs this folder that way; there each test also checks, when it ends, that
neither the engine nor a fixture imported Django.
"""

import sys

import pytest


@pytest.fixture(autouse=True)
def _no_django(request):
    """Fail a test of the engine that imported Django when the suite runs without it."""
    yield
    if not request.config.pluginmanager.has_plugin("django"):
        imported = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
        assert not imported, f"the engine's tests imported Django: {imported[:5]}"

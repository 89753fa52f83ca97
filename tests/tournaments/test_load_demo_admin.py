"""The demo command over an admin of one's own, in a database without the demo (test_load_demo.py's tests share one
loaded demo: tests/shared_data.py)."""

import pytest
from django.contrib.auth import get_user_model

from tests.tournaments.test_load_demo import load
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_existing_admin_is_left_alone():
    assert not Tournament.objects.exists()
    get_user_model().objects.create_user("admin", password="my own secret")
    out = load()
    assert get_user_model().objects.get(username="admin").check_password("my own secret")
    assert "for local use only" not in out
    assert Tournament.objects.filter(slug="gentse-beker").exists()  # the rest of the demo loaded

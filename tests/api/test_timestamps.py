"""One convention for every time the API answers: ISO 8601 in the configured zone, with its offset (#13)."""

from datetime import datetime

import pytest
from django.utils import timezone

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("zone", ["Europe/Brussels", "America/Mexico_City"])
def test_the_scoreboard_time_is_in_the_zone_of_every_other_time(match, anon, settings, zone):
    settings.TIME_ZONE = zone
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    tournament = anon.get(f"/api/v1/tournaments/{match.round.tournament_id}/").json()
    match.refresh_from_db()
    updated, created = datetime.fromisoformat(board["updated_at"]), datetime.fromisoformat(tournament["created_at"])
    # The same instant as stored, written with the configured zone's offset (was UTC, +00:00).
    assert updated == match.updated_at
    assert updated.utcoffset() == timezone.localtime(match.updated_at).utcoffset() != timezone.timedelta(0)
    assert created.utcoffset() == timezone.localtime(match.round.tournament.created_at).utcoffset()
    assert board["updated_at"][-6:] == tournament["created_at"][-6:]

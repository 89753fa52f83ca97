"""A round's redraw (tournaments.services.draws.round_redraw) is an individual event's only (issue 26)."""

import pytest

from tests.factories import MatchFactory, TournamentFactory
from tournaments.models import Match
from tournaments.services.draws import round_redraw
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def test_a_team_events_round_is_not_redrawn_and_stays_as_paired():
    match = MatchFactory(round__tournament=TournamentFactory(format="swiss"), round__number=1)
    with pytest.raises(ServiceError) as refused:
        round_redraw(round=match.round)
    assert (refused.value.code, refused.value.status, refused.value.params) == ("entry_kind", 400, {"entry": "teams"})
    assert list(Match.objects.values_list("pk", "ns_id", "ew_id")) == [(match.pk, match.ns_id, match.ew_id)]

"""The event's ranking as CSV (issue 27): a multi-stage event's rows by the stage reached, then that stage's
rank; the headers in the organizer's language."""

import pytest
from django.urls import reverse

from tests.tournaments.test_rounds_service import finish_round
from tests.tournaments.test_stages_close_start import by_seed, play_stage, pools_event
from tests.web.workspace.test_organize import rows_of, signed_in
from tournaments.models import Round
from tournaments.services.rounds import round_pair
from tournaments.services.stages import stage_add, stage_close, stage_start
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def test_the_ranking_csv_puts_the_knockouts_entrants_first(client):
    tournament, teams, user = pools_event(8, 2)
    stage_add(tournament=tournament, user=user, format="knockout", rounds=2,
              previous_qualification={"kind": "pools", "per_pool": 2})
    pick = by_seed(teams)
    play_stage(tournament, 1, pick)
    stage_close(tournament=tournament, number=1, user=user)
    knockout = stage_start(tournament=tournament, number=2, user=user)
    finish_round(round_pair(tournament=tournament), pick)
    finish_round(Round.objects.get(stage=knockout, number=2), pick)
    standings_recompute(tournament=tournament)
    tournament.organizers.add(user)
    signed_in(client, user)
    rows = rows_of(client.get(reverse("ws:export-ranking", args=[tournament.slug])))
    assert rows[0][:5] == ["Rank", "Team", "Club", "Stage reached", "Rank in that stage"]
    assert len(rows) == 9
    assert [r[3] for r in rows[1:]] == ["2"] * 4 + ["1"] * 4
    assert rows[1][1] == teams[0].name and rows[1][:1] == ["1"]

"""The standings service: loading results, replacing the saved rows, coalescing recomputes."""

from unittest import mock

import pytest
from django.core.cache import cache


from tests.tournaments.test_rounds_service import finish, finish_round
from tests.tournaments.test_rounds_service import make_tournament
from tournaments.models import Entry, Standing, StandingsSnapshot
from tournaments.selectors.standings import standings_for
from tournaments.services import standings as service
from tournaments.services.rounds import entry_withdraw, round_pair

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def test_recompute_saves_rows_in_the_api_shape():
    tournament, teams = make_tournament(5)
    r1 = round_pair(tournament=tournament)
    finish_round(r1)
    service.standings_recompute(tournament=tournament)
    data = standings_for(tournament)
    assert data["computed_at"] is not None and len(data["rows"]) == 5
    first = data["rows"][0]
    assert set(first) == {"rank", "team", "played", "won", "drawn", "lost", "match_points", "games_won",
                          "games_lost", "points_for", "points_against", "forfeits_won", "forfeits_lost", "withdrawn",
                          "tiebreaks", "team_detail"}
    assert first["team_detail"]["id"] == first["team"] and set(first["team_detail"]) == {"id", "name", "club"}
    assert list(first["tiebreaks"]) == ["match_points", "games_won", "points_diff", "buchholz", "direct_encounter"]
    assert [r["match_points"] for r in data["rows"]] == sorted((r["match_points"] for r in data["rows"]), reverse=True)
    winner = r1.matches.exclude(ew=None).order_by("table").first().ns_id
    row = next(r for r in data["rows"] if r["team"] == winner)
    assert (row["played"], row["won"], row["games_won"], row["points_for"], row["points_against"]) == (1, 1, 2, 202, 120)
    bye = r1.matches.get(ew=None).ns_id
    bye_row = next(r for r in data["rows"] if r["team"] == bye)
    assert bye_row["played"] == 0 and bye_row["match_points"] == tournament.points_bye


def test_rows_are_replaced_whole_and_follow_the_tournaments_metrics():
    tournament, teams = make_tournament(4, tiebreaks=["match_points", "sonneborn_berger", "unknown_metric"])
    finish_round(round_pair(tournament=tournament))
    first = service.standings_recompute(tournament=tournament)
    assert first.metrics == ["match_points", "sonneborn_berger"]
    second = service.standings_recompute(tournament=tournament)
    assert second.computed_at > first.computed_at
    # Nothing changed: no row rewritten; the standings' time is the snapshot's.
    assert set(Standing.objects.filter(tournament=tournament).values_list("computed_at", flat=True)) == {first.computed_at}
    assert StandingsSnapshot.objects.filter(tournament=tournament).count() == 1
    assert sorted(Standing.objects.filter(tournament=tournament).values_list("position", flat=True)) == [1, 2, 3, 4]


def test_withdrawn_team_keeps_its_row_and_results():
    tournament, teams = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=teams[0]))
    finish_round(round_pair(tournament=tournament))
    service.standings_recompute(tournament=tournament)
    row = Standing.objects.get(tournament=tournament, team=teams[0])
    assert row.played == 1


def test_a_burst_of_results_queues_one_recompute():
    tournament, _ = make_tournament(6)
    with mock.patch("tournaments.tasks.standings_recompute_task.apply_async") as queued:
        assert service.standings_recompute_schedule(tournament.pk) is True
        for _ in range(5):
            assert service.standings_recompute_schedule(tournament.pk) is False
        assert queued.call_count == 1
        cache.delete(service.pending_key(tournament.pk))  # what the task does first
        assert service.standings_recompute_schedule(tournament.pk) is True
        assert queued.call_count == 2


def test_result_change_queues_on_commit(django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    with mock.patch("tournaments.tasks.standings_recompute_task.apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            for m in rnd.matches.all():
                finish(m)
        # Three a match: the standings recompute, the live update (tournaments.live) and the version stamps
        # (tournaments.versions).
        assert queued.call_count == 0 and len(callbacks) == 6
        for callback in callbacks:
            callback()
        assert queued.call_count == 1


def test_eager_task_recomputes(django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        finish(rnd.matches.first())
    assert StandingsSnapshot.objects.filter(tournament=tournament).exists()
    assert Standing.objects.filter(tournament=tournament).count() == 4


def test_standings_order_used_for_swiss_ranks():
    tournament, teams = make_tournament(8)
    finish_round(round_pair(tournament=tournament))
    r2 = round_pair(tournament=tournament)
    # Winners meet winners in round 2.
    winners = {m.ns_id for m in tournament.round_set.get(number=1).matches.all()}
    for m in r2.matches.all():
        assert (m.ns_id in winners) == (m.ew_id in winners)

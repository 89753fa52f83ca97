"""A round clock ended early by mistake, through the API (issue 28): ``POST …/rounds/{n}/clock/reopen/`` and
``…/clock/keep/`` take the director's action the round's page takes (``clock_reopened``, ``clock_kept``), with a
reason, answered as the desk's actions are; refused with codes, nothing changed. Who may: the permission table of
``test_desk_permissions.py``."""

import pytest
from django.utils import timezone

from tests.api.conftest import client_for
from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.tournaments.test_individual_services import _boam, _team_match
from tournaments.models import DirectorAction, Match, Round
from tournaments.services.clock import round_clock_end, round_clock_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def cut(organizer):
    """A timed round whose one table finished when its clock was ended early, by mistake; results confirmed by the
    opponents; the event's organizer is ``organizer``."""
    match = _team_match(match_length="timed", minutes=30, confirmation="opponents", public=True)
    tournament = match.round.tournament
    tournament.organizers.add(organizer)
    for team in (match.ns, match.ew):
        EntryFactory(tournament=tournament, team=team)
    round_clock_start(round=match.round)
    _boam(match, 50)  # a game won, the clock running still
    round_clock_end(round=match.round)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def url(match, tail="", number=None):
    base = f"/api/v1/tournaments/{match.round.tournament_id}/rounds/{number or match.round.number}/clock/"
    return base + (f"{tail}/" if tail else "")


def codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


def test_a_director_reopens_the_tables_the_clock_finished(cut, anon):
    director = UserFactory()
    cut.round.tournament.directors.add(director)
    answer = client_for(director).post(url(cut, "reopen"), {"reason": "ended the wrong round"}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["kind"], body["reason"], body["actor"], body["match"], body["entry"], body["active"]) == (
        "clock_reopened", "ended the wrong round", director.pk, None, None, True)
    assert body["params"]["round"] == 1 and body["params"]["tables"] == [1] and body["params"]["seconds"] > 29 * 60
    cut.refresh_from_db()
    assert (cut.status, cut.winner) == ("playing", "")
    clock = anon.get(url(cut)).json()
    assert clock["status"] == "running" and clock["remaining"] > 29 * 60
    listed = client_for(director).get(f"/api/v1/tournaments/{cut.round.tournament_id}/actions/").json()
    assert [a["kind"] for a in listed["results"]] == ["clock_reopened"]
    again = client_for(director).post(url(cut, "reopen"), {"reason": "twice"}, format="json")
    assert again.status_code == 409 and codes(again) == [("clock_not_cut", None)]
    assert DirectorAction.objects.count() == 1


def test_an_organizer_keeps_the_results_and_the_offer_is_gone(cut, organizer):
    client = client_for(organizer)
    answer = client.post(url(cut, "keep"), {"reason": "every table had finished"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["kind"] == "clock_kept" and answer.json()["params"]["seconds"] > 29 * 60
    cut.refresh_from_db()
    assert cut.status == Match.Status.FINISHED and Round.objects.get(pk=cut.round_id).clock_cut_left is None
    for tail in ("reopen", "keep"):
        refused = client.post(url(cut, tail), {"reason": "changed my mind"}, format="json")
        assert refused.status_code == 409 and codes(refused) == [("clock_not_cut", None)]
    action = DirectorAction.objects.get()
    reverted = client.post(f"/api/v1/tournaments/{cut.round.tournament_id}/actions/{action.pk}/revert/",
                           {"reason": "no"}, format="json")
    assert reverted.status_code == 409 and codes(reverted) == [("clock_action_final", None)]


@pytest.mark.parametrize(("body", "code"), [({}, "required"), ({"reason": "   "}, "blank"),
                                            ({"reason": "x" * 301}, "max_length")])
def test_the_reason_is_required(cut, organizer, body, code):
    for tail in ("reopen", "keep"):
        refused = client_for(organizer).post(url(cut, tail), body, format="json")
        assert refused.status_code == 400 and codes(refused) == [(code, "reason")]
    cut.refresh_from_db()
    assert cut.status == Match.Status.FINISHED and Round.objects.get(pk=cut.round_id).clock_cut_left is not None
    assert not DirectorAction.objects.exists()


def test_a_clock_not_ended_early_a_round_not_there_and_another_events_director(cut, organizer):
    client = client_for(organizer)
    assert client.post(url(cut, "reopen", number=2), {"reason": "r"}, format="json").status_code == 404
    running = _team_match(match_length="timed", minutes=30)
    running.round.tournament.organizers.add(organizer)
    round_clock_start(round=running.round)
    refused = client.post(url(running, "keep"), {"reason": "r"}, format="json")
    assert refused.status_code == 409 and codes(refused) == [("clock_not_cut", None)]
    Round.objects.filter(pk=running.round_id).update(clock_ends_at=timezone.now())  # over by its own time
    refused = client.post(url(running, "reopen"), {"reason": "r"}, format="json")
    assert refused.status_code == 409 and codes(refused) == [("clock_not_cut", None)]
    other = UserFactory()
    TournamentFactory().directors.add(other)  # a director, of another event
    assert client_for(other).post(url(cut, "reopen"), {"reason": "r"}, format="json").status_code == 403
    private = _team_match(match_length="timed", minutes=30, public=False)
    assert client_for(other).post(url(private, "reopen"), {"reason": "r"}, format="json").status_code == 404
    assert not DirectorAction.objects.exists()

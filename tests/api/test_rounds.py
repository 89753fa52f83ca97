"""Pairing rounds in a worker, following the task, reading rounds and standings."""

import uuid

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, RoundFactory, TeamFactory
from tournaments.models import ForbiddenPair, Match, Round, TaskRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_teams(tournament):
    return [EntryFactory(tournament=tournament, team=TeamFactory()).team for _ in range(4)]


def rounds_url(tournament):
    return f"/api/v1/tournaments/{tournament.pk}/rounds/"


def test_pair_a_round_and_follow_the_task_to_it(tournament, organizer, four_teams, django_capture_on_commit_callbacks):
    client = client_for(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(rounds_url(tournament), {}, format="json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert set(body) == {"task", "status_url"}
    assert body["status_url"] == f"http://testserver/api/v1/tasks/{body['task']}/"
    task = client.get(body["status_url"]).json()
    assert task["status"] == "succeeded" and task["error"] is None and task["round_number"] == 1
    assert task["round"] == f"http://testserver/api/v1/tournaments/{tournament.pk}/rounds/1/"
    rnd = client.get(task["round"]).json()
    assert rnd["number"] == 1 and rnd["status"] == "paired" and len(rnd["matches"]) == 2
    paired = {m["ns"] for m in rnd["matches"]} | {m["ew"] for m in rnd["matches"]}
    assert paired == {t.pk for t in four_teams}
    assert {"id", "table", "ns", "ew", "status", "winner"} <= set(rnd["matches"][0])
    listing = client.get(rounds_url(tournament)).json()
    assert listing["count"] == 1 and listing["results"][0]["number"] == 1


def test_a_round_already_paired_and_unfinished_is_a_409(tournament, organizer, four_teams,
                                                        django_capture_on_commit_callbacks):
    client = client_for(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(rounds_url(tournament), {}, format="json")
    response = client.post(rounds_url(tournament), {}, format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "round_unfinished"


def test_a_pairing_under_way_is_a_409(tournament, organizer, four_teams):
    client = client_for(organizer)
    first = client.post(rounds_url(tournament), {}, format="json")  # never run: on_commit is not executed
    assert first.status_code == 202
    assert client.get(first.json()["status_url"]).json()["status"] == "pending"
    second = client.post(rounds_url(tournament), {}, format="json")
    assert second.status_code == 409 and second.json()["errors"][0]["code"] == "pairing_in_progress"


def test_a_refused_pairing_ends_as_a_failed_task_with_the_reason(tournament, organizer,
                                                                 django_capture_on_commit_callbacks):
    a, b = EntryFactory(tournament=tournament), EntryFactory(tournament=tournament)
    ForbiddenPair.objects.create(tournament=tournament, team_a=a.team, team_b=b.team)  # the worker finds no pairing
    client = client_for(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        body = client.post(rounds_url(tournament), {}, format="json").json()
    task = client.get(body["status_url"]).json()
    assert task["status"] == "failed" and task["round"] is None
    assert task["error"]["code"] == "pairing_impossible"
    assert a.team.name in task["error"]["detail"] and task["error"]["detail"].startswith("These teams cannot be")
    french = client.get(body["status_url"], HTTP_ACCEPT_LANGUAGE="fr").json()["error"]  # recorded in English
    assert french["code"] == "pairing_impossible" and french["detail"] != task["error"]["detail"]
    assert a.team.name in french["detail"] and set(french) == set(task["error"])
    assert not Round.objects.exists()


@pytest.mark.parametrize("entries", [0, 1])
def test_pairing_without_two_teams_is_refused_at_once_with_no_task(tournament, organizer, entries):
    for _ in range(entries):
        EntryFactory(tournament=tournament)
    EntryFactory(tournament=tournament, withdrawn=True)  # a withdrawn team does not count
    response = client_for(organizer).post(rounds_url(tournament), {}, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == ("too_few_teams", None)
    assert not TaskRecord.objects.exists() and not Round.objects.exists()


def test_a_running_task_reports_its_progress(tournament, monkeypatch, anon):
    record = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=tournament, status="running")
    import api.views.rounds as rounds_views

    real = rounds_views.task_status

    def with_progress(task_id):
        info = real(task_id)
        return info | {"progress": {"stage": "matching", "round": 1}}

    monkeypatch.setattr(rounds_views, "task_status", with_progress)
    task = anon.get(f"/api/v1/tasks/{record.id}/").json()
    assert task["status"] == "running" and task["progress"] == {"stage": "matching", "round": 1}


def test_tasks_of_private_tournaments_and_unknown_tasks_are_404s(private_tournament, anon):
    record = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=private_tournament)
    assert anon.get(f"/api/v1/tasks/{record.id}/").status_code == 404
    assert anon.get(f"/api/v1/tasks/{uuid.uuid4()}/").status_code == 404
    assert anon.get("/api/v1/tasks/not-a-uuid/").status_code == 404


@pytest.mark.parametrize(("who", "status"), [("organizer", 202), ("staff", 202), ("scorekeeper", 403),
                                             ("manager", 403), ("stranger", 403), ("anonymous", 401)])
def test_who_may_pair_a_round(request, tournament, four_teams, who, status):
    user = None if who == "anonymous" else request.getfixturevalue(who)
    assert client_for(user).post(rounds_url(tournament), {}, format="json").status_code == status


def test_round_detail_and_a_bye(tournament, anon, teams):
    rnd = RoundFactory(tournament=tournament, number=1)
    Match.objects.create(round=rnd, table=1, ns=teams[0], ew=None, status="finished", winner="ns")
    body = anon.get(f"{rounds_url(tournament)}1/").json()
    contract = {"id", "table", "ns", "ew", "status", "winner"}
    assert {k: v for k, v in body["matches"][0].items() if k in contract} | {"id": 0} == {
        "id": 0, "table": 1, "ns": teams[0].pk, "ew": None, "status": "finished", "winner": "ns"}
    assert body["matches"][0]["ns_detail"] == {"id": teams[0].pk, "name": teams[0].name,
                                               "club": {"id": teams[0].club_id, "name": teams[0].club.name}}
    assert body["matches"][0]["ew_detail"] is None
    assert anon.get(f"{rounds_url(tournament)}2/").status_code == 404
    assert anon.post(rounds_url(tournament), {}, format="json").status_code == 401


def test_rounds_of_a_private_tournament_are_hidden(private_match, anon):
    tournament = private_match.round.tournament
    assert anon.get(rounds_url(tournament)).status_code == 404
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/").status_code == 404


def test_standings_before_and_after_a_computation(tournament, match, anon, scorekeeper):
    for team in (match.ns, match.ew):
        EntryFactory(tournament=tournament, team=team)
    empty = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert empty["computed_at"] is None and empty["rows"] == []
    from tests.api.deals import summary

    client = client_for(scorekeeper)
    for dealer in "NESW":
        client.post(f"/api/v1/matches/{match.pk}/hands/", summary(dealer, 60, tricks=(8, 0)), format="json")
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament=tournament)
    body = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert body["computed_at"] is not None
    first, second = body["rows"]
    assert (first["rank"], first["team"], first["won"], first["games_won"]) == (1, match.ns_id, 1, 2)
    assert (second["team"], second["lost"], second["games_lost"]) == (match.ew_id, 1, 2)
    assert set(first) == {"rank", "team", "played", "won", "drawn", "lost", "match_points", "games_won",
                          "games_lost", "points_for", "points_against", "forfeits_won", "forfeits_lost",
                          "withdrawn", "tiebreaks", "team_detail"}
    assert first["team_detail"] == {"id": match.ns_id, "name": match.ns.name,
                                    "club": {"id": match.ns.club_id, "name": match.ns.club.name}}

"""An event's stages through the API (issue 27, first slice): every event answers its one stage, an organizer
adds the next, refusals carry their codes, and the rounds carry their stage."""

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, RoundFactory, TeamFactory
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def enter(tournament, n):
    for seed in range(1, n + 1):
        EntryFactory(tournament=tournament, team=TeamFactory(), seed=seed)


def test_a_one_stage_event_lists_its_stage(anon, tournament):
    RoundFactory(tournament=tournament, number=1)
    stages = anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/").json()["results"]
    assert stages == [{"number": 1, "format": "swiss", "status": "running", "rounds": tournament.rounds,
                       "round_count": 1, "best_of": 3, "match_length": "best_of", "match_games": None,
                       "minutes": None, "at_time": "finish", "pools": 0, "third_place": False,
                       "tiebreak_deals": None, "qualification": None, "seed": None}]
    assert anon.get(f"/api/v1/tournaments/{tournament.slug}/stages/1/").json() == stages[0]
    assert anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/2/").status_code == 404
    rounds = anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/").json()
    assert [(r["number"], r["stage"]) for r in rounds["results"]] == [(1, 1)]
    own = anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/1/rounds/").json()["results"]
    assert [{**r, "clock": None} for r in own] == [{**r, "clock": None} for r in rounds["results"]]


def test_an_organizer_adds_a_knockout_after_the_swiss(anon, organizer, tournament, stranger):
    enter(tournament, 12)
    url = f"/api/v1/tournaments/{tournament.pk}/stages/"
    body = {"format": "knockout", "rounds": 3, "previous_qualification": {"kind": "top", "count": 8}}
    assert anon.post(url, body, format="json").status_code == 401
    assert client_for(stranger).post(url, body, format="json").status_code == 403
    answer = client_for(organizer).post(url, body, format="json")
    assert answer.status_code == 201
    assert {k: answer.json()[k] for k in ("number", "format", "status", "rounds", "round_count")} == {
        "number": 2, "format": "knockout", "status": "pending", "rounds": 3, "round_count": 0}
    listed = anon.get(url).json()["results"]
    assert [s["number"] for s in listed] == [1, 2]
    assert listed[0]["qualification"] == {"kind": "top", "count": 8, "per_pool": 0, "best_next": 0, "carry": []}
    assert anon.get(f"{url}2/rounds/").json()["results"] == []
    refused = client_for(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/", {"rounds": 9}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "multi_stage" and "rounds" in refused.json()["errors"][0]["detail"]
    assert client_for(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/", {"name": "Beker"},
                                       format="json").status_code == 200


@pytest.mark.parametrize("body, code", [
    ({"format": "pools", "pools": 7, "previous_qualification": {"kind": "all"}}, "pool_count"),
    ({"format": "knockout", "rounds": 2, "previous_qualification": {"kind": "top", "count": 8}}, "stage_capacity"),
    ({"format": "swiss", "rounds": 2}, "qualification_invalid"),
    ({"format": "tables", "previous_qualification": {"kind": "all"}}, "format_for_entry"),
    ({"format": "knockout", "previous_qualification": {"kind": "top", "count": 4, "carry": ["games"]}},
     "carry_over_invalid"),
])
def test_a_stage_that_does_not_fit_is_refused_with_its_code(organizer, tournament, body, code):
    enter(tournament, 12)
    answer = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/stages/", body, format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == code
    assert answer.json()["errors"][0]["detail"]
    assert Stage.objects.filter(tournament=tournament).count() == 1


def test_a_malformed_rule_is_refused_by_the_serializer(organizer, tournament):
    body = {"format": "swiss", "previous_qualification": {"kind": "best", "carry": ["luck"]}}
    answer = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/stages/", body, format="json")
    assert answer.status_code == 400
    assert {e["attr"] for e in answer.json()["errors"]} == {"previous_qualification.kind",
                                                           "previous_qualification.carry.0"}


def test_the_tournaments_rounds_list_goes_stage_by_stage(anon, organizer, tournament):
    enter(tournament, 8)
    later = Stage.objects.create(tournament=tournament, number=2, format="knockout", rounds=2)
    RoundFactory(tournament=tournament, stage=later, number=1)
    RoundFactory(tournament=tournament, number=1)
    RoundFactory(tournament=tournament, number=2)
    rounds = anon.get(f"/api/v1/tournaments/{tournament.pk}/rounds/").json()["results"]
    assert [(r["stage"], r["number"]) for r in rounds] == [(1, 1), (1, 2), (2, 1)]
    own = anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/2/rounds/").json()["results"]
    assert [(r["stage"], r["number"]) for r in own] == [(2, 1)]
    stages = anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/").json()["results"]
    assert [s["round_count"] for s in stages] == [2, 1]


def test_closing_starting_and_reopening_stages_through_the_api(anon, organizer, tournament, stranger):
    from tests.tournaments.test_stages_close_start import by_seed, play_stage
    from tournaments.models import Entry, Match

    tournament.format, tournament.rounds, tournament.best_of = "pools", 3, 1
    tournament.save()
    enter(tournament, 8)
    client = client_for(organizer)
    base = f"/api/v1/tournaments/{tournament.pk}/stages"
    assert client.patch(f"{base}/1/", {"format": "swiss"}, format="json").status_code == 409
    assert client_for(stranger).patch(f"{base}/1/", {"pools": 2}, format="json").status_code == 403
    assert client.patch(f"{base}/1/", {"pools": 2}, format="json").json()["pools"] == 2
    assert client.post(base + "/", {"format": "knockout", "rounds": 2, "previous_qualification": {
        "kind": "pools", "per_pool": 2}}, format="json").status_code == 201
    assert client.post(f"{base}/1/close/").json()["errors"][0]["code"] == "stage_status"  # a draft's stage 1
    assert client.post(f"{base}/1/start/").json()["status"] == "running"  # starts the event
    unplayed = client.post(f"{base}/1/close/")
    assert unplayed.status_code == 409 and unplayed.json()["errors"][0]["code"] == "stage_unplayed"
    assert anon.post(f"{base}/1/close/").status_code == 401
    assert client_for(stranger).post(f"{base}/1/close/").status_code == 403
    teams = [e.team for e in Entry.objects.filter(tournament=tournament).order_by("seed")]
    play_stage(tournament, 1, by_seed(teams))
    assert client.post(f"{base}/1/close/").status_code == 200
    # A closed stage's results do not change: a hand's correction is refused until the stage is reopened.
    match = Match.objects.filter(round__stage__number=1, round__tournament=tournament).exclude(ew=None).first()
    game = match.games.first()
    from tournaments.models import Hand
    from tournaments.services.hands import hand_correct
    from tournaments.services.errors import Conflict

    hand = Hand(game=game, number=1, dealer="N", trump="H", points_ns=60, points_ew=0, tricks_ns=8, tricks_ew=0)
    with pytest.raises(Conflict) as refused:
        hand_correct(hand=hand, data={"points": {"ns": 30, "ew": 30}})
    assert refused.value.code == "stage_closed"
    again = client.post(f"{base}/1/close/")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "stage_status"
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament=tournament)  # the worker's job
    standings = anon.get(f"{base}/1/standings/").json()
    assert sum(r["qualified"] for r in standings["rows"]) == 4 and len(standings["rows"]) == 8
    assert anon.get(f"{base}/1/standings/?pool=x").status_code == 400
    assert client.post(f"{base}/2/start/").json()["status"] == "running"
    assert client.post(f"{base}/1/reopen/").json()["status"] == "running"
    assert client.post(f"{base}/1/close/").status_code == 200
    listed = anon.get(base + "/").json()["results"]
    assert [(s["number"], s["status"]) for s in listed] == [(1, "closed"), (2, "running")]
    placed = client.post(f"{base}/2/entrants/", {"entry": teams[-1].entries.get().pk}, format="json")
    assert placed.status_code == 201 and placed.json()["seed"] == 5
    elsewhere = TeamFactory().pk  # not an entry here: refused in the reader's language
    refused = client.post(f"{base}/2/entrants/", {"entry": 10**6 + elsewhere}, format="json", HTTP_ACCEPT_LANGUAGE="nl")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"code": "invalid", "attr": "entry", "detail": (
        f"Inschrijving {10**6 + elsewhere} is geen inschrijving van dit toernooi.")}]


def test_a_stages_standings_read_in_as_many_queries_for_fifteen_pools_as_for_two(anon):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.tournaments.test_stages_close_start import pools_event
    from tournaments.services.rounds import round_pair
    from tournaments.services.standings import standings_recompute

    counts = []
    for teams, pools in ((8, 2), (60, 15)):
        tournament, _, _ = pools_event(teams, pools)
        round_pair(tournament=tournament)
        standings_recompute(tournament=tournament)
        with CaptureQueriesContext(connection) as queries:
            body = anon.get(f"/api/v1/tournaments/{tournament.pk}/stages/1/standings/").json()
        assert len(body["rows"]) == teams and len({r["pool"] for r in body["rows"]}) == pools
        counts.append(len(queries))
    assert counts[0] == counts[1]

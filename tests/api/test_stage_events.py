"""Multi-stage events end to end through the API (issue 27): the Roeselare duo championship (60 pairs, 15 pools
of 4 each a round robin of three rounds, the pool winners and the best runner-up to a 16-team knockout played to
the final) and a 44-player individual championship (a three-round `tables` qualification, the best 16 to a
semi-final, its 4 table winners to the final). Every step is a request: the stages planned, the rounds paired,
every hand entered, the stages closed and started, the standings read (a stage's, a pool's, the event's)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.api.individual import enter_players, individual_event
from tests.factories import ClubFactory, TeamFactory, UserFactory
from tournaments.models import Match, RoundSeat
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

SEATS = "NESW"


def play(client, match_id: int, ns_wins: bool) -> None:
    """One game of two all-trick hands (best of one): the side told wins."""
    for dealer in "NE":
        answer = client.post(f"/api/v1/matches/{match_id}/hands/",
                             summary(dealer, 60 if ns_wins else 0, tricks=(8, 0) if ns_wins else (0, 8)),
                             format="json")
        assert answer.status_code == 201, answer.json()


def pair(client, tournament, capture) -> dict:
    with capture(execute=True):
        answer = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 202, answer.json()
    return answer.json()


def test_the_roeselare_duo_championship(club, django_capture_on_commit_callbacks):
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(name="Roeselare Duo", club=club, variant="belgian-manille", best_of=1)
    organizer = UserFactory(username="roeselare")
    tournament.organizers.add(organizer)
    client = client_for(organizer)
    base = f"/api/v1/tournaments/{tournament.pk}"
    assert client.patch(f"{base}/", {"format": "pools", "rounds": 3}, format="json").status_code == 200
    clubs = [ClubFactory(name=f"Club {i}") for i in range(12)]
    teams = [TeamFactory(name=f"Duo {i:02d}", club=clubs[i % 12]) for i in range(60)]
    strength = {t.pk: i for i, t in enumerate(teams)}  # the lower, the stronger
    for seed, team in enumerate(teams, start=1):
        assert client.post(f"{base}/entries/", {"team": team.pk, "seed": seed}, format="json").status_code == 201
    patched = client.patch(f"{base}/stages/1/", {"pools": 15}, format="json")
    assert patched.status_code == 200 and patched.json()["pools"] == 15, patched.json()
    knockout = client.post(f"{base}/stages/", {"format": "knockout", "rounds": 4, "previous_qualification": {
        "kind": "pools", "per_pool": 1, "best_next": 1}}, format="json")
    assert knockout.status_code == 201, knockout.json()
    refused = client.post(f"{base}/stages/2/start/")
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == "stage_previous_open"

    for number in (1, 2, 3):
        pair(client, tournament, django_capture_on_commit_callbacks)
        rnd = client.get(f"{base}/rounds/{number}/").json()
        assert rnd["stage"] == 1 and len(rnd["matches"]) == 30
        assert [m["table"] for m in rnd["matches"]] == list(range(1, 31))
        for m in rnd["matches"]:
            play(client, m["id"], strength[m["ns"]] < strength[m["ew"]])
    standings_recompute(tournament=tournament)
    pools = client.get(f"{base}/stages/1/standings/").json()
    assert len(pools["rows"]) == 60 and {r["pool"] for r in pools["rows"]} == set(range(1, 16))
    assert (pools["count"], pools["next"], pools["previous"]) == (60, None, None)
    assert all(r["qualified"] is None for r in pools["rows"])
    one = client.get(f"{base}/stages/1/standings/?pool=7").json()["rows"]
    assert len(one) == 4 and sorted(r["pool_rank"] for r in one) == [1, 2, 3, 4]
    # The stage's standings read in a constant number of queries, one pool or fifteen.
    with CaptureQueriesContext(connection) as all_pools:
        client.get(f"{base}/stages/1/standings/")
    with CaptureQueriesContext(connection) as a_pool:
        client.get(f"{base}/stages/1/standings/?pool=2")
    assert len(all_pools) == len(a_pool)

    closed = client.post(f"{base}/stages/1/close/")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["status"] == "closed"
    cut = client.get(f"{base}/stages/1/standings/").json()
    went = [r for r in cut["rows"] if r["qualified"]]
    assert len(went) == 16 and sum(r["pool_rank"] == 1 for r in went) == 15
    assert client.post(f"{base}/stages/1/close/").json()["errors"][0]["code"] == "stage_status"

    started = client.post(f"{base}/stages/2/start/")
    assert started.status_code == 200 and started.json()["status"] == "running" and started.json()["seed"]
    pair(client, tournament, django_capture_on_commit_callbacks)
    pool_of = {r["team"]: r["pool"] for r in cut["rows"]}
    for number, tables in ((1, 8), (2, 4), (3, 2), (4, 1)):
        rnd = client.get(f"{base}/rounds/{number}/").json()  # the running stage's round
        assert rnd["stage"] == 2 and len(rnd["matches"]) == tables
        if number == 1:
            assert all(pool_of[m["ns"]] != pool_of[m["ew"]] for m in rnd["matches"])
        for m in rnd["matches"]:
            play(client, m["id"], strength[m["ns"]] < strength[m["ew"]])
    assert client.get(f"{base}/rounds/1/?stage=1").json()["stage"] == 1
    rounds = client.get(f"{base}/stages/2/rounds/").json()["results"]
    assert [r["number"] for r in rounds] == [1, 2, 3, 4]
    final = rounds[-1]["matches"][0]
    champion = final["ns"] if strength[final["ns"]] < strength[final["ew"]] else final["ew"]
    assert client.post(f"{base}/stages/2/close/").status_code == 200
    standings_recompute(tournament=tournament)
    event = client.get(f"{base}/standings/").json()
    assert len(event["rows"]) == 60
    assert event["rows"][0]["team"] == champion and event["rows"][0]["stage"] == 2
    assert [r["stage"] for r in event["rows"]] == [2] * 16 + [1] * 44
    assert event["clubs"] and {c["club_name"] for c in event["clubs"]} <= {f"Club {i}" for i in range(12)}
    assert client.get(f"{base}/").json()["status"] == "finished"


def test_a_44_player_individual_championship(django_capture_on_commit_callbacks):
    event = individual_event(name="Belgisch Kampioenschap", rounds=3)
    organizer = UserFactory(username="bk-organizer")
    event.organizers.add(organizer)
    players = enter_players(event, 44, clubs=6)
    strength = {p.pk: i for i, p in enumerate(players)}
    client = client_for(organizer)
    base = f"/api/v1/tournaments/{event.pk}"
    assert client.post(f"{base}/stages/", {"format": "tables", "rounds": 3, "previous_qualification": {
        "kind": "top", "count": 16}}, format="json").status_code == 201
    final = client.post(f"{base}/stages/", {"format": "tables", "rounds": 3, "previous_qualification": {
        "kind": "table_winners"}}, format="json")
    assert final.status_code == 201, final.json()

    def play_stage(stage, tables):
        for number in (1, 2, 3):
            pair(client, event, django_capture_on_commit_callbacks)
            rnd = client.get(f"{base}/rounds/{number}/").json()
            assert rnd["stage"] == stage and len(rnd["matches"]) == tables, rnd
            for m in rnd["matches"]:
                seats = {s.seat: s.player_id for s in RoundSeat.objects.filter(match_id=m["id"])}
                ns = min(strength[seats["N"]], strength[seats["S"]])
                ew = min(strength[seats["E"]], strength[seats["W"]])
                play(client, m["id"], ns < ew)
        closed = client.post(f"{base}/stages/{stage}/close/")
        assert closed.status_code == 200, closed.json()

    play_stage(1, 11)
    standings_recompute(tournament=event)
    qualified = [r for r in client.get(f"{base}/stages/1/standings/").json()["rows"] if r["qualified"]]
    assert len(qualified) == 16
    assert client.post(f"{base}/stages/2/start/").status_code == 200
    play_stage(2, 4)
    standings_recompute(tournament=event)
    semi = client.get(f"{base}/stages/2/standings/").json()
    assert len(semi["rows"]) == 16 and sum(bool(r["qualified"]) for r in semi["rows"]) == 4
    assert client.post(f"{base}/stages/3/start/").status_code == 200
    play_stage(3, 1)
    standings_recompute(tournament=event)
    ranking = client.get(f"{base}/standings/").json()["rows"]
    assert len(ranking) == 44
    assert [r["stage"] for r in ranking] == [3] * 4 + [2] * 12 + [1] * 28
    assert all("player" in r for r in ranking)
    assert not Match.objects.filter(round__tournament=event).exclude(status="finished").exists()

"""Rounds of individual events through the API (issue 26): players by side in every match, sit-outs and the seed,
the draw anyone can check and its redraw, the round clock, hands played before the clock's end."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.api.individual import enter_players, individual_event, names, seated_round
from tests.factories import TeamFactory
from tournaments.models import Match, Round, RoundDraw, RoundSeat
from tournaments.pairing import individual
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def errors(response) -> list[tuple[str, str | None]]:
    """The refusals' codes and fields (a 409 names no field)."""
    return [(e["code"], e["attr"]) for e in response.json()["errors"]]


@pytest.fixture
def event(organizer):
    tournament = individual_event(match_length="timed", minutes=30, at_time="finish")
    tournament.organizers.add(organizer)
    return tournament


@pytest.fixture
def drawn(event, organizer, django_capture_on_commit_callbacks):
    """Nine players entered and round 1 drawn through the pair request: two tables, one player sitting out."""
    players = enter_players(event, 9)
    with django_capture_on_commit_callbacks(execute=True):
        accepted = client_for(organizer).post(f"/api/v1/tournaments/{event.pk}/rounds/", {}, format="json")
    assert accepted.status_code == 202, accepted.json()
    task = client_for(organizer).get(accepted.json()["status_url"]).json()
    assert task["status"] == "succeeded", task
    return players


def round_url(tournament, number=1, tail="") -> str:
    return f"/api/v1/tournaments/{tournament.pk}/rounds/{number}/{tail}"


def test_a_drawn_round_names_each_sides_players_and_who_sits_out(event, drawn, anon):
    rnd = anon.get(round_url(event)).json()
    assert rnd["seed"] == Round.objects.get(tournament=event).seed and len(rnd["seed"]) >= 8
    assert len(rnd["matches"]) == 2 and len(rnd["sitting_out"]) == 1
    by_id = {p.pk: p for p in drawn}
    seated = set(rnd["sitting_out"])
    for match in rnd["matches"]:
        assert (match["ns"], match["ew"], match["ns_detail"], match["ew_detail"], match["bye"]) == (
            None, None, None, None, False)
        assert len(match["players"]["ns"]) == len(match["players"]["ew"]) == 2
        for side in ("ns", "ew"):
            assert match["players"][side] == names(by_id[p["id"]] for p in match["players"][side])
            seated |= {p["id"] for p in match["players"][side]}
        assert "table_code" not in match  # it binds a phone to the match: never public
    assert seated == set(by_id)
    # The seats agree: N and S the first side, E and W the second.
    seats = {(s.match_id, s.player_id): s.seat for s in RoundSeat.objects.filter(round__tournament=event)}
    first = rnd["matches"][0]
    assert [seats[(first["id"], p["id"])] for p in first["players"]["ns"]] == ["N", "S"]
    listing = anon.get(f"/api/v1/tournaments/{event.pk}/rounds/").json()["results"]
    assert listing[0]["sitting_out"] == rnd["sitting_out"] and listing[0]["matches"] == rnd["matches"]


def test_match_lists_scoreboards_and_tables_name_the_players_too(event, drawn, anon):
    rnd = anon.get(round_url(event)).json()
    match = rnd["matches"][0]
    listed = anon.get(f"/api/v1/matches/?tournament={event.pk}").json()["results"]
    assert [(m["id"], m["players"], m["bye"], m["ns"]) for m in listed][0] == (
        match["id"], match["players"], False, None)
    board = anon.get(f"/api/v1/matches/{match['id']}/").json()
    assert (board["ns"], board["ew"], board["bye"], board["players"]) == (None, None, False, match["players"])
    north = match["players"]["ns"][0]["id"]
    mine = anon.get(f"/api/v1/matches/?tournament={event.pk}&player={north}").json()["results"]
    assert [m["id"] for m in mine] == [match["id"]]
    tables = anon.get(round_url(event, tail="tables/")).json()["tables"]
    assert [t["players"] for t in tables] == [m["players"] for m in rnd["matches"]]
    assert all(t["ns"] is None and t["bye"] is False for t in tables)


def test_hands_are_entered_at_an_individual_match_and_refusals_name_its_partnerships(event, drawn, organizer):
    match = client_for(organizer).get(round_url(event)).json()["matches"][0]
    client = client_for(organizer)
    stored = client.post(f"/api/v1/matches/{match['id']}/hands/", summary("N"), format="json")
    assert stored.status_code == 201, stored.json()
    refused = client.post(f"/api/v1/matches/{match['id']}/hands/", summary("E") | {"score": {"ns": 9, "ew": 0}},
                          format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "score_mismatch"
    north_south = " & ".join(p["name"] for p in match["players"]["ns"])
    assert north_south in refused.json()["errors"][0]["detail"]


def test_the_draw_is_answered_with_its_inputs_and_the_pure_draw_makes_it_again(event, drawn, anon, tmp_path):
    answer = anon.get(round_url(event, tail="draw/"))
    assert answer.status_code == 200
    body = answer.json()
    assert body["round"] == 1 and len(body["draws"]) == 1
    draw = body["draws"][0]
    assert draw["in_use"] and draw["seed"] == body["seed"] == draw["inputs"]["seed"]
    assert [p["number"] for p in draw["inputs"]["players"]] == list(range(1, 10))  # start numbers, never ids
    again = individual.draw(individual.DrawInputs.from_json(draw["inputs"])).to_json()
    assert again == draw["result"]
    # The answer as it is is what the standalone check script reads (the draw in use at its top).
    assert (body["inputs"], body["result"]) == (draw["inputs"], draw["result"])
    from tournaments.pairing.individual import check

    answer = tmp_path / "draw.json"
    answer.write_bytes(anon.get(round_url(event, tail="draw/")).content)
    assert check.main([str(answer)]) == 0


def test_a_redraw_before_any_game_keeps_every_draw(event, drawn, organizer, anon, stranger):
    client = client_for(organizer)
    before = client.get(round_url(event)).json()
    assert client_for(stranger).post(round_url(event, tail="redraw/"), format="json").status_code == 403
    assert anon.post(round_url(event, tail="redraw/"), format="json").status_code == 401
    redrawn = client.post(round_url(event, tail="redraw/"), format="json")
    assert redrawn.status_code == 200, redrawn.json()
    after = redrawn.json()
    assert after["seed"] != before["seed"] and after["matches"] == client.get(round_url(event)).json()["matches"]
    draws = anon.get(round_url(event, tail="draw/")).json()["draws"]
    assert [d["seed"] for d in draws] == [before["seed"], after["seed"]]
    assert [d["in_use"] for d in draws] == [False, True]
    hand_enter(match_id=after["matches"][0]["id"], data=summary("N"))
    started = client.post(round_url(event, tail="redraw/"), format="json")
    assert started.status_code == 409 and errors(started) == [("round_started", None)]
    assert RoundDraw.objects.filter(round__tournament=event).count() == 2


def test_a_team_events_round_has_no_draw_and_is_not_redrawn(tournament, organizer, anon, match):
    body = anon.get(round_url(tournament)).json()
    assert body["sitting_out"] == [] and body["seed"] is None
    assert body["matches"][0]["bye"] is False
    assert body["matches"][0]["players"]["ns"] == names((match.ns.player_1, match.ns.player_2))
    assert anon.get(round_url(tournament, tail="draw/")).json() == {"round": 1, "seed": None, "inputs": None,
                                                                    "result": None, "draws": []}
    refused = client_for(organizer).post(round_url(tournament, tail="redraw/"), format="json")
    assert refused.status_code == 400 and errors(refused)[0][0] == "entry_kind"


def test_a_bye_has_its_team_players_and_an_empty_second_side(tournament, anon):
    team = TeamFactory()
    rnd = Round.objects.create(tournament=tournament, number=1)
    Match.objects.create(round=rnd, table=1, ns=team, ew=None)
    match = anon.get(round_url(tournament)).json()["matches"][0]
    assert match["bye"] is True and match["players"] == {"ns": names((team.player_1, team.player_2)), "ew": []}
    board = anon.get(f"/api/v1/matches/{match['id']}/").json()
    assert board["bye"] is True and board["players"]["ew"] == []
    assert anon.get(f"/api/v1/matches/?player={team.player_2_id}").json()["count"] == 1


# -- the round clock ---------------------------------------------------------------------------------------------

def test_the_organizer_runs_the_round_clock_and_everyone_reads_it(event, drawn, organizer, anon, stranger):
    url, client = round_url(event, tail="clock/"), client_for(organizer)
    assert anon.get(url).json()["status"] == "not_started"
    assert anon.get(round_url(event)).json()["clock"]["status"] == "not_started"
    assert client_for(stranger).post(url, {"action": "start"}, format="json").status_code == 403
    started = client.post(url, {"action": "start"}, format="json").json()
    assert started["status"] == "running" and started["minutes"] == 30 and 1795 <= started["remaining"] <= 1800
    again = client.post(url, {"action": "start"}, format="json")
    assert again.status_code == 409 and errors(again) == [("clock_started", None)]
    paused = client.post(url, {"action": "pause"}, format="json").json()
    assert paused["status"] == "paused" and paused["ends_at"] is None and paused["remaining"] >= 1795
    assert anon.get(url).json()["remaining"] == paused["remaining"]
    assert client.post(url, {"action": "extend", "minutes": 5}, format="json").json()["remaining"] == \
        paused["remaining"] + 300
    resumed = client.post(url, {"action": "resume"}, format="json").json()
    assert resumed["status"] == "running" and resumed["ends_at"]
    assert anon.get(round_url(event)).json()["clock"]["ends_at"] == resumed["ends_at"]
    ended = client.post(url, {"action": "end"}, format="json").json()
    assert ended["status"] == "over" and ended["remaining"] == 0


@pytest.mark.parametrize(("body", "code", "attr"), [
    ({"action": "stop"}, "invalid_choice", "action"),
    ({"action": "extend"}, "required", "minutes"),
    ({"action": "start", "minutes": 0}, "min_value", "minutes"),
    ({"action": "start", "minutes": 601}, "max_value", "minutes"),
    ({}, "required", "action"),
])
def test_a_clock_action_that_makes_no_sense_is_a_400(event, drawn, organizer, body, code, attr):
    response = client_for(organizer).post(round_url(event, tail="clock/"), body, format="json")
    assert response.status_code == 400 and (code, attr) in errors(response)


def test_a_clock_not_started_cannot_be_paused_or_ended(event, drawn, organizer):
    client = client_for(organizer)
    for act in ("pause", "resume", "end"):
        response = client.post(round_url(event, tail="clock/"), {"action": act}, format="json")
        assert response.status_code == 409, act
    assert client.get(round_url(event, 9, "clock/")).status_code == 404


def test_a_game_started_after_the_clock_is_refused_unless_played_before_its_end(event, drawn, organizer):
    client = client_for(organizer)
    matches = client.get(round_url(event)).json()["matches"]
    Round.objects.filter(tournament=event).update(clock_started_at=timezone.now() - timedelta(minutes=31),
                                                  clock_ends_at=timezone.now() - timedelta(minutes=1))
    late = client.post(f"/api/v1/matches/{matches[0]['id']}/hands/", summary("N"), format="json")
    assert late.status_code == 409 and errors(late) == [("round_time_over", None)]
    played = (timezone.now() - timedelta(minutes=5)).isoformat()
    queued = client.post(f"/api/v1/matches/{matches[0]['id']}/hands/", summary("N") | {"played_at": played},
                         format="json")
    assert queued.status_code == 201, queued.json()
    bad = client.post(f"/api/v1/matches/{matches[1]['id']}/hands/", summary("N") | {"played_at": "yesterday"},
                      format="json")
    assert bad.status_code == 400 and errors(bad)[0][1] == "played_at"


# -- pairing an individual event ---------------------------------------------------------------------------------

def test_too_few_players_are_refused_at_once(event, organizer):
    enter_players(event, 3)
    response = client_for(organizer).post(f"/api/v1/tournaments/{event.pk}/rounds/", {}, format="json")
    assert response.status_code == 400 and errors(response) == [("too_few_players", None)]


def test_rounds_seated_by_hand_answer_the_same_shape(organizer, anon):
    event = individual_event()
    players = enter_players(event, 5)
    seated_round(event, 1, [tuple(players[:4])], out=(players[4],))
    rnd = anon.get(round_url(event)).json()
    assert rnd["sitting_out"] == [players[4].pk] and rnd["seed"] == "seed-1"
    assert rnd["matches"][0]["players"] == {"ns": names((players[0], players[2])),
                                            "ew": names((players[1], players[3]))}


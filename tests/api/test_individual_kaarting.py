"""A 21-player `tables` kaarting played through the API from end to end (issue 26): the event and its players
entered, three rounds drawn through the pair request (one cycle: the same tables, the partners rotating), every
hand entered at the tables, a player withdrawing after round 2 under the `sit_out` rule (their table is not
played in round 3, its other three sit it out and score the round's mean), the standings a row a player."""

import pytest

from tests.api.conftest import client_for
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

WIN_NS = {"dealer": "N", "trump": "H", "tricks": {"ns": 8, "ew": 0}, "points": {"ns": 60, "ew": 0}}
WIN_EW = {"dealer": "N", "trump": "H", "tricks": {"ns": 0, "ew": 8}, "points": {"ns": 0, "ew": 60}}


def ok(response, status=200):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def seats(match) -> dict[str, int]:
    """A match's players by seat: N and S the first side, E and W the second."""
    (n, s), (e, w) = ([p["id"] for p in match["players"][side]] for side in ("ns", "ew"))
    return {"N": n, "S": s, "E": e, "W": w}


def play(client, match, ns_wins: bool) -> None:
    """Enter hands at the table until the match is decided (best of one game to 101: two hands of 60 all tricks)."""
    url = f"/api/v1/matches/{match['id']}/hands/"
    state = None
    for n in range(1, 6):
        hand = dict(WIN_NS if ns_wins else WIN_EW, dealer="NESWN"[n - 1])
        state = ok(client.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY=f"m{match['id']}-h{n}"), 201)
        if state["match"]["status"] == "finished":
            break
    assert state["match"]["winner"] == ("ns" if ns_wins else "ew")


def draw_next(client, tournament_id, capture) -> dict:
    with capture(execute=True):
        accepted = ok(client.post(f"/api/v1/tournaments/{tournament_id}/rounds/", {}, format="json"), 202)
    task = ok(client.get(accepted["status_url"]))
    assert task["status"] == "succeeded", task
    return ok(client.get(task["round"]))


def test_a_21_player_tables_kaarting_through_the_api(organizer, anon, django_capture_on_commit_callbacks):
    client, capture = client_for(organizer), django_capture_on_commit_callbacks
    event = ok(client.post("/api/v1/tournaments/", {
        "name": "Kortrijkse Kaarting", "variant": "belgian-manille", "entry": "individual", "format": "tables",
        "rounds": 3, "best_of": 1, "withdrawal": "sit_out", "sit_out_score": "mean", "public": True},
        format="json"), 201)
    tid, base = event["id"], f"/api/v1/tournaments/{event['id']}"

    # -- 21 players of three clubs (and one without), entered by start number --------------------------------
    clubs = [ClubFactory(name=name) for name in ("De Rode Leeuw", "Café Sportwereld", "Het Witte Paard")]
    players = [PlayerFactory(name=f"Speler {n:02d}", club=clubs[n % 3] if n != 21 else None) for n in range(1, 22)]
    for n, player in enumerate(players, start=1):
        assert ok(client.post(f"{base}/entries/", {"player": player.pk}, format="json"), 201)["start_number"] == n
    assert ok(client.post(f"{base}/entries/", {"player": "x"}, format="json"), 400)["errors"][0]["attr"] == "player"
    listed = ok(anon.get(f"{base}/entries/"))
    assert listed["count"] == 21 and listed["results"][20]["player_detail"]["club"] is None

    # -- round 1: five tables of four, one player sitting out ------------------------------------------------------
    round1 = draw_next(client, tid, capture)
    assert len(round1["matches"]) == 5 and len(round1["sitting_out"]) == 1 and round1["seed"]
    seated1 = {m["table"]: seats(m) for m in round1["matches"]}
    assert sorted({p for s in seated1.values() for p in s.values()} | set(round1["sitting_out"])) == sorted(
        p.pk for p in players)
    assert ok(client.patch(f"{base}/entries/start-numbers/", {"numbers": [
        {"entry": Entry.objects.get(player=players[0]).pk, "start_number": 99}]}, format="json"), 409)
    unfinished = client.post(f"{base}/rounds/", {}, format="json")
    assert ok(unfinished, 409)["errors"][0]["code"] == "round_unfinished"
    with capture(execute=True):  # each result's work on commit: the standings recomputed, as a worker does
        for match in round1["matches"]:
            play(client, match, ns_wins=match["table"] % 2 == 1)
    assert ok(client.post(f"{base}/rounds/1/redraw/", format="json"), 409)["errors"][0]["code"] == "round_started"

    # -- round 2: the same tables, the seated scorer stays, a new partner ------------------------------------
    round2 = draw_next(client, tid, capture)
    assert round2["sitting_out"] == round1["sitting_out"]
    seated2 = {m["table"]: seats(m) for m in round2["matches"]}
    for table, before in seated1.items():
        after = seated2[table]
        assert set(after.values()) == set(before.values()) and after["N"] == before["N"]
        assert after["S"] != before["S"]  # the scorer partners each of the other three once
    with capture(execute=True):  # each result's work on commit: the standings recomputed, as a worker does
        for match in round2["matches"]:
            play(client, match, ns_wins=match["table"] % 2 == 0)

    # -- a player of table 2 withdraws after round 2 (the sit_out rule) ---------------------------------------
    leaver = seated2[2]["E"]
    entry = Entry.objects.get(tournament_id=tid, player_id=leaver)
    assert client.delete(f"{base}/entries/{entry.pk}/").status_code == 204
    withdrawn = ok(client.get(f"{base}/entries/{entry.pk}/"))
    assert withdrawn["withdrawn"] is True and withdrawn["withdrawn_after_round"] == 2

    # -- round 3: table 2 is not played; its other three sit out with the cycle's sit-out ----------------------
    round3 = draw_next(client, tid, capture)
    assert sorted(m["table"] for m in round3["matches"]) == [1, 3, 4, 5]
    tablemates = sorted(set(seated2[2].values()) - {leaver})
    assert sorted(round3["sitting_out"]) == sorted([*round1["sitting_out"], *tablemates])
    assert leaver not in {p for m in round3["matches"] for p in seats(m).values()} | set(round3["sitting_out"])
    seated3 = {m["table"]: seats(m) for m in round3["matches"]}
    for table, after in seated3.items():
        partners = {seated1[table]["S"], seated2[table]["S"], after["S"]}
        assert after["N"] == seated1[table]["N"] and len(partners) == 3
    with capture(execute=True):  # each result's work on commit: the standings recomputed, as a worker does
        for match in round3["matches"]:
            play(client, match, ns_wins=True)
    with capture(execute=True):  # the worker refuses a fourth round of a three-round event
        accepted = ok(client.post(f"{base}/rounds/", {}, format="json"), 202)
    refused = ok(client.get(accepted["status_url"]))
    assert refused["status"] == "failed" and refused["error"]["code"] == "tournament_over"

    # -- the standings: a row a player, the sit-outs scored by the round's mean -------------------------------
    standings = ok(anon.get(f"{base}/standings/"))
    rows = {r["player"]: r for r in standings["rows"]}
    assert set(rows) == {p.pk for p in players} and all("team" not in r for r in standings["rows"])
    assert [r["rank"] for r in standings["rows"]] == sorted(r["rank"] for r in standings["rows"])
    winners = {m["table"]: (m["winner"], seats(m)) for m in ok(anon.get(f"{base}/rounds/"))["results"][0]["matches"]}
    assert all(w is not None for w, _ in winners.values())

    def won(player: int) -> int:
        """Matches the player won, read off the three rounds' answers."""
        count = 0
        for rnd in ok(anon.get(f"{base}/rounds/"))["results"]:
            for m in rnd["matches"]:
                side = next((s for s in ("ns", "ew") if player in [p["id"] for p in m["players"][s]]), None)
                count += side is not None and m["winner"] == side
        return count

    for player in tablemates:  # two matches played, round 3 sat out: the round's mean (one point a player)
        row = rows[player]
        assert row["played"] == 2 and row["won"] == won(player)
        assert row["match_points"] == 2 * won(player) + 1, row
    assert rows[leaver]["played"] == 2 and rows[leaver]["match_points"] == 2 * won(leaver)
    for player in round1["sitting_out"]:  # the cycle sat out: the mean of each round
        assert rows[player]["played"] == 0 and rows[player]["match_points"] == 3
    seated_all_three = seated3[1]["N"]
    assert rows[seated_all_three]["played"] == 3
    assert rows[players[20].pk]["player_detail"]["club"] is None
    assert {c["club"] for c in standings["clubs"]} == {c.pk for c in clubs}
    assert all(c["players"] >= 1 and 0 <= c["percentage"] <= 100 for c in standings["clubs"])


def test_a_22_player_swiss_event_through_the_api(organizer, anon, django_capture_on_commit_callbacks):
    """Swiss for players alone: new partners every round (never twice), two sitting out a round (22 = 5 tables and
    2), nobody sitting out twice before everyone has once, a player withdrawing after round 2, the standings ranked by
    match points."""
    client, capture = client_for(organizer), django_capture_on_commit_callbacks
    event = ok(client.post("/api/v1/tournaments/", {
        "name": "Gentse Individuele", "variant": "belgian-manille", "entry": "individual", "format": "swiss",
        "rounds": 4, "best_of": 1, "sit_out_score": "fixed",
        "sit_out_fixed": {"match_points": 1, "games_won": 0, "points_for": 0}, "public": True}, format="json"), 201)
    tid, base = event["id"], f"/api/v1/tournaments/{event['id']}"
    clubs = [ClubFactory(name=name) for name in ("Den Ouden Tram", "Het Hoefijzer")]
    players = [PlayerFactory(name=f"Speelster {n:02d}", club=clubs[n % 2]) for n in range(1, 23)]
    for player in players:
        ok(client.post(f"{base}/entries/", {"player": player.pk}, format="json"), 201)
    partners, sat_out, active = set(), [], {p.pk for p in players}
    for number in range(1, 5):
        drawn = draw_next(client, tid, capture)
        assert drawn["number"] == number
        tables = [seats(m) for m in drawn["matches"]]
        seated = [p for s in tables for p in s.values()]
        assert sorted(seated + drawn["sitting_out"]) == sorted(active)  # everyone once: at a table or out
        for s in tables:
            for pair in ((s["N"], s["S"]), (s["E"], s["W"])):
                assert frozenset(pair) not in partners, "a partnership repeated"
                partners.add(frozenset(pair))
        sat_out += drawn["sitting_out"]
        with capture(execute=True):
            for match in drawn["matches"]:
                play(client, match, ns_wins=match["table"] % 2 == 1)
        if number == 2:
            leaver = tables[0]["W"]
            entry = Entry.objects.get(tournament_id=tid, player_id=leaver)
            assert client.delete(f"{base}/entries/{entry.pk}/").status_code == 204
            active.discard(leaver)
    assert len(sat_out) == len(set(sat_out))  # 2 + 2 + 1 + 1 sit-outs: nobody twice
    standings = ok(anon.get(f"{base}/standings/"))
    rows = standings["rows"]
    assert {r["player"] for r in rows} == {p.pk for p in players}
    assert [r["match_points"] for r in rows] == sorted((r["match_points"] for r in rows), reverse=True)
    for player in sat_out:  # the fixed sit-out score: one match point a round sat out
        row = next(r for r in rows if r["player"] == player)
        assert row["match_points"] == 2 * row["won"] + 1

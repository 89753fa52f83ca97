"""The standings of an individual event through the API (issue 26): one row a player, the clubs ranked from their
players, both valid to the schema."""

import pytest

from tests.api.individual import enter_players, individual_event, seated_round
from tests.api.test_schema_contract import _validator
from tournaments.models import Match
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(_served_schema_text):
    """The served schema (fetched once a session: tests/conftest.py)."""
    import json

    return json.loads(_served_schema_text)


def finish(match: Match, winner: str, points: tuple[int, int]) -> None:
    """A match decided in one game (its result fields as the hand services leave them)."""
    won = {"ns": (1, 0), "ew": (0, 1)}[winner]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=winner, games_won_ns=won[0],
                                             games_won_ew=won[1], points_ns=points[0], points_ew=points[1])


def test_an_individual_events_standings_have_a_row_a_player_and_clubs_from_players(anon, schema):
    event = individual_event(sit_out_score="nothing", club_best_n=None)
    players = enter_players(event, 9, clubs=2, without_club=1)
    rnd = seated_round(event, 1, [tuple(players[0:4]), tuple(players[4:8])], out=(players[8],))
    first, second = rnd.matches.order_by("table")
    finish(first, "ns", (101, 40))  # players 1 and 3 beat 2 and 4
    finish(second, "ew", (55, 101))  # players 6 and 8 beat 5 and 7
    standings_recompute(tournament=event)
    body = anon.get(f"/api/v1/tournaments/{event.pk}/standings/").json()
    _validator(schema, schema["paths"]["/api/v1/tournaments/{tournament_id}/standings/"]["get"]["responses"]["200"][
        "content"]["application/json"]["schema"]).validate(body)
    rows = {r["player"]: r for r in body["rows"]}
    assert set(rows) == {p.pk for p in players} and all("team" not in r for r in body["rows"])
    winner = rows[players[0].pk]
    assert (winner["played"], winner["won"], winner["games_won"], winner["points_for"], winner["points_against"]) == (
        1, 1, 1, 101, 40)
    assert winner["player_detail"] == {"id": players[0].pk, "name": players[0].name,
                                       "club": {"id": players[0].club_id, "name": players[0].club.name}}
    assert winner["start_number"] == 1
    assert rows[players[8].pk]["played"] == 0 and rows[players[8].pk]["player_detail"]["club"] is None
    assert body["rows"][0]["rank"] == 1 and body["rows"][0]["player"] in {p.pk for p in players[:8]}
    # The clubs from their players (the player without a club left out), each counting its players.
    assert {c["club"] for c in body["clubs"]} == {players[0].club_id, players[1].club_id}
    assert all("players" in c and "teams" not in c and c["club_name"] for c in body["clubs"])
    top = anon.get(f"/api/v1/tournaments/{event.pk}/standings/?limit=2").json()
    assert [r["player"] for r in top["rows"]] == [r["player"] for r in body["rows"][:2]]


def test_a_team_events_standings_keep_their_team_rows(anon, schema, tournament, teams):
    from tests.factories import EntryFactory

    for team in teams:
        EntryFactory(tournament=tournament, team=team)
    standings_recompute(tournament=tournament)
    body = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    _validator(schema, schema["paths"]["/api/v1/tournaments/{tournament_id}/standings/"]["get"]["responses"]["200"][
        "content"]["application/json"]["schema"]).validate(body)
    assert {r["team"] for r in body["rows"]} == {t.pk for t in teams}
    assert all("player" not in r and r["team_detail"]["name"] for r in body["rows"])

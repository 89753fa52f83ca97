"""The organizer's CSV exports (web/workspace/exports.py): a team event's entries; an individual event's entries with
their start numbers and seats, its results seat by seat, its standings a player a row (issue 26)."""

import csv
import io

import pytest
from django.urls import reverse

from tests.api.individual import enter_players, individual_event, seated_round
from tests.factories import EntryFactory, TeamFactory, UserFactory
from tournaments.models import Match, Round
from tournaments.services.rounds import entry_withdraw
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def rows_of(client, name: str, tournament) -> list[list[str]]:
    response = client.get(reverse(f"ws:export-{name}", args=[tournament.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == f'attachment; filename="{tournament.slug}-{name}.csv"'
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga")


@pytest.fixture
def kaarting(organizer, client):
    """Nine players (the last without a club) at two tables of round 1, player 9 sitting out; table 1 won by NS."""
    event = individual_event(slug="kaarting")
    event.organizers.add(organizer)
    players = enter_players(event, 9, clubs=2, without_club=1)
    rnd = seated_round(event, 1, [tuple(players[0:4]), tuple(players[4:8])], out=(players[8],))
    Match.objects.filter(round=rnd, table=1).update(status="finished", winner="ns", games_won_ns=1, points_ns=101,
                                                    points_ew=40)
    client.force_login(organizer)
    return event, players


def test_a_team_events_entries_name_their_teams_players_and_withdrawals(client, organizer):
    from tests.factories import TournamentFactory

    cup = TournamentFactory(slug="cup")
    cup.organizers.add(organizer)
    teams = [TeamFactory(name=f"Ploeg {n}") for n in (1, 2)]
    entries = [EntryFactory(tournament=cup, team=team, seed=n + 1) for n, team in enumerate(teams)]
    entry_withdraw(entry=entries[1])
    client.force_login(organizer)
    rows = rows_of(client, "entries", cup)
    assert rows[0] == ["Seed", "Team", "Club", "Player 1", "Player 2", "Withdrawn", "After round"]
    assert rows[1] == ["1", "Ploeg 1", teams[0].club.name, teams[0].player_1.name, teams[0].player_2.name, "", ""]
    assert rows[2][0] == "2" and rows[2][5:] == ["yes", "0"]


def test_an_individual_events_entries_carry_start_numbers_and_every_rounds_seat(client, kaarting):
    event, players = kaarting
    rows = rows_of(client, "entries", event)
    assert rows[0] == ["Start number", "Player", "Club", "Fixed table", "Reserve", "Replaces", "Withdrawn",
                       "After round", "Round 1"]
    assert [r[0] for r in rows[1:]] == [str(n) for n in range(1, 10)]
    assert rows[1][1:3] == [players[0].name, players[0].club.name] and rows[1][8] == "Table 1, N"
    assert rows[4][8] == "Table 1, W" and rows[9][2] == "" and rows[9][8] == "sits out"


def test_a_later_stages_rounds_have_columns_of_their_own(client, kaarting):
    """Round numbers count per stage: a final's round 1 is a column of its own ("Stage 2, round 1"), not stage 1's
    round 1 again with the seats of both (a walk-through's find)."""
    from tournaments.models import RoundSeat, Stage

    event, players = kaarting
    Stage.objects.filter(tournament=event, number=1).update(status="closed")
    final = Stage.objects.create(tournament=event, number=2, format="tables", rounds=1, status="running")
    rnd = Round.objects.create(tournament=event, stage=final, number=1, seed="final-1")
    match = Match.objects.create(round=rnd, table=1, table_code="FINAL01")
    RoundSeat.objects.bulk_create([RoundSeat(round=rnd, match=match, player=p, seat=seat)
                                   for seat, p in zip("NESW", [players[8], players[0], players[5], players[2]])])
    rows = rows_of(client, "entries", event)
    assert rows[0][8:] == ["Round 1", "Stage 2, round 1"]
    assert rows[1][8:] == ["Table 1, N", "Table 1, E"]  # player 1: N in the qualification, E in the final
    assert rows[9][8:] == ["sits out", "Table 1, N"]  # player 9 sat out round 1 and plays the final
    assert rows[2][8:] == ["Table 1, E", ""]  # player 2 is not in the final


def test_an_individual_events_results_name_each_seats_player_and_start_number(client, kaarting):
    event, players = kaarting
    rows = rows_of(client, "results", event)
    assert rows[0] == ["Round", "Table", "N", "N no.", "S", "S no.", "E", "E no.", "W", "W no.", "Games NS",
                       "Games EW", "Points NS", "Points EW", "Status", "Result", "Stage", "Round name"]
    first = rows[1]
    assert first[:10] == ["1", "1", players[0].name, "1", players[2].name, "3", players[1].name, "2",
                          players[3].name, "4"]
    assert first[10:16] == ["1", "0", "101", "40", "Finished", f"{players[0].name} & {players[2].name}"]
    assert rows[2][14:16] == ["Not started", ""] and len(rows) == 3


def test_an_individual_events_standings_have_a_row_a_player(client, kaarting):
    event, players = kaarting
    standings_recompute(tournament=event)
    rows = rows_of(client, "standings", event)
    assert rows[0][:4] == ["Rank", "Start number", "Player", "Club"]
    assert len(rows) == 10 and all(len(r) == len(rows[0]) for r in rows)
    top = {r[2] for r in rows[1:3]}
    assert top == {players[0].name, players[2].name}
    assert next(r for r in rows if r[2] == players[8].name)[3] == ""  # no club


def test_the_dashboard_offers_the_entries_export(client, kaarting):
    event, _ = kaarting
    page = client.get(reverse("ws:tournament", args=[event.slug])).content.decode()
    assert reverse("ws:export-entries", args=[event.slug]) in page

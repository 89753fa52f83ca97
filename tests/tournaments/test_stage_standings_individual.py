"""A later stage of an individual event ranks its own rounds with what the event's standings know: a forfeit (the
absent player lost, the partner scored as sitting out), the confirmation's wait mode (an unconfirmed result does
not count), a player's penalty and the deductions decided while the stage ran (and only those)."""

import pytest

from tests.api.conftest import client_for
from tests.api.individual import enter_players, individual_event
from tests.api.test_stage_events import pair, play
from tests.factories import UserFactory
from tournaments.models import Entry, Match, RoundSeat, Standing, Tournament
from tournaments.services.desk import desk_action_take
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def rows(event, stage):
    return {s.player_id: s for s in Standing.objects.filter(tournament=event, stage__number=stage)}


def seats(match):
    return {s.seat: s.player_id for s in RoundSeat.objects.filter(match=match)}


def test_a_later_stage_counts_forfeits_wait_mode_penalties_and_its_own_deductions(
        django_capture_on_commit_callbacks):
    event = individual_event(name="Stadskampioenschap", format="swiss", rounds=1, sit_out_score="fixed",
                             sit_out_fixed={"match_points": 1, "games_won": 0, "points_for": 50})
    organizer = UserFactory()
    event.organizers.add(organizer)
    players = enter_players(event, 12, clubs=3)
    client = client_for(organizer)
    base = f"/api/v1/tournaments/{event.pk}"
    made = client.post(f"{base}/stages/", {"format": "swiss", "rounds": 1,
                                           "previous_qualification": {"kind": "top", "count": 8}}, format="json")
    assert made.status_code == 201, made.json()

    pair(client, event, django_capture_on_commit_callbacks)
    for m in Match.objects.filter(round__stage__number=1):
        play(client, m.pk, True)
    standings_recompute(tournament=event)
    first = rows(event, 1)
    qualifier = max(first.values(), key=lambda r: -r.rank).player_id  # stage 1's winner plays stage 2 too
    entry_of = {e.player_id: e for e in Entry.objects.filter(tournament=event)}
    desk_action_take(tournament=event, kind="deduction", reason="Late at the table",
                     entry=entry_of[qualifier], params={"metric": "match_points", "amount": 1})
    assert client.post(f"{base}/stages/1/close/").status_code == 200
    assert client.post(f"{base}/stages/2/start/").status_code == 200
    Tournament.objects.filter(pk=event.pk).update(confirmation="opponents", unconfirmed="wait")
    event.refresh_from_db()

    pair(client, event, django_capture_on_commit_callbacks)
    forfeited, played = Match.objects.filter(round__stage__number=2).order_by("table")
    absent = seats(forfeited)["N"]
    desk_action_take(tournament=event, kind="forfeit", match=forfeited, reason="Did not come back",
                     params={"players": [absent]})
    play(client, played.pk, True)  # entered: it waits for the opponents' confirmation
    assert Match.objects.get(pk=played.pk).result_status == "entered"
    penalized = seats(forfeited)["E"]
    desk_action_take(tournament=event, kind="penalty", match=forfeited, reason="Cards shown",
                     params={"player": penalized, "points": 5})
    later = seats(forfeited)["W"]
    desk_action_take(tournament=event, kind="deduction", reason="Phone at the table",
                     entry=entry_of[later], params={"metric": "match_points", "amount": 1})
    standings_recompute(tournament=event)

    second = rows(event, 2)
    assert len(second) == 8
    partner = seats(forfeited)["S"]
    # A forfeit is not a game played: counted apart (docs/desk.md), the absent player's partner sits out.
    assert (second[absent].played, second[absent].forfeits_lost, second[absent].match_points) == (0, 1, 0)
    assert second[partner].played == 0 and second[partner].match_points == 1  # sat out: the fixed score
    assert (second[penalized].forfeits_won, second[penalized].match_points) == (1, 2)
    assert second[later].forfeits_won == 1
    assert second[later].match_points == second[penalized].match_points - 1  # its deduction, stage 2's
    assert second[penalized].points_for == second[later].points_for - 5 > 0  # the penalty, one player's
    for player in seats(played).values():  # the entered result waits
        assert second[player].played == 0 and second[player].match_points == 0, player
    if qualifier in second:  # stage 1's deduction counts in stage 1 only
        assert rows(event, 1)[qualifier].match_points == first[qualifier].match_points - 1
        assert second[qualifier].match_points in (0, 1, 2, 3)

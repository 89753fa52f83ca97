"""A director's action previewed (issue 28): what it does to the standings before it is saved. The answer names
the rows that move; nothing is kept (no action, result, standings row, event nor callback)."""

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments.models import DirectorAction, Match, Standing, StandingsChange, StandingsSnapshot
from tournaments.services.desk import desk_action_take
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = TournamentFactory(best_of=3)
    rnd = RoundFactory(tournament=tournament, number=1)
    first, second = MatchFactory(round=rnd, table=1), MatchFactory(round=rnd, table=2)
    for m in (first, second):
        for team in (m.ns, m.ew):
            EntryFactory(tournament=tournament, team=team)
    desk_action_take(tournament=tournament, match=second, kind="adjusted", reason="sheet", params={
        "games_won_ns": 2, "games_won_ew": 0, "points_ns": 202, "points_ew": 80, "winner": "ns"})
    standings_recompute(tournament=tournament)
    organizer = UserFactory()
    tournament.organizers.add(organizer)
    return tournament, first, second, organizer


def saved(tournament):
    return (list(Standing.objects.filter(tournament=tournament).order_by("pk").values()),
            StandingsSnapshot.objects.get(tournament=tournament).generation,
            list(Match.objects.filter(round__tournament=tournament).order_by("pk").values()),
            DirectorAction.objects.count(), StandingsChange.objects.filter(tournament_id=tournament.pk).count())


def test_a_forfeit_previewed_shows_the_rows_that_move_and_saves_nothing(django_capture_on_commit_callbacks, event):
    tournament, first, second, organizer = event
    was = saved(tournament)
    with django_capture_on_commit_callbacks() as callbacks:
        answer = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/actions/preview/",
                                            {"kind": "forfeit", "match": first.pk, "params": {"absent": "ew"}},
                                            format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["kind"], body["params"], body["rounds_kept"]) == (
        "forfeit", {"absent": "ew", "game_points": 101}, [])
    moved = {row["team"]: row for row in body["rows"]}
    assert {first.ns_id, first.ew_id} <= set(moved)  # the others listed only when their rank or numbers change
    assert all(row["before"] != row["after"] for row in body["rows"])
    winner = moved[first.ns_id]
    assert winner["before"]["rank"] > winner["after"]["rank"] and winner["moved"] > 0
    assert (winner["before"]["forfeits_won"], winner["after"]["forfeits_won"]) == (0, 1)
    assert winner["after"]["match_points"] == winner["before"]["match_points"] + tournament.points_win
    assert moved[first.ew_id]["after"]["forfeits_lost"] == 1 and moved[first.ew_id]["name"] == first.ew.name
    assert saved(tournament) == was  # nothing kept
    assert callbacks == []  # nor sent: no webhook, no page update, no recompute queued
    taken = client_for(organizer).post(f"/api/v1/tournaments/{tournament.pk}/actions/",
                                       {"kind": "forfeit", "match": first.pk, "params": {"absent": "ew"},
                                        "reason": "no-show"}, format="json")
    assert taken.status_code == 201  # the preview left the match open to the action itself
    standings_recompute(tournament=tournament)
    ranks = dict(Standing.objects.filter(tournament=tournament).values_list("team_id", "rank"))
    assert ranks[first.ns_id] == winner["after"]["rank"]  # what the preview said


def test_a_preview_is_refused_as_the_action_would_be_and_only_for_directors(event):
    tournament, first, second, organizer = event
    url = f"/api/v1/tournaments/{tournament.pk}/actions/preview/"
    started = client_for(organizer).post(url, {"kind": "adjusted", "match": second.pk, "params": {
        "games_won_ns": 0, "games_won_ew": 2, "points_ns": 80, "points_ew": 202, "winner": "ew"}}, format="json")
    assert started.status_code == 409 and started.json()["errors"][0]["code"] == "action_active"
    stranger = client_for(UserFactory()).post(url, {"kind": "forfeit", "match": first.pk,
                                                    "params": {"absent": "ew"}}, format="json")
    assert stranger.status_code == 403
    assert DirectorAction.objects.count() == 1
    nothing = client_for(organizer).post(url, {"kind": "penalty", "match": second.pk,
                                               "params": {"side": "ew", "points": 1}}, format="json")
    assert nothing.status_code == 200
    rows = {r["team"]: r for r in nothing.json()["rows"]}
    assert set(rows) == {second.ns_id, second.ew_id}  # the points for of one, against of the other
    assert rows[second.ew_id]["after"]["points_for"] == rows[second.ew_id]["before"]["points_for"] - 1
    assert rows[second.ns_id]["moved"] == rows[second.ew_id]["moved"] == 0  # their points change, not their places

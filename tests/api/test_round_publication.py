"""Rounds published on purpose (issue 28): before an organizer publishes a round (automatic publication off), it
exists for the event's organizers, directors and scorekeepers alone: a 404 to anyone else, absent from their
lists, tables, scoreboards and the stage's rounds, and kept apart in the cached answers."""

import pytest

from tests.api.conftest import client_for
from tests.factories import EntryFactory, MatchFactory, RoundFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.models import Round
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def rounds_url(tournament, number=None):
    return f"/api/v1/tournaments/{tournament.pk}/rounds/" + (f"{number}/" if number else "")


@pytest.fixture
def director(tournament):
    user = UserFactory(username="director")
    tournament.directors.add(user)
    return user


@pytest.fixture
def on_purpose(tournament, teams):
    """Round 1 published; round 2 paired while the event publishes on purpose: not yet published."""
    first = MatchFactory(round__tournament=tournament, round__number=1, table=1, ns=teams[0], ew=teams[1])
    Round.objects.filter(tournament=tournament).update(status=Round.Status.FINISHED)
    tournament.auto_publish = False
    tournament.save()
    second = MatchFactory(round__tournament=tournament, round__number=2, table=1, ns=teams[1], ew=teams[0])
    assert first.round.published and not Round.objects.get(pk=second.round_id).published
    return second


def test_a_new_event_publishes_its_rounds_as_they_are_paired(tournament, anon):
    assert tournament.auto_publish
    for _ in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory())
    rnd = round_pair(tournament=tournament)
    assert rnd.published and rnd.published_at is not None
    body = anon.get(rounds_url(tournament, 1)).json()
    assert body["published"] is True and body["published_at"]


def test_an_unpublished_round_is_a_404_to_all_but_its_organizers_directors_and_scorekeepers(
        tournament, on_purpose, anon, stranger, other_scorekeeper, organizer, director, scorekeeper, staff):
    for user in (None, stranger, other_scorekeeper):  # a visitor, a player signed in, another event's scorekeeper
        client = client_for(user)
        assert client.get(rounds_url(tournament, 2)).status_code == 404
        assert client.get(rounds_url(tournament, 2) + "draw/").status_code == 404
        assert client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/2/tables/").status_code == 404
        assert client.get(f"/api/v1/matches/{on_purpose.pk}/").status_code == 404
        listing = client.get(rounds_url(tournament)).json()
        assert [r["number"] for r in listing["results"]] == [1]
        assert client.get(rounds_url(tournament, 1)).status_code == 200
        stage = client.get(f"/api/v1/tournaments/{tournament.pk}/stages/1/").json()
        assert stage["round_count"] == 1
        stage_rounds = client.get(f"/api/v1/tournaments/{tournament.pk}/stages/1/rounds/").json()
        assert [r["number"] for r in stage_rounds["results"]] == [1]
    for user in (organizer, director, scorekeeper, staff):
        client = client_for(user)
        body = client.get(rounds_url(tournament, 2)).json()
        assert body["number"] == 2 and body["published"] is False and body["published_at"] is None
        assert [r["number"] for r in client.get(rounds_url(tournament)).json()["results"]] == [1, 2]
        assert client.get(f"/api/v1/matches/{on_purpose.pk}/").status_code == 200
        assert client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/2/tables/").status_code == 200


def test_publishing_shows_the_round_to_everyone(tournament, on_purpose, anon, stranger, organizer):
    assert anon.get(f"/api/v1/matches/{on_purpose.pk}/").status_code == 404  # not remembered as the answer
    response = client_for(organizer).post(rounds_url(tournament, 2) + "publish/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["number"] == 2 and body["published"] is True and body["published_at"]
    for client in (anon, client_for(stranger)):
        assert client.get(rounds_url(tournament, 2)).json()["published"] is True
        assert [r["number"] for r in client.get(rounds_url(tournament)).json()["results"]] == [1, 2]
        assert client.get(f"/api/v1/matches/{on_purpose.pk}/").status_code == 200
    again = client_for(organizer).post(rounds_url(tournament, 2) + "publish/").json()
    assert again["published_at"] == body["published_at"]  # publishing twice changes nothing


def test_only_organizers_publish(tournament, on_purpose, anon, director, scorekeeper, stranger):
    assert anon.post(rounds_url(tournament, 2) + "publish/").status_code == 401
    for user in (director, scorekeeper):
        assert client_for(user).post(rounds_url(tournament, 2) + "publish/").status_code == 403
    assert client_for(stranger).post(rounds_url(tournament, 2) + "publish/").status_code in (403, 404)
    assert not Round.objects.get(pk=on_purpose.round_id).published


def test_the_cached_answers_keep_the_unpublished_round_apart(tournament, teams, anon, organizer):
    MatchFactory(round__tournament=tournament, round__number=1, table=1, ns=teams[0], ew=teams[1])
    Round.objects.filter(tournament=tournament).update(status=Round.Status.FINISHED)
    before = anon.get(rounds_url(tournament))
    tournament.auto_publish = False
    tournament.save()
    MatchFactory(round__tournament=tournament, round__number=2, table=1, ns=teams[1], ew=teams[0])
    inside = client_for(organizer).get(rounds_url(tournament))
    assert [r["number"] for r in inside.json()["results"]] == [1, 2]
    outside = anon.get(rounds_url(tournament))
    # The body the public gets is the one before: the round made since is in none of it.
    def shown(answer):  # the rounds without their clock (its server time moves)
        return [{k: v for k, v in r.items() if k != "clock"} for r in answer.json()["results"]]

    assert shown(outside) == shown(before)
    assert outside.json()["count"] == 1 and b'"number":2' not in outside.content
    assert outside["ETag"] != inside["ETag"]
    # The organizer's conditional GET with the public's tag is not that answer: the whole list again.
    again = client_for(organizer).get(rounds_url(tournament), HTTP_IF_NONE_MATCH=outside["ETag"])
    assert again.status_code == 200 and again.json()["count"] == 2
    live = anon.get(f"/api/v1/tournaments/{tournament.pk}/live/")
    assert live.status_code == 200 and live.json()["tables"] == []


def test_turning_automatic_publication_on_publishes_the_rounds_waiting(tournament, on_purpose, organizer, anon):
    response = client_for(organizer).patch(f"/api/v1/tournaments/{tournament.pk}/", {"auto_publish": True},
                                           format="json")
    assert response.status_code == 200 and response.json()["auto_publish"] is True
    assert Round.objects.get(pk=on_purpose.round_id).published
    assert anon.get(rounds_url(tournament, 2)).status_code == 200


def test_a_private_events_unpublished_round_is_its_scorekeepers_too(club, anon):
    tournament = TournamentFactory(name="Besloten", club=club, public=False, auto_publish=False)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    RoundFactory(tournament=tournament, number=1)
    assert client_for(keeper).get(rounds_url(tournament, 1)).status_code == 200
    assert anon.get(rounds_url(tournament, 1)).status_code == 404

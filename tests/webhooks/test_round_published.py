"""Rounds published on purpose (issue 28): ``round.published`` at publication (at the pairing when the event
publishes automatically), ``round.paired`` to the endpoints its organizers registered alone, and nothing of a round
not yet published on the push channel."""

import json

import pytest

from tests.factories import ClubFactory, EntryFactory, MatchFactory, TeamFactory, TournamentFactory, UserFactory
from tests.webhooks.push_fixtures import memory_store  # noqa: F401 (fixture)
from tournaments.services.hands import hand_enter
from tournaments.services.publication import round_publish
from tournaments.services.rounds import round_pair
from tests.web.conftest import belgian_hand
from webhooks import push
from webhooks.models import EVENT_NAMES, Delivery
from webhooks.services import endpoint_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture
def tournament(db):
    tournament = TournamentFactory(name="Gentse Beker", club=ClubFactory(), variant="belgian-manille", best_of=3)
    for i in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory(club=tournament.club), seed=i + 1)
    return tournament


@pytest.fixture
def organizer(tournament):
    user = UserFactory(username="organizer")
    tournament.organizers.add(user)
    return user


def test_the_event_is_listed():
    assert "round.published" in EVENT_NAMES


def test_round_published_fires_at_publication(django_capture_on_commit_callbacks, tournament, organizer, receiver):
    tournament.auto_publish = False
    tournament.save()
    endpoint_create(tournament=tournament, url=receiver.url, events=["round.paired", "round.published"],
                    user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = round_pair(tournament=tournament)
    assert receiver.events() == ["round.paired"]
    paired = json.loads(receiver.requests[0]["body"])["data"]["round"]
    assert paired["number"] == 1 and paired["published_at"] is None
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, user=organizer)
    assert receiver.events() == ["round.paired", "round.published"]
    published = json.loads(receiver.requests[1]["body"])["data"]["round"]
    assert published["number"] == 1 and published["published_at"] and len(published["matches"]) == 2
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, user=organizer)  # published already: no second event
    assert receiver.events() == ["round.paired", "round.published"]


def test_automatic_publication_fires_it_with_the_pairing(django_capture_on_commit_callbacks, tournament, organizer,
                                                         receiver):
    endpoint_create(tournament=tournament, url=receiver.url, events=["round.published"], user=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        round_pair(tournament=tournament)
    assert receiver.events() == ["round.published"]


def test_round_paired_reaches_only_the_endpoints_of_its_organizers(django_capture_on_commit_callbacks, tournament,
                                                                    organizer, receiver):
    from tests.webhooks.conftest import Receiver

    outsider = Receiver()
    try:
        # An endpoint whose organizer is no longer one, and one made without an account: neither hears of pairings.
        former = UserFactory(username="former")
        theirs = endpoint_create(tournament=tournament, url=outsider.url, user=former)
        nobodys = endpoint_create(tournament=tournament, url=outsider.url)
        endpoint_create(tournament=tournament, url=receiver.url, user=organizer)
        tournament.auto_publish = False
        tournament.save()
        with django_capture_on_commit_callbacks(execute=True):
            rnd = round_pair(tournament=tournament)
        assert "round.paired" in receiver.events()
        assert "round.paired" not in outsider.events()
        assert not Delivery.objects.filter(endpoint__in=[theirs, nobodys], event="round.paired").exists()
        with django_capture_on_commit_callbacks(execute=True):
            round_publish(round=rnd, user=organizer)
        assert outsider.events().count("round.published") == 2  # published: everyone's endpoints hear of it
    finally:
        outsider.close()


def test_the_push_channel_hears_nothing_of_a_round_not_yet_published(memory_store, tournament):  # noqa: F811
    tournament.auto_publish = False
    tournament.save()
    match = MatchFactory(round__tournament=tournament, round__number=1, table=1)
    hand, _ = hand_enter(match=match, data=belgian_hand(1))  # a scorekeeper's hand before publication
    assert push.publish("round.paired", {"round": match.round_id}) == []
    assert push.publish("hand.entered", {"hand": hand.pk}) == []
    assert memory_store.state().last == (0, 0)
    round_publish(round=match.round)
    assert len(push.publish("round.published", {"round": match.round_id})) == 1
    assert len(push.publish("hand.entered", {"hand": hand.pk})) == 1

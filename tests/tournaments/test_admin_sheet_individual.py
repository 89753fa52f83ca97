"""The admin's score sheet (volunteers typing paper sheets) for a match of an individual event: the partnerships
named where a team event names its teams, and the sheet applied through the hand services."""

import pytest
from django.urls import reverse

from tests.tournaments.test_admin import new_hand_post, summary, url
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Game, Hand, Match
from tournaments.services.hands import hand_enter

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def match(db):
    tournament = individual_event(8, minutes=None)
    seat_round(tournament, 1)
    return Match.objects.get(round__tournament=tournament, table=1)


def test_a_volunteer_types_an_individual_matchs_sheet(admin_client, match):
    game = hand_enter(match=match, data=summary("N", 37))[0].game
    page = admin_client.get(url(Game, "change", game.pk)).content.decode()
    # Table 1: N An Peeters, E Bart Claes, S Chris Wouters, W Dirk Maes.
    assert "An Peeters &amp; Chris Wouters" in page and "Bart Claes &amp; Dirk Maes" in page
    data, _ = new_hand_post(admin_client, game, dealer="E", trump="H", doublings=0, tricks_ns=3, tricks_ew=5,
                            points_ns=20, points_ew=40)
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302 and response["Location"] == url(Game, "change", game.pk)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [(h.dealer, h.points_ns, h.points_ew) for h in hands] == [("N", 37, 23), ("E", 20, 40)]
    assert hands[1].entered_by is not None


def test_a_refused_row_names_the_partnership(admin_client, match):
    game = hand_enter(match=match, data=summary("N", 37))[0].game
    data, _ = new_hand_post(admin_client, game, dealer="E", trump="H", doublings=0, tricks_ns=3, tricks_ew=5,
                            points_ns=50, points_ew=40)
    page = admin_client.post(url(Game, "change", game.pk), data)
    assert page.status_code == 200 and Hand.objects.filter(game=game).count() == 1
    assert "must add up to 60" in page.content.decode()


def test_the_next_game_form_names_each_seats_player_side(admin_client, match):
    form = admin_client.get(reverse("admin:tournaments_match_start_next_game", args=[match.pk])).context["form"]
    assert dict(form.fields["first_dealer"].choices)["E"] == "E (Bart Claes & Dirk Maes)"

"""The director's actions page in an individual event: a table is chosen, then its players are named, as the API
names them (a forfeit's absent players, the player who withdraws mid-match, a player's penalty); a withdrawal from
the event and a deduction name a player's entry. Refusals in the user's language, nothing changed."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.conftest import enter_hands
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import DirectorAction, Entry, Match, Standing
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall():
    """Eight players at two tables of round 1, not played yet; a director of the event."""
    tournament = individual_event(8, minutes=None, public=True)
    seat_round(tournament, 1, codes=["ACD347", "KMN679"])
    director = UserFactory(username="arbiter")
    tournament.directors.add(director)
    one = Match.objects.get(round__tournament=tournament, table=1)
    return {"tournament": tournament, "director": director, "one": one,
            "seats": dict(one.seats.values_list("seat", "player"))}


@pytest.fixture
def desk(client, hall):
    client.force_login(hall["director"])
    return client


def page_of(desk, hall, **query) -> str:
    answer = desk.get(reverse("ws:actions", args=[hall["tournament"].slug]), query)
    assert answer.status_code == 200
    return answer.content.decode()


def take(desk, hall, **data):
    return desk.post(reverse("ws:actions-take", args=[hall["tournament"].slug]), data)


def test_the_page_offers_a_table_then_names_its_players(desk, hall):
    first = page_of(desk, hall)
    assert 'id="desk-table-match"' in first and 'name="players"' not in first
    assert "Choose a table to record a forfeit" in first
    assert "taken through the API" not in first and 'id="forfeit-absent"' not in first
    chosen = page_of(desk, hall, match=hall["one"].pk)
    for player in hall["one"].seats.select_related("player"):
        assert f'name="players" value="{player.player_id}"' in chosen and player.player.name in chosen
        assert f'name="player" value="{player.player_id}"' in chosen
    assert 'id="forfeit-absent"' not in chosen and 'id="withdrawal-side"' not in chosen  # no sides to name
    assert 'id="penalty-side"' not in chosen and 'id="deduction-entry"' in chosen


def test_a_forfeit_names_the_absent_player_and_the_list_says_who(desk, hall):
    absent = hall["seats"]["E"]
    answer = take(desk, hall, kind="forfeit", match=hall["one"].pk, players=[absent], reason="never came")
    assert answer.status_code == 302 and answer["Location"].endswith(f"?match={hall['one'].pk}#desk-table")
    action = DirectorAction.objects.get()
    assert (action.kind, action.params["players"], action.params["absent"]) == ("forfeit", [absent], "ew")
    match = Match.objects.get(pk=hall["one"].pk)
    assert (match.status, match.winner, match.forfeit) == ("finished", "ns", "ew")
    shown = page_of(desk, hall)
    name = hall["one"].seats.get(seat="E").player.name
    assert "Forfeit recorded." in shown and f"absent: {name}" in shown and "never came" in shown


def test_two_absent_players_of_both_sides(desk, hall):
    both = [hall["seats"]["N"], hall["seats"]["W"]]
    assert take(desk, hall, kind="forfeit", match=hall["one"].pk, players=both, reason="late").status_code == 302
    assert Match.objects.get(pk=hall["one"].pk).forfeit == "both"


def test_a_withdrawal_mid_match_and_a_penalty_name_one_player(desk, hall):
    one, leaver, fined = hall["one"], hall["seats"]["S"], hall["seats"]["W"]
    enter_hands(one, 1)  # under way
    answer = take(desk, hall, kind="withdrawal", match=one.pk, player=leaver, reason="felt ill")
    assert answer.status_code == 302
    answer = take(desk, hall, kind="penalty", match=one.pk, player=fined, points="10", reason="slow play")
    assert answer.status_code == 302
    withdrawal, penalty = DirectorAction.objects.order_by("pk")
    assert (withdrawal.params["player"], withdrawal.params["side"]) == (leaver, "ns")
    assert (penalty.params["player"], penalty.params["points"]) == (fined, 10)
    shown = page_of(desk, hall)
    names = dict(one.seats.values_list("player", "player__name"))
    assert f"withdrew: {names[leaver]}" in shown and f"10 game points off {names[fined]}" in shown
    standings_recompute(tournament=hall["tournament"])
    assert Standing.objects.filter(player_id=fined).exists()


def test_a_refusal_in_the_users_language_keeps_the_table_and_changes_nothing(desk, hall, settings):
    desk.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    one = hall["one"]
    refused = take(desk, hall, kind="forfeit", match=one.pk, reason="te laat")  # nobody ticked
    assert refused.status_code == 400
    body = refused.content.decode()
    assert 'role="alert"' in body and 'name="players"' in body and "te laat" in body
    assert "Name the players absent" not in body  # in Dutch
    other = Match.objects.get(round__tournament=hall["tournament"], table=2)
    stranger = other.seats.get(seat="N").player_id
    refused = take(desk, hall, kind="penalty", match=one.pk, player=stranger, points="5", reason="x")
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()  # not at this table
    enter_hands(one, 1)
    refused = take(desk, hall, kind="forfeit", match=one.pk, players=[hall["seats"]["E"]], reason="laat")
    assert refused.status_code == 400 and 'checked' in refused.content.decode()
    assert not DirectorAction.objects.exists()


def test_a_player_withdraws_from_the_event_and_a_deduction_names_their_entry(desk, hall):
    entry = Entry.objects.get(tournament=hall["tournament"], player_id=hall["seats"]["N"])
    assert take(desk, hall, kind="deduction", entry=entry.pk, metric="points_for", amount="20",
                reason="late arrival").status_code == 302
    assert take(desk, hall, kind="withdrawal_event", entry=entry.pk, reason="went home").status_code == 302
    entry.refresh_from_db()
    assert entry.withdrawn and DirectorAction.objects.count() == 2
    assert "20 game points off" in page_of(desk, hall)


def test_a_withdrawal_or_a_penalty_naming_nobody_says_whom_to_name(desk, hall, settings):
    """Not the forfeit's words (its absent players): the player who withdraws, the player penalized."""
    one = hall["one"]
    enter_hands(one, 1)  # under way
    refused = take(desk, hall, kind="withdrawal", match=one.pk, reason="felt ill")  # nobody chosen
    body = refused.content.decode()
    assert refused.status_code == 400 and 'role="alert"' in body
    assert "Name the player who withdraws" in body and "Name the players absent" not in body
    refused = take(desk, hall, kind="penalty", match=one.pk, points="5", reason="slow play")
    body = refused.content.decode()
    assert "Name the player whose game points are taken off" in body and "Name the players absent" not in body
    desk.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    dutch = take(desk, hall, kind="withdrawal", match=one.pk, reason="ziek").content.decode()
    assert "Geef de speler die opgeeft aan" in dutch
    assert not DirectorAction.objects.exists()

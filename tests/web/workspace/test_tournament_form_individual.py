"""The tournament form of an individual event: who enters, the tables format, the match length, the sit-out and
withdrawal rules, the club ranking's best N; refusals through Tournament.clean's codes on their fields."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.web.workspace.test_tournament_form import settings_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = UserFactory(username="orga")
    client.force_login(user)
    return user


def individual(**extra) -> dict:
    data = {"name": "Kaarting De Kat", "entry": "individual", "format": "tables", "rounds": "3",
            "match_length": "timed", "minutes": "30", "at_time": "finish", "sit_out_score": "mean",
            "withdrawal": "reserve", "club_best_n": ""}
    return settings_data(**{**data, **extra})


def field_codes(response) -> dict:
    form = response.context["form"]
    return {field: [e.code for e in errors] for field, errors in form.errors.as_data().items()}


def test_the_form_offers_every_setting_of_an_individual_event(client, organizer):
    page = client.get(reverse("ws:tournament-new")).content.decode()
    for name in ("entry", "match_length", "match_games", "minutes", "at_time", "sit_out_score",
                 "sit_out_match_points", "sit_out_games_won", "sit_out_points_for", "withdrawal", "club_best_n"):
        assert f'name="{name}"' in page, name
    assert 'value="tables"' in page and "Tables of four" in page
    assert 'data-when="entry=individual"' in page and 'data-when="match_length=timed"' in page


def test_an_organizer_creates_a_timed_kaarting_of_tables(client, organizer):
    answer = client.post(reverse("ws:tournament-new"), individual(club_best_n="4"))
    assert answer.status_code == 302, field_codes(answer)
    t = Tournament.objects.get(name="Kaarting De Kat")
    assert (t.entry, t.format, t.rounds, t.match_length, t.minutes, t.at_time) == (
        "individual", "tables", 3, "timed", 30, "finish")
    assert (t.sit_out_score, t.withdrawal, t.club_best_n, t.sit_out_fixed) == ("mean", "reserve", 4, {})
    assert organizer in t.organizers.all()


def test_a_fixed_sit_out_score_and_a_number_of_games(client, organizer):
    data = individual(match_length="games", match_games="4", minutes="", sit_out_score="fixed",
                      sit_out_match_points="1", sit_out_games_won="2", sit_out_points_for="150", withdrawal="sit_out")
    assert client.post(reverse("ws:tournament-new"), data).status_code == 302
    t = Tournament.objects.get(name="Kaarting De Kat")
    assert (t.match_length, t.match_games, t.withdrawal) == ("games", 4, "sit_out")
    assert t.sit_out_fixed == {"match_points": 1, "games_won": 2, "points_for": 150}


def test_a_form_without_the_new_fields_makes_a_team_event_as_before(client, organizer):
    assert client.post(reverse("ws:tournament-new"), settings_data(name="Ploegen")).status_code == 302
    t = Tournament.objects.get(name="Ploegen")
    assert (t.entry, t.match_length, t.at_time, t.sit_out_score, t.withdrawal) == (
        "teams", "best_of", "finish", "mean", "sit_out")


@pytest.mark.parametrize("change, field, code", [
    ({"format": "knockout"}, "format", "format_for_entry"),
    ({"minutes": ""}, "minutes", "match_length_incomplete"),
    ({"match_length": "games", "match_games": ""}, "match_games", "match_length_incomplete"),
    ({"entry": "teams", "format": "tables"}, "format", "format_for_entry"),
    ({"minutes": "601"}, "minutes", "max_value"),
    ({"club_best_n": "0"}, "club_best_n", "min_value"),
    ({"sit_out_score": "fixed", "sit_out_points_for": "-3"}, "sit_out_points_for", "min_value"),
])
def test_refusals_show_on_their_fields(client, organizer, change, field, code):
    answer = client.post(reverse("ws:tournament-new"), individual(**change))
    assert answer.status_code == 200
    assert code in field_codes(answer).get(field, []), field_codes(answer)
    assert not Tournament.objects.filter(name="Kaarting De Kat").exists()
    assert "The tournament was not saved" in answer.content.decode()


def test_refusals_are_in_the_users_language(client, organizer):
    answer = client.post(reverse("ws:tournament-new"), individual(format="knockout"), HTTP_ACCEPT_LANGUAGE="nl")
    message = answer.context["form"].errors["format"][0]
    assert message.startswith("Het formaat knockout")  # Dutch, from the code's sentence


def test_the_entry_kind_is_fixed_once_someone_is_entered(client, organizer):
    t = TournamentFactory(slug="ploegen", name="Ploegen")
    t.organizers.add(organizer)
    EntryFactory(tournament=t)
    url = reverse("ws:tournament-edit", args=["ploegen"])
    page = client.get(url)
    assert page.context["form"].fields["entry"].disabled
    assert "the choice between teams and players stays as it is" in page.content.decode()
    answer = client.post(url, settings_data(name="Ploegen", entry="individual", format="swiss"))
    assert answer.status_code == 302
    t.refresh_from_db()
    assert t.entry == "teams"


def test_editing_keeps_an_individual_events_settings(client, organizer):
    client.post(reverse("ws:tournament-new"), individual(sit_out_score="fixed", sit_out_match_points="1"))
    t = Tournament.objects.get(name="Kaarting De Kat")
    form = client.get(reverse("ws:tournament-edit", args=[t.slug])).context["form"]
    assert form.initial["entry"] == "individual" and form.initial["minutes"] == 30
    assert form.initial["sit_out_match_points"] == 1


def test_the_standings_order_says_how_players_are_ranked_and_refuses_team_measures(client, organizer):
    page = client.get(reverse("ws:tournament-new")).content.decode()
    assert "then by Opponents minus partner, Points for, Games won" in page
    refused = client.post(reverse("ws:tournament-new"), individual(tiebreaks=["points_for", "buchholz"]))
    assert "team_only_metrics" in field_codes(refused).get("tiebreaks", [])
    kept = client.post(reverse("ws:tournament-new"), individual(tiebreaks=["points_for", "opponents_minus_partner"]))
    assert kept.status_code == 302
    assert Tournament.objects.get(name="Kaarting De Kat").tiebreaks == ["points_for", "opponents_minus_partner"]

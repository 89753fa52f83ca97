"""The tournament form: the variant's house options as fields (every variant), the standings order, who may use it."""

import pytest
from django.urls import reverse

import scoring
from tests.factories import ClubFactory, EntryFactory, TournamentFactory, UserFactory
from tournaments import access
from tournaments.models import Tournament
from tournaments.ranking import DEFAULT_METRICS
from tournaments.services.rounds import round_pair
from web.workspace.forms import option_field_name

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(db):
    user = UserFactory(username="manager")
    club = ClubFactory(name="De Zwarte Kat")
    club.managers.add(user)
    user.club = club
    return user


def settings_data(club=None, variant="belgian-manille", **extra) -> dict:
    data = {"name": "Gentse Beker", "club": club.pk if club else "", "variant": variant, "format": "swiss",
            "rounds": "5", "best_of": "", "points_win": "2", "points_draw": "1", "points_bye": "2",
            "separate_clubs_rounds": "0", "starts_on": "2026-12-05", "public": "on",
            "tiebreaks": list(DEFAULT_METRICS)}
    for name, spec in scoring.get_variant(variant).options.items():
        if spec.kind == "bool":
            if spec.default:
                data[option_field_name(variant, name)] = "on"
        else:
            data[option_field_name(variant, name)] = "" if spec.default is None else str(spec.default)
    data.update(extra)
    return data


def non_default(spec: scoring.OptionSpec):
    """A value of the option other than its default, as the form posts it, and as the engine stores it."""
    if spec.kind == "bool":
        return ("on" if not spec.default else None), (not spec.default)
    if spec.kind == "int":
        value = (spec.default or 10) + 7
        if spec.maximum is not None:
            value = min(value, spec.maximum)
        return str(value), value
    other = next(c for c in spec.choices if c != spec.default)
    return other, other


# -- who may ----------------------------------------------------------------------------------------

def test_anyone_signed_in_may_create_as_in_the_api_and_only_for_clubs_they_manage(manager):
    assert access.can_create_tournament(manager)
    assert not access.can_create_tournament(None)
    assert list(access.clubs_for_tournaments(manager)) == [manager.club]
    assert list(access.clubs_for_tournaments(UserFactory())) == []
    staff = UserFactory(username="staff", is_staff=True)
    ClubFactory()
    assert access.clubs_for_tournaments(staff).count() == 2


def test_the_form_asks_a_visitor_to_sign_in(client):
    response = client.get(reverse("ws:tournament-new"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("ws:login"))


def test_only_an_organizer_edits_a_tournament(client):
    tournament = TournamentFactory(slug="theirs")
    tournament.organizers.add(UserFactory(username="theirs"))
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    url = reverse("ws:tournament-edit", args=["theirs"])
    for user in (keeper, UserFactory(username="stranger")):
        client.force_login(user)
        assert client.get(url).status_code == 404
        assert client.post(url, settings_data(name="Taken")).status_code == 404
    assert client.get(reverse("ws:tournament-edit", args=["no-such-thing"])).status_code == 404
    tournament.refresh_from_db()
    assert tournament.name != "Taken"


def test_a_club_the_user_does_not_manage_is_refused_on_its_field(client, manager):
    client.force_login(manager)
    other = ClubFactory(name="Café Sportwereld")
    response = client.post(reverse("ws:tournament-new"), settings_data(other))
    assert response.status_code == 200 and "club" in response.context["form"].errors
    assert not Tournament.objects.exists()


# -- the house options --------------------------------------------------------------------------------

def test_the_new_form_shows_every_variants_options_with_defaults_and_explanations(client, manager):
    client.force_login(manager)
    response = client.get(reverse("ws:tournament-new"))
    html = response.content.decode()
    for slug, variant in scoring.VARIANTS.items():
        assert f'data-variant="{slug}"' in html
        for name in variant.options:
            assert f'name="{option_field_name(slug, name)}"' in html
    assert "Default: 101." in html and "points a side must reach to win the game" in html
    assert "Default: no limit." in html  # Belgian max_multiplier
    assert 'value="next" selected' in html  # tie doubling's default chosen
    assert "ws-form.js" in html
    assert list(response.context["form"].fields["club"].queryset) == [manager.club]


@pytest.mark.parametrize("slug", sorted(scoring.VARIANTS))
def test_every_variants_options_are_stored_through_the_form(client, manager, slug):
    client.force_login(manager)
    variant = scoring.get_variant(slug)
    data, expected = settings_data(manager.club, slug), {}
    for name, spec in variant.options.items():
        posted, stored = non_default(spec)
        key = option_field_name(slug, name)
        if posted is None:
            data.pop(key, None)
        else:
            data[key] = posted
        expected[name] = stored
    if "rounds" in expected:  # Classic Malilla's deals are its rounds of four deals (rules.md): alike
        expected["deals"] = 4 * expected["rounds"]
        data[option_field_name(slug, "deals")] = str(expected["deals"])
    # Another variant's fields, posted too (a page without JavaScript), are ignored.
    data[option_field_name("belgian-manille" if slug != "belgian-manille" else "spanish-manilla", "target")] = "x"
    response = client.post(reverse("ws:tournament-new"), data)
    assert response.status_code == 302, response.context["form"].errors
    tournament = Tournament.objects.get()
    assert tournament.variant == slug and tournament.options == expected
    assert list(tournament.organizers.all()) == [manager] and tournament.club == manager.club
    variant.validate_options(tournament.options)


@pytest.mark.parametrize("slug", sorted(scoring.VARIANTS))
def test_default_options_are_not_stored(client, manager, slug):
    client.force_login(manager)
    response = client.post(reverse("ws:tournament-new"), settings_data(manager.club, slug))
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get().options == {}


@pytest.mark.parametrize("slug, option, value", [
    ("spanish-manilla", "target", "0"), ("belgian-manille", "target", "-5"), ("belgian-manille", "target", ""),
    ("belgian-manille", "max_multiplier", "0"), ("belgian-manille", "tie_doubling", "sometimes"),
    ("classic-malilla", "rounds", "0"), ("mexican-malilla", "target", "abc"),
])
def test_a_bad_option_is_refused_on_its_own_field(client, manager, slug, option, value):
    client.force_login(manager)
    data = settings_data(manager.club, slug, **{option_field_name(slug, option): value})
    response = client.post(reverse("ws:tournament-new"), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == [option_field_name(slug, option)]
    assert 'id="form-errors"' in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_nullable_option_may_be_left_empty(client, manager):
    client.force_login(manager)
    data = settings_data(manager.club, "classic-malilla", **{option_field_name("classic-malilla", "target"): ""})
    assert client.post(reverse("ws:tournament-new"), data).status_code == 302
    data = settings_data(manager.club, "belgian-manille", name="Capped",
                         **{option_field_name("belgian-manille", "max_multiplier"): "4"})
    assert client.post(reverse("ws:tournament-new"), data).status_code == 302
    assert Tournament.objects.get(name="Capped").options == {"max_multiplier": 4}


# -- the standings order ------------------------------------------------------------------------------

def test_the_standings_order_is_kept_as_posted(client, manager):
    client.force_login(manager)
    order = ["match_points", "buchholz", "games_won", "sonneborn_berger"]
    response = client.post(reverse("ws:tournament-new"), settings_data(manager.club, tiebreaks=order))
    assert response.status_code == 302
    assert Tournament.objects.get().tiebreaks == order


def test_the_default_order_is_stored_as_the_default(client, manager):
    client.force_login(manager)
    client.post(reverse("ws:tournament-new"), settings_data(manager.club, tiebreaks=[]))
    client.post(reverse("ws:tournament-new"), settings_data(manager.club, name="Two"))
    assert list(Tournament.objects.values_list("tiebreaks", flat=True)) == [[], []]


def test_the_list_shows_the_default_order_first_and_ticked(client, manager):
    client.force_login(manager)
    form = client.get(reverse("ws:tournament-new")).context["form"]
    items = form.tiebreak_items()
    assert [i["value"] for i in items[:len(DEFAULT_METRICS)]] == DEFAULT_METRICS
    assert all(i["checked"] for i in items[:len(DEFAULT_METRICS)])
    assert not any(i["checked"] for i in items[len(DEFAULT_METRICS):])


def test_an_unknown_measure_is_refused(client, manager):
    client.force_login(manager)
    response = client.post(reverse("ws:tournament-new"), settings_data(manager.club, tiebreaks=["luck"]))
    assert "tiebreaks" in response.context["form"].errors
    assert not Tournament.objects.exists()


# -- editing --------------------------------------------------------------------------------------------

def test_an_organizer_edits_the_settings(client, manager):
    tournament = TournamentFactory(name="Old", slug="old", club=manager.club, options={"target": 61},
                                   tiebreaks=["match_points", "buchholz"])
    tournament.organizers.add(manager)
    client.force_login(manager)
    url = reverse("ws:tournament-edit", args=["old"])
    form = client.get(url).context["form"]
    assert form[option_field_name("belgian-manille", "target")].value() == 61
    assert [i["value"] for i in form.tiebreak_items()[:2]] == ["match_points", "buchholz"]
    data = settings_data(manager.club, name="New name", tiebreaks=["match_points", "points_diff"],
                         **{option_field_name("belgian-manille", "target"): "81"})
    assert client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.options, tournament.tiebreaks) == (
        "New name", {"target": 81}, ["match_points", "points_diff"])
    assert tournament.slug == "old"


def test_an_organizer_who_is_no_club_manager_keeps_the_club(client):
    club = ClubFactory(name="De Zwarte Kat")
    tournament = TournamentFactory(slug="kept", club=club)
    organizer = UserFactory(username="co")
    tournament.organizers.add(organizer)
    client.force_login(organizer)
    url = reverse("ws:tournament-edit", args=["kept"])
    assert client.post(url, settings_data(club, name="Renamed")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.club == club and tournament.name == "Renamed"


def test_once_paired_the_shape_of_the_matches_cannot_change(client, manager):
    tournament = TournamentFactory(name="Running", slug="running", club=manager.club)
    tournament.organizers.add(manager)
    for _ in range(4):
        EntryFactory(tournament=tournament)
    round_pair(tournament=tournament)
    client.force_login(manager)
    url = reverse("ws:tournament-edit", args=["running"])
    html = client.get(url).content.decode()
    assert "A round is paired already" in html
    data = settings_data(manager.club, "spanish-manilla", name="Still running", rounds="9")
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.name, tournament.variant, tournament.rounds) == ("Still running", "belgian-manille", 5)


def test_the_form_reads_few_queries(client, manager, django_assert_max_num_queries):
    client.force_login(manager)
    with django_assert_max_num_queries(6):
        assert client.get(reverse("ws:tournament-new")).status_code == 200


# -- issue 25.5: nonsense refused on its field, a new tournament hidden, no second one of a name and day ----


def test_a_new_tournament_starts_hidden_from_the_public_site(client, manager):
    client.force_login(manager)
    form = client.get(reverse("ws:tournament-new")).context["form"]
    assert form["public"].value() is False
    page = client.get(reverse("ws:tournament-new")).content.decode()
    assert 'name="public"' in page and 'name="public" checked' not in page.replace('id="id_public" ', "")
    assert client.post(reverse("ws:tournament-new"), settings_data(manager.club, public="")).status_code == 302
    assert Tournament.objects.get().public is False


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"points_win": "2", "points_draw": "3"}, "points_draw", "A draw cannot be worth more than a win (2 points)."),
    ({"points_win": "2", "points_bye": "100"}, "points_bye", "A bye cannot be worth more than a win (2 points)."),
    ({"points_win": "101"}, "points_win", "Ensure this value is less than or equal to 100."),
    ({option_field_name("belgian-manille", "target"): "10000"}, option_field_name("belgian-manille", "target"),
     "Ensure this value is less than or equal to 1000."),
])
def test_settings_that_make_no_sense_are_refused_on_their_field(client, manager, change, field, words):
    client.force_login(manager)
    response = client.post(reverse("ws:tournament-new"), settings_data(manager.club, **change))
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [words]
    assert words in response.content.decode().replace("&#x27;", "'")
    assert not Tournament.objects.exists()


def test_the_same_name_club_and_date_twice_is_refused_on_the_name(client, manager):
    client.force_login(manager)
    assert client.post(reverse("ws:tournament-new"), settings_data(manager.club)).status_code == 302
    again = client.post(reverse("ws:tournament-new"), settings_data(manager.club, name="gentse beker"))
    assert again.status_code == 200
    (error,) = again.context["form"].errors["name"]
    assert error.startswith("There is a tournament called Gentse Beker on ") and "(De Zwarte Kat)" in error
    assert Tournament.objects.count() == 1
    tournament = Tournament.objects.get()
    edited = client.post(reverse("ws:tournament-edit", args=[tournament.slug]),
                         settings_data(manager.club, name="GENTSE BEKER", points_draw="2"))
    assert edited.status_code == 302  # itself is no duplicate; a draw worth a win is sane
    tournament.refresh_from_db()
    assert (tournament.name, tournament.points_draw) == ("GENTSE BEKER", 2)

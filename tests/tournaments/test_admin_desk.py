"""The data-entry desk's remainders: the history in words, house options on the add page, rotating dealers,
people picked by search, plural messages."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.tournaments.test_admin import hand_formset, rendered_post_data, summary, url
from tests.tournaments.test_admin_volunteers import volunteer
from tournaments.models import Game, Hand, Match, Tournament
from tournaments.services.games import game_start
from tournaments.services.hands import hand_enter

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def make_match(variant="belgian-manille", **options):
    tournament = TournamentFactory(variant=variant, best_of=3, options=options)
    return MatchFactory(round__tournament=tournament, ns__name="Ajuinen", ew__name="Boeren")


# -- 1. the hand history in words ---------------------------------------------------------------


def test_the_hand_history_names_its_columns_in_words_with_the_teams(admin_client):
    match = make_match()
    hand_enter(match=match, data=summary("N", 37))
    game = match.games.get()
    page = admin_client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    data = rendered_post_data(page)
    data[formset.forms[0].add_prefix("points_ns")] = "38"
    data[formset.forms[0].add_prefix("points_ew")] = "22"
    data[formset.forms[0].add_prefix("penalty_type")] = "signalling"
    data[formset.forms[0].add_prefix("penalty_side")] = "ew"
    data["correction_reason"] = "penalty missed"
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302
    hand = Hand.objects.get(game=game, number=1)
    history = admin_client.get(url(Hand, "history", hand.pk)).content.decode()
    assert "corrected: penalty missed" in history
    for raw in ("points_ns", "points_ew", "total_ns", "score_line", "totals_line", "Points ns"):
        assert raw not in history, raw
    assert "Points Ajuinen" in history and "Points Boeren" in history
    assert "Score Ajuinen–Boeren" in history and "Totals Ajuinen–Boeren" in history
    flat = " ".join(history.split())
    assert "<strong>Penalty by:</strong> &nbsp;&rarr;&nbsp;&nbsp;Boeren </li>" in flat
    assert "<strong>Total Ajuinen:</strong> 7" in flat


# -- 2. house options on the add page ------------------------------------------------------------


def add_post(variant: str, **fields) -> dict:
    return {"name": "New Cup", "slug": "new-cup", "variant": variant, "format": "swiss", "rounds": 3,
            "best_of": 3, "public": "on", "status": "draft", "tiebreaks": '["match_points"]', "points_win": 2,
            "points_draw": 1, "points_bye": 2, "separate_clubs_rounds": 0, "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0, "round_set-TOTAL_FORMS": 0, "round_set-INITIAL_FORMS": 0, **fields}


def test_the_add_page_offers_the_chosen_variants_house_options_as_fields(admin_client):
    form = admin_client.get(url(Tournament, "add")).context["adminform"].form
    assert "options" not in form.fields and "option_tie_doubling" in form.fields  # the first variant's
    page = admin_client.get(url(Tournament, "add") + "?variant=mexican-malilla&name=Copa")
    form = page.context["adminform"].form
    assert {"option_target", "option_malilla_rule", "option_clockwise", "option_albur"} <= set(form.fields)
    assert "option_tie_doubling" not in form.fields and form["name"].value() == "Copa"
    content = page.content.decode()
    assert "tournaments/admin_variant.js" in content and 'name="options_variant"' in content

    response = admin_client.post(url(Tournament, "add"), add_post(
        "mexican-malilla", options_variant="mexican-malilla", option_target=35, option_albur="on",
        option_malilla_rule="on"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Tournament.objects.get(slug="new-cup").options == {"albur": True}


def test_the_add_page_refuses_options_of_another_variant_and_shows_the_new_ones(admin_client):
    # Belgian options shown, then the variant changed without the reload: nothing saved, Mexican options offered.
    response = admin_client.post(url(Tournament, "add"), add_post(
        "mexican-malilla", options_variant="belgian-manille", option_target=151, option_tie_doubling="stack"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    form = response.context["adminform"].form
    assert "variant" in form.errors and "option_albur" in form.fields
    assert form["option_target"].value() == "35" and form["options_variant"].value() == "mexican-malilla"


def test_the_engine_still_validates_house_options_on_the_add_page(admin_client):
    response = admin_client.post(url(Tournament, "add"), add_post(
        "belgian-manille", options_variant="belgian-manille", option_target=0, option_tie_doubling="next"))
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert response.context["adminform"].form.errors


# -- 5. people picked by search --------------------------------------------------------------------


def test_organizers_and_scorekeepers_are_picked_by_a_search_of_active_users(client):
    tournament = TournamentFactory(name="Alpha Cup")
    organizer = volunteer("orga")
    tournament.organizers.add(organizer)
    UserFactory(username="jan-active")
    UserFactory(username="jan-gone", is_active=False)
    client.force_login(organizer)
    page = client.get(url(Tournament, "change", tournament.pk))
    form = page.context["adminform"].form
    assert form.fields["scorekeepers"].widget.widget.__class__.__name__ == "AutocompleteSelectMultiple"
    assert "filter_horizontal" not in page.content.decode() and "SelectFilter" not in page.content.decode()
    answer = client.get(reverse("admin:autocomplete"), {"term": "jan", "app_label": "tournaments",
                                                        "model_name": "tournament", "field_name": "scorekeepers"})
    assert answer.status_code == 200
    assert [r["text"] for r in answer.json()["results"]] == ["jan-active"]
    # ... but a volunteer never browses the users themselves.
    user_model = get_user_model()
    assert client.get(url(user_model, "changelist")).status_code == 403
    keeper = volunteer("keeper-only")
    client.force_login(keeper)
    assert client.get(reverse("admin:autocomplete"), {"term": "jan", "app_label": "tournaments",
                                                      "model_name": "tournament",
                                                      "field_name": "scorekeepers"}).status_code == 403


# -- 6. plurals -----------------------------------------------------------------------------------


def test_admin_messages_use_plural_forms(admin_client):
    match = make_match()
    response = admin_client.post(url(Match, "changelist"), {
        "action": "start_next_game", "_selected_action": [match.pk], "first_dealer": "N", "apply": "1"})
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "Started the next game of 1 match." in messages
    other = make_match()
    response = admin_client.post(url(Match, "changelist"), {
        "action": "start_next_game", "_selected_action": [other.pk, MatchFactory(
            round=other.round, ns__name="X", ew__name="Y").pk], "first_dealer": "N", "apply": "1"})
    assert "Started the next game of 2 matches." in [str(m) for m in response.wsgi_request._messages]
    from pathlib import Path

    source = "".join(p.read_text(encoding="utf-8") for p in Path("tournaments/admin").glob("*.py"))
    assert "(es)" not in source and "(s)" not in source


# -- 3. "Add another" rows: the dealer in the variant's direction ---------------------------------


@pytest.mark.parametrize(("variant", "expected"), [("belgian-manille", "N:E E:S S:W W:N"),
                                                   ("spanish-manilla", "N:W E:N S:E W:S")])
def test_the_game_page_gives_its_script_the_variants_direction_of_dealing(admin_client, variant, expected):
    match = make_match(variant)
    game = game_start(match=match, first_dealer="N")
    page = admin_client.get(url(Game, "change", game.pk))
    content = page.content.decode()
    assert f'data-next-seat="{expected}"' in content
    assert "tournaments/admin_hands.js" in content
    assert "<script>" not in content  # the Content-Security-Policy allows no inline script


# -- 4. long team names in the hand table's headers ---------------------------------------------


def test_long_team_names_are_abbreviated_in_the_hand_tables_headers_with_the_full_name_as_title(admin_client):
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    match = MatchFactory(round__tournament=tournament, ns__name="Koninklijke Kaartersbond Zottegem",
                         ew__name="Boeren")
    hand_enter(match=match, data=summary("N", 37))
    page = admin_client.get(url(Game, "change", match.games.get().pk))
    content = page.content.decode()
    assert 'tricks <abbr title="Koninklijke Kaartersbond Zottegem">Koninkl. Kaarter…</abbr>' in content.replace(
        "Tricks", "tricks")
    assert "overflow-wrap: anywhere" not in content
    form = hand_formset(page).forms[0]
    assert form.fields["points_ew"].label == "points Boeren"  # a short name stays as it is


# -- 7. the admin in the volunteers' languages ------------------------------------------------------


@pytest.mark.parametrize("lang", ["nl", "fr", "es", "ca"])
def test_every_admin_string_is_translated(lang):
    import polib

    po = polib.pofile(f"locale/{lang}/LC_MESSAGES/django.po")
    missing = [e.msgid for e in po if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)
               and any(path.startswith(("tournaments/admin", "tournaments/templates/admin"))
                       for path, _line in e.occurrences)]
    assert not missing, missing


def test_the_admin_speaks_flemish_with_plurals(admin_client):
    match = make_match()
    hand_enter(match=match, data=summary("N", 37))
    with translation.override("nl"):
        content = admin_client.get(url(Game, "change", match.games.get().pk), HTTP_ACCEPT_LANGUAGE="nl").content
        assert "Reden van een correctie" in content.decode()
        assert translation.ngettext("%(count)s match", "%(count)s matches", 2) % {"count": 2} == "2 wedstrijden"
        assert translation.gettext("dealer") == "gever"


# -- issue 25.5 and 25.6: the admin's tournament form, a version's page, lists at 1,024 px -----------------


def test_a_new_tournament_starts_hidden_in_the_admin(admin_client):
    form = admin_client.get(url(Tournament, "add")).context["adminform"].form
    assert form["public"].value() is False


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"points_win": 2, "points_draw": 3}, "points_draw", "A draw cannot be worth more than a win (2 points)."),
    ({"points_win": 2, "points_bye": 100}, "points_bye", "A bye cannot be worth more than a win (2 points)."),
    ({"points_win": 101}, "points_win", "Ensure this value is less than or equal to 100."),
    ({"option_target": 10000}, "option_target", "Ensure this value is less than or equal to 1000."),
])
def test_the_admin_refuses_settings_that_make_no_sense_on_their_field(admin_client, change, field, words):
    fields = {"options_variant": "mexican-malilla", "option_target": 35, **change}
    response = admin_client.post(url(Tournament, "add"), add_post("mexican-malilla", **fields))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors[field] == [words]
    assert not Tournament.objects.exists()


def test_the_admin_refuses_the_same_name_club_and_date_twice(admin_client):
    TournamentFactory(name="New Cup", starts_on="2026-12-05")
    response = admin_client.post(url(Tournament, "add"), add_post(
        "mexican-malilla", options_variant="mexican-malilla", option_target=35, name="NEW cup", slug="new-cup-2",
        starts_on="2026-12-05"))
    assert response.status_code == 200
    (error,) = response.context["adminform"].form.errors["name"]
    assert error.startswith("There is a tournament called New Cup on ")
    assert Tournament.objects.count() == 1


def test_a_history_version_names_the_hands_fields_in_words(admin_client):
    match = make_match()
    hand = hand_enter(match=match, data=summary("N", 37))[0]
    record = hand.history.get()
    page = admin_client.get(reverse("admin:tournaments_hand_simple_history", args=[hand.pk, record.history_id]))
    content = page.content.decode()
    for raw in ("Points ns", "Tricks ns", "Total ew", "Game winner", "Idempotency key"):
        assert raw not in content, raw
    assert "Points NS" in content and "Total EW" in content and "Retry key" in content
    assert "Change reason" in content and "entered" in content  # the version says why it was made
    with translation.override("nl"):
        content = admin_client.get(reverse("admin:tournaments_hand_simple_history", args=[hand.pk, record.history_id]),
                                   HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Punten NS" in content and "Gever" in content


def test_the_lists_fit_a_1024_px_screen(admin_client):
    """The columns that cut the lists off at 1,024 px are folded into one a side pair; the sidebar starts closed."""
    from tournaments.admin import GameAdmin, HandAdmin, MatchAdmin, StandingAdmin

    assert len(HandAdmin.list_display) <= 8 and "points_line" in HandAdmin.list_display
    assert len(MatchAdmin.list_display) <= 5 and len(GameAdmin.list_display) <= 5
    assert "computed_at" not in StandingAdmin.list_display
    match = make_match()
    hand_enter(match=match, data=summary("N", 37))
    for model in (Tournament, Match, Hand):
        content = admin_client.get(url(model, "changelist")).content.decode()
        assert "tournaments/admin_narrow.js" in content and "tournaments/admin_lists.css" in content
    content = admin_client.get(url(Hand, "changelist")).content.decode()
    assert '<td class="field-points_line">37–23</td>' in content

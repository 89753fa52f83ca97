"""The site's words for the engine's codes: variant names in the visitor's language wherever people read them."""

import pytest
from django.urls import reverse
from django.utils import translation

import scoring
from tests.factories import TournamentFactory, UserFactory
from web import labels

LANGUAGES = ["nl", "fr", "es", "ca"]
#: Belgian manillen as each language calls it (the page tests' tournament plays it).
BELGIAN = {"en": "Belgian (Flemish) Manille", "nl": "Manillen (België)", "fr": "Manille belge (flamande)",
           "es": "Manille belga (flamenca)", "ca": "Manille belga (flamenca)"}


def test_every_variant_of_the_engine_has_a_name_for_the_site():
    assert set(labels.VARIANT_NAMES) == set(scoring.VARIANTS)
    with translation.override("en"):
        assert {slug: labels.variant_name(v) for slug, v in scoring.VARIANTS.items()} == \
            {slug: v.name for slug, v in scoring.VARIANTS.items()}  # English: the engine's own names


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_names_every_variant_in_its_own_words(lang):
    with translation.override(lang):
        names = [labels.variant_name(slug) for slug in scoring.VARIANTS]
    english = [v.name for v in scoring.VARIANTS.values()]
    assert len(set(names)) == len(names)  # six different names
    changed = [n for n, e in zip(names, english, strict=True) if n != e]
    assert len(changed) == len(names), f"untranslated in {lang}: {set(names) & set(english)}"


def test_an_unknown_slug_is_shown_as_it_is():
    assert labels.variant_name("no-such-variant") == "no-such-variant"


def test_spanish_calls_the_mexican_game_malilla_and_catalan_its_own_game_manilla():
    with translation.override("es"):
        assert labels.variant_name("mexican-malilla").startswith("Malilla")
        assert labels.variant_name("spanish-manilla").startswith("Manilla")
    with translation.override("ca"):
        assert labels.variant_name("catalan-manilla").startswith("Manilla")


# -- every page that names a variant ------------------------------------------------------------------------------

def body(client, path, lang, **params) -> str:
    response = client.get(path, params, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_the_public_pages_and_the_prints_name_the_variant_in_the_page_language(client, tournament, lang):
    name = BELGIAN[lang]
    slug = tournament.slug
    pages = [reverse("web:home"), reverse("web:tournament", args=[slug]), reverse("web:standings", args=[slug]),
             reverse("web:variants"), reverse("web:variant", args=["belgian-manille"]),
             reverse("web:standings-print", args=[slug]), reverse("web:round-print", args=[slug, 1]),
             reverse("web:round-sheets", args=[slug, 1])]
    for path in pages:
        html = body(client, path, lang)
        assert name in html, path
        if lang != "en":
            assert BELGIAN["en"] not in html, path
    assert f"<title>{name}" in body(client, reverse("web:variant", args=["belgian-manille"]), lang)


@pytest.mark.django_db
def test_the_home_search_finds_a_variant_by_its_name_in_the_visitors_language(client, tournament):
    TournamentFactory(name="Copa", slug="copa", variant="mexican-malilla")
    found = body(client, reverse("web:home"), "nl", q="manillen")
    assert "Gentse Beker" in found and "Copa" not in found
    assert "Gentse Beker" not in body(client, reverse("web:home"), "en", q="manillen")  # English says "Manille"
    found = body(client, reverse("web:home"), "es", q="mexicana")
    assert "Copa" in found and "Gentse Beker" not in found


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_workspace_names_the_variant_in_the_page_language(client, tournament, lang):
    organizer = UserFactory(username="orga")
    tournament.organizers.add(organizer)
    client.force_login(organizer)
    for path in (reverse("ws:home"), reverse("ws:tournament", args=[tournament.slug]),
                 reverse("ws:tournament-edit", args=[tournament.slug])):
        html = body(client, path, lang)
        assert BELGIAN[lang] in html, path

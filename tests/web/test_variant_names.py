"""Every page that names a variant names it in the page's language (the words: ``tournaments.vocabulary``)."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory

LANGUAGES = ["nl", "fr", "es", "ca"]
#: Belgian manillen as each language calls it (the page tests' tournament plays it).
BELGIAN = {"en": "Belgian (Flemish) Manille", "nl": "Manillen (België)", "fr": "Manille belge (flamande)",
           "es": "Manille belga (flamenca)", "ca": "Manille belga (flamenca)"}


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

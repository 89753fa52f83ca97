"""The domain's words for the engine's codes (``tournaments.vocabulary``): variant names in the visitor's language.

That every page names the variant in its own language: tests/web/test_variant_names.py."""

import pytest
from django.utils import translation

import scoring
from tournaments import vocabulary

LANGUAGES = ["nl", "fr", "es", "ca"]


def test_every_variant_of_the_engine_has_a_name_for_the_site():
    assert set(vocabulary.VARIANT_NAMES) == set(scoring.VARIANTS)
    with translation.override("en"):
        assert {slug: vocabulary.variant_name(v) for slug, v in scoring.VARIANTS.items()} == \
            {slug: v.name for slug, v in scoring.VARIANTS.items()}  # English: the engine's own names


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_names_every_variant_in_its_own_words(lang):
    with translation.override(lang):
        names = [vocabulary.variant_name(slug) for slug in scoring.VARIANTS]
    english = [v.name for v in scoring.VARIANTS.values()]
    assert len(set(names)) == len(names)  # six different names
    changed = [n for n, e in zip(names, english, strict=True) if n != e]
    assert len(changed) == len(names), f"untranslated in {lang}: {set(names) & set(english)}"


def test_an_unknown_slug_is_shown_as_it_is():
    assert vocabulary.variant_name("no-such-variant") == "no-such-variant"


def test_spanish_calls_the_mexican_game_malilla_and_catalan_its_own_game_manilla():
    with translation.override("es"):
        assert vocabulary.variant_name("mexican-malilla").startswith("Malilla")
        assert vocabulary.variant_name("spanish-manilla").startswith("Manilla")
    with translation.override("ca"):
        assert vocabulary.variant_name("catalan-manilla").startswith("Manilla")


def test_the_sides_and_the_metrics_in_words():
    with translation.override("nl"):
        assert vocabulary.side_name("ns") == str(vocabulary.SIDES["ns"][1]) != "North–South"
    assert vocabulary.side_name("ew", short=True) == "EW"
    assert vocabulary.side_name("xx") == "xx"
    assert {key for key, *_ in vocabulary.STANDINGS_COLUMNS} >= {"rank", "played", "won", "drawn", "lost"}

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


def _reason_codes_in_the_source() -> set[str]:
    """Every pairing reason code the pairing logic and the services write: the first string of a two-item
    tuple whose second item is a dict, in tournaments/pairing and tournaments/services."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = set()
    for folder in ("tournaments/pairing", "tournaments/services", "tournaments/stages"):
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[1], ast.Dict)
                        and isinstance(node.elts[0], ast.Constant) and isinstance(node.elts[0].value, str)):
                    found.add(node.elts[0].value)
                if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) \
                        and isinstance(node.orelse, ast.Constant) and str(node.body.value).startswith(
                            ("swiss_", "berger")):
                    found |= {node.body.value, node.orelse.value}
    return found


def test_every_pairing_reason_has_words_in_every_language():
    """Match.explanation was English whatever the page's language: the pairing now keeps codes, these are its words."""
    codes = _reason_codes_in_the_source()
    assert {"swiss_same_score", "swiss_bye", "knockout_seeds", "berger", "changed_by_hand"} <= codes
    assert codes == set(vocabulary.PAIRING_REASONS), codes ^ set(vocabulary.PAIRING_REASONS)
    params = {"score": 3, "other_score": 2, "place": 1, "other": 2, "size": 4, "seed": 1, "round": 2, "table": 1,
              "who": "orga"}
    for code in codes:
        english = vocabulary.pairing_reasons([[code, params]])
        assert "%(" not in english and "?" not in english, (code, english)
        for lang in ("nl", "fr", "es", "ca"):
            with translation.override(lang):
                words = vocabulary.pairing_reasons([[code, params]])
            assert words != english and "%(" not in words, (lang, code, words)


def test_a_pairing_made_before_its_reasons_were_codes_keeps_its_words():
    assert vocabulary.pairing_reasons([], "Seed 1 v seed 8 (bracket of 8).") == "Seed 1 v seed 8 (bracket of 8)."
    with translation.override("nl"):
        assert vocabulary.pairing_reasons([["swiss_bye", {"score": 4}]]).count("4") == 1

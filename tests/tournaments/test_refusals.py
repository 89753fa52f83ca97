"""The refusals' words: every code the engine and the services raise has a sentence in the five languages,
docs/refusals.md is the catalogue the code makes, and nothing outside the engine reads words from it."""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

import scoring
from tournaments import refusals
from tournaments.refusal_catalogue import markdown, raised
from tournaments.services.errors import Conflict, ServiceError

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["nl", "fr", "es", "ca"]
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: Sentences that read the same in a language (names and numbers only, or the same word).
SAME: set = set()
#: Codes Django's own validators give (a tournament's numbers out of their bounds): not in the source.
DJANGO_CODES = {"min_value", "max_value", "null", "blank", "required", "invalid", "invalid_choice"}
#: Sentences picked by another param than ``reason``.
PICKED_OTHERWISE = {("play_mismatch", "tricks"), ("play_mismatch", "points"),
                    ("points_impossible", "card_points_exact")}


@pytest.fixture(scope="module")
def found():
    return raised()


def _sample(key) -> dict:
    """Values for every placeholder of a sentence."""
    with translation.override("en"):
        template = str(refusals.SENTENCES[key])
    return {name: 7 for name in PLACEHOLDER.findall(template)}


def test_every_code_the_source_raises_has_words_and_a_place_in_the_catalogue(found):
    assert {"points_total", "dealer_out_of_turn", "must_follow_suit", "hand_exists", "idempotency_key_mismatch",
            "pairing_impossible", "team_exists", "round_unfinished"} <= set(found)
    assert set(found) - set(refusals.CATALOGUE) == set(), "add the code to refusals.CATALOGUE and SENTENCES"
    assert set(found) - {k for k in refusals.SENTENCES if isinstance(k, str)} == set()
    assert set(refusals.CATALOGUE) - set(found) == DJANGO_CODES, "a code in the catalogue that nothing raises"
    missing = [(code, reason) for code, item in found.items() for reason in item.reasons
               if (code, reason) not in refusals.SENTENCES]
    assert missing == [], "a reason without its sentence"


def test_every_sentence_of_a_reason_is_raised(found):
    dead = [key for key in refusals.SENTENCES if isinstance(key, tuple) and key not in PICKED_OTHERWISE
            and (key[0] not in found or key[1] not in found[key[0]].reasons)]
    assert dead == []


def test_the_statuses_are_the_catalogues(found):
    for code, item in found.items():
        where, status = refusals.CATALOGUE[code]
        if where in ("engine", "service"):
            assert item.statuses == {status}, (code, item.statuses, status)
        assert where in item.where or where == "task", (code, item.where)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_is_written_in_every_language(lang):
    for key in refusals.SENTENCES:
        values = _sample(key)
        with translation.override("en"):
            english = str(refusals.SENTENCES[key] % values)
        with translation.override(lang):
            said = str(refusals.SENTENCES[key] % values)
        assert "%(" not in said and "%" not in said.replace("%%", ""), (lang, key, said)
        assert said != english or (lang, key) in SAME, (lang, key, said)


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_an_unknown_code_is_still_a_sentence(lang):
    with translation.override(lang):
        said = refusals.words("no_such_code", {"x": 1})
    assert "(no_such_code)" in said and "%" not in said


def test_the_catalogue_in_the_docs_is_the_codes():
    assert (ROOT / "docs" / "refusals.md").read_text() == markdown(), \
        "write it again: python -m tournaments.refusal_catalogue > docs/refusals.md"


def test_the_words_name_the_teams_and_write_seats_in_the_language():
    params = {"reason": "no_tricks", "side": "ew", "points": 5}
    assert refusals.words("points_impossible", params, names={"ns": "Ajuinen", "ew": "De Muulen"}) == \
        "De Muulen took no trick, so its points are 0 (not 5)."
    assert refusals.words("points_impossible", params).startswith("EW took no trick")
    dealer = {"reason": "next_seat", "previous": "S", "expected": "W", "dealer": "N", "direction": "clockwise"}
    assert refusals.words("dealer_out_of_turn", dealer) == "W deals this hand: S dealt the previous one."
    with translation.override("nl"):
        assert refusals.words("dealer_out_of_turn", dealer) == "W geeft deze deling: Z gaf de vorige."
    exact = {"reason": "card_points", "side": "ns", "card_points": 21, "points": 22, "trick_points": 1,
             "tricks": 1, "other_tricks": 11, "low": 0, "high": 0}
    assert "exactly 0 card points, not 21" in refusals.words("points_impossible", exact)


def test_a_refusal_renders_as_the_api_writes_it():
    exc = scoring.RuleViolation([scoring.Violation("points_total", "points", {"total": 60, "ns": 37, "ew": 22,
                                                                               "sum": 59})])
    assert refusals.render(exc) == [{"code": "points_total", "attr": "points",
                                     "detail": "The points of the two teams must add up to 60; these add up to 59."}]
    with translation.override("fr"):
        [french] = refusals.render(exc)
    assert (french["code"], french["attr"]) == ("points_total", "points") and "60" in french["detail"]
    conflict = Conflict("hand_exists", "number", {"reason": "entered", "number": 1, "game": 1, "next": 2})
    assert refusals.render(conflict) == [{"code": "hand_exists", "attr": "number",
                                          "detail": "Hand 1 of game 1 is already entered; the next hand is 2."}]
    assert str(conflict) == "hand_exists(number: reason='entered', number=1, game=1, next=2)"
    assert str(ServiceError("seed", "seed", {"value": 0})) == "seed(seed: value=0)"


def test_a_violation_carries_a_code_and_params_and_no_words():
    v = scoring.Violation("tricks_total", "tricks", {"total": 8, "ns": 5, "ew": 4, "sum": 9})
    assert v.to_dict() == {"code": "tricks_total", "attr": "tricks", "params": {"total": 8, "ns": 5, "ew": 4,
                                                                                 "sum": 9}}
    assert not hasattr(v, "message")
    assert str(scoring.RuleViolation(v)) == "tricks_total(tricks: total=8, ns=5, ew=4, sum=9)"


def test_no_module_reads_words_from_a_refusal():
    """The words come from tournaments.refusals: nothing reads a ``.message`` of a violation or a service error."""
    readers = []
    for folder in ("tournaments", "web", "api", "webhooks", "config"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr == "message":
                    readers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert readers == []


def test_the_engine_imports_no_django():
    for path in (ROOT / "scoring").glob("*.py"):
        assert "django" not in path.read_text(), path.name

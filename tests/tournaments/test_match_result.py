"""One function works out a match's result (``match_result_apply``): from its games, or a bye's or a walkover's."""

import ast
from pathlib import Path

import pytest

from tests.factories import MatchFactory, TournamentFactory
from tests.tournaments.test_hand_writers import ROOT, _modules
from tournaments.models import Match
from tournaments.services.games import match_result_apply

pytestmark = pytest.mark.django_db

GAMES = Path(ROOT / "tournaments" / "services" / "games.py")


@pytest.fixture
def match(db):
    return MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille", best_of=3))


def test_a_bye_is_won_by_its_team_at_once(match):
    match.ew = None
    assert match_result_apply(match, [])
    assert (match.status, match.winner, match.games_won_ns, match.points_ns) == (Match.Status.FINISHED, "ns", 0, 0)


def test_a_walkover_is_won_by_the_side_named(match):
    match_result_apply(match, [], walkover="ew")
    assert (match.status, match.winner) == (Match.Status.FINISHED, "ew")


def test_a_match_without_games_is_scheduled_and_reads_no_tournament(match, django_assert_num_queries):
    match = Match(round=match.round, table=9, ns=match.ns, ew=match.ew)
    with django_assert_num_queries(0):
        assert not match_result_apply(match, [])
    assert (match.status, match.winner) == (Match.Status.SCHEDULED, "")


def _result_writes(source: str) -> list[str]:
    """Where a module sets a match's result: its games won, or a Match built with a status or winner."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names = [t for t in ast.walk(target) if isinstance(t, ast.Attribute)]
                if any(t.attr in ("games_won_ns", "games_won_ew") for t in names):
                    found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Match" \
                and any(k.arg in ("status", "winner", "games_won_ns", "games_won_ew") for k in node.keywords):
            found.append(ast.unparse(node))
    return found


def test_only_match_result_apply_sets_a_matchs_result():
    services = ROOT / "tournaments" / "services"
    modules = [*_modules(), *(p for p in sorted(services.glob("*.py")) if p != GAMES)]
    writes = {str(p.relative_to(ROOT)): found for p in modules if (found := _result_writes(p.read_text()))}
    assert writes == {}
    assert _result_writes(GAMES.read_text())  # not vacuous

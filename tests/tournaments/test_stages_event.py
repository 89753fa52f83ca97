"""The event's ranking across stages, and the check of an event's stages (no database)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.stages import (
    Replacement,
    Rule,
    StageError,
    StagePlan,
    StageResult,
    check_stages,
    event_ranking,
)

ROOT = Path(__file__).resolve().parents[2]


def test_by_stage_reached_then_that_stages_rank_with_each_path():
    pools = StageResult(1, (1, 2, 3, 4, 5, 6, 7, 8), {1: 1, 2: 1, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7, 8: 8},
                        frozenset({1, 2, 3, 5}), {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2, 7: 1, 8: 2},
                        (Replacement(4, 5),))
    final = StageResult(2, (3, 1, 5, 2))
    rows = event_ranking([final, pools])
    assert [(r.entrant, r.rank, r.stage, r.stage_rank) for r in rows] == [
        (3, 1, 2, 1), (1, 2, 2, 2), (5, 3, 2, 3), (2, 4, 2, 4),
        (4, 5, 1, 4), (6, 6, 1, 5), (7, 7, 1, 7), (8, 8, 1, 8)]
    path = {r.entrant: r.path for r in rows}
    assert [(s.stage, s.rank, s.pool, s.qualified) for s in path[1]] == [(1, 1, 1, True), (2, 2, None, False)]
    assert path[4][0].withdrew and path[4][0].replaced_by == 5 and not path[4][0].qualified
    assert path[5][0].replacing == 4 and path[5][0].qualified
    shared = event_ranking([StageResult(1, (1, 2, 3), {1: 1, 2: 1, 3: 3})])
    assert [r.rank for r in shared] == [1, 1, 3]


def test_bad_stage_results_are_refused():
    with pytest.raises(StageError):
        event_ranking([StageResult(1, (1, 2)), StageResult(1, (1,))])
    with pytest.raises(StageError):
        event_ranking([StageResult(1, (1, 1))])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_event_ranking_property(cuts, rng):
    field = list(range(1, 40))
    rng.shuffle(field)
    stages, playing = [], field
    for number, cut in enumerate(cuts, start=1):
        order = list(playing)
        rng.shuffle(order)
        stages.append(StageResult(number, tuple(order), qualified=frozenset(order[:cut])))
        playing = order[:cut]
    rows = event_ranking(stages)
    assert sorted(r.entrant for r in rows) == sorted(field)
    assert [r.stage for r in rows] == sorted((r.stage for r in rows), reverse=True)
    for a, b in zip(rows, rows[1:]):
        assert (a.stage, -a.stage_rank) > (b.stage, -b.stage_rank) and a.rank < b.rank
    for r in rows:
        assert [s.stage for s in r.path] == list(range(1, r.stage + 1))
        assert all(s.qualified for s in r.path[:-1])


def plan(fmt, rule=None, **extra):
    return StagePlan(fmt, rule=rule, **extra)


def test_the_roeselare_and_championship_formats_pass_with_their_sizes():
    roeselare = [plan("pools", Rule("pools", per_pool=1, best_next=1), pools=15), plan("knockout", rounds=4)]
    assert check_stages(roeselare, entry="teams", entrants=60) == [60, 16]
    championship = [plan("tables", Rule("top", count=128)), plan("tables", Rule("table_winners")), plan("tables")]
    assert check_stages(championship, entry="individual", entrants=544) == [544, 128, 32]
    catalan = [plan("pools", Rule("pools", per_pool=2, best_next=2, carry=("match_points",)), pools=8),
               plan("round_robin", Rule("top", count=8)), plan("knockout")]
    assert check_stages(catalan, entry="teams", entrants=61) == [61, 18, 8]


@pytest.mark.parametrize("plans,entry,entrants,code,reason", [
    ([plan("tables")], "teams", 20, "format_for_entry", None),
    ([plan("pools", pools=11)], "teams", 21, "pool_count", None),
    ([plan("pools", pools=0)], "teams", 21, "pool_count", None),
    ([plan("swiss", Rule("top", count=40)), plan("knockout", rounds=5)], "teams", 50, "stage_capacity", "above"),
    ([plan("swiss", Rule("top", count=3)), plan("tables")], "individual", 50, "stage_capacity", "below"),
    ([plan("swiss", Rule("top", count=8)), plan("knockout", rounds=4)], "teams", 50, "stage_capacity", "below"),
    ([plan("swiss", Rule("top", count=16)), plan("pools", pools=9)], "teams", 50, "pool_count", None),
    ([plan("swiss", Rule("top", count=60)), plan("knockout")], "teams", 50, "qualification_invalid", "count"),
    ([plan("swiss", Rule("pools", per_pool=1)), plan("knockout")], "teams", 50, "qualification_invalid", "format"),
    ([plan("swiss", Rule("table_winners")), plan("swiss")], "individual", 50, "qualification_invalid", "format"),
    ([plan("pools", Rule("pools", per_pool=1, best_next=5), pools=4), plan("knockout")], "teams", 16,
     "qualification_invalid", "next_place"),
    ([plan("swiss"), plan("knockout")], "teams", 50, "qualification_invalid", "missing"),
    ([plan("knockout", Rule("all"))], "teams", 8, "qualification_invalid", "last_stage"),
    ([plan("swiss", Rule("top", count=8, carry=("match_points",))), plan("knockout")], "teams", 50,
     "carry_over_invalid", "knockout"),
    ([plan("swiss", Rule("all", carry=("boams",))), plan("swiss")], "teams", 50, "carry_over_invalid", "part"),
    ([], "teams", 8, "stage_inputs_invalid", None),
])
def test_bad_stages_are_refused_with_codes(plans, entry, entrants, code, reason):
    with pytest.raises(StageError) as error:
        check_stages(plans, entry=entry, entrants=entrants)
    assert error.value.code == code and error.value.params.get("reason") == reason


def test_the_refusal_names_the_stage():
    with pytest.raises(StageError) as error:
        check_stages([plan("swiss", Rule("top", count=40)), plan("knockout", rounds=5)], entry="teams", entrants=50)
    assert error.value.params == {"reason": "above", "stage": 2, "entrants": 40, "limit": 32}
    with pytest.raises(StageError) as error:
        check_stages([plan("swiss", Rule("top", count=60)), plan("knockout")], entry="teams", entrants=50)
    assert error.value.params == {"reason": "count", "count": 60, "entrants": 50, "stage": 1}


def test_the_stages_logic_imports_no_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import sys, tournaments.stages; "
            "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, timeout=60, check=False).returncode == 0

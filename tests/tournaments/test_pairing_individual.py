"""The individual draw on hand-made cases: refusals, the tables rotation, sit-outs, constraints, JSON, the check."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournaments.individual_events import inputs, past
from tournaments.pairing.individual import (
    DRAW_VERSION,
    DrawError,
    DrawInputs,
    DrawPlayer,
    DrawResult,
    PastRound,
    PastTable,
    draw,
    opponents_lower_bound,
)
from tournaments.pairing.individual.field import meetings

ROOT = Path(__file__).resolve().parents[2]


def refusal(value) -> DrawError:
    with pytest.raises(DrawError) as caught:
        draw(value)
    return caught.value


def cycle(numbers, **options):
    """The three rounds of a tables cycle, drawn one after the other."""
    history, results = [], []
    for rnd in (1, 2, 3):
        result = draw(inputs("tables", rnd, numbers, history=history, **options))
        results.append(result)
        history.append(past(result, rnd))
    return results, history


# -- refusals ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_too_few_players(fmt):
    error = refusal(inputs(fmt, 1, [1, 2, 3]))
    assert (error.code, error.params) == ("too_few_players", {"players": 3, "needed": 4})


def test_a_start_number_twice():
    value = DrawInputs("tables", 1, (DrawPlayer(1), DrawPlayer(2), DrawPlayer(2), DrawPlayer(3), DrawPlayer(4)), "s")
    error = refusal(value)
    assert (error.code, error.params) == ("duplicate_player", {"number": 2})


def test_unknown_version_format_and_round():
    assert refusal(inputs("tables", 1, range(1, 5), version="0")).code == "version_unknown"
    assert refusal(inputs("pairs", 1, range(1, 5))).code == "format_unknown"
    assert refusal(inputs("swiss", 0, range(1, 5))).code == "round_invalid"


def test_two_players_fixed_to_one_table_and_a_table_that_does_not_exist():
    error = refusal(inputs("tables", 1, range(1, 9), fixed={3: 1, 6: 1}))
    assert (error.code, error.params) == ("fixed_table_taken", {"table": 1, "players": [3, 6]})
    error = refusal(inputs("swiss", 1, range(1, 9), fixed={3: 3}))
    assert (error.code, error.params) == ("fixed_table_out_of_range", {"player": 3, "table": 3, "tables": 2})


@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_a_kept_apart_pair_that_cannot_be_kept_apart(fmt):
    error = refusal(inputs(fmt, 1, range(1, 5), kept_apart=((4, 2),)))
    assert (error.code, error.params) == ("constraint_unsatisfiable", {"pair": [2, 4]})
    # three players pairwise apart, two tables: impossible whatever the seed
    error = refusal(inputs(fmt, 1, range(1, 9), kept_apart=((1, 2), (2, 3), (1, 3))))
    assert error.code == "constraint_unsatisfiable" and set(error.params["pair"]) < {1, 2, 3}


@pytest.mark.parametrize("fmt", ["tables", "swiss"])
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_a_player_kept_apart_from_all_but_three_sits_with_those_three(fmt, seed):
    apart = tuple((1, p) for p in range(2, 14))
    result = draw(inputs(fmt, 1, range(1, 17), kept_apart=apart, seed=seed))
    table = next(t for t in result.tables if 1 in (*t.ns, *t.ew))
    assert {*table.ns, *table.ew} == {1, 14, 15, 16}
    error = refusal(inputs(fmt, 1, range(1, 17), kept_apart=(*apart, (1, 14)), seed=seed))
    assert error.code == "constraint_unsatisfiable" and error.params["pair"][0] == 1


def test_swiss_refuses_a_round_with_no_new_partnership():
    history = []
    for rnd in (1, 2, 3):  # four players partner each of the other three once
        result = draw(inputs("swiss", rnd, range(1, 5), history=history))
        history.append(past(result, rnd))
    error = refusal(inputs("swiss", 4, range(1, 5), history=history))
    assert (error.code, error.params) == ("no_partnership_left", {"players": [1, 2, 3, 4]})


def test_malformed_json_names_the_field():
    data = inputs("tables", 1, range(1, 5)).to_json()
    data["players"][2]["number"] = "3"
    with pytest.raises(DrawError) as caught:
        DrawInputs.from_json(data)
    assert caught.value.params == {"field": "players[2].number"}
    with pytest.raises(DrawError):
        DrawInputs.from_json({"format": "tables"})


def test_history_from_the_future_or_with_a_player_twice():
    table = PastTable(1, (1, 2), (3, 4))
    assert refusal(inputs("tables", 2, range(1, 5), history=[PastRound(2, (table,))])).code == "history_invalid"
    twice = PastRound(1, (PastTable(1, (1, 2), (3, 1)),))
    assert refusal(inputs("swiss", 2, range(1, 5), history=[twice])).params == {"round": 1}


# -- the tables cycle -----------------------------------------------------------------------------------

def test_a_cycle_rotates_three_players_around_the_seated_scorer():
    results, _ = cycle(range(1, 13))
    first = {t.table: t for t in results[0].tables}
    for t1 in results[0].tables:
        t2 = next(t for t in results[1].tables if t.table == t1.table)
        t3 = next(t for t in results[2].tables if t.table == t1.table)
        a, b = t1.ns
        c, d = t1.ew
        assert (t2.ns, t2.ew) == ((a, c), (b, d))
        assert (t3.ns, t3.ew) == ((a, d), (b, c))
        assert t1.seats == {"N": a, "S": b, "E": c, "W": d}
        assert t3.seats == {"N": a, "S": d, "E": b, "W": c}
    assert [r.report["cycle_round"] for r in results] == [1, 2, 3]
    assert [r.report["method"] for r in results] == ["exact", "rotation", "rotation"]
    assert len(first) == 3


def test_the_next_cycle_keeps_players_who_met_apart_and_says_how_far():
    _, history = cycle(range(1, 13))
    result = draw(inputs("tables", 4, range(1, 13), history=history))
    # twelve players, three old tables of four: every new table of four holds two who met (pigeonhole)
    assert result.report["repeated_meetings"] == result.report["meetings_lower_bound"] == 3
    assert result.report["repeated_opponents"] == result.report["opponents_lower_bound"] == 3
    assert opponents_lower_bound(inputs("tables", 4, range(1, 13), history=history)) == 3
    _, history = cycle(range(1, 41))
    result = draw(inputs("tables", 4, range(1, 41), history=history))
    assert result.report["repeated_meetings"] == 0


def test_round_two_needs_round_one_and_every_player_of_the_cycle():
    assert refusal(inputs("tables", 2, range(1, 9))).params == {"round": 1}
    first = draw(inputs("tables", 1, range(1, 9)))
    history = [past(first, 1)]
    gone = first.tables[1].ew[0]
    error = refusal(inputs("tables", 2, [p for p in range(1, 9) if p != gone], history=history))
    assert (error.code, error.params) == ("player_left_mid_cycle", {"players": [gone], "tables": [2]})


def test_a_reserve_takes_the_seat_for_the_rest_of_the_cycle():
    first = draw(inputs("tables", 1, range(1, 9)))
    history = [past(first, 1)]
    gone = first.tables[0].ns[1]  # B of table 1
    others = [p for p in range(1, 9) if p != gone]
    second = draw(inputs("tables", 2, [*others, 20], history=history, reserves=((gone, 20),)))
    assert second.tables[0].ew[0] == 20  # round 2 puts B at E
    history.append(past(second, 2))
    third = draw(inputs("tables", 3, [*others, 20], history=history))
    assert third.tables[0].ew[0] == 20 and not third.sitting_out
    error = refusal(inputs("tables", 2, [*others, 20], history=history[:1], reserves=((99, 20),)))
    assert error.code == "reserve_invalid"


def test_a_late_entry_sits_out_until_the_next_draw_of_tables():
    first = draw(inputs("tables", 1, range(1, 9)))
    second = draw(inputs("tables", 2, range(1, 10), history=[past(first, 1)]))
    assert second.sitting_out == (9,)
    assert second.report["joined_mid_cycle"] == 1


def test_fixed_players_are_the_seated_scorers_of_their_tables():
    results, _ = cycle(range(1, 17), fixed={7: 4, 12: 1})
    for result in results:
        seats = {t.table: t.seats["N"] for t in result.tables}
        assert seats[4] == 7 and seats[1] == 12
    result = draw(inputs("swiss", 1, range(1, 17), fixed={7: 4, 12: 1}))
    seats = {t.table: t.seats["N"] for t in result.tables}
    assert seats[4] == 7 and seats[1] == 12


# -- sit-outs ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_sit_outs_go_to_the_fewest_sit_outs_first(fmt):
    numbers = range(1, 11)  # 10 players: 2 sit out
    history = [PastRound(1, (PastTable(1, (1, 2), (3, 4)), PastTable(2, (5, 6), (7, 8))), (9, 10))]
    rnd = 4 if fmt == "tables" else 2
    history = [PastRound(rnd - 1, history[0].tables, history[0].sitting_out)]
    result = draw(inputs(fmt, rnd, numbers, history=history))
    assert len(result.sitting_out) == 2 and not set(result.sitting_out) & {9, 10}
    assert result.report["sitting_out"] == 2


def test_nobody_sits_out_twice_before_everyone_has_once():
    numbers, history, counts = range(1, 8), [], dict.fromkeys(range(1, 8), 0)  # 7 players: 3 sit out
    for rnd in range(1, 8):
        result = draw(inputs("swiss", rnd, numbers, history=history))
        for p in result.sitting_out:
            counts[p] += 1
        assert max(counts.values()) - min(counts.values()) <= 1
        history.append(past(result, rnd))


# -- clubs and swiss scores ----------------------------------------------------------------------------------

def test_players_of_one_club_are_spread_over_the_tables():
    clubs = {p: f"club-{p % 4}" for p in range(1, 17)}  # four clubs of four over four tables
    result = draw(inputs("tables", 1, range(1, 17), clubs=clubs))
    assert result.report["club_conflicts"] == result.report["club_conflicts_lower_bound"] == 0
    clubs = {p: "one" for p in range(1, 17)}
    result = draw(inputs("tables", 1, range(1, 17), clubs=clubs))
    assert result.report["club_conflicts"] == result.report["club_conflicts_lower_bound"] == 24


def test_swiss_partners_and_tables_inside_score_groups():
    scores = tuple((p, 4 if p <= 8 else 0, 0, 0) for p in range(1, 17))
    result = draw(inputs("swiss", 3, range(1, 17), scores=scores))
    assert result.report["partner_floats"] == result.report["table_floats"] == 0
    top = [t for t in result.tables if t.table <= 2]
    assert all(p <= 8 for t in top for p in (*t.ns, *t.ew))


# -- determinism ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_the_same_inputs_give_the_same_draw_in_any_order(fmt):
    clubs = {p: f"c{p % 5}" for p in range(1, 31)}
    value = inputs(fmt, 1, range(1, 31), clubs=clubs, kept_apart=((1, 2),), seed="a1b2")
    shuffled = DrawInputs(fmt, 1, tuple(reversed(value.players)), "a1b2", kept_apart=((2, 1),))
    assert draw(value).to_json() == draw(value).to_json() == draw(shuffled).to_json()


@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_club_keys_are_only_compared(fmt):
    """Renumbering the clubs' database ids (their keys) changes nothing."""
    clubs = {p: str(p % 5) for p in range(1, 31)}
    renamed = {p: str(1000 - int(c) * 7) for p, c in clubs.items()}
    assert (draw(inputs(fmt, 1, range(1, 31), clubs=clubs)).to_json()
            == draw(inputs(fmt, 1, range(1, 31), clubs=renamed)).to_json())


@pytest.mark.parametrize("fmt", ["tables", "swiss"])
def test_another_seed_gives_another_draw(fmt):
    draws = {json.dumps(draw(inputs(fmt, 1, range(1, 17), seed=f"seed-{k}")).to_json()["tables"]) for k in range(10)}
    assert len(draws) == 10


# -- JSON and the check script -------------------------------------------------------------------------------

def test_inputs_and_result_survive_json():
    first = draw(inputs("tables", 1, range(1, 10), clubs={1: "x", 2: "x"}))
    value = inputs("tables", 2, range(1, 10), clubs={1: "x", 2: "x"}, fixed={5: 1}, seed="f00",
                   history=[PastRound(1, tuple(PastTable(t.table, t.ns, t.ew) for t in first.tables),
                                      first.sitting_out)],
                   kept_apart=((3, 4),), scores=((1, 2, 1, 80),))
    assert DrawInputs.from_json(json.loads(json.dumps(value.to_json()))) == value
    assert value.to_json()["version"] == DRAW_VERSION
    result = draw(inputs("swiss", 1, range(1, 14)))
    assert DrawResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def run_check(tmp_path, data, *extra):
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(data))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run([sys.executable, "-m", "tournaments.pairing.individual.check", str(path), *extra],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_the_check_script_rederives_the_draw_without_django(tmp_path):
    numbers = range(1, 23)
    first = draw(inputs("swiss", 1, numbers, seed="c0ffee"))
    value = inputs("swiss", 2, numbers, seed="beef", history=[past(first, 1)])
    data = value.to_json() | {"result": draw(value).to_json()}
    done = run_check(tmp_path, data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the same draw as the published one" in done.stdout
    data["result"]["tables"][0]["ns"].reverse()
    done = run_check(tmp_path, data)
    assert done.returncode == 1 and "DIFFERENT" in done.stdout and "table 1" in done.stdout
    done = run_check(tmp_path, inputs("tables", 1, [1, 2, 3]).to_json())
    assert done.returncode == 2 and "too_few_players" in done.stdout
    done = run_check(tmp_path, {"inputs": value.to_json()}, "--json")
    assert done.returncode == 0 and json.loads(done.stdout.split("\nno published")[0]) == draw(value).to_json()


def test_the_draw_imports_no_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = ("import sys, tournaments.pairing.individual.check; "
            "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, timeout=60, check=False).returncode == 0


# -- a forfeit is no meeting (FIDE C.04, as the team Swiss reads it) -------------------------------------------------

def test_a_forfeited_table_is_no_meeting():
    forfeited = PastRound(1, (PastTable(1, (1, 2), (3, 4), forfeit=True), PastTable(2, (5, 6), (7, 8))))
    partners, opponents = meetings([forfeited])
    assert partners == {5: {6}, 6: {5}, 7: {8}, 8: {7}}
    assert opponents == {5: {7, 8}, 6: {7, 8}, 7: {5, 6}, 8: {5, 6}}


@pytest.mark.parametrize("forfeit", [False, True])
def test_swiss_pairs_again_the_partners_of_a_forfeited_table(forfeit):
    """Four players partnered each other player in rounds 1 to 3; round 1 was forfeited: round 4 draws its
    partnerships again (played, no partnership is left)."""
    history = [PastRound(1, (PastTable(1, (1, 2), (3, 4), forfeit=forfeit),)),
               PastRound(2, (PastTable(1, (1, 3), (2, 4)),)), PastRound(3, (PastTable(1, (1, 4), (2, 3)),))]
    if not forfeit:
        assert refusal(inputs("swiss", 4, range(1, 5), history=history)).code == "no_partnership_left"
        return
    result = draw(inputs("swiss", 4, range(1, 5), history=history))
    (table,) = result.tables
    assert {frozenset(table.ns), frozenset(table.ew)} == {frozenset((1, 2)), frozenset((3, 4))}
    assert result.report["repeated_partners"] == 0 and result.report["repeated_opponents"] == 4


def test_a_forfeited_table_keeps_its_seats_in_a_tables_cycle_and_its_flag_in_json():
    results, history = cycle(range(1, 9))
    history[0] = PastRound(1, tuple(PastTable(t.table, t.ns, t.ew, forfeit=t.table == 1) for t in history[0].tables),
                           history[0].sitting_out)
    again = draw(inputs("tables", 2, range(1, 9), history=history[:1]))
    assert again.to_json() == results[1].to_json()  # the rotation reads the seats, forfeited or not
    data = inputs("swiss", 2, range(1, 9), history=history[:1]).to_json()
    assert [t.get("forfeit") for t in data["history"][0]["tables"]] == [True, None]
    assert DrawInputs.from_json(data).history == tuple(history[:1])
    data["history"][0]["tables"][0]["forfeit"] = "yes"
    with pytest.raises(DrawError) as caught:
        DrawInputs.from_json(data)
    assert (caught.value.code, caught.value.params) == ("inputs_invalid", {"field": "history[0].tables[0].forfeit"})


# -- a partner of a player absent sat the round out (scored so): the rotation counts it ---------------------------

def _five(seed: str, sat_out: tuple[int, ...]) -> DrawResult:
    """Round 2 of five players: 5 sat round 1 out; at table 1, player 1 was absent (a forfeit) and 2, their
    partner, sat the round out there (``sat_out``) or, before the rotation counted it, did not."""
    history = [PastRound(1, (PastTable(1, (1, 2), (3, 4), forfeit=True, sat_out=sat_out),), (5,))]
    return draw(inputs("swiss", 2, range(1, 6), seed=seed, history=history))


def test_the_partner_of_an_absent_player_does_not_sit_out_again_before_the_others():
    uncounted = [s for s in (f"s{i}" for i in range(60)) if _five(s, ()).sitting_out == (2,)]
    assert uncounted  # without it, seeds exist that make 2 sit out twice before 1, 3 and 4 once
    for seed in (f"s{i}" for i in range(60)):
        assert _five(seed, (2,)).sitting_out in ((1,), (3,), (4,))
    same = [_five(s, (2,)) for s in uncounted]
    assert all(r.sitting_out != (2,) for r in same)


def test_a_tables_sat_out_is_kept_in_json_and_checked():
    history = [PastRound(1, (PastTable(1, (1, 2), (3, 4), forfeit=True, sat_out=(2,)),), (5,))]
    data = inputs("swiss", 2, range(1, 6), history=history).to_json()
    assert data["history"][0]["tables"][0]["sat_out"] == [2]
    assert DrawInputs.from_json(data).history == tuple(history)
    plain = inputs("swiss", 2, range(1, 6), history=[PastRound(1, (PastTable(1, (1, 2), (3, 4)),), (5,))]).to_json()
    assert "sat_out" not in plain["history"][0]["tables"][0]  # a draw stored before it reads as it always did
    data["history"][0]["tables"][0]["sat_out"] = [5]  # not at that table
    assert refusal(DrawInputs.from_json(data)).code == "history_invalid"
    data["history"][0]["tables"][0]["sat_out"] = ["2"]
    with pytest.raises(DrawError) as caught:
        DrawInputs.from_json(data)
    assert caught.value.params == {"field": "history[0].tables[0].sat_out[0]"}

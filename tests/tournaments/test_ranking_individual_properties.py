"""Properties of the individual standings on random events (hypothesis).

Random events of 1 to 23 players seated four to a table with the rest sitting out (each round's
sit-outs scored by a random house rule), some matches drawn or unfinished, few distinct point values
so that ties are common. Checked: every row and metric against its definition read off the matches,
the order against the metrics applied one after the other, and that neither the order of the
input nor the players' ids (start numbers kept) change anything but the ids, and that a kept context
brought up to date with a changed result ranks as a full compute does.
"""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.ranking import METRICS, PointsSettings
from tournaments.ranking.individual import (
    FORMATS,
    SIT_OUT_RULES,
    IndividualMatch,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_club_standings,
    individual_context,
    individual_metrics,
    match_records,
    rank_individual_standings,
    sit_out_score,
    table_winners,
)

USABLE = sorted(n for n, m in METRICS.items() if "individual" in m.entries)
S = PointsSettings(points_win=2, points_draw=1, points_bye=2)


def event(seed: int, n_players: int, n_rounds: int):
    rng = random.Random(seed)
    ids = rng.sample(range(1, 10_000), n_players)
    players = [PlayerInfo(p, club=rng.choice([None, 1, 2, 3]), number=k)
               for p, k in zip(ids, rng.sample(range(1, 1_000), n_players))]
    matches, sit_outs = [], []
    for rnd in range(1, n_rounds + 1):
        seated = ids[:]
        rng.shuffle(seated)
        sitting = seated[:len(seated) % 4]
        seated = seated[len(sitting):]
        this_round = []
        for table, k in enumerate(range(0, len(seated), 4), start=1):
            a, b, c, d = seated[k:k + 4]
            winner = rng.choice(["ns", "ew", "draw", "ns", "ew", ""])
            this_round.append(IndividualMatch(1000 * rnd + table, rnd, table, (a, b), (c, d), winner,
                                              rng.randint(0, 2), rng.randint(0, 2), rng.choice((0, 50, 100, 150)),
                                              rng.choice((0, 50, 100, 150))))
        score = sit_out_score(rng.choice(SIT_OUT_RULES), this_round, fixed=(1, 1, 100), settings=S)
        sit_outs += [SitOut(p, rnd, *score) for p in sitting]
        matches += this_round
    return players, matches, sit_outs


def sides(m: IndividualMatch):
    """Each of the four players' view of a finished match: (player, partner, opponents, outcome, mp, gw, gl, pf, pa)."""
    mp = {"ns": (S.points_win, 0), "ew": (0, S.points_win), "draw": (S.points_draw, S.points_draw)}[m.winner]
    out = {"ns": ("W", "L"), "ew": ("L", "W"), "draw": ("D", "D")}[m.winner]
    (a, b), (c, d) = m.ns, m.ew
    ns = (out[0], mp[0], m.games_ns, m.games_ew, m.points_ns, m.points_ew)
    ew = (out[1], mp[1], m.games_ew, m.games_ns, m.points_ew, m.points_ns)
    return [(a, b, (c, d), *ns), (b, a, (c, d), *ns), (c, d, (a, b), *ew), (d, c, (a, b), *ew)]


def by_definition(players, matches, sit_outs):
    """Every player's row values and metrics, summed straight from the matches and sit-outs."""
    views = [v for m in matches if m.winner for v in sides(m)]
    rounds: dict[int, dict[int, int]] = {}  # player -> round -> match points
    out = {}
    for info in players:
        p = info.player
        mine = [v for v in views if v[0] == p]
        sat = [s for s in sit_outs if s.player == p]
        out[p] = {
            "played": len(mine), "won": sum(v[3] == "W" for v in mine), "drawn": sum(v[3] == "D" for v in mine),
            "lost": sum(v[3] == "L" for v in mine), "sit_outs": len(sat),
            "match_points": sum(v[4] for v in mine) + sum(s.match_points for s in sat),
            "games_won": sum(v[5] for v in mine) + sum(s.games_won for s in sat),
            "games_lost": sum(v[6] for v in mine),
            "points_for": sum(v[7] for v in mine) + sum(s.points_for for s in sat),
            "points_against": sum(v[8] for v in mine),
        }
        rounds[p] = {}
        for m in matches:
            if m.winner and p in (*m.ns, *m.ew):
                rounds[p][m.round] = next(v[4] for v in sides(m) if v[0] == p)
        for s in sat:
            rounds[p][s.round] = s.match_points
    pf = {q: r["points_for"] for q, r in out.items()}  # sit-out scores included
    for p, row in out.items():
        mine = [v for v in views if v[0] == p]
        running = total = 0
        for rnd in sorted(rounds[p]):
            running += rounds[p][rnd]
            total += running
        row.update({
            "matches_won": row["won"], "wins": row["won"], "games_diff": row["games_won"] - row["games_lost"],
            "points_diff": row["points_for"] - row["points_against"],
            "opponents_minus_partner": sum(pf[v[2][0]] + pf[v[2][1]] - pf[v[1]] for v in mine),
            "progressive": total,
        })
    return out


def reference_order(players, values, names):
    """(player, rank) by splitting the tied groups one metric at a time, equal ones by start number."""
    number = {p.player: p.number for p in players}
    out = []

    def split(group, level):
        if len(group) == 1 or level == len(names):
            rank = len(out) + 1
            out.extend((p, rank) for p in sorted(group, key=lambda p: (number[p], p)))
            return
        sign = 1 if METRICS[names[level]].higher_is_better else -1
        value = {p: sign * values[p][names[level]] for p in group}
        for v in sorted(set(value.values()), reverse=True):
            split([p for p in group if value[p] == v], level + 1)

    split([p.player for p in players], 0)
    return out


EVENTS = (st.integers(0, 10**6), st.integers(1, 23), st.integers(0, 5))
LISTS = st.lists(st.sampled_from(USABLE), max_size=5, unique=True)


@settings(max_examples=80, deadline=None)
@given(*EVENTS, st.sampled_from(sorted(FORMATS)), LISTS)
def test_rows_and_order_match_their_definitions(seed, n_players, n_rounds, format, tiebreaks):
    players, matches, sit_outs = event(seed, n_players, n_rounds)
    rows = compute_individual_standings(players, matches, sit_outs, format=format, metrics=tiebreaks, settings=S)
    values = by_definition(players, matches, sit_outs)
    names = individual_metrics(format, tiebreaks)
    for row in rows:
        expected = values[row.player]
        assert {k: getattr(row, k) for k in ("played", "won", "drawn", "lost", "sit_outs", "match_points",
                                             "games_won", "games_lost", "points_for", "points_against")} == {
            k: expected[k] for k in ("played", "won", "drawn", "lost", "sit_outs", "match_points", "games_won",
                                     "games_lost", "points_for", "points_against")}
        assert row.byes == 0
        assert row.tiebreaks == {name: expected[name] for name in names}
    every = compute_individual_standings(players, matches, sit_outs, format="swiss", metrics=USABLE, settings=S)
    assert all(r.tiebreaks == {n: values[r.player][n] for n in individual_metrics("swiss", USABLE)} for r in every)
    assert [(r.player, r.rank) for r in rows] == reference_order(players, values, names)
    assert [r.position for r in rows] == list(range(1, len(rows) + 1))


def shuffled(seed, players, matches, sit_outs):
    """The same event given in another order: lists shuffled, partners swapped, sides swapped (winner too)."""
    rng = random.Random(seed)
    flip = {"ns": "ew", "ew": "ns", "draw": "draw", "": ""}
    out = []
    for m in matches:
        ns, ew = (m.ns[::-1] if rng.random() < 0.5 else m.ns), (m.ew[::-1] if rng.random() < 0.5 else m.ew)
        if rng.random() < 0.5:
            m = replace(m, ns=ew, ew=ns, winner=flip[m.winner], games_ns=m.games_ew, games_ew=m.games_ns,
                        points_ns=m.points_ew, points_ew=m.points_ns)
        else:
            m = replace(m, ns=ns, ew=ew)
        out.append(m)
    return [rng.sample(x, len(x)) for x in (players, out, sit_outs)]


@settings(max_examples=60, deadline=None)
@given(*EVENTS, st.sampled_from(sorted(FORMATS)), LISTS, st.integers(0, 10**6))
def test_the_order_of_the_input_changes_nothing(seed, n_players, n_rounds, format, tiebreaks, shuffle):
    players, matches, sit_outs = event(seed, n_players, n_rounds)
    rows = compute_individual_standings(players, matches, sit_outs, format=format, metrics=tiebreaks, settings=S)
    players2, matches2, sit_outs2 = shuffled(shuffle, players, matches, sit_outs)
    rows2 = compute_individual_standings(players2, matches2, sit_outs2, format=format, metrics=tiebreaks, settings=S)
    assert rows2 == rows
    for best_n in (None, 2):
        assert (individual_club_standings(rows2, players2, best_n=best_n)
                == individual_club_standings(rows, players, best_n=best_n))
    assert (table_winners(players2, matches2, rows2, cycle_rounds=[1, 2, 3])
            == table_winners(players, matches, rows, cycle_rounds=[1, 2, 3]))


@settings(max_examples=60, deadline=None)
@given(*EVENTS, st.sampled_from(sorted(FORMATS)), LISTS, st.integers(0, 10**6))
def test_renumbering_player_ids_changes_only_the_ids(seed, n_players, n_rounds, format, tiebreaks, renumber):
    players, matches, sit_outs = event(seed, n_players, n_rounds)
    rows = compute_individual_standings(players, matches, sit_outs, format=format, metrics=tiebreaks, settings=S)
    rng = random.Random(renumber)
    new = dict(zip([p.player for p in players], rng.sample(range(20_000, 40_000), len(players))))
    players2 = [replace(p, player=new[p.player]) for p in players]
    matches2 = [replace(m, match=m.match + 7, ns=tuple(new[p] for p in m.ns), ew=tuple(new[p] for p in m.ew))
                for m in matches]
    sit_outs2 = [replace(s, player=new[s.player]) for s in sit_outs]
    rows2 = compute_individual_standings(players2, matches2, sit_outs2, format=format, metrics=tiebreaks, settings=S)
    assert rows2 == [replace(r, player=new[r.player]) for r in rows]
    for best_n in (None, 2):
        assert (individual_club_standings(rows2, players2, best_n=best_n)
                == individual_club_standings(rows, players, best_n=best_n))
    assert (table_winners(players2, matches2, rows2, cycle_rounds=[1, 2, 3])
            == [new[p] for p in table_winners(players, matches, rows, cycle_rounds=[1, 2, 3])])


@settings(max_examples=60, deadline=None)
@given(*EVENTS, st.sampled_from(sorted(FORMATS)), LISTS, st.integers(0, 10**6))
def test_a_kept_context_brought_up_to_date_ranks_as_a_full_compute(seed, n_players, n_rounds, format, tiebreaks,
                                                                   change):
    players, matches, sit_outs = event(seed, n_players, n_rounds)
    if not matches:
        return
    rng = random.Random(change)
    ctx = individual_context(players, matches, sit_outs, settings=S)
    for _ in range(3):  # results entered, corrected, or taken back (unfinished again)
        k = rng.randrange(len(matches))
        old = matches[k]
        new = replace(old, winner=rng.choice(["ns", "ew", "draw", ""]), games_ns=rng.randint(0, 3),
                      points_ew=rng.choice((0, 50, 100, 150, 200)))
        matches[k] = new
        ctx.replace(match_records(old, S), match_records(new, S))
        assert (rank_individual_standings(ctx, format=format, metrics=tiebreaks)
                == compute_individual_standings(players, matches, sit_outs, format=format, metrics=tiebreaks,
                                                settings=S))

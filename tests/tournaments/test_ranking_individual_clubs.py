"""The club ranking from individuals: pooled matches won over matches played, or the best N players' mean.

Worked by hand on delegations of unequal size (the complaint that large delegations are favoured).
"""

import pytest

from tournaments.ranking import StandingsRefused
from tournaments.ranking.individual import (
    IndividualMatch,
    IndividualRow,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_club_standings,
)

# (player, club, won, played): club 10 sends five players, 20 two, 30 and 40 three each.
RESULTS = [
    (1, 10, 4, 5), (2, 10, 3, 5), (3, 10, 3, 5), (4, 10, 1, 5), (5, 10, 1, 5),
    (6, 20, 5, 5), (7, 20, 2, 5),
    (8, 30, 3, 5), (9, 30, 3, 5), (10, 30, 2, 4), (11, 30, 0, 0),  # 11 never played: left out
    (12, 40, 4, 5), (13, 40, 4, 5), (14, 40, 2, 5),
    (15, None, 5, 5),  # no club: left out
]
PLAYERS = [PlayerInfo(p, club, number=p) for p, club, _, _ in RESULTS]
ROWS = [IndividualRow(played=played, won=won, lost=played - won, player=p) for p, _, won, played in RESULTS]


def table(clubs):
    return [(c.club, c.rank, c.players, c.percentage, c.complete) for c in clubs]


def test_pooled_over_the_clubs_players():
    # 20: 7/10 = 70%; 40: 10/15 = 66.67%; 30: 8/14 = 57.14%; 10: 12/25 = 48%.
    clubs = individual_club_standings(ROWS, PLAYERS)
    assert table(clubs) == [(20, 1, 2, 70.0, True), (40, 2, 3, 66.67, True), (30, 3, 3, 57.14, True),
                            (10, 4, 5, 48.0, True)]
    assert [(c.won, c.played) for c in clubs] == [(7, 10), (10, 15), (8, 14), (12, 25)]


def test_best_three_players_mean_with_smaller_delegations_after():
    # 10: (80 + 60 + 60) / 3 = 66.67%; 40: (80 + 80 + 40) / 3 = 66.67%, exactly equal: one rank.
    # 30: (60 + 60 + 50) / 3 = 56.67%. 20 has two players: after the clubs with three, whatever its 70%.
    clubs = individual_club_standings(ROWS, PLAYERS, best_n=3)
    assert table(clubs) == [(10, 1, 3, 66.67, True), (40, 1, 3, 66.67, True), (30, 3, 3, 56.67, True),
                            (20, 4, 2, 70.0, False)]
    assert (clubs[0].won, clubs[0].played) == (10, 15)  # the three counted players of club 10


def test_smaller_delegations_are_ranked_among_themselves_the_same_way():
    # Best 4: only club 10 has four players who played; 20 (70%), 40 (66.67%), 30 (56.67%) follow.
    clubs = individual_club_standings(ROWS, PLAYERS, best_n=4)
    # Club 10's best four: (80 + 60 + 60 + 20) / 4 = 55%.
    assert table(clubs) == [(10, 1, 4, 55.0, True), (20, 2, 2, 70.0, False), (40, 3, 3, 66.67, False),
                            (30, 4, 3, 56.67, False)]
    # Best 1: each club's best player; 20's 100% first, 10 and 40 equal on 80%, 30 on 60%.
    assert table(individual_club_standings(ROWS, PLAYERS, best_n=1)) == [
        (20, 1, 1, 100.0, True), (10, 2, 1, 80.0, True), (40, 2, 1, 80.0, True), (30, 4, 1, 60.0, True)]


def test_exact_ties_where_floats_differ():
    # 70% + 20% + 20% and 50% + 50% + 10% are both 11/30, but not in floats.
    assert (0.7 + 0.2 + 0.2) / 3 != (0.5 + 0.5 + 0.1) / 3
    rows = [IndividualRow(played=10, won=w, player=p) for p, w in ((1, 7), (2, 2), (3, 2), (4, 5), (5, 5), (6, 1))]
    players = [PlayerInfo(p, club=60 if p < 4 else 50, number=p) for p in range(1, 7)]
    for best_n in (None, 3):
        clubs = individual_club_standings(rows, players, best_n=best_n)
        assert table(clubs) == [(50, 1, 3, 36.67, True), (60, 1, 3, 36.67, True)]


def test_the_percentage_rounds_half_up_for_display_only():
    # 1/8 = 12.5% exactly; 1/16 = 6.25%; 1/32 = 3.125% -> 3.13 (half up, not to even); 2/3 -> 66.67.
    players = [PlayerInfo(p, club=p, number=p) for p in range(1, 5)]
    rows = [IndividualRow(played=played, won=won, player=p) for p, won, played in
            ((1, 1, 8), (2, 1, 16), (3, 1, 32), (4, 2, 3))]
    assert {c.club: c.percentage for c in individual_club_standings(rows, players)} == {
        1: 12.5, 2: 6.25, 3: 3.13, 4: 66.67}


def test_sit_outs_and_draws_from_the_standings():
    # Four players at one table and a fifth sitting out each round in turn, clubs 1 (1, 2, 5) and 2 (3, 4).
    players = [PlayerInfo(p, club=1 if p in (1, 2, 5) else 2, number=p) for p in range(1, 6)]
    matches = [IndividualMatch(1, 1, 1, (1, 2), (3, 4), "ns", 2, 0, 200, 100),
               IndividualMatch(2, 2, 1, (5, 1), (2, 3), "draw", 1, 1, 150, 150),
               IndividualMatch(3, 3, 1, (5, 2), (1, 4), "ew", 0, 2, 90, 210)]
    sit_outs = [SitOut(5, 1, 2, 2, 200), SitOut(4, 2, 2, 2, 200), SitOut(3, 3, 2, 2, 200)]
    rows = compute_individual_standings(players, matches, sit_outs, format="tables")
    # Club 1: 1 won 2 of 3, 2 won 1 of 3, 5 won 0 of 2 (its sit-out is no match, however scored):
    # 3 of 8. Club 2: 3 won 0 of 2 (one drawn), 4 won 1 of 2: 1 of 4.
    clubs = individual_club_standings(rows, players)
    assert [(c.club, c.won, c.played, c.percentage) for c in clubs] == [(1, 3, 8, 37.5), (2, 1, 4, 25.0)]
    # Best two: club 1 (2/3 + 1/3) / 2 = 50%, club 2 (1/2 + 0) / 2 = 25%.
    best = individual_club_standings(rows, players, best_n=2)
    assert [(c.club, c.players, c.percentage) for c in best] == [(1, 2, 50.0), (2, 2, 25.0)]


@pytest.mark.parametrize("best_n", [0, -1, 2.5])
def test_a_best_n_that_is_not_a_positive_count_is_refused(best_n):
    with pytest.raises(StandingsRefused) as refused:
        individual_club_standings(ROWS, PLAYERS, best_n=best_n)
    assert refused.value.code == "invalid_best_n"

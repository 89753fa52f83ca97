"""Standings of individual events on worked examples computed by hand (issue 26, "Standings").

No database: the pure ``tournaments.ranking.individual`` over plain values.
"""

import pytest

from tournaments.ranking import METRICS, MatchRecord, PointsSettings, StandingsRefused, TeamInfo, compute_standings
from tournaments.ranking.individual import (
    IndividualMatch,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_metrics,
    sit_out_score,
    table_winners,
)

# A `tables` cycle for 8 players at two tables, players 1-4 at table 1 (1 the seated scorer), 5-8 at
# table 2: round 1 A+B v C+D, round 2 A+C v B+D, round 3 A+D v B+C.
CYCLE = [
    IndividualMatch(11, 1, 1, (1, 2), (3, 4), "ns", 2, 1, 250, 180),
    IndividualMatch(12, 2, 1, (1, 3), (2, 4), "ew", 0, 2, 120, 210),
    IndividualMatch(13, 3, 1, (1, 4), (2, 3), "draw", 1, 1, 160, 160),
    IndividualMatch(21, 1, 2, (5, 6), (7, 8), "ew", 1, 2, 200, 240),
    IndividualMatch(22, 2, 2, (5, 7), (6, 8), "ns", 2, 0, 230, 150),
    IndividualMatch(23, 3, 2, (5, 8), (6, 7), "ew", 1, 3, 170, 200),
]
PLAYERS = [PlayerInfo(p, club=None, number=p) for p in range(1, 9)]

# By hand, each player's side in each round (played, won, drawn, lost, match points, games won,
# games lost, points for, points against):
BY_HAND = {
    1: (3, 1, 1, 1, 3, 2 + 0 + 1, 1 + 2 + 1, 250 + 120 + 160, 180 + 210 + 160),
    2: (3, 2, 1, 0, 5, 2 + 2 + 1, 1 + 0 + 1, 250 + 210 + 160, 180 + 120 + 160),
    3: (3, 0, 1, 2, 1, 1 + 0 + 1, 2 + 2 + 1, 180 + 120 + 160, 250 + 210 + 160),
    4: (3, 1, 1, 1, 3, 1 + 2 + 1, 2 + 0 + 1, 180 + 210 + 160, 250 + 120 + 160),
    5: (3, 1, 0, 2, 2, 1 + 2 + 1, 2 + 0 + 3, 200 + 230 + 170, 240 + 150 + 200),
    6: (3, 1, 0, 2, 2, 1 + 0 + 3, 2 + 2 + 1, 200 + 150 + 200, 240 + 230 + 170),
    7: (3, 3, 0, 0, 6, 2 + 2 + 3, 1 + 0 + 1, 240 + 230 + 200, 200 + 150 + 170),
    8: (3, 1, 0, 2, 2, 2 + 0 + 1, 1 + 2 + 3, 240 + 150 + 170, 200 + 230 + 200),
}


def numbers(row):
    return (row.played, row.won, row.drawn, row.lost, row.match_points, row.games_won, row.games_lost,
            row.points_for, row.points_against)


def test_a_tables_cycle_by_hand():
    rows = compute_individual_standings(PLAYERS, CYCLE, format="tables")
    assert {r.player: numbers(r) for r in rows} == BY_HAND
    # Points for: 7 670, 2 620, 5 600, 8 560, then 4 and 6 on 550 with 4 games won each, 1 530, 3 460.
    # 4 and 6 are split by the individual-doubles Buchholz: over a whole cycle at a table of four each
    # other player is a partner once and an opponent twice, so it is the table's total points for
    # (2 x the game points played there) minus the player's own: 4: 2160 - 550; 6: 2380 - 550.
    assert [r.player for r in rows] == [7, 2, 5, 8, 6, 4, 1, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r.position for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    six, four = rows[4], rows[5]
    assert six.tiebreaks == {"points_for": 550, "games_won": 4, "opponents_minus_partner": 2380 - 550}
    assert four.tiebreaks == {"points_for": 550, "games_won": 4, "opponents_minus_partner": 2160 - 550}
    assert all(r.sit_outs == 0 and r.byes == 0 for r in rows)


def test_the_buchholz_variant_match_by_match():
    # Player 4: round 1 partner 3, opponents 1 and 2; round 2 partner 2, opponents 1 and 3;
    # round 3 partner 1, opponents 2 and 3 (points for: 1 530, 2 620, 3 460).
    rows = {r.player: r for r in compute_individual_standings(PLAYERS, CYCLE, format="tables")}
    by_hand = (530 + 620 - 460) + (530 + 460 - 620) + (620 + 460 - 530)
    assert by_hand == 1610
    assert rows[4].tiebreaks["opponents_minus_partner"] == by_hand


def test_swiss_order_is_match_points_then_the_tiebreaks():
    rows = compute_individual_standings(PLAYERS, CYCLE, format="swiss")
    # Match points 7 6, 2 5, then 1 and 4 on 3 (Buchholz 1630 and 1610), then 5, 6 and 8 on 2
    # (Buchholz 1780, 1830, 1820), 3 on 1.
    assert [(r.player, r.match_points) for r in rows] == [(7, 6), (2, 5), (1, 3), (4, 3), (6, 2), (8, 2), (5, 2),
                                                          (3, 1)]
    assert list(rows[0].tiebreaks) == ["match_points", "opponents_minus_partner", "points_for", "games_won"]


def test_the_tournaments_tiebreak_list_follows_the_formats_keys():
    assert individual_metrics("tables") == ["points_for", "games_won", "opponents_minus_partner"]
    assert individual_metrics("swiss") == ["match_points", "opponents_minus_partner", "points_for", "games_won"]
    # A name already among the format's keys is not repeated.
    assert individual_metrics("tables", ["games_won", "matches_won", "points_for"]) == [
        "points_for", "games_won", "matches_won"]
    rows = compute_individual_standings(PLAYERS, CYCLE, format="tables", metrics=["points_against"])
    # 4 and 6 tied on points for and games won: 4 conceded 530, 6 conceded 640.
    assert [r.player for r in rows][4:6] == [4, 6]


# Five players, one sitting out each round, scored by the round's mean (issue 26's house rule).
R1 = [IndividualMatch(1, 1, 1, (1, 2), (3, 4), "ns", 2, 0, 200, 120)]
R2 = [IndividualMatch(2, 2, 1, (5, 1), (2, 3), "ew", 1, 2, 150, 171)]
FIVE = [PlayerInfo(p, club=100 + p % 2, number=p) for p in range(1, 6)]


def five_sit_outs():
    return [SitOut(5, 1, *sit_out_score("mean", R1)), SitOut(4, 2, *sit_out_score("mean", R2))]


def test_sit_outs_scored_by_the_rounds_mean():
    # Round 1: match points (2+2+0+0)/4 = 1, games (2+2+0+0)/4 = 1, points (200+200+120+120)/4 = 160.
    # Round 2: match points 1, games (1+1+2+2)/4 = 1.5 -> 2, points (150+150+171+171)/4 = 160.5 -> 161.
    assert five_sit_outs() == [SitOut(5, 1, 1, 1, 160), SitOut(4, 2, 1, 2, 161)]


def test_a_sit_out_counts_its_score_but_is_no_match_and_has_no_partner_nor_opponent():
    rows = {r.player: r for r in compute_individual_standings(FIVE, R1 + R2, five_sit_outs(), format="swiss")}
    # (played, won, drawn, lost, match points, games won, games lost, points for, points against)
    assert {p: numbers(r) for p, r in rows.items()} == {
        1: (2, 1, 0, 1, 2, 3, 2, 350, 291),
        2: (2, 2, 0, 0, 4, 4, 1, 371, 270),
        3: (2, 1, 0, 1, 2, 2, 3, 291, 350),
        4: (1, 0, 0, 1, 1, 0 + 2, 2, 120 + 161, 200),
        5: (1, 0, 0, 1, 1, 1 + 1, 2, 160 + 150, 171),
    }
    assert (rows[4].sit_outs, rows[5].sit_outs, rows[1].sit_outs) == (1, 1, 0)
    # Buchholz (points for: 1 350, 2 371, 3 291, 4 281, 5 310); a sit-out round adds nothing.
    assert {p: r.tiebreaks["opponents_minus_partner"] for p, r in rows.items()} == {
        1: (291 + 281 - 371) + (371 + 291 - 310),
        2: (291 + 281 - 350) + (310 + 350 - 291),
        3: (350 + 371 - 281) + (310 + 350 - 371),
        4: (350 + 371 - 291),
        5: (371 + 291 - 350),
    }
    # Swiss: 2 on 4 points; 3 (729) before 1 (553) on 2; 4 (430) before 5 (312) on 1.
    order = compute_individual_standings(FIVE, R1 + R2, five_sit_outs(), format="swiss")
    assert [(r.player, r.rank) for r in order] == [(2, 1), (3, 2), (1, 3), (4, 4), (5, 5)]
    order = compute_individual_standings(FIVE, R1 + R2, five_sit_outs(), format="tables")
    assert [r.player for r in order] == [2, 1, 5, 3, 4]


def test_rules_nothing_and_fixed_for_the_same_sit_outs():
    nothing = [SitOut(5, 1, *sit_out_score("nothing", R1)), SitOut(4, 2, *sit_out_score("nothing", R2))]
    rows = {r.player: r for r in compute_individual_standings(FIVE, R1 + R2, nothing, format="tables")}
    assert numbers(rows[5]) == (1, 0, 0, 1, 0, 1, 2, 150, 171)
    assert rows[5].sit_outs == 1
    fixed = [SitOut(5, 1, *sit_out_score("fixed", R1, fixed=(1, 1, 101)))]
    rows = {r.player: r for r in compute_individual_standings(FIVE, R1, fixed, format="tables")}
    assert numbers(rows[5]) == (0, 0, 0, 0, 1, 1, 0, 101, 0)


def test_equal_on_every_metric_share_a_rank_in_start_number_order():
    players = [PlayerInfo(1, number=40), PlayerInfo(2, number=30), PlayerInfo(3, number=20), PlayerInfo(4, number=10)]
    drawn = [IndividualMatch(7, 1, 1, (1, 2), (3, 4), "draw", 1, 1, 160, 160)]
    for format in ("tables", "swiss"):
        rows = compute_individual_standings(players, drawn, format=format)
        assert [(r.player, r.rank, r.position) for r in rows] == [(4, 1, 1), (3, 1, 2), (2, 1, 3), (1, 1, 4)]
    # Two equal, two not: 1 and 2 share the second rank, 2 first by its start number.
    won = [IndividualMatch(7, 1, 1, (1, 2), (3, 4), "ns", 2, 0, 200, 100)]
    rows = compute_individual_standings(players + [PlayerInfo(5, number=1), PlayerInfo(6, number=2),
                                                   PlayerInfo(7, number=3), PlayerInfo(8, number=4)],
                                        won + [IndividualMatch(8, 1, 2, (5, 6), (7, 8), "ns", 2, 0, 210, 90)],
                                        format="tables")
    assert [(r.player, r.rank) for r in rows] == [(5, 1), (6, 1), (2, 3), (1, 3), (4, 5), (3, 5), (7, 7), (8, 7)]


def test_equal_start_numbers_fall_back_on_the_id():
    players = [PlayerInfo(p) for p in (4, 3, 2, 1)]
    drawn = [IndividualMatch(7, 1, 1, (1, 2), (3, 4), "draw", 1, 1, 160, 160)]
    assert [r.player for r in compute_individual_standings(players, drawn, format="tables")] == [1, 2, 3, 4]


def test_unfinished_matches_are_ignored():
    playing = CYCLE[:5] + [IndividualMatch(23, 3, 2, (5, 8), (6, 7), "", 1, 0, 40, 12)]
    rows = {r.player: r for r in compute_individual_standings(PLAYERS, playing, format="tables")}
    assert rows[5].played == 2 and rows[5].points_for == 200 + 230
    assert rows[1].played == 3


def test_team_only_metrics_are_refused_with_a_code():
    for name in ("buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger", "direct_encounter"):
        with pytest.raises(StandingsRefused) as refused:
            compute_individual_standings(PLAYERS, CYCLE, format="tables", metrics=["matches_won", name])
        assert refused.value.code == "team_only_metrics"
        assert refused.value.params["metrics"] == [name]
        assert "opponents_minus_partner" in refused.value.params["known"]
        assert name not in refused.value.params["known"]
        assert isinstance(refused.value, ValueError)
    with pytest.raises(StandingsRefused, match="unknown standings metrics") as refused:
        compute_individual_standings(PLAYERS, CYCLE, format="tables", metrics=["elo"])
    assert refused.value.code == "unknown_metrics" and refused.value.params["unknown"] == ["elo"]
    # Every other metric works for players.
    usable = [n for n, m in METRICS.items() if "individual" in m.entries]
    assert set(usable) == set(METRICS) - {"buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger",
                                          "direct_encounter"}
    assert len(compute_individual_standings(PLAYERS, CYCLE, format="swiss", metrics=usable)) == 8


def test_the_individual_buchholz_works_for_teams_as_the_opponents_points_for():
    records = [MatchRecord(1, 1, 2, "W", 2, 2, 0, 200, 100), MatchRecord(1, 2, 1, "L", 0, 0, 2, 100, 200),
               MatchRecord(2, 1, 3, "L", 0, 1, 2, 150, 160), MatchRecord(2, 3, 1, "W", 2, 2, 1, 160, 150)]
    rows = compute_standings([TeamInfo(t) for t in (1, 2, 3)], records, metrics=["opponents_minus_partner"])
    assert {r.team: r.tiebreaks["opponents_minus_partner"] for r in rows} == {1: 100 + 160, 2: 350, 3: 350}


@pytest.mark.parametrize(("players", "matches", "sit_outs", "code"), [
    (PLAYERS + [PlayerInfo(1, number=9)], CYCLE, [], "player_listed_twice"),
    (PLAYERS[:7], CYCLE, [], "unknown_player"),
    (PLAYERS, CYCLE, [SitOut(9, 4)], "unknown_player"),
    (PLAYERS, CYCLE + [IndividualMatch(31, 4, 1, (1, 2), (2, 3), "ns")], [], "player_twice_in_match"),
    (PLAYERS, CYCLE + [IndividualMatch(31, 3, 3, (1, 5), (6, 7), "ns")], [], "player_twice_in_round"),
    (PLAYERS, CYCLE, [SitOut(1, 3)], "player_twice_in_round"),
    (PLAYERS, CYCLE + [IndividualMatch(31, 4, 1, (1, 2), (3, 4), "NS")], [], "unknown_winner"),
])
def test_bad_input_is_refused_with_a_code(players, matches, sit_outs, code):
    with pytest.raises(StandingsRefused) as refused:
        compute_individual_standings(players, matches, sit_outs, format="tables")
    assert refused.value.code == code


def test_an_unknown_format_is_refused():
    with pytest.raises(StandingsRefused) as refused:
        compute_individual_standings(PLAYERS, CYCLE, format="round_robin")
    assert refused.value.code == "unknown_format" and refused.value.params["known"] == ["swiss", "tables"]


def test_table_winners_of_a_cycle():
    rows = compute_individual_standings(PLAYERS, CYCLE, format="tables")
    assert table_winners(PLAYERS, CYCLE, rows, cycle_rounds=[1, 2, 3]) == [2, 7]
    # A second cycle: 5-8 at table 1, 1-4 at table 2 in round 4; the winners are the first by the
    # stage's order among the players seated at each table in that cycle.
    second = CYCLE + [IndividualMatch(41, 4, 1, (5, 6), (7, 8), "ns", 2, 0, 200, 0),
                      IndividualMatch(42, 4, 2, (1, 2), (3, 4), "ew", 0, 2, 0, 200)]
    # Match points after round 4: 7 6 at table 1; 2 and 4 5 at table 2, where 2's Buchholz (points
    # for 1 530, 2 620, 3 660, 4 750) is 880 + 440 + 620 + 880 = 2820 and 4's 490 + 570 + 750 + 490.
    rows = compute_individual_standings(PLAYERS, second, format="swiss")
    assert {r.player: r.tiebreaks["opponents_minus_partner"] for r in rows if r.player in (2, 4)} == {2: 2820, 4: 2300}
    assert table_winners(PLAYERS, second, rows, cycle_rounds=[4]) == [7, 2]
    assert table_winners(PLAYERS, second, rows, cycle_rounds=[1, 2, 3]) == [2, 7]


def test_table_winners_tied_on_everything_go_by_start_number():
    players = [PlayerInfo(1, number=40), PlayerInfo(2, number=30), PlayerInfo(3, number=20), PlayerInfo(4, number=10)]
    drawn = [IndividualMatch(7, r, 5, (1, p), tuple(q for q in (2, 3, 4) if q != p), "draw", 1, 1, 160, 160)
             for r, p in ((1, 2), (2, 3), (3, 4))]
    rows = compute_individual_standings(players, drawn, format="tables")
    assert {r.rank for r in rows} == {1}
    assert table_winners(players, drawn, rows, cycle_rounds=(1, 2, 3)) == [4]


def test_sit_out_mean_rounds_half_up_in_integers():
    s = PointsSettings(points_win=3, points_draw=1, points_bye=3)
    won_won = [IndividualMatch(1, 6, 1, (1, 2), (3, 4), "ns", 2, 1, 250, 180),
               IndividualMatch(2, 6, 2, (5, 6), (7, 8), "ew", 1, 2, 160, 160)]
    # Match points (3+3+0+0)x2/8 = 1.5 -> 2; games (3+3)x2/8 = 1.5 -> 2; points (430+320)x2/8 = 187.5 -> 188.
    assert sit_out_score("mean", won_won, settings=s) == (2, 2, 188)
    won_drawn = [won_won[0], IndividualMatch(2, 6, 2, (5, 6), (7, 8), "draw", 1, 1, 161, 161)]
    # Match points (3+3+0+0+1+1+1+1)/8 = 1.25 -> 1; games 10/8 = 1.25 -> 1; points 1504/8 = 188.
    assert sit_out_score("mean", won_drawn, settings=s) == (1, 1, 188)
    # With 2/1 points a round's mean of match points is always 1 (two a match a player).
    assert sit_out_score("mean", won_won)[0] == 1
    # Just below and above one half: 641/4 = 160.25 -> 160, 643/4 = 160.75 -> 161.
    below = [IndividualMatch(1, 1, 1, (1, 2), (3, 4), "ns", 1, 0, 200, 120),
             IndividualMatch(2, 1, 2, (5, 6), (7, 8), "ns", 1, 0, 200, 121)]
    above = [IndividualMatch(1, 1, 1, (1, 2), (3, 4), "ns", 1, 0, 200, 121),
             IndividualMatch(2, 1, 2, (5, 6), (7, 8), "ns", 1, 0, 201, 121)]
    assert sit_out_score("mean", below)[2] == 160
    assert sit_out_score("mean", above)[2] == 161


def test_sit_out_mean_ignores_unfinished_matches_and_is_nothing_before_any_result():
    finished = IndividualMatch(1, 2, 1, (1, 2), (3, 4), "ns", 2, 0, 200, 120)
    playing = IndividualMatch(2, 2, 2, (5, 6), (7, 8), "", 1, 0, 99, 0)
    assert sit_out_score("mean", [finished, playing]) == sit_out_score("mean", [finished]) == (1, 1, 160)
    assert sit_out_score("mean", [playing]) == (0, 0, 0)
    assert sit_out_score("mean", []) == (0, 0, 0)


def test_sit_out_rules_nothing_and_fixed_and_refusals():
    assert sit_out_score("nothing", R1) == (0, 0, 0)
    assert sit_out_score("fixed", R1, fixed=(1, 0, 80)) == (1, 0, 80)
    for rule, kwargs, code in (("fixed", {}, "sit_out_fixed_score_missing"), ("average", {}, "unknown_sit_out_rule")):
        with pytest.raises(StandingsRefused) as refused:
            sit_out_score(rule, R1, **kwargs)
        assert refused.value.code == code
    with pytest.raises(StandingsRefused) as refused:
        sit_out_score("mean", R1 + R2)
    assert refused.value.code == "sit_out_mixed_rounds"

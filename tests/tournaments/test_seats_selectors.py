"""The reads of an individual event's pages: a round's seating, "where do I sit" with partners and opponents, a
table's cycle for its score sheet, the players' standings, the entered players; each in a fixed number of queries."""

import pytest

from tests.individual import draw_round, make_individual, play_hands
from tournaments.models import Entry, Match, Player, Round, RoundSeat
from tournaments.selectors.players import entered_player, entered_players
from tournaments.selectors.seats import (
    cycle_numbers,
    cycle_round,
    cycle_tables,
    round_seating,
    seat_find,
    seat_lookup,
)
from tournaments.selectors.standings import player_standing, player_standings_for, standings_for
from tournaments.selectors.tables import round_matches
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def names(rows) -> list[str]:
    return [r.player.name for r in rows]


def test_a_rounds_seating_gives_each_table_its_four_seats_the_sit_outs_and_everyone_alphabetically(
        django_assert_num_queries):
    tournament = make_individual(22)
    rnd = Round.objects.get(tournament=tournament, number=1)
    with django_assert_num_queries(2):
        seating = round_seating(rnd)
    assert len(seating["rows"]) == 22
    assert names(seating["rows"]) == sorted(names(seating["rows"]), key=str.casefold)
    assert len(seating["tables"]) == 5 and all(set(t) == set("NESW") for t in seating["tables"].values())
    first = Match.objects.get(round=rnd, table=1)
    assert [seating["tables"][first.pk][s].player.name for s in "NSEW"] == [
        "An Peeters", "Jan Claes", "Piet Janssens", "Marie Maes"]
    assert names(seating["sitting_out"]) == ["Tom Peeters", "Veerle Claes"]
    assert all(r.table is None and r.seat == "" for r in seating["sitting_out"])


def test_where_do_i_sit_names_the_table_seat_partner_and_opponents():
    tournament = make_individual(22)
    rnd = Round.objects.get(tournament=tournament, number=1)
    found = seat_lookup(rnd, "pee an")
    assert found["count"] == 1 and not found["more"]
    answer = found["answers"][0]
    assert (answer.row.player.name, answer.row.table, answer.row.seat, answer.row.number) == ("An Peeters", 1, "N", 1)
    assert answer.partner.player.name == "Jan Claes" and answer.partner.seat == "S"
    assert [(o.player.name, o.seat) for o in answer.opponents] == [("Piet Janssens", "E"), ("Marie Maes", "W")]
    east = seat_lookup(rnd, "piet")["answers"][0]
    assert east.partner.player.name == "Marie Maes" and names(east.opponents) == ["An Peeters", "Jan Claes"]


def test_where_do_i_sit_finds_a_start_number_a_name_without_its_accents_or_apostrophe_and_a_player_sitting_out():
    tournament = make_individual(25, clubless=0)
    rnd = Round.objects.get(tournament=tournament, number=1)
    assert names(a.row for a in seat_lookup(rnd, "3")["answers"]) == ["Piet Janssens"]
    eva = Player.objects.get(name__startswith="Éva")
    assert names(seat_find(rnd, "eva")) == [eva.name]
    hondt = Player.objects.create(name="Mona D'Hondt", club=None)
    Entry.objects.create(tournament=tournament, player=hondt, start_number=99)
    RoundSeat.objects.create(round=rnd, player=hondt, match=None, seat="")
    for query in ("mona hondt", "d'hondt mo", "dhon mon", "MONA D"):
        assert names(seat_find(rnd, query)) == ["Mona D'Hondt"], query
    out = seat_lookup(rnd, "mona")["answers"][0]
    assert out.row.table is None and out.partner is None and out.opponents == ()


def test_where_do_i_sit_says_how_many_matched_beyond_its_limit_and_nothing_for_an_empty_query():
    tournament = make_individual(60)
    rnd = Round.objects.get(tournament=tournament, number=1)
    found = seat_lookup(rnd, "e", limit=3)  # every "Els" and "Éva"
    assert len(found["answers"]) == 3 and found["more"] and found["count"] == 5
    assert seat_lookup(rnd, "   ") == {"answers": [], "count": 0, "more": False}
    assert seat_lookup(rnd, "zzz")["count"] == 0


def test_where_do_i_sit_reads_the_round_in_two_queries_whatever_its_size(django_assert_num_queries):
    tournament = make_individual(200)
    rnd = Round.objects.get(tournament=tournament, number=1)
    with django_assert_num_queries(2):
        found = seat_lookup(rnd, "an")
    assert found["count"] > 1


@pytest.mark.parametrize(("number", "position", "cycle"), [(1, 1, [1, 2, 3]), (2, 2, [1, 2, 3]), (3, 3, [1, 2, 3]),
                                                           (4, 1, [4, 5, 6]), (6, 3, [4, 5, 6])])
def test_a_tables_cycle_is_three_rounds(number, position, cycle):
    tournament = make_individual(8, rounds=6, drawn=0)
    assert cycle_round(tournament, number) == position
    assert cycle_numbers(tournament, number) == cycle


def test_a_cycle_stops_at_the_events_last_round_and_a_swiss_event_has_none():
    assert cycle_numbers(make_individual(8, rounds=2, drawn=0, slug="two"), 1) == [1, 2]
    swiss = make_individual(8, rounds=5, drawn=0, slug="swiss", format="swiss")
    assert cycle_numbers(swiss, 2) == [2] and cycle_round(swiss, 2) == 1


def test_a_later_stages_cycle_starts_at_its_round_1_and_stops_at_its_own_last_round():
    from tournaments.models import Stage

    tournament = make_individual(8, rounds=6, drawn=0, slug="stages")
    semi = Stage.objects.create(tournament=tournament, number=2, format="tables", rounds=2)
    final = Stage.objects.create(tournament=tournament, number=3, format="swiss", rounds=3)
    assert cycle_numbers(tournament, 1, semi) == [1, 2] and cycle_round(tournament, 2, semi) == 2
    assert cycle_numbers(tournament, 2, final) == [2] and cycle_round(tournament, 2, final) == 1
    first = tournament.stages.get(number=1)
    assert cycle_numbers(tournament, 4, first) == [4, 5, 6]  # stage 1's are the event's


def test_a_later_stages_tables_read_its_own_rounds_in_two_queries(django_assert_num_queries):
    from tests.individual import seat_stage_round
    from tournaments.models import Stage

    tournament = make_individual(16, drawn=3, slug="championship")  # stage 1's rounds 1-3, its whole cycle
    Stage.objects.filter(tournament=tournament, number=1).update(status="closed")
    semi = Stage.objects.create(tournament=tournament, number=2, format="tables", rounds=3, status="running")
    seat_stage_round(tournament, semi, 1, [9, 10, 11, 12, 13, 14, 15, 16])
    rnd = Round.objects.get(stage=semi, number=1)  # read without its stage
    with django_assert_num_queries(2):
        tables = cycle_tables(rnd, tournament)
    assert [t.table for t in tables] == [1, 2]
    assert [r.player.pk for r in tables[0].players] == list(
        Entry.objects.filter(tournament=tournament, start_number__in=[9, 10, 11, 12])
        .order_by("start_number").values_list("player_id", flat=True))
    assert [(r.number, r.drawn, r.table_code) for r in tables[0].rounds] == [(1, True, "S2R1T1"), (2, False, ""),
                                                                             (3, False, "")]
    assert [r.drawn for r in cycle_tables(Round.objects.get(stage__number=1, tournament=tournament, number=2))[0].rounds
            ] == [True, True, True]


def seats_of(cycle_round_) -> dict:
    return {seat: row.player.name for seat, row in cycle_round_.seats.items()}


def test_a_tables_sheet_before_the_cycles_later_rounds_are_drawn_follows_the_rotation(django_assert_num_queries):
    tournament = make_individual(8)
    rnd = Round.objects.get(tournament=tournament, number=1)
    with django_assert_num_queries(2):
        tables = cycle_tables(rnd, tournament)
    assert [t.table for t in tables] == [1, 2]
    table = tables[0]
    assert names(table.players) == ["An Peeters", "Jan Claes", "Piet Janssens", "Marie Maes"]  # A, B, C, D
    first, second, third = table.rounds
    assert (first.number, first.drawn, first.table_code) == (1, True, "T1001")
    assert seats_of(first) == {"N": "An Peeters", "S": "Jan Claes", "E": "Piet Janssens", "W": "Marie Maes"}
    assert (second.drawn, second.table_code, third.drawn) == (False, "", False)
    assert seats_of(second) == {"N": "An Peeters", "S": "Piet Janssens", "E": "Jan Claes", "W": "Marie Maes"}
    assert seats_of(third) == {"N": "An Peeters", "S": "Marie Maes", "E": "Jan Claes", "W": "Piet Janssens"}


def test_a_tables_sheet_reads_the_rounds_drawn_and_a_reserve_who_took_a_seat():
    tournament = make_individual(8)
    second = draw_round(tournament, 2)
    reserve = Player.objects.create(name="Zoë Reserve")
    # Jan Claes (B) leaves after round 2 in this test's story: the reserve sits in his seat of the table's round 2.
    seat = RoundSeat.objects.get(round=second, player__name="Jan Claes")
    seat.player = reserve
    seat.save()
    tables = cycle_tables(second)
    table = tables[0]
    assert table.match_id == Match.objects.get(round=second, table=1).pk
    assert names(table.players) == ["An Peeters", "Zoë Reserve", "Piet Janssens", "Marie Maes"]
    assert [r.drawn for r in table.rounds] == [True, True, False]
    assert seats_of(table.rounds[0])["S"] == "Jan Claes"  # round 1 as it was played
    assert seats_of(table.rounds[1]) == {"N": "An Peeters", "S": "Piet Janssens", "E": "Zoë Reserve",
                                         "W": "Marie Maes"}
    assert seats_of(table.rounds[2]) == {"N": "An Peeters", "S": "Marie Maes", "E": "Zoë Reserve",
                                         "W": "Piet Janssens"}
    assert table.rounds[1].table_code == "T2001"


def test_a_rounds_matches_come_with_their_games_in_two_queries(django_assert_num_queries):
    tournament = make_individual(8, minutes=None)
    rnd = Round.objects.get(tournament=tournament, number=1)
    play_hands(Match.objects.get(round=rnd, table=2), 2)
    with django_assert_num_queries(2):
        matches = round_matches(rnd)
        games = [list(m.games.all()) for m in matches]
    assert [m.table for m in matches] == [1, 2] and [len(g) for g in games] == [0, 1]


def test_an_individual_events_standings_are_players_rows_with_their_clubs_and_numbers(django_assert_num_queries):
    tournament = make_individual(8, minutes=None, clubless=1)
    rnd = Round.objects.get(tournament=tournament, number=1)
    for match in Match.objects.filter(round=rnd):
        for _ in range(12):
            match.refresh_from_db()
            if match.status == Match.Status.FINISHED:
                break
            play_hands(match, 1, ns=60)
    standings_recompute(tournament=tournament)
    with django_assert_num_queries(4):
        data = player_standings_for(tournament)
    assert {k: v for k, v in data.items() if k != "metrics"} == standings_for(tournament)
    assert len(data["rows"]) == 8 and "team" not in data["rows"][0]
    assert data["metrics"] == ["points_for", "games_won", "opponents_minus_partner"]
    top = data["rows"][0]
    assert top["rank"] == 1 and top["won"] == 1 and top["player_detail"]["club"]["name"]
    assert list(top["tiebreaks"]) == ["points_for", "games_won", "opponents_minus_partner"]
    clubless = next(r for r in data["rows"] if r["player_detail"]["name"] == "Wout Goossens")
    assert clubless["player_detail"]["club"] is None and clubless["start_number"] == 8
    assert {c["club_name"] for c in data["clubs"]} == {"De Zwarte Kat", "Café Sportwereld", "De Klaverboer"}
    one = player_standing(tournament, top["player"])
    assert one["rank"] == 1 and one["player_detail"] == top["player_detail"]
    assert player_standing(tournament, 10**9) is None


def test_the_entered_players_in_start_number_order():
    tournament = make_individual(6, drawn=0)
    entries = entered_players(tournament)
    assert [e.start_number for e in entries] == [1, 2, 3, 4, 5, 6]
    assert entered_player(tournament, entries[0].player_id).player.name == "An Peeters"
    assert entered_player(tournament, 10**9) is None


def test_a_sheets_rounds_not_drawn_yet_are_the_seats_the_draw_then_makes():
    """The sheet printed at a cycle's first round tells rounds 2 and 3 by the rotation: the real draw agrees."""
    from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
    from tournaments.services.draws import entry_add_player
    from tournaments.services.rounds import round_pair

    tournament = TournamentFactory(variant="belgian-manille", entry="individual", format="tables", rounds=3)
    club = ClubFactory()
    for _ in range(13):
        entry_add_player(tournament=tournament, player=PlayerFactory(club=club))
    first = round_pair(tournament=tournament)
    predicted = {t.table: [seats_of(r) for r in t.rounds] for t in cycle_tables(first)}
    assert len(predicted) == 3 and all(len(rounds) == 3 for rounds in predicted.values())
    for number in (2, 3):
        Match.objects.filter(round__tournament=tournament).update(status=Match.Status.FINISHED, winner="ns")
        rnd = round_pair(tournament=tournament)
        assert rnd.number == number
        drawn = {t.table: seats_of(t.rounds[number - 1]) for t in cycle_tables(rnd)}
        assert drawn == {table: rounds[number - 1] for table, rounds in predicted.items()}

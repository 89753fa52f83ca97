"""The draw of individual events through the services: rounds drawn by ``round_pair``, the seats saved, every draw
kept and made again from its inputs, redraws, withdrawals mid-cycle, ids that change nothing."""

from collections import Counter
from unittest import mock

import pytest
from django.core.management import call_command

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Entry, Match, Round, RoundDraw, RoundSeat
from tournaments.services.draws import (
    draw_inputs, entry_add_player, kept_apart_add, round_draw_check, round_redraw,
)
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import entry_withdraw, round_pair

pytestmark = pytest.mark.django_db


def event(players=21, fmt="tables", **fields):
    clubs = [ClubFactory() for _ in range(4)]
    tournament = TournamentFactory(variant="belgian-manille", entry="individual", format=fmt, rounds=6, **fields)
    people = [PlayerFactory(club=clubs[i % 4] if i % 7 else None) for i in range(players)]
    for p in people:
        entry_add_player(tournament=tournament, player=p)
    return tournament, people


def finish(rnd):
    """Mark every match of the round played (the draw only needs the round to be over)."""
    Match.objects.filter(round=rnd).update(status=Match.Status.FINISHED, winner="ns", games_won_ns=2)


def tables_of(rnd) -> dict[int, dict[str, int]]:
    found: dict[int, dict[str, int]] = {}
    for seat in RoundSeat.objects.filter(round=rnd, match__isnull=False).select_related("match"):
        found.setdefault(seat.match.table, {})[seat.seat] = seat.player_id
    return found


def test_a_tables_cycle_seats_everyone_once_a_round_and_rotates_partners():
    tournament, people = event(21)
    rounds = []
    for _ in range(3):
        rnd = round_pair(tournament=tournament)
        rounds.append(rnd)
        seats = RoundSeat.objects.filter(round=rnd)
        assert seats.count() == 21
        assert seats.filter(match__isnull=True).count() == 1  # 21 = 5 tables of four and one sit-out
        assert Match.objects.filter(round=rnd, ns__isnull=True, ew__isnull=True).count() == 5
        assert all(len(m.table_code) == 6 for m in Match.objects.filter(round=rnd))
        finish(rnd)
    first = tables_of(rounds[0])
    partners = Counter()
    for rnd in rounds:
        tables = tables_of(rnd)
        assert {t: set(s.values()) for t, s in tables.items()} == {t: set(s.values()) for t, s in first.items()}
        assert all(tables[t]["N"] == first[t]["N"] for t in tables)  # the scorer stays seated
        for s in tables.values():
            partners[frozenset((s["N"], s["S"]))] += 1
            partners[frozenset((s["E"], s["W"]))] += 1
    assert set(partners.values()) == {1}  # each partners each of the other three once
    assert len(partners) == 5 * 6


def test_every_draw_is_kept_and_made_again_from_its_inputs():
    tournament, _ = event(12)
    rnd = round_pair(tournament=tournament)
    kept = RoundDraw.objects.get(round=rnd)
    assert kept.seed == rnd.seed and kept.inputs["seed"] == rnd.seed
    assert [p["number"] for p in kept.inputs["players"]] == list(range(1, 13))
    assert round_draw_check(rnd)["same"] is True
    round_redraw(round=rnd)
    rnd.refresh_from_db()
    assert RoundDraw.objects.filter(round=rnd).count() == 2 and rnd.seed != kept.seed
    assert round_draw_check(rnd)["same"] is True
    call_command("draw_check", tournament.slug, "1")


def test_a_redraw_is_refused_once_the_round_is_played():
    from tests.tournaments.test_individual_services import _boam

    tournament, _ = event(8)
    rnd = round_pair(tournament=tournament)
    _boam(Match.objects.filter(round=rnd).first(), 50)
    with pytest.raises(Conflict) as refused:
        round_redraw(round=rnd)
    assert refused.value.code == "round_started"


def test_renumbering_the_database_ids_changes_nothing():
    """Two events entered in opposite orders of creation, the same start numbers: the same inputs, the same draw."""
    from tournaments.pairing import individual

    clubs = [ClubFactory() for _ in range(3)]
    names = [f"Player {i}" for i in range(10)]
    made = []
    for order in (names, list(reversed(names))):
        tournament = TournamentFactory(variant="belgian-manille", entry="individual", format="tables")
        players = {n: PlayerFactory(name=n, club=clubs[int(n[-1]) % 3]) for n in order}
        for n in names:
            entry_add_player(tournament=tournament, player=players[n])
        made.append(draw_inputs(tournament, 1, "the-same-seed")[0])
    assert made[0].to_json() == made[1].to_json()
    assert individual.draw(made[0]).to_json() == individual.draw(made[1]).to_json()


def test_too_few_players_and_kept_apart_pairs():
    tournament, people = event(3)
    with pytest.raises(ServiceError) as refused:
        round_pair(tournament=tournament)
    assert refused.value.code == "too_few_players"
    assert not Round.objects.filter(tournament=tournament).exists()
    tournament, people = event(8)
    kept_apart_add(tournament=tournament, player_a=people[0], player_b=people[1])
    for _ in range(3):
        rnd = round_pair(tournament=tournament)
        for seats in tables_of(rnd).values():
            assert not {people[0].pk, people[1].pk} <= set(seats.values())
        finish(rnd)


def test_a_withdrawal_mid_cycle_leaves_the_table_out_under_the_sit_out_rule():
    tournament, people = event(8, withdrawal="sit_out")
    for _ in range(2):
        finish(round_pair(tournament=tournament))
    leaver = people[3]
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, player=leaver))
    rnd = round_pair(tournament=tournament)
    seats = RoundSeat.objects.filter(round=rnd)
    assert not seats.filter(player=leaver).exists()
    assert seats.filter(match__isnull=False).count() == 4 and seats.filter(match__isnull=True).count() == 3
    assert RoundDraw.objects.get(round=rnd).result["changes"]["left"] == [4]
    assert round_draw_check(rnd)["same"] is True


def test_a_reserve_takes_the_leavers_seat():
    tournament, people = event(8, withdrawal="reserve")
    reserve = PlayerFactory()
    entry_add_player(tournament=tournament, player=reserve, reserve=True)
    first = round_pair(tournament=tournament)
    assert not RoundSeat.objects.filter(round=first, player=reserve).exists()
    finish(first)
    where = RoundSeat.objects.get(round=first, player=people[2]).match.table
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, player=people[2]))
    second = round_pair(tournament=tournament)
    seat = RoundSeat.objects.select_related("match").get(round=second, player=reserve)
    assert seat.match.table == where
    assert RoundSeat.objects.filter(round=second, match__isnull=False).count() == 8
    assert RoundDraw.objects.get(round=second).inputs["reserves"] == [[3, 9]]
    finish(second)
    third = round_pair(tournament=tournament)  # the reserve keeps the seat, read from round 2 now
    assert RoundSeat.objects.select_related("match").get(round=third, player=reserve).match.table == where
    assert RoundDraw.objects.get(round=third).inputs["reserves"] == []
    assert round_draw_check(third)["same"] is True


def test_a_withdrawal_after_the_first_round_leaves_the_table_out_for_the_rest_of_the_cycle():
    tournament, people = event(8, withdrawal="sit_out")
    finish(round_pair(tournament=tournament))
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, player=people[0]))
    for _ in range(2):
        rnd = round_pair(tournament=tournament)
        assert Match.objects.filter(round=rnd).count() == 1
        assert RoundSeat.objects.filter(round=rnd, match__isnull=True).count() == 3
        finish(rnd)
    fourth = round_pair(tournament=tournament)  # a new cycle: seven players, one table, three sit out
    assert Match.objects.filter(round=fourth).count() == 1
    assert not RoundSeat.objects.filter(round=fourth, player=people[0]).exists()


def test_a_swiss_individual_event_never_repeats_a_partnership():
    tournament, people = event(22, fmt="swiss")
    partners = Counter()
    for _ in range(4):
        rnd = round_pair(tournament=tournament)
        finish(rnd)
        for s in tables_of(rnd).values():
            partners[frozenset((s["N"], s["S"]))] += 1
            partners[frozenset((s["E"], s["W"]))] += 1
        assert RoundSeat.objects.filter(round=rnd, match__isnull=True).count() == 2
    assert max(partners.values()) == 1


def test_the_draws_inputs_name_start_numbers_only():
    tournament, people = event(9)
    with mock.patch("tournaments.services.draws.secrets.token_hex", return_value="feedfacefeedface"):
        rnd = round_pair(tournament=tournament)
    kept = RoundDraw.objects.get(round=rnd).inputs
    assert kept["seed"] == "feedfacefeedface"
    ids = {p.pk for p in people} - set(range(1, 10))
    assert not any(str(i) in str(kept["players"]) for i in ids if i > 99)


@pytest.mark.parametrize("forfeited", [False, True])
def test_a_forfeited_table_is_no_meeting_for_the_next_swiss_draw(forfeited):
    """As the team Swiss (``rounds.swiss_states``, FIDE C.04): the players of a table whose match was forfeited met
    nobody there; the draw's kept inputs mark the table, and reverting the forfeit makes it a meeting again."""
    from tournaments.services.desk import desk_action_revert, desk_action_take

    tournament, people = event(4, fmt="swiss")
    first = round_pair(tournament=tournament)
    match = Match.objects.get(round=first)
    if forfeited:
        absent = RoundSeat.objects.get(match=match, seat="E").player_id
        action = desk_action_take(tournament=tournament, kind="forfeit", match=match, reason="never came",
                                  params={"players": [absent]}).action
    else:
        finish(first)
    second = round_pair(tournament=tournament)
    kept = RoundDraw.objects.get(round=second)
    assert [t.get("forfeit", False) for t in kept.inputs["history"][0]["tables"]] == [forfeited]
    # Four players: a new partnership repeats two opponent pairs of a played round 1, none of a forfeited one.
    assert kept.result["report"]["repeated_opponents"] == (0 if forfeited else 2)
    assert round_draw_check(second)["same"] is True
    if forfeited:
        desk_action_revert(action=action, reason="he was there after all")
        inputs, _ = draw_inputs(tournament, 2, "seed")
        assert inputs.history[0].tables[0].forfeit is False


@pytest.mark.parametrize("gone", ["forfeit", "withdrawal"])
def test_the_partner_of_a_player_absent_or_gone_counts_a_round_sat_out(gone):
    """A player's partner absent (a forfeit) or gone mid-match (a withdrawal) sat the round out there, scored as a
    sit-out: the draw's history says so (``sat_out``) and the next draw makes the three others sit out first."""
    from tests.web.conftest import enter_hands
    from tournaments.services.desk import desk_action_take

    tournament, people = event(5, fmt="swiss")
    first = round_pair(tournament=tournament)
    match = Match.objects.get(round=first)
    seats = dict(RoundSeat.objects.filter(match=match).values_list("seat", "player_id"))
    if gone == "withdrawal":
        enter_hands(match, 1)
        desk_action_take(tournament=tournament, kind="withdrawal", match=match, reason="felt ill",
                         params={"player": seats["E"]})
    else:
        desk_action_take(tournament=tournament, kind="forfeit", match=match, reason="never came",
                         params={"players": [seats["E"]]})
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    number = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "start_number"))
    out_first = RoundSeat.objects.get(round=first, match=None).player_id
    second = round_pair(tournament=tournament)
    kept = RoundDraw.objects.get(round=second)
    assert kept.inputs["history"][0]["tables"][0]["sat_out"] == [number[seats["W"]]]
    sat_twice = {out_first, seats["W"]}
    assert RoundSeat.objects.get(round=second, match=None).player_id not in sat_twice
    assert round_draw_check(second)["same"] is True

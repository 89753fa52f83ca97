"""An individual event's result entered from a phone without an account (the table's code): the phone that entered
it never confirms it; when players of one side of the match named themselves on that phone before (their personal
code), the phone is their side's and their partner cannot confirm either; a phone nobody of the match named
themselves on is tied to no side: either side confirms, from another phone (docs/confirmation.md)."""

import pytest

from tests.individual import make_individual
from tournaments.models import Match, RoundSeat, Tournament
from tournaments.services.confirmation import acting, personal_codes, result_confirm
from tournaments.services.errors import ServiceError
from tournaments.services.hands import hand_enter

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def hand(dealer, ns=50):
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": 4, "ew": 4}, "points": {"ns": ns, "ew": 60 - ns}}


def finish(match, device):
    """Play the match's one game to its end from the phone ``device`` (no account)."""
    with acting(device=device):
        for i in range(40):
            entered, _ = hand_enter(match=match, data=hand("NESW"[i % 4]))
            if entered.game_winner:
                break
    match.refresh_from_db()
    return match


@pytest.fixture
def event():
    tournament = make_individual(8, minutes=None, drawn=2)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", best_of=1)
    players = RoundSeat.objects.filter(round__tournament=tournament).values_list("player_id", flat=True)
    return tournament, personal_codes(tournament, set(players))


def seats(match) -> dict[str, int]:
    return dict(match.seats.values_list("seat", "player_id"))


def confirm(match, player, codes, device):
    with acting(device=device):
        return result_confirm(match_id=match.pk, player_id=player, code=codes[player], table_code=match.table_code)


def refused(match, player, codes, device) -> str:
    with pytest.raises(ServiceError) as caught:
        confirm(match, player, codes, device)
    return caught.value.code


def test_a_table_phone_nobody_named_themselves_on_is_tied_to_no_side(event):
    tournament, codes = event
    match = finish(Match.objects.get(round__tournament=tournament, round__number=1, table=1), "table-phone")
    at = seats(match)
    assert (match.result_status, match.result_side, match.result_device) == ("entered", "", "table-phone")
    # The phone that entered it, whoever holds it: never.
    for seat in "NESW":
        assert refused(match, at[seat], codes, "table-phone") == "result_own_entry"
    # Another phone: either side (here the side that sat at N and S, which may be the one that entered it).
    confirm(match, at["S"], codes, "phone-of-s")
    match.refresh_from_db()
    assert match.result_status == "confirmed"
    assert list(match.result_events.values_list("kind", "side", "device")) == [
        ("entered", "", "table-phone"), ("confirmed", "ns", "phone-of-s")]


def table_one(tournament, number) -> Match:
    return Match.objects.get(round__tournament=tournament, round__number=number, table=1)


def test_a_phone_a_player_named_themselves_on_is_their_sides(event):
    """Table 1's players A, B, C, D: round 1 A+B (NS) against C+D, round 2 A+C (NS) against B+D."""
    tournament, codes = event
    first = finish(table_one(tournament, 1), "table-phone")
    a, b, c, d = (seats(first)[s] for s in "NSEW")
    confirm(first, c, codes, "phone-of-c")  # C names themselves on their own phone
    second = finish(table_one(tournament, 2), "phone-of-c")  # which enters round 2 (the table's code, no account)
    assert seats(second) == {"N": a, "S": c, "E": b, "W": d}
    assert (second.result_status, second.result_side, second.result_user) == ("entered", "ns", None)
    assert refused(second, a, codes, "phone-of-a") == "result_own_side"  # C's partner, from another phone
    assert refused(second, c, codes, "another-phone") == "result_own_side"
    assert refused(second, b, codes, "phone-of-c") == "result_own_entry"  # the phone that entered it
    confirm(second, b, codes, "phone-of-b")
    second.refresh_from_db()
    assert second.result_status == "confirmed"
    assert second.result_events.first().side == "ns"  # the entered step says the side found


def test_a_phone_players_of_both_sides_named_themselves_on_is_tied_to_no_side():
    """Round 3 of table 1 seats A+D (NS) against B+C; D named themselves on the shared phone in round 1 and B in
    round 2: in round 3 that phone is of both sides, so of none."""
    tournament = make_individual(8, minutes=None, drawn=3)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", best_of=1)
    players = RoundSeat.objects.filter(round__tournament=tournament).values_list("player_id", flat=True)
    codes = personal_codes(tournament, set(players))
    first = finish(table_one(tournament, 1), "table-phone-1")
    a, b, c, d = (seats(first)[s] for s in "NSEW")
    confirm(first, d, codes, "shared-phone")
    second = finish(table_one(tournament, 2), "table-phone-2")
    assert second.result_side == ""
    confirm(second, b, codes, "shared-phone")
    third = finish(table_one(tournament, 3), "shared-phone")
    assert seats(third) == {"N": a, "S": d, "E": b, "W": c}
    assert (third.result_status, third.result_side) == ("entered", "")
    assert refused(third, a, codes, "shared-phone") == "result_own_entry"
    confirm(third, a, codes, "phone-of-a")  # no side known: either side, from another phone
    third.refresh_from_db()
    assert third.result_status == "confirmed"

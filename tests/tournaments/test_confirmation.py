"""Results confirmed by the opponents (tournaments/services/confirmation.py): who may confirm, dispute, settle and
change a result, what each step records, and what a tournament that waits for confirmation counts."""

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.factories import EntryFactory, MatchFactory, PlayerFactory, RoundFactory, TournamentFactory, UserFactory
from tests.individual import make_individual
from tournaments.models import Match, ResultEvent, Round, Standing, Tournament
from tournaments.services import confirmation
from tournaments.services.confirmation import (
    acting, personal_codes, result_confirm, result_confirm_on_paper, result_dispute, result_settle,
    results_auto_confirm, status_of,
)
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

# An empty cache: the wrong codes' windows.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def hand(dealer, ns=50):
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": 4, "ew": 4}, "points": {"ns": ns, "ew": 60 - ns}}


def finish(match, user=None, device="", ns=50):
    """Play the match's one game to its end (ns 50–10 a hand), as ``user`` or from the phone ``device``."""
    with acting(device=device, address="10.0.0.7"):
        for i in range(40):
            entered, _ = hand_enter(match=match, data=hand("NESW"[i % 4], ns), user=user)
            if entered.game_winner:
                break
    match.refresh_from_db()
    return match


def world(confirmation_mode="opponents", unconfirmed="count", **extra):
    tournament = TournamentFactory(best_of=1, confirmation=confirmation_mode, unconfirmed=unconfirmed, **extra)
    rnd = RoundFactory(tournament=tournament, number=1)
    match = MatchFactory(round=rnd, table=1)
    other = MatchFactory(round=rnd, table=2)
    for m in (match, other):
        for team in (m.ns, m.ew):
            EntryFactory(tournament=tournament, team=team)
    players = [match.ns.player_1, match.ns.player_2, match.ew.player_1, match.ew.player_2,
               other.ns.player_1, other.ew.player_1]
    codes = personal_codes(tournament, [p.pk for p in players])
    return tournament, match, other, codes


def test_with_confirmation_off_a_finished_match_is_final_and_records_nothing():
    tournament, match, _other, _codes = world("off")
    finish(match)
    assert status_of(match) == "final" and match.result_status == ""
    assert not ResultEvent.objects.exists()


def test_a_finished_match_is_entered_then_confirmed_by_a_player_of_the_other_side_with_their_code():
    tournament, match, _other, codes = world()
    assert status_of(match) is None
    finish(match, device="phone-a")
    assert status_of(match) == "entered" and match.result_device == "phone-a" and match.result_side == ""
    ew = match.ew.player_1
    with acting(device="phone-b", address="10.0.0.8"):
        result_confirm(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk].lower())
    match.refresh_from_db()
    assert status_of(match) == "confirmed" and match.result_mark == ""
    events = list(match.result_events.values_list("kind", "status", "player_id", "side", "device", "address"))
    assert events == [("entered", "entered", None, "", "phone-a", "10.0.0.7"),
                      ("confirmed", "confirmed", ew.pk, "ew", "phone-b", "10.0.0.8")]
    assert match.result_events.last().result["winner"] == "ns"


def test_personal_codes_are_made_once_per_player_and_unique_in_the_tournament():
    tournament, match, _other, codes = world()
    again = personal_codes(tournament, codes)
    assert again == codes and len(set(codes.values())) == len(codes)
    assert all(len(c) == 6 and set(c) <= set(confirmation.CODE_ALPHABET) for c in codes.values())


@pytest.mark.parametrize("who", ["unrelated_account", "entering_account", "own_side_code", "other_table_code",
                                 "wrong_code", "same_phone", "no_code_no_account"])
def test_the_wrong_people_cannot_confirm(who):
    tournament, match, other, codes = world()
    ns_player = match.ns.player_1
    ns_player.user = UserFactory()
    ns_player.save()
    finish(match, user=ns_player.user, device="phone-a")  # a player of NS enters with their account
    assert match.result_side == "ns"
    ew = match.ew.player_1
    kwargs, device = {}, "phone-b"
    expected = {"unrelated_account": "not_at_this_table", "entering_account": "result_own_entry",
                "own_side_code": "result_own_side", "other_table_code": "not_at_this_table",
                "wrong_code": "personal_code_wrong", "same_phone": "result_own_entry",
                "no_code_no_account": "personal_code_wrong"}[who]
    if who == "unrelated_account":
        kwargs = {"user": UserFactory()}
    elif who == "entering_account":
        kwargs = {"user": ns_player.user}
    elif who == "own_side_code":
        partner = match.ns.player_2
        kwargs = {"player_id": partner.pk, "code": codes[partner.pk]}
    elif who == "other_table_code":
        stranger = other.ns.player_1
        kwargs = {"player_id": stranger.pk, "code": codes[stranger.pk]}
    elif who == "wrong_code":
        kwargs = {"player_id": ew.pk, "code": codes[match.ew.player_2.pk]}
    elif who == "same_phone":
        kwargs, device = {"player_id": ew.pk, "code": codes[ew.pk]}, "phone-a"
    with acting(device=device), pytest.raises(ServiceError) as refused:
        result_confirm(match_id=match.pk, **kwargs)
    assert refused.value.code == expected
    match.refresh_from_db()
    assert match.result_status == "entered"
    assert list(match.result_events.values_list("kind", flat=True)) == ["entered"]


def test_a_player_of_the_other_side_confirms_with_their_account():
    tournament, match, _other, _codes = world()
    finish(match, user=UserFactory())  # a neutral scorekeeper: either side confirms
    ns_player = match.ns.player_2
    ns_player.user = UserFactory()
    ns_player.save()
    result_confirm(match_id=match.pk, user=ns_player.user)
    match.refresh_from_db()
    assert match.result_status == "confirmed"
    assert match.result_events.last().player_id == ns_player.pk


def test_wrong_codes_are_counted_per_match_and_per_phone():
    tournament, match, _other, codes = world()
    finish(match, device="phone-a")
    ew = match.ew.player_1
    for i in range(confirmation.WRONG_CODES_MATCH[0]):
        with acting(device=f"guesser-{i}"), pytest.raises(ServiceError) as refused:
            result_confirm(match_id=match.pk, player_id=ew.pk, code="AAAAAA")
        assert refused.value.code == "personal_code_wrong"
    with acting(device="phone-b"), pytest.raises(ServiceError) as refused:  # even the right code, now
        result_confirm(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk])
    assert refused.value.code == "too_many_codes" and refused.value.status == 429
    cache.clear()
    for _ in range(confirmation.WRONG_CODES_DEVICE[0]):
        with acting(device="guesser"), pytest.raises(ServiceError):
            result_confirm(match_id=match.pk, player_id=ew.pk, code="AAAAAA")
    with acting(device="guesser"), pytest.raises(ServiceError) as refused:
        result_confirm(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk])
    assert refused.value.code == "too_many_codes"


def test_an_individual_events_phone_must_hold_the_tables_code():
    tournament = make_individual(8, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", best_of=1)
    match = Match.objects.filter(round__tournament=tournament, table=1).get()
    finish(match, device="phone-a")
    east = match.seats.get(seat="E").player
    code = personal_codes(tournament, [east.pk])[east.pk]
    with acting(device="phone-b"), pytest.raises(ServiceError) as refused:
        result_confirm(match_id=match.pk, player_id=east.pk, code=code)
    assert refused.value.code == "table_code_required"
    other = Match.objects.get(round__tournament=tournament, table=2)
    with acting(device="phone-b"), pytest.raises(ServiceError) as refused:
        result_confirm(match_id=match.pk, player_id=east.pk, code=code, table_code=other.table_code)
    assert refused.value.code == "table_code_required"
    with acting(device="phone-b"):
        result_confirm(match_id=match.pk, player_id=east.pk, code=code, table_code=match.table_code.lower())
    match.refresh_from_db()
    assert match.result_status == "confirmed"


def test_a_dispute_locks_the_result_until_a_director_changes_it_with_a_reason():
    tournament, match, _other, codes = world()
    keeper, director = UserFactory(), UserFactory()
    tournament.scorekeepers.add(keeper)
    tournament.directors.add(director)
    finish(match, user=keeper)
    ew = match.ew.player_2
    with pytest.raises(ServiceError) as refused:
        result_dispute(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk], reason="  ")
    assert refused.value.code == "reason_required"
    result_dispute(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk], reason="hand 3 was 40-20")
    match.refresh_from_db()
    assert (match.result_status, match.result_reason) == ("disputed", "hand 3 was 40-20")
    last = match.games.get().hands.order_by("-number").first()
    for user, reason, code in ((keeper, "typo", "result_locked"), (None, "typo", "result_locked"),
                               (director, "", "result_locked")):
        with pytest.raises(Conflict) as refused:
            hand_correct(hand=last, data={"points": {"ns": 40, "ew": 20}}, user=user, reason=reason)
        assert refused.value.code == code
    with pytest.raises(Conflict):
        hand_delete_last(hand=last, user=keeper)
    hand_correct(hand=last, data={"points": {"ns": 51, "ew": 9}}, user=director, reason="the sheet says 51")
    match.refresh_from_db()
    assert match.result_status == "final" and status_of(match) == "final"
    kinds = list(match.result_events.values_list("kind", "reason"))
    assert kinds[-1] == ("decided", "the sheet says 51") and kinds[-2][0] == "disputed"


def test_while_entered_the_entering_phone_corrects_and_the_confirmation_starts_again():
    tournament, match, _other, codes = world()
    finish(match, device="phone-a")
    last = match.games.get().hands.order_by("-number").first()
    with acting(device="phone-b"), pytest.raises(Conflict) as refused:
        hand_correct(hand=last, data={"points": {"ns": 51, "ew": 9}}, reason="typo")
    assert refused.value.code == "result_locked" and refused.value.params["reason"] == "other_phone"
    first_at = match.result_at
    with acting(device="phone-a"):
        hand_correct(hand=last, data={"points": {"ns": 51, "ew": 9}}, reason="typo")
    match.refresh_from_db()
    assert match.result_status == "entered" and match.result_at > first_at
    with acting(device="phone-a"):
        hand_delete_last(hand=last)
    match.refresh_from_db()
    assert match.status == "playing" and match.result_status == ""
    assert list(match.result_events.values_list("kind", flat=True)) == ["entered", "corrected", "reopened"]


def test_a_director_settles_or_confirms_on_paper_and_nobody_else_does():
    tournament, match, other, codes = world()
    director, organizer = UserFactory(), UserFactory()
    tournament.directors.add(director)
    tournament.organizers.add(organizer)
    finish(match)
    finish(other)
    for user in (UserFactory(), None):
        with pytest.raises(ServiceError) as refused:
            result_settle(match_id=match.pk, user=user, reason="seen the sheet")
        assert refused.value.code == "not_director"
    result_confirm_on_paper(match_id=match.pk, user=organizer, reason="phones down")
    match.refresh_from_db()
    assert (match.result_status, match.result_mark) == ("confirmed", "paper")
    result_settle(match_id=other.pk, user=director, reason="seen the sheet")
    other.refresh_from_db()
    assert other.result_status == "final"
    with pytest.raises(Match.DoesNotExist):  # another tournament's match through this one
        result_settle(match_id=other.pk, user=director, reason="x", tournament_id=TournamentFactory().pk)


def test_results_are_confirmed_automatically_after_the_minutes_without_a_dispute():
    tournament, match, other, codes = world(auto_confirm_minutes=10)
    finish(match)
    finish(other)
    ew = other.ew.player_1
    result_dispute(match_id=other.pk, player_id=ew.pk, code=codes[ew.pk], reason="no")
    assert results_auto_confirm(timezone.now()) == 0
    assert results_auto_confirm(timezone.now() + timezone.timedelta(minutes=11)) == 1
    match.refresh_from_db()
    other.refresh_from_db()
    assert (match.result_status, match.result_mark, other.result_status) == ("confirmed", "auto", "disputed")


def test_waiting_for_confirmation_the_standings_count_only_confirmed_results_and_the_pairing_waits():
    tournament, match, other, codes = world(unconfirmed="wait", rounds=3)
    finish(match)
    finish(other)
    standings_recompute(tournament=tournament)
    assert sum(Standing.objects.filter(tournament=tournament).values_list("played", flat=True)) == 0
    with pytest.raises(Conflict) as refused:
        round_pair(tournament=tournament)
    assert refused.value.code == "results_unconfirmed" and refused.value.params == {"round": 1, "count": 2}
    ew = match.ew.player_1
    result_confirm(match_id=match.pk, player_id=ew.pk, code=codes[ew.pk])
    standings_recompute(tournament=tournament)  # incremental: the confirmation is a standings change
    assert sum(Standing.objects.filter(tournament=tournament).values_list("played", flat=True)) == 2
    Tournament.objects.filter(pk=tournament.pk).update(unconfirmed="count")
    tournament.refresh_from_db()
    standings_recompute(tournament=tournament)
    assert sum(Standing.objects.filter(tournament=tournament).values_list("played", flat=True)) == 4
    Tournament.objects.filter(pk=tournament.pk).update(unconfirmed="wait")
    tournament.refresh_from_db()
    assert round_pair(tournament=tournament, force=True).number == 2


def test_a_knockout_winner_goes_on_once_confirmed():
    tournament = TournamentFactory(best_of=1, format="knockout", confirmation="opponents", unconfirmed="wait",
                                   rounds=2)
    teams = [EntryFactory(tournament=tournament).team for _ in range(4)]
    rnd = round_pair(tournament=tournament)
    matches = list(rnd.matches.order_by("table"))
    codes = personal_codes(tournament, [m.ew.player_1_id for m in matches])
    for m in matches:
        finish(m)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    for m in matches:
        result_confirm(match_id=m.pk, player_id=m.ew.player_1_id, code=codes[m.ew.player_1_id],
                       table_code=m.table_code)  # a team match's code binds the request as an individual one's
    final = Round.objects.get(tournament=tournament, number=2).matches.get()
    assert {final.ns_id, final.ew_id} <= {t.pk for t in teams}

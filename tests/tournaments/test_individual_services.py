"""Individual events' services without the draw: entries of players, the triggers, the clock, match lengths,
the standings of players (rounds built from rows here; the draw's own tests are test_draw_service.py)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, TeamFactory, TournamentFactory
from tournaments.models import Entry, Match, Round, RoundSeat, Standing, StandingsChange, StandingsSnapshot, Tournament
from tournaments.services import clock
from tournaments.services.draws import entry_add_player, entry_numbers_set, kept_apart_add
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.hands import hand_enter
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def summary(dealer, ns_points, *, trump="H"):
    """A Belgian hand summary (50-10: 20 points a hand to the side ahead)."""
    tricks = (8, 0) if ns_points == 60 else (0, 8) if ns_points == 0 else (4, 4)
    return {"dealer": dealer, "trump": trump, "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns_points, "ew": 60 - ns_points}}


def individual(players=8, **fields) -> tuple[Tournament, list]:
    clubs = [ClubFactory(), ClubFactory()]
    tournament = TournamentFactory(variant="belgian-manille", entry="individual", format="tables", rounds=3,
                                   **fields)
    people = [PlayerFactory(club=clubs[i % 2]) for i in range(players)]
    for p in people:
        entry_add_player(tournament=tournament, player=p)
    return tournament, people


def seat_round(tournament, number, tables, out=()) -> Round:
    """A round from rows: ``tables`` lists (N, S, E, W) players a table."""
    rnd = Round.objects.create(tournament=tournament, number=number)
    for i, four in enumerate(tables, start=1):
        match = Match.objects.create(round=rnd, table=i, table_code=f"CODE{number}{i}")
        RoundSeat.objects.bulk_create(RoundSeat(round=rnd, match=match, player=p, seat=s)
                                      for s, p in zip("NSEW", four))
    RoundSeat.objects.bulk_create(RoundSeat(round=rnd, player=p) for p in out)
    return rnd


# -- entries -------------------------------------------------------------------------------------------------

def test_players_get_start_numbers_in_entry_order_and_enter_once():
    tournament, people = individual(4)
    assert list(Entry.objects.filter(tournament=tournament).order_by("start_number")
                .values_list("player_id", "start_number")) == [(p.pk, i) for i, p in enumerate(people, 1)]
    with pytest.raises(Conflict) as refused:
        entry_add_player(tournament=tournament, player=people[0])
    assert refused.value.code == "already_entered"
    with pytest.raises(Conflict) as refused:
        entry_add_player(tournament=tournament, player=PlayerFactory(), start_number=2)
    assert refused.value.code == "start_number_taken"


def test_a_player_without_a_club_enters_and_a_team_event_takes_no_player():
    tournament, _ = individual(0)
    loner = PlayerFactory(club=None)
    assert entry_add_player(tournament=tournament, player=loner).start_number == 1
    with pytest.raises(ServiceError) as refused:
        entry_add_player(tournament=TournamentFactory(), player=PlayerFactory())
    assert refused.value.code == "entry_kind"


def test_start_numbers_swap_before_the_first_draw_only():
    tournament, people = individual(3)
    first, second = (Entry.objects.get(tournament=tournament, player=p) for p in people[:2])
    assert entry_numbers_set(tournament=tournament, numbers={first.pk: 2, second.pk: 1}) == 2
    first.refresh_from_db(), second.refresh_from_db()
    assert (first.start_number, second.start_number) == (2, 1)
    with pytest.raises(Conflict):
        entry_numbers_set(tournament=tournament, numbers={first.pk: 3})
    seat_round(tournament, 1, [])
    with pytest.raises(Conflict) as refused:
        entry_numbers_set(tournament=tournament, numbers={first.pk: 9})
    assert refused.value.code == "tournament_started"


def test_kept_apart_needs_two_entered_players():
    tournament, people = individual(2)
    pair = kept_apart_add(tournament=tournament, player_a=people[1], player_b=people[0])
    assert pair.player_a_id < pair.player_b_id
    with pytest.raises(ServiceError):
        kept_apart_add(tournament=tournament, player_a=people[0], player_b=PlayerFactory())


def test_an_individual_tournament_takes_only_its_formats():
    from django.core.exceptions import ValidationError

    tournament = TournamentFactory.build(variant="belgian-manille", entry="individual", format="knockout")
    with pytest.raises(ValidationError) as refused:
        tournament.clean()
    assert "format" in refused.value.error_dict
    timed = TournamentFactory.build(variant="belgian-manille", match_length="timed", minutes=None)
    with pytest.raises(ValidationError) as refused:
        timed.clean()
    assert "minutes" in refused.value.error_dict


# -- the standings' change triggers ------------------------------------------------------------------------

def test_seats_and_a_players_club_record_a_standings_change():
    tournament, people = individual(4)
    StandingsChange.objects.all().delete()
    seat_round(tournament, 1, [people])
    assert StandingsChange.objects.filter(tournament_id=tournament.pk).exists()
    StandingsChange.objects.all().delete()
    people[0].club = ClubFactory()
    people[0].save()
    assert list(StandingsChange.objects.values_list("tournament_id", "match_id")) == [(tournament.pk, None)]
    StandingsChange.objects.all().delete()
    Entry.objects.filter(tournament=tournament, player=people[1]).update(start_number=40)
    assert StandingsChange.objects.filter(tournament_id=tournament.pk).exists()


# -- the clock -----------------------------------------------------------------------------------------------

def test_the_clock_starts_pauses_resumes_extends_and_ends():
    from tournaments.selectors.clock import round_clock

    tournament, people = individual(4, match_length="timed", minutes=30)
    rnd = seat_round(tournament, 1, [people])
    assert round_clock(rnd)["status"] == "not_started"
    rnd = clock.round_clock_start(round=rnd)
    shown = round_clock(rnd)
    assert shown["status"] == "running" and 1790 <= shown["remaining"] <= 1800
    rnd = clock.round_clock_pause(round=rnd)
    assert round_clock(rnd)["status"] == "paused" and rnd.clock_ends_at is None
    with pytest.raises(Conflict):
        clock.round_clock_pause(round=rnd)
    rnd = clock.round_clock_extend(round=rnd, minutes=5)
    assert rnd.clock_paused_left >= 2090
    rnd = clock.round_clock_resume(round=rnd)
    assert round_clock(rnd)["status"] == "running"
    with pytest.raises(ServiceError) as refused:
        clock.round_clock_extend(round=rnd, minutes=0)
    assert refused.value.code == "clock_minutes"
    rnd = clock.round_clock_end(round=rnd)
    assert round_clock(rnd)["status"] == "over"


# -- match lengths -------------------------------------------------------------------------------------------

def _team_match(**fields) -> Match:
    tournament = TournamentFactory(variant="belgian-manille", **fields)
    rnd = Round.objects.create(tournament=tournament, number=1)
    club = ClubFactory()
    return Match.objects.create(round=rnd, table=1, ns=TeamFactory(club=club), ew=TeamFactory(club=club))


def _boam(match, ns_points, *, at=None, dealer=0):
    """Enter hands until the game in play ends (the side ahead takes 20 a hand), ``dealer`` (0: N) dealing first."""
    while True:
        hand, _ = hand_enter(match=match, data=summary("NESW"[dealer % 4], ns_points), played_at=at)
        dealer += 1
        if hand.game_winner:
            return hand


def test_a_match_of_two_games_counts_both_and_draws_on_equal_games_and_points():
    match = _team_match(match_length="games", match_games=2)
    _boam(match, 50)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    _boam(match, 10)
    match.refresh_from_db()
    assert (match.status, match.games_won_ns, match.games_won_ew) == (Match.Status.FINISHED, 1, 1)
    assert match.winner == ("draw" if match.points_ns == match.points_ew else
                            "ns" if match.points_ns > match.points_ew else "ew")
    with pytest.raises(Exception):
        hand_enter(match=match, data=summary("N", 50))


def test_a_timed_match_refuses_a_game_started_after_the_clock_and_finishes_the_one_in_play():
    match = _team_match(match_length="timed", minutes=30, at_time="finish")
    rnd = clock.round_clock_start(round=match.round)
    hand_enter(match=match, data=summary("N", 50))
    ends = rnd.clock_ends_at
    late = ends + timedelta(minutes=1)
    # The game in play is played out after the time ...
    Round.objects.filter(pk=rnd.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    _boam(match, 50, dealer=1)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, "ns")
    # ... and on another table, a game started after the clock's end is refused.
    other = _team_match(match_length="timed", minutes=30)
    Round.objects.filter(pk=other.round_id).update(clock_started_at=timezone.now() - timedelta(minutes=31),
                                                    clock_ends_at=timezone.now() - timedelta(minutes=1))
    other.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        hand_enter(match=other, data=summary("N", 50), played_at=late)
    assert refused.value.code == "round_time_over"


def test_the_clock_judges_the_time_at_the_table_not_at_the_server():
    match = _team_match(match_length="timed", minutes=30)
    Round.objects.filter(pk=match.round_id).update(clock_started_at=timezone.now() - timedelta(minutes=31),
                                                    clock_ends_at=timezone.now() - timedelta(minutes=1))
    match.refresh_from_db()
    # Played before the end, sent later by the offline queue: accepted.
    hand, created = hand_enter(match=match, data=summary("N", 50), played_at=timezone.now() - timedelta(minutes=5))
    assert created and hand.game.started_at < match.round.clock_ends_at


def test_stop_at_time_ends_the_game_after_the_deal_in_play_on_points():
    match = _team_match(match_length="timed", minutes=30, at_time="stop")
    clock.round_clock_start(round=match.round)
    hand_enter(match=match, data=summary("N", 50))
    Round.objects.filter(pk=match.round_id).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    match.refresh_from_db()
    hand, _ = hand_enter(match=match, data=summary("E", 50))  # the deal in play at the end
    game = hand.game
    game.refresh_from_db()
    match.refresh_from_db()
    assert (game.status, game.ended_by_clock, game.winner) == ("finished", True, "ns")
    assert (match.status, match.winner) == (Match.Status.FINISHED, "ns")


def test_time_up_finishes_the_timed_matches_without_a_game_in_play():
    match = _team_match(match_length="timed", minutes=30)
    clock.round_clock_start(round=match.round)
    _boam(match, 50)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING  # time left: another game may start
    clock.round_clock_end(round=match.round)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, "ns")


# -- the standings of players --------------------------------------------------------------------------------

def test_the_standings_of_an_individual_event_rank_players_and_their_clubs():
    tournament, people = individual(9, sit_out_score="nothing", match_length="games", match_games=1)
    rnd = seat_round(tournament, 1, [people[:4], people[4:8]], out=[people[8]])
    first, second = Match.objects.filter(round=rnd).order_by("table")
    _boam(first, 50)
    _boam(second, 10)
    snapshot = standings_recompute(tournament=tournament)
    rows = list(Standing.objects.filter(tournament=tournament).order_by("position"))
    assert len(rows) == 9 and all(r.player_id and r.team_id is None for r in rows)
    by_player = {r.player_id: r for r in rows}
    # N and S of table 1 won their game; E and W of table 2 won theirs.
    winners = {people[0].pk, people[1].pk, people[6].pk, people[7].pk}
    assert {r.player_id for r in rows if r.games_won == 1} == winners
    assert by_player[people[8].pk].played == 0
    assert StandingsSnapshot.objects.get(tournament=tournament).clubs == snapshot.clubs
    assert {c["club"] for c in snapshot.clubs} == {people[0].club_id, people[1].club_id}

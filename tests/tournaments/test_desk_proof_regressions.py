"""What the desk's proof found missing, mended: a withdrawal mid-match in an individual event (the player who
leaves loses the match for the side, the partner is scored as a sit-out), and a forfeit is no meeting for the
next Swiss draw (FIDE C.04: the pair may meet again; the forfeit's winner gets no pairing bye after it)."""

import pytest

from tests.individual import make_individual, play_hands
from tests.tournaments.test_rounds_service import finish, make_tournament
from tournaments.models import Entry, Match, Standing, Tournament
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import match_pairing_change, round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


def _rows(tournament):
    standings_recompute(tournament=tournament)
    return {s.player_id or s.team_id: s for s in Standing.objects.filter(tournament=tournament)}


def _play_out(match):
    """Play the match to its end, NS winning every hand 50 to 10."""
    for _ in range(40):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
        play_hands(match, 1, ns=50)


def _individual(sit_out="fixed"):
    """8 players, best of 3, round 1 drawn (two tables); a sit-out scores 1 match point, 1 game and 50 points."""
    tournament = make_individual(8, clubless=0, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(
        sit_out_score=sit_out, sit_out_fixed={"match_points": 1, "games_won": 1, "points_for": 50})
    tournament.refresh_from_db()
    first, second = tournament.round_set.get(number=1).matches.order_by("table")
    return tournament, first, second, dict(first.seats.values_list("seat", "player_id"))


def test_in_an_individual_event_a_player_withdraws_mid_match_and_the_partner_sits_out():
    tournament, first, second, seats = _individual()
    play_hands(first, 3, ns=50)  # a boam under way, NS ahead
    _play_out(second)  # table 2 plays on to its end (2-0 for NS)
    action = desk_action_take(tournament=tournament, match=first, kind="withdrawal", reason="S fell ill",
                              params={"player": seats["S"]}).action
    assert action.params == {"side": "ns", "player": seats["S"], "award": "remaining", "game_points": 101}
    first.refresh_from_db()
    # The game in play and the one still needed go to EW at 101 each, as for a team's side.
    assert (first.status, first.winner, first.games_won_ns, first.games_won_ew, first.decided_by) == (
        "finished", "ew", 0, 2, "withdrawal")
    rows = _rows(tournament)
    left, partner, east, west = (rows[seats[s]] for s in "SNEW")
    assert (left.played, left.lost, left.match_points) == (1, 1, 0)
    assert (partner.played, partner.lost, partner.match_points, partner.games_won,
            partner.points_for) == (0, 0, 1, 1, 50)  # scored as the house rule scores a sit-out
    assert (east.played, east.won, east.match_points, east.games_won, east.points_for) == (1, 1, 2, 2, 202)
    assert (west.won, west.points_for) == (1, 202)
    # Reverted: the match is in play again, the partner plays it.
    desk_action_revert(action=action, reason="back at the table")
    first.refresh_from_db()
    assert (first.status, first.decided_by) == ("playing", "")
    rows = _rows(tournament)
    assert (rows[seats["N"]].played, rows[seats["N"]].match_points, rows[seats["S"]].played) == (0, 0, 0)


def test_an_individual_withdrawal_leaves_the_round_mean_of_the_sit_outs_alone():
    tournament, first, second, seats = _individual(sit_out="mean")
    _play_out(second)  # table 2, played: NS win 2-0
    before = _rows(tournament)
    play_hands(first, 3, ns=50)
    desk_action_take(tournament=tournament, match=first, kind="withdrawal", reason="left",
                     params={"player": seats["E"]})
    rows = _rows(tournament)
    second_seats = dict(second.seats.values_list("seat", "player_id"))
    # The partner's sit-out is the round's mean of the matches played (table 2 only): an awarded result is not one.
    mean = [before[second_seats[s]] for s in "NSEW"]
    partner = rows[seats["W"]]
    assert partner.played == 0 and partner.points_for > 0
    assert partner.points_for in (sum(r.points_for for r in mean) // 4, round(sum(r.points_for for r in mean) / 4))


def test_an_individual_withdrawal_names_a_player_of_that_table_and_needs_a_match_in_play():
    tournament, first, second, seats = _individual()
    with pytest.raises(Conflict) as exc:
        desk_action_take(tournament=tournament, match=first, kind="withdrawal", reason="x",
                         params={"player": seats["N"]})
    assert exc.value.code == "match_not_started"
    play_hands(first, 2)
    other = second.seats.values_list("player_id", flat=True).first()
    with pytest.raises(ServiceError) as exc:
        desk_action_take(tournament=tournament, match=first, kind="withdrawal", reason="x", params={"player": other})
    assert (exc.value.code, exc.value.params["reason"]) == ("action_params", "not_seated")
    first.refresh_from_db()
    assert first.directives == [] and first.decided_by == ""


# --------------------------------------------------------------------------- a forfeit is no meeting


def test_a_forfeited_pair_may_be_paired_again_by_the_swiss_draw():
    tournament, teams = make_tournament(2, rounds=2)
    first = round_pair(tournament=tournament).matches.get()
    desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="EW never came",
                     params={"absent": "ew"})
    again = round_pair(tournament=tournament).matches.get()  # two teams: without the rule, "pairing_impossible"
    assert {again.ns_id, again.ew_id} == {first.ns_id, first.ew_id}


def test_a_played_pair_is_not_paired_again():
    tournament, teams = make_tournament(2, rounds=2)
    finish(round_pair(tournament=tournament).matches.get(), "ns")
    with pytest.raises(ServiceError) as exc:
        round_pair(tournament=tournament)
    assert exc.value.code == "pairing_impossible"


def test_the_winner_of_a_forfeit_gets_no_pairing_bye_after_it():
    tournament, teams = make_tournament(3, rounds=2)
    rnd = round_pair(tournament=tournament)
    played = rnd.matches.get(ew__isnull=False)
    bye = rnd.matches.get(ew__isnull=True).ns_id
    desk_action_take(tournament=tournament, match=played, kind="forfeit", reason="no-show",
                     params={"absent": "ew"})
    second = round_pair(tournament=tournament)
    # The forfeit's winner and the team with the bye had points without playing: the forfeit's loser sits out.
    assert second.matches.get(ew__isnull=True).ns_id == played.ew_id
    table = second.matches.get(ew__isnull=False)
    assert {table.ns_id, table.ew_id} == {played.ns_id, bye}


def test_both_absent_is_no_meeting_and_no_bye():
    tournament, teams = make_tournament(2, rounds=2)
    first = round_pair(tournament=tournament).matches.get()
    desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="nobody came",
                     params={"absent": "both"})
    again = round_pair(tournament=tournament).matches.get()
    assert {again.ns_id, again.ew_id} == {first.ns_id, first.ew_id}


def test_a_reverted_forfeit_then_played_is_a_meeting_again():
    tournament, teams = make_tournament(2, rounds=2)
    first = round_pair(tournament=tournament).matches.get()
    action = desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="late",
                              params={"absent": "ew"}).action
    desk_action_revert(action=action, reason="they came")
    finish(Match.objects.get(pk=first.pk), "ns")
    with pytest.raises(ServiceError) as exc:
        round_pair(tournament=tournament)
    assert exc.value.code == "pairing_impossible"


def test_a_pairing_changed_by_hand_may_repeat_a_forfeited_pair_but_not_a_played_one():
    tournament, teams = make_tournament(4, rounds=3)
    rnd = round_pair(tournament=tournament)
    one, two = rnd.matches.order_by("table")
    desk_action_take(tournament=tournament, match=one, kind="forfeit", reason="no-show", params={"absent": "ew"})
    finish(two, "ns")
    nxt = round_pair(tournament=tournament)
    table = nxt.matches.order_by("table").first()
    match_pairing_change(match=table, ns=one.ns, ew=one.ew)  # forfeited in round 1: allowed
    table.refresh_from_db()
    assert {table.ns_id, table.ew_id} == {one.ns_id, one.ew_id}
    with pytest.raises(ServiceError) as exc:
        match_pairing_change(match=table, ns=two.ns, ew=two.ew)  # played in round 1: a rematch
    assert exc.value.code == "rematch"
    assert Entry.objects.filter(tournament=tournament, withdrawn=True).count() == 0


# --------------------------------------------------------------------------- a decided match takes no more hands


def test_after_a_withdrawal_mid_match_the_game_in_play_takes_no_more_hands_until_reverted():
    import scoring

    from tests.tournaments.test_hand_services import summary
    from tournaments.services.hands import hand_enter

    tournament, _teams = make_tournament(2, best_of=3)
    match = round_pair(tournament=tournament).matches.get()
    hand_enter(match=match, data=summary("N", 50))  # game 1 under way, NS ahead
    action = desk_action_take(tournament=tournament, match=match, kind="withdrawal", reason="NS left",
                              params={"side": "ns"}).action
    match.refresh_from_db()
    decided = (match.status, match.winner, match.games_won_ns, match.games_won_ew, match.points_ns, match.points_ew)
    assert decided[:4] == ("finished", "ew", 0, 2)
    with pytest.raises(scoring.RuleViolation) as exc:  # the table's phone, still open, sends the next hand
        hand_enter(match=match, data=summary("E", 60))
    assert exc.value.violations[0].code == "game_over"
    from tournaments.selectors.matches import match_scoreboard

    board = match_scoreboard(match_id=match.pk)  # and the scoreboard announces no next hand
    assert (board["next_dealer"], board["current_game"], board["next_multiplier"]) == (None, None, None)
    match.refresh_from_db()
    assert (match.status, match.winner, match.games_won_ns, match.games_won_ew, match.points_ns,
            match.points_ew) == decided
    desk_action_revert(action=action, reason="back")
    hand_enter(match=Match.objects.get(pk=match.pk), data=summary("E", 60))  # in play again
    assert Match.objects.get(pk=match.pk).games.get(number=1).hands.count() == 2


def test_an_adjusted_result_over_a_game_in_play_closes_the_game_too():
    import scoring

    from tests.tournaments.test_hand_services import summary
    from tournaments.services.hands import hand_enter

    tournament, _teams = make_tournament(2, best_of=3)
    match = round_pair(tournament=tournament).matches.get()
    hand_enter(match=match, data=summary("N", 50))
    desk_action_take(tournament=tournament, match=match, kind="adjusted", reason="the sheet",
                     params={"games_won_ns": 2, "games_won_ew": 1, "points_ns": 250, "points_ew": 180,
                             "winner": "ns"})
    with pytest.raises(scoring.RuleViolation):
        hand_enter(match=Match.objects.get(pk=match.pk), data=summary("E", 60))
    assert Match.objects.get(pk=match.pk).games.get(number=1).hands.count() == 1


def test_the_public_round_page_says_how_the_director_decided_a_table(client):
    from django.urls import reverse

    tournament, _ = make_tournament(4, public=True)
    rnd = round_pair(tournament=tournament)
    first, second = rnd.matches.order_by("table")
    desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="Absent", params={"absent": "ew"})
    play_hands(second, 2, ns=50)  # a game in play, then NS leave
    desk_action_take(tournament=tournament, match=second, kind="withdrawal", reason="Left",
                     params={"side": "ns"})
    html = client.get(reverse("web:round", args=[tournament.slug, 1])).content.decode()
    assert html.count('class="decided"') == 2
    assert '<span class="decided">Forfeit</span>' in html and '<span class="decided">Withdrawal mid-match</span>' in html
    assert "state-game" not in html  # no game in play on a decided table
    dutch = client.get(reverse("web:round", args=[tournament.slug, 1]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<span class="decided">Forfait</span>' in dutch and "Opgave tijdens de wedstrijd" in dutch
    forfeit = client.get(reverse("web:match", args=[tournament.slug, first.pk])).content.decode()
    assert '<span class="decided">Forfeit</span>' in forfeit and f"Absent: {first.ew.name}" in forfeit
    assert "No game was played: the director decided the match." in forfeit and "not started yet" not in forfeit
    left = client.get(reverse("web:match", args=[tournament.slug, second.pk])).content.decode()
    assert '<span class="decided">Withdrawal mid-match</span>' in left and "Absent:" not in left
    assert '<span class="badge">stopped</span>' in left and "Next hand" not in left and "status-playing" not in left

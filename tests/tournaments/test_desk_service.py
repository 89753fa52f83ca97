"""The director's desk through the services: each kind of action, re-applied by the one result function,
reverted, refused when it makes no sense, and carried through the standings."""

import pytest
import scoring

from tests.factories import MatchFactory, TournamentFactory, UserFactory
from tests.tournaments.test_hand_services import play_boam, summary
from tests.tournaments.test_rounds_service import finish, finish_round, make_tournament
from tournaments.models import DirectorAction, Entry, Game, Round, Standing, Tournament
from tournaments.selectors.standings import standings_for
from tournaments.services.desk import desk_action_revert, desk_action_take
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.games import match_lock, match_refresh_result
from tournaments.services.hands import hand_correct, hand_enter
from tournaments.services.results import match_result_changed
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


@pytest.fixture
def director(db):
    return UserFactory(username="director")


@pytest.fixture
def match(db):
    """A Belgian Manille match, best of 3 boams to 101, not started."""
    return MatchFactory(round__tournament=TournamentFactory(variant="belgian-manille", best_of=3))


def take(match, kind, user=None, reason="table 3 said so", **params):
    return desk_action_take(tournament=match.round.tournament, match=match, kind=kind, reason=reason,
                            user=user, params=params)


def result(match):
    match.refresh_from_db()
    return (match.status, match.winner, match.games_won_ns, match.games_won_ew, match.points_ns, match.points_ew,
            match.forfeit, match.decided_by)


def test_a_forfeit_gives_the_side_present_the_games_needed_at_the_target_each(match, director):
    outcome = take(match, "forfeit", director, absent="ns")
    assert result(match) == ("finished", "ew", 0, 2, 0, 202, "ns", "forfeit")
    action = outcome.action
    assert (action.kind, action.params, action.actor, action.reason, action.active) == (
        "forfeit", {"absent": "ns", "game_points": 101}, director, "table 3 said so", True)
    assert match.directives == [{"id": action.pk, "kind": "forfeit", "absent": "ns", "game_points": 101}]
    assert Game.objects.filter(match=match).count() == 0  # no invented games nor hands
    with pytest.raises(scoring.RuleViolation):  # decided: no hand goes in
        hand_enter(match=match, data=summary("N", 50))


def test_a_forfeit_is_worth_the_events_setting_and_both_absent_lose_with_nothing(match):
    Tournament.objects.filter(pk=match.round.tournament_id).update(forfeit_points=50)
    match.refresh_from_db()
    take(match, "forfeit", absent="ew")
    assert result(match) == ("finished", "ns", 2, 0, 100, 0, "ew", "forfeit")
    Tournament.objects.filter(pk=match.round.tournament_id).update(forfeit_points=30)
    match_refresh_result(match_lock(match.pk))  # a later change of the setting rewrites no forfeit decided before
    assert result(match)[4] == 100
    other = MatchFactory(round=match.round)
    take(other, "forfeit", absent="both")
    assert result(other) == ("finished", "", 0, 0, 0, 0, "both", "forfeit")


def test_reverting_a_forfeit_reopens_the_match_for_its_hands(match, director):
    action = take(match, "forfeit", absent="ns").action
    outcome = desk_action_revert(action=action, user=director, reason="they arrived")
    assert result(match) == ("scheduled", "", 0, 0, 0, 0, "", "")
    action.refresh_from_db()
    assert (action.reverted_by, action.revert_reason, action.active) == (director, "they arrived", False)
    assert match.directives == [] and outcome.rounds_kept == []
    hand_enter(match=match, data=summary("N", 50))
    with pytest.raises(Conflict) as exc:
        desk_action_revert(action=action)
    assert exc.value.code == "action_reverted"


def test_forfeit_refusals_change_nothing(match):
    play_boam(match)
    with pytest.raises(Conflict) as exc:
        take(match, "forfeit", absent="ns")
    assert exc.value.code == "match_started"
    bye = MatchFactory(round=match.round, ew=None)
    with pytest.raises(Conflict) as exc:
        take(bye, "forfeit", absent="ew")
    assert exc.value.code == "match_is_bye"
    fresh = MatchFactory(round=match.round)
    with pytest.raises(ServiceError) as exc:
        take(fresh, "forfeit", absent="north")
    assert (exc.value.code, exc.value.field) == ("action_params", "absent")
    with pytest.raises(ServiceError) as exc:
        take(fresh, "forfeit", reason="  ", absent="ns")
    assert exc.value.code == "reason_missing"
    take(fresh, "forfeit", absent="ns")
    with pytest.raises(Conflict) as exc:
        take(fresh, "forfeit", absent="ew")
    assert exc.value.code == "action_active"
    elsewhere = MatchFactory()
    with pytest.raises(ServiceError) as exc:
        desk_action_take(tournament=match.round.tournament, match=elsewhere, kind="forfeit", reason="x",
                         params={"absent": "ns"})
    assert exc.value.code == "match_other_tournament"
    assert DirectorAction.objects.count() == 1


def test_a_withdrawal_mid_match_gives_the_remaining_games_and_survives_a_correction(match):
    first = play_boam(match)  # ns wins boam 1, 120 to 0... (50-10 hands)
    hand_enter(match=match, data=summary("E", 10))  # boam 2 under way
    match.refresh_from_db()
    ns_before, ew_before = match.points_ns, match.points_ew
    with pytest.raises(Conflict) as exc:  # nobody withdraws from a match not started
        take(MatchFactory(round=match.round), "withdrawal", side="ns")
    assert exc.value.code == "match_not_started"
    take(match, "withdrawal", side="ns")
    status, winner, won_ns, won_ew, p_ns, p_ew, forfeit, by = result(match)
    # boam 2 in play and boam 3 go to EW at 101 each; boam 1 stands
    game1 = Game.objects.get(match=match, number=1)
    assert (status, winner, won_ns, won_ew, forfeit, by) == ("finished", "ew", 1, 2, "", "withdrawal")
    assert (p_ns, p_ew) == (game1.total_ns, game1.total_ew + 202)
    assert ns_before > p_ns - 1 and ew_before >= 0
    # A correction of boam 1 re-applies the withdrawal: it is not erased.
    hand_correct(hand=first[0], data={"points": {"ns": 40, "ew": 20}, "tricks": {"ns": 4, "ew": 4}}, reason="typo")
    game1.refresh_from_db()
    assert result(match)[:8] == ("finished", "ew", 1, 2, game1.total_ns, game1.total_ew + 202, "", "withdrawal")


def test_a_withdrawal_as_it_stands_ends_the_match_on_what_was_played(match):
    Tournament.objects.filter(pk=match.round.tournament_id).update(withdrawal_award="as_stands")
    play_boam(match)
    hand_enter(match=match, data=summary("E", 10))
    match.refresh_from_db()
    points = (match.points_ns, match.points_ew)
    action = take(match, "withdrawal", side="ns").action
    assert action.params == {"side": "ns", "award": "as_stands", "game_points": 101}
    assert result(match) == ("finished", "ns", 1, 0, *points, "", "withdrawal")
    take(match, "adjusted", games_won_ns=0, games_won_ew=0, points_ns=0, points_ew=0, winner="draw")
    with pytest.raises(Conflict) as exc:
        take(match, "withdrawal", side="ew")
    assert exc.value.code == "action_active"
    desk_action_revert(action=action)
    assert result(match)[:2] == ("finished", "draw")  # the adjusted result still decides it


def test_an_adjusted_result_and_penalties_stay_through_later_hands(match):
    play_boam(match)
    adjusted = take(match, "adjusted", games_won_ns=2, games_won_ew=1, points_ns=300, points_ew=250,
                    winner="ns").action
    assert result(match) == ("finished", "ns", 2, 1, 300, 250, "", "adjusted")
    first = take(match, "penalty", side="ns", points=20).action
    take(match, "penalty", side="ns", points=5)
    assert result(match)[4:6] == (275, 250)
    desk_action_revert(action=first)
    assert result(match)[4:6] == (295, 250)
    desk_action_revert(action=adjusted)  # back to the games, one penalty still off
    match.refresh_from_db()
    game = Game.objects.get(match=match)
    assert result(match) == ("playing", "", 1, 0, game.total_ns - 5, game.total_ew, "", "")
    play_boam(match, first_dealer_index=2)
    game2 = Game.objects.get(match=match, number=2)
    assert result(match) == ("finished", "ns", 2, 0, game.total_ns + game2.total_ns - 5,
                             game.total_ew + game2.total_ew, "", "")


def test_a_penalty_decides_a_match_of_games_judged_on_points():
    tournament = TournamentFactory(variant="belgian-manille", match_length="games", match_games=2)
    match = MatchFactory(round__tournament=tournament)
    play_boam(match, ns_points=50)
    play_boam(match, first_dealer_index=2, ns_points=10)
    match.refresh_from_db()
    assert (match.status, match.games_won_ns, match.games_won_ew) == ("finished", 1, 1)
    gap = max(match.points_ns - match.points_ew, 0) + 1
    take(match, "penalty", side="ns", points=gap)
    assert result(match)[:2] == ("finished", "ew")


def drawn_knockout_match():
    tournament, teams = make_tournament(4, Tournament.Format.KNOCKOUT, best_of=1)
    r1 = round_pair(tournament=tournament)
    match = r1.matches.order_by("table").first()
    Game.objects.create(match=match, number=1, first_dealer="N", status="finished", total_ns=60, total_ew=60,
                        winner="draw")
    locked = match_lock(match.pk)
    match_refresh_result(locked)
    match_result_changed(match=locked)
    return tournament, match


def test_a_drawn_knockout_is_decided_and_its_winner_advances():
    tournament, match = drawn_knockout_match()
    assert result(match)[:2] == ("finished", "draw")
    with pytest.raises(Conflict) as exc:
        take(match.round.matches.exclude(pk=match.pk).first(), "decision", winner="ns")
    assert exc.value.code == "match_not_drawn"
    other = match.round.matches.exclude(pk=match.pk).first()
    finish(other, "ns")
    assert not Round.objects.filter(tournament=tournament, number=2).exists()  # a draw never advances
    action = take(match, "decision", winner="ew").action
    assert result(match) == ("finished", "ew", 0, 0, 60, 60, "", "decision")
    r2 = Round.objects.get(tournament=tournament, number=2)
    assert {t for m in r2.matches.all() for t in (m.ns_id, m.ew_id)} == {match.ew_id, other.ns_id}
    outcome = desk_action_revert(action=action)
    assert result(match)[:2] == ("finished", "draw")
    assert outcome.rounds_kept == [2]  # the next round stays as paired, and the service says so


def test_a_decision_needs_a_knockout(match):
    with pytest.raises(ServiceError) as exc:
        take(match, "decision", winner="ns")
    assert exc.value.code == "not_knockout"


def test_forfeits_count_apart_in_the_standings_against_a_virtual_opponent():
    tournament, teams = make_tournament(4)
    r1 = round_pair(tournament=tournament)
    m1, m2 = r1.matches.order_by("table")
    take(m1, "forfeit", absent="ew")
    finish(m2, "ns")
    standings_recompute(tournament=tournament)
    rows = {r["team"]: r for r in standings_for(tournament)["rows"]}
    saved = {s.team_id: s for s in Standing.objects.filter(tournament=tournament)}
    won, lost = rows[m1.ns_id], rows[m1.ew_id]
    assert (won["played"], won["won"], won["match_points"], won["games_won"], won["points_for"]) == (0, 0, 2, 2, 202)
    assert (lost["played"], lost["lost"], lost["match_points"]) == (0, 0, 0)
    assert (saved[m1.ns_id].forfeits_won, saved[m1.ns_id].forfeits_lost) == (1, 0)
    assert (saved[m1.ew_id].forfeits_won, saved[m1.ew_id].forfeits_lost) == (0, 1)
    # Buchholz: the forfeit's winner meets a virtual opponent with its own score (2), not the absent side's 0.
    assert won["tiebreaks"]["buchholz"] == 2
    assert rows[m2.ns_id]["played"] == 1 and rows[m2.ns_id]["tiebreaks"]["buchholz"] == 0  # its opponent lost


def test_a_withdrawal_from_the_event_is_marked_and_never_paired_again():
    tournament, teams = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    entry = Entry.objects.get(tournament=tournament, team=teams[0])
    action = desk_action_take(tournament=tournament, entry=entry, kind="withdrawal_event", reason="ill").action
    assert action.params == {"after_round": 1}
    standings_recompute(tournament=tournament)
    assert Standing.objects.get(tournament=tournament, team=teams[0]).withdrawn
    r2 = round_pair(tournament=tournament)
    assert teams[0].pk not in {t for m in r2.matches.all() for t in (m.ns_id, m.ew_id)}
    outcome = desk_action_revert(action=action)
    assert outcome.rounds_kept == [2]
    entry.refresh_from_db()
    assert not entry.withdrawn
    standings_recompute(tournament=tournament)
    assert not Standing.objects.get(tournament=tournament, team=teams[0]).withdrawn
    with pytest.raises(ServiceError) as exc:
        desk_action_take(tournament=TournamentFactory(), entry=entry, kind="withdrawal_event", reason="x")
    assert exc.value.code == "entry_other_tournament"


def test_a_deduction_comes_off_the_named_total_until_reverted():
    tournament, teams = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    standings_recompute(tournament=tournament)
    before = Standing.objects.get(tournament=tournament, team=teams[0])
    entry = Entry.objects.get(tournament=tournament, team=teams[0])
    action = desk_action_take(tournament=tournament, entry=entry, kind="deduction", reason="late twice",
                              params={"metric": "match_points", "amount": 1}).action
    desk_action_take(tournament=tournament, entry=entry, kind="deduction", reason="noise",
                     params={"metric": "points_for", "amount": 10})
    standings_recompute(tournament=tournament)
    after = Standing.objects.get(tournament=tournament, team=teams[0])
    assert (after.match_points, after.points_for) == (before.match_points - 1, before.points_for - 10)
    desk_action_revert(action=action)
    standings_recompute(tournament=tournament)
    assert Standing.objects.get(tournament=tournament, team=teams[0]).match_points == before.match_points
    with pytest.raises(ServiceError) as exc:
        desk_action_take(tournament=tournament, entry=entry, kind="deduction", reason="x",
                         params={"metric": "buchholz", "amount": 1})
    assert exc.value.code == "action_params"


def test_a_reversal_after_the_next_round_was_paired_keeps_that_round_and_says_so():
    tournament, teams = make_tournament(4)
    r1 = round_pair(tournament=tournament)
    m1, m2 = r1.matches.order_by("table")
    action = take(m1, "forfeit", absent="ew").action
    finish(m2, "ns")
    r2 = round_pair(tournament=tournament)
    pairs = sorted((m.ns_id, m.ew_id) for m in r2.matches.all())
    outcome = desk_action_revert(action=action)
    assert outcome.rounds_kept == [2]
    assert sorted((m.ns_id, m.ew_id) for m in r2.matches.all()) == pairs
    assert result(m1)[0] == "scheduled"


def test_directors_are_the_organizers_and_staff(match, director):
    from tournaments.access import can_direct

    tournament = match.round.tournament
    tournament.organizers.add(director)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    staff = UserFactory(username="staff", is_staff=True)
    assert [can_direct(u, tournament.pk) for u in (director, staff, keeper, UserFactory(username="nobody"))] == [
        True, True, False, False]


def individual_forfeit_world():
    """An individual event of 8 players, best of 3, round 1 drawn: two tables; table 1 N+S v E+W."""
    from tests.individual import make_individual

    tournament = make_individual(8, clubless=0, minutes=None)
    rnd = tournament.round_set.get(number=1)
    first, second = rnd.matches.order_by("table")
    seats = dict(first.seats.values_list("seat", "player_id"))
    return tournament, first, second, seats


def test_in_an_individual_event_an_absent_player_forfeits_and_the_partner_sits_out():
    tournament, first, second, seats = individual_forfeit_world()
    Tournament.objects.filter(pk=tournament.pk).update(sit_out_score="fixed",
                                                       sit_out_fixed={"match_points": 1, "games_won": 1,
                                                                      "points_for": 50})
    tournament.refresh_from_db()
    action = desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="N never came",
                              params={"players": [seats["N"]]}).action
    assert action.params == {"absent": "ns", "players": [seats["N"]], "game_points": 101}
    assert result(first) == ("finished", "ew", 0, 2, 0, 202, "ns", "forfeit")
    standings_recompute(tournament=tournament)
    rows = {s.player_id: s for s in Standing.objects.filter(tournament=tournament)}
    absent, partner, east = rows[seats["N"]], rows[seats["S"]], rows[seats["E"]]
    assert (absent.played, absent.forfeits_lost, absent.match_points) == (0, 1, 0)
    assert (partner.played, partner.forfeits_lost, partner.match_points, partner.points_for) == (0, 0, 1, 50)
    assert (east.played, east.forfeits_won, east.match_points, east.points_for) == (0, 1, 2, 202)
    with pytest.raises(ServiceError) as exc:
        desk_action_take(tournament=tournament, match=second, kind="forfeit", reason="x",
                         params={"players": [seats["N"]]})  # not at that table
    assert (exc.value.code, exc.value.params["reason"]) == ("action_params", "not_seated")


def test_in_an_individual_event_absentees_of_both_sides_lose_and_their_partners_sit_out():
    tournament, first, _second, seats = individual_forfeit_world()
    desk_action_take(tournament=tournament, match=first, kind="forfeit", reason="both late",
                     params={"players": [seats["S"], seats["W"]]})
    assert result(first)[:2] + result(first)[6:] == ("finished", "", "both", "forfeit")
    standings_recompute(tournament=tournament)
    rows = {s.player_id: s for s in Standing.objects.filter(tournament=tournament)}
    assert [rows[seats[s]].forfeits_lost for s in "NSEW"] == [0, 1, 0, 1]
    assert [rows[seats[s]].played for s in "NSEW"] == [0, 0, 0, 0]


def test_in_an_individual_event_a_penalty_and_a_deduction_are_one_players():
    tournament, first, second, seats = individual_forfeit_world()
    from tests.individual import play_hands

    play_hands(first, 6, ns=50)
    standings_recompute(tournament=tournament)
    before = {s.player_id: s.points_for for s in Standing.objects.filter(tournament=tournament)}
    desk_action_take(tournament=tournament, match=first, kind="penalty", reason="cards shown",
                     params={"player": seats["N"], "points": 7})
    entry = Entry.objects.get(tournament=tournament, player_id=seats["E"])
    desk_action_take(tournament=tournament, entry=entry, kind="deduction", reason="late",
                     params={"metric": "points_for", "amount": 3})
    first.refresh_from_db()
    assert first.decided_by == "" and (first.points_ns, first.points_ew) == (120, 0)  # the side's points stand
    standings_recompute(tournament=tournament)
    after = {s.player_id: s.points_for for s in Standing.objects.filter(tournament=tournament)}
    assert (after[seats["N"]], after[seats["S"]], after[seats["E"]]) == (
        before[seats["N"]] - 7, before[seats["S"]], before[seats["E"]] - 3)
    with pytest.raises(ServiceError) as exc:  # an individual event's withdrawal names the player who leaves
        desk_action_take(tournament=tournament, match=second, kind="withdrawal", reason="x", params={"side": "ns"})
    assert exc.value.code == "action_params"


def test_the_admin_shows_the_actions_and_never_edits_them(match, admin_client):
    action = take(match, "forfeit", reason="EW never came", absent="ew").action
    page = admin_client.get("/admin/tournaments/directoraction/")
    assert page.status_code == 200 and "EW never came" in page.content.decode()
    assert admin_client.get("/admin/tournaments/directoraction/add/").status_code == 403
    assert admin_client.post(f"/admin/tournaments/directoraction/{action.pk}/delete/", {"post": "yes"}).status_code \
        == 403
    assert DirectorAction.objects.filter(pk=action.pk).exists()

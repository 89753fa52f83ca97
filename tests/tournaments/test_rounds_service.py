"""Pairing rounds through the services: Swiss, round robin, knockout, withdrawals, late entries, manual changes."""

import uuid

import pytest

from tests.factories import ClubFactory, EntryFactory, TeamFactory, TournamentFactory
from tournaments.models import Entry, ForbiddenPair, Game, Match, Round, RoundSlot, TaskRecord, Tournament
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import (
    PairingImpossible,
    entry_add_late,
    entry_withdraw,
    match_pairing_change,
    round_pair,
    round_pair_request,
)
from tournaments.services.results import match_result_changed
from tournaments.selectors.standings import task_status

pytestmark = pytest.mark.django_db


def make_tournament(n, fmt=Tournament.Format.SWISS, **kwargs):
    tournament = TournamentFactory(format=fmt, **kwargs)
    teams = [TeamFactory() for _ in range(n)]
    for seed, team in enumerate(teams, start=1):
        EntryFactory(tournament=tournament, team=team, seed=seed)
    return tournament, teams


def finish(match, winner="ns", games=None, totals=None):
    """Finish a match directly through the models: games with totals, then the match with its game points."""
    games = games or {"ns": (2, 0), "ew": (0, 2), "draw": (1, 1)}[winner]
    order = ["ns"] * games[0] + ["ew"] * games[1]
    match.points_ns = match.points_ew = 0
    for number, game_winner in enumerate(order, start=1):
        t = (totals or {}).get(number) or ((101, 60) if game_winner == "ns" else (60, 101))
        Game.objects.create(match=match, number=number, first_dealer="N", status="finished",
                            total_ns=t[0], total_ew=t[1], winner=game_winner)
        match.points_ns += t[0]
        match.points_ew += t[1]
    match.status, match.winner = Match.Status.FINISHED, winner
    match.games_won_ns, match.games_won_ew = games
    match.save()
    match_result_changed(match=match)


def finish_round(rnd, pick=lambda m: "ns"):
    for m in rnd.matches.exclude(ew=None).order_by("table"):
        finish(m, pick(m))


def test_swiss_round_one_and_two():
    tournament, teams = make_tournament(7)
    r1 = round_pair(tournament=tournament)
    assert r1.number == 1
    matches = list(r1.matches.order_by("table"))
    assert len(matches) == 4 and matches[-1].ew_id is None and matches[-1].status == "finished"
    assert RoundSlot.objects.filter(round=r1).count() == 7
    assert all(m.why for m in matches)
    tournament.refresh_from_db()
    assert tournament.status == "running"
    with pytest.raises(Conflict) as refused:
        round_pair(tournament=tournament)
    assert refused.value.code == "round_unfinished"
    finish_round(r1)
    r2 = round_pair(tournament=tournament)
    met = {frozenset((m.ns_id, m.ew_id)) for m in r1.matches.exclude(ew=None)}
    for m in r2.matches.exclude(ew=None):
        assert frozenset((m.ns_id, m.ew_id)) not in met
    bye_1 = r1.matches.get(ew=None).ns_id
    assert r2.matches.get(ew=None).ns_id != bye_1


def test_pairing_with_number_is_idempotent_and_force_pairs_early():
    tournament, _ = make_tournament(4)
    r1 = round_pair(tournament=tournament, number=1)
    assert round_pair(tournament=tournament, number=1) == r1
    with pytest.raises(Conflict):
        round_pair(tournament=tournament, number=3)
    r2 = round_pair(tournament=tournament, force=True, number=2)
    assert r2.number == 2 and Round.objects.filter(tournament=tournament).count() == 2


def test_impossible_pairing_reports_the_teams():
    tournament, teams = make_tournament(4, rounds=5)
    for number in (1, 2, 3):
        finish_round(round_pair(tournament=tournament))
    with pytest.raises(PairingImpossible) as refused:
        round_pair(tournament=tournament)
    assert refused.value.code == "pairing_impossible" and len(refused.value.teams) == 4


def test_forbidden_pair_and_club_separation():
    club = ClubFactory()
    tournament = TournamentFactory(separate_clubs_rounds=1)
    teams = [TeamFactory(club=club if i in (0, 2) else ClubFactory()) for i in range(4)]
    for seed, team in enumerate(teams, start=1):
        EntryFactory(tournament=tournament, team=team, seed=seed)
    a, b = sorted((teams[1].pk, teams[3].pk))
    ForbiddenPair.objects.create(tournament=tournament, team_a_id=a, team_b_id=b)
    r1 = round_pair(tournament=tournament)
    pairs = {frozenset((m.ns_id, m.ew_id)) for m in r1.matches.all()}
    assert frozenset((teams[0].pk, teams[2].pk)) not in pairs  # same club, first round
    assert frozenset((a, b)) not in pairs


def test_withdrawn_team_not_paired_again_results_stand():
    tournament, teams = make_tournament(6)
    r1 = round_pair(tournament=tournament)
    finish_round(r1)
    leaver = teams[0]
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=leaver))
    entry = Entry.objects.get(tournament=tournament, team=leaver)
    assert entry.withdrawn and entry.withdrawn_after_round == 1
    r2 = round_pair(tournament=tournament)
    assert not r2.matches.filter(ns=leaver).exists() and not r2.matches.filter(ew=leaver).exists()
    assert r2.matches.filter(ew=None).count() == 1  # 5 teams left
    assert r1.matches.filter(ns=leaver).exists() or r1.matches.filter(ew=leaver).exists()


def test_withdrawal_before_the_match_gives_the_opponent_a_bye():
    tournament, teams = make_tournament(4)
    r1 = round_pair(tournament=tournament)
    match = r1.matches.get(ns=teams[0])
    opponent = match.ew_id
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=teams[0]))
    match.refresh_from_db()
    assert (match.ns_id, match.ew_id, match.status) == (opponent, None, "finished")
    assert Entry.objects.get(tournament=tournament, team=teams[0]).withdrawn_after_round == 0


def test_late_entry_in_swiss_only():
    tournament, _ = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    late = TeamFactory()
    entry_add_late(tournament=tournament, team=late)
    r2 = round_pair(tournament=tournament)
    assert r2.matches.filter(ns=late).exists() or r2.matches.filter(ew=late).exists()
    rr, _ = make_tournament(4, Tournament.Format.ROUND_ROBIN)
    round_pair(tournament=rr)
    with pytest.raises(ServiceError):
        entry_add_late(tournament=rr, team=TeamFactory())


def test_manual_change_swaps_teams_before_the_round_starts():
    tournament, teams = make_tournament(4)
    r1 = round_pair(tournament=tournament)
    m1, m2 = r1.matches.order_by("table")
    a, b, c, d = m1.ns, m1.ew, m2.ns, m2.ew
    match_pairing_change(match=m1, ns=a, ew=c)
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.ns_id, m1.ew_id) == (a.pk, c.pk) and {m2.ns_id, m2.ew_id} == {b.pk, d.pk}
    assert m1.why[0][0] == "changed_by_organizer"  # no user named: "by the organizer"
    assert RoundSlot.objects.filter(round=r1).count() == 4
    finish(m1)
    with pytest.raises(Conflict):
        match_pairing_change(match=m2, ns=b, ew=a)


def test_round_robin_follows_berger_and_withdrawal_gives_byes():
    tournament, teams = make_tournament(6, Tournament.Format.ROUND_ROBIN)
    r1 = round_pair(tournament=tournament)
    ids = {t.pk: i for i, t in enumerate(teams, start=1)}
    assert [(ids[m.ns_id], ids[m.ew_id]) for m in r1.matches.order_by("table")] == [(1, 6), (2, 5), (3, 4)]
    finish_round(r1)
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=teams[3]))  # number 4
    r2 = round_pair(tournament=tournament)  # 6-4 5-3 1-2: 6 gets a bye
    got = [(ids[m.ns_id], ids[m.ew_id] if m.ew_id else None) for m in r2.matches.order_by("table")]
    assert got == [(6, None), (5, 3), (1, 2)]


def test_knockout_bracket_and_winners_advance():
    tournament, teams = make_tournament(5, Tournament.Format.KNOCKOUT)
    r1 = round_pair(tournament=tournament)
    seeds = {t.pk: i for i, t in enumerate(teams, start=1)}
    assert [(seeds[m.ns_id], m.ew_id and seeds[m.ew_id]) for m in r1.matches.order_by("table")] == [
        (1, None), (4, 5), (2, None), (3, None)]
    r2 = Round.objects.get(tournament=tournament, number=2)  # byes 2 and 3 fed table 2 at once
    assert [(seeds[m.ns_id], seeds[m.ew_id]) for m in r2.matches.order_by("table")] == [(2, 3)]
    finish(r1.matches.get(table=2), "ew")  # seed 5 beats seed 4 and meets seed 1
    assert [(seeds[m.ns_id], seeds[m.ew_id]) for m in r2.matches.order_by("table")] == [(1, 5), (2, 3)]
    finish(r2.matches.get(table=1), "ns")
    finish(r2.matches.get(table=2), "ew")
    final = Round.objects.get(tournament=tournament, number=3).matches.get()
    assert (seeds[final.ns_id], seeds[final.ew_id]) == (1, 3)
    finish(final, "ns")
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_pair_request_records_the_task():
    tournament, _ = make_tournament(4)
    record = round_pair_request(tournament=tournament)
    # Tasks run eagerly here; on_commit callbacks run in the test via captureOnCommitCallbacks.
    status = task_status(record.id)
    assert status["status"] in ("pending", "succeeded")


def test_pair_request_runs_the_task(django_capture_on_commit_callbacks):
    tournament, _ = make_tournament(4)
    with django_capture_on_commit_callbacks(execute=True):
        record = round_pair_request(tournament=tournament)
    status = task_status(record.id)
    assert status["status"] == "succeeded" and status["result"]["round"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        again = round_pair_request(tournament=tournament, refuse_at_once=False)  # the worker refuses it
    failed = task_status(again.id)
    assert failed["status"] == "failed" and failed["error"]["code"] == "round_unfinished"
    assert TaskRecord.objects.count() == 2


def test_knockout_is_not_over_when_the_first_match_of_a_half_filled_round_finishes():
    tournament, teams = make_tournament(8, Tournament.Format.KNOCKOUT)
    r1 = round_pair(tournament=tournament)
    finish(r1.matches.get(table=1), "ns")
    finish(r1.matches.get(table=2), "ns")
    r2 = Round.objects.get(tournament=tournament, number=2)
    assert r2.matches.count() == 1  # table 2 of round 2 waits for round 1's tables 3 and 4
    finish(r2.matches.get(table=1), "ns")  # a semi-final, not the final
    tournament.refresh_from_db()
    assert tournament.status == "running"
    with pytest.raises(Conflict):  # the other semi-final is not known yet; the tournament is not over
        round_pair(tournament=tournament, force=True)
    finish(r1.matches.get(table=3), "ns")
    finish(r1.matches.get(table=4), "ns")
    finish(r2.matches.get(table=2), "ew")
    final = Round.objects.get(tournament=tournament, number=3).matches.get()
    assert (final.ns_id, final.ew_id) == (teams[0].pk, teams[2].pk)
    finish(final, "ns")
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_knockout_first_round_byes_count_in_the_standings_at_once(django_capture_on_commit_callbacks):
    from tournaments.models import Standing

    tournament, teams = make_tournament(5, Tournament.Format.KNOCKOUT)
    with django_capture_on_commit_callbacks(execute=True):
        round_pair(tournament=tournament)
    points = dict(Standing.objects.filter(tournament=tournament).values_list("team_id", "match_points"))
    assert points == {teams[0].pk: tournament.points_bye, teams[1].pk: tournament.points_bye,
                      teams[2].pk: tournament.points_bye, teams[3].pk: 0, teams[4].pk: 0}


def test_pair_request_refused_at_once_while_a_pairing_is_under_way():
    tournament, _ = make_tournament(4)
    first = round_pair_request(tournament=tournament)  # on_commit never runs here: pending
    with pytest.raises(Conflict) as refused:
        round_pair_request(tournament=tournament)
    assert refused.value.code == "pairing_in_progress" and refused.value.status == 409
    assert list(TaskRecord.objects.values_list("pk", flat=True)) == [first.pk]
    TaskRecord.objects.filter(pk=first.pk).update(status=TaskRecord.Status.RUNNING)
    with pytest.raises(Conflict):
        round_pair_request(tournament=tournament)
    TaskRecord.objects.filter(pk=first.pk).update(status=TaskRecord.Status.FAILED)
    assert round_pair_request(tournament=tournament).params["number"] == 1


def test_pair_request_refused_at_once_while_the_last_round_is_unfinished():
    tournament, _ = make_tournament(4)
    r1 = round_pair(tournament=tournament)
    with pytest.raises(Conflict) as refused:
        round_pair_request(tournament=tournament)
    assert refused.value.code == "round_unfinished" and refused.value.status == 409
    assert not TaskRecord.objects.exists()
    forced = round_pair_request(tournament=tournament, force=True)
    assert forced.params == {"number": 2, "force": True}
    TaskRecord.objects.all().delete()
    finish_round(r1)
    assert round_pair_request(tournament=tournament).params["number"] == 2


def test_pair_request_without_refuse_at_once_leaves_the_refusal_to_the_worker():
    tournament, _ = make_tournament(4)
    round_pair(tournament=tournament)
    first = round_pair_request(tournament=tournament, refuse_at_once=False)
    second = round_pair_request(tournament=tournament, refuse_at_once=False)
    assert first.params["number"] == second.params["number"] == 2


def test_late_entry_refuses_a_finished_tournament_a_team_entered_and_a_team_withdrawn():
    tournament, teams = make_tournament(4)
    with pytest.raises(Conflict) as refused:
        entry_add_late(tournament=tournament, team=teams[0])
    assert refused.value.code == "already_entered" and refused.value.status == 409
    entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=teams[0]))
    with pytest.raises(Conflict) as refused:
        entry_add_late(tournament=tournament, team=teams[0])
    assert refused.value.code == "entry_withdrawn"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(Conflict) as refused:
        entry_add_late(tournament=tournament, team=TeamFactory())
    assert refused.value.code == "tournament_finished" and refused.value.status == 409
    assert Entry.objects.filter(tournament=tournament).count() == 4


def test_a_team_entered_is_refused_before_late_entries_are_closed():
    rr, teams = make_tournament(4, Tournament.Format.ROUND_ROBIN)
    round_pair(tournament=rr)
    with pytest.raises(Conflict) as refused:
        entry_add_late(tournament=rr, team=teams[1])
    assert refused.value.code == "already_entered"
    with pytest.raises(ServiceError) as refused:
        entry_add_late(tournament=rr, team=TeamFactory())
    assert refused.value.code == "late_entry_closed" and refused.value.status == 400


def test_withdrawing_twice_is_refused():
    tournament, teams = make_tournament(4)
    entry = Entry.objects.get(tournament=tournament, team=teams[0])
    entry_withdraw(entry=entry)
    with pytest.raises(Conflict) as refused:
        entry_withdraw(entry=entry)
    assert refused.value.code == "already_withdrawn" and refused.value.status == 409
    assert refused.value.params == {"team": teams[0].name}


def test_task_status_gives_a_failed_task_an_error_and_no_other_task_one():
    tournament, _ = make_tournament(2)
    failed = TaskRecord.objects.create(id=uuid.uuid4(), kind=TaskRecord.Kind.ROUND_PAIR, tournament=tournament,
                                       status=TaskRecord.Status.FAILED)
    assert task_status(failed.pk)["error"] == {"code": "error", "detail": "The task failed.", "attr": None}
    running = TaskRecord.objects.create(id=uuid.uuid4(), kind=TaskRecord.Kind.ROUND_PAIR, tournament=tournament,
                                        status=TaskRecord.Status.RUNNING, error={"code": "stale"})
    assert task_status(running.pk)["error"] is None

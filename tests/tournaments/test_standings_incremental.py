"""Recomputing from the changed matches: the database's change rows, and the same standings as a full load.

A worker keeps the inputs of its last recompute and, when only results changed, reads the changed
matches (``StandingsChange`` rows written by triggers) instead of the whole tournament. Every test
here compares that path with a full load and checks which path ran.
"""

import random
from unittest import mock

import pytest

from tests.factories import ClubFactory, TeamFactory
from tests.tournaments.test_rounds_service import finish, finish_round, make_tournament
from tournaments.models import Entry, Game, Match, Round, Standing, StandingsChange, StandingsSnapshot, Tournament
from tournaments.ranking import MatchRecord, TeamInfo, club_standings, compute_standings
from tournaments.services import standings as service
from tournaments.services.rounds import entry_add_late, entry_withdraw, match_pairing_change, round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _nothing_kept():
    service.kept_inputs_clear()
    yield
    service.kept_inputs_clear()


def recompute(tournament) -> str:
    """Recompute the standings; say which path ran: "full" (everything loaded) or "changes"."""
    with mock.patch.object(service, "_load", wraps=service._load) as load:
        service.standings_recompute(tournament=tournament)
    return "full" if load.called else "changes"


def changes(tournament) -> list:
    return sorted(StandingsChange.objects.filter(tournament_id=tournament.pk).values_list("match_id", flat=True),
                  key=lambda m: (m is not None, m or 0))


def saved(tournament) -> list[tuple]:
    """The saved rows and club standings, as a reader of the standings sees them."""
    rows = list(Standing.objects.filter(tournament=tournament).order_by("position").values_list(
        "team_id", "rank", "position", "played", "won", "drawn", "lost", "match_points", "games_won", "games_lost",
        "points_for", "points_against", "tiebreaks"))
    return rows + [StandingsSnapshot.objects.get(tournament=tournament).clubs]


def fresh(tournament) -> list[tuple]:
    """The rows and club standings computed from scratch, read through the ORM (not the service's loading)."""
    tournament.refresh_from_db()
    pts = service.points_settings(tournament)
    rounds = set(tournament.round_set.values_list("number", flat=True))
    present, results = {}, []
    for m in Match.objects.filter(round__tournament=tournament).select_related("round"):
        n = m.round.number
        for team in (m.ns_id, m.ew_id):
            present.setdefault(team, set()).add(n)
        if m.ew_id is None:
            results.append(MatchRecord(n, m.ns_id, None, "B", pts.points_bye))
        elif m.status == Match.Status.FINISHED and m.winner in ("ns", "ew", "draw"):
            mp = {"ns": (pts.points_win, 0), "ew": (0, pts.points_win), "draw": (pts.points_draw,) * 2}[m.winner]
            out = {"ns": ("W", "L"), "ew": ("L", "W"), "draw": ("D", "D")}[m.winner]
            results.append(MatchRecord(n, m.ns_id, m.ew_id, out[0], mp[0], m.games_won_ns, m.games_won_ew,
                                       m.points_ns, m.points_ew))
            results.append(MatchRecord(n, m.ew_id, m.ns_id, out[1], mp[1], m.games_won_ew, m.games_won_ns,
                                       m.points_ew, m.points_ns))
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team"))
    teams = [TeamInfo(e.team_id, e.team.club_id, e.seed, frozenset(rounds - present.get(e.team_id, set())),
                      e.withdrawn) for e in entries]
    rows = compute_standings(teams, results, metrics=service.tournament_metrics(tournament), settings=pts)
    clubs = club_standings(rows, {e.team_id: e.team.club_id for e in entries}, pts)
    return [(r.team, r.rank, r.position, r.played, r.won, r.drawn, r.lost, r.match_points, r.games_won,
             r.games_lost, r.points_for, r.points_against, r.tiebreaks) for r in rows] + [
        [{"club": c.club, "rank": c.rank, "teams": c.teams, "percentage": c.percentage} for c in clubs]]


def unfinish(match) -> None:
    """Take a match's result back (every hand deleted): no games, no winner."""
    Game.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SCHEDULED, winner="", games_won_ns=0,
                                             games_won_ew=0, points_ns=0, points_ew=0)


# --- the change rows the triggers write ---------------------------------------------------------

def test_a_changed_result_records_its_match_and_nothing_else_does():
    tournament, teams = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    StandingsChange.objects.all().delete()
    match = rnd.matches.order_by("table").first()
    Match.objects.filter(pk=match.pk).update(table=9, explanation="moved to table 9")  # no result: no row
    assert changes(tournament) == []
    finish(match)
    assert changes(tournament) == [match.pk]
    Match.objects.filter(pk=match.pk).update(points_ns=150)  # a bulk update, past the services: recorded too
    assert changes(tournament) == [match.pk, match.pk]
    pk = match.pk
    match.delete()
    assert changes(tournament) == [pk] * 3
    other, _ = make_tournament(2)
    assert changes(other) == [None, None]  # its two entries, none of the first tournament's matches


@pytest.mark.parametrize("change", ["round", "entry", "withdrawal", "club", "late entry"])
def test_a_round_an_entry_or_a_club_records_a_full_reload(change):
    tournament, teams = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    StandingsChange.objects.all().delete()
    if change == "round":
        round_pair(tournament=tournament)
    elif change == "entry":
        Entry.objects.filter(tournament=tournament, team=teams[0]).update(seed=40)
    elif change == "withdrawal":
        entry_withdraw(entry=Entry.objects.get(tournament=tournament, team=teams[1]))
    elif change == "club":
        teams[2].club = ClubFactory()
        teams[2].save()
    else:
        entry_add_late(tournament=tournament, team=TeamFactory())
    assert None in changes(tournament)


def test_a_deleted_tournament_leaves_no_change_rows():
    tournament, _ = make_tournament(4)
    finish_round(round_pair(tournament=tournament))
    assert changes(tournament)
    pk = tournament.pk
    Tournament.objects.filter(pk=pk).delete()
    assert not StandingsChange.objects.filter(tournament_id=pk).exists()


# --- the recompute from the changed matches ------------------------------------------------------

def test_after_one_more_result_only_the_changed_match_is_read(django_assert_max_num_queries):
    tournament, _ = make_tournament(8)
    finish_round(round_pair(tournament=tournament))
    rnd = round_pair(tournament=tournament)
    assert recompute(tournament) == "full"
    for match in rnd.matches.order_by("table"):
        finish(match, "ew")
        # lock, snapshot, changes taken, the changed match, the snapshot saved and the rows that moved
        with django_assert_max_num_queries(8):
            assert recompute(tournament) == "changes"
        assert saved(tournament) == fresh(tournament)
    assert not StandingsChange.objects.filter(tournament_id=tournament.pk).exists()


def test_random_changes_give_the_rows_of_a_full_load():
    """Results entered, corrected, taken back, rounds paired, teams withdrawn: after each, the same rows."""
    rng = random.Random(7)
    tournament, teams = make_tournament(9, tiebreaks=["match_points", "buchholz_cut1", "sonneborn_berger",
                                                      "progressive", "direct_encounter"])
    round_pair(tournament=tournament)
    assert recompute(tournament) == "full"
    full_loads = 0
    for step in range(40):
        current = Round.objects.filter(tournament=tournament).order_by("-number").first()
        played = list(current.matches.exclude(ew=None).order_by("table"))
        unfinished = [m for m in played if m.status != Match.Status.FINISHED]
        if not unfinished and current.number < tournament.rounds:
            round_pair(tournament=tournament)
            expect_full = True
        elif step % 11 == 10:
            entry_withdraw(entry=Entry.objects.filter(tournament=tournament, withdrawn=False).order_by("?").first())
            expect_full = True
        else:
            match = rng.choice(played)
            if match.status == Match.Status.FINISHED and rng.random() < 0.4:
                unfinish(match)
            else:
                unfinish(match)
                match.refresh_from_db()
                finish(match, rng.choice(["ns", "ew", "draw"]),
                       totals={1: (rng.randint(101, 130), rng.randint(0, 100))})
            expect_full = False
        path = recompute(tournament)
        assert path == ("full" if expect_full else "changes"), step
        full_loads += path == "full"
        assert saved(tournament) == fresh(tournament), step
    assert full_loads < 15


def test_changed_points_or_metrics_reload():
    tournament, _ = make_tournament(6)
    finish_round(round_pair(tournament=tournament))
    assert recompute(tournament) == "full"
    assert recompute(tournament) == "changes"  # nothing changed
    Tournament.objects.filter(pk=tournament.pk).update(points_win=3, tiebreaks=["match_points", "buchholz"])
    tournament.refresh_from_db()
    assert recompute(tournament) == "full"
    assert saved(tournament) == fresh(tournament)
    assert Standing.objects.filter(tournament=tournament, match_points=3).count() == 3


def test_another_processs_recompute_makes_the_kept_inputs_stale():
    tournament, _ = make_tournament(6)
    rnd = round_pair(tournament=tournament)
    assert recompute(tournament) == "full"
    mine = service._take_kept(tournament.pk)  # this process's inputs; another process recomputes meanwhile
    finish(rnd.matches.order_by("table").first())
    assert recompute(tournament) == "full"
    service._KEPT[tournament.pk] = mine  # back to this process, whose inputs miss that result
    finish(rnd.matches.order_by("table")[1])
    assert recompute(tournament) == "full"
    assert saved(tournament) == fresh(tournament)


def test_a_failed_recompute_keeps_nothing_half_applied():
    tournament, _ = make_tournament(6)
    rnd = round_pair(tournament=tournament)
    assert recompute(tournament) == "full"
    matches = list(rnd.matches.order_by("table"))
    finish(matches[0])
    with mock.patch.object(service, "club_standings", side_effect=RuntimeError("worker lost")):
        with pytest.raises(RuntimeError):
            service.standings_recompute(tournament=tournament)
    assert changes(tournament) == [matches[0].pk]  # rolled back with the recompute: still to be read
    finish(matches[1])
    assert recompute(tournament) == "full"
    assert saved(tournament) == fresh(tournament)
    assert Standing.objects.filter(tournament=tournament, won=1).count() == 2


def test_a_changed_pairing_reloads():
    """A team taken out of the round by a changed pairing is absent from it: only a full load knows."""
    tournament, teams = make_tournament(4)
    rnd = round_pair(tournament=tournament)
    late = entry_add_late(tournament=tournament, team=TeamFactory())
    assert recompute(tournament) == "full"
    match = rnd.matches.order_by("table").first()
    dropped = match.ns_id
    match_pairing_change(match=match, ns=late.team, ew=match.ew)
    assert changes(tournament) == [match.pk]
    assert recompute(tournament) == "full"
    assert saved(tournament) == fresh(tournament)
    assert Standing.objects.get(tournament=tournament, team_id=dropped).tiebreaks["buchholz"] == 0
    finish(rnd.matches.order_by("table")[1])
    assert recompute(tournament) == "changes"
    assert saved(tournament) == fresh(tournament)


@pytest.mark.parametrize("write", ["delete", "update"])
def test_rows_written_by_someone_else_are_read_again(write):
    tournament, _ = make_tournament(6)
    rnd = round_pair(tournament=tournament)
    finish(rnd.matches.order_by("table").first())
    assert recompute(tournament) == "full"
    assert recompute(tournament) == "changes"
    rows = Standing.objects.filter(tournament=tournament)
    if write == "delete":
        rows.delete()
    else:
        rows.update(match_points=99, tiebreaks={})
    assert StandingsSnapshot.objects.get(tournament=tournament).generation == ""
    assert recompute(tournament) == "full"
    assert saved(tournament) == fresh(tournament)
    assert recompute(tournament) == "changes"

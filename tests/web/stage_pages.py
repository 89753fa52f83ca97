"""Events with stages for the pages' tests and screenshots: a knockout drawn by the stages' pure ``bracket`` and
played round by round in the database (the better seed wins 2-1), alone or after a first stage.

The rounds are written as rows (``Round``, ``Match``) the way the knockout keeps them (round 1 table t holds
slots 2t - 1 and 2t; the winners of tables 2t - 1 and 2t meet at table t), so the pages read them as they
would read a knockout the services played.
"""

from __future__ import annotations

from tests.factories import ClubFactory, EntryFactory, TeamFactory, TournamentFactory
from tournaments.models import Match, Round, Stage
from tournaments.pairing.knockout import next_round, rounds_needed
from tournaments.pairing.types import reasons_kept
from tournaments.stages import bracket, third_place_pairing

CLUBS = ["De Zwarte Kat", "Café Sport", "'t Hoekske", "De Valk", "Kon. Manilleclub Roeselare"]


def teams_for(tournament, n: int, *, prefix: str = "Ploeg") -> list[int]:
    clubs = [ClubFactory(name=f"{c} {tournament.pk}", city="Roeselare") for c in CLUBS]
    ids = []
    for i in range(n):
        team = TeamFactory(name=f"{prefix} {i + 1:02d} {CLUBS[i % len(CLUBS)].split()[-1]}", club=clubs[i % len(clubs)])
        EntryFactory(tournament=tournament, team=team, seed=i + 1)
        ids.append(team.pk)
    return ids


def play_knockout(tournament, stage: Stage, seeds: list[int], *, decided: int, third_place: bool = False,
                  playing: int = 0) -> None:
    """Draw the knockout of ``seeds`` into ``stage`` and decide its first ``decided`` rounds (the next round is
    paired; ``playing`` of its tables are being played, 1-1)."""
    drawn = bracket(seeds, third_place=third_place)
    rounds = rounds_needed(len(seeds))
    pairings = drawn.first_round
    semi_losers = []
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(tournament=tournament, stage=stage, number=number)
        winners = {}
        for i, p in enumerate(pairings):
            match = Match(round=rnd, table=p.table, ns_id=p.ns, ew_id=p.ew, why=reasons_kept(p.why))
            if p.ew is None:
                match.status, match.winner = Match.Status.FINISHED, "ns"
            elif number <= decided:
                match.status, match.winner, match.games_won_ns, match.games_won_ew = Match.Status.FINISHED, "ns", 2, 1
                if number == rounds - 1:
                    semi_losers.append(p.ew)
            elif i < playing:
                match.status, match.games_won_ns, match.games_won_ew = Match.Status.PLAYING, 1, 1
            match.save()
            winners[p.table] = p.ns
        if number == rounds and third_place and len(semi_losers) == 2:
            tp = third_place_pairing(*semi_losers, semi_final_round=rounds - 1)
            Match(round=rnd, table=tp.table, ns_id=tp.ns, ew_id=tp.ew, why=reasons_kept(tp.why),
                  status=Match.Status.FINISHED if decided >= rounds else Match.Status.SCHEDULED,
                  winner="ns" if decided >= rounds else "", games_won_ns=2 if decided >= rounds else 0,
                  games_won_ew=1 if decided >= rounds else 0).save()
        if number > decided or number == rounds:
            break
        pairings = next_round(winners, number)
        if third_place and number + 1 == rounds:
            pairings = [p for p in pairings if p.table == 1]


def knockout_event(n: int, *, decided: int = 0, name: str = "Beker van Roeselare", slug: str = "beker",
                   third_place: bool = False, playing: int = 0):
    """A one-stage knockout event of ``n`` teams, its first ``decided`` rounds played."""
    tournament = TournamentFactory(name=name, slug=slug, format="knockout", rounds=rounds_needed(n), best_of=3,
                                   status="running")
    seeds = teams_for(tournament, n)
    play_knockout(tournament, tournament.stages.get(number=1), seeds, decided=decided, third_place=third_place,
                  playing=playing)
    return tournament


def pools_then_knockout(*, teams: int = 20, pools: int = 5, knockout: int = 8, decided: int = 1,
                        name: str = "Roeselare duo", slug: str = "roeselare", knockout_started: bool = True):
    """A "pools, then a knockout" event: stage 1 (pools, closed), stage 2 a knockout of the first ``knockout``
    (running, its first ``decided`` rounds played)."""
    tournament = TournamentFactory(name=name, slug=slug, format="round_robin", rounds=3, best_of=3, status="running")
    ids = teams_for(tournament, teams)
    Stage.objects.filter(tournament=tournament, number=1).update(
        format="pools", pools=pools, rule="pools", rule_per_pool=1, rule_best_next=knockout - pools,
        status="closed" if knockout_started else "running")
    stage = Stage.objects.create(tournament=tournament, number=2, format="knockout",
                                 rounds=rounds_needed(knockout), best_of=3,
                                 status="running" if knockout_started else "pending")
    if knockout_started:
        play_knockout(tournament, stage, ids[:knockout], decided=decided, third_place=True)
    return tournament


def roeselare_event(*, teams: int = 60, pools: int = 15, per_pool: int = 1, best_next: int = 1,
                    knockout_rounds_played: int = 0, close_pools: bool = True, start_knockout: bool = True,
                    pools_rounds_played: int | None = None, name: str = "Roeselare duo", slug: str = "roeselare",
                    third_place: bool = False):
    """The Roeselare duo championship through the services: ``teams`` pairs in ``pools`` pools (a round robin
    each), the pool winners and the best runner-up to a knockout; the stronger seed always wins."""
    from tests.factories import UserFactory
    from tests.tournaments.test_rounds_service import finish_round
    from tournaments.services.rounds import round_pair
    from tournaments.services.stages import stage_add, stage_close, stage_start, stage_update
    from tournaments.services.standings import standings_recompute

    tournament = TournamentFactory(name=name, slug=slug, format="pools", rounds=3, best_of=3)
    ids = teams_for(tournament, teams)
    user = UserFactory()
    tournament.organizers.add(user)
    stage_update(tournament=tournament, number=1, user=user, pools=pools)
    field = per_pool * pools + best_next
    stage_add(tournament=tournament, user=user, format="knockout", rounds=rounds_needed(field), best_of=3,
              third_place=third_place, previous_qualification={"kind": "pools", "per_pool": per_pool, "best_next": best_next})
    rank = {t: i for i, t in enumerate(ids)}

    def pick(m):
        return "ns" if rank[m.ns_id] < rank[m.ew_id] else "ew"

    played = 3 if pools_rounds_played is None else pools_rounds_played
    for _ in range(played):
        finish_round(round_pair(tournament=tournament), pick)
    standings_recompute(tournament=tournament)
    if played < 3 or not close_pools:
        return tournament
    stage_close(tournament=tournament, number=1, user=user)
    if not start_knockout:
        standings_recompute(tournament=tournament)
        return tournament
    stage_start(tournament=tournament, number=2, user=user)
    round_pair(tournament=tournament)  # the knockout's first round; the next fill in as the one before finishes
    for _ in range(knockout_rounds_played):
        rnd = Round.objects.filter(tournament=tournament, stage__number=2).order_by("-number").first()
        finish_round(rnd, pick)
    standings_recompute(tournament=tournament)
    return tournament

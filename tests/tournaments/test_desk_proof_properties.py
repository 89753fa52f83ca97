"""The director's desk and the opponents' confirmation together, as a property: after any sequence of hand entries,
corrections and deletions, confirmations, disputes, settlements and paper confirmations, forfeits, withdrawals (from a
match and from the event), adjusted results, penalties, deductions, reversals and changes of the confirmation
settings, in a team event and in an individual event, with the confirmation on or off and unconfirmed results
counted or waited for:

* each match's result is what the one result function gives from scratch (its games and its active actions);
* the standings kept after every step (incrementally where the path can) are a recomputation from scratch;
* the next draw's inputs (the team Swiss's scores, positions, byes and meetings; the individual Swiss's scores) are
  those the stored standings show, and a forfeit is no meeting (``rounds.swiss_states``).
"""

import itertools
import os

import pytest
import scoring
from django.core.cache import cache
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings, strategies as st

from tests.factories import UserFactory
from tests.fuzz import examples
from tests.individual import make_individual
from tests.tournaments.test_rounds_service import make_tournament
from tournaments.models import DirectorAction, Entry, Game, Hand, Match, RoundSeat, Standing, Stage, Tournament
from tournaments.services.confirmation import (
    acting, personal_codes, result_confirm, result_confirm_on_paper, result_dispute, result_settle,
    results_auto_confirm,
)
from tournaments.services.desk import desk_action_revert, desk_action_take, match_directives
from tournaments.services.draws import draw_inputs
from tournaments.services.errors import ServiceError
from tournaments.services.games import MATCH_RESULT_FIELDS, hand_next, match_games, match_result_apply
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter
from tournaments.services.rounds import round_pair, swiss_states
from tournaments.services.standings import kept_inputs_clear, standings_recompute

# An empty cache: the wrong codes' windows.
pytestmark = pytest.mark.usefixtures("clear_cache")

SIDES = st.sampled_from(["ns", "ew"])
POINTS = st.sampled_from([0, 10, 20, 30, 40, 50, 60])
TABLE = st.integers(0, 1)
SEAT = st.integers(0, 3)
WHO = st.sampled_from(["phone", "director"])  # a hand's change: from the table's phone, or by a director
COMMON = [
    st.tuples(st.just("hand"), TABLE, POINTS),
    st.tuples(st.just("hand"), TABLE, POINTS),
    st.tuples(st.just("game"), TABLE, SIDES),
    st.tuples(st.just("finish"), TABLE, SIDES),
    st.tuples(st.just("finish"), TABLE, SIDES),
    st.tuples(st.just("correct"), TABLE, st.integers(0, 30), POINTS, WHO),
    st.tuples(st.just("delete"), TABLE, WHO),
    st.tuples(st.just("confirm"), TABLE, SEAT),
    st.tuples(st.just("confirm"), TABLE, SEAT),
    st.tuples(st.just("dispute"), TABLE, SEAT),
    st.tuples(st.just("settle"), TABLE),
    st.tuples(st.just("paper"), TABLE),
    st.tuples(st.just("auto"),),
    st.tuples(st.just("mode"), st.sampled_from(["off", "opponents"]), st.sampled_from(["count", "wait"])),
    st.tuples(st.just("deduction"), st.integers(0, 7), st.sampled_from(["match_points", "points_for"]),
              st.integers(1, 3)),
    st.tuples(st.just("withdrawal_event"), st.integers(0, 7)),
    st.tuples(st.just("revert"), st.integers(0, 30)),
    st.tuples(st.just("revert"), st.integers(0, 30)),
]
TEAM_STEPS = st.one_of(*COMMON, *[
    st.tuples(st.just("forfeit"), TABLE, st.sampled_from(["ns", "ew", "both"])),
    st.tuples(st.just("withdrawal"), TABLE, SIDES),
    st.tuples(st.just("withdrawal"), TABLE, SIDES),
    st.tuples(st.just("adjusted"), TABLE, st.integers(0, 2), st.integers(0, 2), st.integers(0, 300),
              st.integers(0, 300), st.sampled_from(["ns", "ew", "draw"])),
    st.tuples(st.just("penalty"), TABLE, SIDES, st.integers(1, 200)),
])
INDIVIDUAL_STEPS = st.one_of(*COMMON, *[
    st.tuples(st.just("forfeit"), TABLE, st.sets(SEAT, min_size=1, max_size=3)),
    st.tuples(st.just("withdrawal"), TABLE, SEAT),
    st.tuples(st.just("withdrawal"), TABLE, SEAT),
    st.tuples(st.just("adjusted"), TABLE, st.integers(0, 2), st.integers(0, 2), st.integers(0, 300),
              st.integers(0, 300), st.sampled_from(["ns", "ew", "draw"])),
    st.tuples(st.just("penalty"), TABLE, SEAT, st.integers(1, 200)),
])
#: Where the random steps start from: nothing played, a table finished (its result waits for the other side), a
#: table in play (a withdrawal's target), or both.
PRELUDES = st.sampled_from([(), (("finish", 0, "ns"),), (("hand", 1, 40),),
                            (("finish", 0, "ew"), ("hand", 1, 20)), (("finish", 0, "ns"), ("finish", 1, "ew"))])
CONFIRMATION = st.sampled_from(["opponents", "opponents", "off"])
#: A deeper run: ``DESK_PROOF_EXAMPLES=300 pytest tests/tournaments/test_desk_proof_properties.py`` (or FUZZ_SCALE,
#: which scales every long property's budget: tests/fuzz.py).
PROPERTY = settings(max_examples=int(os.environ.get("DESK_PROOF_EXAMPLES") or examples(15)), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


_SLUGS = itertools.count()  # the examples share the test's transaction: each its own event


def _summary(dealer, ns):
    tricks = (8, 0) if ns == 60 else (0, 8) if ns == 0 else (5, 3) if ns > 30 else (3, 5)
    return {"dealer": dealer, "trump": "H", "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns, "ew": 60 - ns}}


class World:
    """An event under way: its first round's two tables, its entries, each table's players by seat, a director."""

    def __init__(self, tournament: Tournament, director):
        self.tournament, self.director = tournament, director
        self.matches = list(Match.objects.filter(round__tournament=tournament, ew__isnull=False)
                            .order_by("table").values_list("pk", flat=True)) if not tournament.is_individual else \
            list(Match.objects.filter(round__tournament=tournament).order_by("table").values_list("pk", flat=True))
        self.entries = list(Entry.objects.filter(tournament=tournament).order_by("seed", "start_number", "id"))
        self.seated: dict[int, list[int]] = {}
        for match in Match.objects.filter(pk__in=self.matches).select_related("ns", "ew"):
            if tournament.is_individual:
                seats = dict(RoundSeat.objects.filter(match=match).values_list("seat", "player_id"))
                self.seated[match.pk] = [seats[s] for s in "NSEW"]
            else:
                self.seated[match.pk] = [match.ns.player_1_id, match.ns.player_2_id, match.ew.player_1_id,
                                         match.ew.player_2_id]
        self.codes = personal_codes(tournament, [p for players in self.seated.values() for p in players])

    def match(self, table: int) -> Match:
        return Match.objects.select_related("round__tournament").get(pk=self.matches[table])


def _desk(world: World, step) -> None:
    kind, tournament = step[0], world.tournament
    if kind in ("deduction", "withdrawal_event"):
        params = {"metric": step[2], "amount": step[3]} if kind == "deduction" else {}
        desk_action_take(tournament=tournament, entry=world.entries[step[1] % len(world.entries)], kind=kind,
                         reason="property", params=params, user=world.director)
        return
    if kind == "revert":
        active = list(DirectorAction.objects.filter(tournament=tournament, reverted_at__isnull=True).order_by("id"))
        if active:
            desk_action_revert(action=active[step[1] % len(active)], reason="property", user=world.director)
        return
    match = world.match(step[1])
    seated = world.seated[match.pk]
    if tournament.is_individual and kind == "forfeit":
        params = {"players": [seated[i] for i in sorted(step[2])]}
    elif tournament.is_individual and kind in ("withdrawal", "penalty"):
        params = {"player": seated[step[2]], **({"points": step[3]} if kind == "penalty" else {})}
    else:
        names = {"forfeit": ("absent",), "withdrawal": ("side",), "penalty": ("side", "points"),
                 "adjusted": ("games_won_ns", "games_won_ew", "points_ns", "points_ew", "winner")}[kind]
        params = dict(zip(names, step[2:]))
    desk_action_take(tournament=tournament, match=match, kind=kind, reason="property", params=params,
                     user=world.director)


def _hand(match: Match, ns: int) -> None:
    games, played = match_games(match)
    last = Hand.objects.filter(game__match=match).order_by("-game__number", "-number").first()
    nxt = hand_next(match=match, games=games, played=played, last_dealer=last.dealer if last else "")
    with acting(device="table-phone"):
        hand_enter(match=match, data=_summary(nxt.dealer or "N", ns))


def _step(world: World, step) -> None:
    kind, tournament = step[0], world.tournament
    if kind == "hand":
        _hand(world.match(step[1]), step[2])
    elif kind in ("game", "finish"):  # hands won by one side until a game (the match) ends
        number = Game.objects.filter(match_id=world.matches[step[1]]).count()
        for _ in range(30):
            if world.match(step[1]).status == Match.Status.FINISHED:
                break
            _hand(world.match(step[1]), 60 if step[2] == "ns" else 0)
            game = Game.objects.filter(match_id=world.matches[step[1]]).order_by("-number").first()
            if kind == "game" and game.number > number and game.status == Game.Status.FINISHED:
                break
    elif kind == "correct":
        hands = list(Hand.objects.filter(game__match_id=world.matches[step[1]]).order_by("game__number", "number"))
        if hands:
            user = world.director if step[4] == "director" else None
            with acting(device="table-phone"):
                hand_correct(hand=hands[step[2] % len(hands)], user=user, reason="typo",
                             data={"points": {"ns": step[3], "ew": 60 - step[3]},
                                   "tricks": _summary("N", step[3])["tricks"]})
    elif kind == "delete":
        game = Game.objects.filter(match_id=world.matches[step[1]]).order_by("-number").first()
        hand = game.hands.order_by("-number").first() if game else None
        if hand is not None:
            with acting(device="table-phone"):
                hand_delete_last(hand=hand, user=world.director if step[2] == "director" else None, reason="typo")
    elif kind in ("confirm", "dispute"):
        match_id = world.matches[step[1]]
        player = world.seated[match_id][step[2]]
        extra = {"reason": "they miscounted"} if kind == "dispute" else {}
        with acting(device=f"phone-{player}"):
            (result_confirm if kind == "confirm" else result_dispute)(
                match_id=match_id, player_id=player, code=world.codes[player],
                table_code=world.match(step[1]).table_code, **extra)
    elif kind == "settle":
        result_settle(match_id=world.matches[step[1]], user=world.director, reason="seen the score sheet")
    elif kind == "paper":
        result_confirm_on_paper(match_id=world.matches[step[1]], user=world.director, reason="paper slip")
    elif kind == "auto":
        results_auto_confirm(now=timezone.now() + timezone.timedelta(hours=1))
    elif kind == "mode":
        Tournament.objects.filter(pk=tournament.pk).update(confirmation=step[1], unconfirmed=step[2])
        tournament.refresh_from_db()
    else:
        _desk(world, step)


def _team_standings(tournament):
    return sorted(Standing.objects.filter(tournament=tournament).values_list(
        "team_id", "player_id", "rank", "position", "played", "won", "drawn", "lost", "match_points", "games_won",
        "games_lost", "points_for", "points_against", "forfeits_won", "forfeits_lost", "withdrawn",
        "tiebreaks"))


def _results_from_scratch(world: World) -> None:
    for match in Match.objects.filter(round__tournament=world.tournament).select_related("round__tournament"):
        assert match.directives == match_directives(match.pk)
        fresh = Match.objects.select_related("round__tournament").get(pk=match.pk)
        match_result_apply(fresh)
        assert [getattr(fresh, f) for f in MATCH_RESULT_FIELDS] == [getattr(match, f) for f in MATCH_RESULT_FIELDS]


def _team_pairing_inputs_agree(tournament) -> None:
    """The Swiss draw's inputs (ranked from the results when it runs) are what the stored standings show."""
    stage = Stage.objects.get(tournament=tournament, number=1)
    states = swiss_states(tournament, stage)
    stored = dict(Standing.objects.filter(tournament=tournament).values_list("team_id", "match_points"))
    positions = dict(Standing.objects.filter(tournament=tournament).values_list("team_id", "position"))
    active = set(Entry.objects.filter(tournament=tournament, withdrawn=False).values_list("team_id", flat=True))
    assert {s.id for s in states} == active
    for state in states:
        assert (state.score, state.rank) == (stored[state.id], positions[state.id])
    met = {frozenset((ns, ew)) for ns, ew, forfeit, status in Match.objects.filter(
        round__tournament=tournament, ew__isnull=False).values_list("ns_id", "ew_id", "forfeit", "status")
        if not (forfeit and status == Match.Status.FINISHED)}
    for state in states:
        for other in state.opponents:
            assert frozenset((state.id, other)) in met  # a forfeit is no meeting


def _individual_pairing_inputs_agree(tournament) -> None:
    """The individual Swiss draw's scores are what the stored standings show."""
    inputs, _changes = draw_inputs(tournament, 2, "seed")
    number_of = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "start_number"))
    stored = {number_of[p]: (mp, g, pf) for p, mp, g, pf in Standing.objects.filter(tournament=tournament)
              .values_list("player_id", "match_points", "games_won", "points_for")}
    assert {n: (mp, g, pf) for n, mp, g, pf in inputs.scores} == stored


def _run(world: World, steps) -> None:
    tournament = world.tournament
    standings_recompute(tournament=tournament)
    for step in steps:
        try:
            _step(world, step)
            event(f"done: {step[0]}")
        except (ServiceError, scoring.RuleViolation, Match.DoesNotExist) as error:
            # refused: nothing changed (checked below like everything else)
            event(f"refused: {step[0]} ({getattr(error, 'code', type(error).__name__)})")
        tournament.refresh_from_db()
        standings_recompute(tournament=tournament)  # kept up to date, incrementally where it can
    _results_from_scratch(world)
    kept = _team_standings(tournament)
    kept_inputs_clear()
    standings_recompute(tournament=tournament)
    assert _team_standings(tournament) == kept


@pytest.mark.django_db
@PROPERTY
@given(prelude=PRELUDES, steps=st.lists(TEAM_STEPS, min_size=1, max_size=20), confirmation=CONFIRMATION,
       unconfirmed=st.sampled_from(["count", "wait"]), best_of=st.sampled_from([1, 1, 3]))
def test_a_team_events_results_standings_and_draw_inputs_equal_a_recomputation(prelude, steps, confirmation,
                                                                               unconfirmed, best_of):
    cache.clear()
    tournament, _teams = make_tournament(4, best_of=best_of, confirmation=confirmation, unconfirmed=unconfirmed,
                                         auto_confirm_minutes=5)
    round_pair(tournament=tournament)
    world = World(tournament, UserFactory())
    tournament.directors.add(world.director)
    _run(world, [*prelude, *steps])
    _team_pairing_inputs_agree(tournament)


@pytest.mark.django_db
@PROPERTY
@given(prelude=PRELUDES, steps=st.lists(INDIVIDUAL_STEPS, min_size=1, max_size=20), confirmation=CONFIRMATION,
       unconfirmed=st.sampled_from(["count", "wait"]), sit_out=st.sampled_from(["nothing", "mean"]),
       best_of=st.sampled_from([1, 1, 3]))
def test_an_individual_events_results_standings_and_draw_inputs_equal_a_recomputation(prelude, steps, confirmation,
                                                                                       unconfirmed, sit_out, best_of):
    cache.clear()
    tournament = make_individual(9, clubless=1, minutes=None, format="swiss", slug=f"proof-{next(_SLUGS)}")
    Tournament.objects.filter(pk=tournament.pk).update(confirmation=confirmation, unconfirmed=unconfirmed,
                                                       auto_confirm_minutes=5, sit_out_score=sit_out,
                                                       best_of=best_of)
    tournament.refresh_from_db()
    world = World(tournament, UserFactory())
    tournament.directors.add(world.director)
    _run(world, [*prelude, *steps])
    _individual_pairing_inputs_agree(tournament)

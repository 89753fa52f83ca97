"""The demo command: what it loads, that every score is the engine's, and that a second run changes nothing.

The demo is loaded once for the module (tests/shared_data.py); a load into a database without it, over an admin of
one's own, is tests/tournaments/test_load_demo_admin.py's."""

from io import StringIO

import pytest
import scoring
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.shared_data import shared_data
from tournaments.models import Club, Entry, Game, Hand, Match, Player, Round, RoundSeat, Standing, Team, Tournament
from tournaments.services.hand_data import engine_hands, game_settings

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CLOCKWISE = "NESW"


def load(*args) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict:
    return {model.__name__: model.objects.count()
            for model in (Club, Player, Team, Tournament, Entry, Round, Match, Game, Hand)}


@pytest.fixture(scope="module")
def _demo_once(django_db_setup, django_db_blocker):
    """The demo loaded once for the module's tests (10 to 20 s a load), each test in a savepoint over it."""
    with shared_data(django_db_blocker, load) as out:
        yield out


@pytest.fixture
def demo(_demo_once, db):
    """load_demo's output; the database holds the demo, as that load left it (what a test changes is rolled back)."""
    return _demo_once


def test_loads_clubs_players_teams_and_users(demo):
    loaded = counts()
    assert {name: loaded[name] for name in ("Club", "Player", "Team", "Tournament", "Entry", "Round", "Match")} == {
        "Club": 5, "Player": 46, "Team": 20, "Tournament": 5, "Entry": 58, "Round": 9, "Match": 49}
    assert loaded["Hand"] > 100
    assert set(Club.objects.values_list("name", "city")) >= {("De Zwarte Kat", "Gent"),
                                                             ("Café Sportwereld", "Aalst")}
    users = get_user_model().objects
    admin = users.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin")
    for username in ("organizer", "scorekeeper"):
        assert users.get(username=username).check_password(username)
        assert f"'{username}' with password '{username}'" in demo
    assert "for local use only" in demo
    assert "Gentse Beker" in demo and "Copa Malilla" in demo and "Aalsterse Avond" in demo
    assert "Kaarting De Zwarte Kat" in demo and "/t/kaarting-zwarte-kat/seat/" in demo
    assert "Roeselaarse Duo" in demo
    assert "in progress" in demo and "won by" in demo


def test_belgian_round_one_is_played_to_the_end_hand_by_hand(demo):
    cup = Tournament.objects.get(slug="gentse-beker")
    assert (cup.variant, cup.format, cup.rounds, cup.effective_best_of, cup.public) == (
        "belgian-manille", "swiss", 5, 3, True)
    entries = list(cup.entries.order_by("seed"))
    assert [e.seed for e in entries] == list(range(1, 9))
    matches = list(Match.objects.filter(round__tournament=cup, round__number=1).order_by("table"))
    seed = {e.team_id: e.seed for e in entries}
    assert [(seed[m.ns_id], seed[m.ew_id]) for m in matches] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    results = set()
    for match in matches:
        assert match.status == Match.Status.FINISHED
        assert match.winner in ("ns", "ew")
        won = {"ns": match.games_won_ns, "ew": match.games_won_ew}
        assert won[match.winner] == 2
        results.add(tuple(sorted(won.values())))
        for game in match.games.all():
            assert game.status == Game.Status.FINISHED
            assert max(game.total_ns, game.total_ew) >= 101
            assert game.totals[game.winner] >= 101
    assert results == {(0, 2), (1, 2)}, "the round has a 2–0 and a 2–1"
    assert Round.objects.get(tournament=cup, number=1).status == Round.Status.FINISHED
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING

    # Realistic hands: the deal goes round clockwise, the points add up, trumps, muul, doublings, a tie.
    hands = Hand.objects.filter(game__match__round__tournament__slug="gentse-beker")
    for game in Game.objects.filter(match__round__tournament__slug="gentse-beker"):
        rows = list(game.hands.order_by("number"))
        assert rows[0].dealer == game.first_dealer
        for before, after in zip(rows, rows[1:]):
            assert CLOCKWISE.index(after.dealer) == (CLOCKWISE.index(before.dealer) + 1) % 4
        for hand in rows:
            assert hand.points_ns + hand.points_ew == 60
            assert hand.tricks_ns + hand.tricks_ew == 8
            assert hand.trump in ("S", "H", "D", "C", "none")
            assert hand.entered_by.username == "scorekeeper"
    assert hands.filter(trump="none").exists()
    assert hands.filter(doublings__gt=0).exists()
    assert len(set(hands.values_list("trump", flat=True))) == 5
    tie = hands.filter(points_ns=30, points_ew=30).first()
    assert tie is not None and tie.score == {"ns": 0, "ew": 0}
    after_tie = hands.get(game=tie.game, number=tie.number + 1)
    assert after_tie.multiplier >= 2 or after_tie.points_ns == 30  # the pending tie doubles the next deal


def test_every_score_is_the_engines(demo):
    """Re-fold every game of the demo through the rules engine: the stored scores are exactly its answer."""
    for game in Game.objects.select_related("match__round__tournament"):
        rows = list(game.hands.order_by("number"))
        folded = scoring.fold_game(game_settings(game), engine_hands(rows))
        assert [(h.score_ns, h.score_ew, h.total_ns, h.total_ew) for h in rows] == [
            (r.score["ns"], r.score["ew"], r.totals["ns"], r.totals["ew"]) for r in folded.hands]
        assert (game.total_ns, game.total_ew) == (folded.totals["ns"], folded.totals["ew"])
        assert (game.winner or None) == folded.winner


def test_malilla_round_robin_is_under_way(demo):
    copa = Tournament.objects.get(slug="copa-malilla")
    assert (copa.variant, copa.format, copa.effective_best_of, copa.entries.count()) == (
        "mexican-malilla", "round_robin", 1, 4)
    done, playing = Match.objects.filter(round__tournament=copa, round__number=1).order_by("table")
    assert done.status == Match.Status.FINISHED and done.winner in ("ns", "ew")
    assert playing.status == Match.Status.PLAYING and playing.winner == ""
    assert Round.objects.get(tournament=copa, number=1).status == Round.Status.PLAYING
    game = playing.games.get()
    assert game.status == Game.Status.PLAYING and game.hands.count() == 3
    assert max(game.total_ns, game.total_ew) < 35
    assert game.next_dealer
    hands = Hand.objects.filter(game__match__round__tournament=copa)
    for hand in hands:
        assert hand.turned_card and hand.trump == hand.turned_card[-1]
        assert hand.points_ns + hand.points_ew == 70 and hand.tricks_ns + hand.tricks_ew == 10
    assert any(h.bonus and h.bonus["held_back"] for h in hands), "a turn-up bonus was held back"


def test_a_tournament_for_the_organizer_to_pair_from_the_workspace(demo):
    avond = Tournament.objects.get(slug="aalsterse-avond")
    assert (avond.variant, avond.format, avond.status, avond.effective_best_of, avond.public) == (
        "belgian-manille", "swiss", "draft", 1, True)
    assert not Round.objects.filter(tournament=avond).exists()
    assert avond.entries.filter(withdrawn=False).count() == 8
    assert [e.seed for e in avond.entries.order_by("seed")] == list(range(1, 9))
    assert list(avond.organizers.values_list("username", flat=True)) == ["organizer"]
    assert list(avond.scorekeepers.values_list("username", flat=True)) == ["scorekeeper"]
    assert "/my/t/aalsterse-avond/" in demo


def test_a_second_run_changes_nothing_and_says_so(demo):
    before = counts()
    stamps = sorted(Hand.objects.values_list("pk", "updated_at"))
    out = load()
    assert "nothing changed" in out
    assert counts() == before
    assert sorted(Hand.objects.values_list("pk", "updated_at")) == stamps


#: Every hand in one order: the kaarting's and the duo's tables come again in each round (and each stage).
HAND_ORDER = ("game__match__round__tournament__slug", "game__match__round__stage__number", "game__match__round__number",
              "game__match__table", "game__number", "number")


def test_reset_deletes_the_demo_and_loads_it_again(demo):
    before = counts()
    old_hands = set(Hand.objects.values_list("pk", flat=True))
    scores = list(Hand.objects.order_by(*HAND_ORDER).values_list("score_ns", "score_ew"))
    out = load("--reset")
    assert "nothing changed" not in out
    assert counts() == before
    assert not old_hands & set(Hand.objects.values_list("pk", flat=True))
    assert not Hand.history.filter(id__in=old_hands).exists()
    # Seeded: the same deals, so the same scores.
    assert list(Hand.objects.order_by(*HAND_ORDER).values_list("score_ns", "score_ew")) == scores
    assert get_user_model().objects.filter(username="admin").count() == 1


def test_an_individual_kaarting_of_22_players_with_three_rounds_drawn(demo, client):
    kaarting = Tournament.objects.get(slug="kaarting-zwarte-kat")
    assert (kaarting.entry, kaarting.format, kaarting.match_length, kaarting.minutes, kaarting.rounds) == (
        "individual", "tables", "timed", 30, 3)
    entries = Entry.objects.filter(tournament=kaarting).select_related("player__club")
    assert sorted(e.start_number for e in entries) == list(range(1, 23))
    assert sum(1 for e in entries if e.player.club is None) == 2
    assert len({e.player.club.name for e in entries if e.player.club}) == 3
    rounds = list(Round.objects.filter(tournament=kaarting).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3] and all(r.seed for r in rounds)
    for rnd in rounds:
        assert rnd.matches.count() == 5 and all(len(m.table_code) == 6 for m in rnd.matches.all())
        assert RoundSeat.objects.filter(round=rnd, match__isnull=True).count() == 2
    assert all(m.status == Match.Status.FINISHED for r in rounds[:2] for m in r.matches.all())
    assert rounds[2].clock_ends_at is not None and rounds[2].clock_paused_left is None  # round 3: the clock runs
    playing = rounds[2].matches.filter(status=Match.Status.PLAYING).count()
    assert playing == 3 and Hand.objects.filter(game__match__round=rounds[2]).count() == 10
    assert Standing.objects.filter(tournament=kaarting, player__isnull=False).count() == 22
    response = client.get("/t/kaarting-zwarte-kat/seat/", {"q": "jan"})
    assert response.status_code == 200 and "Table" in response.content.decode()


def test_a_duo_event_of_pools_then_a_knockout_with_its_first_round_paired(demo, client):
    from tournaments.models import Stage, StageEntrant

    duo = Tournament.objects.get(slug="roeselaarse-duo")
    stages = list(Stage.objects.filter(tournament=duo).order_by("number"))
    assert [(s.number, s.format, s.status) for s in stages] == [(1, "pools", "closed"), (2, "knockout", "running")]
    assert stages[0].pools == 4 and stages[1].third_place and stages[1].best_of == 3
    pools = StageEntrant.objects.filter(stage=stages[0]).values_list("pool", flat=True)
    assert sorted(pools) == sorted([1, 2, 3, 4] * 4)
    pools_matches = Match.objects.filter(round__stage=stages[0])
    assert pools_matches.count() == 24 and all(m.status == Match.Status.FINISHED for m in pools_matches)
    assert all(Hand.objects.filter(game__match=m).count() == 4 for m in pools_matches)  # a game of four deals
    knockout = list(Match.objects.filter(round__stage=stages[1]).order_by("round__number", "table"))
    assert [(m.round.number, m.status) for m in knockout] == [(1, Match.Status.SCHEDULED)] * 4
    assert StageEntrant.objects.filter(stage=stages[1]).count() == 8
    page = client.get("/t/roeselaarse-duo/stages/").content.decode()
    assert 'class="bracket' in page and "Pools" in page
    assert client.get("/t/roeselaarse-duo/stages/1/").content.decode().count("pool-table") >= 4

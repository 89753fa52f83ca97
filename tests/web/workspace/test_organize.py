"""The organizer's workspace: dashboard, publish and status, exports, pairing with its progress page, permissions."""

import csv
import io
import uuid

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.conftest import enter_hands
from tournaments.models import Match, Round, TaskRecord, Tournament
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga")


@pytest.fixture
def cup(organizer):
    """A draft Swiss tournament organized by ``organizer``: eight teams of two clubs entered, no round yet."""
    tournament = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=1, public=False)
    tournament.organizers.add(organizer)
    clubs = [ClubFactory(name="De Zwarte Kat"), ClubFactory(name="Café Sportwereld")]
    for i in range(8):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}", club=clubs[i % 2]), seed=i + 1)
    return tournament


@pytest.fixture
def other(db):
    """Another organizer's tournament with a round paired."""
    tournament = TournamentFactory(name="Other Cup", slug="other-cup")
    tournament.organizers.add(UserFactory(username="other-orga"))
    for _ in range(4):
        EntryFactory(tournament=tournament)
    round_pair(tournament=tournament)
    return tournament


def signed_in(client, user):
    client.force_login(user)
    return client


def urls_of(tournament) -> list[tuple[str, str]]:
    """Every organizer URL of ``tournament`` with its method."""
    slug = tournament.slug
    rnd = Round.objects.filter(tournament=tournament).first()
    entry = tournament.entries.first()
    task = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=tournament, status="succeeded",
                                     result={"round": 1})
    urls = [("get", reverse("ws:tournament", args=[slug])), ("get", reverse("ws:entries", args=[slug])),
            ("get", reverse("ws:export-results", args=[slug])), ("get", reverse("ws:export-standings", args=[slug])),
            ("get", reverse("ws:export-entries", args=[slug])),
            ("get", reverse("ws:pair-task", args=[slug, task.id])),
            ("get", reverse("ws:pair-task-status", args=[slug, task.id])),
            ("post", reverse("ws:tournament-publish", args=[slug])),
            ("post", reverse("ws:tournament-status", args=[slug])), ("post", reverse("ws:pair", args=[slug])),
            ("post", reverse("ws:entry-add", args=[slug])), ("post", reverse("ws:entry-new-team", args=[slug])),
            ("post", reverse("ws:entry-seeds", args=[slug])),
            ("post", reverse("ws:entry-withdraw", args=[slug, entry.pk])),
            ("post", reverse("ws:entry-remove", args=[slug, entry.pk])),
            ("post", reverse("ws:forbidden-add", args=[slug]))]
    if rnd:
        urls += [("get", reverse("ws:round", args=[slug, rnd.number])),
                 ("post", reverse("ws:round-change", args=[slug, rnd.number])),
                 ("post", reverse("ws:round-publish", args=[slug, rnd.number]))]
    return urls


def test_an_organizer_of_another_tournament_gets_404_on_every_page_and_post(client, cup, other):
    signed_in(client, cup.organizers.get())
    before = (Tournament.objects.get(pk=other.pk).public, other.entries.count(), Round.objects.count())
    for method, url in urls_of(other):
        response = getattr(client, method)(url, {"public": "0", "status": "finished", "team": 1})
        assert response.status_code == 404, (method, url)
    assert (Tournament.objects.get(pk=other.pk).public, other.entries.count(), Round.objects.count()) == before


def test_a_scorekeeper_gets_404_on_the_organizer_pages(client, other):
    keeper = UserFactory(username="keeper")
    other.scorekeepers.add(keeper)
    signed_in(client, keeper)
    for method, url in urls_of(other):
        assert getattr(client, method)(url).status_code == 404, (method, url)


def test_anonymous_users_are_sent_to_sign_in(client, other):
    login = reverse("ws:login")
    for method, url in urls_of(other):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response.url.startswith(login), (method, url)
        assert "next=" in response.url


def test_unscoped_staff_may_organize_any_tournament(client, other):
    signed_in(client, UserFactory(username="boss", is_staff=True))
    assert client.get(reverse("ws:tournament", args=[other.slug])).status_code == 200


def test_the_dashboard_of_a_draft_tournament(client, cup, django_assert_max_num_queries):
    signed_in(client, cup.organizers.get())
    with django_assert_max_num_queries(12):
        response = client.get(reverse("ws:tournament", args=[cup.slug]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Aalsterse Avond" in page and "Draft" in page and "Not public" in page
    assert "8 entered" in page and "Pair round 1" in page
    assert "No round has been paired yet." in page
    assert reverse("ws:export-results", args=[cup.slug]) in page


def test_a_round_robin_says_its_rounds_from_its_teams_not_the_planned_five(client, organizer):
    """The walk-through's new round robin said "Round robin, 5 rounds" with no team entered: it plays one round per
    opponent (five teams: five rounds, a bye each; four: three), on the dashboard and the public overview."""
    tournament = TournamentFactory(slug="berger", format=Tournament.Format.ROUND_ROBIN, rounds=5, public=True)
    tournament.organizers.add(organizer)
    signed_in(client, organizer)
    dashboard, overview = reverse("ws:tournament", args=["berger"]), reverse("web:tournament", args=["berger"])
    assert "Round robin</dd>" in client.get(dashboard).content.decode()  # no rounds said before two teams
    assert "<dt>Rounds</dt>" not in client.get(overview).content.decode()
    for _ in range(4):
        EntryFactory(tournament=tournament)
    assert "Round robin, 3 rounds</dd>" in client.get(dashboard).content.decode()
    assert "<dt>Rounds</dt><dd>3</dd>" in client.get(overview).content.decode()
    EntryFactory(tournament=tournament)
    assert "Round robin, 5 rounds</dd>" in client.get(dashboard).content.decode()


def test_the_dashboard_of_a_running_tournament_lists_its_rounds_with_print_links(client, cup):
    round_pair(tournament=cup)
    signed_in(client, cup.organizers.get())
    page = client.get(reverse("ws:tournament", args=[cup.slug])).content.decode()
    assert "Running" in page and "0 of 4 tables finished" in page
    assert reverse("web:round-print", args=[cup.slug, 1]) in page
    assert reverse("web:round-sheets", args=[cup.slug, 1]) in page
    assert "Round 1 still has unfinished matches." in page


def test_publish_and_unpublish(client, cup):
    signed_in(client, cup.organizers.get())
    url = reverse("ws:tournament-publish", args=[cup.slug])
    assert client.post(url, {"public": "1"}).status_code == 302
    cup.refresh_from_db()
    assert cup.public
    client.post(url, {"public": "0"})
    cup.refresh_from_db()
    assert not cup.public


def test_start_finish_and_a_refused_move(client, cup):
    signed_in(client, cup.organizers.get())
    url = reverse("ws:tournament-status", args=[cup.slug])
    response = client.post(url, {"status": "finished"}, follow=True)
    assert "cannot go from" in response.content.decode()
    cup.refresh_from_db()
    assert cup.status == "draft"
    client.post(url, {"status": "running"})
    cup.refresh_from_db()
    assert cup.status == "running"
    client.post(url, {"status": "finished"})
    cup.refresh_from_db()
    assert cup.status == "finished"
    page = client.get(reverse("ws:tournament", args=[cup.slug])).content.decode()
    assert "The tournament is finished." in page and "Reopen" in page


def test_get_is_refused_on_the_actions(client, cup):
    signed_in(client, cup.organizers.get())
    assert client.get(reverse("ws:pair", args=[cup.slug])).status_code == 405
    assert client.get(reverse("ws:tournament-publish", args=[cup.slug])).status_code == 405


# -- pairing ---------------------------------------------------------------------------------------------------------


def test_pair_round_one_follows_the_task_to_the_round(client, cup, django_capture_on_commit_callbacks):
    signed_in(client, cup.organizers.get())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ws:pair", args=[cup.slug]))
    task = TaskRecord.objects.get(tournament=cup)
    assert response.url == reverse("ws:pair-task", args=[cup.slug, task.id])
    assert task.status == "succeeded"
    follow = client.get(response.url)
    assert follow.status_code == 302 and follow.url == reverse("ws:round", args=[cup.slug, 1])
    status = client.get(reverse("ws:pair-task-status", args=[cup.slug, task.id])).json()
    assert status["status"] == "succeeded" and status["round_url"] == follow.url and status["error"] is None
    page = client.get(follow.url).content.decode()
    assert page.count('<li class="org-table') == 4
    assert "Same score (0 pts)" in page  # the Swiss pairing's explanation of each table
    assert Match.objects.filter(round__tournament=cup).count() == 4


def test_a_pending_task_shows_its_progress_page(client, cup):
    signed_in(client, cup.organizers.get())
    response = client.post(reverse("ws:pair", args=[cup.slug]))  # on_commit never runs here: stays pending
    page = client.get(response.url)
    body = page.content.decode()
    assert page.status_code == 200 and 'data-status="pending"' in body and "Waiting for a worker" in body
    assert 'http-equiv="refresh"' in body  # without JS the page refreshes itself
    status = client.get(reverse("ws:pair-task-status", args=[cup.slug,
                                                             TaskRecord.objects.get().id])).json()
    assert status == {"status": "pending", "label": "Waiting for a worker…", "stage": "", "round": None,
                      "round_url": None, "error": None}
    # A second press while it is under way: refused in words, and the dashboard links to the task.
    again = client.post(reverse("ws:pair", args=[cup.slug]), follow=True).content.decode()
    assert "A pairing of this tournament is already under way" in again and "Follow it" in again


def test_a_refused_pairing_says_why(client, cup, django_capture_on_commit_callbacks):
    round_pair(tournament=cup)
    signed_in(client, cup.organizers.get())
    page = client.post(reverse("ws:pair", args=[cup.slug]), follow=True).content.decode()
    assert "The last round still has unfinished matches" in page
    assert TaskRecord.objects.count() == 0


def test_a_pairing_refused_by_the_worker_shows_the_reason_on_the_task_page(client, django_capture_on_commit_callbacks):
    from tournaments.models import ForbiddenPair

    lonely = TournamentFactory(slug="lonely")
    orga = UserFactory(username="lonely-orga")
    lonely.organizers.add(orga)
    a, b = EntryFactory(tournament=lonely), EntryFactory(tournament=lonely)
    ForbiddenPair.objects.create(tournament=lonely, team_a=a.team, team_b=b.team)
    signed_in(client, orga)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("ws:pair", args=[lonely.slug]))
    page = client.get(response.url)
    assert page.status_code == 200
    assert "cannot be paired without a rematch or a forbidden pair" in page.content.decode()


@pytest.mark.parametrize("entries", [0, 1])
def test_pair_round_one_is_offered_only_with_two_teams_entered(client, entries):
    lonely = TournamentFactory(slug="lonely")
    orga = UserFactory(username="lonely-orga")
    lonely.organizers.add(orga)
    for _ in range(entries):
        EntryFactory(tournament=lonely)
    signed_in(client, orga)
    page = client.get(reverse("ws:tournament", args=[lonely.slug])).content.decode()
    flat = " ".join(page.split())
    assert "Enter at least two teams first." in flat
    assert 'disabled aria-describedby="pair-needs-teams">Pair round 1</button>' in flat
    assert f'action="{reverse("ws:pair", args=[lonely.slug])}"' not in page
    # Posted all the same (an old page, a second tab): refused at once, in words, with no task queued.
    refused = client.post(reverse("ws:pair", args=[lonely.slug]), follow=True).content.decode()
    assert "A round needs at least two active teams: enter more teams first." in refused
    assert not TaskRecord.objects.exists()
    EntryFactory(tournament=lonely)
    EntryFactory(tournament=lonely)
    page = client.get(reverse("ws:tournament", args=[lonely.slug])).content.decode()
    assert "Enter at least two teams first." not in page and "pair-needs-teams" not in page


def test_pairing_impossible_names_the_teams(client, cup):
    from tournaments.services.rounds import PairingImpossible
    from web.workspace.organize_common import refusal

    teams = list(cup.entries.values_list("team_id", flat=True)[:2])
    text = refusal(PairingImpossible(teams, []).code, teams=teams)
    assert "Ploeg 1" in text and "Ploeg 2" in text


def test_a_task_of_another_tournament_is_404(client, cup, other):
    task = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=other)
    signed_in(client, cup.organizers.get())
    assert client.get(reverse("ws:pair-task", args=[cup.slug, task.id])).status_code == 404
    assert client.get(reverse("ws:pair-task-status", args=[cup.slug, task.id])).status_code == 404


# -- exports ---------------------------------------------------------------------------------------------------------


def rows_of(response) -> list[list[str]]:
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture
def played(tournament):
    """The site's fixture tournament (five teams, round 1 with a bye, table 2 won) with an organizer."""
    orga = UserFactory(username="played-orga")
    tournament.organizers.add(orga)
    return tournament


def test_export_results_one_row_per_match(client, played):
    signed_in(client, played.organizers.get())
    response = client.get(reverse("ws:export-results", args=[played.slug]))
    assert response["Content-Type"].startswith("text/csv")
    assert 'attachment; filename="gentse-beker-results.csv"' == response["Content-Disposition"]
    rows = rows_of(response)
    assert rows[0] == ["Round", "Table", "Team 1", "Club 1", "Team 2", "Club 2", "Games 1", "Games 2",
                       "Points 1", "Points 2", "Status", "Result", "Stage", "Round name"]
    matches = list(Match.objects.filter(round__tournament=played).select_related("ns", "ew").order_by("table"))
    assert len(rows) == 1 + len(matches) == 4
    won = next(m for m in matches if m.status == "finished" and m.ew_id)
    row = rows[won.table]
    assert row[:6] == ["1", str(won.table), won.ns.name, "De Zwarte Kat", won.ew.name, "De Zwarte Kat"]
    assert row[6:8] == ["2", "0"] and row[10] == "Finished" and row[11] == won.ns.name
    assert row[12:] == ["1 · Swiss system", "Round 1"]  # the stage and the round's name: the last columns
    bye = next(m for m in matches if m.ew_id is None)
    assert rows[bye.table][4] == "" and rows[bye.table][11] == "bye"
    playing = next(m for m in matches if m.status == "playing")
    assert rows[playing.table][10] == "Playing" and rows[playing.table][11] == ""


def test_export_standings_has_every_tiebreak(client, played):
    signed_in(client, played.organizers.get())
    rows = rows_of(client.get(reverse("ws:export-standings", args=[played.slug])))
    head = rows[0]
    assert head[:12] == ["Rank", "Team", "Club", "Played", "Won", "Drawn", "Lost", "Match points", "Games won",
                         "Games lost", "Points for", "Points against"]
    assert "Buchholz" in head[12:]
    assert len(rows) == 6
    top = rows[1]
    assert top[0] == "1" and top[2] == "De Zwarte Kat"
    assert len(top) == len(head)


def test_exports_before_any_round_have_only_headers(client, cup):
    signed_in(client, cup.organizers.get())
    assert len(rows_of(client.get(reverse("ws:export-results", args=[cup.slug])))) == 1
    assert len(rows_of(client.get(reverse("ws:export-standings", args=[cup.slug])))) == 1


def test_standings_after_a_finished_round(client, cup):
    """The organizer's round 1, played to the end: the standings export has the winners first."""
    rnd = round_pair(tournament=cup)
    for match in rnd.matches.all():
        while match.status != "finished":
            enter_hands(match, 1, ns=60)
            match.refresh_from_db()
    standings_recompute(tournament=cup)
    signed_in(client, cup.organizers.get())
    rows = rows_of(client.get(reverse("ws:export-standings", args=[cup.slug])))
    ns_names = set(Match.objects.filter(round=rnd).values_list("ns__name", flat=True))
    assert {r[1] for r in rows[1:5]} == ns_names

"""The director's desk in the workspace: the forms take actions through the service, the refusals are shown in
words, the actions are listed with their reasons and reverted; only the tournament's directors reach it."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, TeamFactory, TournamentFactory, UserFactory
from tests.web.conftest import enter_hands
from tournaments.models import DirectorAction, Entry, Match
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(db):
    tournament = TournamentFactory(name="Aalsterse Avond", slug="aalsterse-avond", best_of=3)
    tournament.organizers.add(UserFactory(username="orga"))
    for i in range(4):
        EntryFactory(tournament=tournament, team=TeamFactory(name=f"Ploeg {i + 1}"), seed=i + 1)
    round_pair(tournament=tournament)
    return tournament


@pytest.fixture
def client_of(client, cup):
    client.force_login(cup.organizers.get())
    return client


def take(client, cup, **data):
    return client.post(reverse("ws:actions-take", args=[cup.slug]), data)


def test_the_desk_lists_nothing_then_a_forfeit_with_its_reason(client_of, cup, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        page = client_of.get(reverse("ws:actions", args=[cup.slug]))
    assert page.status_code == 200 and "No action taken yet." in page.content.decode()
    match = Match.objects.filter(round__tournament=cup).order_by("table").first()
    answer = take(client_of, cup, kind="forfeit", match=match.pk, absent="ew", reason="EW never came")
    assert answer.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.forfeit) == ("finished", "ns", "ew")
    with django_assert_max_num_queries(12):
        page = client_of.get(reverse("ws:actions", args=[cup.slug])).content.decode()
    assert "Forfeit recorded." in page and "EW never came" in page and f"absent: {match.ew.name}" in page  # the team, not its seat


def test_a_refusal_is_shown_in_the_users_language_and_nothing_changes(client_of, cup, settings):
    match = Match.objects.filter(round__tournament=cup).order_by("table").first()
    enter_hands(match, 1)
    client_of.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    answer = take(client_of, cup, kind="forfeit", match=match.pk, absent="ew", reason="late")
    assert answer.status_code == 400
    assert "geen forfait" in answer.content.decode()
    assert not DirectorAction.objects.exists()


def test_a_revert_says_which_later_rounds_stay(client_of, cup):
    first, second = Match.objects.filter(round__tournament=cup).order_by("table")
    take(client_of, cup, kind="forfeit", match=first.pk, absent="ew", reason="no-show")
    enter_hands(second, 12, ns=50)
    second.refresh_from_db()
    round_pair(tournament=cup)
    action = DirectorAction.objects.get()
    answer = client_of.post(reverse("ws:actions-revert", args=[cup.slug, action.pk]), {"reason": "they came"},
                            follow=True)
    page = answer.content.decode()
    assert "Forfeit reverted." in page and "Rounds paired since stay as they are: 2." in page
    assert "Reverted by orga" in page and "they came" in page


def test_entry_kinds_and_a_stranger_or_scorekeeper_get_a_404(client, client_of, cup):
    entry = Entry.objects.filter(tournament=cup).order_by("seed").first()
    assert take(client_of, cup, kind="deduction", entry=entry.pk, metric="match_points", amount="1",
                reason="late").status_code == 302
    assert take(client_of, cup, kind="withdrawal_event", entry=entry.pk, reason="ill").status_code == 302
    entry.refresh_from_db()
    assert entry.withdrawn
    keeper = UserFactory(username="keeper")
    cup.scorekeepers.add(keeper)
    for user in (keeper, UserFactory(username="nobody")):
        client.force_login(user)
        assert client.get(reverse("ws:actions", args=[cup.slug])).status_code == 404
        assert take(client, cup, kind="deduction", entry=entry.pk, metric="match_points", amount="1",
                    reason="x").status_code == 404
    assert DirectorAction.objects.count() == 2


def test_a_preview_shows_the_rows_that_move_keeps_the_form_and_saves_nothing(client_of, cup):
    from tournaments.models import Standing, StandingsSnapshot
    from tournaments.services.standings import standings_recompute

    first, second = Match.objects.filter(round__tournament=cup).order_by("table")
    standings_recompute(tournament=cup)
    before = (list(Standing.objects.filter(tournament=cup).order_by("pk").values()),
              StandingsSnapshot.objects.get(tournament=cup).generation,
              list(Match.objects.filter(pk=first.pk).values()))
    answer = take(client_of, cup, kind="forfeit", match=first.pk, absent="ew", reason="", preview="1")
    page = answer.content.decode()
    assert answer.status_code == 200 and 'id="desk-preview"' in page and "Preview: Forfeit" in page
    assert page.count("data-moved=") >= 2 and first.ns.name in page and first.ew.name in page
    assert "Nothing is saved yet" in page
    assert f'<option value="{first.pk}" selected' in page  # the form as sent, ready to record
    assert not DirectorAction.objects.exists()
    assert before == (list(Standing.objects.filter(tournament=cup).order_by("pk").values()),
                      StandingsSnapshot.objects.get(tournament=cup).generation,
                      list(Match.objects.filter(pk=first.pk).values()))
    refused = take(client_of, cup, kind="decision", match=first.pk, winner="ns", reason="", preview="1")
    assert refused.status_code == 400 and 'id="desk-preview"' not in refused.content.decode()


def test_in_french_the_actions_say_their_day_in_french_and_put_a_space_before_the_colon(client_of, cup, settings):
    import datetime
    import re

    from django.utils import timezone

    match = Match.objects.filter(round__tournament=cup).order_by("table").first()
    take(client_of, cup, kind="forfeit", match=match.pk, absent="ew", reason="late")
    DirectorAction.objects.update(created_at=timezone.make_aware(datetime.datetime(2026, 11, 27, 8, 33)))
    client_of.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client_of.get(reverse("ws:actions", args=[cup.slug])).content.decode()
    assert re.search(r"orga, 27 novembre \d\d:\d\d<", page) and "Nov" not in page
    assert f"Ronde 1, table {match.table}\u00a0: {match.ns.name} – {match.ew.name}" in page
    client_of.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_of.get(reverse("ws:actions", args=[cup.slug])).content.decode()
    assert f"Round 1, table {match.table}: {match.ns.name} – {match.ew.name}" in page and re.search(r"orga, November 27 ", page)


def test_in_french_a_finished_round_is_terminee_on_the_dashboard(client_of, cup, settings):
    cup.round_set.filter(number=1).update(status="finished")
    client_of.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client_of.get(reverse("ws:tournament", args=[cup.slug])).content.decode()
    assert ">Terminée</span>" in page  # a round ("la ronde"); the tournament stays "Terminé"

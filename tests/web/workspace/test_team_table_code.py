"""A team event's tables by their codes, without an account (issue 28): its pairing gives every match a table
code, a phone opens table 1 with it and enters the game, and a player of the other team confirms on their own
phone with their personal code; a wrong code, another table's player and the entering phone are refused; a round
not yet published opens nothing; the organizers' sheets print the codes, nobody else's."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EntryFactory, TournamentFactory, UserFactory
from tests.web.conftest import belgian_hand
from tournaments.models import Match, PersonalCode, Tournament
from tournaments.services.confirmation import personal_codes
from tournaments.services.rounds import round_pair

# An empty cache: the code tries' and wrong codes' windows.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]


@pytest.fixture
def event():
    """Four teams, one game a match, results confirmed by the opponents; round 1 paired (two tables)."""
    tournament = TournamentFactory(best_of=1, confirmation="opponents", slug="ploegen")
    for _ in range(4):
        EntryFactory(tournament=tournament)
    round_pair(tournament=tournament)
    return Tournament.objects.get(pk=tournament.pk)


def table(tournament, number=1) -> Match:
    return Match.objects.select_related("ns__player_1", "ns__player_2", "ew__player_1", "ew__player_2").get(
        round__tournament=tournament, table=number)


def open_table(client, tournament, code):
    url = reverse("ws:table-code", args=[tournament.slug])
    client.get(url)  # the phone gets its id
    return client.post(url, {"code": code})


def play_to_the_end(client, tournament, match):
    """The phone enters 60-0 hands through the table's endpoint until the game is won."""
    for number in range(1, 20):
        body = {"hand": belgian_hand(number, 60), "game": 1, "number": number, "key": f"k{number}"}
        answer = client.post(reverse("ws:table-hand", args=[tournament.slug, match.pk]), json.dumps(body),
                             content_type="application/json")
        assert answer.status_code == 201, answer.content
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return
    raise AssertionError("the game did not end")


def test_the_pairing_gives_every_team_match_its_own_code(event):
    codes = list(Match.objects.filter(round__tournament=event).values_list("table_code", flat=True))
    assert len(codes) == 2 and len(set(codes)) == 2
    assert all(len(c) == 6 and c.isalnum() and c == c.upper() for c in codes)


def test_a_phone_enters_table_1_and_the_other_team_confirms_with_a_personal_code(event):
    match = table(event)
    entering = Client()
    opened = open_table(entering, event, match.table_code.lower())
    assert opened.status_code == 302 and opened["Location"] == reverse("ws:table-match", args=[event.slug, match.pk])
    page = entering.get(opened["Location"]).content.decode()
    assert match.ns.name in page and match.ew.name in page  # the sides are the two teams
    play_to_the_end(entering, event, match)
    assert match.result_status == "entered"

    confirm_url = reverse("ws:table-confirm", args=[event.slug, match.pk])
    east = match.ew.player_1
    codes = personal_codes(event, [east.pk, match.ew.player_2_id, table(event, 2).ew.player_1_id])
    own = entering.post(confirm_url, {"player": east.pk, "code": codes[east.pk], "action": "confirm"})
    assert own.status_code == 403 and "You entered this result" in own.content.decode()  # the entering phone
    other = Client()
    assert other.get(confirm_url).status_code == 403  # no code of this table on that phone yet
    open_table(other, event, match.table_code)
    form = other.get(confirm_url).content.decode()
    for p in (match.ns.player_1, match.ns.player_2, match.ew.player_1, match.ew.player_2):
        assert p.name in form  # the four players of the two teams
    wrong = other.post(confirm_url, {"player": east.pk, "code": codes[match.ew.player_2_id], "action": "confirm"})
    assert wrong.status_code == 403 and "do not go together" in wrong.content.decode()
    stranger = table(event, 2).ew.player_1
    away = other.post(confirm_url, {"player": stranger.pk, "code": codes[stranger.pk], "action": "confirm"})
    assert away.status_code == 403 and "You do not play at table 1 of round 1" in away.content.decode()
    match.refresh_from_db()
    assert match.result_status == "entered"
    done = other.post(confirm_url, {"player": east.pk, "code": codes[east.pk].lower(), "action": "confirm"})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.result_status == "confirmed"
    step = match.result_events.last()
    assert step.player_id == east.pk and step.side == "ew"


def test_an_unpublished_team_round_opens_nothing_by_its_code():
    tournament = TournamentFactory(best_of=1, confirmation="opponents", auto_publish=False)
    for _ in range(4):
        EntryFactory(tournament=tournament)
    round_pair(tournament=tournament)
    match = table(tournament)
    client = Client()
    refused = open_table(client, tournament, match.table_code)
    assert refused.status_code == 400 and "No table of this tournament has the code" in refused.content.decode()
    from tournaments.services.publication import round_publish

    round_publish(round=match.round)
    assert open_table(client, tournament, match.table_code).status_code == 302


def test_the_team_sheets_print_the_codes_for_the_organizers_only(client, event):
    organizer, keeper = UserFactory(), UserFactory()
    event.organizers.add(organizer)
    event.scorekeepers.add(keeper)
    match = table(event)
    url = f"/t/{event.slug}/rounds/1/sheets/"
    public = client.get(url).content.decode()
    assert match.table_code not in public and "data-personal-code" not in public
    assert "Table codes are printed only" in public
    assert not PersonalCode.objects.exists()
    client.force_login(keeper)  # a scorekeeper prints the table codes, not the personal ones
    kept = client.get(url).content.decode()
    assert match.table_code in kept and "data-personal-code" not in kept
    client.force_login(organizer)
    sheets = client.get(url).content.decode()
    codes = dict(PersonalCode.objects.filter(tournament=event).values_list("player_id", "code"))
    assert len(codes) == 8 and all(c in sheets for c in codes.values())
    assert match.table_code in sheets and reverse("ws:table-code", args=[event.slug]) in sheets
    one = client.get(f"/t/{event.slug}/matches/{match.pk}/sheet/").content.decode()
    assert match.table_code in one and codes[match.ew.player_1_id] in one
    assert codes[table(event, 2).ew.player_1_id] not in one

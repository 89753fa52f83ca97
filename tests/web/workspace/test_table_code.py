"""Entry at the table by its code, without an account: the code opens one match of one round, the page names the
players by seat, hands go through hand_enter with the queue's time, and the limits count per phone and per match
(never per address), each refusal in words."""

import json
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.web.conftest import belgian_hand
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Hand, Match, Round
from web.workspace import table_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """A 22-player kaarting with round 1 seated: five tables (codes ACD347, KMN679, ...), two players sitting out."""
    tournament = individual_event(22, minutes=None)
    seat_round(tournament, 1, codes=["ACD347", "KMN679", "PQR333", "TUV444", "WXY666"])
    return tournament


def code_url(tournament):
    return reverse("ws:table-code", args=[tournament.slug])


def open_table(client, tournament, code="ACD347"):
    client.get(code_url(tournament))  # the phone gets its id
    return client.post(code_url(tournament), {"code": code})


def age_grants(client, seconds: int) -> None:
    """Make the codes this phone holds ``seconds`` older, as if typed that long ago."""
    signer = signing.get_cookie_signer(salt=signing._cookie_signer_salt(table_code.TABLES_COOKIE,
                                                                        table_code.TABLES_SALT))
    kept = json.loads(signer.unsign(client.cookies[table_code.TABLES_COOKIE].value))
    for grant in kept:
        grant["at"] -= seconds
    client.cookies[table_code.TABLES_COOKIE] = signer.sign(json.dumps(kept))


def send(client, tournament, match, number=1, key="k1", **extra):
    body = {"hand": belgian_hand(number), "game": 1, "number": number, "key": key, **extra}
    return client.post(reverse("ws:table-hand", args=[tournament.slug, match.pk]), json.dumps(body),
                       content_type="application/json")


def test_the_code_page_asks_for_the_code_of_a_table(client, event):
    page = client.get(code_url(event))
    assert page.status_code == 200
    assert "The code on your table's score sheet" in page.content.decode()
    assert event.name not in page.content.decode()  # a private event's name is not shown to anyone with the link


def test_a_team_event_has_a_code_page_too(client):
    from tests.factories import TournamentFactory

    page = client.get(code_url(TournamentFactory(slug="ploegen")))
    assert page.status_code == 200 and "The code on your table's score sheet" in page.content.decode()


def test_a_valid_code_opens_its_table_with_the_players_by_seat(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    answer = open_table(client, event, " acd-347 ")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("ws:table-match", args=[event.slug, match.pk])
    page = client.get(answer["Location"]).content.decode()
    # Table 1: An Peeters (N), Bart Claes (E), Chris Wouters (S), Dirk Maes (W).
    assert "An Peeters &amp; Chris Wouters" in page and "Bart Claes &amp; Dirk Maes" in page
    for name in ("An Peeters", "Bart Claes", "Chris Wouters", "Dirk Maes"):
        assert f"<small>{name}</small>" in page  # each seat's button names its player
    assert reverse("ws:table-hand", args=[event.slug, match.pk]) in page
    assert reverse("ws:score-match", args=[event.slug, match.pk]) not in page


def test_a_wrong_code_is_refused_in_words(client, event):
    answer = open_table(client, event, "ZZZZZZ")
    assert answer.status_code == 400
    assert "No table of this tournament has the code ZZZZZZ" in answer.content.decode()
    empty = client.post(code_url(event), {"code": ""})
    assert "Type the code printed on your table" in empty.content.decode()


def test_a_hand_goes_through_hand_enter_with_the_queues_time(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    Round.objects.filter(tournament=event).update(created_at=timezone.now() - timedelta(minutes=15))
    open_table(client, event)
    age_grants(client, 600)  # the code was typed ten minutes ago
    typed = timezone.now() - timedelta(minutes=3)
    answer = send(client, event, match, played_at=typed.isoformat())
    assert answer.status_code == 201, answer.content
    hand = Hand.objects.get(game__match=match)
    assert hand.entered_by is None and hand.idempotency_key.endswith(":k1")
    assert abs(hand.game.started_at - typed) < timedelta(seconds=1)
    assert answer.json()["state"]["ns_name"] == "An Peeters & Chris Wouters"
    again = send(client, event, match, played_at=typed.isoformat())  # a resend after a lost answer
    assert again.status_code == 200 and Hand.objects.filter(game__match=match).count() == 1


def test_a_phone_cannot_claim_a_time_before_it_was_given_the_code(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    open_table(client, event)
    send(client, event, match, played_at="2001-01-01T12:00:00+00:00")
    game = Match.objects.get(pk=match.pk).games.get()
    assert timezone.now() - game.started_at < timedelta(minutes=1)


def test_the_clock_judges_a_hand_by_the_time_it_was_typed(client, event):
    """A timed round whose clock ended a minute ago: a game typed before the end is taken, one typed now refused."""
    event.match_length, event.minutes = "timed", 30
    event.save()
    Round.objects.filter(tournament=event).update(created_at=timezone.now() - timedelta(minutes=40))
    one, two = Match.objects.filter(round__tournament=event, table__in=(1, 2)).order_by("table")
    for code in ("ACD347", "KMN679"):
        open_table(client, event, code)
    age_grants(client, 40 * 60)  # the codes were typed 40 minutes ago, when the round began
    Round.objects.filter(tournament=event).update(clock_started_at=timezone.now() - timedelta(minutes=31),
                                                  clock_ends_at=timezone.now() - timedelta(minutes=1))
    typed = (timezone.now() - timedelta(minutes=5)).isoformat()
    assert send(client, event, one, played_at=typed).status_code == 201
    late = send(client, event, two, key="k2")
    assert late.status_code == 409
    assert late.json()["refusals"][0]["code"] == "round_time_over"


def test_a_code_opens_its_own_match_only(client, event):
    two = Match.objects.get(round__tournament=event, table=2)
    open_table(client, event, "ACD347")
    page = client.get(reverse("ws:table-match", args=[event.slug, two.pk]))
    assert page.status_code == 403
    assert "This phone holds no valid code for this table" in page.content.decode()
    answer = send(client, event, two)
    assert answer.status_code == 403 and answer.json()["refusals"][0]["code"] == "table_code_unknown"
    assert not Hand.objects.exists()


def test_a_redraw_closes_the_page_at_once(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    open_table(client, event)
    Match.objects.filter(pk=match.pk).update(table_code="NEWONE")
    assert send(client, event, match).status_code == 403


def test_the_code_closes_thirty_minutes_after_the_result(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    open_table(client, event)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED,
                                             updated_at=timezone.now() - timedelta(minutes=31))
    page = client.get(reverse("ws:table-match", args=[event.slug, match.pk]))
    assert page.status_code == 403
    assert "finished more than 30 minutes ago" in page.content.decode()
    typed_again = client.post(code_url(event), {"code": "ACD347"})
    assert typed_again.status_code == 403
    assert "Table 1 of round 1 finished more than 30 minutes ago" in typed_again.content.decode()


def test_tries_are_counted_per_phone_not_per_address(event):
    """Every phone of a hall comes from one address: one phone's tries never lock out the next."""
    busy = Client(REMOTE_ADDR="10.0.0.1")
    busy.get(code_url(event))
    for _ in range(table_code.CODE_TRIES[0]):
        busy.post(code_url(event), {"code": "ZZZZZZ"})
    refused = busy.post(code_url(event), {"code": "ACD347"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many codes were typed on this phone" in refused.content.decode()
    other = Client(REMOTE_ADDR="10.0.0.1")
    assert open_table(other, event, "ACD347").status_code == 302


def test_wrong_codes_of_the_whole_tournament_are_capped(event, monkeypatch):
    """Guessing from many fresh phones meets the tournament's cap on wrong codes."""
    monkeypatch.setattr(table_code, "WRONG_CODES", (3, 300))
    for _ in range(3):
        assert open_table(Client(), event, "ZZZZZZ").status_code == 400
    capped = open_table(Client(), event, "ACD347")
    assert capped.status_code == 429
    assert "Too many wrong codes were typed at this tournament" in capped.content.decode()


def test_requests_to_one_match_are_limited(client, event, monkeypatch):
    match = Match.objects.get(round__tournament=event, table=1)
    open_table(client, event)
    monkeypatch.setattr(table_code, "MATCH_REQUESTS", (2, 60))
    state = reverse("ws:table-state", args=[event.slug, match.pk])
    assert client.get(state).status_code == 200
    assert client.get(state).status_code == 200
    refused = send(client, event, match)
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "This table has sent too much" in refused.json()["refusals"][0]["message"]
    assert not Hand.objects.exists()


def test_the_phone_lists_the_tables_it_holds(client, event):
    open_table(client, event, "ACD347")
    open_table(client, event, "KMN679")
    page = client.get(code_url(event)).content.decode()
    assert "Tables open on this phone" in page
    assert "Table 1 · Round 1" in page and "Table 2 · Round 1" in page


def test_a_correction_and_a_deletion_through_the_code(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    open_table(client, event)
    send(client, event, match)
    send(client, event, match, number=2, key="k2")
    hand = Hand.objects.get(game__match=match, number=2)
    url = reverse("ws:table-delete", args=[event.slug, match.pk])
    assert client.post(url, {"hand": hand.pk}).status_code == 302
    assert Hand.objects.filter(game__match=match).count() == 1
    correct = reverse("ws:table-correct", args=[event.slug, match.pk])
    page = client.get(correct)
    assert page.status_code == 200 and "with the time" in page.content.decode()
    form = {"dealer": "N", "trump": "H", "tricks_ns": 3, "tricks_ew": 5, "points_ns": 20, "points_ew": 40,
            "reason": "points swapped"}
    assert client.post(correct, form).status_code == 302
    assert Hand.objects.get(game__match=match).points_ns == 20


def test_hostile_input_through_the_code_is_refused_without_a_trace(client, event):
    match = Match.objects.get(round__tournament=event, table=1)
    assert open_table(client, event, "ACD\x00347").status_code == 302  # the code is read as its letters
    send(client, event, match)
    correct = reverse("ws:table-correct", args=[event.slug, match.pk])
    form = {"dealer": "N", "trump": "H", "tricks_ns": 3, "tricks_ew": 5, "points_ns": 20, "points_ew": 40,
            "reason": "typo\x00"}
    assert client.post(correct, form).status_code == 400
    assert Hand.objects.get(game__match=match).points_ns == 37
    garbage = client.post(reverse("ws:table-hand", args=[event.slug, match.pk]), b"\xff\x00{",
                          content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["refusals"]


def test_a_phone_without_the_code_cannot_use_up_a_tables_allowance(client, event, monkeypatch):
    match = Match.objects.get(round__tournament=event, table=1)
    monkeypatch.setattr(table_code, "MATCH_REQUESTS", (3, 60))
    stranger = Client()
    for _ in range(5):
        assert stranger.get(reverse("ws:table-state", args=[event.slug, match.pk])).status_code == 403
    open_table(client, event)
    assert send(client, event, match).status_code == 201

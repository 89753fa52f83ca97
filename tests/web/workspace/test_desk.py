"""The director's desk and the other side's confirmation page (web/workspace/desk.py, confirm.py): who may open
them, what they list, and that every action goes through the confirmation services."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Match, Tournament
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db


def finish(match, device="phone-a"):
    with acting(device=device):
        for i in range(40):
            hand, _ = hand_enter(match=match, data={"dealer": "NESW"[i % 4], "trump": "H",
                                                    "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 50, "ew": 10}})
            if hand.game_winner:
                return


@pytest.fixture
def event():
    tournament = TournamentFactory(best_of=1, confirmation="opponents", public=False)
    rnd = RoundFactory(tournament=tournament, number=1)
    matches = [MatchFactory(round=rnd, table=t) for t in (1, 2)]
    for m in matches:
        EntryFactory(tournament=tournament, team=m.ns)
        EntryFactory(tournament=tournament, team=m.ew)
    director = UserFactory()
    tournament.directors.add(director)
    return tournament, matches, director


def test_only_directors_open_the_desk(client, event):
    tournament, _matches, director = event
    url = reverse("ws:desk", args=[tournament.slug])
    assert client.get(url).status_code == 302  # sign in first
    for user in (UserFactory(), ):
        client.force_login(user)
        assert client.get(url).status_code == 404
    keeper = UserFactory()
    tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_the_desk_lists_the_waiting_and_disputed_tables_and_settles_one(client, event, django_assert_max_num_queries):
    tournament, (first, second), director = event
    finish(first)
    finish(second)
    ew = second.ew.player_1
    code = personal_codes(tournament, [ew.pk])[ew.pk]
    from tournaments.services.confirmation import result_dispute

    result_dispute(match_id=second.pk, player_id=ew.pk, code=code, reason="hand 3 was wrong")
    client.force_login(director)
    with django_assert_max_num_queries(12):
        rows = client.get(reverse("ws:desk-rows", args=[tournament.slug])).content.decode()
    assert rows.index(f'id="desk-{second.pk}"') < rows.index(f'id="desk-{first.pk}"')  # the dispute first
    assert "hand 3 was wrong" in rows and f'data-disputes="{second.pk} "' in rows
    assert f'id="desk-{second.pk}" data-alert="A new dispute: table 2 of round 1.">' in rows  # the page's alert
    assert f'id="desk-{first.pk}">' in rows  # waiting, not disputed: nothing to announce
    answer = client.post(reverse("ws:desk-decide", args=[tournament.slug, second.pk]),
                         {"action": "settle", "reason": "checked the sheet"})
    assert answer.status_code == 302
    second.refresh_from_db()
    assert (second.result_status, second.result_reason) == ("final", "checked the sheet")
    client.post(reverse("ws:desk-decide", args=[tournament.slug, first.pk]), {"action": "paper"})
    first.refresh_from_db()
    assert (first.result_status, first.result_mark) == ("confirmed", "paper")
    other = TournamentFactory(confirmation="opponents")
    other.directors.add(director)
    assert client.post(reverse("ws:desk-decide", args=[other.slug, first.pk]),
                       {"action": "settle", "reason": "x"}).status_code == 404


def test_the_code_slips_list_every_entered_player(client, event):
    tournament, (first, _second), director = event
    client.force_login(director)
    page = client.get(reverse("ws:desk-codes", args=[tournament.slug])).content.decode()
    codes = personal_codes(tournament, [first.ns.player_1_id])
    assert first.ns.player_1.name in page and codes[first.ns.player_1_id] in page


def test_the_other_phone_confirms_by_the_tables_code_and_a_personal_code(client):
    tournament = individual_event(8, minutes=None)
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="opponents", best_of=1)
    seat_round(tournament, 1, codes=["ACD347", "KMN679"])
    match = Match.objects.get(round__tournament=tournament, table=1)
    finish(match)
    east = match.seats.get(seat="E").player
    code = personal_codes(tournament, [east.pk])[east.pk]
    url = reverse("ws:table-confirm", args=[tournament.slug, match.pk])
    assert client.get(url).status_code == 403  # the phone holds no code of this table
    client.get(reverse("ws:table-code", args=[tournament.slug]))
    client.post(reverse("ws:table-code", args=[tournament.slug]), {"code": "ACD347"})
    page = client.get(url)
    assert page.status_code == 200 and east.name in page.content.decode()
    wrong = client.post(url, {"player": east.pk, "code": "AAAAAA", "action": "confirm"})
    assert wrong.status_code == 403 and "do not go together" in wrong.content.decode()
    done = client.post(url, {"player": east.pk, "code": code, "action": "confirm"})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.result_status == "confirmed"
    step = match.result_events.last()
    assert step.player_id == east.pk and step.device and step.device != "phone-a"

"""Who may take each step of a result's confirmation and each of the director's actions, at every door: the API's
endpoints and the workspace's page actions, for every role one table of an individual event knows.

The roles: an unrelated signed-in user; the entering side (the partner of the player whose account entered the
result, with their own code; on the staff-only doors the entering player's account); another table's player with
their own code; a stranger with the table's code (and a guessed personal code); the event's scorekeeper, director
and organizer; and, the control, a player of the other side with their code. A refusal changes nothing: no
result step, no action, the result's status as it was.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import DirectorAction, Match, ResultEvent
from tournaments.services.clock import round_clock_end, round_clock_start
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.desk import desk_action_take
from tournaments.services.hands import hand_enter

# An empty cache: the wrong codes' and the phones' windows.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clear_cache")]

ROLES = ("unrelated", "entering_side", "other_table", "stranger_code", "scorekeeper", "director", "organizer",
         "opponent")


@pytest.fixture
def hall():
    """Eight players at two tables (codes ACD347, KMN679), results confirmed by the opponents; table 1 finished,
    entered by its North player's account; one action taken on table 2 (to revert)."""
    tournament = individual_event(8, minutes=None, public=True)
    tournament.confirmation = "opponents"
    tournament.save(update_fields=["confirmation"])
    rnd = seat_round(tournament, 1, codes=["ACD347", "KMN679"])
    one, two = rnd.matches.order_by("table")
    seats = {m.pk: dict(m.seats.values_list("seat", "player")) for m in (one, two)}
    people = {name: UserFactory(username=name) for name in ("unrelated", "scorekeeper", "director", "organizer",
                                                            "north")}
    tournament.scorekeepers.add(people["scorekeeper"])
    tournament.directors.add(people["director"])
    tournament.organizers.add(people["organizer"])
    north = one.seats.get(seat="N").player
    north.user = people["north"]
    north.save(update_fields=["user"])
    with acting(device="north-phone"):
        for i in range(40):
            hand, _ = hand_enter(match=one, user=people["north"], data={
                "dealer": "NESW"[i % 4], "trump": "H", "tricks": {"ns": 4, "ew": 4}, "points": {"ns": 50, "ew": 10}})
            if hand.game_winner:
                break
    one.refresh_from_db()
    assert (one.status, one.result_status, one.result_side) == ("finished", "entered", "ns")
    codes = personal_codes(tournament, [p for s in seats.values() for p in s.values()])
    action = desk_action_take(tournament=tournament, match=two, kind="penalty", reason="slow play",
                              params={"player": seats[two.pk]["N"], "points": 5}).action
    return {"tournament": tournament, "one": one, "two": two, "seats": seats, "people": people, "codes": codes,
            "action": action}


def _who(hall, role) -> tuple:
    """(account or None, the player named and their code or a guess, the table's code known) of a role."""
    one, two, seats, codes = hall["one"], hall["two"], hall["seats"], hall["codes"]
    if role == "entering_side":
        player = seats[one.pk]["S"]  # North's partner
        return None, player, codes[player], one.table_code
    if role == "other_table":
        player = seats[two.pk]["E"]
        return None, player, codes[player], two.table_code
    if role == "stranger_code":
        player = seats[one.pk]["E"]
        return None, player, "ZZZZZZ" if codes[player] != "ZZZZZZ" else "YYYYYY", one.table_code
    if role == "opponent":
        player = seats[one.pk]["E"]
        return None, player, codes[player], one.table_code
    return hall["people"][role], None, "", None


def _staff_account(hall, role):
    """The account a role signs in with at a director's door (the code-only roles: none)."""
    if role == "entering_side":
        return hall["people"]["north"]  # the player who entered it
    return hall["people"].get(role)


def _state(hall) -> tuple:
    one = Match.objects.get(pk=hall["one"].pk)
    return (one.result_status, ResultEvent.objects.filter(match=one).count(),
            DirectorAction.objects.filter(tournament=hall["tournament"], reverted_at__isnull=True).count(),
            DirectorAction.objects.count())


# --------------------------------------------------------------------------- the API

#: The expected answer of each API step for each role (the roles in ``ROLES`` order).
API = {
    "confirm": (403, 403, 403, 403, 403, 403, 403, 200),
    "dispute": (403, 403, 403, 403, 403, 403, 403, 200),
    "settle": (403, 403, 401, 401, 403, 200, 200, 401),
    "confirm-on-paper": (403, 403, 401, 401, 403, 200, 200, 401),
    "result-events": (403, 403, 401, 401, 403, 200, 200, 401),
    "action": (403, 403, 401, 401, 403, 201, 201, 401),
    "revert": (403, 403, 401, 401, 403, 200, 200, 401),
    "clock-reopen": (403, 403, 401, 401, 403, 201, 201, 401),
    "clock-keep": (403, 403, 401, 401, 403, 201, 201, 401),
}


def _api(hall, step, role):
    one, tournament = hall["one"], hall["tournament"]
    if step in ("confirm", "dispute"):
        user, player, code, table_code = _who(hall, role)
        body = {"reason": "we counted 3 boams"} if step == "dispute" else {}
        if player is not None:
            body.update(player=player, code=code, table_code=table_code)
        return client_for(user).post(f"/api/v1/matches/{one.pk}/{step}/", body, format="json",
                                     HTTP_X_DEVICE=f"phone-{role}")
    client = client_for(_staff_account(hall, role))
    if step in ("settle", "confirm-on-paper"):
        return client.post(f"/api/v1/matches/{one.pk}/{step}/", {"reason": "seen the sheet"}, format="json")
    if step == "result-events":
        return client.get(f"/api/v1/matches/{one.pk}/result-events/")
    if step.startswith("clock-"):  # the round's clock ended early by mistake: reopened, or its results kept
        round_clock_start(round=one.round, minutes=30)
        round_clock_end(round=one.round)
        return client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/{one.round.number}/clock/{step[6:]}/",
                           {"reason": "ended the wrong round"}, format="json")
    if step == "action":
        return client.post(f"/api/v1/tournaments/{tournament.pk}/actions/", {
            "kind": "forfeit", "match": hall["two"].pk, "params": {"players": [hall["seats"][hall["two"].pk]["W"]]},
            "reason": "never came"}, format="json")
    return client.post(f"/api/v1/tournaments/{tournament.pk}/actions/{hall['action'].pk}/revert/",
                       {"reason": "a mistake"}, format="json")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("step", list(API))
def test_api_steps_by_role(hall, step, role):
    expected = API[step][ROLES.index(role)]
    before = _state(hall)
    answer = _api(hall, step, role)
    assert answer.status_code == expected, answer.content[:300]
    if expected >= 400 or step == "result-events":
        assert _state(hall) == before  # refused (or a read): nothing changed
    else:
        assert _state(hall) != before


# --------------------------------------------------------------------------- the workspace's pages

#: The expected answer of each page action for each role: 302 to the next page when done; 302 to the sign-in page
#: for the code-only roles at a signed-in door; 404 for a door the account may not open; 403 for a step the
#: confirmation refuses (the confirm page answers with its words).
PAGES = {
    "confirm": (403, 403, 403, 403, 403, 403, 403, 302),
    "dispute": (403, 403, 403, 403, 403, 403, 403, 302),
    "settle": (404, 404, 302, 302, 404, 302, 302, 302),
    "paper": (404, 404, 302, 302, 404, 302, 302, 302),
    "codes": (404, 404, 302, 302, 404, 200, 200, 302),
    "desk": (404, 404, 302, 302, 404, 200, 200, 302),
    "actions": (404, 404, 302, 302, 404, 200, 200, 302),
    "action": (404, 404, 302, 302, 404, 302, 302, 302),
    "revert": (404, 404, 302, 302, 404, 302, 302, 302),
}
SIGN_IN = "ws:login"


def _page(hall, step, role):
    one, tournament = hall["one"], hall["tournament"]
    slug = tournament.slug
    client = Client()
    if step in ("confirm", "dispute"):
        user, player, code, table_code = _who(hall, role)
        if user is not None:
            client.force_login(user)
            table_code = one.table_code  # an account holds the table's code as any phone does
            player = hall["seats"][one.pk]["E"]  # and names the other side, with no code of theirs
        client.get(reverse("ws:table-code", args=[slug]))  # the phone's id
        client.post(reverse("ws:table-code", args=[slug]), {"code": table_code})
        body = {"player": player or "", "code": code, "action": step}
        if step == "dispute":
            body["reason"] = "we counted 3 boams"
        return client.post(reverse("ws:table-confirm", args=[slug, one.pk]), body)
    account = _staff_account(hall, role)
    if account is not None:
        client.force_login(account)
    if step in ("settle", "paper"):
        return client.post(reverse("ws:desk-decide", args=[slug, one.pk]), {"action": step, "reason": "sheet"})
    if step in ("codes", "desk", "actions"):  # the pages these actions are taken from
        return client.get(reverse(f"ws:{'desk-codes' if step == 'codes' else step}", args=[slug]))
    if step == "action":  # a forfeit naming the player absent, as the page's table form sends it
        two = hall["two"]
        return client.post(reverse("ws:actions-take", args=[slug]), {
            "kind": "forfeit", "match": two.pk, "players": [hall["seats"][two.pk]["W"]], "reason": "never came"})
    return client.post(reverse("ws:actions-revert", args=[slug, hall["action"].pk]), {"reason": "a mistake"})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("step", list(PAGES))
def test_page_actions_by_role(hall, step, role):
    expected = PAGES[step][ROLES.index(role)]
    before = _state(hall)
    answer = _page(hall, step, role)
    assert answer.status_code == expected, answer.content[:300]
    signed_in = _staff_account(hall, role) is not None or step in ("confirm", "dispute")
    if expected == 302 and not signed_in:
        assert answer["Location"].startswith(reverse(SIGN_IN))
    if expected != 302 or not signed_in or step in ("codes", "desk", "actions"):
        assert _state(hall) == before  # refused: nothing changed
    else:
        assert _state(hall) != before

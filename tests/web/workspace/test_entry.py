"""Table entry (issue 10): the match list, the entry page and its JSON endpoints, corrections, the Service Worker."""

import json

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.conftest import belgian_hand, enter_hands, make_tournament
from tournaments.models import Game, Hand, Match

pytestmark = pytest.mark.django_db


def _played(tournament) -> list[Match]:
    return list(Match.objects.filter(round__tournament=tournament, ew__isnull=False).order_by("table"))


@pytest.fixture
def setup():
    """Tournament A kept by ``keeper``; tournament B (another scorekeeper's) next to it."""
    a = make_tournament(4)
    b = make_tournament(4, name="Brugse Beker", slug="brugse-beker", club_name="Het Anker")
    keeper = UserFactory(username="keeper")
    a.scorekeepers.add(keeper)
    b.scorekeepers.add(UserFactory(username="other"))
    return {"a": a, "b": b, "keeper": keeper, "ma": _played(a)[0], "mb": _played(b)[0]}


@pytest.fixture
def keeper_client(setup):
    client = Client()
    client.force_login(setup["keeper"])
    return client


def _urls(slug, match_id):
    return {name: reverse(f"ws:{name}", args=[slug, match_id])
            for name in ("score-match", "score-state", "score-preview", "score-hand", "score-correct",
                         "score-delete", "score-game")}


def _post_json(client, url, body, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


# --------------------------------------------------------------------------- who may see what


def test_anonymous_pages_redirect_to_sign_in_and_json_answers_401(setup, client):
    login = resolve_url(settings.LOGIN_URL)
    urls = _urls("gentse-beker", setup["ma"].pk)
    for url in (reverse("ws:score", args=["gentse-beker"]), urls["score-match"], urls["score-correct"]):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(login), url
    for name in ("score-delete", "score-game"):
        assert client.post(urls[name]).status_code == 302
    assert client.get(urls["score-state"]).status_code == 401
    for name in ("score-preview", "score-hand"):
        response = _post_json(client, urls[name], {"hand": belgian_hand(1)})
        assert response.status_code == 401
        assert response.json()["refusals"][0]["code"] == "signed_out"
    assert not Hand.objects.exists()


def test_scorekeeper_of_a_gets_404_on_everything_of_b(setup, keeper_client):
    mb, ma = setup["mb"], setup["ma"]
    enter_hands(mb, 1)
    assert keeper_client.get(reverse("ws:score", args=["brugse-beker"])).status_code == 404
    # B's match by B's slug, and by A's slug (a match id of another tournament is not found either).
    for slug in ("brugse-beker", "gentse-beker"):
        urls = _urls(slug, mb.pk)
        for name in ("score-match", "score-state", "score-correct"):
            assert keeper_client.get(urls[name]).status_code == 404, (slug, name)
        for name in ("score-preview", "score-hand"):
            assert _post_json(keeper_client, urls[name], {"hand": belgian_hand(2)}).status_code == 404
        assert keeper_client.post(urls["score-match"], {"dealer": "E"}).status_code == 404
        assert keeper_client.post(urls["score-delete"], {"hand": mb.games.get().hands.get().pk}).status_code == 404
        assert keeper_client.post(urls["score-game"], {"first_dealer": "N"}).status_code == 404
    # A's match under B's slug.
    assert keeper_client.get(_urls("brugse-beker", ma.pk)["score-match"]).status_code == 404
    assert Hand.objects.filter(game__match=mb).count() == 1


def test_organizer_may_enter_and_a_plain_user_may_not(setup):
    organizer, stranger = UserFactory(username="org"), UserFactory(username="stranger")
    setup["a"].organizers.add(organizer)
    url = reverse("ws:score-match", args=["gentse-beker", setup["ma"].pk])
    client = Client()
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    client.force_login(stranger)
    assert client.get(url).status_code == 404


# --------------------------------------------------------------------------- the match list


def test_match_list_current_round_first_with_running_score(setup, keeper_client, django_assert_max_num_queries):
    ma = setup["ma"]
    enter_hands(ma, 2)
    with django_assert_max_num_queries(10):  # one for the nav: organizer or not
        response = keeper_client.get(reverse("ws:score", args=["gentse-beker"]))
    assert response.status_code == 200
    body = response.content.decode()
    game = ma.games.get()
    assert f"{game.total_ns}–{game.total_ew}" in body
    assert reverse("ws:score-match", args=["gentse-beker", ma.pk]) in body
    assert "Brugse" not in body


def test_match_list_empty_before_pairing(keeper_client, setup):
    from tests.factories import TournamentFactory

    t = TournamentFactory(slug="nog-niet")
    t.scorekeepers.add(setup["keeper"])
    response = keeper_client.get(reverse("ws:score", args=["nog-niet"]))
    assert response.status_code == 200
    assert "No round is paired yet" in response.content.decode()


# --------------------------------------------------------------------------- the entry page


def test_entry_page_offers_only_the_variants_calls(setup, keeper_client, django_assert_max_num_queries):
    ma = setup["ma"]
    enter_hands(ma, 3)
    with django_assert_max_num_queries(10):  # one for the nav: organizer or not
        body = keeper_client.get(reverse("ws:score-match", args=["gentse-beker", ma.pk])).content.decode()
    assert 'name="trump" value="none"' in body  # Belgian: no trump
    assert 'name="blind"' in body and 'name="doublings"' in body
    assert 'name="turned_rank"' not in body
    assert 'name="penalty_type" value="signalling"' in body
    # The next dealer (W after S) is prefilled, the hand numbered.
    assert 'name="dealer" value="W" checked' in body
    assert 'name="number" value="4"' in body and 'name="game" value="1"' in body
    assert 'id="ws-entry-config"' in body and "ws-entry.js" in body


def test_entry_page_of_a_turned_trump_variant(setup, keeper_client):
    from tests.factories import EntryFactory, TeamFactory, TournamentFactory
    from tournaments.services.rounds import round_pair

    t = TournamentFactory(slug="spaanse-beker", variant="spanish-manilla")
    for i in range(2):
        EntryFactory(tournament=t, team=TeamFactory(name=f"Equipo {i}"), seed=i + 1)
    round_pair(tournament=t)
    t.scorekeepers.add(setup["keeper"])
    match = _played(t)[0]
    body = keeper_client.get(reverse("ws:score-match", args=["spaanse-beker", match.pk])).content.decode()
    assert 'name="turned_rank" value="12"' in body and 'name="turned_suit" value="O"' in body
    assert 'name="trump"' not in body and 'name="doublings"' not in body and 'name="blind"' not in body
    assert 'name="penalty_type"' not in body


def test_form_post_without_javascript_stores_the_hand(setup, keeper_client):
    ma = setup["ma"]
    url = reverse("ws:score-match", args=["gentse-beker", ma.pk])
    response = keeper_client.post(url, {"dealer": "N", "trump": "H", "tricks_ns": "5", "tricks_ew": "3",
                                        "points_ns": "37", "points_ew": "23", "doublings": "0",
                                        "key": "form-1", "game": "1", "number": "1"}, follow=True)
    assert response.status_code == 200
    hand = Hand.objects.get(game__match=ma)
    keeper = setup["keeper"]
    assert (hand.score_ns, hand.entered_by, hand.idempotency_key) == (7, keeper, f"{keeper.pk}:form-1")
    assert "Hand 1 of game 1 stored" in response.content.decode()
    # The same form sent twice (a double tap) stores nothing more.
    keeper_client.post(url, {"dealer": "N", "trump": "H", "tricks_ns": "5", "tricks_ew": "3", "points_ns": "37",
                             "points_ew": "23", "key": "form-1", "game": "1", "number": "1"})
    assert Hand.objects.filter(game__match=ma).count() == 1


def test_form_post_refusal_is_shown_on_its_field(setup, keeper_client):
    ma = setup["ma"]
    url = reverse("ws:score-match", args=["gentse-beker", ma.pk])
    response = keeper_client.post(url, {"dealer": "N", "trump": "H", "tricks_ns": "5", "tricks_ew": "4",
                                        "points_ns": "37", "points_ew": "23", "key": "form-2"})
    assert response.status_code == 400
    body = response.content.decode()
    assert ('<p class="field-error" id="err-tricks">The tricks of the two teams must add up to 8; '
            'these add up to 9.</p>') in body
    assert 'name="tricks_ew" inputmode="numeric" min="0" max="8" value="4"' in body  # what was typed stays
    assert not Hand.objects.exists()


# --------------------------------------------------------------------------- JSON: enter, preview, state


def test_json_enter_stores_once_per_key(setup, keeper_client):
    ma = setup["ma"]
    url = reverse("ws:score-hand", args=["gentse-beker", ma.pk])
    body = {"hand": belgian_hand(1), "game": 1, "number": 1, "key": "5b7e0c1e-aaaa-4bbb-8ccc-000000000001"}
    first = _post_json(keeper_client, url, body)
    assert first.status_code == 201
    data = first.json()
    assert data["stored"]["number"] == 1 and data["stored"]["replayed"] is False
    assert data["state"]["number"] == 2 and data["state"]["next_dealer"] == "E"
    again = _post_json(keeper_client, url, body)  # the answer was lost: the queue sends it again
    assert again.status_code == 200 and again.json()["stored"]["replayed"] is True
    assert again.json()["stored"]["id"] == data["stored"]["id"]
    assert Hand.objects.filter(game__match=ma).count() == 1


def test_json_enter_a_key_sent_again_with_another_hand_is_refused_in_words(setup, keeper_client):
    ma = setup["ma"]
    url = reverse("ws:score-hand", args=["gentse-beker", ma.pk])
    first = _post_json(keeper_client, url, {"hand": belgian_hand(1), "game": 1, "number": 1, "key": "q-1"})
    assert first.status_code == 201
    # The same hand with its fields in another order is the same request.
    reordered = dict(reversed(list(belgian_hand(1).items())))
    again = _post_json(keeper_client, url, {"key": "q-1", "number": 1, "game": 1, "hand": reordered})
    assert again.status_code == 200 and again.json()["stored"]["replayed"] is True
    for body in ({"hand": belgian_hand(2), "game": 1, "number": 2, "key": "q-1"},  # another hand
                 {"hand": belgian_hand(1), "game": 1, "number": 2, "key": "q-1"},  # another place
                 {"hand": {"dealer": 5}, "game": 1, "number": 1, "key": "q-1"},  # no hand
                 {"hand": belgian_hand(1), "game": 1, "number": "one", "key": "q-1"}):  # no number
        response = _post_json(keeper_client, url, body)
        assert response.status_code == 422, (body, response.json())
        refusal = response.json()["refusals"][0]
        assert refusal["code"] == "idempotency_key_mismatch" and refusal["field"] == ""
        assert refusal["message"].startswith("This entry was already sent with another hand, which is stored")
    assert list(Hand.objects.filter(game__match=ma).values_list("number", "points_ns")) == [(1, 37)]


def test_form_post_a_key_sent_again_with_another_hand_is_refused_with_a_new_key(setup, keeper_client):
    """The browser's Back button brings a sent form back; what is typed in it now is another hand."""
    ma = setup["ma"]
    url = reverse("ws:score-match", args=["gentse-beker", ma.pk])
    typed = {"dealer": "N", "trump": "H", "tricks_ns": "5", "tricks_ew": "3", "points_ns": "37", "points_ew": "23",
             "key": "form-9", "game": "1", "number": "1"}
    assert keeper_client.post(url, typed).status_code == 302
    response = keeper_client.post(url, typed | {"points_ns": "40", "points_ew": "20"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "This entry was already sent with another hand, which is stored" in body
    assert 'value="form-9"' not in body  # sent again, the form is a new request
    assert keeper_client.post(url, typed | {"tricks_ns": "five"}).status_code == 400  # not a hand: the same
    assert "This entry was already sent with another hand" in keeper_client.post(
        url, typed | {"tricks_ns": "five"}).content.decode()
    assert list(Hand.objects.filter(game__match=ma).values_list("number", "points_ns")) == [(1, 37)]


@pytest.mark.parametrize(("hand", "code", "field"), [
    ({"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 30}},
     "points_total", "points"),
    ({"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 4}, "points": {"ns": 37, "ew": 23}},
     "tricks_total", "tricks"),
    ({"dealer": "N", "trump": "X", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}},
     "trump_invalid", "trump"),
    ({"dealer": "N", "trump": "H", "tricks": {"ns": 0, "ew": 8}, "points": {"ns": 10, "ew": 50}},
     "points_impossible", "points"),
])
def test_json_refusals_name_their_field(setup, keeper_client, hand, code, field):
    ma = setup["ma"]
    response = _post_json(keeper_client, reverse("ws:score-hand", args=["gentse-beker", ma.pk]),
                          {"hand": hand, "game": 1, "number": 1, "key": "k-" + code})
    assert response.status_code == 400
    refusal = response.json()["refusals"][0]
    assert (refusal["code"], refusal["field"]) == (code, field)
    assert refusal["message"] and refusal["detail"] and "%(" not in refusal["message"]
    assert not Hand.objects.exists()


def test_json_dealer_out_of_turn_says_who_deals(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 1)
    response = _post_json(keeper_client, reverse("ws:score-hand", args=["gentse-beker", ma.pk]),
                          {"hand": belgian_hand(1), "game": 1, "number": 2, "key": "k-dealer"})
    refusal = response.json()["refusals"][0]
    assert (response.status_code, refusal["code"], refusal["field"]) == (400, "dealer_out_of_turn", "dealer")
    assert refusal["message"] == "E deals this hand: N dealt the previous one."  # the admin's words


def test_json_hand_meant_for_a_decided_game_is_refused_on_game(setup, keeper_client):
    ma = setup["ma"]
    hand_url = reverse("ws:score-hand", args=["gentse-beker", ma.pk])
    for n in range(1, 5):  # 60-0 hands: NS reaches 101 in hand 4? keep entering until the game ends
        _post_json(keeper_client, hand_url, {"hand": belgian_hand(n, 60), "game": 1, "number": n, "key": f"w{n}"})
        if ma.games.get(number=1).status == Game.Status.FINISHED:
            break
    assert ma.games.get(number=1).status == Game.Status.FINISHED
    n += 1
    response = _post_json(keeper_client, hand_url, {"hand": belgian_hand(n, 60), "game": 1, "number": n, "key": "late"})
    refusal = response.json()["refusals"][0]
    assert (response.status_code, refusal["code"], refusal["field"]) == (409, "game_number", "game")


def test_json_enter_refuses_without_csrf(setup):
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup["keeper"])
    ma = setup["ma"]
    url = reverse("ws:score-hand", args=["gentse-beker", ma.pk])
    body = {"hand": belgian_hand(1), "game": 1, "number": 1, "key": "csrf-1"}
    assert _post_json(client, url, body).status_code == 403
    assert _post_json(client, reverse("ws:score-preview", args=["gentse-beker", ma.pk]), body).status_code == 403
    assert not Hand.objects.exists()
    page = client.get(reverse("ws:score-match", args=["gentse-beker", ma.pk]))
    token = page.cookies["csrftoken"].value
    assert _post_json(client, url, body, HTTP_X_CSRFTOKEN=token).status_code == 201


def test_preview_scores_without_storing(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 2)
    before = ma.games.get()
    url = reverse("ws:score-preview", args=["gentse-beker", ma.pk])
    response = _post_json(keeper_client, url, {"hand": {**belgian_hand(3, 40), "doublings": 1}})
    assert response.status_code == 200
    p = response.json()["preview"]
    assert (p["game"], p["number"], p["multiplier"]) == (1, 3, 2)
    assert p["score"] == {"ns": 20, "ew": 0}
    assert p["totals"] == {"ns": before.total_ns + 20, "ew": before.total_ew}
    assert Hand.objects.filter(game__match=ma).count() == 2
    bad = _post_json(keeper_client, url, {"hand": {**belgian_hand(3), "doublings": 1, "blind": True}})
    assert bad.status_code == 400
    assert {r["field"] for r in bad.json()["refusals"]} == {"blind"}


def test_preview_of_a_first_hand_and_of_a_decided_match(setup, keeper_client):
    ma = setup["ma"]
    url = reverse("ws:score-preview", args=["gentse-beker", ma.pk])
    p = _post_json(keeper_client, url, {"hand": belgian_hand(1, first_dealer="S")}).json()["preview"]
    assert (p["game"], p["number"], p["next_dealer"]) == (1, 1, "W")
    Match.objects.filter(pk=ma.pk).update(status=Match.Status.FINISHED)
    refused = _post_json(keeper_client, url, {"hand": belgian_hand(1)})
    assert refused.json()["refusals"][0]["code"] == "game_over"


def test_state_endpoint(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 3)
    state = keeper_client.get(reverse("ws:score-state", args=["gentse-beker", ma.pk])).json()["state"]
    assert (state["game"], state["number"], state["next_dealer"], state["playing"]) == (1, 4, "W", True)
    assert len(state["hands"]) == 3


def test_a_decided_match_shows_how_its_last_game_ended(setup, keeper_client):
    ma = setup["ma"]
    for _ in range(60):
        if Match.objects.get(pk=ma.pk).status == Match.Status.FINISHED:
            break
        enter_hands(ma, 1)
    last = ma.games.order_by("-number").first()
    state = keeper_client.get(reverse("ws:score-state", args=["gentse-beker", ma.pk])).json()["state"]
    assert state["decided"] and state["totals"] == {"ns": last.total_ns, "ew": last.total_ew}
    assert last.total_ns >= 101  # not the 0-0 of a game that will never be played


# --------------------------------------------------------------------------- correct, delete, start a game


def test_correct_the_last_hand(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 2)
    url = reverse("ws:score-correct", args=["gentse-beker", ma.pk])
    page = keeper_client.get(url).content.decode()
    assert 'name="points_ns" inputmode="numeric" min="0" max="60" value="37"' in page
    response = keeper_client.post(url, {"dealer": "E", "trump": "S", "tricks_ns": "6", "tricks_ew": "2",
                                        "points_ns": "45", "points_ew": "15", "doublings": "0",
                                        "reason": "trump misread"})
    assert response.status_code == 302
    hand = Hand.objects.get(game__match=ma, number=2)
    assert (hand.trump, hand.points_ns, hand.score_ns) == ("S", 45, 15)
    assert hand.history.first().history_change_reason == "corrected: trump misread"
    bad = keeper_client.post(url, {"dealer": "E", "trump": "S", "tricks_ns": "6", "tricks_ew": "2",
                                   "points_ns": "45", "points_ew": "16", "reason": "points"})
    assert bad.status_code == 400
    assert 'id="err-points">The points of the two teams must add up to 60; these add up to 61.' in bad.content.decode()


def test_a_correction_needs_a_reason_kept_in_the_history(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 2)
    url = reverse("ws:score-correct", args=["gentse-beker", ma.pk])
    assert 'name="reason"' in keeper_client.get(url).content.decode()
    hand = {"dealer": "E", "trump": "S", "tricks_ns": "6", "tricks_ew": "2", "points_ns": "45", "points_ew": "15",
            "doublings": "0"}
    for reason in ("", "   ", "x" * 81):
        refused = keeper_client.post(url, {**hand, "reason": reason})
        assert refused.status_code == 400
        assert 'id="err-reason">Say why the hand is corrected' in refused.content.decode()
    stored = Hand.objects.get(game__match=ma, number=2)
    assert (stored.points_ns, stored.history.count()) == (37, 1)  # nothing saved
    assert keeper_client.post(url, {**hand, "reason": "  sheet   misread "}).status_code == 302
    assert stored.history.first().history_change_reason == "corrected: sheet misread"


def test_delete_the_last_hand_once(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 2)
    last = Hand.objects.get(game__match=ma, number=2)
    url = reverse("ws:score-delete", args=["gentse-beker", ma.pk])
    assert keeper_client.post(url, {"hand": last.pk}).status_code == 302
    assert keeper_client.post(url, {"hand": last.pk}).status_code == 302  # a second tap: hand 1 stays
    assert list(Hand.objects.filter(game__match=ma).values_list("number", flat=True)) == [1]


def test_start_a_game_with_its_first_dealer_and_favourite(setup, keeper_client):
    from tests.factories import EntryFactory, TeamFactory, TournamentFactory
    from tournaments.services.rounds import round_pair

    t = TournamentFactory(slug="malilla", variant="classic-malilla")
    for i in range(2):
        EntryFactory(tournament=t, team=TeamFactory(name=f"Parella {i}"), seed=i + 1)
    round_pair(tournament=t)
    t.scorekeepers.add(setup["keeper"])
    match = _played(t)[0]
    page = keeper_client.get(reverse("ws:score-match", args=["malilla", match.pk])).content.decode()
    assert 'name="favourite"' in page and 'name="albur"' not in page
    response = keeper_client.post(reverse("ws:score-game", args=["malilla", match.pk]),
                                  {"first_dealer": "S", "favourite": "O", "albur": "ns"})
    assert response.status_code == 302
    game = match.games.get()
    assert (game.first_dealer, game.favourite, game.albur) == ("S", "O", "")
    # Belgian: no favourite, whatever is posted.
    ma = setup["ma"]
    keeper_client.post(reverse("ws:score-game", args=["gentse-beker", ma.pk]), {"first_dealer": "W", "favourite": "H"})
    assert (ma.games.get().first_dealer, ma.games.get().favourite) == ("W", "")


# --------------------------------------------------------------------------- the Service Worker, the public page


def test_service_worker_script(client):
    response = client.get(reverse("ws:entry-sw"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/my/"
    body = response.content.decode()
    assert body.startswith("self.WS_ENTRY = ") and "/static/web/ws-entry.js" in body
    assert "addEventListener(\"fetch\"" in body


def test_public_match_page_links_to_entry_for_signed_in_users_only(setup, client, keeper_client):
    ma = setup["ma"]
    url = reverse("web:match", args=["gentse-beker", ma.pk])
    enter = reverse("ws:score-match", args=["gentse-beker", ma.pk])
    assert enter not in client.get(url).content.decode()
    assert enter in keeper_client.get(url).content.decode()


# --------------------------------------------------------------------------- issue 25: words and refusals


def _words_of(response) -> dict:
    body = response.content.decode()
    start = body.index('<script id="ws-entry-words" type="application/json">') + len(
        '<script id="ws-entry-words" type="application/json">')
    return json.loads(body[start:body.index("</script>", start)])


@pytest.mark.parametrize(("language", "seats", "hearts"), [
    ("nl", {"N": "N", "E": "O", "S": "Z", "W": "W"}, "♥ harten"),
    ("fr", {"N": "N", "E": "E", "S": "S", "W": "O"}, "♥ cœur"),
    ("en", {"N": "N", "E": "E", "S": "S", "W": "W"}, "♥ hearts"),
])
def test_the_scripts_words_name_seats_and_suits_in_the_pages_language(setup, keeper_client, language, seats,
                                                                       hearts):
    """The queue describes a hand from these words: a Dutch page says O and Z, as its seat buttons do."""
    ma = setup["ma"]
    response = keeper_client.get(reverse("ws:score-match", args=["gentse-beker", ma.pk]),
                                 HTTP_ACCEPT_LANGUAGE=language)
    words = _words_of(response)
    assert {k: words["seats"][k] for k in "NESW"} == seats
    assert words["suits"]["H"] == hearts and words["cards"] == {}  # a Belgian game has no turned card
    assert "%(total)s" in words["points_total"] and "%(got)s" in words["points_total"]


def test_a_turned_trump_variant_names_its_cards_for_the_queue(keeper_client, setup):
    from tests.factories import EntryFactory, TeamFactory, TournamentFactory
    from tournaments.services.rounds import round_pair

    t = TournamentFactory(slug="spaanse-beker", variant="spanish-manilla")
    for i in range(2):
        EntryFactory(tournament=t, team=TeamFactory(name=f"Equipo {i + 1}"), seed=i + 1)
    round_pair(tournament=t)
    t.scorekeepers.add(setup["keeper"])
    match = Match.objects.get(round__tournament=t)
    words = _words_of(keeper_client.get(reverse("ws:score-match", args=[t.slug, match.pk]),
                                        HTTP_ACCEPT_LANGUAGE="es"))
    assert words["cards"]["12O"] == "rey de oros" and words["suits"]["O"] == "oros"


@pytest.mark.parametrize("hand", [
    {"dealer": "E", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 30}},  # points_total
    {"dealer": "E", "trump": "H", "tricks": {"ns": 5, "ew": 4}, "points": {"ns": 37, "ew": 23}},  # tricks_total
    {"dealer": "E", "trump": "H", "tricks": {"ns": 0, "ew": 8}, "points": {"ns": 10, "ew": 50}},  # 0 tricks
    {"dealer": "E", "trump": "H", "tricks": {"ns": 1, "ew": 7}, "points": {"ns": 30, "ew": 30}},  # out of range
    {"dealer": "S", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}},  # out of turn
])
def test_a_refusal_says_what_the_api_and_the_admin_say(setup, keeper_client, hand):
    """The same bad hand: the entry's code, field and detail are the API's, its sentence is the admin's."""
    from api.models import AuthToken
    from rest_framework.test import APIClient

    import scoring
    from tournaments.admin.forms import refusal_text
    from tournaments.services.hands import hand_enter

    ma = setup["ma"]
    enter_hands(ma, 1)  # N dealt hand 1: E deals hand 2
    entry = _post_json(keeper_client, reverse("ws:score-hand", args=["gentse-beker", ma.pk]),
                       {"hand": hand, "game": 1, "number": 2, "key": "k-same"})
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(setup['keeper'])[1]}")
    api_answer = api.post(f"/api/v1/matches/{ma.pk}/hands/", hand, format="json")
    assert entry.status_code == api_answer.status_code == 400
    refusals, errors = entry.json()["refusals"], api_answer.json()["errors"]
    assert [(r["code"], r["attr"], r["detail"]) for r in refusals] == [(e["code"], e["attr"], e["detail"])
                                                                      for e in errors]
    with pytest.raises(scoring.RuleViolation) as refused:
        hand_enter(match=ma, data=hand)
    admin_words = refusal_text(refused.value, {"ns": ma.ns.name, "ew": ma.ew.name})
    assert " ".join(r["message"] for r in refusals) == admin_words
    assert "refused" not in admin_words.lower() and "(" + refusals[0]["code"] not in admin_words


def test_a_refusal_in_dutch_names_the_seats_in_dutch(setup, keeper_client):
    ma = setup["ma"]
    enter_hands(ma, 1)
    response = _post_json(keeper_client, reverse("ws:score-hand", args=["gentse-beker", ma.pk]),
                          {"hand": belgian_hand(1) | {"dealer": "S"}, "game": 1, "number": 2, "key": "k-nl"},
                          HTTP_ACCEPT_LANGUAGE="nl")
    assert response.json()["refusals"][0]["message"] == "O geeft deze deling: N gaf de vorige."


def test_the_entry_page_has_one_h1_naming_the_table_and_round(setup, keeper_client):
    ma = setup["ma"]
    body = keeper_client.get(reverse("ws:score-match", args=["gentse-beker", ma.pk])).content.decode()
    assert body.count("<h1") == 1
    assert f'<h1 class="entry-h1">Table {ma.table} · Round 1</h1>' in body

"""The director's evening, end to end on the real server (API and pages, headless Chromium): a round of four tables
of a team event that waits for its results' confirmation. Table 1's result is confirmed by the opponents from
their phone (the API, with a personal code); table 2's is disputed from the phone and settled by the director at
the desk; table 3 is forfeited and at table 4 a pair withdraws mid-match, both on the director's actions page.
Then the standings (the API and the public page), the public round page and the director's history (the result
steps and the actions) agree. Every page at 390 and 1280 px without sideways scrolling (screenshots in
$SCREENSHOT_DIR when set).

The test's own writes happen while no page polls (the pages are parked on about:blank), as SQLite's shared-cache
test database asks; run it on PostgreSQL (DATABASE_URL) as well.
"""

import re

import pytest

from api.models import AuthToken
from tests.factories import UserFactory
from tests.tournaments.test_rounds_service import make_tournament
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import belgian_hand
from tests.web.workspace.test_organize_browser import shoot, sign_in
from tournaments.models import DirectorAction, ResultEvent, Standing, Team
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night():
    organizer = UserFactory(username="orga", password="orga-password")
    tournament, _teams = make_tournament(8, best_of=1, confirmation="opponents", unconfirmed="wait", public=True,
                                         rounds=3, slug="desk-night", name="Desk night")
    tournament.organizers.add(organizer)
    rnd = round_pair(tournament=tournament)
    tables = list(rnd.matches.select_related("ns", "ew").order_by("table"))
    assert len(tables) == 4
    players = [p for m in tables for p in (m.ns.player_1_id, m.ns.player_2_id, m.ew.player_1_id, m.ew.player_2_id)]
    codes = personal_codes(tournament, players)
    _key_object, key = AuthToken.objects.create(organizer)
    with AsgiServer() as server:
        yield server, tournament, tables, codes, key


def play(match, device, hands=20):
    """The table's phone enters hands of 60-0 for NS: to the game's (the match's) end, or ``hands`` of them."""
    with acting(device=device):
        for number in range(1, hands + 1):
            hand, _ = hand_enter(match=match, data=belgian_hand(number, 60))
            if hand.game_winner:
                return


def phone_post(page, server, path, body, device):
    """A phone's request to the API (its own id in ``X-Device``), as the players' app sends it."""
    return page.request.post(f"{server.url}{path}", data=body, headers={"X-Device": device})


def take(page, kind, match, reason, **selects):
    """The actions page: open the kind's form, pick the match and its choices, give the reason, record."""
    page.click(f"#desk-take details:has(input[name=kind][value={kind}]) summary")
    page.select_option(f"#{kind}-match", str(match.pk))
    for name, value in selects.items():
        page.select_option(f"#{kind}-{name}", value)
    page.fill(f"#{kind}-reason", reason)
    page.click(f"form:has(input[name=kind][value={kind}]) button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize("width", [390, 1280])
def test_four_tables_confirmed_disputed_forfeited_and_withdrawn_agree_everywhere(browser, night, width):  # noqa: F811
    server, t, (one, two, three, four), codes, key = night
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="en")
    director = context.new_page()
    phones = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    phone = phones.new_page()

    # The tables play (the test thread writes: no page is open yet).
    play(one, "phone-ns-1")
    play(two, "phone-ns-2")
    play(four, "phone-ns-4", hands=1)  # game 1 under way
    for m in (one, two, four):
        m.refresh_from_db()
    assert (one.result_status, two.result_status, four.status) == ("entered", "entered", "playing")

    # Table 1: an opponent confirms from their phone with their code; table 2: one disputes.
    phone.goto(f"{server.url}/t/{t.slug}/matches/{one.pk}/")
    shoot(phone, "walk-public-match-entered")
    ew1, ew2 = one.ew.player_1_id, two.ew.player_2_id
    # The table's code binds the phone to the match (on the score sheet), the personal code names the player.
    answer = phone_post(phone, server, f"/api/v1/matches/{one.pk}/confirm/",
                        {"player": ew1, "code": codes[ew1], "table_code": one.table_code}, "phone-ew-1")
    assert answer.status == 200, answer.text()
    assert answer.json()["result_status"] == "confirmed"
    answer = phone_post(phone, server, f"/api/v1/matches/{two.pk}/dispute/",
                        {"player": ew2, "code": codes[ew2], "reason": "Hand 3 was ours, 40-20.",
                         "table_code": two.table_code}, "phone-ew-2")
    assert answer.status == 200 and answer.json()["result_status"] == "disputed", answer.text()
    answer = phone_post(phone, server, f"/api/v1/matches/{one.pk}/confirm/",
                        {"player": ew1, "code": codes[ew1], "table_code": one.table_code}, "phone-ew-1")
    assert answer.status == 409  # confirmed already: nothing more to confirm

    # The director: the desk shows the dispute; settled with a reason.
    sign_in(director, server, f"/my/t/{t.slug}/desk/")
    director.wait_for_selector("#desk-rows")
    rows = director.inner_text("#desk-rows")
    assert "Disputed" in rows and "Hand 3 was ours" in rows
    shoot(director, "walk-desk-dispute")
    director.fill(f"#reason-{two.pk}", "The score sheet says 60-0 every hand.")
    director.click(f"#desk-{two.pk} button[value=settle]")
    director.wait_for_load_state()
    assert f"desk-{two.pk}" not in director.content()
    shoot(director, "walk-desk-settled")

    # The actions page: table 3 forfeited (EW never came), table 4's NS pair withdraws mid-match.
    director.goto(f"{server.url}/my/t/{t.slug}/actions/")
    shoot(director, "walk-actions-empty")
    take(director, "forfeit", three, "EW did not turn up by 20:15", absent="ew")
    assert "Forfeit recorded" in director.content()
    take(director, "withdrawal", four, "NS left: a family emergency", side="ns")
    assert "Withdrawal mid-match recorded" in director.content()
    listed = director.inner_text("#desk-actions")
    assert "EW did not turn up by 20:15" in listed and "NS left: a family emergency" in listed
    shoot(director, "walk-actions-taken")

    # The standings (the pages parked while the test thread recomputes them).
    director.goto("about:blank")
    phone.goto("about:blank")
    standings_recompute(tournament=t)
    for m in (one, two, three, four):
        m.refresh_from_db()
    assert [(m.status, m.winner, m.result_status, m.forfeit, m.decided_by) for m in (one, two, three, four)] == [
        ("finished", "ns", "confirmed", "", ""), ("finished", "ns", "final", "", ""),
        ("finished", "ns", "", "ew", "forfeit"), ("finished", "ew", "", "", "withdrawal")]
    stored = {s.team_id: s for s in Standing.objects.filter(tournament=t)}
    winners = {one.ns_id, two.ns_id, three.ns_id, four.ew_id}
    assert {team for team, s in stored.items() if s.match_points == t.points_win} == winners
    assert (stored[three.ns_id].forfeits_won, stored[three.ew_id].forfeits_lost) == (1, 1)
    assert (stored[three.ns_id].played, stored[four.ew_id].played) == (0, 1)

    api = director.request.get(f"{server.url}/api/v1/tournaments/{t.pk}/standings/?limit=50")
    assert api.ok, api.text()
    body = api.json()
    rows = body["results"] if isinstance(body, dict) and "results" in body else body.get("rows", body)
    by_team = {r["team"] if isinstance(r["team"], int) else r["team"]["id"]: r for r in rows}
    assert {team: (r["rank"], r["match_points"], r["played"], r["forfeits_won"], r["forfeits_lost"])
            for team, r in by_team.items()} == {
        team: (s.rank, s.match_points, s.played, s.forfeits_won, s.forfeits_lost) for team, s in stored.items()}

    director.goto(f"{server.url}/t/{t.slug}/standings/")
    director.wait_for_selector("table.standings tbody tr")
    page_rows = director.eval_on_selector_all(
        "table.standings tbody tr",
        "rows => rows.map(r => [r.querySelector('th a').textContent.trim(), "
        "r.querySelector('td.strong').textContent.trim()])")
    names = dict(Team.objects.filter(pk__in=stored).values_list("pk", "name"))
    ordered = sorted(stored.values(), key=lambda s: s.position)
    assert page_rows == [[names[s.team_id], str(s.match_points)] for s in ordered]
    shoot(director, "walk-public-standings")

    # The public round page: four tables finished, each winner marked.
    director.goto(f"{server.url}/t/{t.slug}/rounds/1/")
    director.wait_for_selector(".round-tables .table-card")
    cards = director.eval_on_selector_all(
        ".round-tables .table-card",
        "cards => cards.map(c => [c.className, (c.querySelector('.winner .name') || {}).textContent || ''])")
    assert [re.search(r"state-(\w+)", cls).group(1) for cls, _ in cards] == ["finished"] * 4
    assert [name for _, name in cards] == [names[one.ns_id], names[two.ns_id], names[three.ns_id],
                                           names[four.ew_id]]
    assert "4 of 4 matches finished" in director.inner_text("main")
    shoot(director, "walk-public-round")

    # The director's history: every result step and every action, through the API, as the rows say.
    auth = {"Authorization": f"Token {key}"}
    steps = {}
    for m in (one, two, three, four):
        answer = director.request.get(f"{server.url}/api/v1/matches/{m.pk}/result-events/", headers=auth)
        assert answer.ok, answer.text()
        steps[m.table] = [(e["kind"], e["status"], e["side"], e["reason"]) for e in answer.json()]
    assert steps == {
        1: [("entered", "entered", "", ""), ("confirmed", "confirmed", "ew", "")],
        2: [("entered", "entered", "", ""), ("disputed", "disputed", "ew", "Hand 3 was ours, 40-20."),
            ("settled", "final", "", "The score sheet says 60-0 every hand.")],
        3: [], 4: []}
    assert steps[1] == [(e.kind, e.status, e.side, e.reason) for e in ResultEvent.objects.filter(match=one)
                        .order_by("at", "id")]
    answer = director.request.get(f"{server.url}/api/v1/tournaments/{t.pk}/actions/", headers=auth)
    assert answer.ok, answer.text()
    body = answer.json()
    actions = body["results"] if isinstance(body, dict) else body
    assert [(a["kind"], a["match"], a["params"].get("absent") or a["params"].get("side"), a["reason"], a["active"])
            for a in actions] == [("forfeit", three.pk, "ew", "EW did not turn up by 20:15", True),
                                  ("withdrawal", four.pk, "ns", "NS left: a family emergency", True)]
    assert [a["id"] for a in actions] == list(DirectorAction.objects.filter(tournament=t).order_by(
        "created_at", "id").values_list("pk", flat=True))
    for m, table in ((one, 1), (three, 3), (four, 4)):
        director.goto(f"{server.url}/t/{t.slug}/matches/{m.pk}/")
        shoot(director, f"walk-public-match-{table}")
    context.close()
    phones.close()

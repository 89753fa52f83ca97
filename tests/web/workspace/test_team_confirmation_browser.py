"""A team event's result confirmed by the other team, in headless Chromium at a phone's 390 px: one phone opens
table 1 by its code and the game is entered from it, another phone opens the same table, names a player of the
other team with their personal code and confirms; the entering phone shows it confirmed. No sideways scrolling
(screenshots in $SCREENSHOT_DIR when set)."""

import pytest

from tests.factories import EntryFactory, TournamentFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tests.web.conftest import belgian_hand
from tests.web.workspace.test_confirmation_browser import phone
from tests.web.workspace.test_organize_browser import shoot
from tournaments.models import Match, Tournament
from tournaments.services.confirmation import acting, personal_codes
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hall():
    t = TournamentFactory(best_of=1, confirmation="opponents", slug="ploegen-avond")
    for _ in range(4):
        EntryFactory(tournament=t)
    round_pair(tournament=t)
    with AsgiServer() as server:
        yield server, Tournament.objects.get(pk=t.pk)


def test_the_other_team_confirms_a_team_match_on_its_own_phone(browser, hall):  # noqa: F811
    server, t = hall
    match = Match.objects.select_related("ns", "ew__player_1").get(round__tournament=t, table=1)
    first, page_a, device_a = phone(browser, server, t, match.table_code)
    assert match.ns.name in page_a.content() and match.ew.name in page_a.content()
    shoot(page_a, "team-table-entry")
    page_a.goto("about:blank")  # the table's page polls: the test's writes wait for it to stop (SQLite)
    with acting(device=device_a):
        for number in range(1, 20):
            hand, _ = hand_enter(match=match, data=belgian_hand(number, 60))
            if hand.game_winner:
                break
    page_a.goto(f"{server.url}/my/t/{t.slug}/table/{match.pk}/")
    assert "Waiting for confirmation" in page_a.inner_text(".result-status")
    assert page_a.query_selector("a[href$='/confirm/']") is None  # the entering phone does not confirm

    player = match.ew.player_1
    code = personal_codes(t, [player.pk])[player.pk]
    second, page_b, _device_b = phone(browser, server, t, match.table_code.lower())
    page_b.click("a[href$='/confirm/']")
    page_b.wait_for_load_state()
    assert player.name in page_b.inner_text("main")
    shoot(page_b, "team-confirm-form")
    page_b.check(f"input[name=player][value='{player.pk}']")
    page_b.fill("#confirm-code", code)
    page_b.click("button[value=confirm]")
    page_b.wait_for_url(f"**/table/{match.pk}/")
    assert "Confirmed" in page_b.inner_text(".result-status")
    shoot(page_b, "team-confirmed")
    match.refresh_from_db()
    assert match.result_status == "confirmed"
    first.close()
    second.close()

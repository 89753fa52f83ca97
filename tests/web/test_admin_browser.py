"""The admin in real headless Chromium at 1,024 px: a scorekeeper volunteer enters a game from paper."""

import os

import pytest

from tests.factories import MatchFactory, TournamentFactory
from tests.tournaments.test_admin_volunteers import volunteer
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tournaments.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

WIDTH = 1024


@pytest.fixture
def desk():
    """A Belgian match nobody has played yet, a scorekeeper volunteer of its tournament, and the server."""
    tournament = TournamentFactory(name="Gentse Beker", variant="belgian-manille", best_of=3)
    match = MatchFactory(round__tournament=tournament, ns__name="De Ajuinen van Gent", ew__name="Boerenkrijg")
    keeper = volunteer("volunteer", password="volunteer-pw")
    tournament.scorekeepers.add(keeper)
    with AsgiServer() as server:
        yield server, match


def shoot(page, tmp_path, name: str) -> None:
    folder = os.environ.get("ADMIN_SCREENSHOTS") or tmp_path
    os.makedirs(folder, exist_ok=True)
    page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def fill_hand(page, row: int, *, trump: str, tricks: tuple[int, int], points: tuple[int, int]) -> None:
    page.select_option(f"#id_hands-{row}-trump", trump)
    page.fill(f"#id_hands-{row}-tricks_ns", str(tricks[0]))
    page.fill(f"#id_hands-{row}-tricks_ew", str(tricks[1]))
    page.fill(f"#id_hands-{row}-points_ns", str(points[0]))
    page.fill(f"#id_hands-{row}-points_ew", str(points[1]))


def assert_fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    right = page.evaluate("Math.max(...[...document.querySelectorAll('#hands-group th, #hands-group td')]"
                          ".map(c => c.getBoundingClientRect().right))")
    assert width <= WIDTH and right <= WIDTH, (width, right)


def test_a_scorekeeper_enters_a_game_from_paper_and_starts_the_next(browser, desk, tmp_path):  # noqa: F811
    server, match = desk
    page = browser.new_page(viewport={"width": WIDTH, "height": 768})
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", "volunteer")
    page.fill("#id_password", "volunteer-pw")
    page.click("input[type=submit]")
    page.wait_for_selector("#now-panel")
    shoot(page, tmp_path, "1-index")

    page.goto(f"{server.url}/admin/tournaments/match/{match.pk}/change/")
    page.click("text=Start the next game")
    assert page.locator("select#id_first_dealer option", has_text="N (De Ajuinen van Gent)").count() == 1
    assert page.locator("a", has_text="Cancel").count() == 1
    shoot(page, tmp_path, "2-start-game")
    page.select_option("#id_first_dealer", "N")
    page.click("input[name=apply]")
    page.wait_for_selector("#hands-group")
    game = Game.objects.get(match=match, number=1)
    assert page.url.endswith(f"/admin/tournaments/game/{game.pk}/change/")

    # Hand 1: the dealer is prefilled; hearts, 5 tricks to 3, 37 points to 23.
    assert page.input_value("#id_hands-0-dealer") == "N"
    fill_hand(page, 0, trump="H", tricks=(5, 3), points=(37, 23))
    page.click("input[name=_save]")
    page.wait_for_selector("#id_hands-1-dealer")
    assert page.url.endswith(f"/game/{game.pk}/change/")  # stays on the game
    assert page.input_value("#id_hands-1-dealer") == "E"

    # Hand 2 typed wrong from the sheet: refused on its points field, in words.
    fill_hand(page, 1, trump="S", tricks=(3, 5), points=(25, 34))
    page.click("input[name=_save]")
    error = page.locator("#hands-group .errorlist").first
    error.wait_for()
    assert "must add up to 60" in error.inner_text()
    assert "[points_total]" not in page.content()
    shoot(page, tmp_path, "3-refused")
    assert_fits(page)
    page.fill("#id_hands-1-points_ew", "35")
    page.click("input[name=_save]")
    page.wait_for_selector("#id_hands-2-dealer")

    # Hand 3: a muul with all the tricks wins the boam.
    fill_hand(page, 2, trump="none", tricks=(8, 0), points=(60, 0))
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist a", timeout=10000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.hands.count() == 3
    shoot(page, tmp_path, "4-finished")
    assert_fits(page)

    page.click(".messagelist a:has-text('Start the next game')")
    page.select_option("#id_first_dealer", "E")
    page.click("input[name=apply]")
    page.wait_for_selector("#hands-group")
    second = Game.objects.get(match=match, number=2)
    assert page.url.endswith(f"/game/{second.pk}/change/")
    assert page.input_value("#id_hands-0-dealer") == "E"
    shoot(page, tmp_path, "5-next-game")


def login(page, server, username="volunteer", password="volunteer-pw") -> None:
    page.goto(f"{server.url}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_selector("#content")


def test_added_rows_rotate_the_dealer_and_long_team_names_fit(browser, desk, tmp_path):  # noqa: F811
    from tests.factories import TeamFactory
    from tournaments.services.games import game_start

    server, match = desk
    match.ns = TeamFactory(name="Koninklijke Kaartersvereniging Sint-Amandsberg")
    match.ew = TeamFactory(name="Boerenkrijgveteranen")
    match.save()
    game = game_start(match=match, first_dealer="W")
    page = browser.new_page(viewport={"width": WIDTH, "height": 768})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    login(page, server)
    page.goto(f"{server.url}/admin/tournaments/game/{game.pk}/change/")
    assert page.input_value("#id_hands-0-dealer") == "W"
    add = page.locator("#hands-group .add-row a")
    add.click()
    add.click()
    assert page.input_value("#id_hands-1-dealer") == "N"  # Belgian: N, E, S, W in turn
    assert page.input_value("#id_hands-2-dealer") == "E"
    assert page.locator("#hands-group th abbr[title='Koninklijke Kaartersvereniging Sint-Amandsberg']").count() >= 2
    assert_fits(page)
    shoot(page, tmp_path, "6-added-rows")
    assert not errors, errors


def test_the_add_page_reloads_the_house_options_of_the_chosen_variant(browser, desk, tmp_path):  # noqa: F811
    from tests.factories import ClubFactory
    from tournaments.models import Tournament

    server, _match = desk
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("root", password="root-pw")
    ClubFactory(name="KBC Gent")
    page = browser.new_page(viewport={"width": WIDTH, "height": 768})
    login(page, server, "root", "root-pw")
    page.goto(f"{server.url}/admin/tournaments/tournament/add/")
    assert page.locator("#id_option_tie_doubling").count() == 1
    page.fill("#id_name", "Copa de Mayo")
    with page.expect_navigation():
        page.select_option("#id_variant", "mexican-malilla")
    assert "variant=mexican-malilla" in page.url
    assert page.input_value("#id_name") == "Copa de Mayo"
    assert page.locator("#id_option_albur").count() == 1 and page.locator("#id_option_tie_doubling").count() == 0
    shoot(page, tmp_path, "7-add-tournament")
    assert not Tournament.objects.filter(name="Copa de Mayo").exists()

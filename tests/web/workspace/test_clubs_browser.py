"""A club manager in headless Chromium: the empty club, a player added, an import refused line by line, then
done, the club full; at 390 px (no sideways scrolling) and 1280 px.

Screenshots go to ``$WS_SCREENSHOTS`` when it is set (else the test's temporary folder).
"""

import os

import pytest

from tests.factories import ClubFactory, EntryFactory, UserFactory
from tests.web.browser import browser, server  # noqa: F401 (fixtures)
from tournaments.models import Player, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

BAD = ("name,licence,retired\n"
       "An Peeters,A1,\n"
       ",A2,\n"
       "Bert Claes,TAKEN,\n"
       "Cis De Wit,,misschien\n")
PLAYERS = "name,licence\n" + "".join(f"Speler {i:02},L{i:02}\n" for i in range(1, 31))
TEAMS = "name,player_1,player_2\n" + "".join(f"Ploeg {i},L{2 * i - 1:02},L{2 * i:02}\n" for i in range(1, 16))


@pytest.fixture
def club(db):
    club = ClubFactory(name="De Zwarte Kat", city="Gent")
    club.managers.add(UserFactory(username="manager", password="manager"))
    ClubFactory(name="Elders").players.create(name="Iemand Anders", licence="TAKEN")
    return club


def shot(page, tmp_path, name):
    folder = os.environ.get("WS_SCREENSHOTS") or tmp_path
    os.makedirs(folder, exist_ok=True)
    page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def fits(page, viewport):
    return page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def upload(page, name, text):
    page.set_input_files("#id_file", files=[{"name": name, "mimeType": "text/csv", "buffer": text.encode()}])
    page.click("text=Check the file")
    page.wait_for_selector(".club-summary")


@pytest.mark.parametrize(("viewport", "size"), [(PHONE, "390"), (DESKTOP, "1280")])
def test_a_manager_fills_the_club_from_files(browser, server, club, tmp_path, viewport, size):  # noqa: F811
    page = browser.new_page(viewport=viewport)
    page.goto(f"{server.url}/my/clubs/{club.pk}/")
    page.fill("#id_username", "manager")
    page.fill("#id_password", "manager")
    page.click("form.ws-form button[type=submit]")
    page.wait_for_url(f"{server.url}/my/clubs/{club.pk}/")
    assert "The club has no players yet." in page.content()
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-empty-{size}")

    page.click("text=Add a player")
    page.fill("#id_name", "Oud Lid")
    page.click("button:has-text('Save')")
    page.wait_for_url(f"{server.url}/my/clubs/{club.pk}/")
    assert page.locator(".msg-success").inner_text() == "Oud Lid is registered."

    page.click(".tabs >> text=Import and export")
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-import-{size}")
    upload(page, "spelers.csv", BAD)
    errors = page.locator(".club-errors li").all_inner_texts()
    assert errors == ["Line 3, name: A name is required.",
                      "Line 4, licence: A player of another club has this licence.",
                      "Line 5, retired: Write yes or no."]
    assert page.locator("button:has-text('Import')").count() == 0
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-import-errors-{size}")
    assert Player.objects.filter(club=club).count() == 1

    page.click("text=Upload a corrected file")
    upload(page, "spelers.csv", PLAYERS)
    assert page.locator(".club-summary").inner_text().split() == ["new", "30", "changed", "0", "unchanged", "0"]
    shot(page, tmp_path, f"club-import-preview-{size}")
    page.click(".club-confirm button:has-text('Import')")
    page.wait_for_url(f"{server.url}/my/clubs/{club.pk}/")
    assert "Imported players: 30 created" in page.locator(".msg-success").inner_text()
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-import-done-{size}")

    page.click(".tabs >> text=Import and export")
    upload(page, "ploegen.csv", TEAMS)
    page.click(".club-confirm button:has-text('Import')")
    page.wait_for_url(f"{server.url}/my/clubs/{club.pk}/teams/")
    assert Team.objects.filter(club=club).count() == 15
    EntryFactory(team=Team.objects.get(name="Ploeg 1"))
    page.reload()
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-teams-full-{size}")

    page.click(".tabs >> text=Players")
    assert page.locator(".club-list tbody tr").count() == 25
    assert fits(page, viewport)
    shot(page, tmp_path, f"club-players-full-{size}")
    page.fill("#club-q", "L07")
    page.click(".club-search button")
    assert page.locator(".club-list tbody tr").all_inner_texts()[0].startswith("Speler 07")

    page.click("text=Speler 07")
    shot(page, tmp_path, f"club-player-edit-{size}")
    page.click("button:has-text('Retire this player')")
    page.wait_for_url(f"{server.url}/my/clubs/{club.pk}/")
    assert Player.objects.get(name="Speler 07").retired
    page.close()

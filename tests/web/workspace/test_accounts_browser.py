"""Accounts in headless Chromium: sign in on a phone, the tournament form's options and standings order, an invitation.

Screenshots go to ``$WS_SCREENSHOTS`` when it is set (else the test's temporary folder).
"""

import os

import pytest

from tests.factories import ClubFactory, UserFactory
from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def server(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with AsgiServer() as srv:
        yield srv


@pytest.fixture
def organizer(db):
    user = UserFactory(username="organizer", password="organizer")
    club = ClubFactory(name="De Zwarte Kat")
    club.managers.add(user)
    return user


def shot(page, tmp_path, name):
    folder = os.environ.get("WS_SCREENSHOTS") or tmp_path
    os.makedirs(folder, exist_ok=True)
    page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def sign_in(page, server, username, password):
    page.goto(f"{server.url}/my/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.ws-form button[type=submit]")


def test_sign_in_on_a_phone_a_refusal_then_my_tournaments(browser, server, organizer, tmp_path):  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/")
    page.click(".account-nav >> text=Sign in")
    assert page.url.endswith("/my/login/")
    sign_in(page, server, "organizer", "wrong")
    assert page.locator(".form-errors").is_visible()
    assert "correct username and password" in page.locator(".form-errors").inner_text()
    # Nothing wider than the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, tmp_path, "login-error-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "login-error-1280")
    page.set_viewport_size(PHONE)
    sign_in(page, server, "organizer", "organizer")
    page.wait_for_url(f"{server.url}/my/")
    assert page.locator("h1").inner_text() == "My tournaments"
    assert "You organize no tournament yet" in page.content()
    # On a phone the name hides (the header stays two lines); it is still there to read out and hover.
    assert page.get_attribute(".account-name", "title") == "Signed in as organizer"
    assert page.locator(".account-nav").bounding_box()["height"] < 50
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, tmp_path, "home-empty-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "home-empty-1280")
    page.set_viewport_size(PHONE)
    page.click(".account-nav button:has-text('Sign out')")
    page.wait_for_url(f"{server.url}/")
    assert page.locator(".account-nav").inner_text().strip() == "Sign in"


def test_the_form_shows_the_chosen_variants_options_and_sorts_the_standings_order(
        browser, server, organizer, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    page = browser.new_page(viewport=PHONE)
    sign_in(page, server, "organizer", "organizer")
    page.wait_for_url(f"{server.url}/my/")
    page.click("text=New tournament")
    belgian = page.locator('.house-options[data-variant="belgian-manille"]')
    spanish = page.locator('.house-options[data-variant="spanish-manilla"]')
    # The form's script hides the other variants' options once it runs: wait for it (the page may still load).
    expect(spanish).to_be_hidden()
    expect(belgian).to_be_visible()
    assert page.get_attribute("#id_best_of", "placeholder") == "3"
    shot(page, tmp_path, "form-belgian-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "form-belgian-1280")
    page.set_viewport_size(PHONE)
    page.fill("#id_name", "Copa de Reus")
    page.select_option("#id_variant", "spanish-manilla")
    assert spanish.is_visible() and not belgian.is_visible()
    assert page.get_attribute("#id_best_of", "placeholder") == "1"
    # Buchholz (4th) moves up twice with the keyboard: Enter on its focused button.
    up = page.locator('.sort-item[data-value="buchholz"] [data-move="-1"]')
    up.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    order = page.eval_on_selector_all(".sortable .sort-item", "els => els.map(e => e.dataset.value)")
    assert order[:3] == ["match_points", "buchholz", "games_won"]
    assert "position 2" in page.locator("[data-sort-status]").inner_text()
    page.check("#tb-sonneborn_berger")
    page.fill("#id_o_spanish_manilla__target", "0")
    page.click(".ws-submit button")
    expect(page.locator("#form-errors")).to_be_visible()  # the refusal's page, once it has loaded
    assert page.locator(".field.has-error").count() == 1
    assert page.locator(".field.has-error #id_o_spanish_manilla__target").count() == 1
    expect(belgian).to_be_hidden()  # the chosen variant stays chosen
    expect(spanish).to_be_visible()
    order = page.eval_on_selector_all(".sortable .sort-item", "els => els.map(e => e.dataset.value)")
    assert order[:2] == ["match_points", "buchholz"]  # the order survives the refusal
    shot(page, tmp_path, "form-spanish-error-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "form-spanish-error-1280")
    page.fill("#id_o_spanish_manilla__target", "30")
    page.click(".ws-submit button")
    page.wait_for_url(lambda url: "/my/new/" not in url)
    tournament = Tournament.objects.get()
    assert (tournament.variant, tournament.options) == ("spanish-manilla", {"target": 30})
    assert tournament.tiebreaks == ["match_points", "buchholz", "games_won", "points_diff", "direct_encounter",
                                    "sonneborn_berger"]
    assert list(tournament.organizers.values_list("username", flat=True)) == ["organizer"]


def test_an_invitation_copied_and_accepted_by_someone_new(browser, server, organizer, tmp_path):  # noqa: F811
    tournament = Tournament.objects.create(name="Gentse Beker", slug="gentse-beker", variant="belgian-manille")
    tournament.organizers.add(organizer)
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    sign_in(page, server, "organizer", "organizer")
    page.wait_for_url(f"{server.url}/my/")
    shot(page, tmp_path, "home-full-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "home-full-1280")
    page.set_viewport_size(PHONE)
    page.click(".ws-item-actions >> text=Invite")
    page.check("input[value=scorekeeper]")
    page.click("form.ws-form button[type=submit]")
    link = page.input_value("#invite-link")
    assert link.startswith(f"{server.url}/my/invite/")
    page.click("[data-copy]")
    from playwright.sync_api import expect

    expect(page.locator("[data-copy]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    shot(page, tmp_path, "invite-390")
    page.set_viewport_size(DESKTOP)
    shot(page, tmp_path, "invite-1280")
    context.close()

    newcomer = browser.new_page(viewport=PHONE)
    newcomer.goto(link)
    assert "invites you to keep score at" in newcomer.content()
    shot(newcomer, tmp_path, "invite-accept-390")
    newcomer.set_viewport_size(DESKTOP)
    shot(newcomer, tmp_path, "invite-accept-1280")
    newcomer.set_viewport_size(PHONE)
    newcomer.fill("#id_username", "kim")
    newcomer.fill("#id_password1", "Zw4rte-Kat-2026")
    newcomer.fill("#id_password2", "Zw4rte-Kat-2026")
    newcomer.click("form.ws-form button[type=submit]")
    newcomer.wait_for_url(f"{server.url}/my/")
    assert "Gentse Beker" in newcomer.locator("#scorekept-h + .ws-list").inner_text()
    assert list(tournament.scorekeepers.values_list("username", flat=True)) == ["kim"]
    newcomer.goto(link[:-4] + "xxxx/")
    assert "not valid" in newcomer.content()
    shot(newcomer, tmp_path, "invite-invalid-390")

"""ReDoc at /api/redoc/ in headless Chromium: it renders the schema and asks no other host for anything (issue 29)."""

import os

import pytest

from tests.web.browser import AsgiServer, browser  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def server(settings):
    settings.ALLOWED_HOSTS = ["*"]
    with AsgiServer() as found:
        yield found


@pytest.mark.parametrize("width", [390, 1280])
def test_redoc_fetches_everything_from_the_site(browser, server, tmp_path, width):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 900})
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{server.url}/api/redoc/", wait_until="networkidle")
    page.wait_for_selector("text=Manille Tournaments API", timeout=30000)
    page.wait_for_load_state("networkidle")
    if width >= 1000:  # the side menu's foot: "API docs by Redocly" with the logo, now a local image
        foot = page.locator("a[href='https://redocly.com/redoc/'] img")
        assert foot.count() == 1 and foot.get_attribute("src").startswith("data:image/svg+xml")
    folder = os.environ.get("REDOC_SCREENSHOTS") or tmp_path
    page.screenshot(path=os.path.join(folder, f"redoc-{width}.png"))
    remote = [url for url in asked if not url.startswith((server.url, "data:", "blob:"))]
    assert remote == [], remote
    assert any(url.endswith("/api/redoc/redoc.standalone.js") for url in asked)
    assert any("/api/schema/" in url for url in asked)

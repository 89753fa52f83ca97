"""The director's desk in headless Chromium, at phone and desktop widths without sideways scrolling: empty, a
forfeit taken through its form, a refusal, a reverted action (screenshots in $SCREENSHOT_DIR)."""

import pytest

from tests.web.browser import browser  # noqa: F401 (fixture)
from tests.web.workspace.test_organize_browser import WIDTHS, hall, shoot, sign_in  # noqa: F401 (fixture)
from tournaments.models import DirectorAction, Entry, Match, Team, Tournament
from tournaments.services.rounds import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_takes_refuses_and_reverts_at_both_widths(browser, hall):  # noqa: F811
    server, organizer = hall
    tournament = Tournament.objects.create(name="Gentse Beker van de Zwarte Kat", slug="gentse-beker",
                                           variant="belgian-manille", best_of=3)
    tournament.organizers.add(organizer)
    for seed, team in enumerate(Team.objects.order_by("pk"), 1):
        Entry.objects.create(tournament=tournament, team=team, seed=seed)
    base = f"{server.url}/my/t/{tournament.slug}/actions/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(base)
        assert "No round is paired yet" in page.inner_text("#desk-take")
        shoot(page, "desk-empty")
    round_pair(tournament=tournament)
    first, second = Match.objects.filter(round__tournament=tournament).order_by("table")[:2]
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(base)
        page.click("details.desk-kind:has(input[value=forfeit]) summary")
        page.select_option("#forfeit-match", str(first.pk if width == WIDTHS[0] else second.pk))
        page.select_option("#forfeit-absent", "ew")
        page.fill("#forfeit-reason", "EW did not turn up by 14:15")
        page.click("details.desk-kind:has(input[value=forfeit]) button[type=submit]")
        page.wait_for_load_state()
        assert "Forfeit recorded." in page.inner_text(".messages")
        shoot(page, "desk-forfeit-taken")
        page.click("details.desk-kind:has(input[value=forfeit]) summary")
        page.select_option("#forfeit-match", str(first.pk))
        page.fill("#forfeit-reason", "again")
        page.click("details.desk-kind:has(input[value=forfeit]) button[type=submit]")
        page.wait_for_load_state()
        assert "revert it first" in page.inner_text("#desk-error")
        assert (page.input_value("#forfeit-reason"), page.input_value("#forfeit-match")) == ("again", str(first.pk))
        shoot(page, "desk-refused")
    action = DirectorAction.objects.order_by("id").first()
    page.fill(f"#revert-{action.pk}", "they came after all")
    page.click(f"form.desk-revert:has(#revert-{action.pk}) button")
    page.wait_for_load_state()
    assert "Forfeit reverted." in page.inner_text(".messages")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(base)
        shoot(page, "desk-full")
    context.close()


def test_an_individual_events_desk_names_players_at_both_widths(browser, hall):  # noqa: F811
    """A table chosen, its players named: a forfeit of one absent player, a refusal (nobody ticked) in Dutch, a
    penalty of one player; no sideways scrolling at 390 px."""
    from tests.web.workspace.individual import individual_event, seat_round

    server, organizer = hall
    tournament = individual_event(8, minutes=None, organizer=organizer, slug="kaarting-de-kat")
    seat_round(tournament, 1)
    one, two = Match.objects.filter(round__tournament=tournament).order_by("table")
    base = f"{server.url}/my/t/{tournament.slug}/actions/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, server, "/my/")
    for width, match in zip(WIDTHS, (one, two)):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(base)
        shoot(page, "desk-individual-choose")
        page.select_option("#desk-table-match", str(match.pk))
        page.click("form.desk-choose button[type=submit]")
        page.wait_for_load_state()
        absent = match.seats.get(seat="E").player
        page.click("details.desk-kind:has(input[value=forfeit]) summary")
        shoot(page, "desk-individual-table")
        page.check(f"details.desk-kind:has(input[value=forfeit]) input[name=players][value='{absent.pk}']")
        page.fill("#forfeit-reason", "never came")
        page.click("details.desk-kind:has(input[value=forfeit]) button[type=submit]:not([name])")
        page.wait_for_load_state()
        assert "Forfeit recorded." in page.inner_text(".messages")
        assert f"absent: {absent.name}" in page.inner_text("#desk-actions")
        shoot(page, "desk-individual-forfeit")
    page.context.add_cookies([{"name": "django_language", "value": "nl", "url": server.url}])
    page.goto(f"{base}?match={one.pk}")
    page.click("details.desk-kind:has(input[value=penalty]) summary")
    fined = one.seats.get(seat="W").player
    page.check(f"details.desk-kind:has(input[value=penalty]) input[name=player][value='{fined.pk}']")
    page.fill("#penalty-points", "10")
    page.fill("#penalty-reason", "traag spel")
    page.click("details.desk-kind:has(input[value=penalty]) button[type=submit]:not([name])")
    page.wait_for_load_state()
    assert fined.name in page.inner_text("#desk-actions")
    page.goto(f"{base}?match={two.pk}")
    page.click("details.desk-kind:has(input[value=withdrawal]) summary")
    page.evaluate("document.querySelectorAll('input[name=player]').forEach(e => e.removeAttribute('required'))")
    page.fill("#withdrawal-reason", "ziek")
    page.click("details.desk-kind:has(input[value=withdrawal]) button[type=submit]:not([name])")
    page.wait_for_load_state()
    assert page.inner_text("#desk-error")  # refused (nobody named), in Dutch
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        shoot(page, "desk-individual-refused")
    assert DirectorAction.objects.count() == 3
    context.close()

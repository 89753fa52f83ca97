"""The README's "The workspace" section says what the code does: its URLs, its buttons, the demo's accounts."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import resolve, reverse

ROOT = Path(__file__).resolve().parents[3]


def section() -> str:
    readme = (ROOT / "README.md").read_text()
    titles = re.findall(r"^## (.+)$", readme, re.M)
    assert titles.index("The workspace") == titles.index("The public site") + 1
    text = readme.split("## The workspace\n", 1)[1].split("\n## ", 1)[0]
    return " ".join(text.split())  # as read: line breaks are spaces


def test_every_url_it_names_is_the_workspaces():
    urls = re.findall(r"`(/my/[^`]*)`", section())
    assert len(urls) >= 5
    for url in urls:
        concrete = url.replace("<slug>", "gentse-beker").replace("<id>", "1")
        assert resolve(concrete).namespace == "ws", url
    assert reverse("ws:login") == "/my/login/" and reverse("ws:entry-sw") == "/my/sw.js"


def test_the_buttons_it_names_are_on_the_pages():
    text = section()
    sources = "".join(p.read_text() for p in (ROOT / "web").rglob("*") if p.suffix in (".html", ".py"))
    for label in ("Pair anyway", "Invite", "Enter results", "Send now", "Fix it", "Send again", "Drop it"):
        assert label in text, label
        assert f'"{label}"' in sources or f">{label}<" in sources, label
    assert "Pair round %(n)s" in sources and "**Pair round n**" in text


def test_the_invitation_lifetime_is_the_settings():
    assert "`INVITE_MAX_AGE` seconds (7 days)" in section()
    assert settings.INVITE_MAX_AGE == 7 * 24 * 3600


@pytest.mark.django_db
def test_the_demo_accounts_sign_in_with_the_passwords_it_gives(db):
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    text = section()
    for name in ("organizer", "scorekeeper", "admin"):
        assert f"`{name}` (password `{name}`" in text
        assert Client().login(username=name, password=name), name
    from tournaments.models import Tournament

    demo = Tournament.objects.filter(slug__in=["gentse-beker", "copa-malilla", "aalsterse-avond"])
    assert all(t.organizers.filter(username="organizer").exists() for t in demo) and demo.count() == 3
    assert all(t.scorekeepers.filter(username="scorekeeper").exists() for t in demo)
    assert "*Aalsterse Avond* has its teams entered and waits for round 1" in text
    assert not demo.get(slug="aalsterse-avond").round_set.exists()

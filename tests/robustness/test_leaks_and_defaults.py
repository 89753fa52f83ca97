"""Issue #11, point 9: no internals in what users see, secure defaults once DEBUG is off.

- a failed pairing shows a human reason, the exception (SQL...) goes to the log;
- HSTS, the HTTPS redirect, secure cookies and a Content-Security-Policy are on by default when
  DEBUG is off, off with SECURE_HTTPS=0 (a plain-HTTP LAN install); the pages still render
  under the policy (no inline script, nothing from another host);
- load_demo refuses to create admin/admin when DEBUG is off, unless --force.
"""

import functools
import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError

from tests.factories import TournamentFactory
from tournaments.models import TaskRecord

ROOT = Path(__file__).resolve().parents[2]


def settings_under(env: dict) -> dict:
    """Import config/settings.py in a fresh interpreter with this environment; return what matters here."""
    code = (
        "import json, config.settings as s\n"
        "keys = ['DEBUG', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SESSION_COOKIE_SECURE',"
        " 'CSRF_COOKIE_SECURE', 'SECURE_REDIRECT_EXEMPT', 'CSP_ENABLED', 'MIDDLEWARE', 'CONTENT_SECURITY_POLICY']\n"
        "print(json.dumps({k: getattr(s, k, None) for k in keys}, default=str))\n"
    )
    base = {"PATH": "/usr/bin:/bin", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org",
            "DATABASE_URL": "sqlite:////tmp/faults-settings.sqlite3"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True,
                         text=True, timeout=60, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_https_and_csp_are_on_by_default_once_debug_is_off():
    s = settings_under({"DEBUG": "0"})
    assert s["SECURE_SSL_REDIRECT"] is True and s["SECURE_HSTS_SECONDS"] >= 31536000
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True
    assert s["SECURE_REDIRECT_EXEMPT"] == ["^healthz/$"]  # the container's plain-HTTP health probe
    assert s["CSP_ENABLED"] is True and "csp.middleware.CSPMiddleware" in s["MIDDLEWARE"]


def test_a_plain_http_lan_install_turns_https_off():
    s = settings_under({"DEBUG": "0", "SECURE_HTTPS": "0"})
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 0
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is False
    assert s["CSP_ENABLED"] is True  # the policy does not need HTTPS


def test_development_keeps_plain_http_and_no_csp():
    s = settings_under({"DEBUG": "1"})
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 0 and s["CSP_ENABLED"] is False


# -- the pages under the policy ----------------------------------------------------------------

@functools.cache
def production_policy() -> dict:
    return settings_under({"DEBUG": "0"})["CONTENT_SECURITY_POLICY"]


@pytest.fixture
def csp_on(settings):
    """The policy config/settings.py sets once DEBUG is off, on in this process."""
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "csp"]
    settings.MIDDLEWARE = [settings.MIDDLEWARE[0], "csp.middleware.CSPMiddleware", *settings.MIDDLEWARE[1:]]
    settings.CONTENT_SECURITY_POLICY = production_policy()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "csp-tests"}}


def inline_scripts(html: str) -> list[str]:
    return [m for m in re.findall(r"<script\b([^>]*)>", html) if "src=" not in m and "application/json" not in m
            and "application/ld+json" not in m]


def foreign_assets(html: str) -> list[str]:
    return re.findall(r"""<(?:script|link|img)\b[^>]*(?:src|href)=["'](?:https?:)?//[^"']+""", html)


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
@pytest.mark.parametrize("path", ["/", "/admin/login/", "/api/docs/", "/api/redoc/", "/variants/belgian-manille/"])
def test_pages_render_under_the_policy(client, csp_on, path):
    TournamentFactory(name="Gentse Beker")
    response = client.get(path)
    assert response.status_code == 200, path
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self' ws: wss:" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "worker-src 'self' blob:" in policy  # ReDoc's search worker
    html = response.content.decode()
    assert inline_scripts(html) == [], f"{path}: inline scripts would be blocked"
    assert foreign_assets(html) == [], f"{path}: assets from another host would be blocked"


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
def test_swagger_ui_start_up_script_is_served_by_the_site(client, csp_on):
    html = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"""<script[^>]*src=["']([^"']+)""", html)
    assert scripts and all(s.startswith("/") for s in scripts), scripts
    for src in scripts:
        if not src.startswith("/static/"):  # the static files are the site's own (no collectstatic in tests)
            assert client.get(src).status_code == 200, src


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
def test_the_health_probe_is_not_redirected_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert client.get("/healthz/").status_code == 200
    assert client.get("/").status_code == 301


# -- a failed pairing's reason ------------------------------------------------------------------

@pytest.mark.django_db
def test_a_failed_pairing_shows_a_human_reason_and_logs_the_detail(monkeypatch, caplog):
    from tournaments import tasks
    from tournaments.services import rounds

    sql = 'relation "tournaments_round" violates ... INSERT INTO "tournaments_round" ("number") VALUES (%s)'

    def broken(**kwargs):
        raise DatabaseError(sql)

    monkeypatch.setattr(rounds, "round_pair", broken)
    tournament = TournamentFactory()
    record = TaskRecord.objects.create(id="00000000-0000-0000-0000-00000000000b", kind=TaskRecord.Kind.ROUND_PAIR,
                                       tournament=tournament, params={})
    with pytest.raises(DatabaseError):
        tasks.round_pair_task.apply(args=(tournament.pk,), task_id=str(record.id), throw=True)
    record.refresh_from_db()
    assert record.status == TaskRecord.Status.FAILED
    shown = json.dumps(record.error)
    assert "INSERT" not in shown and "tournaments_round" not in shown and "DatabaseError" not in shown
    assert record.error["detail"] == tasks.PAIRING_FAILED
    assert "INSERT INTO" in caplog.text  # the detail is in the log


# -- load_demo ------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_load_demo_refuses_admin_admin_when_debug_is_off(settings, monkeypatch):
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    monkeypatch.setenv("DEBUG", "0")
    with pytest.raises(CommandError, match="--force"):
        call_command("load_demo", stdout=StringIO())
    assert not get_user_model().objects.filter(username="admin").exists()


@pytest.mark.django_db
def test_load_demo_force_loads_it_anyway(settings, monkeypatch):
    from django.contrib.auth import get_user_model

    settings.DEBUG = False
    monkeypatch.setenv("DEBUG", "0")
    call_command("load_demo", "--force", stdout=StringIO())
    assert get_user_model().objects.get(username="admin").is_superuser

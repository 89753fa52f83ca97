"""docker-compose.yml and the Dockerfile, checked without Docker: services, commands, variables, health checks."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from django.urls import resolve

from config.settings import env_bool

ROOT = Path(__file__).resolve().parent.parent
APP_SERVICES = ("web", "worker", "standings")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuation lines joined."""
    lines = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if not line.lstrip().startswith("#")]
    text = re.sub(r"\\\n", " ", "\n".join(lines) + "\n")
    instructions = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    return instructions


def expand(value: str, env: dict[str, str]) -> str:
    """Interpolate compose variables: ``${VAR}``, ``${VAR:-default}``, ``${VAR:?error}``; ``$$`` is a dollar."""

    def one(match: re.Match) -> str:
        name, op, arg = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":-":
            return arg
        if op == ":?":
            raise KeyError(f"{name} is required: {arg}")
        return ""

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value).replace("$$", "$")


def app_env(services, service: str, env: dict[str, str] | None = None) -> dict[str, str]:
    raw = services[service]["environment"]
    assert isinstance(raw, dict), "environment is written as a mapping"
    return {key: expand(str(value), env if env is not None else {"SECRET_KEY": "s3cret"}) for key, value in raw.items()}


def command(service: dict) -> list[str]:
    cmd = service["command"]
    return shlex.split(cmd) if isinstance(cmd, str) else list(cmd)


def dockerfile_cmd(dockerfile) -> list[str]:
    cmds = [args for keyword, args in dockerfile if keyword == "CMD"]
    assert len(cmds) == 1
    return json.loads(cmds[0])  # exec form: no shell between docker and gunicorn


def test_the_five_services(services, compose):
    assert set(services) == {"web", "worker", "standings", "db", "redis"}
    assert services["db"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    for name in APP_SERVICES:
        assert services[name]["build"] == "."
        assert services[name]["image"] == services["web"]["image"], "web and the workers run the same image"


def test_web_migrates_then_runs_the_dockerfile_command(services, dockerfile):
    cmd = command(services["web"])
    assert cmd[:2] == ["sh", "-c"]
    script = cmd[2]
    migrate, _, serve = script.partition("&&")
    assert shlex.split(migrate) == ["python", "manage.py", "migrate", "--noinput"]
    assert shlex.split(serve) == ["exec", *dockerfile_cmd(dockerfile)]
    gunicorn = dockerfile_cmd(dockerfile)
    # ASGI under uvicorn workers: HTTP and the live pages' WebSockets.
    assert gunicorn[:2] == ["gunicorn", "config.asgi:application"]
    assert gunicorn[gunicorn.index("--worker-class") + 1] == "config.uvicorn_worker.Worker"
    bind = gunicorn[gunicorn.index("--bind") + 1]
    port = bind.rsplit(":", 1)[1]
    assert f"{port}:{port}" in services["web"]["ports"]
    assert ("EXPOSE", port) in dockerfile


def test_web_workers_come_from_the_environment(services, dockerfile):
    assert app_env(services, "web")["WEB_CONCURRENCY"] == "2"
    assert app_env(services, "web", {"SECRET_KEY": "k", "WEB_CONCURRENCY": "4"})["WEB_CONCURRENCY"] == "4"
    env = dict(arg.split("=", 1) for keyword, args in dockerfile if keyword == "ENV" for arg in args.split())
    assert env["WEB_CONCURRENCY"] == "2"


def test_the_asgi_app_routes_the_live_websockets():
    from channels.routing import ProtocolTypeRouter

    from config.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    assert set(application.application_mapping) == {"http", "websocket"}


def worker_option(cmd: list[str], name: str) -> str | None:
    return next((arg.split("=", 1)[1] for arg in cmd if arg.startswith(f"--{name}=")), None)


def test_the_workers_run_celery_and_consume_every_queue(services):
    from django.conf import settings

    consumed = []
    for name in ("worker", "standings"):
        cmd = command(services[name])
        assert cmd[:4] == ["celery", "-A", "config", "worker"]
        consumed += worker_option(cmd, "queues").split(",")
    assert sorted(consumed) == sorted(q.name for q in settings.CELERY_TASK_QUEUES), "each queue by one worker"
    assert {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} <= set(consumed)
    assert settings.CELERY_TASK_ROUTES["tournaments.standings_recompute_task"]["queue"] == \
        worker_option(command(services["standings"]), "queues")
    # One process: the inputs a recompute keeps serve the next one.
    assert worker_option(command(services["standings"]), "concurrency") == "1"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_database_and_redis_urls_point_at_their_services(services, service):
    env = app_env(services, service)
    db = services["db"]["environment"]
    url = urlsplit(env["DATABASE_URL"])
    assert url.scheme in ("postgres", "postgresql")
    assert url.hostname == "db"
    assert url.port in (None, 5432)
    assert url.path.lstrip("/") == db["POSTGRES_DB"]
    assert url.username == db["POSTGRES_USER"]
    assert url.password == expand(db["POSTGRES_PASSWORD"], {})
    # One password for both: set POSTGRES_PASSWORD and the app follows.
    assert urlsplit(app_env(services, service, {"SECRET_KEY": "k", "POSTGRES_PASSWORD": "pw"})["DATABASE_URL"]
                    ).password == expand(db["POSTGRES_PASSWORD"], {"POSTGRES_PASSWORD": "pw"}) == "pw"
    redis = urlsplit(env["REDIS_URL"])
    assert (redis.scheme, redis.hostname, redis.port or 6379) == ("redis", "redis", 6379)


@pytest.mark.parametrize("service", APP_SERVICES)
def test_secret_key_is_required_and_debug_is_off(services, service, monkeypatch):
    with pytest.raises(KeyError, match="SECRET_KEY"):
        app_env(services, service, {})  # no default secret baked into the file
    assert app_env(services, service, {"SECRET_KEY": "from-the-host"})["SECRET_KEY"] == "from-the-host"
    monkeypatch.setenv("DEBUG", app_env(services, service)["DEBUG"])
    assert env_bool("DEBUG", True) is False  # read as the settings read it
    assert app_env(services, service)["ALLOWED_HOSTS"]


def test_settings_accept_the_compose_environment(services):
    """Import the settings with web's environment: DEBUG off, the db and redis services, the hosts."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS")}
    env.update(app_env(services, "web"))
    probe = ("import json, config.settings as s; print(json.dumps({'debug': s.DEBUG, 'host': "
             "s.DATABASES['default']['HOST'], 'engine': s.DATABASES['default']['ENGINE'], "
             "'broker': s.CELERY_BROKER_URL, 'eager': s.CELERY_TASK_ALWAYS_EAGER, 'hosts': s.ALLOWED_HOSTS}))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    settings = json.loads(out.stdout.strip().splitlines()[-1])
    assert settings["debug"] is False
    assert settings["host"] == "db"
    assert settings["engine"] == "django.db.backends.postgresql"
    assert settings["broker"] == "redis://redis:6379/0"
    assert settings["eager"] is False
    assert "127.0.0.1" in settings["hosts"]


def test_health_checks(services):
    db = services["db"]["healthcheck"]["test"]
    assert "pg_isready" in " ".join(db)
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    web = " ".join(services["web"]["healthcheck"]["test"])
    url = urlsplit(re.search(r"https?://[^'\"\s]+", web).group(0))
    assert url.path == "/healthz/"
    assert url.hostname in app_env(services, "web")["ALLOWED_HOSTS"].split(",")
    bind_port = dockerfile_port()
    assert url.port == bind_port
    assert resolve(url.path).url_name == "health"
    for name in ("web", "db", "redis"):
        check = services[name]["healthcheck"]
        assert check["test"][0] in ("CMD", "CMD-SHELL")
        assert {"interval", "timeout", "retries"} <= set(check)


def dockerfile_port() -> int:
    text = (ROOT / "Dockerfile").read_text()
    return int(re.search(r"^EXPOSE\s+(\d+)", text, re.M).group(1))


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")  # whitenoise: no collectstatic in tests
def test_the_health_endpoint_answers(client):
    assert client.get("/healthz/").status_code == 200


def test_postgres_keeps_its_data_in_a_named_volume(services, compose):
    volumes = services["db"]["volumes"]
    named = [v.split(":", 1) for v in volumes if isinstance(v, str)]
    assert ["pgdata", "/var/lib/postgresql/data"] in [[n, p.split(":")[0]] for n, p in named]
    assert "pgdata" in compose["volumes"]


@pytest.mark.parametrize("service", APP_SERVICES)
def test_app_services_wait_for_healthy_db_and_redis(services, service):
    depends = services[service]["depends_on"]
    assert depends == {"db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"}}


def test_dockerfile(dockerfile):
    assert dockerfile[0] == ("FROM", "python:3.11-slim")
    runs = " ".join(args for keyword, args in dockerfile if keyword == "RUN")
    assert re.search(r"pip install \.(\s|$)", runs)
    assert "manage.py collectstatic --noinput" in runs
    users = [args for keyword, args in dockerfile if keyword == "USER"]
    assert users and users[-1] not in ("root", "0"), "the image runs as a non-root user"
    last_user = max(i for i, (keyword, _) in enumerate(dockerfile) if keyword == "USER")
    last_cmd = max(i for i, (keyword, _) in enumerate(dockerfile) if keyword == "CMD")
    assert last_user < last_cmd


def test_dockerignore_keeps_the_context_small():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", "var"} <= ignored
    # pip install . needs the packages, pyproject.toml and the README it names.
    assert not {"pyproject.toml", "README.md", "config", "scoring", "tournaments", "api", "manage.py"} & ignored

"""docker-compose.yml and the Dockerfile, checked without Docker: services, commands, variables, health checks."""

import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import tomllib
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml
from django.urls import resolve

from config.settings import env_bool

ROOT = Path(__file__).resolve().parent.parent
APP_SERVICES = ("migrate", "web", "live", "worker", "standings", "beat")
LONG_RUNNING = ("web", "live", "worker", "standings", "beat")
IMAGE = "manille-tournaments"


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


def command(service: dict, env: dict[str, str] | None = None) -> list[str]:
    """The service's command as compose runs it: its variables filled in (their defaults unless ``env``)."""
    cmd = service["command"]
    return [expand(arg, env or {}) for arg in (shlex.split(cmd) if isinstance(cmd, str) else cmd)]


def dockerfile_cmd(dockerfile) -> list[str]:
    cmds = [args for keyword, args in dockerfile if keyword == "CMD"]
    assert len(cmds) == 1
    return json.loads(cmds[0])  # exec form: no shell between docker and gunicorn


def test_the_nine_services(services, compose):
    assert set(services) == {"migrate", "proxy", "web", "live", "worker", "standings", "beat", "db", "redis"}
    assert services["db"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"


def test_the_image_is_built_once_and_run_by_every_app_service(services):
    built = [name for name, service in services.items() if "build" in service]
    assert built == ["migrate"], "one build: the others reuse its image"
    assert services["migrate"]["build"] == "."
    for name in APP_SERVICES:
        assert services[name]["image"] == IMAGE
    for name in LONG_RUNNING:
        # Never pulled from a registry (a "manille-tournaments" there is not ours): built by migrate, which
        # each of them waits for, so `docker compose up <any of them>` builds it first.
        assert services[name]["pull_policy"] == "never"
        assert "migrate" in services[name]["depends_on"]


def test_migrations_run_once_in_a_one_off_service_the_others_wait_for(services):
    migrate = services["migrate"]
    assert command(migrate) == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no", "a one-off: it exits when the migrations are in"
    assert migrate["depends_on"] == {"db": {"condition": "service_healthy"}}
    for name in LONG_RUNNING:
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"}}
        assert "migrate" not in " ".join(command(services[name])), f"{name} does not migrate again"


def test_beat_runs_celery_beat_once(services):
    cmd = command(services["beat"])
    assert cmd[:5] == ["celery", "-A", "config", "beat", "--loglevel=INFO"]
    # The image's user may not write /app: the schedule file goes to /tmp.
    assert worker_option(cmd, "schedule").startswith("/tmp/")
    assert "ports" not in services["beat"] and "deploy" not in services["beat"], "one beat, no replicas"


def test_live_runs_the_dockerfile_command_and_web_the_sync_workers(services, dockerfile, monkeypatch):
    import importlib

    from config import gunicorn as server_settings

    # The image alone: ASGI under uvicorn workers, HTTP and the live pages' WebSockets (docker-compose's live).
    assert command(services["live"]) == dockerfile_cmd(dockerfile)
    gunicorn = dockerfile_cmd(dockerfile)
    assert gunicorn[:2] == ["gunicorn", "config.asgi:application"]
    assert gunicorn[gunicorn.index("-k") + 1] == "config.uvicorn_worker.Worker"
    assert gunicorn[gunicorn.index("-c") + 1] == "python:config.gunicorn"
    # HTTP behind the proxy: Django's WSGI handler in gunicorn's sync workers (bench/bench_server.py), threaded
    # ones when WEB_THREADS asks for more than one thread.
    web = command(services["web"])
    assert web == ["gunicorn", "config.wsgi:application", "-c", "python:config.gunicorn"]
    try:
        monkeypatch.setenv("WEB_THREADS", app_env(services, "web")["WEB_THREADS"])
        assert importlib.reload(server_settings).worker_class == "sync"
        monkeypatch.setenv("WEB_THREADS", "4")
        assert importlib.reload(server_settings).worker_class == "gthread"
        monkeypatch.delenv("WEB_THREADS")
        assert importlib.reload(server_settings).worker_class == "sync"
    finally:
        monkeypatch.undo()
        importlib.reload(server_settings)
    port = server_settings.bind.rsplit(":", 1)[1]
    assert ("EXPOSE", port) in dockerfile
    assert services["web"]["expose"] == services["live"]["expose"] == [port]
    assert "ports" not in services["web"] and "ports" not in services["live"], "reached through the proxy only"


def test_the_proxy_is_the_one_address(services):
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert proxy["ports"] == ["8000:8000"]
    assert proxy["volumes"] == ["./deploy/nginx:/etc/nginx/templates:ro"]
    template = (ROOT / "deploy" / "nginx" / "default.conf.template").read_text()
    for name in re.findall(r"\$\{(\w+)\}", template):
        assert name in proxy["environment"], f"the template's ${{{name}}} is set"
    assert proxy["environment"]["WEB_UPSTREAM"] == "web:8000" and proxy["environment"]["LIVE_UPSTREAM"] == "live:8000"
    assert re.search(r"location /ws/ \{\s*proxy_pass http://manille_live;", template)
    # One proxy in front of web and live: they believe the last X-Forwarded-For entry, the proxy's.
    for name in ("web", "live"):
        assert app_env(services, name)["TRUSTED_PROXIES"] == "1"
    for name in ("worker", "standings", "beat", "migrate"):
        assert "TRUSTED_PROXIES" not in app_env(services, name)


def test_web_workers_come_from_the_environment(services, dockerfile):
    # web: 4 sync workers, one connection each (README "Sizing"); the image alone: 2 uvicorn workers.
    assert app_env(services, "web")["WEB_CONCURRENCY"] == "4"
    assert app_env(services, "web")["WEB_THREADS"] == "1"
    assert app_env(services, "web", {"SECRET_KEY": "k", "WEB_CONCURRENCY": "8"})["WEB_CONCURRENCY"] == "8"
    env = dict(arg.split("=", 1) for keyword, args in dockerfile if keyword == "ENV" for arg in args.split())
    assert env["WEB_CONCURRENCY"] == "2"


def test_web_leaves_the_access_log_to_the_proxy(services, monkeypatch):
    """nginx logs every request (the image's default access log; the template does not turn it off), so web does not
    log it again: gunicorn's access line cost each request about 0.1 ms of the worker's CPU (bench/bench_server.py)."""
    import importlib

    from config import gunicorn as server_settings

    assert app_env(services, "web")["ACCESS_LOG"] == "0"
    assert "ACCESS_LOG" not in app_env(services, "live")  # the WebSockets and streams: each line is one connection
    assert "access_log" not in (ROOT / "deploy" / "nginx" / "default.conf.template").read_text()
    try:
        monkeypatch.setenv("ACCESS_LOG", "0")
        assert importlib.reload(server_settings).accesslog is None
        monkeypatch.delenv("ACCESS_LOG")
        assert importlib.reload(server_settings).accesslog == "-"  # the image alone, with no proxy, logs them
    finally:
        monkeypatch.undo()
        importlib.reload(server_settings)


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
    # Where the tasks go (the router the settings name): the recomputes of every tournament to the standings
    # worker (one shard by default), the others to the worker.
    from config.celery import app

    router = app.amqp.router

    def queue(name, *args):
        return router.route({}, name, args, {})["queue"].name

    standings = worker_option(command(services["standings"]), "queues")
    assert {queue("tournaments.standings_recompute_task", t) for t in range(1, 20)} == {standings}
    assert queue("tournaments.sweep_task") == queue("tournaments.round_pair_task", 1) == \
        worker_option(command(services["worker"]), "queues")
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
    assert settings["engine"] == "config.postgresql"  # Django's PostgreSQL backend, its health check asking the socket
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


def test_dockerfile(dockerfile):
    assert dockerfile[0] == ("FROM", "python:3.11-slim")
    runs = " ".join(args for keyword, args in dockerfile if keyword == "RUN")
    assert re.search(r"pip install --no-deps --no-build-isolation \.(\s|$)", runs)
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


# --------------------------------------------------------------------------- reproducible builds


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def constraints() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version and not re.search(r"[<>~!; ]", version), f"an exact pin: {line}"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_dependencies_are_installed_before_the_source_is_copied(dockerfile):
    steps = [(keyword, args) for keyword, args in dockerfile if keyword in ("COPY", "RUN")]
    copies = [i for i, (keyword, _) in enumerate(steps) if keyword == "COPY"]
    first, source = steps[copies[0]], steps[copies[-1]]
    # The first COPY brings only what the dependency layer depends on; the source comes after it.
    assert first == ("COPY", "pyproject.toml constraints.txt ./")
    assert source == ("COPY", ". .")
    deps = " ".join(args for keyword, args in steps[copies[0] + 1:copies[-1]] if keyword == "RUN")
    assert "pip install -c constraints.txt -r /tmp/requirements.txt" in deps
    assert "['project']['dependencies']" in deps, "pyproject's dependencies, not the dev extras"


def test_the_constraints_pin_every_dependency_and_are_used_everywhere():
    pins = constraints()
    project = pyproject()
    from packaging.requirements import Requirement

    wanted = project["project"]["dependencies"] + project["project"]["optional-dependencies"]["dev"]
    wanted += project["build-system"]["requires"]
    for text in wanted:
        req = Requirement(text)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pins, f"{req.name} is not pinned in constraints.txt"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} breaks {text}"
    dev = (ROOT / "dev").read_text()
    assert re.search(r'pip install .*-c constraints\.txt -e "\.\[dev\]"', dev), "./dev installs with the pins"
    assert "constraints.txt" in dev.split("local stamp=", 1)[1].splitlines()[0], "a new pin reinstalls"
    assert "./dev test" in (ROOT / ".ci" / "run").read_text(), "CI installs through ./dev"


def test_every_dependency_has_an_upper_bound_and_schemathesis_is_4():
    from packaging.requirements import Requirement

    project = pyproject()
    reqs = [Requirement(text) for text in project["project"]["dependencies"]
            + project["project"]["optional-dependencies"]["dev"] + project["build-system"]["requires"]]
    for req in reqs:
        assert any(spec.operator in ("<", "<=", "==", "~=") for spec in req.specifier), f"{req} has no upper bound"
    by_name = {req.name.lower(): req for req in reqs}
    assert str(by_name["schemathesis"].specifier) in (">=4,<5", "<5,>=4")
    assert "pytest-benchmark" not in by_name, "nothing uses it"


# --------------------------------------------------------------------------- the compose processes, for real


def _postgres_and_redis() -> tuple[str, str] | None:
    db, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if urlsplit(db).scheme not in ("postgres", "postgresql") or not redis:
        return None
    for url, default in ((db, 5432), (redis, 6379)):
        parts = urlsplit(url)
        try:
            socket.create_connection((parts.hostname, parts.port or default), timeout=2).close()
        except OSError:
            return None
    return db, redis


needs_postgres_and_redis = pytest.mark.skipif(
    _postgres_and_redis() is None,
    reason="runs the compose services' processes against PostgreSQL and Redis: set DATABASE_URL (postgres://) "
           "and REDIS_URL to running servers (bash .ci/run does)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _admin_db(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(urlunsplit(urlsplit(url)._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(sql)


class Stack:
    """The app services of docker-compose.yml as local processes: their commands and environment, read from the
    file, with only the addresses of db, redis and the published port replaced by the test's."""

    def __init__(self, services: dict, db_url: str, redis_url: str, logs: Path):
        self.services, self.db_url, self.redis_url, self.logs = services, db_url, redis_url, logs
        self.port, self.live_port = _free_port(), _free_port()
        self.procs: dict[str, subprocess.Popen] = {}
        venv_bin = str(Path(sys.executable).parent)
        self.base_env = {"PATH": f"{venv_bin}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(logs),
                         "LANG": "C.UTF-8"}

    def env(self, name: str) -> dict[str, str]:
        env = dict(self.base_env)
        env.update(app_env(self.services, name, {"SECRET_KEY": "compose-test-" + uuid.uuid4().hex}))
        env["DATABASE_URL"], env["REDIS_URL"] = self.db_url, self.redis_url
        env["WEB_CONCURRENCY"] = "1"  # a small machine; the file's defaults are checked above
        return env

    def command(self, name: str) -> list[str]:
        cmd = command(self.services[name])
        if name == "web":  # the proxy's address: web answers there itself (nginx is checked elsewhere)
            cmd += ["--bind", f"127.0.0.1:{self.port}"]
        elif name == "live":
            cmd += ["--bind", f"127.0.0.1:{self.live_port}"]
        return cmd

    def run(self, name: str, *extra_env: tuple[str, str], cmd: list[str] | None = None, timeout=180):
        env = self.env(name)
        env.update(dict(extra_env))
        return subprocess.run(cmd or self.command(name), cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=timeout)

    def start(self, name: str) -> None:
        out = open(self.logs / f"{name}.log", "w")
        self.procs[name] = subprocess.Popen(self.command(name), cwd=ROOT, env=self.env(name), stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def tails(self) -> str:
        return "\n".join(f"--- {name}\n" + "\n".join(self.log(name).splitlines()[-25:]) for name in self.procs)

    def alive(self) -> None:
        dead = {name: p.returncode for name, p in self.procs.items() if p.poll() is not None}
        assert not dead, f"exited: {dead}\n{self.tails()}"

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()


def _wait(what: str, probe, stack: Stack, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack.alive()
        value = probe()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}\n{stack.tails()}")


@pytest.mark.slow
@needs_postgres_and_redis
def test_the_compose_processes_run_a_small_tournament(services, tmp_path):
    """migrate, then web (gunicorn + uvicorn), both workers and beat, exactly as docker-compose.yml starts them:
    create a tournament through the API, pair it (the worker), enter hands, read standings the standings
    worker recomputed; every process writes each log line once."""
    import httpx

    db_url, redis_url = _postgres_and_redis()
    name = f"{urlsplit(db_url).path.lstrip('/') or 'manille'}_compose"
    stack_db = urlunsplit(urlsplit(db_url)._replace(path=f"/{name}"))
    _admin_db(db_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin_db(db_url, f'CREATE DATABASE "{name}"')
    stack = Stack(services, stack_db, redis_url, tmp_path)
    try:
        # Queued leftovers of earlier runs in this Redis database are not ours: purged while migrate runs (which
        # touches no queue), before any worker starts.
        purge = subprocess.Popen(["celery", "-A", "config", "purge", "-f", "-Q", "celery,standings"], cwd=ROOT,
                                 env=stack.env("worker"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        migrated = stack.run("migrate")
        purge.wait(timeout=60)
        assert migrated.returncode == 0, migrated.stdout + migrated.stderr
        assert "Applying tournaments.0001" in migrated.stdout
        for service in LONG_RUNNING:
            stack.start(service)
        # The README's first user, without the prompts, while the services start (it needs only the migrations).
        created = stack.run("web", ("DJANGO_SUPERUSER_PASSWORD", "s3cret-Pass"), cmd=[
            "python", "manage.py", "createsuperuser", "--noinput", "--username", "boss", "--email", "b@example.org"])
        assert created.returncode == 0, created.stderr
        base = f"http://127.0.0.1:{stack.port}"
        http = httpx.Client(base_url=base + "/api/v1", timeout=15, headers={"Accept": "application/json"})

        def healthy(port):
            try:
                return httpx.get(f"http://127.0.0.1:{port}/healthz/", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        _wait("web's /healthz/", lambda: healthy(stack.port), stack)
        _wait("live's /healthz/", lambda: healthy(stack.live_port), stack)
        token = http.post("/auth/token/", data={"username": "boss", "password": "s3cret-Pass"})
        assert token.status_code == 200, token.text
        http.headers["Authorization"] = f"Token {token.json()['token']}"

        def post(path, body, expect=201):
            response = http.post(path, json=body)
            assert response.status_code == expect, (path, response.status_code, response.text)
            return response.json()

        club = post("/clubs/", {"name": "Cafe Compose", "city": "Gent"})["id"]
        players = [post("/players/", {"name": f"Speler {i}", "club": club})["id"] for i in range(8)]
        teams = [post("/teams/", {"name": f"Ploeg {i}", "club": club, "players": players[2 * i:2 * i + 2]})["id"]
                 for i in range(4)]
        tournament = post("/tournaments/", {"name": "Compose Cup", "variant": "belgian-manille", "format": "swiss",
                                            "rounds": 2, "best_of": 1, "options": {"target": 61}, "public": True,
                                            "club": club})
        slug = tournament["slug"]
        for team in teams:
            post(f"/tournaments/{slug}/entries/", {"team": team})

        # Pairing: queued on commit, done by the `worker` service.
        task = post(f"/tournaments/{slug}/rounds/", {}, expect=202)
        status = _wait("the pairing task", lambda: (lambda s: s if s["status"] in ("succeeded", "failed") else None)(
            http.get(f"/tasks/{task['task']}/").json()), stack)
        assert status["status"] == "succeeded", status
        matches = http.get(f"/tournaments/{slug}/rounds/1/").json()["matches"]
        assert len(matches) == 2 and all(m["ew"] for m in matches)

        # Hands until the first match is decided (all eight tricks: 60 a hand, target 61).
        match = matches[0]
        for number, dealer in enumerate("NESW", start=1):
            hand = post(f"/matches/{match['id']}/hands/", {"dealer": dealer, "trump": "H",
                                                           "tricks": {"ns": 8, "ew": 0},
                                                           "points": {"ns": 60, "ew": 0}})
            if hand["match"]["status"] == "finished":
                break
        assert hand["match"]["winner"] == "ns", hand

        # Standings: recomputed by the `standings` worker after the result.
        def recomputed():
            body = http.get(f"/tournaments/{slug}/standings/").json()
            rows = {row["team"]: row for row in body.get("rows", [])}
            return body if rows.get(match["ns"], {}).get("won") == 1 else None

        standings = _wait("the standings recompute", recomputed, stack)
        rows = {row["team"]: row for row in standings["rows"]}
        assert rows[match["ns"]]["match_points"] == 2 and rows[match["ew"]]["lost"] == 1
        received = "Task tournaments.standings_recompute_task["  # a received task, not the banner's task list
        assert received in stack.log("standings")
        assert received not in stack.log("worker"), "the standings queue is the standings worker's"

        # beat queues each periodic task of CELERY_BEAT_SCHEDULE; a worker receives it.
        from django.conf import settings

        for entry in settings.CELERY_BEAT_SCHEDULE.values():
            _wait(f"beat's {entry['task']}", lambda: any(
                f"Task {entry['task']}[" in stack.log(w) for w in ("worker", "standings")), stack, timeout=45)
        assert "beat: Starting" in stack.log("beat")
        stack.alive()
    finally:
        stack.stop()
        _admin_db(db_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    # One handler: no record written twice (a record carries its time, level, logger and process id).
    for service in LONG_RUNNING:
        records = [line for line in stack.log(service).splitlines() if re.match(r"\d{4}-\d\d-\d\dT", line)]
        assert records, f"{service} logged nothing in the settings' format"
        assert len(records) == len(set(records)), f"{service} wrote a line twice:\n{stack.log(service)[-3000:]}"
        assert all(re.match(r"\S+[+-]\d{4} ", line) for line in records), "times with their offset"

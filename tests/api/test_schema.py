"""The OpenAPI schema: generated without warnings, served, and honoured (a schemathesis fuzz run)."""

import uuid

import pytest
import schemathesis
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from django.core.management import call_command
from django.db import transaction
from drf_spectacular.drainage import GENERATOR_STATS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from api.models import AuthToken
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from config.wsgi import application
from tests.api.deals import summary
from tests.factories import EntryFactory, PlayerFactory, UserFactory
from tests.fuzz import examples
from tournaments.models import TaskRecord
from tournaments.services.hands import hand_enter

pytestmark = pytest.mark.django_db

#: Requests per operation and run, drawn at random on every run (each run tries others; FUZZ_SCALE for more:
#: tests/fuzz.py): valid ones, and ones that break the schema.
MAX_EXAMPLES = examples(12)
MAX_NEGATIVE_EXAMPLES = examples(5)
FIXED_PATHS = [
    "/api/v1/variants/", "/api/v1/variants/{slug}/", "/api/v1/variants/{slug}/score/",
    "/api/v1/variants/{slug}/check-play/", "/api/v1/matches/{id}/hands/", "/api/v1/matches/{id}/",
    "/api/v1/hands/{id}/", "/api/v1/clubs/", "/api/v1/players/", "/api/v1/teams/", "/api/v1/tournaments/",
    "/api/v1/tournaments/{tournament_id}/rounds/", "/api/v1/tournaments/{tournament_id}/rounds/{number}/",
    "/api/v1/tournaments/{tournament_id}/entries/", "/api/v1/tournaments/{tournament_id}/standings/",
    "/api/v1/tasks/{task_id}/", "/api/v1/auth/token/",
]


def test_the_schema_generates_without_warnings_or_errors(tmp_path):
    GENERATOR_STATS.reset()
    # --fail-on-warn turns any warning or error of the generator into a failure of the command.
    call_command("spectacular", "--file", str(tmp_path / "schema.yaml"), "--validate", "--fail-on-warn")
    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3")


def test_the_schema_describes_every_endpoint_and_the_error_shape(anon, served_schema):
    schema = served_schema
    for path in FIXED_PATHS:
        assert path in schema["paths"], path
    hands = schema["paths"]["/api/v1/matches/{id}/hands/"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(hands["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in hands["parameters"])
    board = schema["paths"]["/api/v1/matches/{id}/"]["get"]["responses"]
    assert {"200", "304", "404"} <= set(board)
    assert "202" in schema["paths"]["/api/v1/tournaments/{tournament_id}/rounds/"]["post"]["responses"]
    rule_error = schema["components"]["schemas"]["RuleValidationErrorResponse"]
    assert set(rule_error["properties"]) == {"type", "errors"}
    assert anon.get("/api/docs/").status_code == 200


@pytest.fixture
def keep_connection():
    """Keep the test's database connection across WSGI requests, as Django's test client does."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_world(match, staff, club, teams, keep_connection):
    """A small tournament with real objects for the fuzzer's path parameters to hit."""
    hand_enter(match=match, data=summary("N"))
    hand, _ = hand_enter(match=match, data=summary("E"))
    tournament = match.round.tournament
    entry = EntryFactory(tournament=tournament, team=teams[0])
    task = TaskRecord.objects.create(id=uuid.uuid4(), kind="round_pair", tournament=tournament, status="succeeded",
                                     result={"ok": True, "round": 1})
    ids = {"clubs": club.pk, "players": PlayerFactory(club=club).pk, "teams": teams[1].pk,
           "tournaments": tournament.pk, "entries": entry.pk, "matches": match.pk, "hands": hand.pk,
           "rounds": 1, "tasks": str(task.id)}
    _, key = AuthToken.objects.create(staff)
    UserFactory(username="fuzz-other")
    return ids, {"Authorization": f"Token {key}"}


def _real_path_parameters(path: str, params: dict, ids: dict) -> dict:
    """Point the path parameters at stored objects, from the last collection named before each."""
    parts = path.strip("/").split("/")
    real = dict(params)
    for i, part in enumerate(parts):
        if part.startswith("{") and i > 0:
            name = part[1:-1]
            collection = parts[i - 1]
            if name in real and collection in ids:
                real[name] = ids[collection]
    return real


def _fuzz(operation, ids, headers, mode=GenerationMode.POSITIVE, budget=MAX_EXAMPLES):
    """Return a hypothesis test of one operation: staff or anonymous, random or real path parameters."""

    @settings(max_examples=budget, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode), real=st.booleans(), anonymous=st.booleans())
    def run(case, real, anonymous):
        excluded = []
        if operation.method.upper() != "GET":
            # A write's 400 may be a rule of the game (rules.md §4) or a reference to nothing, which no schema
            # says; a read's query values that the schema calls valid are accepted.
            excluded.append(positive_data_acceptance)
        if real and case.path_parameters:
            real_ones = _real_path_parameters(operation.path, case.path_parameters, ids)
            if real_ones != case.path_parameters:  # no longer the case generated: maybe a valid one now
                case.path_parameters = real_ones
                excluded.append(negative_data_rejection)
        # identity: the WSGI client hands schemathesis the bytes as sent, and GZipMiddleware would compress them.
        sent = {"Accept-Encoding": "identity", **({} if anonymous else headers)}
        case.call_and_validate(headers=sent, excluded_checks=excluded)  # every other check schemathesis has

    return run


def served(schema_text: bytes, path: str = "/api/schema/"):
    """The served schema (conftest's, fetched once a session) for schemathesis, which calls the WSGI app itself: what
    ``schemathesis.openapi.from_wsgi`` gives, without generating the schema again (~2 s)."""
    import json

    schema = schemathesis.openapi.from_dict(json.loads(schema_text))
    schema.app, schema.location = application, path
    return schema


@pytest.mark.slow
def test_fuzz_the_api_against_its_schema(fuzz_world, _served_schema_text):
    ids, headers = fuzz_world
    schema = served(_served_schema_text)
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 30
    for operation in operations:
        for mode, budget in ((GenerationMode.POSITIVE, MAX_EXAMPLES),
                             (GenerationMode.NEGATIVE, MAX_NEGATIVE_EXAMPLES)):
            try:
                _fuzz(operation, ids, headers, mode, budget)()
            except Unsatisfiable:  # nothing to break: an operation without parameters or body
                assert mode == GenerationMode.NEGATIVE
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001 - collect every failure (groups too), report them all
                failures.append(f"{mode.value} {operation.method.upper()} {operation.path}: {exc}"[:3000])
    assert not failures, "\n\n".join(failures)


STATEFUL = dict(max_examples=40, stateful_step_count=6)  # scenarios, and calls in each


@pytest.mark.slow
def test_stateful_runs_along_the_schemas_links(fuzz_world, _served_schema_text):
    """Follow the schema's links (a club created, then read, changed and deleted; a tournament's entries and
    rounds; a hand's history...) with staff's token, every check on each answer, a fixed seed."""
    _, headers = fuzz_world
    # Not the token's own endpoints: revoking the token the run signs in with would leave only 401s. Nor a
    # result's confirmation steps (fuzzed one by one above): they make nothing a link leads on from.
    schema = served(_served_schema_text, "/api/schema/?format=json").exclude(
        path_regex=r"^/api/v1/(auth/|matches/[^/]+/(confirm|dispute|settle|confirm-on-paper|result-events)/)")
    # No NUL characters in the generated query values: every text refuses them (a 400 the per-operation fuzz
    # above checks); here they only cut a scenario short before it reaches the objects along the links.
    schema.config.generation.allow_x00 = False
    sent = {"Accept-Encoding": "identity", **headers}
    calls = []

    class Workflow(schema.as_state_machine()):
        # Each scenario starts from the same world: what one scenario created (a club's unique name, say) is
        # rolled back before the next, so a fixed seed gives the same run whatever ran before in the database.
        def setup(self):
            self._savepoint = transaction.savepoint()

        def teardown(self):
            transaction.savepoint_rollback(self._savepoint)

        def get_call_kwargs(self, case):
            return {"headers": sent}

        def after_call(self, response, case):
            super().after_call(response, case)
            calls.append((case.method.upper(), case.path, response.status_code))

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            excluded = [] if case.method.upper() == "GET" else [positive_data_acceptance]  # as in _fuzz
            case.validate_response(response, excluded_checks=excluded, headers=sent, transport_kwargs=kwargs or None,
                                   recorder=getattr(self, "recorder", None))

    Workflow.run(settings=settings(**STATEFUL, deadline=None, derandomize=True, database=None,
                                   suppress_health_check=list(HealthCheck)))
    created = [c for c in calls if c[0] == "POST" and c[2] in (201, 202)]
    assert created and len({c[1] for c in calls}) >= 5, calls  # objects made, then reached through links
    print(f"stateful: {len(calls)} calls, {len(created)} creations, {len({c[1] for c in calls})} paths")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_schemathesis_coverage_phase_over_the_reads(live_server, settings, tmp_path):
    """schemathesis' CLI, its coverage phase (boundary and empty values, every parameter missing or wrong,
    methods the schema does not list) over the reads, every check, a fixed seed, against the live server."""
    import subprocess
    import sys
    from pathlib import Path

    from tests.factories import MatchFactory, TeamFactory, TournamentFactory

    settings.ALLOWED_HOSTS = ["*"]
    tournament = TournamentFactory(name="Gentse Beker", variant="belgian-manille", best_of=3)
    teams = TeamFactory(name="De Manilles"), TeamFactory(name="De Muulen")
    match = MatchFactory(round__tournament=tournament, round__number=1, table=1, ns=teams[0], ew=teams[1])
    hand_enter(match=match, data=summary("N"))
    _, key = AuthToken.objects.create(UserFactory(username="coverage-staff", is_staff=True))
    done = subprocess.run(
        [str(Path(sys.executable).with_name("st")), "run", f"{live_server.url}/api/schema/?format=json",
         "--phases", "coverage", "--checks", "all", "--seed", "42", "--generation-deterministic",
         "--include-method", "GET", "--exclude-path-regex", "^/api/v1/auth/", "--no-color",
         "-H", f"Authorization: Token {key}"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]

"""Clients generated from the schema work (issue 29): a Python one drives a tournament, a TypeScript one compiles.

The Python client is openapi-python-client's, generated from the schema written to a temporary folder; every
module is imported, then a workflow runs through it against the live server (tasks run eagerly). The
TypeScript types are openapi-typescript's, used by a small script that ``tsc --noEmit`` compiles; those need
the npm tools (tests/api/npm_tools.py), skipped, saying why, without them.
"""

import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.api.deals import summary
from tests.api.npm_tools import npm_tools  # noqa: F401 - the fixture
from tests.factories import UserFactory

PACKAGE = "manille_client"


@pytest.fixture(scope="module")
def python_client(schema_file, tmp_path_factory):
    """The generated package, imported module by module: (modules, import failures)."""
    # The venv's own, and its ruff (which formats the generated code) on PATH.
    bin_dir = str(Path(sys.executable).parent)
    generator = shutil.which("openapi-python-client", path=bin_dir) or "openapi-python-client"
    out = tmp_path_factory.mktemp("python-client")
    done = subprocess.run([generator, "generate", "--path", str(schema_file), "--output-path", str(out / PACKAGE),
                           "--meta", "none", "--overwrite"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        package = importlib.import_module(PACKAGE)
        modules, failures = 0, []
        for info in pkgutil.walk_packages(package.__path__, PACKAGE + "."):
            modules += 1
            try:
                importlib.import_module(info.name)
            except Exception as exc:  # noqa: BLE001 - list them all
                failures.append(f"{info.name}: {exc!r}")
        yield modules, failures
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_every_generated_python_module_imports(python_client):
    modules, failures = python_client
    assert modules > 300
    assert not failures, "\n".join(failures)


def _api(name: str):
    """A generated operation module by its operationId (the package's api/<tag>/<operation id>.py)."""
    from importlib import import_module

    api = import_module(f"{PACKAGE}.api")
    for info in pkgutil.walk_packages(api.__path__, f"{PACKAGE}.api."):
        if info.name.endswith("." + name):
            return import_module(info.name)
    raise LookupError(name)


def _model(name: str):
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def _ok(response, status: int):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response


@pytest.mark.django_db(transaction=True)
def test_a_tournament_driven_through_the_generated_python_client(python_client, live_server, settings):
    settings.ALLOWED_HOSTS = ["*"]
    UserFactory(username="director", password="director-pw")
    client_mod = importlib.import_module(f"{PACKAGE}.client")
    base = live_server.url

    # Each client closed when done: a kept-alive connection held the live server's request thread, and with it a
    # database connection that kept the test database from being dropped at the end of the run.
    with client_mod.Client(base_url=base) as anonymous:
        token = _ok(_api("v1_auth_token_create").sync_detailed(
            client=anonymous,
            body=_model("TokenRequestRequest")(username="director", password="director-pw", device="wall")), 200)
    with client_mod.AuthenticatedClient(base_url=base, token=token.parsed.token, prefix="Token") as client:
        _drive_a_tournament(client)


def _drive_a_tournament(client) -> None:
    """Players, teams, a Swiss tournament paired by its task, hands (one replayed), conditional reads."""
    club = _ok(_api("v1_clubs_create").sync_detailed(client=client, body=_model("ClubRequest")(
        name="De Zwarte Kat", city="Gent")), 201).parsed
    players = [_ok(_api("v1_players_create").sync_detailed(client=client, body=_model("PlayerRequest")(
        name=f"Speler {n}", club=club.id)), 201).parsed for n in range(8)]
    teams = [_ok(_api("v1_teams_create").sync_detailed(client=client, body=_model("TeamRequest")(
        name=f"Ploeg {n}", club=club.id, players=[players[2 * n].id, players[2 * n + 1].id])), 201).parsed
        for n in range(4)]
    tournament = _ok(_api("v1_tournaments_create").sync_detailed(client=client, body=_model("TournamentRequest")
                     .from_dict({"name": "Gentse Beker", "variant": "belgian-manille", "format": "swiss",
                                 "rounds": 3, "best_of": 1, "public": True})), 201).parsed
    tid = str(tournament.id)
    for team in teams:
        _ok(_api("v1_tournaments_entries_create").sync_detailed(
            tid, client=client, body=_model("EntryRequest")(team=team.id)), 201)

    accepted = _ok(_api("v1_tournaments_rounds_create").sync_detailed(
        tid, client=client, body=_model("RoundPairRequestRequest")()), 202)
    assert accepted.headers["Location"] == accepted.parsed.status_url
    task = _ok(_api("v1_tasks_retrieve").sync_detailed(str(accepted.parsed.task), client=client), 200).parsed
    assert task.status.value == "succeeded" and task.round_number == 1
    rnd = _ok(_api("v1_tournaments_rounds_retrieve").sync_detailed(tid, 1, client=client), 200)
    match = rnd.parsed.matches[0]

    enter = _api("v1_matches_hands_create")
    hand_body = _model("HandEnterRequest").from_dict(summary("N"))
    first = _ok(enter.sync_detailed(str(match.id), client=client, body=hand_body, idempotency_key="gb-r1-t1-h1"), 201)
    again = _ok(enter.sync_detailed(str(match.id), client=client, body=hand_body, idempotency_key="gb-r1-t1-h1"), 201)
    assert "Idempotent-Replayed" not in first.headers and again.headers["Idempotent-Replayed"] == "true"
    assert again.parsed.id == first.parsed.id and first.parsed.bonus is None
    _ok(enter.sync_detailed(str(match.id), client=client, body=_model("HandEnterRequest").from_dict(summary("E")),
                            idempotency_key=str(uuid.uuid4())), 201)

    board_api = _api("v1_matches_retrieve")
    board = _ok(board_api.sync_detailed(str(match.id), client=client), 200)
    assert [h.number for h in board.parsed.games[0].hands] == [1, 2]
    assert board.parsed.ns == match.ns and board.parsed.ns_detail.id == match.ns == match.ns_detail.id
    assert board.parsed.tournament == tournament.id and board.parsed.tournament_detail.name == tournament.name
    assert board.parsed.games[0].hands[0].bonus is None  # `bonus: null`, valid to the schema and its client
    unchanged = _ok(board_api.sync_detailed(str(match.id), client=client, if_none_match=board.headers["ETag"]), 304)
    assert unchanged.parsed is None and unchanged.headers["ETag"] == board.headers["ETag"]

    rounds = _ok(_api("v1_tournaments_rounds_list").sync_detailed(tid, client=client), 200)
    _ok(_api("v1_tournaments_rounds_list").sync_detailed(tid, client=client, if_none_match=rounds.headers["ETag"]),
        304)
    standings = _ok(_api("v1_tournaments_standings_retrieve").sync_detailed(tid, client=client), 200)
    assert len(standings.parsed.rows) == 4 and standings.parsed.count == 4 and standings.parsed.next_ is None
    listed = _ok(_api("v1_matches_list").sync_detailed(client=client, tournament=tournament.slug), 200)
    assert listed.parsed.count == 2 and listed.parsed.results[0].tournament_detail.id == tournament.id
    _ok(_api("v1_tournaments_standings_retrieve").sync_detailed(
        tid, client=client, if_none_match=standings.headers["ETag"]), 304)


@pytest.mark.django_db(transaction=True)
def test_an_individual_event_driven_through_the_generated_python_client(python_client, live_server, settings):
    """Issue 26: players entered with start numbers, a round drawn, its players by side and sit-outs, a hand at a
    table, the clock, the standings' player rows: each parsed by the generated models."""
    settings.ALLOWED_HOSTS = ["*"]
    UserFactory(username="director", password="director-pw")
    client_mod = importlib.import_module(f"{PACKAGE}.client")
    base = live_server.url
    token = _ok(_api("v1_auth_token_create").sync_detailed(
        client=client_mod.Client(base_url=base),
        body=_model("TokenRequestRequest")(username="director", password="director-pw", device="desk")), 200)
    client = client_mod.AuthenticatedClient(base_url=base, token=token.parsed.token, prefix="Token")
    club = _ok(_api("v1_clubs_create").sync_detailed(client=client, body=_model("ClubRequest")(
        name="De Zwarte Kat", city="Gent")), 201).parsed
    tournament = _ok(_api("v1_tournaments_create").sync_detailed(client=client, body=_model("TournamentRequest")
                     .from_dict({"name": "Kaarting", "variant": "belgian-manille", "entry": "individual",
                                 "format": "tables", "rounds": 3, "best_of": 1, "match_length": "timed",
                                 "minutes": 30, "public": True})), 201).parsed
    tid = str(tournament.id)
    for n in range(9):
        player = _ok(_api("v1_players_create").sync_detailed(client=client, body=_model("PlayerRequest")(
            name=f"Speler {n}", club=club.id)), 201).parsed
        entry = _ok(_api("v1_tournaments_entries_create").sync_detailed(
            tid, client=client, body=_model("EntryRequest").from_dict({"player": player.id})), 201).parsed
        assert entry.start_number == n + 1 and entry.player_detail.name == f"Speler {n}"
    _ok(_api("v1_tournaments_rounds_create").sync_detailed(tid, client=client,
                                                           body=_model("RoundPairRequestRequest")()), 202)
    rnd = _ok(_api("v1_tournaments_rounds_retrieve").sync_detailed(tid, 1, client=client), 200).parsed
    assert len(rnd.matches) == 2 and len(rnd.sitting_out) == 1 and rnd.seed
    match = rnd.matches[0]
    assert match.ns is None and match.bye is False and len(match.players.ns) == len(match.players.ew) == 2
    draws = _ok(_api("v1_tournaments_rounds_draw_retrieve").sync_detailed(tid, 1, client=client), 200).parsed
    assert draws.draws[0].in_use and draws.draws[0].seed == rnd.seed
    clock = _ok(_api("v1_tournaments_rounds_clock_create").sync_detailed(
        tid, 1, client=client, body=_model("ClockActionRequest").from_dict({"action": "start"})), 200).parsed
    assert clock.status.value == "running" and clock.minutes == 30
    _ok(_api("v1_matches_hands_create").sync_detailed(
        str(match.id), client=client, body=_model("HandEnterRequest").from_dict(summary("N"))), 201)
    board = _ok(_api("v1_matches_retrieve").sync_detailed(str(match.id), client=client), 200).parsed
    assert board.ns is None and [p.id for p in board.players.ew] == [p.id for p in match.players.ew]
    standings = _ok(_api("v1_tournaments_standings_retrieve").sync_detailed(tid, client=client), 200).parsed
    assert len(standings.rows) == 9 and all(row.player_detail.club.name == "De Zwarte Kat" for row in standings.rows)


WALL_TS = """
import type { components, paths } from "./schema";

type Round = components["schemas"]["Round"];
type Scoreboard = components["schemas"]["Scoreboard"];
type HandIn = paths["/api/v1/matches/{id}/hands/"]["post"]["requestBody"]["content"]["application/json"];
type HandOut = paths["/api/v1/matches/{id}/hands/"]["post"]["responses"]["201"]["content"]["application/json"];
type Standings = paths["/api/v1/tournaments/{tournament_id}/standings/"]["get"]["responses"]["200"]["content"][
  "application/json"];

const base = "http://127.0.0.1:8000/api/v1";
let etag: string | null = null;

async function scoreboard(match: number): Promise<Scoreboard | null> {
  const answer = await fetch(`${base}/matches/${match}/`, { headers: etag ? { "If-None-Match": etag } : {} });
  if (answer.status === 304) return null;
  etag = answer.headers.get("ETag");
  return (await answer.json()) as Scoreboard;
}

async function enterHand(token: string, match: number, hand: HandIn, key: string): Promise<HandOut> {
  const answer = await fetch(`${base}/matches/${match}/hands/`, {
    method: "POST",
    headers: { "Authorization": `Token ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(hand),
  });
  return (await answer.json()) as HandOut;
}

export async function wall(tournament: string, round: number): Promise<string[]> {
  const rnd = (await (await fetch(`${base}/tournaments/${tournament}/rounds/${round}/`)).json()) as Round;
  const lines: string[] = [];
  for (const match of rnd.matches) {
    const board = await scoreboard(match.id);
    const bonus = board?.games[0]?.hands[0]?.bonus;  // null when the hand earned none
    // A reference is an id with its `_detail` (issue 29): the scoreboard's teams are `ns_detail` and `ew_detail`.
    lines.push(`${match.table}: ${board?.ns_detail?.name ?? "bye"} - ${board?.ew_detail?.name ?? "bye"} ` +
      `${bonus?.points ?? ""} (${board?.tournament_detail.name} #${board?.tournament})`);
  }
  const standings = (await (await fetch(`${base}/tournaments/${tournament}/standings/`)).json()) as Standings;
  // A team's row, or in an individual event a player's (issue 26): the union narrowed by its own field.
  lines.push(...standings.rows.map((row) =>
    `${row.rank}. ${"team_detail" in row ? row.team_detail.name : row.player_detail.name} ${row.match_points}`));
  // Every match names its players, in every event; an individual event's team fields are null.
  lines.push(...rnd.matches.map((m) =>
    `${m.table}: ${m.players.ns.map((p) => p.name).join(" & ")}${m.bye ? " (bye)" : ""}`));
  lines.push(`sitting out: ${rnd.sitting_out.length}, clock: ${rnd.clock.status} ${rnd.clock.remaining ?? ""}`);
  const hand: HandIn = { dealer: "N", trump: "H", tricks: { ns: 5, ew: 3 }, points: { ns: 37, ew: 23 } };
  const stored = await enterHand("token", rnd.matches[0].id, hand, "gb-r1-t1-h1");
  lines.push(`hand ${stored.number}: ${stored.totals.ns}-${stored.totals.ew}`);
  return lines;
}
"""
TSCONFIG = {"compilerOptions": {"strict": True, "noEmit": True, "target": "es2022", "module": "es2022",
                                "moduleResolution": "bundler", "lib": ["es2022", "dom"], "skipLibCheck": True},
            "files": ["wall.ts"]}


def test_typescript_types_generated_and_used_by_a_script_that_compiles(npm_tools, schema_file, tmp_path):  # noqa: F811
    done = subprocess.run([npm_tools("openapi-typescript"), str(schema_file), "--output", str(tmp_path / "schema.ts")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "wall.ts").write_text(WALL_TS)
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    done = subprocess.run([npm_tools("tsc"), "--project", str(tmp_path / "tsconfig.json")], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

"""Issue 29, point 3: shapes that do not drift.

One convention for a reference (an id under its name, the object beside it as ``<name>_detail``) in REST, webhooks
and push events; one page style with a ``count``; ``?search=`` on matches that finds; ``ordering`` values in the
schema; ``?tournament=`` by slug; every time in the configured zone with its offset; ReDoc with nothing remote.
"""

import json
import re
from datetime import datetime

import pytest
from django.utils import timezone

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.api.individual import enter_players, individual_event, seated_round
from tests.factories import MatchFactory, PlayerFactory, TeamFactory, TournamentFactory
from tournaments.models import Entry
from tournaments.services.hands import hand_enter
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute
from webhooks.services import _dump, _envelope, event_payloads

pytestmark = pytest.mark.django_db

TEAM_REF = {"id", "name", "club"}


def _ref(obj) -> dict:
    return {"id": obj.pk, "name": obj.name}


# --- references: an id and its _detail ---------------------------------------------------------------------------

def test_the_match_list_names_its_tournament_and_teams_beside_their_ids(match, tournament, anon):
    row = anon.get("/api/v1/matches/", {"tournament": tournament.pk}).json()["results"][0]
    assert row["tournament"] == tournament.pk
    assert row["tournament_detail"] == {"id": tournament.pk, "name": "Gentse Beker", "variant": "belgian-manille"}
    assert (row["ns"], row["ew"]) == (match.ns_id, match.ew_id)
    assert row["ns_detail"] == {"id": match.ns_id, "name": "De Manilles",
                                "club": {"id": match.ns.club_id, "name": "De Zwarte Kat"}}
    assert row["ew_detail"]["name"] == "De Muulen"


def test_the_match_list_costs_the_same_queries_with_the_details(match, tournament, anon, django_assert_max_num_queries):
    for table in range(2, 6):
        MatchFactory(round=match.round, table=table, ns=TeamFactory(club=match.ns.club),
                     ew=TeamFactory(club=match.ns.club))
    with django_assert_max_num_queries(4):  # count, page, players of an individual event's seats, stamps
        rows = anon.get("/api/v1/matches/", {"tournament": tournament.pk}).json()["results"]
    assert len(rows) == 5 and all(r["ns_detail"]["club"]["name"] == "De Zwarte Kat" for r in rows)


def test_the_scoreboard_gives_ids_with_their_details(match, tournament, anon):
    board = anon.get(f"/api/v1/matches/{match.pk}/").json()
    assert board["tournament"] == tournament.pk
    assert board["tournament_detail"] == {"id": tournament.pk, "name": "Gentse Beker", "variant": "belgian-manille"}
    assert (board["ns"], board["ew"]) == (match.ns_id, match.ew_id)
    assert board["ns_detail"]["name"] == "De Manilles" and len(board["ns_detail"]["players"]) == 2
    assert board["ew_detail"]["club"] == {"id": match.ew.club_id, "name": "De Zwarte Kat"}


def test_a_walls_tables_give_team_ids_with_their_details(match, tournament, anon):
    MatchFactory(round=match.round, table=2, ns=TeamFactory(name="Troef Zot", club=match.ns.club), ew=None)
    first, bye = anon.get(f"/api/v1/tournaments/{tournament.slug}/rounds/1/tables/").json()["tables"]
    assert first["ns"] == match.ns_id and first["ns_detail"]["name"] == "De Manilles"
    assert bye["ew"] is None and bye["ew_detail"] is None and bye["ns_detail"]["name"] == "Troef Zot"


def test_entries_teams_players_and_tournaments_name_what_they_refer_to(match, tournament, club, organizer, anon):
    Entry.objects.create(tournament=tournament, team=match.ns, seed=1)
    entry = anon.get(f"/api/v1/tournaments/{tournament.pk}/entries/").json()["results"][0]
    assert entry["team"] == match.ns_id and entry["team_detail"] == _ref(match.ns)

    team = anon.get(f"/api/v1/teams/{match.ns_id}/").json()
    assert team["club"] == club.pk and team["club_detail"] == _ref(club)
    assert team["players"] == [match.ns.player_1_id, match.ns.player_2_id]
    assert team["players_detail"] == [_ref(match.ns.player_1), _ref(match.ns.player_2)]

    player = anon.get(f"/api/v1/players/{match.ns.player_1_id}/").json()
    assert player["club"] == club.pk and player["club_detail"] == _ref(club)

    found = anon.get(f"/api/v1/tournaments/{tournament.slug}/").json()
    assert found["club"] == club.pk and found["club_detail"] == _ref(club)
    assert found["organizers"] == [organizer.pk]
    assert found["organizers_detail"] == [{"id": organizer.pk, "name": "organizer"}]
    assert found["scorekeepers_detail"] == []


def test_who_am_i_names_what_i_manage_organize_and_keep_score_of(organizer, tournament, club):
    club.managers.add(organizer)
    me = client_for(organizer).get("/api/v1/auth/me/").json()
    assert me["managed_clubs"] == [club.pk] and me["managed_clubs_detail"] == [_ref(club)]
    assert me["organized_tournaments_detail"] == [_ref(tournament)] and me["scorekept_tournaments_detail"] == []


def test_a_team_created_answers_its_details(manager, club):
    players = [PlayerFactory(club=club, name=name) for name in ("An Peeters", "Bram Claes")]
    team = client_for(manager).post("/api/v1/teams/", {"name": "De Manilles", "club": club.pk,
                                                       "players": [p.pk for p in players]}, format="json").json()
    assert team["club"] == club.pk and team["club_detail"] == _ref(club)
    assert [p["name"] for p in team["players_detail"]] == ["An Peeters", "Bram Claes"]


def test_a_hands_history_names_who_changed_it(match, scorekeeper):
    hand, _ = hand_enter(match=match, data=summary("N"), user=scorekeeper)
    change, = client_for(scorekeeper).get(f"/api/v1/hands/{hand.pk}/history/").json()["results"]
    assert change["user"] == scorekeeper.pk and change["user_detail"] == {"id": scorekeeper.pk, "name": "scorekeeper"}


def test_a_pairing_task_names_its_tournament(tournament, organizer, club):
    for seed in range(1, 5):
        Entry.objects.create(tournament=tournament, team=TeamFactory(club=club), seed=seed)
    accepted = client_for(organizer).post(f"/api/v1/tournaments/{tournament.slug}/rounds/", {}, format="json").json()
    task = client_for(organizer).get(accepted["status_url"]).json()
    assert task["tournament"] == tournament.pk and task["tournament_detail"] == _ref(tournament)


def test_the_clubs_ranking_names_its_clubs_in_a_detail(anon, club):
    tournament = TournamentFactory(name="Clubbeker", club=club)
    for seed in range(1, 4):
        Entry.objects.create(tournament=tournament, team=TeamFactory(club=club), seed=seed)
    round_pair(tournament=tournament)  # three teams: a bye, a result
    standings_recompute(tournament=tournament)
    body = anon.get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    clubs = body["clubs"]
    assert clubs and clubs[0]["club"] == club.pk and clubs[0]["club_detail"] == _ref(club)
    assert clubs[0]["club_name"] == "De Zwarte Kat"  # kept beside it (deprecated)
    row = body["rows"][0]
    assert isinstance(row["team"], int) and row["team_detail"]["id"] == row["team"]


# --- webhooks and push events: the same convention, times with the zone's offset --------------------------------

def test_a_hand_event_names_its_tournament_and_teams_beside_their_ids(match, tournament, settings):
    settings.TIME_ZONE = "Europe/Brussels"
    hand, _ = hand_enter(match=match, data=summary("N"))
    found, payloads = event_payloads("hand.entered", {"hand": hand.pk})
    body = json.loads(_dump(_envelope("hand.entered", "0" * 32, found, payloads[0][1])))
    assert body["tournament"] == tournament.pk
    assert body["tournament_detail"] == {"id": tournament.pk, "name": "Gentse Beker", "slug": tournament.slug}
    data = body["data"]["match"]
    assert (data["ns"], data["ew"]) == (match.ns_id, match.ew_id)
    assert data["ns_detail"] == _ref(match.ns) and data["ew_detail"] == _ref(match.ew)
    created = datetime.fromisoformat(body["created"])
    assert created.utcoffset() == timezone.localtime(created).utcoffset() != timezone.timedelta(0)


@pytest.mark.parametrize("zone", ["Europe/Brussels", "America/Mexico_City"])
def test_an_events_time_has_the_offset_of_the_rest_of_the_api(tournament, anon, settings, zone):
    settings.TIME_ZONE = zone
    body = _envelope("webhook.test", "0" * 32, tournament, {})
    rest = anon.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert body["created"][-6:] == rest["created_at"][-6:] and body["created"][-6:] != "+00:00"


def test_round_paired_and_standings_rows_use_ids_with_details(match, tournament):
    for seed, team in enumerate((match.ns, match.ew), 1):
        Entry.objects.create(tournament=tournament, team=team, seed=seed)
    _, [(_, paired)] = event_payloads("round.paired", {"round": match.round_id})
    row = paired["round"]["matches"][0]
    assert row["ns"] == match.ns_id and row["ns_detail"] == _ref(match.ns)
    standings_recompute(tournament=tournament)
    _, [(_, updated)] = event_payloads("standings.updated", {"tournament": tournament.pk})
    first = updated["standings"][0]
    assert isinstance(first["team"], int) and first["team_detail"]["id"] == first["team"]
    assert set(first["team_detail"]) == {"id", "name"}




# --- one page style ----------------------------------------------------------------------------------------------

def test_the_standings_have_a_count_and_links_between_windows(tournament, anon, club):
    for seed in range(1, 6):
        Entry.objects.create(tournament=tournament, team=TeamFactory(club=club), seed=seed)
    standings_recompute(tournament=tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    whole = anon.get(url).json()
    assert (whole["count"], whole["next"], whole["previous"]) == (5, None, None) and len(whole["rows"]) == 5
    first = anon.get(url, {"limit": 2}).json()
    assert first["count"] == 5 and len(first["rows"]) == 2 and first["previous"] is None
    assert "offset=2" in first["next"] and "limit=2" in first["next"]
    second = anon.get(first["next"]).json()
    assert [r["rank"] for r in second["rows"]] == [r["rank"] for r in whole["rows"][2:4]]
    assert "offset=4" in second["next"] and "offset" not in second["previous"]
    last = anon.get(second["next"]).json()
    assert len(last["rows"]) == 1 and last["next"] is None and "offset=2" in last["previous"]
    assert list(whole)[:5] == ["computed_at", "count", "next", "previous", "rows"]


PAGE = {"count", "next", "previous", "results"}


def test_lists_that_were_bare_arrays_answer_pages(match, tournament, organizer, anon):
    hand, _ = hand_enter(match=match, data=summary("N"))
    organizer_client = client_for(organizer)
    for url in (f"/api/v1/tournaments/{tournament.pk}/stages/", f"/api/v1/tournaments/{tournament.pk}/stages/1/rounds/",
                f"/api/v1/hands/{hand.pk}/history/"):
        body = anon.get(url).json()
        assert set(body) == PAGE and body["count"] == len(body["results"]) >= 1, url
    assert set(organizer_client.get(f"/api/v1/tournaments/{tournament.pk}/webhooks/").json()) == PAGE
    assert set(organizer_client.get("/api/v1/auth/tokens/").json()) == PAGE


def test_the_schema_describes_those_lists_as_pages(served_schema):
    paths = served_schema["paths"]
    for path in ("/api/v1/tournaments/{tournament_id}/stages/",
                 "/api/v1/tournaments/{tournament_id}/stages/{number}/rounds/", "/api/v1/hands/{id}/history/",
                 "/api/v1/tournaments/{tournament_id}/webhooks/",
                 "/api/v1/tournaments/{tournament_id}/webhooks/{id}/deliveries/", "/api/v1/auth/tokens/"):
        ref = paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        assert ref.rsplit("/", 1)[1].startswith("Paginated"), path
    standings = served_schema["components"]["schemas"]["Standings"]["properties"]
    assert {"computed_at", "count", "next", "previous", "rows"} <= set(standings)


# --- filters -----------------------------------------------------------------------------------------------------

def test_search_finds_matches_by_team_and_player_names(match, tournament, anon):
    other = MatchFactory(round=match.round, table=2, ns=TeamFactory(name="Troef Zot", club=match.ns.club),
                         ew=TeamFactory(name="Tien en Aas", club=match.ns.club))
    found = lambda term: [r["id"] for r in anon.get("/api/v1/matches/", {"search": term}).json()["results"]]  # noqa: E731
    assert found("troef") == [other.pk]
    assert found("muulen") == [match.pk]
    assert found(match.ns.player_1.name) == [match.pk]
    assert found("nobody-has-this-name") == []


def test_search_finds_an_individual_events_match_by_a_seated_players_name(anon):
    tournament = individual_event()
    players = enter_players(tournament, 8)
    rnd = seated_round(tournament, 1, [tuple(players[:4]), tuple(players[4:])])
    first, second = rnd.matches.order_by("table")
    found = [r["id"] for r in anon.get("/api/v1/matches/", {"search": "Speler 06",
                                                            "tournament": tournament.slug}).json()["results"]]
    assert found == [second.pk] and first.pk != second.pk


def test_ordering_values_are_listed_in_the_schema_and_others_refused(match, anon, served_schema):
    parameters = {p["name"]: p for p in served_schema["paths"]["/api/v1/matches/"]["get"]["parameters"]}
    assert parameters["ordering"]["schema"]["enum"] == ["table", "-table", "id", "-id"]
    assert parameters["team"]["schema"]["type"] == "integer"
    assert anon.get("/api/v1/matches/", {"ordering": "-table"}).status_code == 200
    assert anon.get("/api/v1/matches/", {"ordering": "table,-id"}).status_code == 200
    refused = anon.get("/api/v1/matches/", {"ordering": "secret"})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["attr"] == "ordering" and refused.json()["errors"][0]["code"] == "invalid_choice"
    tournaments = {p["name"]: p for p in served_schema["paths"]["/api/v1/tournaments/"]["get"]["parameters"]}
    assert "-starts_on" in tournaments["ordering"]["schema"]["enum"]


def test_no_search_parameter_where_nothing_is_searched(served_schema):
    entries = served_schema["paths"]["/api/v1/tournaments/{tournament_id}/entries/"]["get"]["parameters"]
    assert "search" not in {p["name"] for p in entries}
    matches = {p["name"]: p for p in served_schema["paths"]["/api/v1/matches/"]["get"]["parameters"]}
    assert "ns__name" not in matches["search"]["description"] or "player" in matches["search"]["description"]


def test_a_tournament_filter_takes_a_slug_as_well_as_an_id(match, tournament, anon):
    TournamentFactory(name="Brugse Beker")
    MatchFactory(round__tournament=TournamentFactory(name="Andere Beker"), table=1)
    by_id = [r["id"] for r in anon.get("/api/v1/matches/", {"tournament": tournament.pk}).json()["results"]]
    by_slug = [r["id"] for r in anon.get("/api/v1/matches/", {"tournament": tournament.slug}).json()["results"]]
    assert by_id == by_slug == [match.pk]
    hand, _ = hand_enter(match=match, data=summary("N"))
    hands = anon.get("/api/v1/hands/", {"tournament": tournament.slug}).json()["results"]
    assert [h["id"] for h in hands] == [hand.pk]
    changes = anon.get("/api/v1/hands/", {"tournament": tournament.slug, "updated_after": "0"})
    assert changes.status_code == 200
    assert anon.get("/api/v1/matches/", {"tournament": "no-such-event"}).json()["results"] == []
    assert anon.get("/api/v1/matches/", {"tournament": "not a slug!"}).status_code == 400
    assert anon.get("/api/v1/matches/", {"tournament": "0"}).json()["results"] == []  # an id nobody has
    assert anon.get("/api/v1/hands/", {"tournament": "0", "updated_after": "0"}).json()["results"] == []


# --- ReDoc: nothing from another host ----------------------------------------------------------------------------

def test_redocs_bundle_is_served_without_its_cdn_logo(anon):
    html = anon.get("/api/redoc/").content.decode()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert scripts == ["/api/redoc/redoc.standalone.js"]
    bundle = anon.get(scripts[0])
    assert bundle.status_code == 200 and "javascript" in bundle["Content-Type"]
    text = bundle.content.decode()
    assert "cdn.redoc.ly" not in text and "Redoc" in text
    # No other remote asset: a src or an href the bundle would fetch from another host.
    assert not re.findall(r'src:"https?://', text)

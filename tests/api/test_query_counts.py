"""What the hot HTTP paths cost in SQL (#14): a hand POST, and reads answered from the version stamps.

Counting a request's own statements. The tests run inside a transaction (pytest-django), so two
things differ from production and are set aside: the services' transaction is a SAVEPOINT here
(and its RELEASE), where production opens it with BEGIN, which Django does not log; and the work
queued on commit (the standings recompute, the live update, webhooks) never runs here, as in
production where it runs in workers after the answer. Everything else the request runs is counted:
the token's lookup, the locked read, the reads, the writes and the history record.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.conftest import client_for
from tests.api.deals import summary
from tests.factories import EntryFactory
from tournaments.models import Hand, StandingsSnapshot
from tournaments.services.hands import hand_enter
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

SEATS = "NESW"


def own_statements(captured) -> list[str]:
    """The request's statements, without the savepoints that stand for production's BEGIN and COMMIT."""
    return [q["sql"] for q in captured if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def post_hand(client, match, dealer):
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(f"/api/v1/matches/{match.pk}/hands/", summary(dealer), format="json")
    return response, own_statements(ctx.captured_queries)


def test_a_hand_post_runs_at_most_eight_statements_with_its_history(match, scorekeeper):
    client = client_for(scorekeeper)
    assert client.post(f"/api/v1/matches/{match.pk}/hands/", summary("N"), format="json").status_code == 201
    histories = Hand.history.count()
    response, statements = post_hand(client, match, "E")
    assert response.status_code == 201, response.content
    # The token; the match locked with the user's roles, on PostgreSQL with its games and the number of
    # hands of the game being played (its games read after the lock elsewhere); then, on PostgreSQL,
    # one statement for the hand, its history record, its game and its match (four statements elsewhere).
    assert len(statements) <= (3 if connection.vendor == "postgresql" else 7), "\n".join(statements)
    assert Hand.history.count() == histories + 1  # the audit record is one of them
    body = response.json()
    assert (body["number"], body["game"], body["totals"]) == (2, 1, {"ns": 14, "ew": 0})
    assert body["match"]["next_dealer"] == "S" and body["match"]["status"] == "playing"


def test_a_hand_post_with_an_idempotency_key_costs_no_more(match, scorekeeper):
    client = client_for(scorekeeper)
    client.post(f"/api/v1/matches/{match.pk}/hands/", summary("N"), format="json", HTTP_IDEMPOTENCY_KEY="a-1")
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(f"/api/v1/matches/{match.pk}/hands/", summary("E"), format="json",
                               HTTP_IDEMPOTENCY_KEY="a-2")
    assert response.status_code == 201
    assert len(own_statements(ctx.captured_queries)) <= 8
    # The retry of that request answers the same hand, found after the refusal.
    again = client.post(f"/api/v1/matches/{match.pk}/hands/", summary("E"), format="json",
                        HTTP_IDEMPOTENCY_KEY="a-2")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == response.json()["id"] and Hand.objects.count() == 2


def test_a_hand_post_is_refused_before_anything_is_written(match, stranger, private_match, scorekeeper):
    assert client_for(stranger).post(f"/api/v1/matches/{match.pk}/hands/", summary("N"),
                                     format="json").status_code == 403
    assert client_for(scorekeeper).post(f"/api/v1/matches/{private_match.pk}/hands/", summary("N"),
                                        format="json").status_code == 404
    assert Hand.objects.count() == 0


def test_an_unchanged_scoreboard_is_a_304_without_sql(match, anon, scorekeeper):
    for i in range(3):
        hand_enter(match=match, data=summary(SEATS[i]))
    url = f"/api/v1/matches/{match.pk}/"
    first = anon.get(url)
    with CaptureQueriesContext(connection) as ctx:
        again = anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    # A visitor: the match's tournament is known in memory, that it is public comes with the stamps.
    assert len(ctx.captured_queries) == 0
    with CaptureQueriesContext(connection) as ctx:
        full = anon.get(url)
    assert full.status_code == 200 and full.json() == first.json() and len(ctx.captured_queries) == 0
    # Signed in, who may see it is one query (the tournament's organizers and scorekeepers count).
    keeper = client_for(scorekeeper)
    etag = keeper.get(url)["ETag"]
    with CaptureQueriesContext(connection) as ctx:
        assert keeper.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert len(own_statements(ctx.captured_queries)) <= 2  # the token, who may see it
    # A hand entered through the API changes it.
    client_for(scorekeeper).post(f"{url}hands/", summary("W"), format="json")
    changed = anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and len(changed.json()["games"][0]["hands"]) == 4


def test_a_scoreboard_changes_with_a_renamed_team_and_a_correction(match, anon, staff):
    hand = hand_enter(match=match, data=summary("N"))[0]
    url = f"/api/v1/matches/{match.pk}/"
    etag = anon.get(url)["ETag"]
    match.ns.name = "De Nieuwe Manilles"
    match.ns.save()
    renamed = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert renamed.status_code == 200 and renamed.json()["ns_detail"]["name"] == "De Nieuwe Manilles"
    etag = renamed["ETag"]
    client_for(staff).patch(f"/api/v1/hands/{hand.pk}/", {"points": {"ns": 40, "ew": 20}}, format="json")
    corrected = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert corrected.status_code == 200 and corrected.json()["games"][0]["hands"][0]["points"]["ns"] == 40
    etag = corrected["ETag"]
    client_for(staff).delete(f"/api/v1/hands/{hand.pk}/")
    deleted = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert deleted.status_code == 200 and deleted.json()["games"][0]["hands"] == []


def test_a_private_scoreboard_stays_private_with_an_etag(private_match, anon, staff):
    url = f"/api/v1/matches/{private_match.pk}/"
    etag = client_for(staff).get(url)["ETag"]
    assert anon.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_visitor_loses_a_tournament_the_moment_it_is_unpublished(tournament, match, anon, staff):
    from django.core.cache import cache

    from tournaments import versions
    from tournaments.services.tournaments import tournament_update

    urls = [f"/api/v1/matches/{match.pk}/", f"/api/v1/tournaments/{tournament.pk}/standings/",
            f"/api/v1/tournaments/{tournament.pk}/rounds/", f"/api/v1/tournaments/{tournament.pk}/rounds/1/"]
    etags = {}
    for url in urls:
        first = anon.get(url)
        assert first.status_code == 200, (url, first.content)
        etags[url] = first["ETag"]
        assert anon.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 304
    tournament_update(tournament=tournament, user=staff, public=False)
    for url in urls:  # neither the kept body nor a 304: not found, as for any private tournament
        assert anon.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 404, url
        assert anon.get(url).status_code == 404, url
        assert client_for(staff).get(url).status_code == 200, url
    tournament_update(tournament=tournament, user=staff, public=True)
    assert all(anon.get(url).status_code == 200 for url in urls)
    # A number that is no tournament answers 404 and leaves no stamp behind.
    assert anon.get("/api/v1/tournaments/987654/standings/").status_code == 404
    assert anon.get("/api/v1/matches/987654/").status_code == 404
    assert cache.get(versions.tournament_key(987654)) is None and cache.get(versions.public_key(987654)) is None


def test_a_fact_read_before_a_commit_is_not_believed_after_it(tournament, match, anon):
    """``public:<id>`` kept under an older stamp of the tournament is read again, never believed."""
    from django.core.cache import cache

    from tournaments import versions

    url = f"/api/v1/matches/{match.pk}/"
    assert anon.get(url).status_code == 200
    stale = cache.get(versions.public_key(tournament.pk))
    assert stale.endswith(":1")
    type(tournament).objects.filter(pk=tournament.pk).update(public=False)  # a write the signals do not see...
    versions.tournament_changed(tournament.pk)  # ...whose service bumps the stamp, as every save does
    cache.set(versions.public_key(tournament.pk), stale)  # a reader that raced it kept the old fact
    assert anon.get(url).status_code == 404


def test_standings_304_cached_and_top_n(tournament, anon, teams):
    for i, team in enumerate(teams):
        EntryFactory(tournament=tournament, team=team, seed=i + 1)
    standings_recompute(tournament=tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    first = anon.get(url)
    assert first.status_code == 200 and len(first.json()["rows"]) == 2
    with CaptureQueriesContext(connection) as ctx:
        assert anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        assert anon.get(url).json() == first.json()
    assert len(ctx.captured_queries) == 0  # public: known with the stamps; the body: kept under them
    top = anon.get(f"{url}?limit=1")
    assert [r["rank"] for r in top.json()["rows"]] == [1] and top["ETag"] != first["ETag"]
    assert [r["team"] for r in anon.get(f"{url}?limit=1&offset=1").json()["rows"]] == [first.json()["rows"][1]["team"]]
    assert anon.get(f"{url}?limit=0").status_code == 400
    # A recompute changes the ETag.
    before = StandingsSnapshot.objects.get(tournament=tournament).computed_at
    standings_recompute(tournament=tournament)
    assert StandingsSnapshot.objects.get(tournament=tournament).computed_at != before
    assert anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_large_answers_come_compressed(match, anon):
    for i in range(12):
        hand_enter(match=match, data=summary(SEATS[i % 4], 30, tricks=(4, 4)))  # ties: the game goes on
    url = f"/api/v1/matches/{match.pk}/"
    plain = anon.get(url)
    packed = anon.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    import gzip
    import json

    assert json.loads(gzip.decompress(packed.content)) == plain.json()
    assert len(packed.content) < len(plain.content) / 3


def test_a_round_is_a_304_until_a_result_changes_it(match, anon, scorekeeper, tournament):
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/"
    first = anon.get(url)
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        assert anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert len(ctx.captured_queries) == 0
    client_for(scorekeeper).post(f"/api/v1/matches/{match.pk}/hands/", summary("N"), format="json")
    changed = anon.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["matches"][0]["status"] == "playing"


@pytest.mark.django_db(transaction=True)
def test_a_hand_in_its_own_transaction_bumps_its_stamps_once_at_the_commit(match, monkeypatch):
    # Nobody reads the stamps inside the hand services' own transaction: the commit's bump is the only
    # one (a round trip to the cache less); nested in another block (a test's, a caller's), both are made.
    from django.db import transaction

    from tournaments import versions

    bumped = []
    now, at_commit = versions.bump_now, versions._bumped  # the bump made at once, the one made at the commit

    def record_now(*keys):
        bumped.append((keys, transaction.get_connection().in_atomic_block))
        now(*keys)

    def record_at_commit(keys, replies):
        bumped.append((keys, transaction.get_connection().in_atomic_block))
        at_commit(keys, replies)

    hand_enter(match=match, data=summary("N"))  # the first: the match starts (its round's stamps too)
    monkeypatch.setattr(versions, "bump_now", record_now)
    monkeypatch.setattr(versions, "_bumped", record_at_commit)
    before = versions.stamps(versions.match_key(match.pk))
    hand_enter(match=match, data=summary("E"))
    mine = [inside for keys, inside in bumped if versions.match_key(match.pk) in keys]
    assert mine == [False], bumped  # once, after the commit
    assert versions.stamps(versions.match_key(match.pk)) != before
    bumped.clear()
    with transaction.atomic():
        hand_enter(match=match, data=summary("S"))
        assert [inside for keys, inside in bumped if versions.match_key(match.pk) in keys] == [True]
    assert [inside for keys, inside in bumped if versions.match_key(match.pk) in keys] == [True, False]


def test_an_individual_rounds_players_cost_one_query_whatever_its_number_of_tables(anon):
    """Issue 26: a round of 30 tables of four reads its 120 seated players (and its sit-outs) in one query each,
    as a round of two tables does: the round, its tables, the match list."""
    from tests.api.individual import enter_players, individual_event, seated_round

    def costs(tables: int) -> list[int]:
        event = individual_event(name=f"Kaarting {tables}")
        players = enter_players(event, 4 * tables + 2, clubs=5)
        seated_round(event, 1, [tuple(players[4 * t:4 * t + 4]) for t in range(tables)], out=tuple(players[-2:]))
        counted = []
        for url in (f"/api/v1/tournaments/{event.pk}/rounds/1/", f"/api/v1/tournaments/{event.pk}/rounds/",
                    f"/api/v1/tournaments/{event.pk}/rounds/1/tables/",
                    f"/api/v1/matches/?tournament={event.pk}"):
            with CaptureQueriesContext(connection) as ctx:
                answer = anon.get(url)
            assert answer.status_code == 200, (url, answer.content[:300])
            counted.append(len(ctx.captured_queries))
        return counted

    small, large = costs(2), costs(30)
    assert large == small, (small, large)
    assert max(large) <= 8, large

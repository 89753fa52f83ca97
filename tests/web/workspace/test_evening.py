"""A three-round kaarting of 22 players run from the workspace alone: the event made with the form, the players
typed in, each round drawn through the pair request, every table's hands entered on a phone by its code, and the
standings and results exported."""

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tests.web.conftest import belgian_hand
from tests.web.workspace.individual import NAMES
from tests.web.workspace.test_tournament_form import settings_data
from tournaments.models import Match, Round, RoundSeat, Standing, TaskRecord, Tournament

pytestmark = pytest.mark.django_db


def play_table(tournament, match) -> None:
    """A phone at the table types its code and enters hands of 60-0 until the match (best of 1) is won."""
    phone = Client()
    phone.get(reverse("ws:table-code", args=[tournament.slug]))
    opened = phone.post(reverse("ws:table-code", args=[tournament.slug]), {"code": match.table_code.lower()})
    assert opened.status_code == 302
    number = 0
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        number += 1
        body = {"hand": belgian_hand(number, 60), "game": 1, "number": number, "key": f"h{number}"}
        answer = phone.post(reverse("ws:table-hand", args=[tournament.slug, match.pk]), json.dumps(body),
                            content_type="application/json")
        assert answer.status_code == 201, answer.content
        assert number < 10


def test_an_organizer_runs_a_three_round_kaarting_for_22_players(client, django_capture_on_commit_callbacks):
    organizer = UserFactory(username="orga")
    club = ClubFactory(name="De Zwarte Kat")
    club.managers.add(organizer)
    client.force_login(organizer)
    made = client.post(reverse("ws:tournament-new"), settings_data(
        club=club, name="Kaarting", entry="individual", format="tables", rounds="3", best_of="1",
        match_length="best_of", sit_out_score="mean", withdrawal="sit_out"))
    assert made.status_code == 302
    t = Tournament.objects.get(name="Kaarting")
    for i, name in enumerate(NAMES):
        answer = client.post(reverse("ws:player-new", args=[t.slug]), {"name": name, "club": club.pk if i % 3 else ""})
        assert answer.status_code == 302
    assert "22 players entered" in client.get(reverse("ws:entries", args=[t.slug])).content.decode()

    tables = {}
    for n in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            asked = client.post(reverse("ws:pair", args=[t.slug]))
        task = TaskRecord.objects.filter(tournament=t).order_by("-created_at").first()
        assert asked["Location"] == reverse("ws:pair-task", args=[t.slug, task.id])
        assert client.get(asked["Location"])["Location"] == reverse("ws:round", args=[t.slug, n])
        rnd = Round.objects.get(tournament=t, number=n)
        page = client.get(reverse("ws:round", args=[t.slug, n])).content.decode()
        assert "5 tables" in page and "Sitting out" in page
        seated = {}
        for m in Match.objects.filter(round=rnd):
            seated[m.table] = set(RoundSeat.objects.filter(match=m).values_list("player_id", flat=True))
            assert m.table_code in page
            play_table(t, m)
        tables[n] = seated
        assert RoundSeat.objects.filter(round=rnd, match__isnull=True).count() == 2
    # A cycle keeps its four players at each table for three rounds.
    assert tables[1] == tables[2] == tables[3]

    dashboard = client.get(reverse("ws:tournament", args=[t.slug])).content.decode()
    assert "Every round of the tournament has been drawn." in dashboard
    assert Standing.objects.filter(tournament=t, player__isnull=False).count() == 22
    rows = list(csv.reader(io.StringIO(
        client.get(reverse("ws:export-standings", args=[t.slug])).content.decode("utf-8-sig"))))
    assert len(rows) == 23 and rows[0][:4] == ["Rank", "Start number", "Player", "Club"]
    results = list(csv.reader(io.StringIO(
        client.get(reverse("ws:export-results", args=[t.slug])).content.decode("utf-8-sig"))))
    status, result = results[0].index("Status"), results[0].index("Result")
    assert len(results) == 16 and all(r[status] == "Finished" for r in results[1:])
    assert all(r[result] == f"{r[2]} & {r[4]}" for r in results[1:])  # every hand 60-0 to N and S

"""A club's players and teams from a CSV or xlsx file: preview, errors per line, all or nothing; export round-trips."""

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory
from tournaments.models import Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="De Zwarte Kat", city="Gent")


@pytest.fixture
def manager(club):
    user = UserFactory(username="manager")
    club.managers.add(user)
    return user


@pytest.fixture
def browser(manager):
    client = Client()
    client.force_login(manager)
    return client


def import_url(club):
    return reverse("ws:club-import", args=[club.pk])


def csv_file(text: str, name="players.csv", encoding="utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def xlsx_file(rows, name="players.xlsx") -> SimpleUploadedFile:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return SimpleUploadedFile(name, out.getvalue())


def upload(browser, club, file):
    return browser.post(import_url(club), {"file": file})


def confirm(browser, club, response):
    token = response.context["token"]
    assert token
    return browser.post(import_url(club), {"token": token}, follow=True)


def errors_of(response):
    """(line, column, message) of every error the preview shows."""
    return [(r.line, column, message) for r in response.context["preview"].error_rows for column, message in r.errors]


# --------------------------------------------------------------------------- players


def test_import_page_explains_the_formats_and_offers_exports(browser, club):
    body = browser.get(import_url(club)).content.decode()
    assert "players first, then teams" in body
    for kind in ("players", "teams"):
        for fmt in ("csv", "xlsx"):
            assert reverse("ws:club-export", args=[club.pk, kind, fmt]) in body


def test_a_good_players_file_is_previewed_then_imported(browser, club):
    PlayerFactory(club=club, name="Bert Claes", licence="B1")
    text = "name,licence,retired\nAn Peeters,A1,\nBert Claes,B1,no\nCis De Wit,,yes\n"
    response = upload(browser, club, csv_file(text))
    assert response.status_code == 200
    preview = response.context["preview"]
    assert preview.ok and (preview.created, preview.updated, preview.unchanged) == (2, 0, 1)
    assert [r.action for r in preview.rows] == ["new", "skip", "new"]
    assert Player.objects.filter(club=club).count() == 1, "a preview stores nothing"
    response = confirm(browser, club, response)
    assert "Imported players: 2 created, 0 updated, 1 unchanged." in response.content.decode()
    players = {p.name: (p.licence, p.retired) for p in Player.objects.filter(club=club)}
    assert players == {"An Peeters": ("A1", False), "Bert Claes": ("B1", False), "Cis De Wit": (None, True)}


def test_a_file_with_bad_lines_stores_nothing_and_names_each_line(browser, club):
    PlayerFactory(club=ClubFactory(), licence="TAKEN")
    stranger = PlayerFactory(club=ClubFactory())
    text = ("id,name,licence,retired\n"
            ",An Peeters,A1,\n"          # line 2: fine
            ",,A2,\n"                     # line 3: no name
            "\n"                           # line 4: blank, skipped
            ",Bert,TAKEN,\n"              # line 5: another club's licence
            ",Cis,,maybe\n"               # line 6: retired neither yes nor no
            f"{stranger.pk},Dirk,,\n"     # line 7: an id of another club
            "abc,Els,,\n")                # line 8: not a number
    response = upload(browser, club, csv_file(text))
    assert response.status_code == 200
    assert errors_of(response) == [
        (3, "name", "A name is required."),
        (5, "licence", "A player of another club has this licence."),
        (6, "retired", "Write yes or no."),
        (7, "id", "The club has no such id: leave it blank for a new one."),
        (8, "id", "An id is a whole number; leave it blank for a new one."),
    ]
    body = response.content.decode()
    assert "5 lines have errors, so nothing will be stored." in body
    assert "Line 5" in body and 'name="token"' not in body
    assert not Player.objects.filter(club=club).exists()
    assert Player.objects.get(pk=stranger.pk).name != "Dirk"


def test_line_numbers_count_quoted_newlines(browser, club):
    text = 'name,licence\n"An\nPeeters",A1\n,A2\n'
    response = upload(browser, club, csv_file(text))
    assert errors_of(response) == [(4, "name", "A name is required.")]


def test_errors_are_in_the_users_language(browser, club, settings):
    from django.utils import translation

    browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = upload(browser, club, csv_file("name,retired\nAn,misschien\n"))
    assert '<html lang="nl">' in response.content.decode()
    with translation.override("nl"):
        expected = translation.gettext("Write yes or no.")
    assert errors_of(response) == [(2, "retired", expected)]
    response = upload(browser, club, SimpleUploadedFile("leeg.csv", b""))
    assert response.context["form"].errors["file"] == ["Het verstuurde bestand is leeg."]


def test_a_preview_confirmed_after_the_data_changed_stores_nothing(browser, club):
    response = upload(browser, club, csv_file("name,licence\nAn,A1\nBert,B1\n"))
    assert response.context["preview"].ok
    PlayerFactory(club=ClubFactory(), licence="B1")  # someone else takes the licence meanwhile
    response = confirm(browser, club, response)
    assert "nothing was stored" in response.content.decode()
    assert errors_of(response) == [(3, "licence", "A player of another club has this licence.")]
    assert not Player.objects.filter(club=club).exists()


def test_a_forged_or_foreign_token_is_refused(browser, club, manager):
    response = upload(browser, club, csv_file("name\nAn\n"))
    token = response.context["token"]
    other = ClubFactory()
    other.managers.add(manager)
    refused = browser.post(import_url(other), {"token": token})
    assert refused.status_code == 400 and "upload the file again" in refused.content.decode()
    refused = browser.post(import_url(club), {"token": token[:-2] + "xx"})
    assert refused.status_code == 400
    assert not Player.objects.exists()


def test_a_token_for_another_user_is_refused(club, browser):
    response = upload(browser, club, csv_file("name\nAn\n"))
    colleague = UserFactory(username="colleague")
    club.managers.add(colleague)
    client = Client()
    client.force_login(colleague)
    assert client.post(import_url(club), {"token": response.context["token"]}).status_code == 400
    assert not Player.objects.exists()


def test_semicolons_and_windows_encoding(browser, club):
    text = "Name;Licence\nJosé Müller;X1\n"
    response = upload(browser, club, csv_file(text, encoding="cp1252"))
    confirm(browser, club, response)
    assert Player.objects.get(club=club).name == "José Müller"


def test_xlsx_import_counts_lines_as_the_spreadsheet_does(browser, club):
    rows = [["name", "licence", "retired"], ["An", 1001, None], [None, None, None], ["Bert", "B1", "ja"],
            [None, "B2", None]]
    response = upload(browser, club, xlsx_file(rows))
    assert errors_of(response) == [(5, "name", "A name is required.")]
    response = upload(browser, club, xlsx_file(rows[:4]))
    confirm(browser, club, response)
    assert {(p.name, p.licence, p.retired) for p in Player.objects.filter(club=club)} == {
        ("An", "1001", False), ("Bert", "B1", True)}


@pytest.mark.parametrize(("name", "content", "message"), [
    ("players.pdf", b"%PDF", "Upload a CSV file or an xlsx spreadsheet."),
    ("players.csv", b"", "The submitted file is empty."),
    ("players.csv", b"\n ,\n\n", "The file is empty."),
    ("players.csv", b"licence\nA1\n", "missing: name"),
    ("players.csv", b"name\n", "no rows below its column names"),
    ("players.xlsx", b"not a zip", "not an xlsx spreadsheet"),
])
def test_unreadable_files_are_refused_on_the_field(browser, club, name, content, message):
    response = upload(browser, club, SimpleUploadedFile(name, content))
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors["file"])


def test_size_and_row_limits(browser, club, settings):
    settings.WS_IMPORT_MAX_BYTES = 100
    response = upload(browser, club, csv_file("name\n" + "An Peeters\n" * 20))
    assert response.status_code == 400
    assert response.context["form"].errors["file"] == ["The file is too large: at most 0 kB."]
    settings.WS_IMPORT_MAX_BYTES = 10_000
    settings.WS_IMPORT_MAX_ROWS = 3
    response = upload(browser, club, csv_file("name\nA\nB\nC\nD\n"))
    assert response.context["form"].errors["file"] == ["The file has too many rows: at most 3."]
    assert upload(browser, club, csv_file("name\nA\nB\nC\n")).context["preview"].ok
    response = upload(browser, club, csv_file("name\nA\n" + ",\n" * 200 + "B\n"))
    assert response.context["form"].errors["file"] == ["The file has too many rows: at most 3."]
    assert not Player.objects.exists()


def test_rows_without_id_update_by_licence_then_name(browser, club):
    a = PlayerFactory(club=club, name="An", licence="A1")
    b = PlayerFactory(club=club, name="Bert")
    response = upload(browser, club, csv_file("name,licence\nAnna,A1\nbert,B9\nBert,\n"))
    # Anna: found by licence (renamed); bert with a new licence: Bert has none, so he gets it; the last row is Bert.
    assert [r.action for r in response.context["preview"].rows] == ["update", "update", "update"]
    confirm(browser, club, response)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.name, b.name, b.licence) == ("Anna", "Bert", None)
    assert Player.objects.filter(club=club).count() == 2


# --------------------------------------------------------------------------- teams


def test_teams_reference_players_by_licence_or_name(browser, club):
    PlayerFactory(club=club, name="An", licence="A1")
    PlayerFactory(club=club, name="Bert")
    PlayerFactory(club=club, name="Cis")
    PlayerFactory(club=club, name="Cis", licence="C2")
    PlayerFactory(club=ClubFactory(), name="Dirk", licence="D1")
    TeamFactory(club=club, name="Bestaand")
    text = ("name,player_1,player_2\n"
            "De Manilles,A1,bert\n"        # fine
            "Twee Cissen,An,Cis\n"         # two players called Cis
            "Vreemd,An,D1\n"               # another club's player
            "Alleen,An,An\n"               # the same player twice
            "bestaand,An,Bert\n")          # the existing team (by name): an update
    response = upload(browser, club, csv_file(text, name="teams.csv"))
    assert response.context["preview"].table.kind == "teams"
    assert errors_of(response) == [
        (3, "player_2", "The club has several players called Cis: write the licence."),
        (4, "player_2", "The club has no player D1: import the players first."),
        (5, "player_2", "A team's two players must be two different people."),
    ]
    assert Team.objects.filter(club=club).count() == 1
    good = "name,player_1,player_2\nDe Manilles,A1,bert\nTwee Cissen,An,C2\nbestaand,An,Bert\n"
    response = upload(browser, club, csv_file(good, name="teams.csv"))
    assert [r.action for r in response.context["preview"].rows] == ["new", "new", "update"]
    response = confirm(browser, club, response)
    assert response.redirect_chain[-1][0] == reverse("ws:club-teams", args=[club.pk])
    team = Team.objects.get(club=club, name="De Manilles")
    assert (team.player_1.name, team.player_2.name) == ("An", "Bert")
    assert Team.objects.get(club=club, name="bestaand").player_1.name == "An"


def test_teams_need_their_players_imported_first(browser, club):
    response = upload(browser, club, csv_file("name,player_1,player_2\nNieuw,Xavier,Yves\n", name="t.csv"))
    assert errors_of(response) == [(2, "player_1", "The club has no player Xavier: import the players first."),
                                   (2, "player_2", "The club has no player Yves: import the players first.")]


# --------------------------------------------------------------------------- export and round trip


def test_export_csv_round_trips(browser, club):
    PlayerFactory(club=club, name="An", licence="A1")
    PlayerFactory(club=club, name="=1+1")  # a spreadsheet formula, never run
    PlayerFactory(club=club, name="Oud", retired=True)
    response = browser.get(reverse("ws:club-export", args=[club.pk, "players", "csv"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0] == "id,name,licence,retired"
    assert "'=1+1" in text and re.search(r",Oud,,yes\r?$", text, re.M)
    response = upload(browser, club, csv_file(text))
    preview = response.context["preview"]
    assert preview.ok and preview.unchanged == 3, [(r.action, r.errors) for r in preview.rows]
    edited = text.replace(",An,A1,no", ",Anna,A1,no") + ",Nieuw,,no\n"
    response = upload(browser, club, csv_file(edited))
    assert [r.action for r in response.context["preview"].rows].count("skip") == 2
    changed = [r for r in response.context["preview"].rows if r.action == "update"]
    assert [(r.values["name"], r.was) for r in changed] == [("Anna", {"name": "An"})]
    assert "was: An" in response.content.decode()
    confirm(browser, club, response)
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == ["=1+1", "Anna", "Nieuw",
                                                                                       "Oud"]


def test_export_xlsx_teams_round_trips(browser, club):
    a, b = PlayerFactory(club=club, name="An"), PlayerFactory(club=club, name="Bert", licence="B1")
    PlayerFactory(club=club, name="Bert", licence="B2")  # two Berts: the export names this one by licence
    TeamFactory(club=club, name="=cmd|' /C calc'!A0", player_1=a, player_2=b)
    response = browser.get(reverse("ws:club-export", args=[club.pk, "teams", "xlsx"]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows[0] == ["id", "name", "player_1", "player_2", "retired"]
    assert rows[1][1:] == ["=cmd|' /C calc'!A0", "An", "B1", "no"]
    assert sheet.cell(row=2, column=2).data_type == "s", "a name is text, never a formula"
    response = upload(browser, club, SimpleUploadedFile("teams.xlsx", response.content))
    assert response.context["preview"].ok and response.context["preview"].unchanged == 1


def test_export_of_an_empty_club_has_the_headers(browser, club):
    text = browser.get(reverse("ws:club-export", args=[club.pk, "teams", "csv"])).content.decode("utf-8-sig")
    assert text.strip() == "id,name,player_1,player_2,retired"
    assert browser.get(reverse("ws:club-export", args=[club.pk, "games", "csv"])).status_code == 404
    assert browser.get(reverse("ws:club-export", args=[club.pk, "teams", "pdf"])).status_code == 404


def test_export_is_only_for_the_clubs_managers(club):
    PlayerFactory(club=club, name="Secret")
    outsider = UserFactory(username="outsider")
    ClubFactory().managers.add(outsider)
    client = Client()
    client.force_login(outsider)
    for fmt in ("csv", "xlsx"):
        assert client.get(reverse("ws:club-export", args=[club.pk, "players", fmt])).status_code == 404
    assert client.post(import_url(club), {"file": csv_file("name\nX\n")}).status_code == 404
    assert not Player.objects.filter(name="X").exists()

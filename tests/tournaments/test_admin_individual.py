"""The admin of individual events (issue 26): the event's settings, players entered with start numbers, pairs kept
apart, a round's seats and kept draws, a match's players, the standings' players."""

import pytest
from django.urls import reverse

from tests.api.individual import enter_players, individual_event
from tests.factories import TeamFactory
from tournaments.models import Entry, KeptApart, Match, Round, RoundDraw, Standing, Tournament
from tournaments.services.draws import round_redraw
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),  # whitenoise: no collectstatic in tests
]


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def event(db):
    tournament = individual_event(name="Kaarting van de Kat")
    players = enter_players(tournament, 9)
    round_pair(tournament=tournament)
    round_redraw(round=Round.objects.get(tournament=tournament, number=1))
    return tournament, players


def test_an_individual_events_page_shows_its_players_by_start_number_and_its_pairs_kept_apart(admin_client, event):
    tournament, players = event
    KeptApart.objects.create(tournament=tournament, player_a=players[0], player_b=players[1], reason="a couple")
    page = admin_client.get(url(Tournament, "change", tournament.pk))
    assert page.status_code == 200
    inlines = {i.formset.model.__name__: i for i in page.context["inline_admin_formsets"]}
    assert set(inlines) == {"Entry", "KeptApart", "Stage", "Round"}
    entries = inlines["Entry"]
    assert [f.instance.start_number for f in entries.formset.forms if f.instance.pk] == list(range(1, 10))
    assert "start_number" in entries.formset.forms[0].fields and "team" not in entries.formset.forms[0].fields
    html = page.content.decode()
    assert "a couple" in html and 'name="entry"' in html and 'name="match_length"' in html
    assert 'name="sit_out_score"' in html and 'name="club_best_n"' in html


def test_a_team_events_page_keeps_its_team_entries(admin_client):
    from tests.factories import EntryFactory, TournamentFactory

    tournament = TournamentFactory()
    EntryFactory(tournament=tournament)
    page = admin_client.get(url(Tournament, "change", tournament.pk))
    inlines = {i.formset.model.__name__: i for i in page.context["inline_admin_formsets"]}
    assert set(inlines) == {"Entry", "Stage", "Round"} and "team" in inlines["Entry"].formset.forms[0].fields


def test_a_rounds_page_shows_its_tables_seats_and_every_draw(admin_client, event):
    tournament, players = event
    rnd = Round.objects.get(tournament=tournament, number=1)
    page = admin_client.get(url(Round, "change", rnd.pk))
    assert page.status_code == 200
    inlines = {i.formset.model.__name__: i for i in page.context["inline_admin_formsets"]}
    assert set(inlines) == {"Match", "RoundSeat", "RoundDraw"}
    assert len(inlines["RoundSeat"].formset.forms) == 9 and len(inlines["RoundDraw"].formset.forms) == 2
    html = page.content.decode()
    assert rnd.seed in html and "sits out" in html
    match = rnd.matches.order_by("table").first()
    seated = {s.player.name for s in match.seats.select_related("player")}
    assert all(name in html for name in seated)
    assert RoundDraw.objects.filter(round=rnd).count() == 2


def test_a_matchs_page_names_its_players_and_keeps_them_as_drawn(admin_client, event):
    tournament, _ = event
    match = Match.objects.filter(round__tournament=tournament).order_by("table").first()
    page = admin_client.get(url(Match, "change", match.pk))
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert "ns" not in form.fields and "table" not in form.fields and "round" not in form.fields
    html = page.content.decode()
    assert all(s.player.name in html for s in match.seats.select_related("player"))
    assert match.table_code in html
    listed = admin_client.get(url(Match, "changelist") + "?q=" + match.seats.first().player.name)
    assert listed.status_code == 200 and match.pk in [m.pk for m in listed.context["cl"].result_list]


def test_the_standings_list_shows_the_players(admin_client, event):
    tournament, players = event
    standings_recompute(tournament=tournament)
    assert Standing.objects.filter(tournament=tournament, player__isnull=False).count() == 9
    page = admin_client.get(url(Standing, "changelist") + f"?tournament__id__exact={tournament.pk}")
    assert page.status_code == 200 and all(p.name in page.content.decode() for p in players)
    found = admin_client.get(url(Standing, "changelist") + "?q=" + players[3].name)
    assert [s.player_id for s in found.context["cl"].result_list] == [players[3].pk]


def test_an_entry_of_the_other_kind_is_refused_by_the_admins_form(admin_client, event):
    tournament, players = event
    team = TeamFactory()
    page = admin_client.post(url(Entry, "add"), {"tournament": tournament.pk, "team": team.pk})
    assert page.status_code == 200 and "team" in page.context["adminform"].form.errors
    assert not Entry.objects.filter(team=team).exists()
    other = Tournament.objects.create(name="Beker", slug="beker", variant="belgian-manille")
    page = admin_client.post(url(Entry, "add"), {"tournament": other.pk, "player": players[0].pk})
    assert page.status_code == 200 and "player" in page.context["adminform"].form.errors


def test_an_organizer_picks_any_clubs_player_for_an_entry_or_a_pair(client, event):
    tournament, players = event
    from tests.tournaments.test_admin_volunteers import volunteer as make_volunteer

    volunteer = make_volunteer("volunteer")
    tournament.organizers.add(volunteer)
    client.force_login(volunteer)
    for model_name, field in (("entry", "player"), ("keptapart", "player_a")):
        answer = client.get(reverse("admin:autocomplete"), {"app_label": "tournaments", "model_name": model_name,
                                                           "field_name": field, "term": players[4].name})
        assert answer.status_code == 200, (model_name, answer.content[:200])
        assert [r["text"] for r in answer.json()["results"]] == [players[4].name]
    KeptApart.objects.create(tournament=tournament, player_a=players[0], player_b=players[1])
    KeptApart.objects.create(tournament=individual_event(name="Another"), player_a=players[2], player_b=players[3])
    pairs = client.get(url(KeptApart, "changelist"))
    assert pairs.status_code == 200 and [p.tournament for p in pairs.context["cl"].result_list] == [tournament]
    assert client.get(url(KeptApart, "add")).status_code == 200


def test_the_admins_form_refuses_an_individual_round_robin_with_the_rules_code(admin_client):
    from tests.tournaments.test_admin_desk import add_post

    belgian = {"options_variant": "belgian-manille", "option_target": 101, "option_tie_doubling": "next"}
    page = admin_client.post(url(Tournament, "add"), add_post("belgian-manille", entry="individual",
                                                               format="round_robin", **belgian))
    assert page.status_code == 200
    assert [e.code for e in page.context["adminform"].form.errors.as_data()["format"]] == ["format_for_entry"]
    made = admin_client.post(url(Tournament, "add"), add_post("belgian-manille", entry="individual", format="tables",
                                                              match_length="timed", minutes=30, **belgian))
    assert made.status_code == 302, made.context["adminform"].form.errors
    assert Tournament.objects.get(slug="new-cup").is_individual


def test_a_game_sheet_of_an_individual_match_names_its_partnerships(admin_client, event):
    from tests.api.deals import summary
    from tournaments.models import Game
    from tournaments.services.hands import hand_enter

    tournament, _ = event
    match = Match.objects.filter(round__tournament=tournament).order_by("table").first()
    hand, _ = hand_enter(match=match, data=summary("N"))
    seated = {s.seat: s.player.name for s in match.seats.select_related("player")}
    page = admin_client.get(url(Game, "change", hand.game.pk)).content.decode()
    assert f"{seated['N']} &amp; {seated['S']}" in page and f"{seated['E']} &amp; {seated['W']}" in page

"""The admin for volunteers: scoped by role, the Volunteers group, and the data-entry desk's rough edges gone."""

import pytest
import scoring
from django.contrib.auth.models import Group
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, MatchFactory, PlayerFactory, TeamFactory, TournamentFactory, \
    UserFactory
from tests.tournaments.test_admin import hand_formset, new_hand_post, rendered_post_data, summary, url
from tournaments.models import Club, Game, Hand, Match, Player, Round, TaskRecord, Team, Tournament
from tournaments.services.hands import hand_enter

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def volunteers_group() -> Group:
    """The Volunteers group the migrations made (made again after a transactional test's flush emptied it)."""
    import importlib

    from django.contrib.auth.models import Permission

    group, created = Group.objects.get_or_create(name="Volunteers")
    if created:
        for name in ("0006_volunteers_group", "0015_volunteers_keep_players_apart"):
            migration = importlib.import_module(f"tournaments.migrations.{name}")
            codenames = [f"{a}_{m}" for m, actions in migration.PERMISSIONS.items() for a in actions]
            group.permissions.add(*Permission.objects.filter(content_type__app_label="tournaments",
                                                             codename__in=codenames))
    return group


def volunteer(username: str, **fields):
    """A staff user in the Volunteers group (made by the migration), with no role yet."""
    user = UserFactory(username=username, is_staff=True, **fields)
    user.groups.add(volunteers_group())
    return user


@pytest.fixture
def two_tournaments(db):
    """Tournaments A and B, a Belgian match with one hand in each; ``keeper`` keeps score of A only."""
    a = TournamentFactory(name="Alpha Cup", variant="belgian-manille", best_of=3)
    b = TournamentFactory(name="Bravo Cup", variant="belgian-manille", best_of=3)
    match_a = MatchFactory(round__tournament=a, ns__name="Ajuinen", ew__name="Boeren")
    match_b = MatchFactory(round__tournament=b, ns__name="Zotten", ew__name="Zwanen")
    hand_a, _ = hand_enter(match=match_a, data=summary("N", 37))
    hand_b, _ = hand_enter(match=match_b, data=summary("N", 37))
    keeper = volunteer("keeper")
    a.scorekeepers.add(keeper)
    return {"a": a, "b": b, "match_a": match_a, "match_b": match_b, "hand_a": hand_a, "hand_b": hand_b,
            "keeper": keeper}


def test_the_volunteers_group_comes_from_the_migration_with_the_data_entry_permissions():
    codenames = set(Group.objects.get(name="Volunteers").permissions.values_list("codename", flat=True))
    assert {"view_match", "change_match", "change_game", "view_hand", "add_tournament", "change_tournament",
            "add_entry", "change_team", "add_player"} <= codenames
    assert not {"delete_tournament", "add_club", "delete_match", "change_user"} & codenames


def test_a_scorekeeper_of_a_gets_404_for_bs_match_game_and_hand(client, two_tournaments):
    t = two_tournaments
    client.force_login(t["keeper"])
    game_b = t["hand_b"].game
    for address in (url(Match, "change", t["match_b"].pk), url(Game, "change", game_b.pk),
                    url(Hand, "change", t["hand_b"].pk), url(Hand, "history", t["hand_b"].pk),
                    reverse("admin:tournaments_match_start_next_game", args=[t["match_b"].pk])):
        assert client.get(address).status_code == 404, address
    # A's are open to them.
    assert client.get(url(Match, "change", t["match_a"].pk)).status_code == 200
    assert client.get(url(Game, "change", t["hand_a"].game.pk)).status_code == 200
    assert client.get(url(Hand, "history", t["hand_a"].pk)).status_code == 200


def test_a_scorekeeper_of_a_gets_404_for_a_version_of_bs_hand(client, two_tournaments):
    """The history list was scoped; the page of one version was not: any hand's versions could be read by id."""
    t = two_tournaments
    client.force_login(t["keeper"])

    def version_url(hand):
        version = hand.history.order_by("history_id").first()
        return reverse("admin:tournaments_hand_simple_history", args=[hand.pk, version.history_id])

    assert client.get(version_url(t["hand_b"])).status_code == 404
    assert client.get(version_url(t["hand_a"])).status_code == 200


def test_a_scorekeepers_lists_search_and_filters_show_only_their_tournaments(client, two_tournaments):
    t = two_tournaments
    client.force_login(t["keeper"])
    for model, query in ((Match, ""), (Match, "?q=Cup"), (Game, ""), (Hand, ""), (Hand, "?q=Z")):
        response = client.get(url(model, "changelist") + query)
        assert response.status_code == 200, (model, query)
        shown = set(response.context["cl"].result_list)
        assert all(_tournament_of(obj) == t["a"] for obj in shown), (model, query, shown)
        assert "Bravo Cup" not in response.content.decode(), (model, query)  # not even in a filter
    assert set(client.get(url(Match, "changelist")).context["cl"].result_list) == {t["match_a"]}
    assert list(client.get(url(Match, "changelist") + "?q=Zotten").context["cl"].result_list) == []


def _tournament_of(obj):
    if isinstance(obj, Hand):
        obj = obj.game
    if isinstance(obj, Game):
        obj = obj.match
    return obj.round.tournament


def test_a_scorekeeper_sees_no_tournament_entry_round_club_or_team_pages(client, two_tournaments):
    t = two_tournaments
    client.force_login(t["keeper"])
    index = client.get(reverse("admin:index"))
    models = {m["object_name"] for app in index.context["app_list"] for m in app["models"]}
    assert models == {"Match", "Game", "Hand"}
    for model in (Tournament, Round, Club, Team, Player):
        assert client.get(url(model, "changelist")).status_code == 403, model
    assert client.get(url(Tournament, "change", t["a"].pk)).status_code in (403, 404)


def test_a_scorekeeper_cannot_change_the_teams_or_round_of_a_match(client, two_tournaments):
    t = two_tournaments
    client.force_login(t["keeper"])
    response = client.get(url(Match, "change", t["match_a"].pk))
    form = response.context["adminform"].form
    assert not {"ns", "ew", "round", "table", "points_ns", "points_ew", "status"} & set(form.fields)


def test_an_organizer_sees_their_tournament_entries_and_rounds_only(client, two_tournaments):
    t = two_tournaments
    organizer = volunteer("org")
    t["a"].organizers.add(organizer)
    EntryFactory(tournament=t["a"])
    EntryFactory(tournament=t["b"])
    client.force_login(organizer)
    assert list(client.get(url(Tournament, "changelist")).context["cl"].result_list) == [t["a"]]
    assert client.get(url(Tournament, "change", t["b"].pk)).status_code == 404
    assert client.get(url(Round, "change", t["match_b"].round.pk)).status_code == 404
    entries = client.get(url(Tournament.entries.rel.related_model, "changelist")).context["cl"].result_list
    assert {e.tournament for e in entries} == {t["a"]}
    # The tournament autocomplete of an entry offers A only.
    response = client.get(reverse("admin:autocomplete"), {"app_label": "tournaments", "model_name": "entry",
                                                          "field_name": "tournament", "term": "Cup"})
    assert [r["text"] for r in response.json()["results"]] == ["Alpha Cup"]
    # ...and the team autocomplete every club's teams: an organizer enters teams of any club.
    response = client.get(reverse("admin:autocomplete"), {"app_label": "tournaments", "model_name": "entry",
                                                          "field_name": "team", "term": "Z"})
    assert {"Zotten", "Zwanen"} <= {r["text"] for r in response.json()["results"]}


def test_a_club_manager_sees_their_clubs_players_and_teams_only(client):
    mine, other = ClubFactory(name="Mine"), ClubFactory(name="Other")
    TeamFactory(club=mine, name="Our team")
    TeamFactory(club=other, name="Their team")
    manager = volunteer("manager")
    mine.managers.add(manager)
    client.force_login(manager)
    assert [str(t) for t in client.get(url(Team, "changelist")).context["cl"].result_list] == ["Our team"]
    assert {p.club for p in client.get(url(Player, "changelist")).context["cl"].result_list} == {mine}
    assert list(client.get(url(Club, "changelist")).context["cl"].result_list) == [mine]
    assert client.get(url(Club, "change", other.pk)).status_code == 404
    assert client.get(url(Player, "change", PlayerFactory(club=other).pk)).status_code == 404


def test_a_superuser_sees_everything(admin_client, two_tournaments):
    shown = set(admin_client.get(url(Match, "changelist")).context["cl"].result_list)
    assert shown == {two_tournaments["match_a"], two_tournaments["match_b"]}


def test_a_tournament_created_in_the_admin_makes_its_creator_an_organizer(client):
    club = ClubFactory()
    user = volunteer("founder")
    club.managers.add(user)
    client.force_login(user)
    response = client.post(url(Tournament, "add"), {
        "name": "New Cup", "slug": "new-cup", "variant": "belgian-manille", "format": "swiss", "rounds": 3,
        "best_of": 3, "options_variant": "belgian-manille", "option_target": 101, "option_tie_doubling": "next",
        "option_blind_allowed": "on", "public": "on", "status": "draft", "tiebreaks": '["match_points"]',
        "points_win": 2, "points_draw": 1, "points_bye": 2, "separate_clubs_rounds": 0,
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0, "round_set-TOTAL_FORMS": 0,
        "round_set-INITIAL_FORMS": 0})
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament = Tournament.objects.get(slug="new-cup")
    assert list(tournament.organizers.all()) == [user]
    assert client.get(url(Tournament, "change", tournament.pk)).status_code == 200


def test_a_volunteer_has_only_their_roles_in_the_api_and_the_site_too():
    """Staff in the Volunteers group is scoped everywhere; other staff (and superusers) see everything."""
    from tournaments import access

    private = TournamentFactory(name="Besloten", slug="besloten", public=False)
    keeper = volunteer("api-keeper")
    assert not access.visible_tournaments(keeper).filter(pk=private.pk).exists()
    assert not access.can_keep_score(keeper, private.pk)
    private.scorekeepers.add(keeper)
    assert access.can_keep_score(UserFactory._meta.model.objects.get(pk=keeper.pk), private.pk)
    staff = UserFactory(username="plain-staff", is_staff=True)
    assert access.is_unscoped(staff) and access.visible_tournaments(staff).filter(pk=private.pk).exists()
    assert access.is_unscoped(UserFactory(username="root", is_staff=True, is_superuser=True))

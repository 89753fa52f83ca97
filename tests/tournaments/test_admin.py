"""The admin: hands typed inline are checked by the engine, games start through the action (every page renders over
the demo: test_admin_demo.py)."""

from html.parser import HTMLParser

import pytest
import scoring
from django.forms import CheckboxInput
from django.urls import reverse

from tests.factories import MatchFactory, TeamFactory, TournamentFactory
from tournaments.models import ForbiddenPair, Game, Hand, Match
from tournaments.services.hand_data import engine_hands, game_settings
from tournaments.services.hands import hand_enter

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),  # whitenoise: no collectstatic in tests
]


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def summary(dealer: str, ns_points: int, *, trump="H", tricks=(5, 3), **extra) -> dict:
    return {"dealer": dealer, "trump": trump, "tricks": {"ns": tricks[0], "ew": tricks[1]},
            "points": {"ns": ns_points, "ew": 60 - ns_points}, **extra}


@pytest.fixture
def belgian_match(db):
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    return MatchFactory(round__tournament=tournament)


@pytest.fixture
def game_in_progress(belgian_match):
    """Game 1 of a Belgian match with two hands entered through the service."""
    hand_enter(match=belgian_match, data=summary("N", 37))
    hand, _ = hand_enter(match=belgian_match, data=summary("E", 25, tricks=(3, 5)))
    return hand.game


# -- every page: tests/tournaments/test_admin_demo.py (over the demo, loaded once) --------------------------------


def test_game_change_page_shows_its_hands_inline(admin_client, game_in_progress):
    response = admin_client.get(url(Game, "change", game_in_progress.pk))
    assert response.status_code == 200
    formset = hand_formset(response)
    assert formset.initial_form_count() == 2
    assert len(formset.forms) == 3  # the two hands and one blank row for the next
    assert f'name="{formset.prefix}-TOTAL_FORMS"' in response.content.decode()
    assert [f.instance.number for f in formset.forms[:2]] == [1, 2]


# -- hands typed inline ---------------------------------------------------------------------------


def hand_formset(response):
    """The Hand inline formset of a rendered Game change page."""
    (inline,) = [i for i in response.context["inline_admin_formsets"] if i.formset.model is Hand]
    return inline.formset


def rendered_post_data(response) -> dict:
    """What the browser would send back unchanged: the page's form and every inline formset, as rendered."""
    forms = [response.context["adminform"].form]
    data: dict = {}
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        forms.append(formset.management_form)
        forms.extend(formset.forms)
    for form in forms:
        for name, field in form.fields.items():
            value = form[name].value()
            key = form.add_prefix(name)
            if isinstance(field.widget, CheckboxInput):
                if value:
                    data[key] = "on"
            elif isinstance(value, (list, tuple)):
                data[key] = [str(v) for v in value]
            else:
                data[key] = "" if value is None else str(value)
    return data


def new_hand_post(client, game: Game, **fields) -> tuple[dict, int]:
    """GET the game's page and fill its blank hand row with ``fields``; return the POST data and the row's index."""
    page = client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    data = rendered_post_data(page)
    blank = formset.forms[formset.initial_form_count()]
    assert not blank.instance.pk
    for name, value in fields.items():
        data[blank.add_prefix(name)] = str(value)
    return data, formset.initial_form_count()


def test_a_hand_whose_points_do_not_add_up_is_refused_on_its_points_field(admin_client, game_in_progress):
    game = game_in_progress
    before = (Hand.objects.count(), Hand.history.count(), game.total_ns, game.total_ew)
    data, row = new_hand_post(admin_client, game, dealer=game.next_dealer, trump="H", tricks_ns=5, tricks_ew=3,
                              points_ns=37, points_ew=22)
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 200  # re-rendered with the errors, not redirected
    form = hand_formset(response).forms[row]
    assert form.errors["points_ns"] == ["The points of the two teams must add up to 60; these add up to 59."]
    assert "points_total" not in response.content.decode()  # plain words: the codes stay in the API
    game.refresh_from_db()
    assert (Hand.objects.count(), Hand.history.count(), game.total_ns, game.total_ew) == before


def test_a_legal_hand_is_stored_through_the_services_with_the_engines_score(admin_client, admin_user,
                                                                          game_in_progress):
    game = game_in_progress
    history_before = Hand.history.count()
    data, _ = new_hand_post(admin_client, game, dealer=game.next_dealer, trump="none", doublings=1,
                            tricks_ns=6, tricks_ew=2, points_ns=41, points_ew=19)
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302, response.context and [
        f.errors for f in hand_formset(response).forms]
    hand = Hand.objects.get(game=game, number=3)
    expected = scoring.fold_game(game_settings(game), engine_hands(list(game.hands.order_by("number"))))
    assert hand.score == expected.hands[-1].score == {"ns": (41 - 30) * 2 * 2, "ew": 0}
    assert hand.multiplier == 4 and hand.trump == "none" and hand.doublings == 1
    assert hand.entered_by == admin_user
    game.refresh_from_db()
    assert game.totals == expected.totals
    # The two hands already there went back unchanged: entered once, never "corrected".
    assert Hand.history.count() == history_before + 1
    assert hand.history.get().history_user == admin_user


def test_a_blank_row_saves_nothing(admin_client, game_in_progress):
    data, _ = new_hand_post(admin_client, game_in_progress)
    response = admin_client.post(url(Game, "change", game_in_progress.pk), data)
    assert response.status_code == 302
    assert game_in_progress.hands.count() == 2


# -- the "start the next game" action ---------------------------------------------------------------


class FormInputs(HTMLParser):
    """Collect the named inputs and selects of a page's forms, as a browser would submit them."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "checkbox"):
            self.data.setdefault(name, []).append(attrs.get("value") or "")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and ("selected" in attrs or not self.data[self._select]):
            self.data[self._select] = [attrs.get("value") or ""]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


@pytest.fixture
def match_between_games(belgian_match):
    """A match whose first boam is won (muul, all tricks: 120) and whose second has not started."""
    hand_enter(match=belgian_match, data=summary("S", 60, trump="none", tricks=(8, 0)))
    belgian_match.refresh_from_db()
    assert belgian_match.status == Match.Status.PLAYING and belgian_match.games_won_ns == 1
    return belgian_match


def test_start_next_game_asks_for_the_first_dealer_then_starts_it(admin_client, match_between_games):
    match = match_between_games
    changelist = url(Match, "changelist")
    page = admin_client.post(changelist, {"action": "start_next_game", "_selected_action": [match.pk]})
    assert page.status_code == 200
    assert "admin/tournaments/start_next_game.html" in [t.name for t in page.templates]
    assert list(page.context["matches"]) == [match]
    assert not Game.objects.filter(match=match, number=2).exists()  # asking is not starting

    inputs = FormInputs()
    inputs.feed(page.content.decode())
    assert inputs.data["_selected_action"] == [str(match.pk)] and inputs.data["action"] == ["start_next_game"]
    data = {name: values for name, values in inputs.data.items() if name != "csrfmiddlewaretoken"}
    data["first_dealer"] = ["E"]
    data["apply"] = ["Start"]
    response = admin_client.post(changelist, data)
    assert response.status_code == 302
    game = Game.objects.get(match=match, number=2)
    assert (game.first_dealer, game.next_dealer, game.status) == ("E", "E", Game.Status.PLAYING)
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("Started the next game of 1 match" in m for m in messages)


def test_start_next_game_refuses_a_decided_match_in_plain_words(admin_client, match_between_games):
    match = match_between_games
    hand_enter(match=match, data=summary("W", 60, trump="none", tricks=(8, 0)))  # game 2: 2–0
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    response = admin_client.post(url(Match, "changelist"), {
        "action": "start_next_game", "_selected_action": [match.pk], "first_dealer": "N", "apply": "Start"},
        follow=True)
    assert response.status_code == 200
    assert "The match is already decided" in response.content.decode()
    assert "[game_over]" not in response.content.decode()
    assert match.games.count() == 2


def test_a_forbidden_pair_typed_either_way_round_is_stored_in_order(admin_client):
    tournament = TournamentFactory()
    low, high = sorted([TeamFactory(), TeamFactory()], key=lambda t: t.pk)
    response = admin_client.post("/admin/tournaments/forbiddenpair/add/", {
        "tournament": tournament.pk, "team_a": high.pk, "team_b": low.pk, "reason": "brothers"})
    assert response.status_code == 302, response.content.decode()[:2000]
    pair = ForbiddenPair.objects.get()
    assert (pair.team_a_id, pair.team_b_id) == (low.pk, high.pk)

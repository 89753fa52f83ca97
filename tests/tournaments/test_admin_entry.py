"""The admin's data-entry desk: refusals alone and in plain words, the variant's own choices, stay on the game."""

import pytest
from django.urls import reverse

from tests.factories import MatchFactory, TournamentFactory
from tests.tournaments.test_admin import hand_formset, new_hand_post, rendered_post_data, summary, url
from tournaments.models import Game, Hand, Match, Round, TaskRecord, Tournament
from tournaments.services.hands import hand_enter

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def make_match(variant="belgian-manille", **options):
    tournament = TournamentFactory(variant=variant, best_of=3, options=options)
    return MatchFactory(round__tournament=tournament, ns__name="Ajuinen", ew__name="Boeren")


@pytest.fixture
def game_with_two_hands(db):
    match = make_match()
    hand_enter(match=match, data=summary("N", 37))
    hand, _ = hand_enter(match=match, data=summary("E", 25, tricks=(3, 5)))
    return hand.game


def messages_of(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


def test_deleting_a_hand_that_is_not_the_last_shows_the_refusal_alone_and_saves_nothing(admin_client,
                                                                                        game_with_two_hands):
    game = game_with_two_hands
    page = admin_client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    data = rendered_post_data(page)
    data[formset.forms[0].add_prefix("DELETE")] = "on"
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 200
    content = response.content.decode()
    assert "Only the last hand can be deleted (hand 2)" in content
    assert "changed successfully" not in content and "Nothing saved:" not in content
    assert not any("success" in m for m in messages_of(response))
    assert game.hands.count() == 2


def test_deleting_the_last_hand_works_and_stays_on_the_game(admin_client, game_with_two_hands):
    game = game_with_two_hands
    page = admin_client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    data = rendered_post_data(page)
    data[formset.forms[1].add_prefix("DELETE")] = "on"
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302 and response["Location"] == url(Game, "change", game.pk)
    assert game.hands.count() == 1


def test_a_matchs_computed_fields_and_its_teams_are_read_only_once_a_hand_exists(admin_client):
    match = make_match()
    form = admin_client.get(url(Match, "change", match.pk)).context["adminform"].form
    assert {"ns", "ew", "round", "table"} <= set(form.fields)  # nothing played: the pairing may still change
    assert not {"points_ns", "points_ew", "status", "winner", "games_won_ns", "explanation", "why"} & set(form.fields)
    hand_enter(match=match, data=summary("N", 37))
    form = admin_client.get(url(Match, "change", match.pk)).context["adminform"].form
    assert not {"ns", "ew", "round", "table"} & set(form.fields)
    round_form = admin_client.get(url(Round, "change", match.round.pk)).context["inline_admin_formsets"][0]
    assert not {"ns", "ew"} & set(round_form.formset.forms[0].fields)


def test_trump_offers_the_variants_suits_and_the_turned_card_the_decks_cards(admin_client, game_with_two_hands):
    form = hand_formset(admin_client.get(url(Game, "change", game_with_two_hands.pk))).forms[-1]
    assert [value for value, _ in form.fields["trump"].choices] == ["", "S", "H", "D", "C", "none"]
    assert dict(form.fields["trump"].choices)["S"] == "spades"
    assert [value for value, _ in form.fields["penalty_type"].choices] == ["", "signalling"]
    assert dict(form.fields["penalty_side"].choices) == {"": "—", "ns": "Ajuinen", "ew": "Boeren"}
    assert form.fields["tricks_ns"].label == "tricks Ajuinen"
    assert "turned_card" not in form.fields  # Belgian: the trump is chosen

    match = make_match("spanish-manilla")
    game = Game.objects.create(match=match, number=1, first_dealer="N", next_dealer="N")
    page = admin_client.get(url(Game, "change", game.pk))
    form = hand_formset(page).forms[-1]
    assert [value for value, _ in form.fields["trump"].choices] == ["", "O", "C", "E", "B"]  # no "none" in Spain
    cards = dict(form.fields["turned_card"].choices)
    assert "sota de oros" in str(cards) or "of oros" in str(cards)
    assert "penalty_type" not in form.fields
    headers = [h["label"] for inline in page.context["inline_admin_formsets"] for h in inline.fields()]
    assert "turn-up bonus" in headers  # the Spanish turn-up bonus column


def test_belgian_games_show_no_turn_up_bonus_column_and_name_the_teams_in_the_headers(admin_client,
                                                                                      game_with_two_hands):
    page = admin_client.get(url(Game, "change", game_with_two_hands.pk))
    headers = [h["label"] for inline in page.context["inline_admin_formsets"] for h in inline.fields()]
    assert "turn-up bonus" not in headers
    assert "score Ajuinen–Boeren" in headers and "totals Ajuinen–Boeren" in headers


def test_a_bad_hand_is_refused_on_its_field_in_plain_words(admin_client, game_with_two_hands):
    game = game_with_two_hands
    data, row = new_hand_post(admin_client, game, dealer="W", trump="S", tricks_ns=8, tricks_ew=0,
                              points_ns=50, points_ew=10)
    response = admin_client.post(url(Game, "change", game.pk), data)
    form = hand_formset(response).forms[row]
    assert form.errors["dealer"] == ["S deals this hand: E dealt the previous one."]
    content = response.content.decode()
    assert "[" + "dealer_out_of_turn]" not in content and "all_tricks" not in content


def test_impossible_points_say_exactly_in_words(admin_client, game_with_two_hands):
    game = game_with_two_hands
    data, row = new_hand_post(admin_client, game, dealer="S", trump="S", tricks_ns=8, tricks_ew=0,
                              points_ns=50, points_ew=10)
    form = hand_formset(admin_client.post(url(Game, "change", game.pk), data)).forms[row]
    text = " ".join(str(e) for errors in form.errors.values() for e in errors)
    assert "between 60 and 60" not in text and "exactly" in text or "Boeren took no trick" in text, text


def test_the_blank_row_shows_the_next_multiplier_and_added_rows_the_next_dealer(admin_client):
    match = make_match()
    # A 30-30 tie: the next hand counts double.
    hand, _ = hand_enter(match=match, data=summary("N", 30, tricks=(4, 4)))
    game = hand.game
    game.refresh_from_db()
    assert game.next_multiplier == 2
    page = admin_client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    (inline,) = [i for i in page.context["inline_admin_formsets"] if i.formset.model is Hand]
    blank = list(inline)[-2]  # the last is the template of "Add another"
    shown = {field.field["name"]: field.contents() for fieldset in blank for line in fieldset for field in line
             if field.is_readonly}
    assert shown["multiplier_line"] == "×2"
    assert formset.forms[-1].initial["dealer"] == "E"
    assert formset.empty_form.initial["dealer"] == "E"  # "Add another" rows


def test_saving_stays_on_the_game_and_a_finished_game_offers_the_next(admin_client):
    match = make_match()
    game = hand_enter(match=match, data=summary("N", 37))[0].game
    data, _ = new_hand_post(admin_client, game, dealer="E", trump="none", doublings=0, tricks_ns=8, tricks_ew=0,
                            points_ns=60, points_ew=0)
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302 and response["Location"] == url(Game, "change", game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    start = reverse("admin:tournaments_match_start_next_game", args=[match.pk])
    assert any(start in m for m in messages_of(response))
    assert start in admin_client.get(url(Game, "change", game.pk)).content.decode()
    assert start in admin_client.get(url(Match, "change", match.pk)).content.decode()


def test_start_the_next_game_names_the_teams_asks_only_the_variants_draws_and_has_cancel(admin_client):
    match = make_match()
    start = reverse("admin:tournaments_match_start_next_game", args=[match.pk])
    page = admin_client.get(start)
    form = page.context["form"]
    assert set(form.fields) == {"first_dealer"}
    assert dict(form.fields["first_dealer"].choices)["N"] == "N (Ajuinen)"
    assert f'href="{url(Match, "change", match.pk)}"' in page.content.decode()  # Cancel
    response = admin_client.post(start, {"first_dealer": "W", "apply": "1"})
    game = Game.objects.get(match=match, number=1)
    assert response["Location"] == url(Game, "change", game.pk)
    assert game.first_dealer == "W"

    classic = make_match("classic-malilla")
    assert set(admin_client.get(reverse("admin:tournaments_match_start_next_game", args=[classic.pk]))
               .context["form"].fields) == {"first_dealer", "favourite"}
    albur = make_match("mexican-malilla", albur=True)
    form = admin_client.get(reverse("admin:tournaments_match_start_next_game", args=[albur.pk])).context["form"]
    assert set(form.fields) == {"first_dealer", "albur"}
    assert dict(form.fields["albur"].choices)["ew"] == "Boeren"


def test_a_tournament_page_pairs_the_next_round_and_links_the_standings(admin_client,
                                                                      django_capture_on_commit_callbacks):
    tournament = TournamentFactory(variant="belgian-manille", best_of=3, format="round_robin", rounds=3)
    from tests.factories import EntryFactory

    for _ in range(4):
        EntryFactory(tournament=tournament)
    page = admin_client.get(url(Tournament, "change", tournament.pk))
    content = page.content.decode()
    assert reverse("web:standings", args=[tournament.slug]) in content
    pair = reverse("admin:tournaments_tournament_pair_next_round", args=[tournament.pk])
    assert pair in content
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(pair)
    assert response.status_code == 302, messages_of(response)
    record = TaskRecord.objects.get(tournament=tournament)
    assert record.kind == TaskRecord.Kind.ROUND_PAIR
    assert Round.objects.filter(tournament=tournament, number=1).exists(), (record.status, record.error,
                                                                           messages_of(response))
    assert "Round 1" in admin_client.get(url(Tournament, "change", tournament.pk)).content.decode()


def test_pairing_a_tournament_without_two_teams_is_refused_in_words_with_no_task(admin_client):
    tournament = TournamentFactory(variant="belgian-manille")
    response = admin_client.post(reverse("admin:tournaments_tournament_pair_next_round", args=[tournament.pk]))
    assert response.status_code == 302
    assert messages_of(response) == ["A round needs at least two active teams: enter more teams first."]
    assert not TaskRecord.objects.exists()


def test_house_options_are_a_form_of_the_variants_options(admin_client):
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    page = admin_client.get(url(Tournament, "change", tournament.pk))
    form = page.context["adminform"].form
    assert {"option_target", "option_tie_doubling", "option_max_multiplier", "option_blind_allowed"} <= set(form.fields)
    assert "options" not in form.fields
    data = rendered_post_data(page)
    data["option_target"] = "151"
    data["option_tie_doubling"] = "stack"
    response = admin_client.post(url(Tournament, "change", tournament.pk), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    tournament.refresh_from_db()
    assert tournament.options == {"target": 151, "tie_doubling": "stack"}


def test_a_correction_keeps_its_reason_in_the_history(admin_client, game_with_two_hands):
    game = game_with_two_hands
    page = admin_client.get(url(Game, "change", game.pk))
    formset = hand_formset(page)
    data = rendered_post_data(page)
    data[formset.forms[1].add_prefix("points_ns")] = "26"
    data[formset.forms[1].add_prefix("points_ew")] = "34"
    data["correction_reason"] = "sheet misread"
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302
    record = Hand.objects.get(game=game, number=2).history.order_by("-history_date").first()
    assert record.history_change_reason == "corrected: sheet misread"
    history = admin_client.get(url(Hand, "history", record.id)).content.decode()
    assert "sheet misread" in history


def test_a_correction_without_a_reason_is_refused_and_nothing_saved(admin_client, game_with_two_hands):
    game = game_with_two_hands
    page = admin_client.get(url(Game, "change", game.pk))
    assert 'name="correction_reason"' in page.content.decode()
    formset = hand_formset(page)
    stored = Hand.objects.get(game=game, number=2)
    for reason in ("", "   "):
        data = rendered_post_data(page)
        data[formset.forms[1].add_prefix("points_ns")] = "26"
        data[formset.forms[1].add_prefix("points_ew")] = "34"
        data["correction_reason"] = reason
        response = admin_client.post(url(Game, "change", game.pk), data)
        assert response.status_code == 200  # the page again, with the error
        assert "Hand 2 is corrected: say why in the reason below" in response.content.decode().replace("&#x27;", "'")
        assert (Hand.objects.get(pk=stored.pk).points_ns, stored.history.count()) == (stored.points_ns, 1)
    data = rendered_post_data(page)
    data["correction_reason"] = ""
    new = formset.forms[-1]  # a new hand needs no reason: nothing stored changes
    data[new.add_prefix("dealer")] = game.next_dealer
    data[new.add_prefix("points_ns")] = "30"
    data[new.add_prefix("points_ew")] = "30"
    data[new.add_prefix("tricks_ns")] = "4"
    data[new.add_prefix("tricks_ew")] = "4"
    data[new.add_prefix("trump")] = "H"
    response = admin_client.post(url(Game, "change", game.pk), data)
    assert response.status_code == 302, (hand_formset(response).errors, hand_formset(response).non_form_errors())


def test_the_index_opens_on_the_matches_in_progress_of_the_users_tournaments(client, admin_client):
    from tests.tournaments.test_admin_volunteers import volunteer

    mine, other = make_match(), make_match()
    hand_enter(match=mine, data=summary("N", 37))
    hand_enter(match=other, data=summary("N", 37))
    keeper = volunteer("keeper")
    mine.round.tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    response = client.get(reverse("admin:index"))
    assert [m.pk for m in response.context["now_matches"]] == [mine.pk]
    assert url(Game, "change", mine.games.get().pk) in response.content.decode()
    assert {m.pk for m in admin_client.get(reverse("admin:index")).context["now_matches"]} == {mine.pk, other.pk}
    waiting = MatchFactory(round=mine.round, ns__name="Late", ew__name="Comers")  # no game yet: start it here
    response = client.get(reverse("admin:index"))
    assert waiting.pk in [m.pk for m in response.context["now_matches"]]
    assert reverse("admin:tournaments_match_start_next_game", args=[waiting.pk]) in response.content.decode()
